"""The batch decoder's precomputed tables, one generated file per architecture (the format, the fingerprint
and the loading: ``codec/batch_data.py``).

    python -m gpuisa.regen.batch [ARCH ...]     (regenerates codec/data/batch_<arch>.json)

Everything in the file is output of the scalar decoder, stored: the class table, the entry rows, the operand
texts and the templates of the plan's own word and the encoder's example words (``regen/examples.py``).
"""

from __future__ import annotations

import binascii
import json
import sys
from pathlib import Path

import numpy as np

from ..codec.batch_data import REGEN, STORED_TEXTS, data_path, fingerprint


def pack(a) -> str:
    """A numpy array as text: its dtype and its bytes in base64."""
    return f"{a.dtype.str}:{binascii.b2a_base64(np.ascontiguousarray(a).tobytes(), newline=False).decode()}"


def generate(arch: str, wave64: bool = False) -> dict:
    """The file's content for ``arch`` (``wave64``: of the wave64 decoder, which no file holds: the accelerator's
    wave64 base tables are made from it, ``regen/accel.py``)."""
    from ..codec.batch_arch import ArchBatch
    from ..codec.decoder import Decoder
    from .examples import variant_words

    dec = Decoder(arch, wave64)
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
            words.insert(0, plan.word.to_bytes(entry.width // 8, "little") + (words[0][entry.width // 8:] if words else b""))
        vdstx = dec.tables.encodings[entry.encoding].field("VDSTX") if entry.encoding == "VOPD" else None
        if vdstx is not None:  # dual-issue templates keep VDSTX's low bit (odd and even destinations)
            words += [(int.from_bytes(w[:8], "little") ^ vdstx.place(1)).to_bytes(8, "little") + w[8:] for w in words]
        for data in words:
            seed_template(ab, rows, eid, data)
        if ab.tpl_fails.get(eid, 0) > 0:  # its own words all failed: the scalar path takes the entry
            ab.demote(eid)
    seg_of = {s: i for i, s in enumerate(ab.seg_starts)}
    segments = []
    for start, info in zip(ab.seg_starts, ab.seg_info):
        if info[0] == "alone":
            _, name, encoding, k, w = info
            entry = next(e for e in dec.tables.by_name[name] if e.encoding == encoding)
            ix = np.arange(start, start + min(1 << w, STORED_TEXTS))
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


def seed_template(ab, rows, eid: int, data: bytes) -> bool:
    """The template of the instruction bytes ``data`` in entry ``eid`` of ``ab`` (``rows``: its ``np_rows()``),
    made where the batch classifier puts those bytes in that entry; False where it does not."""
    data = data + b"\0" * 12
    dws = np.frombuffer(data[:12], dtype="<u4")
    if int(ab.classify(dws[:2])[0]) != eid:
        return False
    word = (int(dws[0]) | int(dws[1]) << 32) & int(rows[1][eid])
    w3 = int(dws[2]) & int(rows[2][eid])
    ab.template_id(eid, word & int(rows[3][eid]), w3 & int(rows[4][eid]), word | w3 << 64, data, 0)
    return True


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
        from ..codec.plans import load_plans

        argv = [a.name for a in archs.AMD_ARCHS if load_plans(a.name)]
    for name in argv:
        path = write(archs.resolve_arch(name).name)
        print(f"{path.name}: {path.stat().st_size // 1024} KiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
