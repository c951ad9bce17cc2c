"""The project's own formulations (``gpuisa.semantics.formulations``) on every generation that has
the instruction: v_trig_preop_f64 against 2/pi computed here by another method (Gauss-Legendre with
integer square roots, not the module's Machin series), s_getreg/s_setreg against field arithmetic on
the MODE/STATUS model, and the AccVGPR moves against the identity under EXEC."""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import pytest
from conftest import run_cli

from gpuisa import archs
from gpuisa.semantics import evaluate, fidelity, sources
from gpuisa.semantics.wave import EvalError

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

ALL = tuple(archs.arch_names())


def two_over_pi(bits: int) -> Fraction:
    """2/pi to ``bits`` bits by the Gauss-Legendre iteration in fixed point."""
    one = 1 << (bits + 32)
    a, b, t, p = one, math.isqrt(one * one // 2), one // 4, 1
    for _ in range(12):  # quadratic convergence: 2**12 digits-doublings is plenty for 1300 bits
        an = (a + b) // 2
        b = math.isqrt(a * b)
        t -= p * (a - an) * (a - an) // one
        a, p = an, 2 * p
    pi = Fraction((a + b) * (a + b), 4 * t * one)
    return 2 / pi


TWO_PI_INV = two_over_pi(1400)
TABLE = Fraction(math.floor(TWO_PI_INV * 2 ** 1201), 2 ** 1201)  # the hardware's table: 1201 fractional bits


def f64(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def b64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _archs_with(name):
    return [a for a in ALL if sources.lookup(a, name) is not None]


def test_trig_preop_exists_on_every_generation_that_has_it():
    assert len(_archs_with("v_trig_preop_f64")) >= 9
    assert fidelity.fidelity("rdna4", "v_trig_preop_f64")[0] == "exact"


@pytest.mark.parametrize("x", [1.0, 3.5, -2.0, 2.0 ** 60, 2.0 ** 200, 1e300, 2.0 ** 1000, 5e-324])
def test_trig_preop_selections_add_up_to_two_over_pi(x):
    """Selections 0..5 of one input add up to 2/pi cut to the bits they cover: the bits above the
    first selection (those a large exponent skips) and those below the last are left out."""
    e = (b64(x) >> 52) & 0x7FF
    skip = max(e - 1077, 0)
    n = 6
    total = Fraction(0)
    for arch in ("rdna3.5", "cdna1", "cdna5"):
        parts = [evaluate(arch, "v_trig_preop_f64", S0=b64(x), S1=k)["outputs"]["D0"][0] for k in range(n)]
        total = sum(Fraction(f64(p)) for p in parts) / (2 ** 128 if e >= 1968 else 1)
        hi = Fraction(math.floor(TABLE * 2 ** (skip + 53 * n)), 2 ** (skip + 53 * n))
        lo = Fraction(math.floor(TABLE * 2 ** skip), 2 ** skip)
        assert total == hi - lo, (arch, x)
    assert abs(float(total) - (2 / math.pi if skip == 0 else float(total))) < 1e-15


def test_trig_preop_lanes_and_selector_bits():
    xs = [1.0, 2.0 ** 80, -7.25, 2.0 ** 1000]
    ks = [0, 33, 7, 31]  # only S1[4:0] selects
    got = evaluate("rdna2", "v_trig_preop_f64", lanes=4, S0=[b64(x) for x in xs], S1=ks)["outputs"]["D0"]
    for x, k, g in zip(xs, ks, got):
        e = (b64(x) >> 52) & 0x7FF
        shift = 53 * (k & 31) + max(e - 1077, 0)
        part = math.floor(TABLE * 2 ** (shift + 53)) % (1 << 53)
        want = Fraction(part, 2 ** (shift + 53)) * (2 ** 128 if e >= 1968 else 1)
        assert Fraction(f64(g)) == Fraction(float(want)), (x, k)


def _simm16(rid, off, size):
    return rid | (off << 6) | ((size - 1) << 11)


@pytest.mark.parametrize("arch", ["rdna1", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"])
def test_getreg_setreg_on_the_mode_status_model(arch):
    rng = random.Random(arch)
    for _ in range(12):
        rid, off, size = rng.choice([1, 2]), rng.randrange(32), rng.randrange(1, 33)
        mode, status, value = rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)
        simm = _simm16(rid, off, size)
        reg = mode if rid == 1 else status
        out = evaluate(arch, "s_getreg_b32", SIMM16=simm, MODE=mode, STATUS=status)["outputs"]
        assert out["D0"] == [(reg >> off) & ((1 << size) - 1)]
        out = evaluate(arch, "s_setreg_b32", S0=value, SIMM16=simm, MODE=mode, STATUS=status)["outputs"]
        field = ((1 << size) - 1) << off
        want_mode = (mode & ~field | (value << off) & field) & 0xFFFFFFFF if rid == 1 else mode
        assert out["MODE"] == [want_mode] and out["STATUS"] == [status]
        out = evaluate(arch, "s_setreg_imm32_b32", SIMM32=value, SIMM16=simm, MODE=mode)["outputs"]
        assert out["MODE"] == [want_mode]


def test_unmodelled_hardware_register_is_one_line_exit_2(cli_env):
    with pytest.raises(EvalError, match="hardware register 5 is not modelled"):
        evaluate("rdna4", "s_getreg_b32", SIMM16=_simm16(5, 0, 32))
    r = run_cli(["eval", "s_getreg_b32", "SIMM16=5", "--arch", "rdna4"], cli_env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "MODE" in r.stderr


@pytest.mark.parametrize("arch,name", [("cdna1", "v_accvgpr_read_b32"), ("cdna1", "v_accvgpr_write_b32"),
                                       ("cdna2", "v_accvgpr_mov_b32"), ("cdna3", "v_accvgpr_write_b32"),
                                       ("cdna4", "v_accvgpr_read_b32"), ("cdna4", "v_accvgpr_mov_b32")])
def test_accvgpr_moves(arch, name):
    rng = random.Random(name)
    src = [rng.getrandbits(32) for _ in range(64)]
    old = [rng.getrandbits(32) for _ in range(64)]
    execm = rng.getrandbits(64)
    res = evaluate(arch, name, lanes=64, S0=src, D0=old, EXEC=execm)
    assert res["outputs"]["D0"] == [s if (execm >> i) & 1 else o for i, (s, o) in enumerate(zip(src, old))]
    assert "inferred_from" not in res and fidelity.fidelity(arch, name)[0] == "exact"


# ------------------------------------------------------------------ GFX9/10 unfused multiply-adds

def _f32(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def _round32(fr: Fraction) -> Fraction:
    """fr rounded to f32 (nearest, ties to even), as an exact value; overflow -> inf (as a float)."""
    if fr == 0:
        return Fraction(0)
    sign, a = (-1 if fr < 0 else 1), abs(fr)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    e += 1 if a >= Fraction(2) ** e * 2 else 0
    e -= 1 if a < Fraction(2) ** e else 0
    q = Fraction(2) ** (max(e, -126) - 23)  # the spacing of f32 values around a
    n = a / q
    r = math.floor(n)
    if n - r > Fraction(1, 2) or (n - r == Fraction(1, 2) and r % 2):
        r += 1
    out = r * q
    if out >= Fraction(2) ** 128:
        return sign * Fraction(10) ** 400  # a stand-in for infinity, above every f32
    return sign * out


def _flush(fr: Fraction) -> Fraction:
    return Fraction(0) if abs(fr) < Fraction(2) ** -126 else fr


def _mad_ref(a: int, b: int, c: int, legacy: bool) -> float:
    x, y, z = (_flush(Fraction(_f32(v))) for v in (a, b, c))
    p = Fraction(0) if legacy and (x == 0 or y == 0) else _flush(_round32(x * y))
    d = _flush(_round32(p + z))
    return (math.inf if d > 0 else -math.inf) if abs(d) > 2 ** 128 else float(d)


MAD_VALUES = [0x3F800000, 0xBFC00000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3EAAAAAB, 0x4B800001,
              0x00000000, 0x80000000, 0x1F800000, 0x5F800000]


@pytest.mark.parametrize("arch,name", [("rdna1", "v_mad_f32"), ("rdna1", "v_mad_legacy_f32"), ("cdna1", "v_mac_f32"),
                                       ("cdna2", "v_madak_f32"), ("rdna1", "v_madmk_f32"),
                                       ("rdna1", "v_mac_legacy_f32")])
def test_unfused_multiply_add(arch, name):
    rng = random.Random(name)
    n = 32 if arch.startswith("rdna") else 64
    a, b, c = ([rng.choice(MAD_VALUES) if rng.random() < 0.5 else rng.getrandbits(30) for _ in range(n)]
               for _ in range(3))
    legacy = "legacy" in name
    if name == "v_madak_f32":
        c = [c[0]] * n
        ops = {"S0": a, "S1": b, "SIMM32": c[0]}
    elif name == "v_madmk_f32":
        b = [b[0]] * n
        ops = {"S0": a, "SIMM32": b[0], "S1": c}
    elif name.startswith("v_mac"):
        ops = {"S0": a, "S1": b, "D0": c}
    else:
        ops = {"S0": a, "S1": b, "S2": c}
    got = evaluate(arch, name, lanes=n, **ops)["outputs"]["D0"]
    for x, y, z, g in zip(a, b, c, got):
        want = _mad_ref(x, y, z, legacy)
        assert _f32(g) == want, \
            (name, hex(x), hex(y), hex(z), hex(g), want)
    assert fidelity.fidelity(arch, name)[0] == "untested"


def test_legacy_zero_rule_against_infinity_and_nan():
    got = evaluate("rdna1", "v_mad_legacy_f32", lanes=3, S0=[0, 0x7F800000, 0x80000000], S1=[0x7F800000, 0, 0x7FC00000],
                   S2=[0x3F800000] * 3)["outputs"]["D0"]
    assert [_f32(g) for g in got] == [1.0, 1.0, 1.0]


# ------------------------------------------------------------------ xf32 and block-scaled MFMAs

def _repeat_bits(bits: int, w: int, total: int) -> int:
    return sum(bits << (w * i) for i in range(total // w))


def _xf32(x: float) -> Fraction:
    """x rounded to 11 significant bits, ties to even (normal x)."""
    fr = Fraction(x)
    e = math.frexp(x)[1] - 1
    n = fr / Fraction(2) ** (e - 10)
    r = math.floor(n)
    if n - r > Fraction(1, 2) or (n - r == Fraction(1, 2) and r % 2):
        r += 1
    return r * Fraction(2) ** (e - 10)


@pytest.mark.parametrize("arch,name,k", [("cdna3", "v_mfma_f32_16x16x8_xf32", 8), ("cdna3", "v_mfma_f32_32x32x4_xf32", 4),
                                         ("cdna4", "v_mfma_f32_16x16x8_xf32", 8)])
def test_xf32_mfma_rounds_inputs(arch, name, k):
    """Uniform A, B, C: every element of D = K * xf32(a) * xf32(b) + c, whatever the layout."""
    from gpuisa.semantics import compiler

    w = compiler.program(arch, name).widths
    a, b, c = 1.0 + 2 ** -11 + 2 ** -20, 3.0 - 2 ** -12, 0.5  # a rounds up (past the tie), b rounds to 3.0
    bits = [struct.unpack("<I", struct.pack("<f", v))[0] for v in (a, b, c)]
    res = evaluate(arch, name, S0=_repeat_bits(bits[0], 32, w["S0"]), S1=_repeat_bits(bits[1], 32, w["S1"]),
                   S2=_repeat_bits(bits[2], 32, w["S2"]))
    want = float(_round32(k * _xf32(a) * _xf32(b) + Fraction(c)))
    for lane in res["outputs"]["D0"]:
        assert all(_f32(lane >> (32 * i)) == want for i in range(w["D0"] // 32)), name
    assert fidelity.fidelity(arch, name)[0] == "untested"


@pytest.mark.parametrize("name,k", [("v_mfma_scale_f32_16x16x128_f8f6f4", 128), ("v_mfma_scale_f32_32x32x64_f8f6f4", 64)])
def test_block_scaled_mfma(name, k):
    """FP8 (E4M3) 1.5 (0x3C) and -0.5 (0xB0) in every element, scales 2**(sa-127) and 2**(sb-127) on every lane."""
    from gpuisa.semantics import compiler

    w = compiler.program("cdna4", name).widths
    for sa, sb in ((0x7F, 0x7F), (0x81, 0x7C), (0x70, 0x90)):
        res = evaluate("cdna4", name, S0=_repeat_bits(0x3C, 8, w["S0"]), S1=_repeat_bits(0xB0, 8, w["S1"]),
                       S2=_repeat_bits(0x3F800000, 32, w["S2"]), SCALE_SRC0=sa, SCALE_SRC1=sb)
        want = float(_round32(k * Fraction(3, 2) * Fraction(-1, 2) * Fraction(2) ** (sa - 127 + sb - 127) + 1))
        for lane in res["outputs"]["D0"]:
            assert all(_f32(lane >> (32 * i)) == want for i in range(w["D0"] // 32)), (name, sa, sb)


# ------------------------------------------------------------------ S_MOVREL* on the SGPR file

@pytest.mark.parametrize("arch", ["rdna1", "rdna3.5", "rdna4", "cdna2", "cdna4", "cdna5"])
def test_scalar_movrel_on_the_sgpr_file(arch):
    rng = random.Random(arch)
    for _ in range(5):
        file = [rng.getrandbits(32) for _ in range(106)]
        ops = {f"SGPR{i}": v for i, v in enumerate(file)}
        src, dst, m0 = rng.randrange(40), rng.randrange(40), rng.randrange(60)
        out = evaluate(arch, "s_movrels_b32", SRC0=src, M0=m0, **ops)["outputs"]
        assert out["D0"] == [file[src + m0]]
        out = evaluate(arch, "s_movrels_b64", SRC0=src, M0=m0, **ops)["outputs"]
        assert out["D0"] == [file[src + m0] | file[src + m0 + 1] << 32]
        value = rng.getrandbits(64)
        out = evaluate(arch, "s_movreld_b64", DST=dst, M0=m0, S0=value, **ops)["outputs"]
        want = {f"SGPR{dst + m0}": value & 0xFFFFFFFF, f"SGPR{dst + m0 + 1}": value >> 32}
        assert {k: v[0] for k, v in out.items()} == {k: v for k, v in want.items() if v != file[int(k[4:])]}
        out = evaluate(arch, "s_movreld_b32", DST=dst, M0=m0, S0=value & 0xFFFFFFFF, **ops)["outputs"]
        assert out.get(f"SGPR{dst + m0}", [file[dst + m0]]) == [value & 0xFFFFFFFF]
        if sources.lookup(arch, "s_movrelsd_2_b32") is not None:
            m0 = rng.randrange(50) | rng.randrange(50) << 16 | 0xFC00  # bits outside [9:0] and [25:16] ignored
            out = evaluate(arch, "s_movrelsd_2_b32", SRC0=src, DST=dst, M0=m0, **ops)["outputs"]
            s, d = src + (m0 & 0x3FF), dst + ((m0 >> 16) & 0x3FF)
            assert out.get(f"SGPR{d}", [file[d]]) == [file[s]]
    with pytest.raises(EvalError, match="outside the file"):
        evaluate(arch, "s_movreld_b64", DST=100, M0=5, S0=1)
    assert fidelity.fidelity(arch, "s_movrels_b32")[0] == "exact"


# ------------------------------------------------------------------ CDNA5's new integer operations

def _s(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


M64 = (1 << 64) - 1
EDGE64 = [0, 1, M64, 1 << 63, (1 << 63) - 1, 0xFFFFFFFF, 1 << 32]
INT64_REFS = {
    "v_add_nc_u64": lambda a, b, c: (a + b) & M64,
    "v_sub_nc_u64": lambda a, b, c: (a - b) & M64,
    "v_mul_u64": lambda a, b, c: (a * b) & M64,
    "v_min_u64": lambda a, b, c: a if a < b else b,
    "v_max_u64": lambda a, b, c: a if a > b else b,
    "v_min_i64": lambda a, b, c: a if _s(a, 64) < _s(b, 64) else b,
    "v_max_i64": lambda a, b, c: a if _s(a, 64) > _s(b, 64) else b,
    "v_mad_u32": lambda a, b, c: ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF) + (c & 0xFFFFFFFF)) % (1 << 32),
    "v_mad_nc_u64_u32": lambda a, b, c: ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF) + c) % (1 << 64),
    "v_mad_nc_i64_i32": lambda a, b, c: (_s(a, 32) * _s(b, 32) + _s(c, 64)) % (1 << 64),
}


def _halves(fn, signed):
    def f(a, b, c):
        lo = fn(*[_s(v, 16) if signed else v & 0xFFFF for v in (a, b, c)]) & 0xFFFF
        hi = fn(*[_s(v >> 16, 16) if signed else (v >> 16) & 0xFFFF for v in (a, b, c)]) & 0xFFFF
        return hi << 16 | lo
    return f


INT64_REFS.update({"v_pk_max3_i16": _halves(lambda *x: sorted(x)[-1], True),
                   "v_pk_min3_i16": _halves(lambda *x: sorted(x)[0], True),
                   "v_pk_max3_u16": _halves(lambda *x: sorted(x)[-1], False),
                   "v_pk_min3_u16": _halves(lambda *x: sorted(x)[0], False)})


@pytest.mark.parametrize("name", sorted(INT64_REFS))
def test_cdna5_integer_operations(name):
    from gpuisa.semantics import compiler

    rng = random.Random(name)
    w = compiler.program("cdna5", name).widths
    ops = {}
    for r in ("S0", "S1", "S2"):
        if r in w:
            ops[r] = [(rng.choice(EDGE64) if rng.random() < 0.3 else rng.getrandbits(64)) & ((1 << w[r]) - 1)
                      for _ in range(32)]
    got = evaluate("cdna5", name, lanes=32, **ops)["outputs"]["D0"]
    cols = [ops.get(r, [0] * 32) for r in ("S0", "S1", "S2")]
    assert got == [INT64_REFS[name](a, b, c) for a, b, c in zip(*cols)]
    assert fidelity.fidelity("cdna5", name)[0] == "exact"


# ------------------------------------------------------------------ CDNA5's packed bf16 arithmetic

def _bf(bits: int) -> float:
    return _f32((bits & 0xFFFF) << 16)


def _round_bf16(fr: Fraction) -> int:
    """Bits of the bf16 nearest to fr (ties to even, denormals kept, overflow to infinity)."""
    sign = 0x8000 if fr < 0 else 0
    a = abs(fr)
    if a == 0:
        return sign
    e = a.numerator.bit_length() - a.denominator.bit_length()
    e += 1 if a >= Fraction(2) ** (e + 1) else 0
    e -= 1 if a < Fraction(2) ** e else 0
    q = Fraction(2) ** (max(e, -126) - 7)
    n = a / q
    r = math.floor(n)
    if n - r > Fraction(1, 2) or (n - r == Fraction(1, 2) and r % 2):
        r += 1
    v = r * q
    if v >= Fraction(2) ** 128:
        return sign | 0x7F80
    bits = struct.unpack("<I", struct.pack("<f", float(v)))[0] >> 16
    return sign | bits


EDGE_BF16 = [0x0000, 0x8000, 0x3F80, 0xBF80, 0x3F81, 0x0001, 0x807F, 0x0080, 0x7F7F, 0xFF7F, 0x3B80, 0x3C00,
             0x7F80, 0xFF80, 0x7FC0]


def _bf16_ref(op, a, b, c):
    x, y, z = _bf(a), _bf(b), _bf(c)
    used = (x, y, z) if op == "fma" else (x, y)
    if any(math.isnan(v) or math.isinf(v) for v in used) and op not in ("min", "max"):
        r = {"add": x + y, "mul": x * y if not ((x == 0 and math.isinf(y)) or (y == 0 and math.isinf(x))) else math.nan,
             "fma": (x * y if not ((x == 0 and math.isinf(y)) or (y == 0 and math.isinf(x))) else math.nan) + z}[op]
        return None if math.isnan(r) else (0x7F80 if r > 0 else 0xFF80)
    if op in ("min", "max"):
        if math.isnan(x) and math.isnan(y):
            return None
        if math.isnan(x) or math.isnan(y):
            return b if math.isnan(x) else a
        if x == y == 0:
            neg_a = a >> 15 & 1
            return (a if neg_a else b) if op == "min" else (b if neg_a else a)
        return (a if x < y else b) if op == "min" else (a if x > y else b)
    fx, fy, fz = Fraction(x), Fraction(y), Fraction(z) if op == "fma" else 0
    exact = {"add": fx + fy, "mul": fx * fy, "fma": fx * fy + fz}[op]
    if exact == 0:  # an exact zero is -0 only when every term is -0 (rounding to nearest)
        if op == "mul":
            return (a ^ b) & 0x8000
        first_neg = (a & 0x8000) if op == "add" else ((a ^ b) & 0x8000 if fx * fy == 0 else 0x8000 * (fx * fy < 0))
        second_neg = (b if op == "add" else c) & 0x8000
        return 0x8000 if first_neg and second_neg else 0
    return _round_bf16(exact)


@pytest.mark.parametrize("op", ["add", "mul", "fma", "min", "max"])
def test_cdna5_packed_bf16(op):
    name = {"min": "v_pk_min_num_bf16", "max": "v_pk_max_num_bf16"}.get(op, f"v_pk_{op}_bf16")
    rng = random.Random(op)
    vals = [[(rng.choice(EDGE_BF16) if rng.random() < 0.4 else rng.getrandbits(16)) |
             (rng.choice(EDGE_BF16) if rng.random() < 0.4 else rng.getrandbits(16)) << 16 for _ in range(32)]
            for _ in range(3)]
    ops = {"S0": vals[0], "S1": vals[1], **({"S2": vals[2]} if op == "fma" else {})}
    got = evaluate("cdna5", name, lanes=32, **ops)["outputs"]["D0"]
    for a, b, c, g in zip(*vals, got):
        for h in (0, 16):
            want = _bf16_ref(op, a >> h & 0xFFFF, b >> h & 0xFFFF, c >> h & 0xFFFF)
            have = g >> h & 0xFFFF
            if want is None:
                assert math.isnan(_bf(have)), (name, hex(a), hex(b), hex(c), hex(g))
            else:
                assert have == want, (name, h, hex(a), hex(b), hex(c), hex(g), hex(want))
    assert fidelity.fidelity("cdna5", name)[0] == "untested"


# exact points of CDNA5's new transcendental operations: (name, input bits, result bits)
UNARY_POINTS = [
    ("v_exp_bf16", 0x4040, 0x4100), ("v_exp_bf16", 0xC000, 0x3E80), ("v_log_bf16", 0x4100, 0x4040),
    ("v_log_bf16", 0x0000, 0xFF80), ("v_rcp_bf16", 0x4080, 0x3E80), ("v_rcp_bf16", 0x8000, 0xFF80),
    ("v_rsq_bf16", 0x4080, 0x3F00), ("v_sqrt_bf16", 0x4110, 0x4040), ("v_sin_bf16", 0x3E80, 0x3F80),
    ("v_cos_bf16", 0x3F00, 0xBF80), ("v_tanh_bf16", 0x0000, 0x0000), ("v_tanh_bf16", 0x7F80, 0x3F80),
    ("v_tanh_f16", 0x5640, 0x3C00), ("v_tanh_f16", 0x8000, 0x8000), ("v_tanh_f32", 0xC2C80000, 0xBF800000),
]


@pytest.mark.parametrize("name,x,want", UNARY_POINTS)
def test_cdna5_transcendental_exact_points(name, x, want):
    w = 32 if name.endswith("f32") else 16
    got = evaluate("cdna5", name, S0=x, D0=0xABCD0000 if w == 16 else 0)["outputs"]["D0"][0]
    assert got & ((1 << w) - 1) == want, (name, hex(x), hex(got))
    if w == 16:
        assert got >> 16 == 0xABCD  # the high half is kept
    assert fidelity.fidelity("cdna5", name)[0] == "untested"


def test_cdna5_nan_in_nan_out():
    for name in ("v_log_bf16", "v_sqrt_bf16"):
        got = evaluate("cdna5", name, S0=0xBF80)["outputs"]["D0"][0] & 0xFFFF  # of -1
        assert math.isnan(_bf(got))


# ------------------------------------------------------------------ no-ops, counter waits, older MFMAs

@pytest.mark.parametrize("arch,name,ops", [("rdna4", "v_nop", {}), ("rdna1", "v_pipeflush", {}),
                                           ("rdna4", "s_sleep_var", {"S0": 5}),
                                           ("rdna3.5", "s_waitcnt_vmcnt", {"S0": 1, "SIMM16": 3}),
                                           ("rdna1", "s_waitcnt_lgkmcnt", {"SIMM16": 0})])
def test_instructions_without_register_effects(arch, name, ops):
    res = evaluate(arch, name, **ops)
    assert res["outputs"] == {} and res["state"]["changed"] == []
    assert fidelity.fidelity(arch, name)[0] == "exact"


OLD_MFMA = [("v_mfma_f32_32x32x2bf16", 2, "bf16"), ("v_mfma_f32_16x16x2bf16", 2, "bf16"),
            ("v_mfma_f32_4x4x2bf16", 2, "bf16"), ("v_mfma_f32_32x32x4bf16", 4, "bf16"),
            ("v_mfma_f32_16x16x8bf16", 8, "bf16"), ("v_mfma_i32_32x32x8i8", 8, "i8"),
            ("v_mfma_i32_16x16x16i8", 16, "i8")]


@pytest.mark.parametrize("name,k,ty", OLD_MFMA)
def test_older_cdna_mfmas(name, k, ty):
    """Uniform A, B and C: every element of D = K*a*b + c whatever the layout (bf16 1.5 * -2 + 0.25; i8 3 * -2 + 5)."""
    from gpuisa.semantics import compiler

    for arch in ("cdna1", "cdna2"):
        w = compiler.program(arch, name).widths
        if ty == "bf16":
            ops = dict(S0=_repeat_bits(0x3FC0, 16, w["S0"]), S1=_repeat_bits(0xC000, 16, w["S1"]),
                       S2=_repeat_bits(0x3E800000, 32, w["S2"]))
            want = struct.unpack("<I", struct.pack("<f", k * 1.5 * -2.0 + 0.25))[0]
        else:
            ops = dict(S0=_repeat_bits(3, 8, w["S0"]), S1=_repeat_bits(0xFE, 8, w["S1"]), S2=_repeat_bits(5, 32, w["S2"]))
            want = (k * 3 * -2 + 5) & 0xFFFFFFFF
        for lane in evaluate(arch, name, **ops)["outputs"]["D0"]:
            assert all((lane >> (32 * i)) & 0xFFFFFFFF == want for i in range(w["D0"] // 32)), (arch, name)
        assert fidelity.fidelity(arch, name)[0] == "untested"


@pytest.mark.parametrize("arch", ["cdna1", "cdna3", "cdna4"])
def test_set_gpr_idx_on(arch):
    rng = random.Random(arch)
    for _ in range(8):
        s0, field, m0 = rng.getrandbits(32), rng.getrandbits(4), rng.getrandbits(32)
        out = evaluate(arch, "s_set_gpr_idx_on", S0=s0, SRC1=field, M0=m0)["outputs"]
        want = sum(((s0 >> i) & 1) << i for i in range(8)) + sum(((field >> i) & 1) << (12 + i) for i in range(4))
        want += sum(((m0 >> i) & 1) << i for i in list(range(8, 12)) + list(range(16, 32)))
        assert out["M0"] == [want] and out["GPR_IDX_EN"] == [1]


@pytest.mark.parametrize("kind,one,minus_two,half", [("fp6", 0x08, 0x30, 0x04), ("bf6", 0x0C, 0x30, 0x08)])
def test_cdna4_interleaved_scaled_6bit_conversions(kind, one, minus_two, half):
    """Codes worked out by hand: FP6 E2M3 (bias 1) and BF6 E3M2 (bias 3); S0's value in each pair's low 6 bits."""
    name = f"v_cvt_scalef32_2xpk16_{kind}_f32"
    lanes = [_repeat_bits(0x3F800000, 32, 512), _repeat_bits(0xC0000000, 32, 512)]
    got = evaluate("cdna4", name, lanes=2, S0=lanes, S1=lanes[::-1], S2=0x3F800000)["outputs"]["D0"]
    assert got == [_repeat_bits(minus_two << 6 | one, 12, 192), _repeat_bits(one << 6 | minus_two, 12, 192)]
    # scale 2**1 (S2 = 2.0): 2.0 -> 1.0 and 1.0 -> 0.5
    got = evaluate("cdna4", name, S0=_repeat_bits(0x40000000, 32, 512), S1=_repeat_bits(0x3F800000, 32, 512),
                   S2=0x40000000)["outputs"]["D0"]
    assert got == [_repeat_bits(half << 6 | one, 12, 192)]


# codes worked out by hand: FP8 E4M3 (bias 7), BF8 E5M2 (bias 15), f16 (bias 15)
CVT8_POINTS = [
    ("v_cvt_f16_fp8", 0x38, 0x3C00), ("v_cvt_f16_fp8", 0xC0, 0xC000), ("v_cvt_f16_fp8", 0x01, 0x1800),  # 2**-9
    ("v_cvt_f16_bf8", 0x3C, 0x3C00), ("v_cvt_f16_bf8", 0x7B, 0x7B00),  # 57344, the largest BF8
    ("v_cvt_pk_f16_fp8", 0xC038, 0xC0003C00), ("v_cvt_pk_f16_bf8", 0x3CC0, 0x3C00C000),
    ("v_cvt_pk_fp8_f16", 0xC0003C00, 0xC038), ("v_cvt_pk_bf8_f16", 0x3C00C000, 0x3CC0),
    ("v_cvt_pk_fp8_f16", 0x3C403C00, 0x3838), ("v_cvt_pk_fp8_f16", 0x3CC03C00, 0x3A38),  # ties to even: 1.0625 -> 1.0, 1.1875 -> 1.25
    ("v_sat_pk4_i4_i8", 0x807F05FB, 0x875B), ("v_sat_pk4_u4_u8", 0x807F050F, 0xFF5F),
]


@pytest.mark.parametrize("name,x,want", CVT8_POINTS)
def test_cdna5_8bit_conversions_and_4bit_packing(name, x, want):
    bits = 32 if name.startswith("v_cvt_pk_f16") else 16
    got = evaluate("cdna5", name, S0=x, D0=0xABCD0000 if bits == 16 else 0)["outputs"]["D0"][0]
    assert got & ((1 << bits) - 1) == want, (name, hex(x), hex(got))
    if bits == 16:
        assert got >> 16 == 0xABCD


def test_cdna5_bf16_mixed_fma_derived_from_rdna4():
    """RDNA4's v_fma_mix* text with bf16 for f16: f32 inputs (OPSEL_HI 0) or bf16 halves (OPSEL_HI set, OPSEL
    picks the high half); one rounding to bf16 for mixlo/mixhi (1 + 2**-8 is a tie: to even, 1.0)."""
    f = {"one": 0x3F800000, "tie": 0x3B800000, "above": 0x3B800800}
    lo = evaluate("cdna5", "v_fma_mixlo_bf16", lanes=2, S0=[f["one"]] * 2, S1=[f["one"]] * 2,
                  S2=[f["tie"], f["above"]], D0=[0xABCD0000] * 2)["outputs"]["D0"]
    assert lo == [0xABCD3F80, 0xABCD3F81]
    hi = evaluate("cdna5", "v_fma_mixhi_bf16", S0=0x3FC00000, S1=0x40000000, S2=0x3F800000, OPSEL=7, OPSEL_HI=7,
                  D0=0xABCD)["outputs"]["D0"]
    assert hi == [0x4080ABCD]  # 1.5 * 2 + 1 = 4 from the high bf16 halves, into D0[31:16]
    mix = evaluate("cdna5", "v_fma_mix_f32_bf16", S0=0x3FC0, S1=0xC000, S2=0x3F800000, OPSEL_HI=3)["outputs"]["D0"]
    assert mix == [0xC0000000]  # 1.5 * -2 + 1.0 (S2 read as f32) = -2
    assert "RDNA4" in fidelity.fidelity("cdna5", "v_fma_mix_f32_bf16")[1]


@pytest.mark.parametrize("name,want", [("v_pk_max3_num_f16", 0x00004000), ("v_pk_min3_num_f16", 0x8000C000)])
def test_cdna5_packed_three_way_min_max_num(name, want):
    # low halves 1, 2, -2; high halves NaN, -0, +0 (the NaN loses; -0 < +0)
    got = evaluate("cdna5", name, S0=0x7E003C00, S1=0x80004000, S2=0x0000C000)["outputs"]["D0"]
    assert got == [want]
    got = evaluate("cdna5", name, S0=0x7E007E00, S1=0x7E007E00, S2=0x7E003C00)["outputs"]["D0"][0]
    assert got & 0xFFFF == 0x3C00 and math.isnan(struct.unpack("<e", struct.pack("<H", got >> 16))[0])
