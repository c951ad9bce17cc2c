"""What the encoder hands out (``Encoded``, ``EncodeError``) and the pure helpers its per-form assembler
(``encode_plan.py``) shares with it: numbers and floats in operands, modifiers written as numbers or bit lists."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .plans import Plan


class EncodeError(ValueError):
    """Text that is not an instruction of the architecture (one line, with the reason)."""


@dataclass
class Encoded:
    data: bytes
    encoding: str
    name: str
    fields: dict[str, int] = field(default_factory=dict)
    literal: int | None = None

    def to_json(self) -> dict:
        out = {"bytes": self.data.hex(), "encoding": self.encoding, "fields": dict(self.fields)}
        if self.literal is not None:
            out["literal"] = f"0x{self.literal:08x}"
        return out


NUM = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")
FLOAT = re.compile(r"^-?\d+\.\d*(e[-+]?\d+)?$")


def float_bits(tok: str, size: int) -> int | None:
    if not FLOAT.match(tok):
        return None
    x = float(tok)
    if size == 16:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if size == 64:
        return struct.unpack("<Q", struct.pack("<d", x))[0] >> 32
    return struct.unpack("<I", struct.pack("<f", x))[0]


MEMORY_ENCODINGS = frozenset({"FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "DS", "MIMG"})


def number_modifier(plan: Plan, enc, token: str) -> tuple[str, int] | None:
    """(field, value) of a bare number where LLVM prints a field's value as it is (``s_endpgm 64242``)."""
    if not NUM.match(token):
        return None
    n = int(token, 0)
    for fname, mod in plan.modifiers.items():
        table = mod.table or {v: a for v, (a, _) in (mod.tokens or {}).items()}
        if table and all(v == [k] for k, v in table.items()) and 0 <= n < (1 << enc.field(fname).width):
            return fname, n
    return None


def agree(v: int, ev: int) -> int:
    """How many of a field's low bits ``v`` shares with LLVM's value ``ev``."""
    return bin(~(v ^ ev) & 0xFF).count("1")


_BITS = re.compile(r"^(\w+):\[([01](?:,[01])*)\]$")


def bit_list_modifier(plan: Plan, enc, word: int, token: str) -> tuple[str, int] | None:
    """(field, value) of a ``name:[b0,b1,...]`` modifier written where LLVM prints nothing (its default,
    ``op_sel:[0,0,0]``) or with other bits than it prints: bit i of the list is the field bit that LLVM's
    single-bit values show at position i; bits the list does not cover keep LLVM's base value."""
    m = _BITS.match(token)
    if m is None:
        return None
    name, bits = m.group(1), [int(b) for b in m.group(2).split(",")]
    for fname, mod in plan.modifiers.items():
        pos: dict[int, int] = {}
        for vs, (add, _) in (mod.tokens or {}).items():
            v = int(vs)
            toks = [_BITS.match(a) for a in add]
            for t in toks:
                if t and t.group(1) == name and v and v & (v - 1) == 0:
                    lst = [int(b) for b in t.group(2).split(",")]
                    if lst.count(1) == 1 and len(lst) == len(bits):
                        pos[lst.index(1)] = v.bit_length() - 1
        if len(pos) == len(bits):
            value = enc.field(fname).extract(word)
            for i, b in enumerate(bits):
                value = value | (1 << pos[i]) if b else value & ~(1 << pos[i])
            return fname, value
    return None
