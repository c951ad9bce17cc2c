"""Precomputed tables of the batch decoder, one generated file per architecture.

    .venv/bin/python -m gpuisa.codec.batch_data [ARCH ...]     (regenerates codec/data/batch_<arch>.json)

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

Staleness: the file carries a fingerprint of all the scalar decoder depends on (the codec's modules,
the architecture's plan/named/layout data, the instruction tables from the store).  ``seed`` uses the
file only when the fingerprint matches; otherwise the batch decoder derives everything at run time, as
without the file (slower first decode, same output).  ``tests/test_codec_batch.py`` fails while a file
is stale, and checks sampled stored templates against fresh scalar renders.
"""

from __future__ import annotations

import binascii
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from ..cachefile import write_cache_file
from . import batch_arch

HERE = Path(__file__).parent
DATA_DIR = HERE / "data"
REGEN = ".venv/bin/python -m gpuisa.codec.batch_data"
# the modules whose code may decide the scalar decoder's texts or the batch tables' derivation: every codec
# module but these (the stream loop, the command line, pages, LLVM runners), and the model
_NOT_SOURCES = {"batch.py", "batch_text.py", "batch_render.py", "cli.py", "pages.py", "differential.py", "oracle.py", "probe.py", "elf.py",
                "listing.py", "listing_json.py", "fields.py", "asmfile.py"}
_REMEMBERED = 16  # fingerprints remembered (per set of files: an architecture in one checkout)
_STORED_TEXTS = 1024  # operand texts stored per table: values below this (wider fields fill the rest at run time)


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


def _source_files(arch: str) -> list[Path]:
    import os

    names = sorted(n for n in os.listdir(HERE) if n.endswith(".py") and n not in _NOT_SOURCES)
    return [HERE / n for n in names] + [HERE.parent / "archs.py", HERE.parent / "model.py"] + _arch_files(arch)


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
    stamp = hashlib.sha256(json.dumps(stamp).encode()).hexdigest()[:32]
    path = home_dir() / "cache" / "codec_sources.json"
    try:
        known = json.loads(path.read_text())
        if not isinstance(known, dict):
            known = {}
    except (OSError, ValueError):
        known = {}
    got = known.get(key)
    if isinstance(got, list) and len(got) == 2 and got[0] == stamp:
        return got[1]
    digest = compute()
    known.pop(key, None)
    known[key] = [stamp, digest]  # (the most recent last; the oldest dropped beyond _REMEMBERED)
    known = dict(list(known.items())[-_REMEMBERED:])
    write_cache_file(path, json.dumps(known).encode())  # (a read-only home: computed again next time)
    return digest


def fingerprint(dec, cached: bool = False) -> str:
    """A digest of all the scalar decoder's output depends on: the codec's modules and the architecture's
    data files, and its instruction tables from the store; with ``cached``, remembered by the stamps of
    those files and of the store (``_remembered``)."""
    files = _source_files(dec.arch)
    t = dec.tables

    def compute() -> str:
        h = hashlib.sha256(_files_digest(files).encode())
        h.update("\n".join([f"{e.name} {e.encoding} {e.opcode} {e.mnemonic} {e.width}" for e in t.entries]).encode())
        h.update(repr([(n, e.width, e.op_field, [(f.name, f.ranges, f.value) for f in e.fields])
                       for n, e in sorted(t.encodings.items())]).encode())
        return h.hexdigest()

    if cached and t.store_path:
        return _remembered(files + [Path(t.store_path)], compute)
    return compute()


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
    starts = []
    ab.reserve(ab.pool_used + doc["pool_size"])
    for info in doc["segments"]:
        kind, w = info[0], info[-1] if info[0] in ("any", "reg") else info[1 if info[0] == "ok" else 3]
        size = 1 << w
        if kind == "any":
            starts.append(ab._segment(("any", w), size, None, (None, np.ones(size, bool)), info=info))
        elif kind == "reg":
            starts.append(ab.reg_segment(info[1], info[2], w))
        elif kind == "ok":
            ok = np.zeros(size, bool)
            ok[info[2]] = True
            starts.append(ab._segment(("reserved", w, ok.tobytes()), size, None, (None, ok), info=info))
        else:  # "alone": [kind, entry index, k, width, texts of the first values (one a line), values with none]
            entry = entries[info[1]]
            compute = (lambda v, e=entry, k=info[2]: dec._operand_alone(e, k, v))
            ok = np.ones(info[4].count("\n") + 1, bool)
            ok[info[5]] = False  # (the texts, one a line, are made into strings when first used)
            starts.append(ab._segment(("stored", len(starts)), size, compute, (info[4], ok), info=info))
    starts = np.array(starts, dtype=np.int64)
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
        bases = np.zeros((len(nb), batch_arch.MAXC), dtype=np.int64)
        bases[np.repeat(np.arange(len(nb)), nb), np.arange(nb.sum()) - np.repeat(np.cumsum(nb) - nb, nb)] = starts[tpl["seg"]]
        ab.add_templates(tpl["eid"], tpl["key"], tpl["key3"], doc["template_formats"].split("\n"), bases, nb)


def pack(a) -> str:
    """A numpy array as text: its dtype and its bytes in base64."""
    return f"{a.dtype.str}:{binascii.b2a_base64(np.ascontiguousarray(a).tobytes(), newline=False).decode()}"


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


# -- generation ------------------------------------------------------------------------------------
def generate(arch: str) -> dict:
    from .batch_arch import ArchBatch
    from .decoder import Decoder
    from .examples import variant_words

    dec = Decoder(arch)
    ab = ArchBatch(dec, cut_reserved=True)
    for p in range(512):  # every selector of every dense bucket through the scalar class chooser
        base = int(ab.cls_base[p])
        if base < 0:
            continue
        n = int(ab.cls_mk[p]) + 1
        sels = ((p << 23) | (np.arange(n, dtype=np.uint64) << np.uint64(ab.cls_sh[p]))) & np.uint64(ab.sel_mask[p])
        ab.cls_table[base:base + n] = ab.table_ids(np.full(n, p), [ab.entry_id(int(s)) for s in sels])
    for bucket in dec.tables.prefix_index:  # and every other entry: those of the buckets classified at run time
        for dc in bucket:  # (selectors of more than 16 bits) and of the classes the second dword chooses
            if dc.width <= 64:
                for entry in dc.entries.values():
                    ab.entry_eid(entry)
    index = {id(e): i for i, e in enumerate(dec.tables.entries)}
    rows = ab.np_rows()
    for eid in range(1, len(ab.entries)):
        entry = ab.entries[eid]
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        words = [data for _, data in variant_words(arch, entry.name, entry.encoding)]
        if plan is not None:
            words.insert(0, plan["w"].to_bytes(entry.width // 8, "little") + (words[0][entry.width // 8:] if words else b""))
        vdstx = dec.tables.encodings[entry.encoding].field("VDSTX") if entry.encoding == "VOPD" else None
        if vdstx is not None:  # dual-issue templates keep VDSTX's low bit (odd and even destinations)
            words += [(int.from_bytes(w[:8], "little") ^ vdstx.place(1)).to_bytes(8, "little") + w[8:] for w in words]
        for data in words:
            data = data + b"\0" * 12
            dws = np.frombuffer(data[:12], dtype="<u4")
            if int(ab.classify(dws[:2])[0]) != eid:
                continue
            word = (int(dws[0]) | int(dws[1]) << 32) & int(rows[1][eid])
            w3 = int(dws[2]) & int(rows[2][eid])
            ab.template_id(eid, word & int(rows[3][eid]), w3 & int(rows[4][eid]), word | w3 << 64, data, 0)
        if ab.tpl_fails.get(eid, 0) > 0:  # its own words all failed: the scalar path takes the entry
            ab.demote(eid)
    seg_of = {s: i for i, s in enumerate(ab.seg_starts)}
    segments = []
    for start, info in zip(ab.seg_starts, ab.seg_info):
        if info[0] == "alone":
            _, name, encoding, k, w = info
            entry = next(e for e in dec.tables.by_name[name] if e.encoding == encoding)
            ix = np.arange(start, start + min(1 << w, _STORED_TEXTS))
            ab.fill(ix)
            texts = ["" if t is None else t for t in ab.texts(ix).tolist()]
            assert not any("\n" in t for t in texts)
            info = ["alone", index[id(entry)], k, w, "\n".join(texts), np.flatnonzero(~ab.pool_ok[ix]).tolist()]
        segments.append(info)
    rows = ab.rows[1:]
    slot_classes = sorted({sl[4] for r in rows for sl in r[5] if sl[4] is not None})
    slots = [(e, sl) for e, r in enumerate(rows) for sl in r[5]]
    entries = {"index": np.array([index[id(e)] for e in ab.entries[1:]], np.int32),
               "dw": np.array([r[0] for r in rows], np.int32), "wm": np.array([r[1] for r in rows], np.uint64),
               "w3m": np.array([r[2] for r in rows], np.uint32), "rlo": np.array([r[3] for r in rows], np.uint64),
               "rhi": np.array([r[4] for r in rows], np.uint32),
               "slot_entry": np.array([e for e, _ in slots], np.int32),
               "slot_k": np.array([-1 if sl[0] is None else sl[0] for _, sl in slots], np.int16),
               "slot_lo": np.array([sl[1] for _, sl in slots], np.int16),
               "slot_w": np.array([sl[2] for _, sl in slots], np.int16),
               "slot_reg": np.array([sl[3] for _, sl in slots], bool),
               "slot_cls": np.array([0 if sl[4] is None else 1 + slot_classes.index(sl[4]) for _, sl in slots], np.int8),
               "slot_seg": np.array([seg_of[sl[5]] for _, sl in slots], np.int32)}
    known = [(k, tid) for k, tid in ab.tpl_ids.items() if tid]
    fmts = [ab.tpl_fmt[tid] for _, tid in known]
    assert not any("\n" in f for f in fmts)
    templates = {"eid": np.array([k[0] for k, _ in known], np.int32), "key": np.array([k[1] for k, _ in known], np.uint64),
                 "key3": np.array([k[2] for k, _ in known], np.uint32),
                 "count": np.array([ab.tpl_nph[tid] for _, tid in known], np.int8),
                 "seg": np.array([seg_of[int(b)] for _, tid in known for b in ab.tpl_base[tid, :ab.tpl_nph[tid]]], np.int32)}
    return {"arch": arch, "generated_by": f"{REGEN} {arch}", "fingerprint": fingerprint(dec),
            "pool_size": ab.pool_used, "segments": segments, "slot_classes": slot_classes,
            "entries": {k: pack(v) for k, v in entries.items()}, "classes": pack(ab.cls_table.astype(np.int32)),
            "templates": {k: pack(v) for k, v in templates.items()}, "template_formats": "\n".join(fmts)}


def write(arch: str) -> Path:
    doc = generate(arch)
    path = data_path(arch)
    head = {k: doc[k] for k in ("arch", "generated_by", "fingerprint", "pool_size", "slot_classes")}
    lines = [json.dumps(head)[:-1] + ","]
    lines.append('"segments": [')
    lines.append(",\n".join(json.dumps(x, separators=(",", ":")) for x in doc["segments"]))
    lines.append("],")
    for key in ("entries", "templates"):
        lines.append(f'"{key}": {{')
        lines.append(",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in doc[key].items()))
        lines.append("},")
    lines.append(f'"template_formats": {json.dumps(doc["template_formats"])},')
    lines.append(f'"classes": {json.dumps(doc["classes"])}}}')
    path.write_text("\n".join(lines) + "\n")
    return path


def main(argv: list[str] | None = None) -> int:
    from .. import archs

    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        from .plans import load_plans

        argv = [a.name for a in archs.AMD_ARCHS if load_plans(a.name)]
    for name in argv:
        path = write(archs.resolve_arch(name).name)
        print(f"{path.name}: {path.stat().st_size // 1024} KiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
