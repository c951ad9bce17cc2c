"""PTX cvt against independent values: integer rounding and clamping, correctly rounded float
conversions in every mode, .ftz on single precision only, .sat/.relu/.satfinite, tf32, the 8-bit
float formats from their own code tables, packing of two sources, integer truncation and .sat.

Reference helpers: tests/ptx_float_reference.py; only ``evaluate_ptx`` is under test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from ptx_float_reference import (
    CANON,
    INTS,
    IRND,
    MODES,
    NP_FLOAT,
    RNG,
    bits_of_float,
    combos,
    d_of,
    f8_encode,
    f8_values,
    flush,
    is_nan,
    round_frac,
    same,
    to_float,
    width,
)


@pytest.mark.parametrize("ftype", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("itype", list(INTS))
def test_cvt_float_to_int(ftype, itype):
    """Rounded with the integer rounding mode, clamped to the destination's range; NaN -> 0."""
    signed, n = INTS[itype]
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
    with np.errstate(over="ignore"):
        big = [bits_of_float(float(v), ftype) for v in (lo, hi, lo - 1.0, hi + 1.0, 2.0 ** n, -0.5, 0.5, 1.5, 2.5)
               if ftype != "bf16" and math.isfinite(NP_FLOAT[ftype](v))]
    for (a,) in combos(ftype, 1, 40) + [[v] for v in big]:
        x = to_float(a, ftype)
        for rnd, fn in IRND.items():
            if math.isnan(x):
                want = 0
            elif math.isinf(x):
                want = lo if x < 0 else hi
            else:
                want = max(lo, min(hi, int(fn(x))))
            got = d_of(f"cvt.{rnd}.{itype}.{ftype} d, a", a=a)
            assert got == want & ((1 << n) - 1), (rnd, itype, ftype, hex(a), hex(got))
            if ftype == "f32":
                xf = to_float(flush(a, "f32"), "f32")
                want = 0 if math.isnan(xf) else (lo if xf < 0 else hi) if math.isinf(xf) else \
                    max(lo, min(hi, int(fn(xf))))
                got = d_of(f"cvt.{rnd}.ftz.{itype}.f32 d, a", a=a)
                assert got == want & ((1 << n) - 1), (rnd, "ftz", itype, hex(a), hex(got))


@pytest.mark.parametrize("ftype", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("itype", list(INTS))
def test_cvt_int_to_float(itype, ftype):
    signed, n = INTS[itype]
    vals = [0, 1, (1 << n) - 1, 1 << (n - 1), (1 << (n - 1)) - 1, 0x1000001, 2049, 4097]
    vals = [v & ((1 << n) - 1) for v in vals] + [int(v) & ((1 << n) - 1) for v in RNG.integers(0, 1 << 62, 30)]
    for a in vals:
        v = a - (1 << n) if signed and a >> (n - 1) else a
        for mode in MODES:
            got = d_of(f"cvt.{mode}.{ftype}.{itype} d, a", a=a)
            assert got == round_frac(Fraction(v), ftype, mode), (mode, ftype, itype, hex(a), hex(got))


@pytest.mark.parametrize("dst", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("src", ["f16", "bf16", "f32", "f64"])
def test_cvt_float_to_float(src, dst):
    """Correct rounding in each mode; NaN -> canonical NaN; .ftz flushes f32 subnormals only."""
    for (a,) in combos(src, 1, 60):
        x = to_float(a, src)
        for mode in MODES if src != dst else ("rn",):
            rnd = f".{mode}" if width(dst) < width(src) or (src, dst) in (("f16", "bf16"), ("bf16", "f16")) else ""
            if rnd == "" and mode != "rn":
                continue
            if math.isnan(x):
                want = CANON.get(dst, 0x7FF8000000000000)
            elif math.isinf(x):
                want = bits_of_float(x, dst)
            else:
                want = round_frac(Fraction(x), dst, mode, int(math.copysign(1, x) < 0))
            got = d_of(f"cvt{rnd}.{dst}.{src} d, a", a=a)
            assert same(got, want, dst), (rnd, dst, src, hex(a), hex(got), hex(want))
            if "f32" in (src, dst) and src != dst:
                xin = to_float(flush(a, src), src) if src == "f32" else x
                if math.isnan(xin):
                    want = CANON.get(dst, 0x7FF8000000000000)
                elif math.isinf(xin):
                    want = bits_of_float(xin, dst)
                else:
                    want = round_frac(Fraction(xin), dst, mode, int(math.copysign(1, xin) < 0))
                if dst == "f32":
                    want = flush(want, "f32")
                got = d_of(f"cvt{rnd}.ftz.{dst}.{src} d, a", a=a)
                assert same(got, want, dst), (rnd, "ftz", dst, src, hex(a), hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f16", "f32", "f64"])
def test_cvt_round_to_integral_and_sat(fmt):
    for (a,) in combos(fmt, 1, 80):
        x = to_float(a, fmt)
        for rnd, fn in IRND.items():
            got = d_of(f"cvt.{rnd}.{fmt}.{fmt} d, a", a=a)
            with np.errstate(invalid="ignore"):
                want = bits_of_float(float(fn(x)), fmt)  # numpy keeps the sign of a zero result
            assert same(got, want, fmt), (rnd, fmt, hex(a), hex(got), hex(want))
        got = d_of(f"cvt.sat.{fmt}.{fmt} d, a", a=a) if fmt != "f64" else d_of("cvt.sat.f64.f64 d, a", a=a)
        want = 0 if math.isnan(x) or x <= 0 else bits_of_float(1.0, fmt) if x >= 1 else a
        assert got == want, ("sat", fmt, hex(a), hex(got))


def test_cvt_relu_satfinite_half():
    for (a,) in combos("f32", 1, 150):
        x = to_float(a, "f32")
        for dst, big in (("f16", 0x7BFF), ("bf16", 0x7F7F)):
            for mode in ("rn", "rz"):
                plain = CANON[dst] if math.isnan(x) else bits_of_float(x, dst) if math.isinf(x) else \
                    round_frac(Fraction(x), dst, mode, a >> 31)
                top = 0x8000
                relu = plain if is_nan(plain, dst) else (0 if plain & top else plain)
                assert d_of(f"cvt.{mode}.relu.{dst}.f32 d, a", a=a) == relu, (mode, dst, hex(a))
                sf = plain
                if not is_nan(plain, dst) and plain & 0x7FFF > big:  # infinity -> the largest finite value
                    sf = (plain & top) | big
                assert d_of(f"cvt.{mode}.satfinite.{dst}.f32 d, a", a=a) == sf, (mode, dst, hex(a))


def test_cvt_tf32():
    """tf32 keeps 10 mantissa bits in the f32 layout: .rna adds half of the dropped part and truncates."""
    for (a,) in combos("f32", 1, 300):
        x = to_float(a, "f32")
        if math.isnan(x):
            want = 0x7FFFFFFF
        elif math.isinf(x):
            want = a
        else:
            want = (a + 0x1000) & ~0x1FFF & 0xFFFFFFFF
        assert d_of("cvt.rna.tf32.f32 d, a", a=a) == want, hex(a)
        if math.isfinite(x):  # .rn (ties to even at bit 13) and .rz (cut), .satfinite keeps the largest finite
            rn = (a + 0xFFF + (a >> 13 & 1)) & ~0x1FFF & 0xFFFFFFFF
            assert d_of("cvt.rn.tf32.f32 d, a", a=a) == rn, hex(a)
            assert d_of("cvt.rz.tf32.f32 d, a", a=a) == a & ~0x1FFF, hex(a)
            sat = rn if rn & 0x7FFFFFFF < 0x7F800000 else (a & 0x80000000) | 0x7F7FE000
            assert d_of("cvt.rn.satfinite.tf32.f32 d, a", a=a) == sat, hex(a)


@pytest.mark.parametrize("kind", ["e4m3", "e5m2"])
def test_cvt_f8(kind):
    table = f8_values(kind)
    for a, b in combos("f32", 2, 30):
        xa, xb = to_float(a, "f32"), to_float(b, "f32")
        for relu in ("", ".relu"):
            got = d_of(f"cvt.rn.satfinite{relu}.{kind}x2.f32 d, a, b", a=a, b=b)
            want = f8_encode(xa, kind, bool(relu)) << 8 | f8_encode(xb, kind, bool(relu))
            assert got == want, (kind, relu, hex(a), hex(b), hex(got), hex(want))
    for code in range(0, 0x10000, 97):
        got = d_of(f"cvt.rn.f16x2.{kind}x2 d, a", a=code)
        relu = d_of(f"cvt.rn.relu.f16x2.{kind}x2 d, a", a=code)
        for half, r, c in ((got >> 16, relu >> 16, code >> 8), (got & 0xFFFF, relu & 0xFFFF, code & 0xFF)):
            v = table[c]
            assert (is_nan(half, "f16") and math.isnan(v)) or to_float(half, "f16") == v, (kind, hex(code))
            want = 0x7FFF if math.isnan(v) else 0 if math.copysign(1, v) < 0 else half
            assert r == want, ("relu", kind, hex(code), hex(r))


def test_cvt_pack_two_f32():
    """cvt.rn.f16x2.f32 d, a, b: a converted into the upper half, b into the lower one (bf16x2 too)."""
    def one(v: int, dst: str, mode: str) -> int:
        x = to_float(v, "f32")
        if math.isnan(x):
            return CANON[dst]
        return bits_of_float(x, dst) if math.isinf(x) else round_frac(Fraction(x), dst, mode, v >> 31)

    for a, b in combos("f32", 2, 60):
        for dst in ("f16", "bf16"):
            for mode in ("rn", "rz"):
                got = d_of(f"cvt.{mode}.{dst}x2.f32 d, a, b", a=a, b=b)
                assert got == one(a, dst, mode) << 16 | one(b, dst, mode), (dst, mode, hex(a), hex(b), hex(got))


def test_cvt_f8_from_f16x2():
    for kind in ("e4m3", "e5m2"):
        for a0, a1 in combos("f16", 2, 60):
            got = d_of(f"cvt.rn.satfinite.{kind}x2.f16x2 d, a", a=a1 << 16 | a0)
            want = f8_encode(to_float(a1, "f16"), kind) << 8 | f8_encode(to_float(a0, "f16"), kind)
            assert got == want, (kind, hex(a0), hex(a1), hex(got), hex(want))


def test_cvt_integer_to_integer():
    """Truncation (or sign/zero extension) to the destination's width; .sat clamps to its range."""
    for src, (s_signed, s_bits) in INTS.items():
        vals = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 63,
                (1 << 64) - 1] + [int(x) for x in RNG.integers(0, 1 << 62, 10)]
        for a in vals:
            a &= (1 << s_bits) - 1
            v = a - (1 << s_bits) if s_signed and a >> (s_bits - 1) else a
            for dst, (d_signed, d_bits) in INTS.items():
                assert d_of(f"cvt.{dst}.{src} d, a", a=a) == v & ((1 << d_bits) - 1), (dst, src, hex(a))
                lo, hi = (-(1 << (d_bits - 1)), (1 << (d_bits - 1)) - 1) if d_signed else (0, (1 << d_bits) - 1)
                got = d_of(f"cvt.sat.{dst}.{src} d, a", a=a)
                assert got == max(lo, min(hi, v)) & ((1 << d_bits) - 1), ("sat", dst, src, hex(a))
