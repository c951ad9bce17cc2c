"""Integer CLAMP beyond add/sub against Python integers: multiply-adds (24- and 16-bit sources), dot
products (v_dot2/4/8, signed, unsigned and the iu forms whose neg_lo gives the signedness), packed
16-bit add/sub/mad (each half on its own) and sums of absolute differences.  The reference computes the
exact value from the operands' fields with Python integers and saturates it to the destination type's
range; the instruction runs assembled (llvm-mc syntax) through ``evaluate_encoded``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpuisa.semantics import sources
from gpuisa.semantics.encoded import evaluate_encoded

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")


def field(x: int, lo: int, w: int, signed: bool) -> int:
    v = (x >> lo) & ((1 << w) - 1)
    return v - (1 << w) if signed and v >> (w - 1) else v


def sat(v: int, w: int, signed: bool) -> int:
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    return max(lo, min(hi, v)) & ((1 << w) - 1)


def mad(sw, signed, w):
    return lambda a, b, c: sat(field(a, 0, sw, signed) * field(b, 0, sw, signed) + field(c, 0, w, signed), w, signed)


def dot(n, ew, sa, sb, signed):
    def ref(a, b, c):
        total = field(c, 0, 32, signed) + sum(field(a, i * ew, ew, sa) * field(b, i * ew, ew, sb) for i in range(n))
        return sat(total, 32, signed)
    return ref


def packed(op, signed):
    def ref(a, b, c):
        out = 0
        for lo in (0, 16):
            x, y, z = (field(v, lo, 16, signed) for v in (a, b, c))
            out |= sat(x + y if op == "+" else x - y if op == "-" else x * y + z, 16, signed) << lo
        return out
    return ref


def sad(kind):
    ew, n = {"u16": (16, 2), "u32": (32, 1)}.get(kind, (8, 4))

    def ref(a, b, c):
        diffs = [abs(field(a, i * ew, ew, False) - field(b, i * ew, ew, False)) for i in range(n)]
        if kind == "msad":
            diffs = [d for i, d in enumerate(diffs) if field(b, i * ew, ew, False)]
        total = sum(diffs) << (16 if kind == "hi" else 0)
        return sat(total + c, 32, False)
    return ref


COMMON = [("v_mad_u32_u24 v1, v2, v3, v4 clamp", 32, mad(24, False, 32)),
          ("v_mad_i32_i24 v1, v2, v3, v4 clamp", 32, mad(24, True, 32)),
          ("v_pk_add_i16 v1, v2, v3 clamp", 32, packed("+", True)),
          ("v_pk_add_u16 v1, v2, v3 clamp", 32, packed("+", False)),
          ("v_pk_sub_i16 v1, v2, v3 clamp", 32, packed("-", True)),
          ("v_pk_sub_u16 v1, v2, v3 clamp", 32, packed("-", False)),
          ("v_pk_mad_i16 v1, v2, v3, v4 clamp", 32, packed("*", True)),
          ("v_pk_mad_u16 v1, v2, v3, v4 clamp", 32, packed("*", False)),
          ("v_sad_u8 v1, v2, v3, v4 clamp", 32, sad("u8")), ("v_sad_hi_u8 v1, v2, v3, v4 clamp", 32, sad("hi")),
          ("v_sad_u16 v1, v2, v3, v4 clamp", 32, sad("u16")), ("v_sad_u32 v1, v2, v3, v4 clamp", 32, sad("u32")),
          ("v_msad_u8 v1, v2, v3, v4 clamp", 32, sad("msad"))]
CASES = {
    "rdna3.5": COMMON + [
        ("v_mad_u32_u16 v1, v2, v3, v4 clamp", 32, mad(16, False, 32)),
        ("v_mad_i32_i16 v1, v2, v3, v4 clamp", 32, mad(16, True, 32)),
        ("v_mad_u16 v1.l, v2.l, v3.l, v4.l clamp", 16, mad(16, False, 16)),
        ("v_mad_i16 v1.l, v2.l, v3.l, v4.l clamp", 16, mad(16, True, 16)),
        ("v_dot4_u32_u8 v1, v2, v3, v4 clamp", 32, dot(4, 8, False, False, False)),
        ("v_dot8_u32_u4 v1, v2, v3, v4 clamp", 32, dot(8, 4, False, False, False)),
        *[(f"v_dot4_i32_iu8 v1, v2, v3, v4 neg_lo:[{x},{y},0] clamp", 32, dot(4, 8, x == 1, y == 1, True))
          for x in (0, 1) for y in (0, 1)],
        ("v_dot8_i32_iu4 v1, v2, v3, v4 neg_lo:[1,0,0] clamp", 32, dot(8, 4, True, False, True))],
    "rdna4": [("v_mad_u32_u24 v1, v2, v3, v4 clamp", 32, mad(24, False, 32)),
              ("v_pk_add_i16 v1, v2, v3 clamp", 32, packed("+", True)),
              ("v_pk_mad_u16 v1, v2, v3, v4 clamp", 32, packed("*", False)),
              ("v_sad_u8 v1, v2, v3, v4 clamp", 32, sad("u8")), ("v_msad_u8 v1, v2, v3, v4 clamp", 32, sad("msad")),
              ("v_dot4_i32_iu8 v1, v2, v3, v4 neg_lo:[1,1,0] clamp", 32, dot(4, 8, True, True, True))],
    "cdna4": COMMON + [
        ("v_mad_u16 v1, v2, v3, v4 clamp", 16, mad(16, False, 16)),
        ("v_mad_i16 v1, v2, v3, v4 clamp", 16, mad(16, True, 16)),
        ("v_mad_u32_u16 v1, v2, v3, v4 clamp", 32, mad(16, False, 32)),
        ("v_mad_i32_i16 v1, v2, v3, v4 clamp", 32, mad(16, True, 32)),
        ("v_dot4_i32_i8 v1, v2, v3, v4 clamp", 32, dot(4, 8, True, True, True)),
        ("v_dot4_u32_u8 v1, v2, v3, v4 clamp", 32, dot(4, 8, False, False, False)),
        ("v_dot8_i32_i4 v1, v2, v3, v4 clamp", 32, dot(8, 4, True, True, True)),
        ("v_dot8_u32_u4 v1, v2, v3, v4 clamp", 32, dot(8, 4, False, False, False)),
        ("v_dot2_i32_i16 v1, v2, v3, v4 clamp", 32, dot(2, 16, True, True, True)),
        ("v_dot2_u32_u16 v1, v2, v3, v4 clamp", 32, dot(2, 16, False, False, False))],
}
EDGE = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFF, 0x800000, 0xFFFFFF, 0x7FFFFFFF, 0x80000000,
        0xFFFFFFFF, 0x7F7F7F7F, 0x80808080, 0x77777777, 0x88888888, 0x7FFF7FFF, 0x80008000]


@pytest.mark.parametrize("arch", sorted(CASES))
def test_integer_clamp_saturates_exact_result(arch):
    rng = random.Random(sum(map(ord, arch)))
    vals = [[rng.choice(EDGE) if rng.random() < 0.6 else rng.getrandbits(32) for _ in range(32)] for _ in range(3)]
    a, b, c = vals
    for text, w, ref in CASES[arch]:
        res = evaluate_encoded(arch, text, {"V1": [0] * 32, "V2": a, "V3": b, "V4": c}, lanes=32)
        for x, y, z, g in zip(a, b, c, res["writes"]["V1"]):
            assert g & ((1 << w) - 1) == ref(x, y, z), (arch, text, hex(x), hex(y), hex(z), hex(g))


CARRY = {  # arch -> [(assembly, op, carry-in SGPR names)]
    "rdna3.5": [("v_add_co_ci_u32_e64 v1, s4, v2, v3, s6 clamp", "+", ("S6",)),
                ("v_sub_co_ci_u32_e64 v1, s4, v2, v3, s6 clamp", "-", ("S6",)),
                ("v_subrev_co_ci_u32_e64 v1, s4, v2, v3, s6 clamp", "r", ("S6",))],
    "cdna4": [("v_addc_co_u32_e64 v1, s[4:5], v2, v3, s[6:7] clamp", "+", ("S6", "S7")),
              ("v_subb_co_u32_e64 v1, s[4:5], v2, v3, s[6:7] clamp", "-", ("S6", "S7")),
              ("v_subbrev_co_u32_e64 v1, s[4:5], v2, v3, s[6:7] clamp", "r", ("S6", "S7"))],
}


@pytest.mark.parametrize("arch", sorted(CARRY))
def test_integer_clamp_with_carry_in(arch):
    rng = random.Random(len(arch))
    edge = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF]
    a, b = ([rng.choice(edge) if rng.random() < 0.7 else rng.getrandbits(32) for _ in range(32)] for _ in range(2))
    mask = rng.getrandbits(32)
    for text, op, regs in CARRY[arch]:
        state = {"V1": [0] * 32, "V2": a, "V3": b, regs[0]: mask, **({regs[1]: 0} if len(regs) > 1 else {})}
        got = evaluate_encoded(arch, text, state, lanes=32)["writes"]["V1"]
        for lane, (x, y, g) in enumerate(zip(a, b, got)):
            c = (mask >> lane) & 1
            exact = x + y + c if op == "+" else x - y - c if op == "-" else y - x - c
            assert g == sat(exact, 32, False), (arch, text, lane, hex(x), hex(y), c, hex(g))


def f16_bits(x: float) -> int:
    return int(np.float16(x).view(np.uint16))


def f32_bits(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def fclamp(x: float) -> float:
    return 0.0 if not x > 0 else min(x, 1.0)  # NaN and -0 -> +0


PACKED_FLOAT = {  # arch -> [(assembly, element width, elements, reference on (a halves, b halves, c halves))]
    "rdna3.5": [("v_pk_add_f16 v1, v2, v3 clamp", 16, lambda a, b, c, i: a[i] + b[i]),
                ("v_pk_mul_f16 v1, v2, v3 clamp", 16, lambda a, b, c, i: a[i] * b[i]),
                ("v_pk_fma_f16 v1, v2, v3, v4 clamp", 16, lambda a, b, c, i: a[i] * b[i] + c[i]),
                ("v_dot2_f32_f16 v1, v2, v3, v5 clamp", 32, None)],
    "rdna4": [("v_pk_add_f16 v1, v2, v3 clamp", 16, lambda a, b, c, i: a[i] + b[i]),
              ("v_dot2_f32_f16 v1, v2, v3, v5 clamp", 32, None)],
    "cdna4": [("v_pk_add_f16 v1, v2, v3 clamp", 16, lambda a, b, c, i: a[i] + b[i]),
              ("v_pk_fma_f16 v1, v2, v3, v4 clamp", 16, lambda a, b, c, i: a[i] * b[i] + c[i]),
              ("v_dot2_f32_f16 v1, v2, v3, v5 clamp", 32, None),
              ("v_pk_add_f32 v[6:7], v[8:9], v[10:11] clamp", 32, lambda a, b, c, i: a[i] + b[i])],
}


@pytest.mark.parametrize("arch", sorted(PACKED_FLOAT))
def test_packed_float_clamp_each_element(arch):
    """Values on a grid of eighths in [-2, 2] (every result exact, so the clamp is all that is checked), NaN."""
    rng = random.Random(len(arch) * 3)
    grid = [k / 8 for k in range(-16, 17)]
    n = 32
    a, b, c = ([[rng.choice(grid) for _ in range(2)] for _ in range(n)] for _ in range(3))
    a[0][1] = float("nan")
    s32 = [rng.choice(grid) for _ in range(n)]
    regs = {"V2": [f16_bits(x[0]) | f16_bits(x[1]) << 16 for x in a], "V3": [f16_bits(x[0]) | f16_bits(x[1]) << 16 for x in b],
            "V4": [f16_bits(x[0]) | f16_bits(x[1]) << 16 for x in c], "V5": [f32_bits(x) for x in s32],
            **{f"V{8 + k}": [f32_bits(x[k]) for x in a] for k in range(2)},
            **{f"V{10 + k}": [f32_bits(x[k]) for x in b] for k in range(2)}}
    for text, w, ref in PACKED_FLOAT[arch]:
        res = evaluate_encoded(arch, text, dict(regs, V1=[0] * n), lanes=n)["writes"]
        got = res["V1"] if "V1" in res else res["V[6:7]"]
        for lane in range(n):
            if ref is None:  # dot2: a.lo*b.lo + a.hi*b.hi + S2 (f32)
                want = f32_bits(fclamp(a[lane][0] * b[lane][0] + a[lane][1] * b[lane][1] + s32[lane]))
            else:
                bits = f16_bits if w == 16 else f32_bits
                want = sum(bits(fclamp(ref(a[lane], b[lane], c[lane], i))) << (w * i) for i in range(2))
            assert got[lane] == want, (arch, text, lane, a[lane], b[lane], hex(got[lane]), hex(want))


@pytest.mark.parametrize("arch", ["rdna3.5", "cdna4"])
def test_products_and_accumulators_saturate(arch):
    """v_mul_u32_u24/i32_i24 and v_pk_mul_lo_u16 (products), v_mad_u64_u32/i64_i32 (65-bit sums), CDNA's
    accumulating v_dot4c_i32_i8/v_dot2c_i32_i16 (the old destination is the addend)."""
    rng = random.Random(len(arch) + 11)
    n = 32
    a, b, acc, c_lo, c_hi = ([rng.choice(EDGE) if rng.random() < 0.6 else rng.getrandbits(32) for _ in range(n)]
                             for _ in range(5))
    cases = [("v_mul_u32_u24_e64 v1, v2, v3 clamp", lambda x, y, z: sat(field(x, 0, 24, False) * field(y, 0, 24, False), 32, False)),
             ("v_mul_i32_i24_e64 v1, v2, v3 clamp", lambda x, y, z: sat(field(x, 0, 24, True) * field(y, 0, 24, True), 32, True))]
    if arch == "cdna4":
        cases += [("v_pk_mul_lo_u16 v1, v2, v3 clamp",
                   lambda x, y, z: sum(sat(field(x, lo, 16, False) * field(y, lo, 16, False), 16, False) << lo for lo in (0, 16))),
                  ("v_dot4c_i32_i8_e64 v1, v2, v3 clamp", lambda x, y, z: dot(4, 8, True, True, True)(x, y, z)),
                  ("v_dot2c_i32_i16_e64 v1, v2, v3 clamp", lambda x, y, z: dot(2, 16, True, True, True)(x, y, z))]
    for text, ref in cases:
        got = evaluate_encoded(arch, text, {"V1": acc, "V2": a, "V3": b}, lanes=n)["writes"]["V1"]
        for x, y, z, g in zip(a, b, acc, got):
            assert g == ref(x, y, z), (arch, text, hex(x), hex(y), hex(z), hex(g))
    sdst = "s[4:5]" if arch == "cdna4" else "s4"
    for kind in ("u", "i"):
        text = f"v_mad_{kind}64_{kind}32 v[6:7], {sdst}, v2, v3, v[8:9] clamp"
        got = evaluate_encoded(arch, text, {"V2": a, "V3": b, "V8": c_lo, "V9": c_hi}, lanes=n)["writes"]["V[6:7]"]
        signed = kind == "i"
        for x, y, lo, hi, g in zip(a, b, c_lo, c_hi, got):
            exact = field(x, 0, 32, signed) * field(y, 0, 32, signed) + field(lo | hi << 32, 0, 64, signed)
            assert g == sat(exact, 64, signed), (arch, text, hex(x), hex(y), hex(lo | hi << 32), hex(g))


@pytest.mark.parametrize("arch", ["rdna3.5", "cdna4"])
def test_quad_sads_saturate_each_field(arch):
    """Four SADs of S1 against the 32-bit windows of the 64-bit S0 at bytes 0..3 (mqsad: S1 bytes of 0 left
    out), each added to its 16-bit (32-bit: v_mqsad_u32_u8) field of S2 and saturated to that field."""
    rng = random.Random(len(arch) + 5)
    n = 32
    a = [rng.getrandbits(64) for _ in range(n)]
    b = [rng.getrandbits(32) & rng.choice([0xFFFFFFFF, 0xFF00FF00, 0x00FFFF00]) for _ in range(n)]
    forms = (("v_qsad_pk_u16_u8 v[2:3], v[4:5], v1, v[6:7] clamp", 16, False, "V[2:3]"),
             ("v_mqsad_pk_u16_u8 v[2:3], v[4:5], v1, v[6:7] clamp", 16, True, "V[2:3]"),
             ("v_mqsad_u32_u8 v[12:15], v[4:5], v1, v[8:11] clamp", 32, True, "V[12:15]"))
    for text, field, masked, out in forms:
        fmask = (1 << field) - 1
        c = [sum((fmask - rng.randrange(0, 1200) if rng.random() < 0.6 else rng.getrandbits(field)) << (field * k)
                 for k in range(4)) for _ in range(n)]
        regs = {"V1": b, "V4": [x & 0xFFFFFFFF for x in a], "V5": [x >> 32 for x in a]}
        base = 6 if field == 16 else 8
        regs.update({f"V{base + j}": [(z >> (32 * j)) & 0xFFFFFFFF for z in c] for j in range(field // 8)})
        got = evaluate_encoded(arch, text, regs, lanes=n)["writes"][out]
        for x, y, z, g in zip(a, b, c, got):
            want = 0
            for k in range(4):
                win = (x >> (8 * k)) & 0xFFFFFFFF
                diffs = [abs(((win >> 8 * i) & 255) - ((y >> 8 * i) & 255)) for i in range(4)
                         if not (masked and (y >> 8 * i) & 255 == 0)]
                want |= min(((z >> (field * k)) & fmask) + sum(diffs), fmask) << (field * k)
            assert g == want, (arch, text, hex(x), hex(y), hex(z), hex(g), hex(want))


@pytest.mark.parametrize("arch", ["rdna4", "cdna4"])
def test_clamp_leaves_in_range_results_and_64_bit_mad_co(arch):
    """Float -> integer conversions already saturate (NaN -> 0) and min/max stay in range: clamp changes nothing;
    RDNA4's v_mad_co_u64_u32 / v_mad_co_i64_i32 saturate like the older names."""
    xs = [1.5, -1.5, 3e9, -3e9, 5e9, float("nan"), float("inf"), -0.0]
    bits = [f32_bits(x) for x in xs]
    for text, lo, hi in (("v_cvt_i32_f32_e64 v1, v2 clamp", -(1 << 31), (1 << 31) - 1),
                         ("v_cvt_u32_f32_e64 v1, v2 clamp", 0, (1 << 32) - 1)):
        got = evaluate_encoded(arch, text, {"V2": bits}, lanes=len(xs))["writes"]["V1"]
        want = [0 if x != x else max(lo, min(hi, int(x) if abs(x) != float("inf") else (hi if x > 0 else lo))) & 0xFFFFFFFF
                for x in xs]
        assert got == want, (arch, text, [hex(g) for g in got])
    a, b = [0x7FFF8000, 0x00010002, 0xFFFF7FFF], [0x80007FFF, 0xFFFF0001, 0x00008000]
    got = evaluate_encoded(arch, "v_pk_max_i16 v1, v2, v3 clamp", {"V2": a, "V3": b}, lanes=3)["writes"]["V1"]
    assert got == [sum(max(field(x, lo, 16, True), field(y, lo, 16, True)) % 65536 << lo for lo in (0, 16))
                   for x, y in zip(a, b)]
    if arch == "rdna4":
        for kind in ("u", "i"):
            got = evaluate_encoded(arch, f"v_mad_co_{kind}64_{kind}32 v[6:7], s4, v2, v3, v[8:9] clamp",
                                   {"V2": [0xFFFFFFFF, 0x7FFFFFFF], "V3": [0xFFFFFFFF, 0x7FFFFFFF],
                                    "V8": [0xFFFFFFFF, 0xFFFFFFFF], "V9": [0xFFFFFFFF, 0x7FFFFFFF]}, lanes=2)["writes"]["V[6:7]"]
            signed = kind == "i"
            want = [sat(field(x, 0, 32, signed) * field(x, 0, 32, signed) + field(c, 0, 64, signed), 64, signed)
                    for x, c in ((0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF), (0x7FFFFFFF, 0x7FFFFFFFFFFFFFFF))]
            assert got == want, (kind, [hex(g) for g in got])
