"""CLAMP on integer instructions: the exact result saturated to the destination's range.

The hardware's clamp bit on an integer add/sub (what LLVM selects for llvm.uadd.sat, usub.sat,
sadd.sat and ssub.sat), multiply-add (v_mad_u32_u24, v_mad_i16, ...), dot product (v_dot4_i32_i8,
the ``clamp`` operand of llvm.amdgcn.sdot4 and kin), packed 16-bit add/sub/mad (v_pk_add_i16: each
half on its own) and sum of absolute differences (v_sad_*, v_msad_u8) gives the exact result limited
to the destination type's range instead of the wrapped one.  ``saturate(name, fields)`` returns
fn(d, R) -> D0 for such an instruction: the result's bits of ``d`` (the unclamped D0) replaced by the
saturated exact value of the sources R["S0"], R["S1"], R["S2"] as the instruction read them (op_sel
and inline constants applied; ``fields``: the encoding's fields, NEG giving the signedness of
v_dot*_iu* sources).  v_mul_u32_u24/i32_i24 and v_pk_mul_lo_u16 saturate the product,
v_mad_u64_u32/i64_i32 the 65-bit sum, CDNA's v_dot*c forms the sum with their accumulator, the
carry-in forms (v_add_co_ci_u32, v_addc_co_u32, ...) a + b + carry-in (a - b - borrow-in), the quad SADs
(v_qsad_pk_u16_u8, v_mqsad_*) each 16- or 32-bit field; min/max and float -> integer conversions are in
range already.  None where clamp on an integer instruction is not modelled.
"""

from __future__ import annotations

import re

import numpy as np

_ADD = re.compile(r"^v_(add|sub|subrev)(?:_nc|_co)?_([iu])(16|32)$")
_MAD = {"v_mad_u32_u24": (24, False, 32), "v_mad_i32_i24": (24, True, 32), "v_mad_u32_u16": (16, False, 32),
        "v_mad_i32_i16": (16, True, 32), "v_mad_u16": (16, False, 16), "v_mad_i16": (16, True, 16),
        "v_mad_legacy_u16": (16, False, 16), "v_mad_legacy_i16": (16, True, 16),
        "v_mul_u32_u24": (24, False, 32), "v_mul_i32_i24": (24, True, 32)}  # source width, signed, result (mul: no S2)
_DOT = re.compile(r"^v_dot(2|4|8)(c?)_([iu])32_(iu|[iu])(4|8|16)$")
_PACKED = re.compile(r"^v_pk_(add|sub|mad|mul_lo)_([iu])16$")
_MAD64 = re.compile(r"^v_mad_(?:co_)?([iu])64_[iu]32$")
# results that cannot leave the destination's range: min/max (packed too) and float -> integer conversions,
# which already saturate (NaN -> 0); clamp leaves them as they are
_IN_RANGE = re.compile(r"^v_pk_(max|min)_[iu]16$|^v_cvt_(flr_|rpi_|floor_|nearest_)?[iu]32_f(32|64)$")
_QSAD = re.compile(r"^v_(m?)qsad_(pk_u16|u32)_u8$")
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
        a, b = _lanes(R["S0"], sw, signed), _lanes(R["S1"], sw, signed)
        return _placed(d, a * b + (_lanes(R["S2"], w, signed) if "S2" in R else 0), w, signed)
    return run


def _dot(n: int, ew: int, a_signed: bool, b_signed: bool, signed: bool, acc: bool):
    """S2 + the n products (``acc``: the CDNA v_dot*c forms add to D0, recovered here from the wrapped result
    ``d`` minus the products modulo 2**32)."""
    def run(d, R):  # n products below 2**32 each plus a 32-bit addend: exact in int64
        total = np.zeros(np.shape(np.asarray(R["S0"])), dtype=np.int64)
        for i in range(n):
            total = total + _field(R["S0"], i * ew, ew, a_signed) * _field(R["S1"], i * ew, ew, b_signed)
        addend = (np.asarray(d).astype(np.int64) - total) if acc else R["S2"]
        return _placed(d, total + _lanes(addend, 32, signed), 32, signed)
    return run


def _mad64(signed: bool):
    """S0 * S1 + S2 of v_mad_u64_u32 / v_mad_i64_i32 (Python integers: up to 65 bits) saturated to 64 bits."""
    lo, hi = _bounds(64, signed)

    def run(d, R):
        a, b = _lanes(R["S0"], 32, signed).tolist(), _lanes(R["S1"], 32, signed).tolist()
        c = [x if signed else x & ((1 << 64) - 1) for x in np.asarray(R["S2"]).astype(np.int64).tolist()]
        out = [min(max(x * y + z, lo), hi) & ((1 << 64) - 1) for x, y, z in zip(a, b, c)]
        return np.array([v - (1 << 64) if v >> 63 else v for v in out], dtype=np.int64)
    return run


def _packed(op: str, signed: bool):
    def run(d, R):
        out = np.asarray(d).astype(np.int64) & ~0xFFFFFFFF
        for lo in (0, 16):
            a, b = _field(R["S0"], lo, 16, signed), _field(R["S1"], lo, 16, signed)
            exact = a + b if op == "add" else a - b if op == "sub" else a * b
            exact = exact + _field(R["S2"], lo, 16, signed) if op == "mad" else exact
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


def _qsad(masked: bool, field: int):
    """v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 / v_mqsad_u32_u8: four SADs of S1 against the 32-bit windows of the
    64-bit S0 at bytes 0..3 (masked: S1 bytes of 0 left out), each added to its field of S2 and saturated to it."""
    fmask = (1 << field) - 1

    def one(x: int, y: int, z: int) -> int:
        out = 0
        for k in range(4):
            win, total = (x >> (8 * k)) & 0xFFFFFFFF, (z >> (field * k)) & fmask
            for i in range(4):
                a, b = (win >> (8 * i)) & 0xFF, (y >> (8 * i)) & 0xFF
                total += 0 if masked and b == 0 else abs(a - b)
            out |= min(total, fmask) << (field * k)
        return out

    def run(d, R):
        def ints(v, bits):
            return [int(x) & ((1 << bits) - 1) for x in np.asarray(v).ravel()]
        out = [one(x, y, z) for x, y, z in zip(ints(R["S0"], 64), ints(R["S1"], 32), ints(R["S2"], 4 * field))]
        if field == 32:  # 128-bit result: Python integers
            return np.array(out, dtype=object)
        return np.array([v - (1 << 64) if v >> 63 else v for v in out], dtype=np.int64)
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
        n, acc, kind, src, ew = int(m.group(1)), bool(m.group(2)), m.group(3), m.group(4), int(m.group(5))
        neg = int(fields.get("NEG", 0))
        a_signed, b_signed = (bool(neg & 1), bool(neg & 2)) if src == "iu" else (src == "i", src == "i")
        return _dot(n, ew, a_signed, b_signed, kind == "i", acc)
    m = _MAD64.match(name)
    if m is not None:
        return _mad64(m.group(1) == "i")
    m = _QSAD.match(name)
    if m is not None:
        return _qsad(bool(m.group(1)), 32 if m.group(2) == "u32" else 16)
    if _IN_RANGE.match(name):
        return lambda d, R: d
    m = _PACKED.match(name)
    if m is not None:
        return _packed(m.group(1), m.group(2) == "i")
    m = _SAD.match(name)
    return _sad(m.group(1)) if m is not None else None
