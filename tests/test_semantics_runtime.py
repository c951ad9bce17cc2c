"""The run-time helpers' fast paths agree with plain Python integer arithmetic.

``runtime`` takes a shortcut when a value is an int64 numpy array (narrowing casts instead
of masks, precomputed lane masks, a byte table for bit reversal); ``fastpaths`` steps the
v_prng_b32 sequence in closed form.  Each is checked here against an independent
definition written with Python ints on random values and edge values (0, -1, INT64_MIN,
INT64_MAX, single bits), for every width the pseudocode uses.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpuisa.semantics import fastpaths, floats
from gpuisa.semantics import runtime as rt

RNG = random.Random(20261130)
EDGES = [0, -1, 1, -(1 << 63), (1 << 63) - 1, 1 << 31, (1 << 32) - 1, 1 << 62, -(1 << 31), 0x5555555555555555]
VALUES = EDGES + [RNG.getrandbits(64) - (1 << 63) for _ in range(300)]
ARR = np.array(VALUES, dtype=np.int64)
WIDTHS = [1, 4, 7, 8, 16, 24, 32, 33, 48, 63, 64]


def unsigned(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def signed(v: int, w: int) -> int:
    u = unsigned(v, w)
    return u - (1 << w) if u >> (w - 1) else u


def as_i64(v: int) -> int:
    return signed(v, 64)


@pytest.mark.parametrize("w", WIDTHS)
def test_views(w):
    assert rt.view_u(ARR, w).tolist() == [as_i64(unsigned(v, w)) for v in VALUES]
    assert rt.view_i(ARR, w).tolist() == [signed(v, w) for v in VALUES]


@pytest.mark.parametrize("lo,w", [(0, 1), (0, 16), (0, 32), (5, 1), (8, 8), (16, 16), (31, 1), (32, 32), (40, 24), (63, 1),
                                  (24, 8), (56, 8), (48, 16), (0, 8)])
def test_getbits_and_setbits(lo, w):
    got = rt.getbits(ARR, lo, w).tolist()
    # bits above bit 63 of a negative int64 read as copies of the sign bit (an arithmetic shift)
    assert got == [as_i64(unsigned(v >> lo, w)) for v in VALUES]
    new = np.array(list(reversed(VALUES)), dtype=np.int64)
    out = rt.setbits(ARR, lo, w, new).tolist()
    keep = ~(((1 << w) - 1) << lo)
    assert out == [as_i64((v & keep) | (unsigned(n, w) << lo)) for v, n in zip(VALUES, reversed(VALUES))]


@pytest.mark.parametrize("w", [1, 8, 16, 24, 32, 64])
def test_bit_reverse(w):
    expect = [as_i64(int(f"{unsigned(v, w):0{w}b}"[::-1], 2)) for v in VALUES]
    assert rt.bitrev(ARR, w).tolist() == expect


class _Lanes:
    def __init__(self, n):
        self.L = n
        self.lane = np.arange(n, dtype=np.int64)
        self.lane_keep = ~np.left_shift(np.int64(1), self.lane)


@pytest.mark.parametrize("lanes", [32, 64])
def test_lane_bits(lanes):
    C = _Lanes(lanes)
    old = ARR[:lanes]
    bit = np.array([RNG.getrandbits(1) for _ in range(lanes)], dtype=np.int64)
    got = rt.set_lane_bit(old, bit, C).tolist()
    assert got == [as_i64((v & ~(1 << i)) | (int(b) << i)) for i, (v, b) in enumerate(zip(VALUES, bit))]
    assert rt.lane_bit(old, C).tolist() == [unsigned(v, 64) >> i & 1 for i, v in enumerate(VALUES[:lanes])]


def test_float_bit_views_round_trip():
    for kind, width in (("f", 16), ("f", 32), ("bf", 16), ("f", 64)):
        bits = rt.view_u(ARR, width) if width < 64 else ARR
        f = floats.from_bits(bits, kind, width)
        nan = np.isnan(f)
        back = floats.to_bits(f, kind, width)
        assert (back[~nan] == bits[~nan]).all()
        # the value matches Python's reading of the same bits for the IEEE formats
        if kind == "f" and width == 32:
            import struct

            ref = [struct.unpack("<f", struct.pack("<I", unsigned(v, 32)))[0] for v in VALUES]
            assert all((a == b) or (a != a and b != b) for a, b in zip(f.tolist(), ref))


def test_prng_chain_matches_stepping():
    seeds = [0, 1, 0x80000000, 0xFFFFFFFF, 0x7FFFFFFF] + [RNG.getrandbits(32) for _ in range(200)]
    got = fastpaths._prng_chain(np.array(seeds, dtype=np.int64), 32)
    for row, seed in zip(got.tolist(), seeds):
        r, expect = seed, []
        for _ in range(32):
            expect.append(r)
            r = ((r << 1) & 0xFFFFFFFF) ^ (197 if r >> 31 else 0)
        assert row == expect


def _fma_reference(a: float, b: float, c: float) -> float:
    """a * b + c with one rounding: exact rationals, Python's correctly rounded int division."""
    from fractions import Fraction

    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return None  # the sign of an exact zero is a separate rule (tested with the FMA family)
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


def _fma_cases(n: int):
    """Random operands with the hard cases for an emulated FMA: c cancelling the product
    (exactly, or to a few ulps), c at the product's rounding-error scale (halfway cases),
    short mantissas (exact ties), subnormal products and extreme exponents."""
    rng = np.random.default_rng(5)

    def f64(elo, ehi):
        m = np.ldexp(rng.integers(1 << 52, 1 << 53, n).astype(np.float64), -52)
        return np.where(rng.random(n) < 0.5, -1.0, 1.0) * np.ldexp(m, rng.integers(elo, ehi, n))

    with np.errstate(all="ignore"):
        a, b = f64(-500, 500), f64(-500, 500)
        p = a * b
        yield a, b, f64(-1000, 1000)
        yield a, b, -p
        yield a, b, -p * (1 + rng.integers(-3, 4, n) * 2.0 ** -52)
        yield a, b, np.ldexp(rng.integers(-16, 17, n) / 8.0, np.frexp(p)[1] - 53)
        short = lambda: np.ldexp(rng.integers(1, 1 << 27, n).astype(np.float64), rng.integers(-40, 40, n))  # noqa: E731
        yield short(), short(), np.ldexp(rng.integers(-(1 << 53), 1 << 53, n).astype(np.float64), rng.integers(-40, 40, n))
        yield f64(-1074, -900), f64(-300, 300), f64(-1074, -1000)
        yield f64(400, 1023), f64(400, 1023), f64(900, 1023)


def test_fma64_is_correctly_rounded_on_hard_cases():
    checked = 0
    for a, b, c in _fma_cases(4000):
        got = floats.fma(a, b, c, "f", 64)
        for x, y, z, g in zip(a.tolist(), b.tolist(), c.tolist(), got.tolist()):
            want = _fma_reference(x, y, z)
            if want is not None:
                assert np.float64(g).view(np.int64) == np.float64(want).view(np.int64), (x, y, z, g, want)
                checked += 1
    assert checked > 20000
