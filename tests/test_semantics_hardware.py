"""Instructions where AMD's pseudocode run literally differs from the hardware (see
``gpuisa.semantics.hardware``), and evaluator fixes found next to them.  Every expected value is
computed here from first principles: exact rationals (``fractions.Fraction``) rounded by IEEE-754
rules written out in ``tests/ieee_bits.py``, ``math``, and bit-casting with ``struct`` -- never by the evaluator."""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import pytest
from conftest import run_cli
from ieee_bits import FMT, encode, to_float

from gpuisa.semantics import fidelity, hardware, sources
from gpuisa.semantics.wave import EvalError, evaluate

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

ARCHS = ("rdna3.5", "rdna4", "cdna4")


def archs_with(name):
    return [a for a in ARCHS if sources.lookup(a, name) is not None]


def finite_patterns(w: int, count: int, seed: int) -> list[int]:
    """Random finite bit patterns of every magnitude, plus values near integers and halves."""
    rng = random.Random(seed)
    mbits, ebits, _, _ = FMT[w]
    out = []
    while len(out) < count:
        b = rng.getrandbits(w)
        if (b >> mbits) & ((1 << ebits) - 1) != (1 << ebits) - 1:
            out.append(b)
    for k in range(-6, 7):  # k/2 and its neighbours
        h = encode(Fraction(k, 2), w)
        out += [h, h + 1, h - 1 if h & ((1 << (w - 1)) - 1) else h]
    return out


def run_lanes(arch, name, values, **other):
    """``name`` on every value (in chunks of one wave), D0 of each."""
    wave = 64 if arch == "cdna4" else 32
    got = []
    for i in range(0, len(values), wave):
        chunk = values[i:i + wave]
        got += evaluate(arch, name, S0=chunk, **other)["outputs"]["D0"]
    return got


def check_all(arch, name, w, values, expect, out_bits=None):
    got = run_lanes(arch, name, values)
    mask = (1 << (out_bits or w)) - 1
    bad = [(hex(v), hex(g), hex(expect(v) & mask)) for v, g in zip(values, got) if g & mask != expect(v) & mask]
    assert not bad, (arch, name, bad[:5])


# ------------------------------------------------------------------ round half to even

def rne_bits(bits: int, w: int) -> int:
    x = to_float(bits, w)
    if not math.isfinite(x):
        return bits
    return encode(round(Fraction(x)), w, negative=x < 0 or (x == 0 and math.copysign(1, x) < 0))


@pytest.mark.parametrize("w", [16, 32, 64])
def test_rndne_rounds_half_to_even_exactly(w):
    for arch in archs_with(f"v_rndne_f{w}"):
        check_all(arch, f"v_rndne_f{w}", w, finite_patterns(w, 160, w), lambda b: rne_bits(b, w))


def test_rndne_reported_cases():
    for arch in ARCHS:
        d = evaluate(arch, "v_rndne_f32", S0=[0x4B000001, 0x3EFFFFFF, 0xBF000000, 0xBEFFFFFF, 0x80000000,
                                              0x3F000000, 0x3FC00000, 0x40200000])["outputs"]["D0"]
        assert d == [0x4B000001, 0, 0x80000000, 0x80000000, 0x80000000, 0, 0x40000000, 0x40000000], arch
    for arch in ("rdna3.5", "rdna4"):
        assert evaluate(arch, "s_rndne_f32", S0=0x4B000001)["outputs"]["D0"] == [0x4B000001]
        assert evaluate(arch, "s_rndne_f16", S0=0xB800)["outputs"]["D0"][0] & 0xFFFF == 0x8000  # -0.5 -> -0


def test_rndne_keeps_nan_and_infinities():
    d = evaluate("rdna4", "v_rndne_f32", S0=[0x7F800000, 0xFF800000, 0x7FC00000])["outputs"]["D0"]
    assert d[:2] == [0x7F800000, 0xFF800000] and math.isnan(to_float(d[2], 32))


def nearest_i32(bits: int) -> int:
    x = to_float(bits, 32)
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return 0x7FFFFFFF if x > 0 else 0x80000000
    n = math.floor(Fraction(x) + Fraction(1, 2))
    return max(-(1 << 31), min((1 << 31) - 1, n)) & 0xFFFFFFFF


@pytest.mark.parametrize("name", ["v_cvt_nearest_i32_f32", "v_cvt_rpi_i32_f32"])
def test_cvt_nearest_adds_half_exactly(name):
    values = finite_patterns(32, 120, 7) + [0x4B000001, 0x3EFFFFFF, 0xCB000001, 0x7F800000, 0xFF800000, 0x7FC00000]
    for arch in archs_with(name):
        check_all(arch, name, 32, values, nearest_i32)
        assert evaluate(arch, name, S0=0x4B000001)["outputs"]["D0"] == [8388609]


# ------------------------------------------------------------------ fract

def fract_bits(bits: int, w: int) -> int:
    x = to_float(bits, w)
    fx = Fraction(x)
    r = encode(fx - math.floor(fx), w)
    one = encode(1, w)
    return one - 1 if r == one else r  # the largest value below 1 (the bits just under 1.0's)


@pytest.mark.parametrize("w", [16, 32, 64])
def test_fract_is_clamped_below_one(w):
    tiny_neg = {16: 0x8001, 32: 0x80000001, 64: 0x8000000000000001}[w]
    below_one = {16: 0x3BFF, 32: 0x3F7FFFFF, 64: 0x3FEFFFFFFFFFFFFF}[w]
    assert fract_bits(tiny_neg, w) == below_one  # the reference itself, on the reported case
    for arch in archs_with(f"v_fract_f{w}"):
        assert evaluate(arch, f"v_fract_f{w}", S0=tiny_neg)["outputs"]["D0"][0] & ((1 << w) - 1) == below_one
        check_all(arch, f"v_fract_f{w}", w, finite_patterns(w, 160, 100 + w), lambda b: fract_bits(b, w))


def test_f16_formulations_on_every_finite_input():
    values = [b for b in range(1 << 16) if (b >> 10) & 0x1F != 0x1F]
    check_all("rdna4", "v_fract_f16", 16, values, lambda b: fract_bits(b, 16))
    check_all("rdna4", "v_rndne_f16", 16, values, lambda b: rne_bits(b, 16))
    check_all("rdna4", "v_frexp_exp_i16_f16", 16, values, lambda b: frexp_exp(b, 16))


# ------------------------------------------------------------------ ldexp

def ldexp16(bits: int, n: int) -> int:
    x = to_float(bits, 16)
    if not math.isfinite(x):
        return bits | 0x200 if math.isnan(x) else bits
    return encode(Fraction(x) * Fraction(2) ** n, 16, negative=math.copysign(1, x) < 0)


def test_ldexp_f16_scales_by_two_to_the_n():
    for arch in archs_with("v_ldexp_f16"):
        for s0, s1, want in [(0x3C00, 1, 0x4000), (0x3C00, 15, 0x7800), (0x0000, 15, 0x0000), (0x3800, 16, 0x7800),
                             (0x3E00, -25, 0x0001), (0x3C00, 16, 0x7C00), (0x8000, 40, 0x8000)]:
            assert ldexp16(s0, s1) == want  # the reference on hand-checked cases
            got = evaluate(arch, "v_ldexp_f16", S0=s0, S1=s1)["outputs"]["D0"][0] & 0xFFFF
            assert got == want, (arch, hex(s0), s1, hex(got))
        rng = random.Random(16)
        values = finite_patterns(16, 60, 3)
        for n in (-30, -14, -1, 0, 3, 17, rng.randrange(-40, 40)):
            got = run_lanes(arch, "v_ldexp_f16", values, S1=n & 0xFFFF)
            bad = [(hex(v), n) for v, g in zip(values, got) if g & 0xFFFF != ldexp16(v, n)]
            assert not bad, (arch, bad[:5])


def test_power_of_two_is_exact():
    # the ``2.0 ** n`` operator used to compute 2 ** (n + 1)
    for arch in ARCHS:
        assert evaluate(arch, "v_ldexp_f32", S0=1.0, S1=1)["outputs"]["D0"] == [struct.unpack("<I", struct.pack("<f", 2.0))[0]]
        assert evaluate(arch, "v_ldexp_f64", S0=1.0, S1=-3)["outputs"]["D0"] == [struct.unpack("<Q", struct.pack("<d", 0.125))[0]]


# ------------------------------------------------------------------ division helpers

def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def test_div_scale_writes_s0_when_nothing_is_scaled():
    for arch in ARCHS:
        out = evaluate(arch, "v_div_scale_f32", S0=f32(3.0), S1=f32(3.0), S2=f32(1.0))["outputs"]
        assert out["D0"] == [f32(3.0)] and out["VCC"] == [0], arch
        out = evaluate(arch, "v_div_scale_f64", S0=f64(3.0), S1=f64(3.0), S2=f64(1.0))["outputs"]
        assert out["D0"] == [f64(3.0)] and out["VCC"] == [0], arch
        # a tiny numerator is scaled up by 2**64 (f32) / 2**128 (f64)
        t32, t64 = math.ldexp(1.0, -120), math.ldexp(1.0, -1000)
        out = evaluate(arch, "v_div_scale_f32", S0=f32(t32), S1=f32(1.0), S2=f32(t32))["outputs"]
        assert out["D0"] == [f32(math.ldexp(t32, 64))], arch
        out = evaluate(arch, "v_div_scale_f64", S0=f64(t64), S1=f64(1.0), S2=f64(t64))["outputs"]
        assert out["D0"] == [f64(math.ldexp(t64, 128))], arch


# The division helpers' formulation (see hardware._div_scale/_div_fmas/_div_fixup), restated with
# exact rationals: K is div_scale's move 2**K, GAP the exponent gap of a possibly huge quotient,
# TINY the largest "tiny numerator" exponent field, EMIN the smallest normal is 2**-EMIN.
DIV = {32: dict(K=64, GAP=96, TINY=23, EMIN=126, BIAS=127, NAN=0x7FC00000, DNAN=0xFFC00000),
       64: dict(K=128, GAP=768, TINY=53, EMIN=1022, BIAS=1023, NAN=0x7FF8000000000000, DNAN=0xFFF8000000000000)}


def field(bits: int, w: int) -> int:
    return (bits >> FMT[w][0]) & ((1 << FMT[w][1]) - 1)


def moved(x: Fraction, e: int, w: int) -> int:
    return encode(x * Fraction(2) ** e, w)


def div_scale_ref(xb: int, db: int, nb: int, w: int) -> tuple[int, int]:
    """(D0, VCC) for finite operands S0 = x, S1 = d (denominator), S2 = n (numerator)."""
    c = DIV[w]
    x, d, n = (Fraction(to_float(b, w)) for b in (xb, db, nb))
    if n == 0 or d == 0:
        return c["NAN"], 0
    tiny_q = abs(n) < abs(d) * Fraction(2) ** -c["EMIN"]
    if field(nb, w) - field(db, w) >= c["GAP"]:
        return (moved(x, c["K"], w) if x == d else xb), 1
    if field(db, w) == 0:
        return moved(x, c["K"], w), 0
    if abs(d) > Fraction(2) ** c["EMIN"]:
        if tiny_q:
            return (moved(x, -c["K"], w) if x == d else xb), 1
        return moved(x, -c["K"], w), 0
    if tiny_q:
        return (moved(x, c["K"], w) if x == n else xb), 1
    return (moved(x, c["K"], w) if field(nb, w) <= c["TINY"] else xb), 0


def eval_lanes(arch, name, **ops):
    """``name`` on lists of operands (chunks of one wave): D0 of each lane, and VCC bits where written."""
    wave = 64 if arch == "cdna4" else 32
    size = max(len(v) for v in ops.values() if isinstance(v, list))
    d0, vcc = [], []
    for i in range(0, size, wave):
        chunk = {k: (v[i:i + wave] if isinstance(v, list) else v) for k, v in ops.items()}
        lanes = min(wave, size - i)
        if isinstance(ops.get("VCC"), list):
            chunk["VCC"] = sum(bit << j for j, bit in enumerate(chunk["VCC"]))
        out = evaluate(arch, name, **chunk)["outputs"]
        d0 += [v & ((1 << 64) - 1) for v in out["D0"]]
        vcc += [(out["VCC"][0] >> j) & 1 for j in range(lanes)] if "VCC" in out else []
    return d0, vcc


def division_pairs(w: int, count: int, seed: int) -> list[tuple[int, int]]:
    """(numerator, denominator) bit patterns, finite and nonzero: random, and pairs made to hit each
    div_scale case (denormal, huge, tiny numerators; huge and tiny quotients)."""
    rng = random.Random(seed)
    mbits, ebits = FMT[w][0], FMT[w][1]
    top = (1 << ebits) - 2

    def num(elo, ehi):
        return (rng.getrandbits(1) << (w - 1)) | (rng.randint(elo, ehi) << mbits) | rng.getrandbits(mbits)
    pairs = [(num(0, top), num(0, top)) for _ in range(count)]
    c = DIV[w]
    pairs += [(num(c["GAP"], top), num(0, top - c["GAP"])) for _ in range(count // 4)]  # huge quotients
    pairs += [(num(0, top), num(top - 2, top)) for _ in range(count // 4)]  # huge denominators
    pairs += [(num(1, c["TINY"]), num(1, c["TINY"] + 40)) for _ in range(count // 4)]  # tiny numerators
    pairs += [(num(0, 40), num(c["BIAS"] - 5, c["BIAS"] + 40)) for _ in range(count // 4)]  # tiny quotients
    return [(n, d) for n, d in pairs if n & ((1 << (w - 1)) - 1) and d & ((1 << (w - 1)) - 1)]


@pytest.mark.parametrize("w", [32, 64])
def test_div_scale_against_rationals(w):
    pairs = division_pairs(w, 200, w)
    n = [p[0] for p in pairs]
    d = [p[1] for p in pairs]
    c = DIV[w]
    for arch in ("rdna4", "cdna4"):
        for x in (d, n):  # LLVM's two uses: the denominator form and the numerator form
            got, vcc = eval_lanes(arch, f"v_div_scale_f{w}", S0=x, S1=d, S2=n)
            want = [div_scale_ref(*t, w) for t in zip(x, d, n)]
            bad = [(hex(a), hex(b), hex(g), v, e) for a, b, g, v, e in zip(n, d, got, vcc, want) if (g, v) != e]
            assert not bad, (arch, bad[:4])
        # what the moves are for: both scaled operands normal, and the quotient moved by 2**+-K exactly
        dd, _ = eval_lanes(arch, f"v_div_scale_f{w}", S0=d, S1=d, S2=n)
        nn, vcc = eval_lanes(arch, f"v_div_scale_f{w}", S0=n, S1=d, S2=n)
        for a, b, a2, b2, v in zip(n, d, nn, dd, vcc):
            assert 0 < field(b2, w) < (1 << FMT[w][1]) - 1 and abs(to_float(b2, w)) <= 2.0 ** c["EMIN"], hex(b)
            q = Fraction(to_float(a, w)) / Fraction(to_float(b, w))
            q2 = Fraction(to_float(a2, w)) / Fraction(to_float(b2, w))
            big = field(a, w) - field(b, w) >= c["GAP"]
            assert q2 == q * Fraction(2) ** ((-c["K"] if big else c["K"]) if v else 0), (hex(a), hex(b))


def test_div_scale_cases_by_hand():
    f32_cases = [  # (S0, S1, S2) -> (D0, VCC)
        ((2.0 ** -20, 2.0 ** -20, 2.0 ** 127), (2.0 ** 44, 1)),  # huge quotient: denominator up
        ((2.0 ** 127, 2.0 ** -20, 2.0 ** 127), (2.0 ** 127, 1)),  # ... the numerator stays
        ((2.0 ** -140, 2.0 ** -140, 2.0 ** -40), (2.0 ** -76, 0)),  # denormal denominator: both up
        ((2.0 ** -40, 2.0 ** -140, 2.0 ** -40), (2.0 ** 24, 0)),
        ((2.0 ** 127, 2.0 ** 127, 2.0 ** 120), (2.0 ** 63, 0)),  # huge denominator: both down
        ((2.0 ** 120, 2.0 ** 127, 2.0 ** 120), (2.0 ** 56, 0)),
        ((2.0 ** 127, 2.0 ** 127, 2.0 ** -10), (2.0 ** 63, 1)),  # ... with a tiny quotient: denominator only
        ((2.0 ** -10, 2.0 ** 127, 2.0 ** -10), (2.0 ** -10, 1)),
        ((2.0 ** -100, 2.0 ** 60, 2.0 ** -100), (2.0 ** -36, 1)),  # tiny quotient: numerator up
        ((2.0 ** 60, 2.0 ** 60, 2.0 ** -100), (2.0 ** 60, 1)),
        ((2.0 ** -110, 2.0 ** -10, 2.0 ** -110), (2.0 ** -46, 0)),  # tiny numerator: both up
        ((2.0 ** -10, 2.0 ** -10, 2.0 ** -110), (2.0 ** 54, 0)),
        ((3.0, 3.0, 1.0), (3.0, 0)),
    ]
    for arch in ARCHS:
        for (s0, s1, s2), (d0, v) in f32_cases:
            out = evaluate(arch, "v_div_scale_f32", S0=f32(s0), S1=f32(s1), S2=f32(s2))["outputs"]
            assert (out["D0"], out["VCC"]) == ([f32(d0)], [v]), (arch, s0, s1, s2)
            assert div_scale_ref(f32(s0), f32(s1), f32(s2), 32) == (f32(d0), v)
        for zero in ((1.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
            out = evaluate(arch, "v_div_scale_f32", S0=f32(zero[0]), S1=f32(zero[1]), S2=f32(zero[2]))["outputs"]
            assert math.isnan(to_float(out["D0"][0], 32)) and out["VCC"] == [0]
        out = evaluate(arch, "v_div_scale_f64", S0=f64(2.0 ** 1023), S1=f64(2.0 ** 1023), S2=f64(2.0 ** -60))["outputs"]
        assert (out["D0"], out["VCC"]) == ([f64(2.0 ** 895)], [1]), arch


def fma_scaled_ref(ab: int, bb: int, cb: int, vcc: int, w: int) -> int:
    """(S0 * S1 + S2) * 2**+-K (by S2's exponent field, where VCC is set), rounded once; finite operands."""
    c = DIV[w]
    a, b, s2 = (to_float(v, w) for v in (ab, bb, cb))
    shift = 0 if not vcc else (c["K"] if field(cb, w) > c["BIAS"] else -c["K"])
    exact = (Fraction(a) * Fraction(b) + Fraction(s2)) * Fraction(2) ** shift
    prod_neg = (math.copysign(1, a) * math.copysign(1, b)) < 0
    negative_zero = a * b == 0 and s2 == 0 and prod_neg and math.copysign(1, s2) < 0
    return encode(exact, w, negative=negative_zero)


@pytest.mark.parametrize("w", [32, 64])
def test_div_fmas_scales_by_2_k_and_rounds_once(w):
    rng = random.Random(100 + w)
    pats = finite_patterns(w, 150, 7 + w)
    a, b, s2 = pats, [rng.choice(pats) for _ in pats], [rng.choice(pats) for _ in pats]
    # the shapes LLVM gives it: a small residual, a reciprocal near 1, a scaled quotient in either band
    bands = [-100, -85, -75, -70, -63, 40, 80] if w == 32 else [-1000, -940, -920, -900, -895, 700, 900]
    for _ in range(150):
        q = rng.uniform(1, 2) * 2.0 ** rng.choice(bands)
        a.append(encode(Fraction(q) * Fraction(rng.uniform(-1, 1)) * Fraction(2) ** -(FMT[w][0] + 1), w))
        b.append(encode(Fraction(rng.uniform(0.5, 1)), w))
        s2.append(encode(Fraction(q), w))
    vcc = [rng.getrandbits(1) for _ in a]
    for arch in ("rdna4", "cdna4"):
        got, _ = eval_lanes(arch, f"v_div_fmas_f{w}", S0=a, S1=b, S2=s2, VCC=vcc)
        bad = [(hex(x), hex(y), hex(z), v, hex(g)) for x, y, z, v, g in zip(a, b, s2, vcc, got)
               if g != fma_scaled_ref(x, y, z, v, w)]
        assert not bad, (arch, bad[:4])


def test_div_fmas_cases_by_hand():
    for arch in ARCHS:
        out = evaluate(arch, "v_div_fmas_f32", S0=f32(1.5), S1=f32(2.0), S2=f32(0.25), VCC=0)["outputs"]
        assert out["D0"] == [f32(3.25)], arch
        out = evaluate(arch, "v_div_fmas_f32", S0=f32(1.5), S1=f32(2.0), S2=f32(2.0 ** 40), VCC=1)["outputs"]
        assert out["D0"] == [f32(2.0 ** 104)], arch  # 2**40 + 3 rounds to 2**40, then 2**64 up
        out = evaluate(arch, "v_div_fmas_f64", S0=f64(1.5), S1=f64(2.0), S2=f64(0.25), VCC=1)["outputs"]
        assert out["D0"] == [f64(3.25 * 2.0 ** -128)], arch
        # one rounding into the denormals: 2**-76 (1 + 2**-10) + 2**-106, moved down by 2**64, lies just
        # above a halfway point of the denormal grid; rounding to 24 bits first would land on it
        s2, want = f32(2.0 ** -76 * (1 + 2.0 ** -10)), f32(2.0 ** -140 * (1 + 2.0 ** -9))
        assert fma_scaled_ref(f32(2.0 ** -53), f32(2.0 ** -53), s2, 1, 32) == want
        out = evaluate(arch, "v_div_fmas_f32", S0=f32(2.0 ** -53), S1=f32(2.0 ** -53), S2=s2, VCC=1)["outputs"]
        assert out["D0"] == [want], arch
        # f64: a quotient just below 2**-1022 whose binary64 rounding before the move would tie up to it
        a, b, c = (f64(float.fromhex(h)) for h in ("0x1p-947", "0x1.5555555555555p-1", "0x1.ffffffffffffep-895"))
        assert fma_scaled_ref(a, b, c, 1, 64) == 0x000FFFFFFFFFFFFF
        assert evaluate(arch, "v_div_fmas_f64", S0=a, S1=b, S2=c, VCC=1)["outputs"]["D0"] == [0x000FFFFFFFFFFFFF], arch


def div_fixup_ref(xb: int, db: int, nb: int, w: int) -> int:
    c, sign = DIV[w], 1 << (w - 1)
    quiet = 1 << (FMT[w][0] - 1)
    x, d, n = (to_float(v, w) for v in (xb, db, nb))
    neg = ((db ^ nb) & sign) != 0
    inf = encode(Fraction(2) ** 40000, w) | (sign if neg else 0)
    zero = sign if neg else 0
    if math.isnan(n) or math.isnan(d):
        return (nb if math.isnan(n) else db) | quiet
    if (d == 0 and n == 0) or (math.isinf(d) and math.isinf(n)):
        return c["DNAN"]
    if d == 0 or math.isinf(n):
        return inf
    if math.isinf(d) or n == 0:
        return zero
    gap = field(nb, w) - field(db, w)
    if gap > {32: 128, 64: 1024}[w]:
        return inf
    if gap < {32: -150, 64: -1075}[w]:
        return zero
    return (xb & (sign - 1)) | zero | (quiet if math.isnan(x) else 0)


@pytest.mark.parametrize("w", [32, 64])
def test_div_fixup_against_ieee_rules(w):
    rng = random.Random(200 + w)
    mbits, ebits = FMT[w][0], FMT[w][1]
    inf, sign = ((1 << ebits) - 1) << mbits, 1 << (w - 1)
    special = [0, sign, inf, inf | sign, inf | 1, inf | (1 << (mbits - 1)), 1, sign | 5]
    pats = finite_patterns(w, 120, 40 + w) + special
    pairs = division_pairs(w, 100, 300 + w) + [(rng.choice(pats), rng.choice(pats)) for _ in range(300)]
    xs = [rng.choice(pats) for _ in pairs]
    n, d = [p[0] for p in pairs], [p[1] for p in pairs]
    for arch in ("rdna4", "cdna4"):
        got, _ = eval_lanes(arch, f"v_div_fixup_f{w}", S0=xs, S1=d, S2=n)
        bad = [(hex(x), hex(b), hex(a), hex(g)) for x, a, b, g in zip(xs, n, d, got) if g != div_fixup_ref(x, b, a, w)]
        assert not bad, (arch, bad[:4])
    # its overflow and underflow gaps are only taken where the rounded quotient is infinity or zero
    for a, b in pairs:
        fa, fb = to_float(a, w), to_float(b, w)
        if math.isfinite(fa) and math.isfinite(fb) and fa != 0 and fb != 0:
            q = encode(Fraction(fa) / Fraction(fb), w) & (sign - 1)
            gap = field(a, w) - field(b, w)
            assert gap <= {32: 128, 64: 1024}[w] or q == inf, (hex(a), hex(b))
            assert gap >= {32: -150, 64: -1075}[w] or q == 0, (hex(a), hex(b))


def test_div_fixup_cases_by_hand():
    nan32 = 0x7FC00000
    for arch in ARCHS:
        def fix(x, d, n, name="v_div_fixup_f32", arch=arch):
            return evaluate(arch, name, S0=x, S1=d, S2=n)["outputs"]["D0"][0] & 0xFFFFFFFF
        assert fix(nan32, f32(2.0 ** -20), f32(-2.0 ** 127)) == 0xFF800000  # LLVM's overflowed quotient
        assert fix(f32(1.5), f32(-2.0), f32(3.0)) == f32(-1.5)
        assert fix(f32(-1.5), f32(-2.0), f32(-3.0)) == f32(1.5)
        assert fix(f32(7.0), f32(0.0), f32(0.0)) == 0xFFC00000
        assert fix(f32(7.0), f32(-0.0), f32(3.0)) == 0xFF800000
        assert fix(f32(7.0), f32(math.inf), f32(-3.0)) == 0x80000000
        assert fix(f32(7.0), f32(2.0 ** 100), f32(2.0 ** -60)) == 0  # gap below -150
        assert fix(f32(7.0), 0x7F800001, f32(1.0)) == 0x7FC00001  # a NaN operand, quieted
        assert fix(f32(7.0), 0x7F800001, 0xFF800002) == 0xFFC00002  # S2's first
        assert evaluate(arch, "v_div_fixup_f64", S0=f64(math.nan), S1=f64(2.0 ** -900), S2=f64(2.0 ** 200))[
            "outputs"]["D0"] == [f64(math.inf)]


# ------------------------------------------------------------------ frexp

def frexp_exp(bits: int, w: int) -> int:
    x = to_float(bits, w)
    return math.frexp(x)[1] if math.isfinite(x) else 0


@pytest.mark.parametrize("w,out", [(16, 16), (32, 32), (64, 32)])
def test_frexp_exp_of_zeros_and_denormals(w, out):
    name = f"v_frexp_exp_i{out}_f{w}"
    specials = [0, 1 << (w - 1), 1, 3, (1 << FMT[w][0]) - 1] + [encode(x, w) for x in (1.0, 0.75, -6.0)]
    inf, nan = encode(2 ** 40000, w), encode(2 ** 40000, w) | 1
    values = specials + [inf, nan] + finite_patterns(w, 100, 50 + w)
    assert frexp_exp(1, 32) == -148
    for arch in archs_with(name):
        check_all(arch, name, w, values, lambda b: frexp_exp(b, w), out_bits=out)
        # consistent with v_frexp_mant: mant * 2**exp == x
        mant = run_lanes(arch, f"v_frexp_mant_f{w}", values[:5])
        exps = run_lanes(arch, name, values[:5])
        for v, m, e in zip(values[:5], mant, exps):
            e = e & ((1 << out) - 1)
            e -= (1 << out) if e >> (out - 1) else 0
            assert Fraction(to_float(m & ((1 << w) - 1), w)) * Fraction(2) ** e == Fraction(to_float(v, w)), (arch, v)


# ------------------------------------------------------------------ 64-bit scalar bit scans

def ctz64(x):
    return (x & -x).bit_length() - 1 if x else -1


def clz64(x):
    return 64 - x.bit_length() if x else -1


def cls64(x):
    y = x ^ (0xFFFFFFFFFFFFFFFF if x >> 63 else 0)  # leading copies of the sign bit become zeros
    return 63 - (y.bit_length() - 1) if y else -1


SCANS = {"s_ctz_i32_b64": ctz64, "s_ff1_i32_b64": ctz64, "s_clz_i32_u64": clz64, "s_flbit_i32_b64": clz64,
         "s_cls_i32_i64": cls64, "s_flbit_i32_i64": cls64}


@pytest.mark.parametrize("name", sorted(SCANS))
def test_64_bit_scans_take_all_64_bits(name):
    rng = random.Random(64)
    values = [0, 1, 1 << 40, 1 << 63, 0xFFFFFFFFFFFFFFFF, 0xFFFFFF0000000000, 0x00000000FFFFFFFF, 0x7FFFFFFFFFFFFFFF]
    values += [rng.getrandbits(64) >> rng.randrange(64) for _ in range(20)]
    arches = archs_with(name)
    assert arches, name
    for arch in arches:
        for v in values:
            got = evaluate(arch, name, S0=v)["outputs"]["D0"][0]
            assert got == SCANS[name](v) & 0xFFFFFFFF, (arch, name, hex(v), got)


# ------------------------------------------------------------------ sin / cos in turns

def turns_ref(fn, bits: int) -> float:
    x = Fraction(to_float(bits, 32))
    r = x - math.floor(x)  # exact
    return fn(2 * math.pi * float(r))


@pytest.mark.parametrize("name,fn", [("v_sin_f32", math.sin), ("v_cos_f32", math.cos)])
def test_sin_cos_reduce_turns_exactly(name, fn):
    rng = random.Random(5)
    xs = [rng.uniform(-300, 300) for _ in range(40)] + [rng.uniform(-1, 1) for _ in range(20)]
    xs += [256.0 + k / 8 for k in range(8)] + [1e6 + 0.375, -1e5 - 0.125]
    bits = [f32(x) for x in xs]
    for arch in archs_with(name):
        got = run_lanes(arch, name, bits)
        for b, g in zip(bits, got):
            want = turns_ref(fn, b)
            # one binary32 ulp (29 fraction bits fewer than binary64), or the reference's own absolute error
            tol = max(math.ulp(abs(want)) * 2 ** 29, 1e-15)
            assert abs(to_float(g, 32) - want) <= tol, (arch, name, hex(b))
    # whole and quarter turns are exact
    for arch in ARCHS:
        assert evaluate(arch, "v_sin_f32", S0=256.0)["outputs"]["D0"] == [0]
        assert evaluate(arch, "v_sin_f32", S0=0.25)["outputs"]["D0"] == [f32(1.0)]
        assert evaluate(arch, "v_cos_f32", S0=256.25)["outputs"]["D0"] == [0]
        assert evaluate(arch, "v_cos_f32", S0=-1000.0)["outputs"]["D0"] == [f32(1.0)]


# ------------------------------------------------------------------ fidelity says why

def test_every_hardware_formulation_is_tested_and_explained():
    tested = ({f"v_rndne_f{w}" for w in (16, 32, 64)} | {"s_rndne_f32", "s_rndne_f16"}
              | {"v_cvt_nearest_i32_f32", "v_cvt_rpi_i32_f32"} | {f"v_fract_f{w}" for w in (16, 32, 64)}
              | {"v_ldexp_f16"} | {f"v_div_{op}_f{w}" for op in ("scale", "fmas", "fixup") for w in (32, 64)}
              | {"v_frexp_exp_i16_f16", "v_frexp_exp_i32_f32", "v_frexp_exp_i32_f64"}
              | {"v_sin_f32", "v_cos_f32", "v_sin_f16", "v_cos_f16"}
              # tests/test_semantics_reference_float.py: rsq within 1 ulp, cvt_pk_u8 rounding to nearest even
              | {"v_rsq_f16", "v_rsq_f32", "v_s_rsq_f16", "v_s_rsq_f32", "v_cvt_pk_u8_f32"}
              | {"v_fma_dx9_zero_f32", "v_fmac_dx9_zero_f32"}
              | {"s_bcnt0_i32_b64", "s_bcnt1_i32_b64"}  # tests/test_semantics_reference_scalar.py
              | {"v_exp_f32", "v_s_exp_f32", "v_log_f32", "v_s_log_f32"})  # test_semantics_reference_float.py
    src = sources.default_source()
    for arch in src.archs():
        for name in src.entries(arch):
            if hardware.reason(name) is None:
                continue
            assert name in tested, name
            fid, why = fidelity.fidelity(arch, name)
            assert hardware.reason(name) in why and "not the pseudocode run literally" in why
            approx = ("v_sin", "v_cos", "v_rsq", "v_s_rsq", "v_exp", "v_s_exp", "v_log", "v_s_log")
            assert fid == ("untested" if name.startswith(approx) else "exact"), (arch, name, fid)
    assert "floor(x+0.5)" in hardware.reason("v_rndne_f32")
    assert fidelity.page_fidelity("rdna4", "v_rndne_f32") == fidelity.fidelity("rdna4", "v_rndne_f32")


def test_sin_cos_f16_zero_at_whole_turns():
    for arch in archs_with("v_sin_f16"):
        assert evaluate(arch, "v_sin_f16", S0=0x5C00)["outputs"]["D0"][0] & 0xFFFF == 0  # sin(256 turns)
        assert evaluate(arch, "v_cos_f16", S0=0x3400)["outputs"]["D0"][0] & 0xFFFF == 0  # cos(0.25 turn)


# ------------------------------------------------------------------ operands and waves

def test_cdna_is_wave64_only(cli_env):
    with pytest.raises(EvalError, match="wave64 only"):
        evaluate("cdna4", "v_add_f32", wave=32, S0=1, S1=2)
    assert evaluate("cdna4", "v_add_f32", wave=64, S0=1, S1=2)["wave"] == 64
    r = run_cli(["eval", "--arch", "cdna4", "--wave", "32", "v_add_f32", "S0=1", "S1=2"], cli_env)
    assert r.returncode == 2 and "wave64 only" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_unused_source_is_reported_not_an_error(cli_env):
    res = evaluate("cdna4", "v_cmp_f_f32", S0=1)
    assert res["unused"] == ["S0"] and res["outputs"]["D0"] == [0]
    assert evaluate("rdna4", "v_mov_b32", S0=5, S1=7)["unused"] == ["S1"]
    assert "unused" not in evaluate("rdna4", "v_add_f32", S0=1, S1=2)
    r = run_cli(["eval", "v_cmp_f_f32", "S0=1"], cli_env)
    assert r.returncode == 0, r.stderr
    assert "unused: S0" in r.stdout


@pytest.mark.parametrize("word", ["lanes=3", "wave=32", "arch=rdna4", "name=v_add_f32", "LANES=2"])
def test_options_given_as_operands_are_one_line_errors(cli_env, word):
    r = run_cli(["eval", "--arch", "rdna4", "v_add_f32", "S0=1", "S1=2", word], cli_env)
    assert r.returncode == 2, r.stderr
    assert "is not an operand" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_negative_f64_operands(cli_env):
    for arch in ARCHS:
        assert evaluate(arch, "v_add_f64", S0=-1.5, S1=1.0)["outputs"]["D0"] == [f64(-0.5)]
        assert evaluate(arch, "v_add_f64", S0="-1.5", S1="-2.25")["outputs"]["D0"] == [f64(-3.75)]
    r = run_cli(["eval", "v_add_f64", "S0=-1.5", "S1=1.0", "--arch", "rdna4", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    import json

    assert json.loads(r.stdout)["outputs"]["D0"] == [f64(-0.5)]
