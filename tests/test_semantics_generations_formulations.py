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
