"""CLAMP on integer instructions: the exact result saturated to the destination's range.

The hardware's clamp bit on an integer add/sub (what LLVM selects for llvm.uadd.sat, usub.sat,
sadd.sat and ssub.sat), multiply-add (v_mad_u32_u24, v_mad_i16, ...), dot product (v_dot4_i32_i8,
the ``clamp`` operand of llvm.amdgcn.sdot4 and kin), packed 16-bit add/sub/mad (v_pk_add_i16: each
half on its own) and sum of absolute differences (v_sad_*, v_msad_u8) gives the exact result limited
to the destination type's range instead of the wrapped one.  ``saturate(name, fields)`` returns
fn(d, R) -> D0 for such an instruction: the result's bits of ``d`` (the unclamped D0) replaced by the
saturated exact value of the sources R["S0"], R["S1"], R["S2"] as the instruction read them (op_sel
and inline constants applied; ``fields``: the encoding's fields, NEG giving the signedness of
v_dot*_iu* sources); the carry-in forms (v_add_co_ci_u32, v_addc_co_u32, ...) saturate a + b + carry-in
(a - b - borrow-in); None where clamp on that integer instruction is not modelled (64-bit multiply-adds, the
accumulating CDNA dot forms, quad SADs).
"""

from __future__ import annotations

import re

import numpy as np

_ADD = re.compile(r"^v_(add|sub|subrev)(?:_nc|_co)?_([iu])(16|32)$")
_MAD = {"v_mad_u32_u24": (24, False, 32), "v_mad_i32_i24": (24, True, 32), "v_mad_u32_u16": (16, False, 32),
        "v_mad_i32_i16": (16, True, 32), "v_mad_u16": (16, False, 16), "v_mad_i16": (16, True, 16),
        "v_mad_legacy_u16": (16, False, 16), "v_mad_legacy_i16": (16, True, 16)}  # source width, signed, result
_DOT = re.compile(r"^v_dot(2|4|8)_([iu])32_(iu|[iu])(4|8|16)$")
_PACKED = re.compile(r"^v_pk_(add|sub|mad)_([iu])16$")
_CARRY = re.compile(r"^v_(?:(add|sub|subrev)_co_ci|(addc|subb|subbrev)_co)_u32$")
_SAD = re.compile(r"^v_(sad_u8|sad_hi_u8|sad_u16|sad_u32|msad_u8)$")


def _lanes(x, w: int, signed: bool):
    v = np.asarray(x).astype(np.int64) & ((1 << w) - 1)
    return np.where(v >> (w - 1) & 1, v - (1 << w), v) if signed else v


def _field(x, lo: int, w: int, signed: bool):
    return _lanes(np.asarray(x).astype(np.int64) >> lo, w, signed)


def _bounds(w: int, signed: bool) -> tuple[int, int]:
    return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)


def _placed(d, exact, w: int, signed: bool):
    """``d`` with its low ``w`` bits replaced by ``exact`` saturated to the w-bit range."""
    lo, hi = _bounds(w, signed)
    mask = (1 << w) - 1
    return (np.asarray(d).astype(np.int64) & ~mask) | (np.clip(exact, lo, hi) & mask)


def _add(op: str, w: int, signed: bool):
    def run(d, R):
        a, b = _lanes(R["S0"], w, signed), _lanes(R["S1"], w, signed)  # |a|, |b| < 2**32: exact in int64
        return _placed(d, a + b if op == "add" else a - b if op == "sub" else b - a, w, signed)
    return run


def _carry(op: str):
    """a + b + carry-in (a - b - borrow, b - a - borrow): the carry-in recovered from the wrapped result ``d``
    (it is 0 or 1, so d minus the wrapped sum without it is that bit)."""
    def run(d, R):
        a, b, w = _lanes(R["S0"], 32, False), _lanes(R["S1"], 32, False), _lanes(d, 32, False)
        if op == "add":
            return _placed(d, a + b + ((w - a - b) & 0xFFFFFFFF), 32, False)
        x, y = (a, b) if op == "sub" else (b, a)
        return _placed(d, x - y - ((x - y - w) & 0xFFFFFFFF), 32, False)
    return run


def _mad(sw: int, signed: bool, w: int):
    def run(d, R):  # |a * b| < 2**47, |c| < 2**32: exact in int64
        a, b, c = _lanes(R["S0"], sw, signed), _lanes(R["S1"], sw, signed), _lanes(R["S2"], w, signed)
        return _placed(d, a * b + c, w, signed)
    return run


def _dot(n: int, ew: int, a_signed: bool, b_signed: bool, signed: bool):
    def run(d, R):  # n products below 2**32 each plus a 32-bit addend: exact in int64
        total = _lanes(R["S2"], 32, signed)
        for i in range(n):
            total = total + _field(R["S0"], i * ew, ew, a_signed) * _field(R["S1"], i * ew, ew, b_signed)
        return _placed(d, total, 32, signed)
    return run


def _packed(op: str, signed: bool):
    def run(d, R):
        out = np.asarray(d).astype(np.int64) & ~0xFFFFFFFF
        for lo in (0, 16):
            a, b = _field(R["S0"], lo, 16, signed), _field(R["S1"], lo, 16, signed)
            exact = a + b if op == "add" else a - b if op == "sub" else a * b + _field(R["S2"], lo, 16, signed)
            out = out | (_placed(0, exact, 16, signed) << lo)
        return out
    return run


def _sad(kind: str):
    ew, n = {"sad_u16": (16, 2), "sad_u32": (32, 1)}.get(kind, (8, 4))

    def run(d, R):  # at most 4 differences below 2**16 (or one below 2**32) plus a 32-bit addend
        total = np.zeros(np.shape(np.asarray(R["S0"])), dtype=np.int64)
        for i in range(n):
            a, b = _field(R["S0"], i * ew, ew, False), _field(R["S1"], i * ew, ew, False)
            diff = np.abs(a - b)
            total = total + (np.where(b == 0, 0, diff) if kind == "msad_u8" else diff)
        if kind == "sad_hi_u8":
            total = total << 16
        return _placed(d, total + _lanes(R["S2"], 32, False), 32, False)
    return run


def saturate(name: str, fields: dict | None = None):
    fields = fields or {}
    m = _ADD.match(name)
    if m is not None:
        return _add(m.group(1), int(m.group(3)), m.group(2) == "i")
    if name in _MAD:
        return _mad(*_MAD[name])
    m = _CARRY.match(name)
    if m is not None:
        return _carry({"addc": "add", "subb": "sub", "subbrev": "subrev"}.get(m.group(2), m.group(1) or ""))
    m = _DOT.match(name)
    if m is not None:
        n, kind, src, ew = int(m.group(1)), m.group(2), m.group(3), int(m.group(4))
        neg = int(fields.get("NEG", 0))
        a_signed, b_signed = (bool(neg & 1), bool(neg & 2)) if src == "iu" else (src == "i", src == "i")
        return _dot(n, ew, a_signed, b_signed, kind == "i")
    m = _PACKED.match(name)
    if m is not None:
        return _packed(m.group(1), m.group(2) == "i")
    m = _SAD.match(name)
    return _sad(m.group(1)) if m is not None else None
