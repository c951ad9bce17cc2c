"""What the code generator knows about the shape of generated code.

Small facts that let it leave out work: a generated expression that is one call of
``fl.to_bits``/``rt.view_u``/``rt.getbits`` (or ``rt.view_i``) of a constant width holds
unsigned (signed) values of that width, so a view at least that wide changes nothing; and a
write of bits [0, w) of a register that turns out (once the whole program is seen) to be
only w bits wide is the value itself.  The expressions are the generator's own output, so a
regular expression over them is enough (no parser needed): only single calls, whose first
parenthesis closes at the very end, are recognised.
"""

from __future__ import annotations

import re

_SIGNED_RESULT = re.compile(r"^rt\.view_i\(.*, (\d+)\)$")
_UNSIGNED_RESULT = re.compile(r"^(?:fl\.to_bits\(.*, '(f|bf)', (\d+)\)|rt\.(?:view_u|getbits)\(.*, (\d+)\))$")


def _one_call(code: str) -> bool:
    """Whether ``code`` is a single call whose first parenthesis closes at the very end."""
    if not code.endswith(")") or code.find("(") < 0:
        return False
    depth = 0
    for i, ch in enumerate(code):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == ")":
            return i == len(code) - 1
    return False


def signed_width(code: str, known: dict) -> int:
    """w when ``code`` is one ``rt.view_i`` call of constant width w below 64 (or a name in
    ``known``): a signed w-bit value, which a signed view of w or more bits leaves unchanged."""
    if code in known:
        return known[code]
    m = _SIGNED_RESULT.match(code) if _one_call(code) else None
    w = int(m.group(1)) if m else 64
    return w if w < 64 else 1 << 30


def unsigned_width(code: str, known: dict) -> int:
    """w when ``code`` is one call that returns unsigned w-bit values (fl.to_bits, rt.view_u,
    rt.getbits with a constant width below 64, or a name in ``known``), else a width larger than any register."""
    if code in known:
        return known[code]
    if not _one_call(code):
        return 1 << 30
    m = _UNSIGNED_RESULT.match(code)
    if not m:
        return 1 << 30
    w = 16 if m.group(1) == "bf" else int(m.group(2) or m.group(3))
    return w if w < 64 else 1 << 30


def resolve_whole_writes(lines: list[str], whole_writes: dict, regs: dict, unsigned) -> list[str]:
    """Replace the placeholders of writes of bits [0, w) of a register: by the value (cut to
    w bits unless ``unsigned(code)`` shows it is already an unsigned value of at most w bits)
    where the register is only w bits wide, else by the general ``rt.setbits`` code."""
    if not whole_writes:
        return lines
    done = {}
    for token, (n, w, code, general) in whole_writes.items():
        if regs[n] > w:
            done[token] = general
        elif w == 64 or unsigned(code) <= w:
            done[token] = code
        else:
            done[token] = f"rt.view_u({code}, {w})"
    pattern = re.compile("|".join(re.escape(t) for t in done))
    return [pattern.sub(lambda m: done[m.group(0)], line) if "@@write" in line else line for line in lines]
