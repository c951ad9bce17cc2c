"""VOP3 output and input modifiers on assembled instructions against values computed independently:
integer CLAMP (the exact sum or difference saturated to the destination type, as llvm.uadd.sat and kin
use it), float CLAMP to [0, 1] (NaN to +0), OMOD (x2, x4, /2) and neg/abs on f16/f32/f64 sources.
References: Python integers, ``fractions`` rounded by the IEEE rule in test_semantics_reference_float.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from test_semantics_reference_float import bits_of, fl, rne

from gpuisa.semantics import sources
from gpuisa.semantics.encoded import evaluate_encoded

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

INT_CLAMP = {  # arch -> [(assembly, width, signed, op)]
    "rdna3.5": [("v_add_nc_u32 v1, v2, v3 clamp", 32, False, "+"), ("v_sub_nc_u32 v1, v2, v3 clamp", 32, False, "-"),
                ("v_add_nc_i32 v1, v2, v3 clamp", 32, True, "+"), ("v_sub_nc_i32 v1, v2, v3 clamp", 32, True, "-"),
                ("v_add_nc_u16 v1.l, v2.l, v3.l clamp", 16, False, "+"), ("v_sub_nc_i16 v1.l, v2.l, v3.l clamp", 16, True, "-"),
                ("v_add_co_u32 v1, vcc_lo, v2, v3 clamp", 32, False, "+"), ("v_subrev_nc_u32 v1, v2, v3 clamp", 32, False, "r")],
    "rdna4": [("v_add_nc_u32 v1, v2, v3 clamp", 32, False, "+"), ("v_sub_nc_i32 v1, v2, v3 clamp", 32, True, "-"),
              ("v_add_nc_i16 v1, v2, v3 clamp", 16, True, "+"), ("v_sub_nc_u16 v1, v2, v3 clamp", 16, False, "-")],
    "cdna4": [("v_add_u32_e64 v1, v2, v3 clamp", 32, False, "+"), ("v_sub_u32_e64 v1, v2, v3 clamp", 32, False, "-"),
              ("v_add_i32 v1, v2, v3 clamp", 32, True, "+"), ("v_sub_i32 v1, v2, v3 clamp", 32, True, "-"),
              ("v_add_u16_e64 v1, v2, v3 clamp", 16, False, "+"), ("v_subrev_u16_e64 v1, v2, v3 clamp", 16, False, "r"),
              ("v_add_co_u32_e64 v1, vcc, v2, v3 clamp", 32, False, "+")],
}


def sat(a, b, w, signed, op):
    def val(x):
        x &= (1 << w) - 1
        return x - (1 << w) if signed and x >> (w - 1) else x
    x, y = val(a), val(b)
    exact = x + y if op == "+" else x - y if op == "-" else y - x
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    return max(lo, min(hi, exact)) & ((1 << w) - 1)


@pytest.mark.parametrize("arch", sorted(INT_CLAMP))
def test_integer_clamp_saturates(arch):
    rng = random.Random(len(arch))
    edge = [0, 1, 2, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE]
    a = [rng.choice(edge) if rng.random() < 0.5 else rng.getrandbits(32) for _ in range(32)]
    b = [rng.choice(edge) if rng.random() < 0.5 else rng.getrandbits(32) for _ in range(32)]
    for text, w, signed, op in INT_CLAMP[arch]:
        res = evaluate_encoded(arch, text, {"V1": [0] * 32, "V2": a, "V3": b}, lanes=32)
        got = res["writes"]["V1"]
        for x, y, g in zip(a, b, got):
            assert g & ((1 << w) - 1) == sat(x, y, w, signed, op), (arch, text, hex(x), hex(y), hex(g))


FW = {"f16": 16, "f32": 32, "f64": 64}


def modified(x: float, omod: Fraction, clamp: bool, w: int) -> int:
    """The rounded result x times omod (a power of two: exact unless it leaves the range, then rounded),
    clamped to [0, 1]."""
    r = x
    if math.isfinite(r):
        r = fl(rne(Fraction(r) * omod, w, negative=math.copysign(1, r) < 0), w)
    else:
        r = r * float(omod)
    if clamp:
        r = 0.0 if not r > 0 else min(r, 1.0)
    return bits_of(r, w)


@pytest.mark.parametrize("ty", sorted(FW))
@pytest.mark.parametrize("mods", ["mul:2", "mul:4 clamp", "div:2", "clamp"])
def test_float_output_and_source_modifiers(ty, mods):
    w = FW[ty]
    scale = {"mul:2": Fraction(2), "mul:4": Fraction(4), "div:2": Fraction(1, 2)}.get(mods.split()[0], Fraction(1))
    clamp = "clamp" in mods
    rng = random.Random(w + len(mods))
    xs = [rng.choice([0.0, -0.0, 0.25, -0.5, 1.5, 3.0, 1e-3, -2.0, math.inf]) if rng.random() < 0.4 else rng.uniform(-4, 4)
          for _ in range(32)]
    ys = [rng.uniform(-2, 2) for _ in range(32)]
    xs = [fl(rne(Fraction(x), w), w) if math.isfinite(x) else x for x in xs]
    ys = [fl(rne(Fraction(y), w), w) for y in ys]
    regs = ({"V[2:3]": xs, "V[4:5]": ys} if w == 64 else {"V2": xs, "V3": ys})
    for arch in ("rdna3.5", "rdna4", "cdna4"):
        if w == 64:
            text, out = f"v_add_{ty} v[0:1], -|v[2:3]|, v[4:5] {mods}", "V[0:1]"
        else:
            text, out = f"v_add_{ty}_e64 v1, -|v2|, v3 {mods}", "V1"
        if arch == "rdna4" and w == 64:
            text = text.replace("v_add_f64", "v_add_f64_e64")
        got = evaluate_encoded(arch, text, regs, lanes=32)["writes"][out]
        for x, y, g in zip(xs, ys, got):
            # -|x| + y rounded once (y is never 0, so a zero sum is +0), then omod and clamp
            s = fl(rne(Fraction(-abs(x)) + Fraction(y), w), w) if math.isfinite(x) else -math.inf
            want = modified(s, scale, clamp, w)
            assert g & ((1 << w) - 1) == want, (arch, text, x, y, hex(g), hex(want))


@pytest.mark.parametrize("arch", ["rdna3.5", "rdna4"])
@pytest.mark.parametrize("neg", ["[0,0,0]", "[1,0,0]", "[0,1,0]", "[1,1,0]"])
def test_mixed_sign_dot_neg_lo_is_signedness(arch, neg):
    """v_dot4_i32_iu8 / v_dot8_i32_iu4: neg_lo[0] and neg_lo[1] make S0's and S1's fields signed (no negation)."""
    sa, sb = neg[1] == "1", neg[3] == "1"
    rng = random.Random(len(arch) + int(sa) + 2 * int(sb))
    a, b, c = ([rng.getrandbits(32) for _ in range(32)] for _ in range(3))
    for name, bits in (("v_dot4_i32_iu8", 8), ("v_dot8_i32_iu4", 4)):
        got = evaluate_encoded(arch, f"{name} v1, v2, v3, v4 neg_lo:{neg}", {"V2": a, "V3": b, "V4": c},
                               lanes=32)["writes"]["V1"]

        def field(v, i, signed, bits=bits):
            x = (v >> (bits * i)) & ((1 << bits) - 1)
            return x - (1 << bits) if signed and x >> (bits - 1) else x
        for x, y, z, g in zip(a, b, c, got):
            acc = z - (1 << 32) if z >> 31 else z
            want = (acc + sum(field(x, i, sa) * field(y, i, sb) for i in range(32 // bits))) & 0xFFFFFFFF
            assert g == want, (arch, name, neg, hex(x), hex(y), hex(z), hex(g), hex(want))


def test_fma_mix_neg_abs():
    """v_fma_mix*: neg_lo negates and neg_hi takes the absolute value of each source in the format it is read
    as (f32, or the f16 half op_sel picks), before one fma (products of small halves: exact)."""
    import struct

    def h(x):
        return struct.unpack("<H", struct.pack("<e", x))[0]

    cases = [  # (assembly, V1, V2, V3, expected f32 or f16 result)
        ("v_fma_mix_f32 v0, -v1, |v2|, v3 op_sel_hi:[1,1,0]", h(2.0) | h(-3.0) << 16, h(-4.0), bits_of(1.0, 32), -7.0),
        ("v_fma_mix_f32 v0, |v1|, v2, -v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]", h(2.0) | h(-3.0) << 16, h(-4.0),
         bits_of(1.0, 32), -13.0),
        ("v_fma_mix_f32 v0, -|v1|, -v2, |v3| op_sel:[0,1,1] op_sel_hi:[0,1,1]", bits_of(-0.5, 32), h(9.0) | h(-6.0) << 16,
         h(1.0) | h(-2.5) << 16, -0.5),
        ("v_fma_mixlo_f16 v0, -|v1|, v2, v3 op_sel_hi:[0,1,1]", bits_of(-1.5, 32), h(-4.0), h(0.5), 6.5),
    ]
    for arch in ("rdna3.5", "rdna4", "cdna4"):
        for text, v1, v2, v3, want in cases:
            got = evaluate_encoded(arch, text, {"V0": [0], "V1": [v1], "V2": [v2], "V3": [v3]}, lanes=1)["writes"]["V0"][0]
            w = 16 if "mixlo" in text else 32
            assert fl(got & ((1 << w) - 1), w) == want, (arch, text, hex(got))
