"""PTX cvt, comparison/selection and carry semantics: hand-computed vectors and numpy references."""

from __future__ import annotations

import numpy as np
import pytest

from gpuisa.ptx.semantics import evaluate_ptx

ONE, QNAN, NEG_ZERO = 0x3F800000, 0x7FC00000, 0x80000000


def out(text, **inputs):
    return evaluate_ptx(text, inputs)["outputs"]


def ev(text, **inputs):
    return out(text, **inputs)["d"]


def f32(x):
    return int(np.float32(x).view(np.uint32))


def test_cvt_float_to_int_hand_vectors():
    assert ev("cvt.rni.s32.f32 d, a", a=f32(2.5)) == 2  # tie to even
    assert ev("cvt.rni.s32.f32 d, a", a=f32(3.5)) == 4
    assert ev("cvt.rni.s32.f32 d, a", a=f32(-2.5)) == 0xFFFFFFFE  # -2
    assert ev("cvt.rzi.s32.f32 d, a", a=f32(-2.7)) == 0xFFFFFFFE  # -2
    assert ev("cvt.rmi.s32.f32 d, a", a=f32(-2.5)) == 0xFFFFFFFD  # -3
    assert ev("cvt.rpi.s32.f32 d, a", a=f32(2.1)) == 3
    assert ev("cvt.rzi.s32.f32 d, a", a=QNAN) == 0
    assert ev("cvt.rzi.s32.f32 d, a", a=f32(1e10)) == 0x7FFFFFFF  # clamps to INT_MAX
    assert ev("cvt.rzi.s32.f32 d, a", a=0xFF800000) == 0x80000000  # -inf -> INT_MIN
    assert ev("cvt.rzi.u32.f32 d, a", a=f32(-1.0)) == 0
    assert ev("cvt.rzi.s64.f64 d, a", a=0xC3E0000000000000) == 1 << 63  # -2^63 fits exactly


def test_cvt_int_and_float_hand_vectors():
    # 2^24 + 1 lies halfway between 2^24 (even mantissa) and 2^24 + 2
    assert ev("cvt.rn.f32.s32 d, a", a=(1 << 24) + 1) == 0x4B800000
    assert ev("cvt.rp.f32.s32 d, a", a=(1 << 24) + 1) == 0x4B800001
    assert ev("cvt.rn.f32.s32 d, a", a=0xFFFFFFFF) == 0xBF800000  # -1
    assert ev("cvt.rn.f32.u32 d, a", a=0xFFFFFFFF) == 0x4F800000  # 2^32 - 1 rounds to 2^32
    assert ev("cvt.sat.u8.s32 d, a", a=300) == 255 and ev("cvt.sat.u8.s32 d, a", a=0xFFFFFFFB) == 0
    assert ev("cvt.u8.s32 d, a", a=300) == 300 & 0xFF  # truncation keeps the low byte (44)
    assert ev("cvt.s32.s8 d, a", a=0x80) == 0xFFFFFF80  # sign extension of -128
    assert ev("cvt.sat.s16.u32 d, a", a=0x80000000) == 0x7FFF
    assert ev("cvt.f32.f16 d, a", a=0x3C00) == ONE
    # 65520 is halfway between 65504 (odd mantissa, the f16 maximum) and 65536: to even overflows
    assert ev("cvt.rn.f16.f32 d, a", a=f32(65520.0)) == 0x7C00
    assert ev("cvt.rz.f16.f32 d, a", a=f32(65520.0)) == 0x7BFF
    assert ev("cvt.rn.satfinite.f16.f32 d, a", a=f32(1e6)) == 0x7BFF
    assert ev("cvt.rn.relu.f16.f32 d, a", a=f32(-1.0)) == 0
    # tf32 keeps 10 stored bits: 1 + 2^-11 is a tie, .rna rounds away to 1 + 2^-10
    assert ev("cvt.rna.tf32.f32 d, a", a=0x3F801000) == 0x3F802000
    # bf16: 1 + 2^-8 is a tie -> even 1.0; 1 + 2^-7 + 2^-8 is a tie -> even 1 + 2^-6
    assert ev("cvt.rn.bf16.f32 d, a", a=0x3F808000) == 0x3F80
    assert ev("cvt.rn.bf16.f32 d, a", a=0x3F818000) == 0x3F82
    assert ev("cvt.f64.f32 d, a", a=1) == 0x36A0000000000000  # 2^-149: exponent -149 + 1023 = 874 = 0x36A
    assert ev("cvt.ftz.f64.f32 d, a", a=1) == 0
    assert ev("cvt.rn.f32.f64 d, a", a=0x3FB999999999999A) == 0x3DCCCCCD  # 0.1
    assert ev("cvt.rni.f32.f32 d, a", a=f32(2.5)) == 0x40000000  # integral float, tie to even: 2.0
    assert ev("cvt.sat.f32.f32 d, a", a=f32(2.0)) == ONE


def test_cvt_packed_and_fp8():
    # e4m3 (bias 7): 1.0 = 0 0111 000 = 0x38; 448 = 0 1111 110 = 0x7E, the largest finite
    assert ev("cvt.rn.satfinite.e4m3x2.f32 d, a, b", a=f32(448.0), b=f32(1.0)) == 0x7E38
    assert ev("cvt.rn.satfinite.e4m3x2.f32 d, a, b", a=f32(1000.0), b=f32(-1.0)) == 0x7EB8
    # e5m2 (bias 15): 1.0 = 0 01111 00 = 0x3C
    assert ev("cvt.rn.satfinite.e5m2x2.f32 d, a, b", a=f32(1.0), b=0) == 0x3C00
    assert ev("cvt.rn.f16x2.e4m3x2 d, a", a=0x38B8) == 0x3C00BC00  # (1.0, -1.0)
    assert ev("cvt.rn.f16x2.f32 d, a, b", a=f32(2.0), b=f32(1.0)) == 0x40003C00


def test_cvt_matches_numpy():
    rng = np.random.default_rng(21)
    xs = np.concatenate([np.array([0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, np.inf, -np.inf, np.nan, 1e-40, 3e9, -3e9,
                                   65504.0, 65520.0, 1e-8], np.float32),
                         rng.normal(0, 1e4, 200).astype(np.float32),
                         rng.integers(0, 2**32, 100, dtype=np.uint64).astype(np.uint32).view(np.float32)])
    with np.errstate(all="ignore"):
        for x in xs:
            raw = int(np.float32(x).view(np.uint32))
            h = np.float32(x).astype(np.float16)
            got = ev("cvt.rn.f16.f32 d, a", a=raw)
            assert (np.isnan(h) and (got & 0x7C00) == 0x7C00 and got & 0x3FF) or got == int(h.view(np.uint16)), x
            for mode, fn in (("rni", np.rint), ("rzi", np.trunc), ("rmi", np.floor), ("rpi", np.ceil)):
                want = 0 if np.isnan(x) else int(np.clip(fn(np.float64(x)), -2**31, 2**31 - 1))
                assert ev(f"cvt.{mode}.s32.f32 d, a", a=raw) == want & 0xFFFFFFFF, (mode, x)
    ints = np.concatenate([np.array([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, (1 << 24) + 1, (1 << 25) + 3],
                                    np.uint32), rng.integers(0, 2**32, 200, dtype=np.uint64).astype(np.uint32)])
    for n in ints:
        want_s = np.float32(np.int64(np.uint32(n).view(np.int32)))
        assert ev("cvt.rn.f32.s32 d, a", a=int(n)) == int(want_s.view(np.uint32)), hex(n)
        assert ev("cvt.rn.f64.u32 d, a", a=int(n)) == int(np.float64(n).view(np.uint64))


def test_setp_set_selp_slct_hand_vectors():
    assert out("setp.lt.s32 p, a, b", a=0xFFFFFFFF, b=0)["p"] == 1  # -1 < 0
    assert out("setp.lo.u32 p, a, b", a=0xFFFFFFFF, b=0)["p"] == 0  # 4294967295 < 0 is false
    assert out("setp.hs.u64 p, a, b", a=1 << 63, b=1)["p"] == 1
    assert out("setp.eq.f32 p|q, a, b", a=QNAN, b=QNAN) == {"p": 0, "q": 1}
    assert out("setp.equ.f32 p, a, b", a=QNAN, b=ONE)["p"] == 1
    assert out("setp.ne.f32 p, a, b", a=QNAN, b=ONE)["p"] == 0  # ordered: false on NaN
    assert out("setp.neu.f32 p, a, b", a=QNAN, b=ONE)["p"] == 1
    assert out("setp.num.f32 p, a, b", a=ONE, b=ONE)["p"] == 1 and out("setp.nan.f32 p, a, b", a=ONE, b=QNAN)["p"] == 1
    assert out("setp.eq.f32 p, a, b", a=0, b=NEG_ZERO)["p"] == 1  # +0 == -0
    assert out("setp.gt.ftz.f32 p, a, b", a=1, b=0)["p"] == 0  # the subnormal flushes to 0
    # combine: p = (1 < 2) AND !c with c = 1 -> 0; q = !(1 < 2) AND !c = 0
    assert out("setp.lt.and.s32 p|q, a, b, !c", a=1, b=2, c=1) == {"p": 0, "q": 0}
    assert out("setp.lt.xor.s32 p|q, a, b, c", a=1, b=2, c=1) == {"p": 0, "q": 1}
    assert out("setp.ge.or.f64 p, a, b, c", a=0, b=0x3FF0000000000000, c=1)["p"] == 1
    assert ev("set.gt.u32.s32 d, a, b", a=1, b=0xFFFFFFFF) == 0xFFFFFFFF  # 1 > -1: all ones
    assert ev("set.gt.f32.s32 d, a, b", a=1, b=0xFFFFFFFF) == ONE  # 1.0f
    assert ev("set.ltu.and.u32.f32 d, a, b, c", a=QNAN, b=ONE, c=0) == 0
    assert ev("selp.b32 d, a, b, c", a=7, b=9, c=1) == 7 and ev("selp.f64 d, a, b, c", a=7, b=9, c=0) == 9
    assert ev("slct.u32.s32 d, a, b, c", a=7, b=9, c=0xFFFFFFFF) == 9  # c = -1 < 0 picks b
    assert ev("slct.u32.s32 d, a, b, c", a=7, b=9, c=0) == 7
    assert ev("slct.f32.f32 d, a, b, c", a=7, b=9, c=NEG_ZERO) == 7  # -0 >= 0


@pytest.mark.parametrize("cmp,fn", [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less), ("le", np.less_equal),
                                    ("gt", np.greater), ("ge", np.greater_equal)])
def test_setp_f32_ordered_and_unordered_match_numpy(cmp, fn):
    vals = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, 3.5], np.float32)
    a, b = np.meshgrid(vals, vals)
    a, b = a.ravel(), b.ravel()
    either_nan = np.isnan(a) | np.isnan(b)
    ordered = fn(a, b) & ~either_nan  # PTX's ordered operators (ne included) are false on NaN
    unordered = fn(a, b) | either_nan
    for x, y, o, u in zip(a, b, ordered, unordered):
        xi, yi = int(x.view(np.uint32)), int(y.view(np.uint32))
        assert out(f"setp.{cmp}.f32 p, a, b", a=xi, b=yi)["p"] == int(o), (cmp, x, y)
        assert out(f"setp.{cmp}u.f32 p, a, b", a=xi, b=yi)["p"] == int(u), (cmp + "u", x, y)


def test_carry_chain_hand_vectors():
    assert out("add.cc.u32 d, a, b", a=0xFFFFFFFF, b=1) == {"d": 0, "CC.CF": 1}
    assert out("addc.u32 d, a, b", **{"a": 0, "b": 0, "CC.CF": 1}) == {"d": 1}  # no .cc: flag not written
    assert out("sub.cc.u32 d, a, b", a=0, b=1) == {"d": 0xFFFFFFFF, "CC.CF": 1}  # borrow out
    assert out("subc.cc.u32 d, a, b", **{"a": 5, "b": 2, "CC.CF": 1}) == {"d": 2, "CC.CF": 0}  # 5 - 2 - 1
    # 0x10000 * 0x10000 = 2^32: low word 0, high word 1
    assert out("mad.lo.cc.u32 d, a, b, c", a=0x10000, b=0x10000, c=0xFFFFFFFF) == {"d": 0xFFFFFFFF, "CC.CF": 0}
    assert out("mad.hi.cc.u32 d, a, b, c", a=0x10000, b=0x10000, c=0xFFFFFFFF) == {"d": 0, "CC.CF": 1}
    assert out("madc.lo.u32 d, a, b, c", **{"a": 2, "b": 3, "c": 4, "CC.CF": 1}) == {"d": 11}  # 6 + 4 + 1


def test_128_bit_addition_through_the_carry_matches_numpy():
    rng = np.random.default_rng(4)
    edge = [0, 1, 0xFFFFFFFFFFFFFFFF, 0x8000000000000000, 0x7FFFFFFFFFFFFFFF]
    xs = edge + [int(v) for v in rng.integers(0, 2**64, 100, dtype=np.uint64)]
    ys = edge[::-1] + [int(v) for v in rng.integers(0, 2**64, 100, dtype=np.uint64)]
    for x, y in zip(xs, ys):
        lo = out("add.cc.u32 d, a, b", a=x & 0xFFFFFFFF, b=y & 0xFFFFFFFF)
        hi = out("addc.u32 d, a, b", **{"a": x >> 32, "b": y >> 32, "CC.CF": lo["CC.CF"]})
        with np.errstate(over="ignore"):
            want = int(np.uint64(x) + np.uint64(y))
        assert (hi["d"] << 32 | lo["d"]) == want
        lo = out("sub.cc.u32 d, a, b", a=x & 0xFFFFFFFF, b=y & 0xFFFFFFFF)
        hi = out("subc.u32 d, a, b", **{"a": x >> 32, "b": y >> 32, "CC.CF": lo["CC.CF"]})
        with np.errstate(over="ignore"):
            want = int(np.uint64(x) - np.uint64(y))
        assert (hi["d"] << 32 | lo["d"]) == want
