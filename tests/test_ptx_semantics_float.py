"""PTX float semantics: hand-computed bit patterns (arithmetic in the comments) and numpy references."""

from __future__ import annotations

import numpy as np
import pytest

from gpuisa.ptx.semantics import UnsupportedInstruction, evaluate_ptx

ONE, TWO, THREE = 0x3F800000, 0x40000000, 0x40400000
F32_MAX, F32_INF, F32_NINF, NEG_ZERO = 0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x80000000
QNAN = 0x7FC00000


def ev(text, **inputs):
    return evaluate_ptx(text, inputs)["outputs"]["d"]


def is_nan32(bits):
    return (bits >> 23) & 0xFF == 0xFF and bits & 0x7FFFFF != 0


def test_rounding_modes_on_f32_add():
    assert ev("add.f32 d, a, b", a=ONE, b=TWO) == THREE  # 1 + 2 = 3
    # 1 + 2^-24*(1 + 2^-23): just above half an ulp of 1.0 (2^-24)
    tiny = 0x33800001
    assert ev("add.rn.f32 d, a, b", a=ONE, b=tiny) == 0x3F800001  # above the tie -> up
    assert ev("add.rz.f32 d, a, b", a=ONE, b=tiny) == ONE
    assert ev("add.rm.f32 d, a, b", a=ONE, b=tiny) == ONE
    assert ev("add.rp.f32 d, a, b", a=ONE, b=tiny) == 0x3F800001
    # 1 + 2^-24 exactly is a tie: to even keeps 1.0, .rp goes up
    assert ev("add.rn.f32 d, a, b", a=ONE, b=0x33800000) == ONE
    assert ev("add.rp.f32 d, a, b", a=ONE, b=0x33800000) == 0x3F800001
    # -1 - 2^-24*(1+2^-23): .rm goes away from zero, .rp toward
    assert ev("sub.rm.f32 d, a, b", a=0xBF800000, b=tiny) == 0xBF800001
    assert ev("sub.rp.f32 d, a, b", a=0xBF800000, b=tiny) == 0xBF800000
    # exact zero: +0 except in round-down mode
    assert ev("sub.rn.f32 d, a, b", a=ONE, b=ONE) == 0
    assert ev("sub.rm.f32 d, a, b", a=ONE, b=ONE) == NEG_ZERO


def test_overflow_underflow_ftz_and_sat():
    assert ev("mul.rn.f32 d, a, b", a=F32_MAX, b=TWO) == F32_INF
    assert ev("mul.rz.f32 d, a, b", a=F32_MAX, b=TWO) == F32_MAX  # toward zero stays finite
    assert ev("mul.rm.f32 d, a, b", a=F32_MAX, b=TWO) == F32_MAX
    # 2^-126 * 0.5 = 2^-127, the subnormal 0x00400000; .ftz flushes it to +0
    assert ev("mul.rn.f32 d, a, b", a=0x00800000, b=0x3F000000) == 0x00400000
    assert ev("mul.rn.ftz.f32 d, a, b", a=0x00800000, b=0x3F000000) == 0
    # .ftz also flushes a subnormal input: (-2^-149) + 0 -> -0 + 0 = +0
    assert ev("add.ftz.f32 d, a, b", a=0x80000001, b=0) == 0
    # .sat clamps to [0, 1]: 0.75 + 0.5 = 1.25 -> 1.0; -3 -> 0; NaN -> 0
    assert ev("add.sat.f32 d, a, b", a=0x3F400000, b=0x3F000000) == ONE
    assert ev("add.sat.f32 d, a, b", a=0xC0400000, b=0) == 0
    assert ev("mul.sat.f32 d, a, b", a=QNAN, b=ONE) == 0
    assert is_nan32(ev("add.f32 d, a, b", a=F32_INF, b=F32_NINF))  # inf - inf
    assert is_nan32(ev("mul.f32 d, a, b", a=F32_INF, b=0))  # inf * 0


def test_fma_is_fused_div_sqrt_rcp():
    # (1+2^-23)(1-2^-24) - 1 = 2^-24 - 2^-47 exactly = 2^-25 * (2 - 2^-22): mantissa 22 ones then 0, exponent 102
    assert ev("fma.rn.f32 d, a, b, c", a=0x3F800001, b=0x3F7FFFFF, c=0xBF800000) == 0x337FFFFE
    # a non-fused multiply rounds the product to 1.0 first and gives 0
    assert ev("mul.rn.f32 d, a, b", a=0x3F800001, b=0x3F7FFFFF) == ONE
    assert ev("mad.rn.f32 d, a, b, c", a=0x3F800001, b=0x3F7FFFFF, c=0xBF800000) == 0x337FFFFE
    # 1/3 = 0.0101..b: mantissa 0x2AAAAA with remainder 2/3 ulp -> .rn up to ...AB, .rz ...AA
    assert ev("div.rn.f32 d, a, b", a=ONE, b=THREE) == 0x3EAAAAAB
    assert ev("div.rz.f32 d, a, b", a=ONE, b=THREE) == 0x3EAAAAAA
    # sqrt(2) = 1.41421356...; 0x3FB504F3 = 1.4142135381 is below, 0x3FB504F4 = 1.4142136574 above
    assert ev("sqrt.rn.f32 d, a", a=TWO) == 0x3FB504F3
    assert ev("sqrt.rp.f32 d, a", a=TWO) == 0x3FB504F4
    assert ev("sqrt.rn.f32 d, a", a=NEG_ZERO) == NEG_ZERO and is_nan32(ev("sqrt.rn.f32 d, a", a=0xBF800000))
    assert ev("rcp.rn.f32 d, a", a=NEG_ZERO) == F32_NINF and ev("rcp.rn.f32 d, a", a=F32_INF) == 0
    assert ev("div.rn.f32 d, a, b", a=ONE, b=0) == F32_INF


def test_min_max_abs_neg_copysign():
    assert ev("min.f32 d, a, b", a=QNAN, b=ONE) == ONE  # one NaN: the other operand
    assert is_nan32(ev("min.NaN.f32 d, a, b", a=QNAN, b=ONE))
    assert ev("min.f32 d, a, b", a=0, b=NEG_ZERO) == NEG_ZERO  # -0 is below +0
    assert ev("max.f32 d, a, b", a=0, b=NEG_ZERO) == 0
    assert ev("max.f32 d, a, b", a=F32_NINF, b=0xC0000000) == 0xC0000000
    assert ev("abs.f32 d, a", a=0xC0000000) == TWO and ev("neg.f32 d, a", a=0) == NEG_ZERO
    assert ev("copysign.f32 d, a, b", a=0x80000000, b=THREE) == 0xC0400000
    # packed: lane 0 max(-1, 1) = 1; lane 1 max(1, NaN) = 1
    assert ev("max.f16x2 d, a, b", a=0x3C00BC00, b=0x7E003C00) == 0x3C003C00


def test_f16_bf16_f64_vectors():
    assert ev("add.rn.f16 d, a, b", a=0x3C00, b=0x3C00) == 0x4000  # 1 + 1 = 2
    # bf16 has 7 stored bits: 1 + 2^-8 is a tie between 1 and 1+2^-7
    assert ev("add.rn.bf16 d, a, b", a=0x3F80, b=0x3B80) == 0x3F80
    assert ev("fma.rn.bf16 d, a, b, c", a=0x3F80, b=0x3F80, c=0x3C00) == 0x3F81  # 1*1 + 2^-7
    # 0.1 + 0.2 in binary64 = 0.30000000000000004 = 0x3FD3333333333334
    assert ev("add.rn.f64 d, a, b", a=0x3FB999999999999A, b=0x3FC999999999999A) == 0x3FD3333333333334
    assert ev("add.rz.f64 d, a, b", a=0x3FB999999999999A, b=0x3FC999999999999A) == 0x3FD3333333333333


def test_approximate_functions_report_their_bound():
    out = evaluate_ptx("sin.approx.f32 d, a;", {"a": 0x3FC90FDB})  # sin(pi/2 rounded to f32) = 1
    assert out["fidelity"] == "approximate" and "2^-20.5" in out["error_bound"]
    assert out["outputs"]["d"] == ONE
    assert evaluate_ptx("ex2.approx.f32 d, a;", {"a": THREE})["outputs"]["d"] == 0x41000000  # 2^3 = 8
    assert evaluate_ptx("lg2.approx.f32 d, a;", {"a": 0x41000000})["outputs"]["d"] == THREE
    assert evaluate_ptx("add.rn.f32 d, a, b;", {"a": ONE, "b": ONE})["fidelity"] == "exact"
    with pytest.raises(UnsupportedInstruction):
        evaluate_ptx("sin.approx.f64 d, a;", {"a": 0})


EDGE32 = np.array([0, NEG_ZERO, ONE, 0xBF800000, F32_INF, F32_NINF, QNAN, 1, 0x807FFFFF, 0x00800000, F32_MAX,
                   0xFF7FFFFF, 0x3EAAAAAB, 0x7FFFFFFF], dtype=np.uint32)


def _inputs32(n=150, seed=3):
    rng = np.random.default_rng(seed)
    wild = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    tame = rng.uniform(-1000, 1000, n).astype(np.float32).view(np.uint32)
    return np.concatenate([EDGE32, wild, tame])


def _same32(got, want):
    w = np.array([want], dtype=np.float32)
    if np.isnan(w[0]):
        return is_nan32(got)
    return got == int(w.view(np.uint32)[0])


@pytest.mark.parametrize("op,fn", [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                                   ("div", np.divide), ("min", np.fmin), ("max", np.fmax)])
def test_f32_round_to_nearest_matches_numpy(op, fn):
    xs = _inputs32()
    ys = np.roll(xs, 5)
    with np.errstate(all="ignore"):
        want = fn(xs.view(np.float32), ys.view(np.float32))
    suffix = ".rn" if op not in ("min", "max") else ""
    for x, y, w in zip(xs, ys, want):
        got = ev(f"{op}{suffix}.f32 d, a, b", a=int(x), b=int(y))
        if op in ("min", "max") and w == 0:  # numpy's fmin/fmax do not order -0 and +0
            assert got & 0x7FFFFFFF == 0
            continue
        assert _same32(got, w), (op, hex(x), hex(y), hex(got))


def test_f32_sqrt_and_f64_f16_match_numpy():
    xs = _inputs32()
    with np.errstate(all="ignore"):
        roots = np.sqrt(xs.view(np.float32))
    for x, w in zip(xs, roots):
        assert _same32(ev("sqrt.rn.f32 d, a", a=int(x)), w), hex(x)
    rng = np.random.default_rng(9)
    a64 = np.concatenate([np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1.7e308]), rng.normal(0, 1e3, 100)])
    b64 = np.roll(a64, 3)
    with np.errstate(all="ignore"):
        for op, fn in (("add", np.add), ("mul", np.multiply), ("div", np.divide)):
            for x, y, w in zip(a64, b64, fn(a64, b64)):
                got = ev(f"{op}.rn.f64 d, a, b", a=int(np.float64(x).view(np.uint64)),
                         b=int(np.float64(y).view(np.uint64)))
                assert (np.isnan(w) and (got >> 52) & 0x7FF == 0x7FF and got & ((1 << 52) - 1)) or \
                    got == int(np.float64(w).view(np.uint64)), (op, x, y)
    h = rng.integers(0, 2**16, 300, dtype=np.uint64).astype(np.uint16)
    h = np.concatenate([np.array([0, 0x8000, 0x3C00, 0x7C00, 0xFC00, 0x7E00, 1, 0x03FF, 0x7BFF], np.uint16), h])
    g = np.roll(h, 7)
    with np.errstate(all="ignore"):
        for op, fn in (("add", np.add), ("mul", np.multiply)):  # f32 evaluation then rounding is exact for f16
            for x, y, w in zip(h, g, fn(h.view(np.float16), g.view(np.float16))):
                got = ev(f"{op}.rn.f16 d, a, b", a=int(x), b=int(y))
                assert (np.isnan(w) and (got >> 10) & 0x1F == 0x1F and got & 0x3FF) or \
                    got == int(np.array([w], np.float16).view(np.uint16)[0]), (op, hex(x), hex(y), hex(got))


def test_f32_directed_rounding_of_products_against_numpy():
    # a product of two f32 is exact in f64; numpy's nearest f32 and its neighbours give each mode's answer
    rng = np.random.default_rng(17)
    a = rng.uniform(-4, 4, 300).astype(np.float32)
    b = (rng.uniform(-4, 4, 300) * 10.0 ** rng.integers(-40, 30, 300)).astype(np.float32)
    for x, y in zip(a, b):
        p = np.float64(x) * np.float64(y)
        near = np.float32(p)
        down = near if np.float64(near) <= p else np.nextafter(near, np.float32(-np.inf))
        up = near if np.float64(near) >= p else np.nextafter(near, np.float32(np.inf))
        toward_zero = down if p >= 0 else up
        bits = {"rn": near, "rm": down, "rp": up, "rz": toward_zero}
        for mode, want in bits.items():
            got = ev(f"mul.{mode}.f32 d, a, b", a=int(x.view(np.uint32)), b=int(y.view(np.uint32)))
            assert got == int(np.float32(want).view(np.uint32)), (mode, x, y, hex(got))
