"""Static value types of the pseudocode: kind and width.

Kinds: ``u`` unsigned, ``i`` signed, ``b`` raw bits (unsigned), ``f`` IEEE binary float
(16/32/64), ``bf`` bfloat16, and the small float formats ``fp8 bf8 fp6 bf6 fp4`` (held as
their bit codes).  ``soft`` marks a literal without a width suffix: it takes the type of
the other operand.
"""

from __future__ import annotations

from typing import NamedTuple


class Ty(NamedTuple):
    kind: str
    width: int
    soft: bool = False

    @property
    def is_float(self) -> bool:
        return self.kind in ("f", "bf")

    @property
    def is_mini(self) -> bool:
        return self.kind in MINI_KINDS

    @property
    def is_int(self) -> bool:
        return self.kind in ("u", "i", "b") or self.kind in MINI_KINDS

    @property
    def signed(self) -> bool:
        return self.kind == "i"

    @property
    def big(self) -> bool:
        return self.is_int and self.width > 64

    def hard(self) -> "Ty":
        return Ty(self.kind, self.width)


MINI_KINDS = ("fp8", "bf8", "fp6", "bf6", "fp4")
BOOL = Ty("u", 1)
I32 = Ty("i", 32)
U32 = Ty("u", 32)
I64 = Ty("i", 64)
F32 = Ty("f", 32)
F64 = Ty("f", 64)

_VIEW_KINDS = {"u": "u", "i": "i", "b": "b", "f": "f", "bf": "bf", "fp": "fp", "bf8": "bf8"}


def view_type(name: str) -> Ty | None:
    """``u32`` -> Ty('u', 32); ``bf16`` -> Ty('bf', 16); ``fp8`` -> Ty('fp8', 8); else None."""
    for mini in MINI_KINDS:
        if name == mini:
            return Ty(mini, int(mini[-1]))
    if name.startswith("bf") and name[2:].isdigit():
        w = int(name[2:])
        return Ty("bf", 16) if w == 16 else None
    if name and name[0] in "uibf" and name[1:].isdigit():
        w = int(name[1:])
        if name[0] == "f" and w not in (16, 32, 64):
            return None
        if w == 0:
            return None
        return Ty(name[0], w)
    return None


def sized_type(text: str) -> Ty:
    """``32'U`` -> Ty('u', 32); ``16'BF`` -> Ty('bf', 16)."""
    width, letter = text.split("'")
    kind = {"U": "u", "I": "i", "F": "f", "B": "b", "BF": "bf"}[letter]
    return Ty(kind, int(width))


def literal_type(suffix: str, hexa: bool = False) -> Ty:
    if suffix == "ULL":
        return Ty("u", 64)
    if suffix == "LL":
        return Ty("i", 64)
    if suffix in ("U", "UL"):
        return Ty("u", 32)
    if suffix == "L":
        return Ty("i", 64)
    return Ty("b" if hexa else "i", 32, soft=True)


def join(a: Ty, b: Ty) -> Ty:
    """Result type of arithmetic between two operands (C-like, wider wins, soft adapts)."""
    if a.soft and not b.soft:
        a, b = b, a
        if a.is_float or not b.is_float:
            return a if not (a.is_int and b.is_float) else Ty(b.kind, b.width)
    if b.soft and not a.soft:
        if a.is_int and b.is_float:
            return Ty("f", 64)
        return a
    if a.is_float or b.is_float:
        if a.is_float and b.is_float:
            if a.width != b.width:
                return a.hard() if a.width > b.width else b.hard()
            if a.kind == "bf" or b.kind == "bf":
                return Ty("bf", 16) if a.kind == b.kind else Ty("f", 16)
            return Ty(a.kind, a.width, a.soft and b.soft)
        return (a if a.is_float else b).hard()
    kind = "i" if (a.signed or b.signed) else ("u" if "u" in (a.kind, b.kind) else "b")
    return Ty(kind, max(a.width, b.width), a.soft and b.soft)
