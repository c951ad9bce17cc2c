"""PTX executable semantics: hand-computed vectors and numpy references."""

from __future__ import annotations

import numpy as np
import pytest

from gpuisa.ptx.semantics import UnsupportedInstruction, evaluate_ptx


def ev(text, **inputs):
    return evaluate_ptx(text, inputs)["outputs"]["d"]


def test_hand_vectors():
    assert ev("vadd.s32.u32.u32.sat d, a, b", a=0xFFFFFFFF, b=1) == 0x7FFFFFFF
    assert ev("vabsdiff.u32.u32.u32 d, a.b0, b.b2", a=0xFF, b=0x00100000) == 239
    # -32768 - 32767 = -65535 -> 0xFFFF0001
    assert ev("vsub.s32.s32.u32.sat d, a.h1, b.h1", a=0x80000000, b=0x7FFF0000) == 0xFFFF0001
    # unsigned sat of a negative difference clamps at 0
    assert ev("vsub.u32.u32.u32.sat d, a, b", a=1, b=2) == 0
    # secondary add and merge into byte 1 of c
    assert ev("vmax.u32.u32.u32.add d, a, b, c", a=3, b=9, c=100) == 109
    assert ev("vadd.u32.u32.u32.sat d.b1, a.b0, b.b0, c", a=200, b=100, c=0x11223344) == 0x1122FF44
    assert ev("vshl.u32.u32.u32.clamp d, a, b", a=1, b=40) == 0
    assert ev("vset.u32.u32.lt d, a, b", a=1, b=2) == 1


def test_simd_vectors():
    assert ev("vadd2.u32.u32.u32 d, a, b, c", a=0x00020001, b=0x00040003, c=0) == 0x00060004
    assert ev("vadd4.u32.u32.u32.sat d, a, b, c", a=0xFF020001, b=0x01040003, c=0) == 0xFF060004
    assert ev("vavrg2.u32.u32.u32 d, a, b, c", a=0x00030001, b=0x00040002, c=0) == 0x00040002
    # mask .h0 keeps c's upper half; .add sums the lanes into c
    assert ev("vsub2.s32.s32.s32 d.h0, a, b, c", a=0x00050005, b=0x00010001, c=0xABCD0000) == 0xABCD0004
    assert ev("vabsdiff4.u32.u32.u32.add d, a, b, c", a=0x01020304, b=0x04030201, c=10) == 10 + 3 + 1 + 1 + 3


def test_integer_vectors():
    assert ev("mul.hi.u32 d, a, b", a=0xFFFFFFFF, b=0xFFFFFFFF) == 0xFFFFFFFE
    assert ev("mul.wide.s32 d, a, b", a=0xFFFFFFFF, b=2) == 0xFFFFFFFFFFFFFFFE
    assert ev("mad.lo.s32 d, a, b, c", a=3, b=4, c=5) == 17
    assert ev("add.sat.s32 d, a, b", a=0x7FFFFFFF, b=1) == 0x7FFFFFFF
    assert ev("bfe.u32 d, a, b, c", a=0xF0, b=4, c=4) == 0xF
    assert ev("bfe.s32 d, a, b, c", a=0xF0, b=4, c=4) == 0xFFFFFFFF
    assert ev("bfi.b32 d, a, b, c, e", a=0xF, b=0, c=8, e=4) == 0xF00
    assert ev("prmt.b32 d, a, b, c", a=0x33221100, b=0x77665544, c=0x7531) == 0x77553311
    assert ev("lop3.b32 d, a, b, c, 0x96", a=0b1100, b=0b1010, c=0b0110) == 0b1100 ^ 0b1010 ^ 0b0110
    assert ev("dp4a.s32.s32 d, a, b, c", a=0xFF01FF01, b=0x01010101, c=0) == 0
    assert ev("clz.b32 d, a", a=1) == 31 and ev("popc.b64 d, a", a=(1 << 64) - 1) == 64


def test_numpy_references():
    rng = np.random.default_rng(5)
    edge = np.array([0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF], dtype=np.uint64)
    a = np.concatenate([edge, rng.integers(0, 2**32, 200, dtype=np.uint64)])
    b = np.concatenate([edge[::-1], rng.integers(0, 2**32, 200, dtype=np.uint64)])
    sa, sb = a.astype(np.uint32).view(np.int32).astype(np.int64), b.astype(np.uint32).view(np.int32).astype(np.int64)
    for x, y, s, t in zip(a, b, sa, sb):
        x, y = int(x), int(y)
        assert ev("vabsdiff.u32.s32.s32 d, a, b", a=x, b=y) == abs(int(s) - int(t)) & 0xFFFFFFFF
        assert ev("vmin.s32.s32.s32 d, a, b", a=x, b=y) == int(np.minimum(s, t)) & 0xFFFFFFFF
        assert ev("vadd.s32.s32.s32.sat d, a, b", a=x, b=y) == int(np.clip(s + t, -2**31, 2**31 - 1)) & 0xFFFFFFFF
        bytes_a = np.frombuffer(np.uint32(x).tobytes(), np.uint8).astype(int)
        bytes_b = np.frombuffer(np.uint32(y).tobytes(), np.uint8).astype(int)
        want = int(np.abs(bytes_a - bytes_b).sum()) + 7
        assert ev("vabsdiff4.u32.u32.u32.add d, a, b, c", a=x, b=y, c=7) == want
        halves_a = np.frombuffer(np.uint32(x).tobytes(), np.int16).astype(int)
        halves_b = np.frombuffer(np.uint32(y).tobytes(), np.int16).astype(int)
        lanes = np.clip(halves_a + halves_b, -32768, 32767).astype(np.int16)
        assert ev("vadd2.s32.s32.s32.sat d, a, b, c", a=x, b=y, c=0) == int(lanes.view(np.uint32)[0])
        assert ev("mul.hi.s32 d, a, b", a=x, b=y) == ((int(s) * int(t)) >> 32) & 0xFFFFFFFF


def test_unsupported_is_a_clear_error():
    with pytest.raises(UnsupportedInstruction, match="no executable semantics"):
        evaluate_ptx("tex.2d.v4.f32.f32 d, [a, c];", {})


def test_more_integer_vectors():
    assert ev("div.s32 d, a, b", a=0xFFFFFFF9, b=2) == 0xFFFFFFFD  # -7 / 2 truncates to -3
    assert ev("rem.s32 d, a, b", a=0xFFFFFFF9, b=2) == 0xFFFFFFFF  # -7 - (-3 * 2) = -1
    assert ev("div.u32 d, a, b", a=0xFFFFFFF9, b=2) == 0x7FFFFFFC
    assert ev("div.s32 d, a, b", a=0x80000000, b=0xFFFFFFFF) == 0x80000000  # INT_MIN / -1 wraps
    with pytest.raises(UnsupportedInstruction, match="by zero"):
        ev("div.u32 d, a, b", a=1, b=0)
    assert ev("bfind.u32 d, a", a=0x00010000) == 16 and ev("bfind.u32 d, a", a=0) == 0xFFFFFFFF
    assert ev("bfind.s32 d, a", a=0xFFFF0000) == 15  # negative: highest clear bit of ~a = 0x0000FFFF
    assert ev("bfind.shiftamt.u32 d, a", a=0x00010000) == 15  # 31 - 16
    assert ev("bmsk.wrap.b32 d, a, b", a=4, b=8) == 0xFF0  # 8 ones starting at bit 4
    assert ev("bmsk.clamp.b32 d, a, b", a=28, b=40) == 0xF0000000
    assert ev("szext.wrap.s32 d, a, b", a=0xF0, b=8) == 0xFFFFFFF0  # sign bit 7 set
    assert ev("szext.clamp.u32 d, a, b", a=0x1F0, b=8) == 0xF0
    # funnel shifts of the pair b:a = 0x00000001:0x80000000
    assert ev("shf.l.wrap.b32 d, a, b, c", a=0x80000000, b=1, c=1) == 3
    assert ev("shf.r.clamp.b32 d, a, b, c", a=0x80000000, b=1, c=4) == 0x18000000
    assert evaluate_ptx("testp.subnormal.f32 p, a", {"a": 1})["outputs"]["p"] == 1
    assert evaluate_ptx("testp.normal.f32 p, a", {"a": 0})["outputs"]["p"] == 1  # the document: +-0 counts as normal
    assert evaluate_ptx("testp.notanumber.f64 p, a", {"a": 0x7FF8000000000000})["outputs"]["p"] == 1
    assert evaluate_ptx("testp.finite.f32 p, a", {"a": 0x7F800000})["outputs"]["p"] == 0


def test_packed_and_predicate_vectors():
    # s16x2 lanes (low first): max(-1, 2) = 2, max(-5, -3) = -3 (0xFFFD); .relu turns -3 into 0
    assert ev("max.s16x2 d, a, b", a=0xFFFBFFFF, b=0xFFFD0002) == 0xFFFD0002
    assert ev("max.relu.s16x2 d, a, b", a=0xFFFBFFFF, b=0xFFFD0002) == 0x00000002
    assert ev("min.u16x2 d, a, b", a=0xFFFB0001, b=0x00030002) == 0x00030001
    assert ev("and.pred d, a, b", a=1, b=0) == 0 and ev("xor.pred d, a, b", a=1, b=1) == 0
    assert ev("not.pred d, a", a=0) == 1
    # f32x2 lanes: (1.0 + 2.0, 3.0 + 3.0) = (3.0, 6.0) = (0x40400000, 0x40C00000), lane 0 low
    assert ev("add.rn.f32x2 d, a, b", a=0x40400000_3F800000, b=0x40400000_40000000) == 0x40C00000_40400000
