"""Precomputed tables of the batch decoder, one generated file per architecture.

    .venv/bin/python -m gpuisa.regen.batch [ARCH ...]     (regenerates codec/data/batch_<arch>.json: ``regen/batch.py``)

A fresh process would otherwise derive, on its first bulk decode, what ``batch_arch.ArchBatch`` holds:
the class table (every first-dword selector run through the scalar class chooser), the entry rows
(each operand's printing probed with the scalar operand printer), the operand texts (values below
1024 of every table; wider fields fill the rest at run time) and the templates of each (instruction,
encoding) for the plan's own word and the encoder's example words (``examples.variant_words``, with an
odd and an even VOPD destination), i.e. the instruction with its default modifiers; any other form
still gets its template made on first use.  Everything in the file is output of the scalar decoder,
stored; nothing is written by hand.  Generation also renders every value of a register field with
reserved values, so those fields become table lookups too; an entry none of whose own words makes a
template is left to the scalar path.

Format: JSON; the operand texts as text (one a line), the entries (with their cut operands), the
templates' keys and the class table as numpy columns (``pack``: dtype and base64 bytes), so that loading
is a few array copies rather than Python loops (the entries' numpy rows are loaded as they are; their
Python rows are made when first needed).

Staleness: the file carries a fingerprint of all the scalar decoder depends on (what the code of the codec
modules it imports does, read as syntax without docstrings and comments: ``code_digest``; the architecture's
plan/named/layout data; the instruction tables from the store), so that editing a comment rewrites no
table.  A fresh process checks it by the files' sizes and times (``_remembered``).  ``seed`` uses the
file only when the fingerprint matches; otherwise the batch decoder derives everything at run time, as
without the file (slower first decode, same output).  ``tests/test_codec_batch.py`` fails while a file
is stale, and checks sampled stored templates against fresh scalar renders.
"""

from __future__ import annotations

import ast
import binascii
import functools
import hashlib
import json
from pathlib import Path

import numpy as np

from ..cachefile import write_cache_file

HERE = Path(__file__).parent
DATA_DIR = HERE / "data"
REGEN = ".venv/bin/python -m gpuisa.regen.batch"
# The code the tables depend on: the codec modules that the scalar decoder, the batch tables' derivation and
# their loading import (``_ROOTS``, followed through every import, function bodies included), read as syntax
# (``normalised``: docstrings, comments and layout do not count), and the registry and model they read.
_ROOTS = ("decoder", "batch_arch", "batch_data")
_CONSUMERS = {"batch", "batch_text", "batch_render"}  # the bulk loop and its text forms use the tables: not followed
_SHARED = ("archs.py", "model.py")
_REMEMBERED = 16  # fingerprints remembered (per set of files: an architecture in one checkout)
MAXC = 8  # cut operands per entry at most (the columns of a template's pool bases)
STORED_TEXTS = 1024  # operand texts stored per table: values below this (wider fields fill the rest at run time)


def data_path(arch: str) -> Path:
    return DATA_DIR / f"batch_{arch}.json"


def _arch_files(arch: str) -> list[Path]:
    from .plans import DONOR

    out = []
    for kind in ("plans", "named", "layouts"):
        p = DATA_DIR / f"{kind}_{arch}.json"
        if not p.exists() and arch in DONOR:
            p = DATA_DIR / f"{kind}_{DONOR[arch]}.json"
        if p.exists():
            out.append(p)
    return out


def _imported(tree: ast.AST) -> set[str]:
    """The codec modules a module imports anywhere (``from . import x``, ``from .x import y``, absolute forms)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("gpuisa.codec"):
            parts = (node.module or "").split(".")
            out.update([parts[2]] if len(parts) > 2 else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names if a.name.startswith("gpuisa.codec."))
    return out


class _NoDocstrings(ast.NodeTransformer):
    def visit_Expr(self, node: ast.Expr):
        """A string standing alone (a docstring) says nothing the code does: dropped."""
        return None if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) else node


def normalised(tree: ast.AST) -> str:
    """The module's syntax tree without its docstrings, as text (comments and layout are not in the tree)."""
    return ast.dump(_NoDocstrings().visit(tree))


def _code(codec_dir: Path) -> dict[Path, ast.AST]:
    """The parsed codec modules ``_ROOTS`` reach through their imports, and the shared modules."""
    trees: dict[Path, ast.AST] = {}
    todo = list(_ROOTS)
    while todo:
        name = todo.pop()
        path = codec_dir / f"{name}.py"
        if name in _CONSUMERS or path in trees or not path.is_file():
            continue
        trees[path] = ast.parse(path.read_text())
        todo += sorted(_imported(trees[path]))
    for name in _SHARED:
        trees[codec_dir.parent / name] = ast.parse((codec_dir.parent / name).read_text())
    return dict(sorted(trees.items()))


def code_digest(codec_dir: Path = HERE) -> str:
    """A digest of what the code the tables depend on does (``_code``): a comment or docstring edited, a line
    wrapped, a module the decoder does not import changed, and the digest stays."""
    h = hashlib.sha256()
    for path, tree in _code(codec_dir).items():
        h.update(path.name.encode() + b"\0" + normalised(tree).encode() + b"\0")
    return h.hexdigest()


def _source_files(arch: str) -> list[Path]:
    """The files the tables depend on: the code (``_code``) and the architecture's data files."""
    return list(_code(HERE)) + _arch_files(arch)


def _stamped_files(arch: str) -> list[Path]:
    """What the remembered fingerprint is checked against (``_remembered``): every codec module and shared
    module (a stat each, no parsing), the architecture's data files."""
    import os

    names = sorted(n for n in os.listdir(HERE) if n.endswith(".py"))
    return [HERE / n for n in names] + [HERE.parent / n for n in _SHARED] + _arch_files(arch)


def _files_digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for p in files:
        h.update(p.name.encode() + p.read_bytes())
    return h.hexdigest()


def _remembered(files: list[Path], compute) -> str:
    """``compute()``, remembered in the user's cache folder by the sizes and modification times of ``files``
    (as Python's bytecode cache checks its sources): a fresh process's first decode stats the files rather
    than reading and hashing them; any change of size or time computes it again."""
    import os

    from ..store import home_dir

    try:
        stamp = [[str(p), st.st_size, st.st_mtime_ns] for p in files for st in [os.stat(p)]]
    except OSError:
        return compute()
    # (kept small: per set of files, a digest of its stamps)
    key = hashlib.sha256("\n".join(str(p) for p in files).encode()).hexdigest()[:32]
    stamp_digest = hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:32]
    path = home_dir() / "cache" / "codec_sources.json"
    try:
        known = json.loads(path.read_text())
        if not isinstance(known, dict):
            known = {}
    except (OSError, ValueError):
        known = {}
    got = known.get(key)
    if isinstance(got, list) and len(got) == 2 and got[0] == stamp_digest:
        return got[1]
    digest = compute()
    known.pop(key, None)
    known[key] = [stamp_digest, digest]  # (the most recent last; the oldest dropped beyond _REMEMBERED)
    known = dict(list(known.items())[-_REMEMBERED:])
    write_cache_file(path, json.dumps(known).encode())  # (a read-only home: computed again next time)
    return digest


def fingerprint(dec, cached: bool = False) -> str:
    """A digest of all the scalar decoder's output depends on: what the code it runs does (``code_digest``),
    the architecture's data files, and its instruction tables from the store; with ``cached``, remembered by
    the stamps of the codec's files and of the store (``_remembered``), so a fresh process parses nothing."""
    t = dec.tables
    data = _arch_files(dec.arch)

    def compute() -> str:
        h = hashlib.sha256(code_digest().encode())
        h.update(_files_digest(data).encode())
        h.update("\n".join([f"{e.name} {e.encoding} {e.opcode} {e.mnemonic} {e.width}" for e in t.entries]).encode())
        h.update(repr([(n, e.width, e.op_field, [(f.name, f.ranges, f.value) for f in e.fields])
                       for n, e in sorted(t.encodings.items())]).encode())
        return h.hexdigest()

    if cached and t.store_path:
        return _remembered(_stamped_files(dec.arch) + [Path(t.store_path)], compute)
    return compute()


def even_alone(alone, v: int):
    """An operand's text alone (``alone``), False for an odd VGPR (a source's 256 + n) starting an even-aligned
    tuple (``align_note``: CDNA's 64-bit VGPR operands): its note and validity are the scalar path's."""
    return False if v >= 256 and v & 1 else alone(v)


# -- loading ---------------------------------------------------------------------------------------
def seed(ab) -> None:
    """Fill a new ``ArchBatch`` from the precomputed file when it is current (``ab.precomputed`` says)."""
    path = data_path(ab.dec.arch)
    if not path.exists():
        ab.precomputed = f"no precomputed tables ({path.name}); run {REGEN} {ab.dec.arch}"
        return
    doc = read_tables(path)
    if doc.get("fingerprint") != fingerprint(ab.dec, cached=True):
        ab.precomputed = f"{path.name} is stale (the scalar decoder or its data changed); run {REGEN} {ab.dec.arch}"
        return
    _load(ab, doc)
    ab.precomputed = "loaded"


def load_doc(ab, doc: dict) -> None:
    """Fill a new ``ArchBatch`` from tables made in this process (``regen/batch.generate``: the wave64 decoder's,
    which no file holds, for the accelerator's base tables)."""
    _load(ab, doc)
    ab.precomputed = "loaded"


def read_tables(path: Path) -> dict:
    """The precomputed file, parsed, its arrays unpacked.  Read from the package itself each time (JSON and
    base64: about 2 ms for the largest architecture), not from a parsed copy in the user's data folder: a
    copy there would be a file another program could write, and the one format fast enough to matter,
    pickle, runs code when loaded."""
    doc = json.loads(path.read_text())
    for key in ("entries", "templates"):
        doc[key] = {k: unpack(v) for k, v in doc[key].items()}
    doc["classes"] = unpack(doc["classes"])
    return doc


def _load(ab, doc: dict) -> None:
    dec = ab.dec
    entries = dec.tables.entries
    segs: list[int] = []  # segment id per stored segment
    ab.reserve(ab.pool_used + doc["pool_size"])
    for info in doc["segments"]:
        kind, w = info[0], info[-1] if info[0] in ("any", "reg") else info[1 if info[0] == "ok" else 3]
        size = 1 << w
        if kind == "any":
            segs.append(ab._segment(("any", w), size, None, (None, np.ones(size, bool)), info=info))
        elif kind == "reg":
            segs.append(ab.reg_segment(info[1], info[2], w))
        elif kind == "ok":
            ok = np.zeros(size, bool)
            ok[info[2]] = True
            segs.append(ab._segment(("reserved", w, ok.tobytes()), size, None, (None, ok), info=info))
        else:  # "alone": [kind, entry index, k, width, texts of the first values (one a line), values with none]
            entry = entries[info[1]]
            compute = functools.partial(dec._operand_alone, entry, info[2])
            plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
            if plan is not None and plan.operands[info[2]].align_note is not None:
                compute = functools.partial(even_alone, compute)
            ok = np.ones(info[4].count("\n") + 1, bool)
            ok[info[5]] = False  # (the texts, one a line, are made into strings when first used)
            segs.append(ab._segment(("stored", len(segs)), size, compute, (info[4], ok), info=info))
    starts = np.array(segs, dtype=np.int64)
    # entries (columns) and their cut operands (one row per operand, in entry order)
    ent = {k: unpack(v) for k, v in doc["entries"].items()}
    first = len(ab.entries)
    ab.entries += [entries[i] for i in ent["index"].tolist()]
    ab.entry_ids.update((id(entries[i]), eid) for eid, i in enumerate(ent["index"].tolist(), start=first))
    se, sk, slo, sw, sreg, scls = (ent[k] for k in ("slot_entry", "slot_k", "slot_lo", "slot_w", "slot_reg", "slot_cls"))
    sbase = starts[ent["slot_seg"]]

    def rows() -> list:  # (made when first needed: a template to make, an entry to add)
        classes = [None] + doc["slot_classes"]  # (index 0: none)
        slots: list = [[] for _ in range(len(ent["index"]))]
        for e, k, lo, w, reg, c, b in zip(se.tolist(), sk.tolist(), slo.tolist(), sw.tolist(), sreg.tolist(),
                                          scls.tolist(), sbase.tolist()):
            slots[e].append((None if k < 0 else k, lo, w, bool(reg), classes[c], b))
        return list(zip(*(ent[k].tolist() for k in ("dw", "wm", "w3m", "rlo", "rhi")), slots))

    if ab.rows_pending is None and first == len(ab._rows) == 1:  # the numpy rows straight from the columns
        ab.rows_pending = rows
        col = np.concatenate([[0], np.cumsum(np.bincount(se, minlength=len(ent["index"])))])[:-1]
        ab.set_arrays(*(np.concatenate([np.zeros(1, ent[k].dtype), ent[k]]) for k in ("dw", "wm", "w3m", "rlo", "rhi")),
                      se + 1, np.arange(len(se)) - col[se], slo, sw, sbase)
    else:
        ab.rows.extend(rows())
        ab.arrays = None
    cls = unpack(doc["classes"])
    if len(cls) == len(ab.cls_table):
        ab.cls_table[:] = cls
    tpl = {k: unpack(v) for k, v in doc["templates"].items()}
    if len(tpl["eid"]):
        nb = tpl["count"]
        bases = np.zeros((len(nb), MAXC), dtype=np.int64)
        bases[np.repeat(np.arange(len(nb)), nb), np.arange(nb.sum()) - np.repeat(np.cumsum(nb) - nb, nb)] = starts[tpl["seg"]]
        ab.add_templates(tpl["eid"], tpl["key"], tpl["key3"], doc["template_formats"].split("\n"), bases, nb)


def unpack(s):
    """``pack``'s array back (an array is returned as it is)."""
    if isinstance(s, np.ndarray):
        return s
    dtype, data = s.split(":", 1)
    return np.frombuffer(binascii.a2b_base64(data), dtype=dtype)


def stored_templates(doc: dict) -> list:
    """The stored templates as rows: [entry id, key, key3, format, segment index of each placeholder]."""
    tpl = {k: unpack(v) for k, v in doc["templates"].items()}
    ends = np.cumsum(tpl["count"]).tolist()
    seg = tpl["seg"].tolist()
    return [[e, k, k3, f, seg[end - n:end]] for e, k, k3, f, n, end in
            zip(tpl["eid"].tolist(), tpl["key"].tolist(), tpl["key3"].tolist(), doc["template_formats"].split("\n"),
                tpl["count"].tolist(), ends)]
