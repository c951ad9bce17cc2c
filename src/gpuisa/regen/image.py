"""Image instruction forms learned from llvm-mc-22 at generation time (called by ``regen/rdna.py``; the
decoder's use: ``codec/image.py``)."""

from __future__ import annotations

from .. import archs
from ..codec import operands as opd
from ..codec.image import plan_ops

NSA_BYTES = bytes(range(1, 13))  # address bytes after a probed NSA word: v1..v12


def _data_setting(d: int, gather: bool) -> dict[str, int] | None:
    """Field values whose wanted data count is ``d`` (None if no setting gives it)."""
    if gather:
        return {4: {"D16": 0, "TFE": 0}, 5: {"D16": 0, "TFE": 1}, 2: {"D16": 1, "TFE": 0}, 3: {"D16": 1, "TFE": 1}}.get(d)
    if d <= 4:
        return {"DMASK": (1 << d) - 1, "D16": 0, "TFE": 0}
    return {"DMASK": 15, "D16": 0, "TFE": 1}


def _count(tok: str) -> int | None:
    inner = tok[1:-1] if tok.startswith("[") else tok
    parts = inner.split(",")
    regs = [r for r in (opd.parse_reg(x.strip().split("/*")[0]) for x in parts) if r is not None]
    return sum(r[2] for r in regs) if len(regs) == len(parts) else None


def probe_image_forms(arch_name: str, counts: dict) -> dict:
    """{"plans": {key: [gather, table index]}, "tables": [[nsa][dim | a16 << 3][wanted - 1] -> [data, addr, size] | None]}."""
    from ..codec import oracle
    from ..codec.plans import load_plans
    from ..codec.syntax import split_operands
    from ..codec.tables import load_arch_tables

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    jobs, words = [], []
    for key, plan in sorted(plans.items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name not in ("MIMG", "VSAMPLE", "VIMAGE") or enc.field("DIM") is None:
            continue
        vd = next((c for c in counts.get(key, ()) if c["deps"][:1] == ["DMASK"]), None)
        kd, ka = plan_ops(plan)
        if vd is None or kd is None or ka is None:
            continue
        gather = vd["n"][1] == 4 and vd["n"][15] == 4  # four data registers whatever DMASK says
        nsa = enc.field("NSA")
        slots = [f"VADDR{i}" for i in range(5) if enc.field(f"VADDR{i}") is not None]
        jobs.append((key, gather, kd, ka, 1 << (nsa.width if nsa else 0)))
        for n in range(1 << (nsa.width if nsa else 0)):
            for idx in range(16):
                for d in range(1, 6):
                    s = _data_setting(d, gather) or {}
                    s = {**s, "DIM": idx & 7, "A16": idx >> 3, "VDATA": 100, **({"NSA": n} if nsa else {}),
                         **({"VADDR": 20} if enc.field("VADDR") is not None else {}),
                         **dict(zip(slots, (20, 30, 40, 50, 60)[:len(slots) - 1] + (0,)))}
                    w = plan.word
                    for fname, v in s.items():
                        f = enc.field(fname)
                        if f is not None:
                            w = f.insert(w, v)
                    words.append(w.to_bytes(enc.width // 8, "little") + (NSA_BYTES if nsa else b""))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    out: dict = {"plans": {}, "tables": []}
    i = 0
    for key, gather, kd, ka, nn in jobs:
        width = t.encodings[key.split("|")[1]].width // 8
        table = []
        for _n in range(nn):
            rows = []
            for _idx in range(16):
                row = []
                for d in range(1, 6):
                    r = got[i]
                    i += 1
                    text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size >= width else None
                    ops = split_operands(text)[0] if text else []
                    nd = _count(ops[kd]) if kd < len(ops) else None
                    na = _count(ops[ka]) if ka < len(ops) else None
                    ok = nd is not None and na is not None and _data_setting(d, gather) is not None
                    row.append([nd, na, r[0].size] if ok else None)
                rows.append(row)
            table.append(rows)
        if table not in out["tables"]:
            out["tables"].append(table)
        out["plans"][key] = [gather, out["tables"].index(table)]
    return out
