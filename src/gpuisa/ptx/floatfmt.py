"""Exact decoding and correctly rounded encoding of the PTX floating-point formats.

Values are handled exactly (``fractions.Fraction``) and rounded once into the target format, so
every rounding modifier (.rn ties-to-even, .rna ties-away, .rz, .rm, .rp), subnormals, flush to
zero and saturation come out bit-exact for f16, bf16, tf32, f32, f64, e4m3 and e5m2.  Hand-written
because no library rounds one rational number into all of these formats with directed modes.

A decoded value is ``(kind, sign, magnitude)``: kind "num" (magnitude a Fraction, 0 for ±0),
"inf" or "nan".  NaN results are written as the canonical NaN of the format (all payload bits set);
PTX leaves other NaN bits unspecified, so tests compare NaN-ness, not NaN bits.
"""

from __future__ import annotations

import math
from fractions import Fraction

# type token -> (exponent bits, stored mantissa bits, register width)
FORMATS = {".f16": (5, 10, 16), ".bf16": (8, 7, 16), ".f32": (8, 23, 32), ".f64": (11, 52, 64),
           ".tf32": (8, 10, 32), ".e4m3": (4, 3, 8), ".e5m2": (5, 2, 8)}
NAN = ("nan", 0, Fraction(0))
ONE = Fraction(1)


def _layout(fmt: str) -> tuple[int, int, int]:
    """Bit layout in the register (tf32 lives in the f32 layout)."""
    return FORMATS[".f32"] if fmt == ".tf32" else FORMATS[fmt]


def _pow2(e: int) -> Fraction:
    return Fraction(1 << e) if e >= 0 else Fraction(1, 1 << -e)


def bias(fmt: str) -> int:
    return (1 << (FORMATS[fmt][0] - 1)) - 1


def emin(fmt: str) -> int:
    return 1 - bias(fmt)


def max_finite(fmt: str) -> Fraction:
    e_bits, m_bits, _ = FORMATS[fmt]
    if fmt == ".e4m3":  # no infinities: the top exponent holds finite values, only S.1111.111 is NaN
        return Fraction(14, 8) * 2 ** 8
    return (2 - _pow2(-m_bits)) * _pow2((1 << e_bits) - 2 - bias(fmt))


def canonical_nan(fmt: str) -> int:
    e_bits, m_bits, width = _layout(fmt)
    return (1 << (width - 1)) - 1


def decode(raw: int, fmt: str, ftz: bool = False) -> tuple[str, int, Fraction]:
    e_bits, m_bits, width = _layout(fmt)
    raw &= (1 << width) - 1
    sign = raw >> (width - 1) & 1
    exp = (raw >> m_bits) & ((1 << e_bits) - 1)
    man = raw & ((1 << m_bits) - 1)
    b = (1 << (e_bits - 1)) - 1
    if fmt == ".e4m3":
        if exp == 15 and man == 7:
            return NAN
    elif exp == (1 << e_bits) - 1:
        return ("inf", sign, Fraction(0)) if man == 0 else NAN
    if exp == 0:
        if ftz:
            return ("num", sign, Fraction(0))
        return ("num", sign, man * _pow2(1 - b - m_bits))
    return ("num", sign, ((1 << m_bits) + man) * _pow2(exp - b - m_bits))


def _floor_log2(x: Fraction) -> int:
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if _pow2(e) > x:
        e -= 1
    elif _pow2(e + 1) <= x:
        e += 1
    return e


def round_magnitude(mag: Fraction, sign: int, fmt: str, mode: str) -> Fraction:
    """mag rounded to the precision of fmt (unbounded exponent above, subnormal quantum below)."""
    m_bits = FORMATS[fmt][1]
    q_exp = max(_floor_log2(mag), emin(fmt)) - m_bits
    scaled = mag / _pow2(q_exp)
    n = scaled.numerator // scaled.denominator
    rem = scaled - n
    if rem:
        if mode == "rn":
            n += rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1)
        elif mode == "rna":
            n += rem >= Fraction(1, 2)
        elif mode == "rm":
            n += sign
        elif mode == "rp":
            n += 1 - sign
    return n * _pow2(q_exp)


def encode(value: tuple, fmt: str, mode: str = "rn", *, ftz: bool = False, satfinite: bool = False,
           relu: bool = False) -> int:
    """Raw bits of an exact value rounded into fmt with rounding mode rn/rna/rz/rm/rp."""
    kind, sign, mag = value
    _, m_store, width = _layout(fmt)
    e_bits = FORMATS[fmt][0]
    top = 1 << (width - 1)
    if kind == "nan":
        return canonical_nan(fmt)
    if relu and sign:
        return 0
    big = max_finite(fmt)
    if kind == "inf" and not satfinite:
        return (sign * top) | (0x7F if fmt == ".e4m3" else ((1 << e_bits) - 1) << m_store)
    if kind == "inf":
        mag = big
    else:
        mag = round_magnitude(mag, sign, fmt, mode) if mag else mag
    if mag > big:
        toward_zero = satfinite or mode == "rz" or (mode == "rm" and not sign) or (mode == "rp" and sign)
        if toward_zero:
            mag = big
        elif fmt == ".e4m3":
            return (sign * top) | 0x7F
        else:
            return (sign * top) | (((1 << e_bits) - 1) << m_store)
    if mag == 0 or (ftz and mag < _pow2(emin(fmt))):
        return sign * top
    b = bias(fmt)
    if mag < _pow2(emin(fmt)):
        man = mag / _pow2(emin(fmt) - m_store)
        return sign * top | int(man)
    e = _floor_log2(mag)
    man = mag / _pow2(e - m_store) - (1 << m_store)
    return sign * top | (e + b) << m_store | int(man)


def from_float(x: float) -> tuple[str, int, Fraction]:
    """An exact decoded value from a Python float (used for approximate functions)."""
    if math.isnan(x):
        return NAN
    sign = int(math.copysign(1.0, x) < 0)
    if math.isinf(x):
        return ("inf", sign, Fraction(0))
    return ("num", sign, Fraction(abs(x)))


def to_float(v: tuple) -> float:
    kind, sign, mag = v
    if kind == "nan":
        return math.nan
    x = math.inf if kind == "inf" else float(mag)
    return -x if sign else x


def signed(v: tuple) -> Fraction:
    return -v[2] if v[1] else v[2]


def sqrt_exact(mag: Fraction, m_bits: int) -> Fraction:
    """A value that rounds like sqrt(mag) at precision m_bits: the root truncated far below the
    last place, plus a sticky half unit when inexact (so ties cannot appear falsely)."""
    k = m_bits + 8 - _floor_log2(mag) // 2 + 2
    scaled = mag * 4 ** k if k >= 0 else mag / 4 ** -k
    whole = scaled.numerator // scaled.denominator
    n = math.isqrt(whole)
    exact = scaled.denominator == 1 and n * n == whole
    return Fraction(2 * n + (0 if exact else 1), 1 << (k + 1)) if k >= 0 else Fraction((2 * n + (not exact)) << -k, 2)
