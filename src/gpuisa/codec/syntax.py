"""Splitting LLVM's AMDGPU assembly text: mnemonic, operands (top-level commas), modifiers.

Hand-written because the grammar is tiny and must mirror LLVM's printer
exactly: operands are separated by ", " outside brackets/parentheses/bars,
modifiers follow the last operand separated by single spaces.
"""

from __future__ import annotations

import re


def mnemonic_of(text: str) -> str:
    return text.split(None, 1)[0] if text.strip() else ""


def _split_top(s: str, sep: str) -> list[str]:
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for i, ch in enumerate(s):
        if s.startswith("/*", i):
            depth += 1
        elif s.startswith("*/", i - 1) and i > 0:
            depth -= 1
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def split_operands(text: str) -> tuple[list[str], list[str]]:
    """'v_add_f32_e64 v0, s0, -|v1| clamp mul:2' -> (['v0', 's0', '-|v1|'], ['clamp', 'mul:2'])."""
    parts = text.strip().split(None, 1)
    if len(parts) < 2:
        return [], []
    rest = parts[1]
    ops = _split_top(rest, ",")
    if not ops:
        return [], []
    for i in range(len(ops) - 2, -1, -1):  # (``v1 v2, v3``: operands without a comma before the last comma)
        words = _split_top(ops[i], " ")
        if len(words) > 1 and all(_BARE_OPERAND.match(w) for w in words):  # (not ``exp pos4 v4``)
            ops[i:i + 1] = words
    last = _split_top(ops[-1], " ")
    ops[-1] = last[0]
    mods = last[1:]
    while mods and _BARE_OPERAND.match(mods[0]):  # (LLVM's assembler takes operands without commas: v_add_f32 v1 v2 v3)
        ops.append(mods.pop(0))
    return ops, mods


# A register operand written after another without a comma (llvm-mc-22 reads ``v1 v2`` and ``v1 -|v2|`` as two
# operands; ``v1 -v2`` is an expression it refuses, so a bare ``-`` is not taken; ``a16`` is a modifier, so a
# single AGPR is not taken either)
_BARE_OPERAND = re.compile(r"^(?:-?\|)?(?:[vs]\d+(?:\.[lh])?|[vsa]\[\d+:\d+\]|ttmp\d+|ttmp\[\d+:\d+\]|vcc(?:_lo|_hi)?"
                           r"|exec(?:_lo|_hi)?|m0|null|off)\|?$")


def join(mnemonic: str, ops: list[str], mods: list[str]) -> str:
    text = mnemonic
    if ops:
        text += " " + ", ".join(ops)
    if mods:
        text += " " + " ".join(mods)
    return text
