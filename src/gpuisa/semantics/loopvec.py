"""Whole-range evaluation of counting loops: ``for i in lo : hi do tmp += f(i) endfor``.

Bit-counting pseudocode (V_BCNT, V_MBCNT) adds one term per bit position in a 32-step
loop; compiled statement by statement that is 32 rounds of numpy calls per lane.  When the
loop body is that one accumulation into an integer variable, and the term reads nothing
the loop changes, every term can be computed at once with the loop variable as a column
of all its values, and summed: integer addition wraps modulo 2**64 in either order, so
the result is the same.  The term may use only operators, ``np.where`` and the bit helpers
that broadcast (``rt.getbits``, ``rt.view_u``, ``rt.view_i``); anything else (floats,
list indexing, other calls) keeps the loop.  The generated code is the generator's own,
so matching it with a regular expression is enough.
"""

from __future__ import annotations

import re

_ACCUMULATE = re.compile(r"^(v_\w+) = rt\.merge\((\w+), \(\1 \+ (.+)\), \1\)$")
_CALL = re.compile(r"([A-Za-z_][\w.]*)\(")
_NAME = re.compile(r"(?<![\w.'])[A-Za-z_]\w*")
_CALLS = {"rt.getbits", "rt.view_u", "rt.view_i", "np.where"}


def vectorised(body: str, loop_var: str, lo: str, hi: str, int_names) -> list[str] | None:
    """Lines computing the loop ``for loop_var in range(lo, hi + 1): body`` at once, or None.

    ``int_names(name)`` says whether a generated name (``v_*``, ``h_*``, ``c_*``, ``r_*``)
    holds integers of at most 64 bits."""
    m = _ACCUMULATE.match(body.strip())
    if not m:
        return None
    acc, mask, term = m.groups()
    if "[" in term or "'" in term or not re.search(rf"\b{loop_var}\b", term):
        return None
    if any(c not in _CALLS for c in _CALL.findall(term)):
        return None
    for name in _NAME.findall(term):
        if name in ("np", "rt", "C", loop_var) or name.isdigit():
            continue
        if name == acc or not int_names(name):
            return None
    if not int_names(acc):
        return None
    column = f"_all{loop_var[1:]}"  # (not a v_ name: no pseudocode variable can take it)
    term = re.sub(rf"\b{loop_var}\b", column, term)
    return [f"{column} = np.arange(int({lo}), int({hi}) + 1, dtype=np.int64)[:, None]",
            f"{acc} = rt.merge({mask}, ({acc} + np.sum({term}, axis=0, dtype=np.int64)), {acc})"]
