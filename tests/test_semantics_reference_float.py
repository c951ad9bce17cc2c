"""AMD floating-point VALU/SALU semantics against values computed independently.

Expected values come from the instructions' definitions: exact rationals (``fractions.Fraction``)
rounded to nearest even by the rule written out in ``tests/ieee_bits.py`` (``rne``), ``math`` and ``struct`` for bits, and
numpy in the instruction's own dtype; never from the evaluator's helpers (only ``evaluate`` is under
test).  Instructions the hardware computes approximately (rcp, rsq, sqrt, log, exp) are checked
against bounds and their exact special cases, not bits.  Families already covered by
tests/test_semantics_properties.py and tests/test_semantics_hardware.py are not repeated here.
Inputs: edge values (signed zeros, denormals, the largest finite values, infinities, integers and
halves) plus a seeded random sample, on RDNA3.5, RDNA4 and CDNA4 where each has the instruction.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from ieee_bits import FMT, bits_of
from ieee_bits import encode as rne
from ieee_bits import to_float as fl

from gpuisa.semantics import sources
from gpuisa.semantics.wave import evaluate

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

ARCHS = ("rdna3.5", "rdna4", "cdna4")
M32 = (1 << 32) - 1


def archs_with(name):
    return [a for a in ARCHS if sources.lookup(a, name) is not None]


def run(arch, name, **ops):
    wave = 64 if arch == "cdna4" else 32
    n = len(ops["S0"])
    got = []
    for i in range(0, n, wave):
        chunk = {k: v[i:i + wave] if isinstance(v, list) else v for k, v in ops.items()}
        got += evaluate(arch, name, lanes=len(chunk["S0"]), **chunk)["outputs"]["D0"]
    return got


def edges(w: int) -> list[int]:
    mbits, ebits, _, _ = FMT[w]
    top = 1 << (w - 1)
    inf = ((1 << ebits) - 1) << mbits
    vals = [0, 1, (1 << mbits) - 1, 1 << mbits, inf - 1, inf]
    for k in range(-8, 9):  # k/2 and its neighbours
        h = rne(Fraction(k, 2), w)
        vals += [h, h + 1]
    vals += [rne(Fraction(2) ** 24 + 1, w), rne(Fraction(2) ** 31, w), rne(Fraction(2) ** 32, w), rne(-Fraction(2) ** 31, w)]
    return sorted({v & ((1 << w) - 1) for v in vals} | {(v | top) & ((1 << w) - 1) for v in vals})


def finite(w: int, n: int, seed: int) -> list[int]:
    """Edge values (no NaN) plus n random finite bit patterns."""
    rng = random.Random(seed)
    mbits, ebits, _, _ = FMT[w]
    out = list(edges(w))
    want = len(out) + n
    while len(out) < want:
        b = rng.getrandbits(w)
        if (b >> mbits) & ((1 << ebits) - 1) != (1 << ebits) - 1:
            out.append(b)
    return out


def mismatches(arch, name, w_out, args, got, ref):
    mask = (1 << w_out) - 1
    return [(arch, name, *map(hex, a), hex(g & mask), hex(ref(*a) & mask))
            for a, g in zip(zip(*args), got) if ref(*a) is not None and g & mask != ref(*a) & mask]


# ------------------------------------------------------------------ rounding to integral values

def integral(kind):
    def f(bits, w):
        x = fl(bits, w)
        if not math.isfinite(x):
            return bits | (1 << (FMT[w][0] - 1)) if math.isnan(x) else bits
        r = {"trunc": math.trunc, "floor": math.floor, "ceil": math.ceil}[kind](Fraction(x))
        return rne(r, w, negative=math.copysign(1, x) < 0)
    return f


@pytest.mark.parametrize("kind", ["trunc", "floor", "ceil"])
@pytest.mark.parametrize("w", [16, 32, 64])
def test_round_to_integral(kind, w):
    values = finite(w, 80, w)
    for pre in ("v", "s"):
        name = f"{pre}_{kind}_f{w}"
        for arch in archs_with(name):
            vals = values[:40] if pre == "s" else values
            got = [evaluate(arch, name, S0=v)["outputs"]["D0"][0] for v in vals] if pre == "s" else run(arch, name, S0=vals)
            assert not mismatches(arch, name, w, [vals], got, lambda b: integral(kind)(b, w))


# ------------------------------------------------------------------ frexp_mant, ldexp

def frexp_mant(bits, w):
    x = fl(bits, w)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return bits  # the manuals: an infinity comes back unchanged
    if x == 0:
        return bits
    m, _ = math.frexp(x)  # exact: 0.5 <= |m| < 1
    return rne(Fraction(m), w)


@pytest.mark.parametrize("w", [16, 32, 64])
def test_frexp_mant(w):
    name = f"v_frexp_mant_f{w}"
    values = finite(w, 80, 40 + w)
    for arch in archs_with(name):
        got = run(arch, name, S0=values)
        assert not mismatches(arch, name, w, [values], got, lambda b: frexp_mant(b, w))


def ldexp(bits, n, w):
    x = fl(bits, w)
    if not math.isfinite(x):
        return bits
    return rne(Fraction(x) * Fraction(2) ** n, w, negative=math.copysign(1, x) < 0)


@pytest.mark.parametrize("w", [32, 64])
def test_ldexp(w):
    name = f"v_ldexp_f{w}"
    rng = random.Random(w)
    values = finite(w, 40, 60 + w)
    for arch in archs_with(name):
        for n in (-1100, -160, -149, -127, -1, 0, 1, 100, 300, 2000, rng.randrange(-300, 300)):
            got = run(arch, name, S0=values, S1=[n & M32] * len(values))
            assert not mismatches(arch, name, w, [values], got, lambda b, n=n: ldexp(b, n, w)), n


# ------------------------------------------------------------------ conversions

def f2int(bits, w, lo, hi, rnd=math.trunc):
    x = fl(bits, w)
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return (hi if x > 0 else lo)
    return max(lo, min(hi, rnd(Fraction(x))))


CVT = {  # name -> (input width, output width, reference(bits))
    "v_cvt_floor_i32_f32": (32, 32, lambda b: f2int(b, 32, -(1 << 31), (1 << 31) - 1, math.floor)),
    "v_cvt_flr_i32_f32": (32, 32, lambda b: f2int(b, 32, -(1 << 31), (1 << 31) - 1, math.floor)),
    "v_cvt_i16_f16": (16, 16, lambda b: f2int(b, 16, -32768, 32767)),
    "v_cvt_u16_f16": (16, 16, lambda b: f2int(b, 16, 0, 65535)),
    "v_cvt_f16_i16": (16, 16, lambda b: rne(b - 65536 if b >> 15 else b, 16)),
    "v_cvt_f16_u16": (16, 16, lambda b: rne(b, 16)),
    "v_cvt_f32_ubyte0": (32, 32, lambda b: rne(b & 0xFF, 32)),
    "v_cvt_f32_ubyte1": (32, 32, lambda b: rne((b >> 8) & 0xFF, 32)),
    "v_cvt_f32_ubyte2": (32, 32, lambda b: rne((b >> 16) & 0xFF, 32)),
    "v_cvt_f32_ubyte3": (32, 32, lambda b: rne(b >> 24, 32)),
    "v_cvt_off_f32_i4": (32, 32, lambda b: rne(Fraction(((b & 15) ^ 8) - 8, 16), 32)),
    "v_cvt_norm_i16_f16": (16, 16, lambda b: norm(fl(b, 16), True)),
    "v_cvt_norm_u16_f16": (16, 16, lambda b: norm(fl(b, 16), False)),
    "v_cvt_f32_bf16": (16, 32, lambda b: b << 16 if not math.isnan(fl(b << 16, 32)) else None),
    "s_cvt_f32_i32": (32, 32, lambda b: rne(b - (1 << 32) if b >> 31 else b, 32)),
    "s_cvt_f32_u32": (32, 32, lambda b: rne(b, 32)),
    "s_cvt_i32_f32": (32, 32, lambda b: f2int(b, 32, -(1 << 31), (1 << 31) - 1)),
    "s_cvt_u32_f32": (32, 32, lambda b: f2int(b, 32, 0, M32)),
    "s_cvt_f16_f32": (32, 16, lambda b: rne(Fraction(fl(b, 32)), 16, b >> 31) if math.isfinite(fl(b, 32)) else
                      (0xFC00 if b >> 31 else 0x7C00) if math.isinf(fl(b, 32)) else None),
    "s_cvt_f32_f16": (16, 32, lambda b: bits_of(fl(b, 16), 32) if not math.isnan(fl(b, 16)) else None),
    "s_cvt_hi_f32_f16": (32, 32, lambda b: bits_of(fl(b >> 16, 16), 32) if not math.isnan(fl(b >> 16, 16)) else None),
}


def norm(x, signed):
    """A float in [-1, 1] (signed) or [0, 1] to a 16-bit normalized integer: clamp, scale, round to nearest even."""
    if math.isnan(x):
        return 0
    lo, scale = (-1, 32767) if signed else (0, 65535)
    v = Fraction(max(lo, min(1, x))) * scale
    n = math.floor(v)
    if v - n > Fraction(1, 2) or (v - n == Fraction(1, 2) and n % 2):
        n += 1
    return n & 0xFFFF


@pytest.mark.parametrize("name", sorted(CVT))
def test_conversions(name):
    w_in, w_out, ref = CVT[name]
    have = archs_with(name)
    if not have:
        pytest.skip(f"{name}: no generation here has it")
    values = finite(w_in, 100, sum(map(ord, name))) if w_in != 16 or "f16" in name or "bf16" in name else \
        [random.Random(3).getrandbits(16) for _ in range(100)] + [0, 1, 0x7FFF, 0x8000, 0xFFFF, 2047, 2048, 2049]
    if name.startswith("s_cvt_hi"):
        values = [v << 16 for v in finite(16, 60, 9)]
    if "ubyte" in name or "i4" in name or name in ("s_cvt_f32_i32", "s_cvt_f32_u32"):
        rng = random.Random(4)
        values = [rng.getrandbits(32) for _ in range(80)] + [0, M32, 0x80000000, 0x7FFFFFFF, 0x01000001]
    for arch in have:
        vals = values[:48] if name.startswith("s_") else values
        got = [evaluate(arch, name, S0=v)["outputs"]["D0"][0] for v in vals] if name.startswith("s_") else run(arch, name, S0=vals)
        assert not mismatches(arch, name, w_out, [vals], got, ref)


def pk2(lo, hi):
    return (lo & 0xFFFF) | ((hi & 0xFFFF) << 16)


def rtz16(bits):
    """f32 to f16 rounding toward zero (the largest finite f16 instead of infinity, infinities kept)."""
    x = fl(bits, 32)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return 0xFC00 if x < 0 else 0x7C00
    a = abs(Fraction(x))
    n = rne(a, 16)
    if n == 0x7C00 or Fraction(fl(n, 16)) > a:  # rounded away from zero (or overflowed): step back one ulp
        n -= 1
    return n | ((bits >> 31) << 15)


def bf16_rne(bits):
    x = fl(bits, 32)
    if math.isnan(x):
        return None
    if math.isinf(x):
        return bits >> 16
    r = bits + 0x7FFF + ((bits >> 16) & 1)  # ties to even on the dropped 16 bits
    return (r >> 16) & 0xFFFF


PK = {  # name -> reference(S0, S1) -> D0 or None where a NaN makes the bits unspecified
    "v_cvt_pk_rtz_f16_f32": lambda a, b: None if None in (rtz16(a), rtz16(b)) else pk2(rtz16(a), rtz16(b)),
    "v_cvt_pkrtz_f16_f32": lambda a, b: None if None in (rtz16(a), rtz16(b)) else pk2(rtz16(a), rtz16(b)),
    "s_cvt_pk_rtz_f16_f32": lambda a, b: None if None in (rtz16(a), rtz16(b)) else pk2(rtz16(a), rtz16(b)),
    "v_cvt_pk_norm_i16_f32": lambda a, b: pk2(norm(fl(a, 32), True), norm(fl(b, 32), True)),
    "v_cvt_pk_norm_u16_f32": lambda a, b: pk2(norm(fl(a, 32), False), norm(fl(b, 32), False)),
    "v_cvt_pknorm_i16_f32": lambda a, b: pk2(norm(fl(a, 32), True), norm(fl(b, 32), True)),
    "v_cvt_pknorm_u16_f32": lambda a, b: pk2(norm(fl(a, 32), False), norm(fl(b, 32), False)),
    "v_cvt_pk_norm_i16_f16": lambda a, b: pk2(norm(fl(a, 16), True), norm(fl(b, 16), True)),
    "v_cvt_pk_norm_u16_f16": lambda a, b: pk2(norm(fl(a, 16), False), norm(fl(b, 16), False)),
    "v_cvt_pknorm_i16_f16": lambda a, b: pk2(norm(fl(a, 16), True), norm(fl(b, 16), True)),
    "v_cvt_pknorm_u16_f16": lambda a, b: pk2(norm(fl(a, 16), False), norm(fl(b, 16), False)),
    "v_cvt_pk_i16_f32": lambda a, b: pk2(f2int(a, 32, -32768, 32767), f2int(b, 32, -32768, 32767)),
    "v_cvt_pk_u16_f32": lambda a, b: pk2(f2int(a, 32, 0, 65535), f2int(b, 32, 0, 65535)),
    "v_pack_b32_f16": lambda a, b: pk2(a, b),
    "v_cvt_pk_f16_f32": lambda a, b: None if math.isnan(fl(a, 32)) or math.isnan(fl(b, 32)) else
    pk2(rne(Fraction(fl(a, 32)), 16, a >> 31) if math.isfinite(fl(a, 32)) else 0x7C00 | (a >> 31 << 15),
        rne(Fraction(fl(b, 32)), 16, b >> 31) if math.isfinite(fl(b, 32)) else 0x7C00 | (b >> 31 << 15)),
    "v_cvt_pk_bf16_f32": lambda a, b: None if None in (bf16_rne(a), bf16_rne(b)) else pk2(bf16_rne(a), bf16_rne(b)),
}


@pytest.mark.parametrize("name", sorted(PK))
def test_packing_conversions(name):
    have = archs_with(name)
    if not have:
        pytest.skip(f"{name}: no generation here has it")
    w = 16 if name.endswith("f16") and "f32" not in name else 32
    a = finite(w, 70, 5)
    b = finite(w, 70, 6)[::-1]
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    for arch in have:
        if name.startswith("s_"):
            got = [evaluate(arch, name, S0=x, S1=y)["outputs"]["D0"][0] for x, y in zip(a[:40], b[:40])]
            args = [a[:40], b[:40]]
        else:
            got, args = run(arch, name, S0=a, S1=b), [a, b]
        assert not mismatches(arch, name, 32, args, got, PK[name])


def test_cvt_pk_u8_f32():
    """Byte S1 & 3 of S2 replaced by S0 converted to u8 (round to nearest even, clamped to 0..255)."""
    rng = random.Random(8)
    a = finite(32, 60, 7)
    b = [rng.randrange(8) for _ in a]
    c = [rng.getrandbits(32) for _ in a]

    def ref(x, sel, old):
        f = fl(x, 32)
        v = 0 if math.isnan(f) else 255 if f >= 255 else 0 if f <= 0 else None
        if v is None:
            q = Fraction(f)
            v = math.floor(q)
            if q - v > Fraction(1, 2) or (q - v == Fraction(1, 2) and v % 2):
                v += 1
        sh = 8 * (sel & 3)
        return (old & ~(0xFF << sh) & M32) | (v << sh)
    for arch in archs_with("v_cvt_pk_u8_f32"):
        got = run(arch, "v_cvt_pk_u8_f32", S0=a, S1=b, S2=c)
        assert not mismatches(arch, "v_cvt_pk_u8_f32", 32, [a, b, c], got, ref)


# ------------------------------------------------------------------ min3 / max3 / med3 / minimum / maximum

def key(bits, w):
    """Order of a non-NaN float with -0 below +0."""
    x = fl(bits, w)
    return (x, bits >> (w - 1) == 0)


def pick(fn, w):
    def f(*vals):
        if any(math.isnan(fl(v, w)) for v in vals):
            return None
        return fn(vals, key=lambda v: key(v, w))
    return f


def median(vals, key):
    return sorted(vals, key=key)[1]


THREE = {}
for _w in (16, 32):
    for _pre, _sfx in (("v_min3_", ""), ("v_max3_", ""), ("v_min3_num_", ""), ("v_max3_num_", ""),
                       ("v_minimum3_", ""), ("v_maximum3_", "")):
        THREE[f"{_pre}f{_w}"] = (pick(min if "min" in _pre else max, _w), _w)
    THREE[f"v_med3_f{_w}"] = (pick(median, _w), _w)
    THREE[f"v_med3_num_f{_w}"] = (pick(median, _w), _w)
    THREE[f"v_minmax_f{_w}"] = (pick(lambda v, key: max(min(v[:2], key=key), v[2], key=key), _w), _w)
    THREE[f"v_maxmin_f{_w}"] = (pick(lambda v, key: min(max(v[:2], key=key), v[2], key=key), _w), _w)
    THREE[f"v_minmax_num_f{_w}"] = THREE[f"v_minmax_f{_w}"]
    THREE[f"v_maxmin_num_f{_w}"] = THREE[f"v_maxmin_f{_w}"]
    THREE[f"v_minimummaximum_f{_w}"] = THREE[f"v_minmax_f{_w}"]
    THREE[f"v_maximumminimum_f{_w}"] = THREE[f"v_maxmin_f{_w}"]


@pytest.mark.parametrize("name", sorted(THREE))
def test_three_operand_min_max(name):
    """Ordered inputs (NaN-free) including both zeros: -0 counts below +0 where the result is a zero
    chosen by min or max (the median of equal zeros is not compared: either is the median)."""
    ref, w = THREE[name]
    have = archs_with(name)
    if not have:
        pytest.skip(f"{name}: no generation here has it")
    zeros = [0, 1 << (w - 1)]
    rng = random.Random(sum(map(ord, name)))
    pool = finite(w, 40, 77) + zeros * 6
    a, b, c = ([rng.choice(pool) for _ in range(96)] for _ in range(3))
    for arch in have:
        got = run(arch, name, S0=a, S1=b, S2=c)
        bad = mismatches(arch, name, w, [a, b, c], got, ref)
        if "med3" in name:
            bad = [r for r in bad if fl(int(r[-1], 16), w) != 0]
        assert not bad, bad[:4]


def minimum(a, b, w, is_min):
    """IEEE 754-2019 minimum/maximum: any NaN gives a quiet NaN, -0 < +0."""
    x, y = fl(a, w), fl(b, w)
    if math.isnan(x) or math.isnan(y):
        return None
    pair = sorted((a, b), key=lambda v: key(v, w))
    return pair[0] if is_min else pair[1]


@pytest.mark.parametrize("name", ["v_minimum_f16", "v_maximum_f16", "v_minimum_f32", "v_maximum_f32", "v_minimum_f64",
                                  "v_maximum_f64", "s_minimum_f32", "s_maximum_f32", "s_minimum_f16", "s_maximum_f16",
                                  "v_min_f16", "v_max_f16", "v_min_f64", "v_max_f64"])
def test_minimum_maximum(name):
    w = int(name[-2:])
    is_min = "_min" in name
    nan = {16: 0x7E00, 32: 0x7FC00000, 64: 0x7FF8000000000000}[w]
    snan = {16: 0x7C01, 32: 0x7F800001, 64: 0x7FF0000000000001}[w]
    pool = finite(w, 30, 88) + [0, 1 << (w - 1)] * 4
    rng = random.Random(sum(map(ord, name)))
    a, b = [rng.choice(pool) for _ in range(64)], [rng.choice(pool) for _ in range(64)]
    for arch in archs_with(name):
        vals_a, vals_b = (a[:24], b[:24]) if name.startswith("s_") else (a, b)
        if name.startswith("s_"):
            got = [evaluate(arch, name, S0=x, S1=y)["outputs"]["D0"][0] for x, y in zip(vals_a, vals_b)]
        else:
            got = run(arch, name, S0=vals_a, S1=vals_b)
        assert not mismatches(arch, name, w, [vals_a, vals_b], got, lambda x, y: minimum(x, y, w, is_min))
        if "minimum" in name or "maximum" in name:  # NaN propagates (quieted)
            for x, y in ((nan, 0), (0, nan), (snan, 1 << (w - 1)), (rne(1, w), snan)):
                g = evaluate(arch, name, S0=x, S1=y)["outputs"]["D0"][0]
                assert math.isnan(fl(g, w)) and (g >> (FMT[w][0] - 1)) & 1, (arch, name, hex(x), hex(y), hex(g))


# ------------------------------------------------------------------ approximate transcendental units

def ulps(got_bits, exact, w):
    """Distance of the float ``got_bits`` from the real ``exact`` in units of the format's last place there."""
    g = Fraction(fl(got_bits, w))
    e = math.floor(math.log2(abs(exact))) if exact else -FMT[w][0]
    e = max(e, 2 - (1 << (FMT[w][1] - 1)))
    return abs(g - Fraction(exact)) / Fraction(2) ** (e - FMT[w][0])


APPROX = {  # name -> (width, exact function on normal inputs, input filter, ulp bound)
    "rcp": (lambda x: 1 / Fraction(x), lambda x: x != 0),
    "rsq": (lambda x: 1 / math.sqrt(x), lambda x: x > 0),
    "sqrt": (lambda x: math.sqrt(x), lambda x: x > 0),
    "log": (lambda x: math.log2(x), lambda x: x > 0 and abs(x - 1) > 2 ** -6),
    "exp": (lambda x: 2.0 ** x, lambda x: -120 < x < 120),
}
SPECIAL = {  # name -> [(input, output)] exact on every generation
    "rcp": [(0.0, math.inf), (-0.0, -math.inf), (math.inf, 0.0), (-math.inf, -0.0), (1.0, 1.0), (-2.0, -0.5)],
    "rsq": [(0.0, math.inf), (-0.0, -math.inf), (math.inf, 0.0), (1.0, 1.0), (4.0, 0.5)],
    "sqrt": [(0.0, 0.0), (-0.0, -0.0), (math.inf, math.inf), (1.0, 1.0), (4.0, 2.0)],
    "log": [(0.0, -math.inf), (-0.0, -math.inf), (math.inf, math.inf), (1.0, 0.0), (8.0, 3.0)],
    "exp": [(-math.inf, 0.0), (math.inf, math.inf), (0.0, 1.0), (-0.0, 1.0), (3.0, 8.0), (-1.0, 0.5)],
}


@pytest.mark.parametrize("op", sorted(APPROX))
@pytest.mark.parametrize("w", [16, 32, 64])
def test_transcendental_bounds(op, w):
    exact, ok = APPROX[op]
    names = [f"v_{op}_f{w}"] + ([f"v_s_{op}_f{w}"] if w < 64 else []) + (["v_rcp_iflag_f32"] if (op, w) == ("rcp", 32) else [])
    for name in names:
        check_bounds(name, op, w, exact, ok)


def check_bounds(name, op, w, exact, ok):
    from gpuisa.semantics import compiler

    rng = random.Random(w)
    lo = {16: -14, 32: -120, 64: -1000}[w]
    pool = [bits_of(rng.uniform(1, 2) * 2.0 ** rng.randrange(lo, -lo), w) for _ in range(60)]
    pool += [bits_of(rng.uniform(-130, 130), w) for _ in range(20)] if w > 16 else [bits_of(rng.uniform(-14, 14), 16) for _ in range(20)]
    pool = [b for b in pool if ok(fl(b, w)) and math.isfinite(fl(b, w)) and abs(fl(b, w)) >= 2.0 ** lo]
    for arch in archs_with(name):
        if compiler.program(arch, name).scalar:  # v_s_*: one value per run
            pool = pool[:24]
            got = [evaluate(arch, name, S0=b)["outputs"]["D0"][0] for b in pool]
        else:
            got = run(arch, name, S0=pool)
        for b, g in zip(pool, got):
            want = exact(fl(b, w))
            if abs(want) > {16: 65504, 32: 3.4e38, 64: 1.7e308}[w] or (want and abs(want) < 2.0 ** lo):
                continue
            assert ulps(g, want, w) <= 1, (arch, name, hex(b), hex(g), float(want))
        for x, y in SPECIAL[op]:
            g = evaluate(arch, name, S0=bits_of(x, w))["outputs"]["D0"][0]
            assert g & ((1 << w) - 1) == bits_of(y, w), (arch, name, x, hex(g))
        if op in ("rsq", "sqrt", "log"):  # negative inputs: NaN
            g = evaluate(arch, name, S0=bits_of(-2.0, w))["outputs"]["D0"][0]
            assert math.isnan(fl(g, w)), (arch, name, hex(g))


# ------------------------------------------------------------------ cube map, legacy multiply, dot products

def cube(x, y, z):
    """(face id, sc, tc, 2 * major axis) of the direction (x, y, z)."""
    if abs(z) >= abs(x) and abs(z) >= abs(y):
        return (5.0 if z < 0 else 4.0), (-x if z < 0 else x), -y, 2 * z
    if abs(y) >= abs(x):
        return (3.0 if y < 0 else 2.0), x, (-z if y < 0 else z), 2 * y
    return (1.0 if x < 0 else 0.0), (z if x < 0 else -z), -y, 2 * x


def test_cube_map():
    rng = random.Random(12)
    vals = [rng.choice([-3.0, -2.0, -1.0, -0.5, 0.25, 1.0, 2.0, 3.0, rng.uniform(-8, 8)]) for _ in range(3 * 96)]
    xs, ys, zs = vals[0::3], vals[1::3], vals[2::3]
    bx, by, bz = ([bits_of(v, 32) for v in col] for col in (xs, ys, zs))
    for arch in archs_with("v_cubeid_f32"):
        for i, name in enumerate(("v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32")):
            got = run(arch, name, S0=bx, S1=by, S2=bz)
            want = [bits_of(cube(fl(a, 32), fl(b, 32), fl(c, 32))[i], 32) for a, b, c in zip(bx, by, bz)]
            bad = [(xs[k], ys[k], zs[k], hex(g), hex(wv)) for k, (g, wv) in enumerate(zip(got, want)) if g != wv]
            assert not bad, (arch, name, bad[:4])


def test_legacy_multiply_zero_wins():
    """DX9 rules: +-0 times anything (infinity, NaN and -1 included) is +0 (as LLVM folds
    llvm.amdgcn.fmul.legacy); otherwise an IEEE multiply."""
    inf, nan = 0x7F800000, 0x7FC00000
    cases = [(0, inf, 0), (inf, 0, 0), (0x80000000, nan, 0), (nan, 0, 0), (0x80000000, 0x3F800000, 0),
             (0xBF800000, 0, 0), (0x40000000, 0xC0400000, 0xC0C00000)]
    for name in ("v_mul_legacy_f32", "v_mul_dx9_zero_f32"):
        for arch in archs_with(name):
            for a, b, want in cases:
                got = evaluate(arch, name, S0=a, S1=b)["outputs"]["D0"][0]
                assert got == want, (arch, name, hex(a), hex(b), hex(got))
    for arch in archs_with("v_fma_dx9_zero_f32"):
        for a, b, c, want in ((0, inf, 0x40000000, 0x40000000), (0x80000000, 0x3F800000, 0x80000000, 0),
                              (nan, 0x80000000, 0x80000000, 0), (0x40000000, 0x40400000, 0x3F800000, 0x40E00000)):
            got = evaluate(arch, "v_fma_dx9_zero_f32", S0=a, S1=b, S2=c)["outputs"]["D0"][0]
            assert got == want, (arch, hex(a), hex(b), hex(c), hex(got))  # +0 product, then + c: +0 + -0 = +0
        got = evaluate(arch, "v_fma_dx9_zero_f32", S0=0, S1=inf, S2=0x7F800001)["outputs"]["D0"][0]
        assert got == 0x7FC00001, (arch, hex(got))  # the addend's signalling NaN quieted by the add
    for arch in archs_with("v_fmac_dx9_zero_f32"):  # the accumulator is D0 (the VOP2 form has no S2)
        got = evaluate(arch, "v_fmac_dx9_zero_f32", S0=[0, 0x40000000], S1=[inf, 0x40400000], D0=[0x80000000, 0x3F800000])
        assert got["outputs"]["D0"] == [0, 0x40E00000], arch


def test_dot2_exact_cases():
    """Halves up to 8 (bf16: integers up to 8): every product and partial sum is exact in the result's
    format, so each dot product has one right answer whatever its intermediate rounding."""
    rng = random.Random(14)
    for name, fmt_in, fmt_out in (("v_dot2_f32_f16", 16, 32), ("v_dot2_f32_bf16", "bf16", 32),
                                  ("v_dot2_f16_f16", 16, 16), ("v_dot2_bf16_bf16", "bf16", "bf16")):
        den = (1,) if "bf16" in (fmt_in, fmt_out) else (1, 2)
        vals = [Fraction(rng.randrange(-8, 9), rng.choice(den)) for _ in range(5 * 64)]
        def enc(v, f):
            return rne(v, 32) >> 16 if f == "bf16" else rne(v, f)
        a = [enc(vals[5 * i], fmt_in) | (enc(vals[5 * i + 1], fmt_in) << 16) for i in range(64)]
        b = [enc(vals[5 * i + 2], fmt_in) | (enc(vals[5 * i + 3], fmt_in) << 16) for i in range(64)]
        c = [enc(vals[5 * i + 4], fmt_out) for i in range(64)]
        want = [enc(vals[5 * i] * vals[5 * i + 2] + vals[5 * i + 1] * vals[5 * i + 3] + vals[5 * i + 4], fmt_out)
                for i in range(64)]
        mask = M32 if fmt_out == 32 else 0xFFFF
        for arch in archs_with(name):
            got = run(arch, name, S0=a, S1=b, S2=c)
            bad = [(hex(x), hex(y), hex(z), hex(g & mask), hex(wv)) for x, y, z, g, wv in zip(a, b, c, got, want)
                   if g & mask != wv]
            assert not bad, (arch, name, bad[:4])


def fma_exact(a, b, c, w):
    """fma of three binary-w values rounded once (None where a NaN or an infinity is involved)."""
    x, y, z = fl(a, w), fl(b, w), fl(c, w)
    if not all(map(math.isfinite, (x, y, z))):
        return None
    r = Fraction(x) * Fraction(y) + Fraction(z)
    neg = r == 0 and (math.copysign(1, x) * math.copysign(1, y) < 0 and math.copysign(1, z) < 0)
    return rne(r, w, negative=neg)


@pytest.mark.parametrize("op", ["add", "mul", "fma"])
def test_packed_f32(op):
    """CDNA's v_pk_{add,mul,fma}_f32: each 32-bit half of the 64-bit operands on its own, rounded once."""
    name = f"v_pk_{op}_f32"
    rng = random.Random(len(op))
    pool = finite(32, 60, 31)
    a, b, c = ([rng.choice(pool) | rng.choice(pool) << 32 for _ in range(64)] for _ in range(3))

    def ref(x, y, z):
        out = 0
        for h in (0, 32):
            p, q, r = (x >> h) & M32, (y >> h) & M32, (z >> h) & M32
            if op == "add":
                v = fma_exact(p, 0x3F800000, q, 32)
            elif op == "mul":
                v = fma_exact(p, q, 0x80000000, 32)  # + -0: keeps the product's sign, exact product rounded once
            else:
                v = fma_exact(p, q, r, 32)
            if v is None:
                return None
            out |= v << h
        return out
    for arch in archs_with(name):
        got = run(arch, name, S0=a, S1=b, S2=c) if op == "fma" else run(arch, name, S0=a, S1=b)
        bad = [(hex(x), hex(y), hex(z), hex(g), hex(ref(x, y, z))) for x, y, z, g in zip(a, b, c, got)
               if ref(x, y, z) is not None and g != ref(x, y, z)]
        assert not bad, (arch, name, bad[:3])


def test_fma_mix_f32():
    """v_fma_mix_f32 with OPSEL_HI = 0b111 and OPSEL = 0b010: S0 low half, S1 high half, S2 low half as f16,
    widened exactly to f32, one fma rounded to f32."""
    rng = random.Random(17)
    pool = finite(16, 60, 18)
    a, b, c = ([rng.choice(pool) | rng.choice(pool) << 16 for _ in range(64)] for _ in range(3))
    for arch in archs_with("v_fma_mix_f32"):
        got = run(arch, "v_fma_mix_f32", S0=a, S1=b, S2=c, OPSEL=0b010, OPSEL_HI=0b111)
        for x, y, z, g in zip(a, b, c, got):
            p, q, r = (bits_of(fl(v, 16), 32) for v in (x & 0xFFFF, y >> 16, z & 0xFFFF))
            want = fma_exact(p, q, r, 32)
            if want is not None:
                assert g & M32 == want, (arch, hex(x), hex(y), hex(z), hex(g), hex(want))


def test_div_fixup_f16():
    """The f16 division fix-up on the special operands, and |S0| with the quotient's sign otherwise."""
    inf, nan, one, two = 0x7C00, 0x7E00, 0x3C00, 0x4000
    cases = [  # (S0 approximation, S1 denominator, S2 numerator, expected)
        (0x3800, two, one, 0x3800), (0x3800, two | 0x8000, one, 0xB800), (0xB800, two, one, 0x3800),
        (one, 0, one, inf), (one, 0x8000, one, 0xFC00), (one, inf, one, 0), (one, one, inf, inf),
        (one, one, 0, 0), (one, 0x8000 | one, 0, 0x8000), (one, 0, 0, None), (one, inf, inf, None),
        (one, nan, one, None), (one, one, nan, None)]
    for arch in archs_with("v_div_fixup_f16"):
        for s0, s1, s2, want in cases:
            g = evaluate(arch, "v_div_fixup_f16", S0=s0, S1=s1, S2=s2)["outputs"]["D0"][0] & 0xFFFF
            if want is None:
                assert (g >> 10) & 0x1F == 0x1F and g & 0x3FF and (g >> 9) & 1, (arch, hex(s1), hex(s2), hex(g))
            else:
                assert g == want, (arch, hex(s0), hex(s1), hex(s2), hex(g), hex(want))


@pytest.mark.parametrize("arch", ["rdna3", "cdna3"])
def test_inherited_generations_run_the_hardware_formulations(arch):
    """RDNA3 and CDNA3 run their donors' pseudocode (RDNA3.5, CDNA4) and so the same hardware formulations."""
    assert evaluate(arch, "v_cvt_pk_u8_f32", S0=bits_of(3.5, 32), S1=1, S2=0)["outputs"]["D0"] == [4 << 8]
    assert evaluate(arch, "v_cvt_pk_u8_f32", S0=bits_of(2.5, 32), S1=0, S2=0xFF)["outputs"]["D0"] == [2]
    x = bits_of(1126.6, 32)
    g = evaluate(arch, "v_rsq_f32", S0=x)["outputs"]["D0"][0]
    assert ulps(g, 1 / math.sqrt(fl(x, 32)), 32) <= Fraction(1, 2) + Fraction(1, 1 << 20), (arch, hex(g))
    if sources.lookup(arch, "v_fma_dx9_zero_f32") is not None:
        assert evaluate(arch, "v_fma_dx9_zero_f32", S0=0x80000000, S1=0x3F800000, S2=0x80000000)["outputs"]["D0"] == [0]
    out = evaluate(arch, "s_bcnt1_i32_b64", S0=0)["outputs"]
    assert (out["D0"], out["SCC"]) == ([0], [0]), arch


@pytest.mark.parametrize("op", ["exp", "log"])
def test_exp_log_f32_have_no_denormals(op):
    """The transcendental unit gives no denormal exp results (+0 below 2**-126) and reads denormal log inputs
    as zero (-inf), as LLVM's scaling around v_exp_f32/v_log_f32 shows; normal cases stay within 1 ulp."""
    if op == "exp":
        cases = [(-126.0, 2.0 ** -126), (-126.5, 0.0), (-130.0, 0.0), (-149.0, 0.0), (-200.0, 0.0), (-125.0, 2.0 ** -125)]
        ins = [bits_of(x, 32) for x, _ in cases]
    else:
        cases = [(2.0 ** -130, -math.inf), (-(2.0 ** -140), -math.inf), (2.0 ** -149, -math.inf), (2.0 ** -126, -126.0),
                 (2.0 ** 100, 100.0)]
        ins = [bits_of(x, 32) for x, _ in cases]
    for name in (f"v_{op}_f32", f"v_s_{op}_f32"):
        for arch in archs_with(name):
            for b, (x, want) in zip(ins, cases):
                g = evaluate(arch, name, S0=b)["outputs"]["D0"][0]
                assert g == bits_of(want, 32), (arch, name, x, hex(g))

