"""Splitting LLVM's AMDGPU assembly text: mnemonic, operands (top-level commas), modifiers.

Hand-written because the grammar is tiny and must mirror LLVM's printer
exactly: operands are separated by ", " outside brackets/parentheses/bars,
modifiers follow the last operand separated by single spaces.
"""

from __future__ import annotations


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
    last = _split_top(ops[-1], " ")
    ops[-1] = last[0]
    return ops, last[1:]


def join(mnemonic: str, ops: list[str], mods: list[str]) -> str:
    text = mnemonic
    if ops:
        text += " " + ", ".join(ops)
    if mods:
        text += " " + " ".join(mods)
    return text
