"""CLAMP on integer add and subtract: the exact sum or difference saturated to the destination's range.

The hardware's VOP3 clamp bit on an integer add/sub (what LLVM selects for llvm.uadd.sat, usub.sat,
sadd.sat and ssub.sat) gives the exact result limited to the destination type's range instead of the
wrapped one.  ``saturate(name)`` returns fn(d, R) -> D0 for such an instruction: the result's bits of
``d`` (the unclamped D0) replaced by the saturated value of the sources R["S0"], R["S1"] as the
instruction read them; None where clamp on that integer instruction is not modelled (carry-in forms).
"""

from __future__ import annotations

import re

import numpy as np

_ADD = re.compile(r"^v_(add|sub|subrev)(?:_nc|_co)?_([iu])(16|32)$")


def _lanes(x, w: int, signed: bool):
    v = np.asarray(x).astype(np.int64) & ((1 << w) - 1)
    return np.where(v >> (w - 1) & 1, v - (1 << w), v) if signed else v


def saturate(name: str):
    m = _ADD.match(name)
    if m is None:
        return None
    op, kind, w = m.group(1), m.group(2), int(m.group(3))
    signed = kind == "i"
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)

    mask = (1 << w) - 1

    def run(d, R):
        a, b = _lanes(R["S0"], w, signed), _lanes(R["S1"], w, signed)  # |a|, |b| < 2**32: exact in int64
        exact = a + b if op == "add" else a - b if op == "sub" else b - a
        return (np.asarray(d).astype(np.int64) & ~mask) | (np.clip(exact, lo, hi) & mask)
    return run
