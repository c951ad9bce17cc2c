"""PTX floating-point arithmetic, min/max, classes and comparisons against independent values.

The expected values come from tests/ptx_float_reference.py (numpy decoding, exact Fraction results,
its own IEEE rounding routine, the PTX ISA document's rules for NaN, .ftz, .sat, .relu, min/max and
the approximate instructions' error bounds); only ``evaluate_ptx`` is under test.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from ptx_float_reference import (
    ARITH,
    FCMP,
    MODES,
    NAMES,
    NP_FLOAT,
    RNG,
    bits_of_float,
    combos,
    d_of,
    f32_bits,
    fcmp_ref,
    flush,
    is_nan,
    is_sub,
    minmax_ref,
    out,
    reference,
    round_frac,
    run,
    same,
    sample,
    to_float,
    ulp32,
    width,
)


@pytest.mark.parametrize("fmt", ["f16", "f32", "f64"])
def test_round_frac_agrees_with_numpy(fmt):
    """round_frac(rn) equals numpy's correctly rounded arithmetic; directed modes bracket the value."""
    t = NP_FLOAT[fmt]
    for a, b in combos(fmt, 2, 80):
        x, y = to_float(a, fmt), to_float(b, fmt)
        if not (math.isfinite(x) and math.isfinite(y)) or x + y == 0:
            continue
        with np.errstate(all="ignore"):
            want = t(x) + t(y)
            prod = t(x) * t(y)
        assert round_frac(Fraction(x) + Fraction(y), fmt, "rn") == bits_of_float(float(want), fmt)
        if float(prod) != 0:
            assert round_frac(Fraction(x) * Fraction(y), fmt, "rn") == bits_of_float(float(prod), fmt)
        v = Fraction(x) + Fraction(y)
        lo, hi = round_frac(v, fmt, "rm"), round_frac(v, fmt, "rp")
        flo, fhi = to_float(lo, fmt), to_float(hi, fmt)
        assert flo <= v <= fhi or (math.isinf(flo) or math.isinf(fhi))
        with np.errstate(over="ignore"):
            assert lo == hi or float(np.nextafter(t(flo), t(np.inf))) == fhi


def test_round_frac_bf16_against_bit_rounding():
    """bf16 round-to-nearest-even is f32 bits + 0x7fff + (bit 16), keeping the upper half."""
    for raw in sample("f32", 300):
        x = to_float(raw, "f32")
        if not math.isfinite(x):
            continue
        want = (raw + 0x7FFF + (raw >> 16 & 1)) >> 16
        assert round_frac(Fraction(x), "bf16", "rn", raw >> 31) == want, hex(raw)


@pytest.mark.parametrize("fmt", ["f32", "f64"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op,arity", ARITH)
def test_arith_rounding_modes(op, arity, mode, fmt):
    ftzs = (False, True) if fmt == "f32" else (False,)
    for raws in combos(fmt, arity, 40):
        for ftz in ftzs:
            text = f"{op}.{mode}{'.ftz' if ftz else ''}.{fmt} d, {', '.join(NAMES[:arity])}"
            want = reference(op, fmt, raws, mode, ftz)
            got = run(text, raws)
            assert same(got, want, fmt), (text, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("op,arity", ARITH[:4])
def test_arith_sat_f32(op, arity):
    for raws in combos("f32", arity, 40):
        mode = "rn" if op != "fma" else "rz"
        text = f"{op}.{mode}.sat.f32 d, {', '.join(NAMES[:arity])}"
        want = reference(op, "f32", raws, mode, sat=True)
        got = run(text, raws)
        assert got == want, (text, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
@pytest.mark.parametrize("op,arity", ARITH[:4])
def test_arith_half(op, arity, fmt):
    """f16 (with .ftz, .sat) and bf16 arithmetic; fma also with .relu."""
    for raws in combos(fmt, arity, 40):
        rnd = "" if op != "fma" else ".rn"
        text = f"{op}{rnd}.{fmt} d, {', '.join(NAMES[:arity])}"
        want = reference(op, fmt, raws)
        got = run(text, raws)
        assert got == want, (text, [hex(r) for r in raws], hex(got), hex(want))
        if fmt == "f16":
            for mods, kw in ((".ftz", {"ftz": True}), (".sat", {"sat": True}), (".ftz.sat", {"ftz": True, "sat": True})):
                got = run(f"{op}{rnd}{mods}.f16 d, {', '.join(NAMES[:arity])}", raws)
                assert got == reference(op, fmt, raws, **kw), (op, mods, [hex(r) for r in raws], hex(got))
        if op == "fma":
            got = run(f"fma.rn.relu.{fmt} d, a, b, c", raws)
            want = reference(op, fmt, raws, relu=True)
            assert got == want, ("relu", fmt, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f16x2", "bf16x2", "f32x2"])
@pytest.mark.parametrize("op,arity", ARITH[:4])
def test_arith_packed(op, arity, fmt):
    lane = fmt[:-2]
    lb = width(lane)
    lo_vals, hi_vals = combos(lane, arity, 25), combos(lane, arity, 25)
    for lo, hi in zip(lo_vals, hi_vals):
        raws = [h << lb | v for v, h in zip(lo, hi)]
        rnd = ".rn" if (op == "fma" or lane == "f32") else ""
        got = run(f"{op}{rnd}.{fmt} d, {', '.join(NAMES[:arity])}", raws)
        want = reference(op, lane, hi) << lb | reference(op, lane, lo)
        assert got == want, (op, fmt, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("atype", ["f16", "bf16"])
@pytest.mark.parametrize("op", ["add", "sub", "fma"])
def test_mixed_precision(op, atype, mode):
    """add/sub.f32.atype d, a, c and fma.f32.abtype d, a, b, c: a (and b) in the half type, c and d f32."""
    for raws in combos(atype, 3, 30):
        c = int(RNG.integers(0, 1 << 32)) if raws[2] & 1 else bits_of_float(to_float(raws[2], atype), "f32")
        if op == "fma":
            xs = [to_float(raws[0], atype), to_float(raws[1], atype), to_float(c, "f32")]
            text = f"fma.{mode}.f32.{atype} d, a, b, c"
            inputs = {"a": raws[0], "b": raws[1], "c": c}
        else:
            xs = [to_float(raws[0], atype), to_float(c, "f32")]
            text = f"{op}.{mode}.f32.{atype} d, a, c"
            inputs = {"a": raws[0], "c": c}
        want = reference(op, "f32", [bits_of_float(x, "f32") for x in xs], mode)
        got = d_of(text, **inputs)
        assert got == want, (text, {k: hex(v) for k, v in inputs.items()}, hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f32", "f64"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["sqrt", "rcp"])
def test_sqrt_rcp_rounding(op, mode, fmt):
    for (a,) in combos(fmt, 1, 120):
        for ftz in ((False, True) if fmt == "f32" else (False,)):
            text = f"{op}.{mode}{'.ftz' if ftz else ''}.{fmt} d, a"
            want = reference(op, fmt, [a], mode, ftz)
            got = run(text, [a])
            assert same(got, want, fmt), (text, hex(a), hex(got), hex(want))


def test_approx_bounds():
    xs = [float(np.float32(v)) for v in RNG.uniform(-300, 300, 150)] + [0.5, 1.0, 2.0, 3.0, 1e-3, 100.0]
    for x in xs:
        a = f32_bits(x)
        if -100 * math.pi <= x <= 100 * math.pi:
            assert abs(to_float(d_of("sin.approx.f32 d, a", a=a), "f32") - math.sin(x)) <= 2 ** -20.5
            assert abs(to_float(d_of("cos.approx.f32 d, a", a=a), "f32") - math.cos(x)) <= 2 ** -20.5
        if x > 0:
            r = to_float(d_of("lg2.approx.f32 d, a", a=a), "f32")  # the bound is on the mantissa's part
            assert abs(r - math.log2(x)) <= 2 ** -22 + ulp32(math.log2(x)) / 2
            r = to_float(d_of("sqrt.approx.f32 d, a", a=a), "f32")
            assert abs(r - math.sqrt(x)) <= 2 ** -23 * math.sqrt(x) * 1.0001
            r = to_float(d_of("rsqrt.approx.f32 d, a", a=a), "f32")
            assert abs(r - 1 / math.sqrt(x)) <= 2 ** -22.9 / math.sqrt(x)
        if abs(x) < 120:
            r = to_float(d_of("ex2.approx.f32 d, a", a=a), "f32")
            assert abs(r - 2.0 ** x) <= 2 * ulp32(2.0 ** x)
        r = to_float(d_of("tanh.approx.f32 d, a", a=a), "f32")
        assert abs(r - math.tanh(x)) <= 2 ** -10.987 * abs(math.tanh(x)) + 2 ** -149
        r = to_float(d_of("rcp.approx.f32 d, a", a=a), "f32")
        assert abs(r - 1 / x) <= ulp32(1 / x)
        for y in (3.0, -7.5, 1e-3):
            r = to_float(d_of("div.approx.f32 d, a, b", a=a, b=f32_bits(y)), "f32")
            assert abs(r - x / y) <= 2 * ulp32(x / y)
            r = to_float(d_of("div.full.f32 d, a, b", a=a, b=f32_bits(y)), "f32")
            assert abs(r - x / y) <= 2 * ulp32(x / y)


def test_approx_special_values():
    """The document's special-value tables: sin/cos(inf) NaN, lg2(0) -inf, lg2(-x) NaN, ex2(-inf) +0,
    rsqrt(+-0) +-inf, rsqrt(+inf) +0, rcp(+-0) +-inf."""
    inf, ninf = 0x7F800000, 0xFF800000
    assert is_nan(d_of("sin.approx.f32 d, a", a=inf), "f32")
    assert is_nan(d_of("cos.approx.f32 d, a", a=ninf), "f32")
    assert d_of("lg2.approx.f32 d, a", a=0) == ninf
    assert d_of("lg2.approx.f32 d, a", a=0x80000000) == ninf
    assert is_nan(d_of("lg2.approx.f32 d, a", a=f32_bits(-2.0)), "f32")
    assert d_of("lg2.approx.f32 d, a", a=inf) == inf
    assert d_of("ex2.approx.f32 d, a", a=ninf) == 0
    assert d_of("ex2.approx.f32 d, a", a=inf) == inf
    assert d_of("rsqrt.approx.f32 d, a", a=0) == inf
    assert d_of("rsqrt.approx.f32 d, a", a=0x80000000) == ninf
    assert d_of("rsqrt.approx.f32 d, a", a=inf) == 0
    assert is_nan(d_of("rsqrt.approx.f32 d, a", a=f32_bits(-4.0)), "f32")
    assert d_of("rcp.approx.f32 d, a", a=0x80000000) == ninf
    assert d_of("tanh.approx.f32 d, a", a=inf) == f32_bits(1.0)
    assert d_of("tanh.approx.f32 d, a", a=ninf) == f32_bits(-1.0)


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_float(op, fmt):
    variants = [("", False, False, False), (".NaN", True, False, False)]
    if fmt != "f64":
        variants += [(".xorsign.abs", False, True, False), (".NaN.xorsign.abs", True, True, False)]
    if fmt in ("f32", "f16"):
        variants += [(".ftz", False, False, True), (".ftz.NaN.xorsign.abs", True, True, True)]
    pairs_ = combos(fmt, 2, 50) + [[0, 1 << (width(fmt) - 1)], [1 << (width(fmt) - 1), 0]]
    for a, b in pairs_:
        for mods, nan_mode, xs, ftz in variants:
            want = minmax_ref(op, a, b, fmt, nan_mode, xs, ftz)
            got = d_of(f"{op}{mods}.{fmt} d, a, b", a=a, b=b)
            assert same(got, want, fmt), (op, mods, fmt, hex(a), hex(b), hex(got), hex(want))
    # the worked values
    assert d_of("max.xorsign.abs.f32 d, a, b", a=0xC0000000, b=0x3F800000) == 0xC0000000
    assert d_of("min.xorsign.abs.f32 d, a, b", a=0xC0000000, b=0x3F800000) == 0xBF800000


def test_min_max_packed_half():
    for (a0, b0), (a1, b1) in zip(combos("f16", 2, 30), combos("f16", 2, 30)):
        for op in ("min", "max"):
            got = d_of(f"{op}.NaN.f16x2 d, a, b", a=a1 << 16 | a0, b=b1 << 16 | b0)
            want = minmax_ref(op, a1, b1, "f16", True, False, False) << 16 | minmax_ref(op, a0, b0, "f16", True,
                                                                                         False, False)
            assert got == want, (op, hex(a0), hex(b0), hex(a1), hex(b1))


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
def test_abs_neg_copysign_testp(fmt):
    top = 1 << (width(fmt) - 1)
    for (a, b) in combos(fmt, 2, 60):
        ftzs = (False, True) if fmt in ("f32", "f16") else (False,)
        for ftz in ftzs:
            x = flush(a, fmt) if ftz else a
            f = ".ftz" if ftz else ""
            for op, want in (("abs", x & ~top), ("neg", x ^ top)):
                got = d_of(f"{op}{f}.{fmt} d, a", a=a)
                if is_nan(a, fmt):  # PTX leaves the NaN's bits unspecified
                    assert is_nan(got, fmt), (op, fmt, hex(a))
                else:
                    assert got == want, (op, f, fmt, hex(a), hex(got))
        if fmt not in ("f32", "f64"):
            continue
        assert d_of(f"copysign.{fmt} d, a, b", a=a, b=b) == (b & ~top) | (a & top)
        v = to_float(a, fmt)
        tests = {"finite": math.isfinite(v), "infinite": math.isinf(v), "number": not math.isnan(v),
                 "notanumber": math.isnan(v), "normal": math.isfinite(v) and not is_sub(a, fmt),
                 "subnormal": is_sub(a, fmt)}  # the document counts +-0 as normal
        for name, want in tests.items():
            assert d_of(f"testp.{name}.{fmt} d, a", a=a) == int(want), (name, fmt, hex(a))


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
def test_setp_set_float(fmt):
    cmps = [*FCMP, "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
    for a, b in combos(fmt, 2, 25) + [[0, 1 << (width(fmt) - 1)]]:
        for ftz in ((False, True) if fmt in ("f32", "f16") else (False,)):
            x, y = (flush(a, fmt), flush(b, fmt)) if ftz else (a, b)
            fx, fy = to_float(x, fmt), to_float(y, fmt)
            f = ".ftz" if ftz else ""
            for cmp in cmps:
                r = fcmp_ref(cmp, fx, fy)
                o = out(f"setp.{cmp}{f}.{fmt} p|q, a, b", a=a, b=b) if fmt in ("f32", "f64") else \
                    {"p": out(f"setp.{cmp}{f}.{fmt} p, a, b", a=a, b=b)["p"], "q": 1 - r}
                assert (o["p"], o["q"]) == (r, 1 - r), (cmp, f, fmt, hex(a), hex(b))
                if fmt in ("f32", "f64"):
                    assert d_of(f"set.{cmp}{f}.f32.{fmt} d, a, b", a=a, b=b) == (0x3F800000 if r else 0)
                    assert d_of(f"set.{cmp}{f}.u32.{fmt} d, a, b", a=a, b=b) == (0xFFFFFFFF if r else 0)
                    assert d_of(f"set.{cmp}.xor{f}.s32.{fmt} d, a, b, c", a=a, b=b, c=1) == \
                        (0 if r else 0xFFFFFFFF)
                if fmt == "f16":
                    assert d_of(f"set.{cmp}{f}.u16.f16 d, a, b", a=a, b=b) == (0xFFFF if r else 0)
                    assert d_of(f"set.{cmp}{f}.u32.f16 d, a, b", a=a, b=b) == (0xFFFFFFFF if r else 0)


def test_set_half_destinations():
    """1.0 in the destination's own format for a true result (f16 0x3c00, bf16 0x3f80)."""
    one, two = 0x3F800000, 0x40000000
    assert d_of("set.lt.f16.f32 d, a, b", a=one, b=two) == 0x3C00
    assert d_of("set.gt.f16.f32 d, a, b", a=one, b=two) == 0
    assert d_of("set.lt.bf16.f32 d, a, b", a=one, b=two) == 0x3F80
    assert d_of("set.lt.u16.f16 d, a, b", a=0x3C00, b=0x4000) == 0xFFFF


def test_slct_float_c():
    """c >= 0 picks a: -0.0 counts as >= 0, NaN does not; .ftz reads a subnormal c as a signed zero."""
    a, b = 0x11111111, 0x22222222
    for c in sample("f32", 80):
        v = to_float(c, "f32")
        assert d_of("slct.b32.f32 d, a, b, c", a=a, b=b, c=c) == (a if v >= 0 else b), hex(c)
        vf = to_float(flush(c, "f32"), "f32")
        assert d_of("slct.ftz.b32.f32 d, a, b, c", a=a, b=b, c=c) == (a if vf >= 0 else b), hex(c)


@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_three_inputs(op):
    """min/max.f32 d, a, b, c: the pairwise rule applied twice; .abs compares magnitudes."""
    top = 1 << 31
    for a, b, c in combos("f32", 3, 60):
        for mods, nan_mode, absolute, ftz in (("", False, False, False), (".NaN", True, False, False),
                                              (".abs", False, True, False), (".ftz.NaN.abs", True, True, True)):
            xs = [flush(v, "f32") if ftz else v for v in (a, b, c)]
            if absolute:
                xs = [v & ~top for v in xs]
            want = minmax_ref(op, minmax_ref(op, xs[0], xs[1], "f32", nan_mode, False, False), xs[2], "f32",
                              nan_mode, False, False)
            got = d_of(f"{op}{mods}.f32 d, a, b, c", a=a, b=b, c=c)
            assert got == want, (op, mods, hex(a), hex(b), hex(c), hex(got), hex(want))


def test_approx_half_and_f64_bounds():
    """ex2/tanh on f16/bf16 within their relative bounds (plus half an ulp of the format); the f64
    .approx.ftz reciprocals within 2^-50 / 2^-52.2 relative error."""
    for (a,) in combos("f16", 1, 150):
        x = to_float(a, "f16")
        if not math.isfinite(x) or abs(x) > 14:
            continue
        r = to_float(d_of("ex2.approx.f16 d, a", a=a), "f16")
        e = 2.0 ** x
        assert abs(r - e) <= e * 2 ** -9.9 + float(np.spacing(np.float16(e))) / 2 or e < 2 ** -14, hex(a)
        r = to_float(d_of("tanh.approx.f16 d, a", a=a), "f16")
        t = math.tanh(x)
        assert abs(r - t) <= abs(t) * 2 ** -8 + 2 ** -24, hex(a)
    for (a,) in combos("bf16", 1, 150):
        x = to_float(a, "bf16")
        if not math.isfinite(x) or abs(x) > 100:
            continue
        r = to_float(d_of("ex2.approx.ftz.bf16 d, a", a=a), "bf16")
        e = 2.0 ** x
        assert abs(r - e) <= e * 2 ** -7, hex(a)
        r = to_float(d_of("tanh.approx.bf16 d, a", a=a), "bf16")
        assert abs(r - math.tanh(x)) <= abs(math.tanh(x)) * 2 ** -7 + 2 ** -133, hex(a)
    for (a,) in combos("f64", 1, 150):
        x = to_float(a, "f64")
        if not math.isfinite(x) or x == 0 or abs(x) < 2.0 ** -1000 or abs(x) > 2.0 ** 1000:
            continue
        r = to_float(d_of("rcp.approx.ftz.f64 d, a", a=a), "f64")
        assert abs(Fraction(r) * Fraction(x) - 1) <= Fraction(2) ** -50, hex(a)
        if x > 0:
            r = to_float(d_of("rsqrt.approx.ftz.f64 d, a", a=a), "f64")
            assert abs(r * math.sqrt(x) - 1) <= 2 ** -52.2 + 2 ** -52, hex(a)


@pytest.mark.parametrize("fmt", ["f16x2", "bf16x2"])
def test_packed_abs_neg_min_max(fmt):
    lane = fmt[:-2]
    for (a0, b0), (a1, b1) in zip(combos(lane, 2, 25), combos(lane, 2, 25)):
        a, b = a1 << 16 | a0, b1 << 16 | b0
        for op in ("min", "max"):
            want = minmax_ref(op, a1, b1, lane, False, False, False) << 16 | minmax_ref(op, a0, b0, lane, False,
                                                                                          False, False)
            assert d_of(f"{op}.{fmt} d, a, b", a=a, b=b) == want, (op, fmt, hex(a), hex(b))
        for op, f in (("abs", lambda v: v & 0x7FFF), ("neg", lambda v: v ^ 0x8000)):
            got = d_of(f"{op}.{fmt} d, a", a=a)
            for half, src in ((got >> 16, a1), (got & 0xFFFF, a0)):
                assert is_nan(half, lane) if is_nan(src, lane) else half == f(src), (op, fmt, hex(a))


def test_lop3_predicate_form():
    for a, b, c in [[int(x) for x in RNG.integers(0, 1 << 32, 3)] for _ in range(40)] + [[0, 0, 0]]:
        for lut in (0x00, 0x96, 0xE8, 0xFF, 0x80):
            d = sum(((lut >> ((a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1))) & 1) << i for i in range(32))
            for bop in ("and", "or"):
                for q in (0, 1):
                    o = out(f"lop3.{bop}.b32 d|p, a, b, c, {lut}, q", a=a, b=b, c=c, q=q)
                    want_p = (int(d != 0) & q) if bop == "and" else (int(d != 0) | q)
                    assert (o["d"], o["p"]) == (d, want_p), (bop, lut, q)
                    o = out(f"lop3.{bop}.b32 d|p, a, b, c, {lut}, !q", a=a, b=b, c=c, q=q)
                    assert o["p"] == ((int(d != 0) & (1 - q)) if bop == "and" else (int(d != 0) | (1 - q)))


def test_float_immediates_and_mad():
    """0f/0d hexadecimal and decimal immediates; mad.rnd.f32/f64 is fma."""
    assert d_of("add.f32 d, a, 0f3F800000", a=0x40000000) == 0x40400000
    assert d_of("add.f64 d, a, 0d3FF0000000000000", a=0x4000000000000000) == 0x4008000000000000
    assert d_of("mul.f32 d, a, 0.5", a=0x40000000) == 0x3F800000
    for raws in combos("f32", 3, 40):
        for mode in MODES:
            assert run(f"mad.{mode}.f32 d, a, b, c", raws) == reference("fma", "f32", raws, mode)
    for raws in combos("f64", 3, 20):
        assert same(run("mad.rn.f64 d, a, b, c", raws), reference("fma", "f64", raws), "f64")


def test_negated_and_foreign_literals():
    """A `-` before a literal negates it; an 0f (f32) literal in an f64 instruction is that f32 value."""
    assert d_of("add.f32 d, a, -0f3F800000", a=0x40000000) == 0x3F800000  # 2 + (-1)
    assert d_of("add.f32 d, a, -1.5", a=0x40000000) == 0x3F000000
    assert d_of("mul.f64 d, a, 0f40000000", a=0x3FF8000000000000) == 0x4008000000000000  # 1.5 * 2.0
    assert d_of("add.f64 d, a, -0d3FF0000000000000", a=0x4000000000000000) == 0x3FF0000000000000
    assert out("setp.lt.f32 p, a, -0f3F800000", a=0xC0000000)["p"] == 1  # -2 < -1


@pytest.mark.parametrize("fmt", ["f16x2", "bf16x2"])
def test_setp_set_packed(fmt):
    """Each half compared on its own: setp gives lane 0 (low half) to p and lane 1 to q; set writes
    1.0 (packed float destination) or 0xffff (u32/s32 destination) into each half."""
    lane = fmt[:-2]
    one = bits_of_float(1.0, lane)
    cmps = [*FCMP, "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
    for (a0, b0), (a1, b1) in zip(combos(lane, 2, 20), combos(lane, 2, 20)):
        a, b = a1 << 16 | a0, b1 << 16 | b0
        for cmp in cmps:
            r0 = fcmp_ref(cmp, to_float(a0, lane), to_float(b0, lane))
            r1 = fcmp_ref(cmp, to_float(a1, lane), to_float(b1, lane))
            o = out(f"setp.{cmp}.{fmt} p|q, a, b", a=a, b=b)
            assert (o["p"], o["q"]) == (r0, r1), (cmp, fmt, hex(a), hex(b))
            for c in (0, 1):
                o = out(f"setp.{cmp}.or.{fmt} p|q, a, b, c", a=a, b=b, c=c)
                assert (o["p"], o["q"]) == (r0 | c, r1 | c)
            assert d_of(f"set.{cmp}.{fmt}.{fmt} d, a, b", a=a, b=b) == (one if r0 else 0) | (one if r1 else 0) << 16
            assert d_of(f"set.{cmp}.u32.{fmt} d, a, b", a=a, b=b) == (0xFFFF if r0 else 0) | (0xFFFF if r1 else 0) << 16
    # .ftz on f16x2 reads subnormal halves as zeros
    assert out("setp.eq.ftz.f16x2 p|q, a, b", a=0x00010001, b=0x80000000) == {"p": 1, "q": 1}
    assert out("setp.eq.f16x2 p|q, a, b", a=0x00010001, b=0x80000000) == {"p": 0, "q": 0}


def test_div_approx_large_divisors():
    """The document: for 2^126 < |b| < 2^128 div.approx.f32 gives 0 (NaN when a is infinite); div.full
    keeps its 2-ulp bound over the whole range."""
    for b in (0x7F000001, 0x7F7FFFFF, 0xFF400000, 0x7F200000):
        for a in (0x3F800000, 0xC0400000, 0x00000000, 0x7F7FFFFF):
            got = d_of("div.approx.f32 d, a, b", a=a, b=b)
            assert got == (a ^ b) & 0x80000000, (hex(a), hex(b), hex(got))
            exact_q = Fraction(to_float(a, "f32")) / Fraction(to_float(b, "f32"))
            full = to_float(d_of("div.full.f32 d, a, b", a=a, b=b), "f32")
            assert abs(Fraction(full) - exact_q) <= 2 * Fraction(ulp32(float(exact_q))), (hex(a), hex(b))
        assert is_nan(d_of("div.approx.f32 d, a, b", a=0x7F800000, b=b), "f32")
    assert d_of("div.approx.f32 d, a, b", a=0x3F800000, b=0x7E800000) == 0x00800000  # |b| = 2^126: still 1/b
