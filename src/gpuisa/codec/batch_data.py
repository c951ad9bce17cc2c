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

Staleness: the file carries a fingerprint of all the scalar decoder depends on (the codec's modules,
the architecture's plan/named/layout data, the instruction tables from the store).  ``seed`` uses the
file only when the fingerprint matches; otherwise the batch decoder derives everything at run time, as
without the file (slower first decode, same output).  ``tests/test_codec_batch.py`` fails while a file
is stale, and checks sampled stored templates against fresh scalar renders.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
DATA_DIR = HERE / "data"
REGEN = ".venv/bin/python -m gpuisa.codec.batch_data"
# the modules whose code may decide the scalar decoder's texts or the batch tables' derivation: every codec
# module but these (the stream loop, the command line, pages, LLVM runners), and the model
_NOT_SOURCES = {"batch.py", "cli.py", "pages.py", "differential.py", "oracle.py", "probe.py", "elf.py"}
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


def fingerprint(dec) -> str:
    h = hashlib.sha256()
    for p in sorted(HERE.glob("*.py")) + [HERE.parent / "archs.py", HERE.parent / "model.py"]:
        if p.name not in _NOT_SOURCES:
            h.update(p.name.encode() + p.read_bytes())
    for p in _arch_files(dec.arch):
        h.update(p.name.encode() + p.read_bytes())
    t = dec.tables
    h.update("\n".join([f"{e.name} {e.encoding} {e.opcode} {e.mnemonic} {e.width}" for e in t.entries]).encode())
    h.update(repr([(n, e.width, e.op_field, [(f.name, f.ranges, f.value) for f in e.fields])
                   for n, e in sorted(t.encodings.items())]).encode())
    return h.hexdigest()


# -- loading ---------------------------------------------------------------------------------------
def seed(ab) -> None:
    """Fill a new ``ArchBatch`` from the precomputed file when it is current (``ab.precomputed`` says)."""
    path = data_path(ab.dec.arch)
    if not path.exists():
        ab.precomputed = f"no precomputed tables ({path.name}); run {REGEN} {ab.dec.arch}"
        return
    doc = json.loads(path.read_text())
    if doc.get("fingerprint") != fingerprint(ab.dec):
        ab.precomputed = f"{path.name} is stale (the scalar decoder or its data changed); run {REGEN} {ab.dec.arch}"
        return
    _load(ab, doc)
    ab.precomputed = "loaded"


def _load(ab, doc: dict) -> None:
    dec = ab.dec
    entries = dec.tables.entries
    starts = []
    ab.reserve(ab.pool_used + doc["pool_size"])
    for info in doc["segments"]:
        kind, w = info[0], info[-1] if info[0] in ("any", "reg") else info[1 if info[0] == "ok" else 3]
        size = 1 << w
        if kind == "any":
            starts.append(ab._segment(("any", w), size, None, ([""] * size, np.ones(size, bool)), info=info))
        elif kind == "reg":
            starts.append(ab.reg_segment(info[1], info[2], w))
        elif kind == "ok":
            ok = np.zeros(size, bool)
            ok[info[2]] = True
            starts.append(ab._segment(("reserved", w, ok.tobytes()), size, None, ([""] * size, ok), info=info))
        else:  # "alone": [kind, entry index, k, width, texts of the first values (one a line), values with none]
            entry = entries[info[1]]
            compute = (lambda v, e=entry, k=info[2]: dec._operand_alone(e, k, v))
            texts = info[4].split("\n")
            ok = np.ones(len(texts), bool)
            ok[info[5]] = False
            starts.append(ab._segment(("stored", len(starts)), size, compute, (texts, ok), info=info))
    for i, (ei, nd, wm, w3m, rlo, rhi, slots) in enumerate(doc["entries"], start=1):
        entry = entries[ei]
        ab.entries.append(entry)
        ab.rows.append((nd, wm, w3m, rlo, rhi, [(k, lo, w, bool(reg), cls, starts[s]) for k, lo, w, reg, cls, s in slots]))
        ab.entry_ids[id(entry)] = i
    ab.arrays = None
    classes = doc["classes"]
    if len(classes) == len(ab.cls_table):
        ab.cls_table[:] = classes
    tpl = doc["templates"]
    if tpl:
        eids, keys, keys3, fmts, bases = zip(*tpl)
        ab.add_templates(list(eids), list(keys), list(keys3), list(fmts),
                         [[starts[s] for s in b] for b in bases])


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
        ab.cls_table[base:base + n] = [ab.entry_id(int(s)) for s in sels]
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
            if int(ab.classify(dws[:1])[0]) != eid:
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
            texts = ["" if t is None else t for t in ab.pool_text[ix].tolist()]
            assert not any("\n" in t for t in texts)
            info = ["alone", index[id(entry)], k, w, "\n".join(texts), np.flatnonzero(~ab.pool_ok[ix]).tolist()]
        segments.append(info)
    entries = []
    for eid in range(1, len(ab.entries)):
        nd, wm, w3m, rlo, rhi, slots = ab.rows[eid]
        entries.append([index[id(ab.entries[eid])], nd, wm, w3m, rlo, rhi,
                        [[k, lo, w, int(reg), cls, seg_of[b]] for k, lo, w, reg, cls, b in slots]])
    templates = []
    for (eid, key, key3), tid in ab.tpl_ids.items():
        if tid:
            nph = ab.tpl_nph[tid]
            templates.append([eid, key, key3, ab.tpl_fmt[tid], [seg_of[int(b)] for b in ab.tpl_base[tid, :nph]]])
    return {"arch": arch, "generated_by": f"{REGEN} {arch}", "fingerprint": fingerprint(dec),
            "pool_size": ab.pool_used, "segments": segments, "entries": entries, "classes": ab.cls_table.tolist(), "templates": templates}


def write(arch: str) -> Path:
    doc = generate(arch)
    path = data_path(arch)
    head = {k: doc[k] for k in ("arch", "generated_by", "fingerprint", "pool_size")}
    lines = [json.dumps(head)[:-1] + ","]
    for key in ("segments", "entries", "templates"):
        lines.append(f'"{key}": [')
        lines.append(",\n".join(json.dumps(x, separators=(",", ":")) for x in doc[key]))
        lines.append("],")
    lines.append('"classes": ' + json.dumps(doc["classes"], separators=(",", ":")) + "}")
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
