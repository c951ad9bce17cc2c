"""IEEE-754 binary16/32/64 bit patterns for tests, from first principles: exact rationals
(``fractions.Fraction``) rounded to nearest even by the rule written out in ``encode``, and ``struct``
for bit-casting -- never by the evaluator under test.  Shared by the AMD semantics tests."""

from __future__ import annotations

import struct
from fractions import Fraction

FMT = {16: (10, 5, "<e", "<H"), 32: (23, 8, "<f", "<I"), 64: (52, 11, "<d", "<Q")}  # mantissa, exponent bits


def to_float(bits: int, w: int) -> float:
    """The value of the binary-w pattern ``bits`` (bits above w ignored)."""
    return struct.unpack(FMT[w][2], struct.pack(FMT[w][3], bits & ((1 << w) - 1)))[0]


def bits_of(x: float, w: int) -> int:
    return struct.unpack(FMT[w][3], struct.pack(FMT[w][2], x))[0]


def encode(value, w: int, negative: bool = False) -> int:
    """The binary-w bits nearest to the exact rational ``value`` (ties to even; infinity on overflow)."""
    mbits, ebits, _, _ = FMT[w]
    sign = (1 if (value < 0 or (value == 0 and negative)) else 0) << (w - 1)
    a = abs(Fraction(value))
    if a == 0:
        return sign
    bias = (1 << (ebits - 1)) - 1
    p, d = a.numerator, a.denominator  # a = p / d, exactly
    e = p.bit_length() - d.bit_length()  # floor(log2(a)) is e or e - 1
    if (p << -e if e < 0 else p) < (d << e if e > 0 else d):
        e -= 1
    e = max(e, 1 - bias)  # denormals share the smallest normal exponent
    s = mbits - e  # q = a * 2**s, split into n + r / den
    n, r = divmod(p << s if s >= 0 else p, d if s >= 0 else d << -s)
    den = d if s >= 0 else d << -s
    if 2 * r > den or (2 * r == den and n % 2):
        n += 1
    if n == 1 << (mbits + 1):
        n, e = n >> 1, e + 1
    if e > bias:
        return sign | (((1 << ebits) - 1) << mbits)
    if n < 1 << mbits:
        return sign | n
    return sign | ((e + bias) << mbits) | (n - (1 << mbits))
