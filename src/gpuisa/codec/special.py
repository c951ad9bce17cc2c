"""Operands whose spelling is not a register or a plain number: hwreg(...), buffer formats,
export targets and sources, interpolation attributes (LLVM's custom printers).

Each is written from the ISA's field definitions plus the named-value tables learned from
llvm-mc at generation time (``named.py``); values the probe tables already cover are looked
up there first.
"""

from __future__ import annotations

import re

from .named import load_named

_ATTR = re.compile(r"^attr\d+\.[xyzw]$")
EXP_MOD_FIELDS = {"done": "DONE", "compr": "COMPR", "vm": "VM", "row_en": "ROW"}


def hwreg_text(named: dict, v: int) -> str:
    ident, off, size = v & 63, (v >> 6) & 31, (v >> 11) + 1
    name = named.get("hwreg", {}).get(str(ident), str(ident))
    return f"hwreg({name})" if off == 0 and size == 32 else f"hwreg({name}, {off}, {size})"


def operand(dec, entry, spec, fields) -> str | None:
    t = spec.get("t", "")
    if t.startswith("hwreg(") and "SIMM16" in fields and dec.named.get("hwreg"):
        return hwreg_text(dec.named, fields["SIMM16"])
    if _ATTR.match(t) and "ATTR" in fields:
        chan = next((v for k, v in fields.items() if "CHAN" in k), 0)
        return f"attr{fields['ATTR']}.{'xyzw'[chan & 3]}"
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


def export_text(dec, mnemonic: str, fields: dict[str, int]) -> tuple[str | None, str | None]:
    """(text, error) of an export instruction from the learned target names and source slots."""
    named = dec.named
    target = named["exp_target"].get(str(fields.get("TARGET", 0)))
    slots = named["exp_slots"].get(f"{fields.get('COMPR', 0)}/{fields.get('EN', 0)}")
    if target is None or slots is None:
        return None, f"export target {fields.get('TARGET')} is not valid here"
    srcs = ["off" if j is None else f"v{fields[f'VSRC{j}']}" for j in slots]
    mods = [m for m in named.get("exp_mods", []) if fields.get(EXP_MOD_FIELDS.get(m, ""), 0)]
    return f"{mnemonic} {target} {', '.join(srcs)}" + "".join(" " + m for m in mods), None


def buffer_format(dec, fields: dict[str, int]) -> tuple[bool, str]:
    """(valid, 'format:...' or '') of a typed buffer instruction's format fields."""
    if "FORMAT" in fields:
        v = fields["FORMAT"]
    else:
        v = (fields.get("NFMT", 0) << 4) | fields.get("DFMT", 0)
    tok = dec.named["format"].get(str(v))
    return tok is not None, tok or ""


def fallback(dec, entry, spec, fields, plan) -> str | None:
    return None


def modifier(dec, entry, fname, value, m) -> list[str] | None:
    return None
