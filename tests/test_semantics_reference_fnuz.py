"""CDNA3's (gfx940-942) FP8/BF8 conversions in the FNUZ formats against the formats' definitions, and CDNA4's
SDWA forms of the OCP decodes (byte/word select, 64-bit result).

FNUZ: E4M3 exponent bias 8, E5M2 bias 16, no infinities, no negative zero, 0x80 the one NaN.  Decoding: all
256 codes, the value computed here from sign, exponent and mantissa fields.  Encoding: f32 values rounded to
nearest even over the format's exact grid with ``fractions``; a value at or beyond the midpoint above the
largest finite value (whose code is odd, so the tie goes up), infinities and NaN give 0x80; a result of zero
is 0x00 whatever the sign.  CDNA3 runs through ``wave.evaluate`` (operands by name).
"""

from __future__ import annotations

import bisect
import functools
import math
import random
import struct
from fractions import Fraction

import pytest
from test_semantics_reference_fp8 import decode as ocp_decode
from test_semantics_reference_fp8 import f32

from gpuisa.semantics import sources
from gpuisa.semantics.encoded import evaluate_encoded
from gpuisa.semantics.wave import evaluate

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

FNUZ = {"fp8": (4, 3, 8), "bf8": (5, 2, 16)}  # exponent bits, mantissa bits, bias


def value(code: int, fmt: str) -> Fraction | None:
    """The code's exact value (None: NaN)."""
    if code == 0x80:
        return None
    eb, mb, bias = FNUZ[fmt]
    e, m = (code >> mb) & ((1 << eb) - 1), code & ((1 << mb) - 1)
    mag = Fraction(m, 1 << mb) * Fraction(2) ** (1 - bias) if e == 0 else (1 + Fraction(m, 1 << mb)) * Fraction(2) ** (e - bias)
    return -mag if code >> 7 else mag


@functools.lru_cache(maxsize=None)
def grid(fmt: str) -> list:
    """(value, code) of the non-negative codes, ascending."""
    return sorted((value(c, fmt), c) for c in range(128))


def encode(x: float, fmt: str) -> int:
    if not math.isfinite(x):
        return 0x80
    g = grid(fmt)
    top, below = g[-1][0], g[-2][0]
    a = abs(Fraction(x))
    if a >= top + (top - below) / 2:
        return 0x80
    i = bisect.bisect_left(g, (a, -1))
    near = g[max(i - 1, 0):i + 1]
    best = min(near, key=lambda vc: (abs(vc[0] - a), vc[1] & 1))  # nearest, ties to the even code
    return best[1] | (0x80 if x < 0 and best[1] else 0)


def f32_bits(v: Fraction) -> int:
    return f32(float(v))


@pytest.mark.parametrize("fmt", sorted(FNUZ))
def test_fnuz_decode_every_code(fmt):
    codes = list(range(256))
    for sel in range(4):  # SDWA_SRC0_SEL BYTE_0..3
        words = [(c << (8 * sel)) | (0x5A5A5A5A & ~(0xFF << (8 * sel))) for c in codes]
        got = []
        for i in range(0, 256, 64):
            got += evaluate("cdna3", f"v_cvt_f32_{fmt}", lanes=64, S0=words[i:i + 64], SDWA_SRC0_SEL=sel)["outputs"]["D0"]
        for c, g in zip(codes, got):
            want = value(c, fmt)
            ok = ((g >> 23) & 0xFF == 0xFF and g & 0x7FFFFF) if want is None else g == f32_bits(want)
            assert ok, (fmt, sel, hex(c), hex(g))
    for sel, shift in ((4, 0), (5, 16)):  # WORD_0, WORD_1: two codes each
        words = [((c | (c ^ 0x3C) << 8) << shift) for c in codes]
        got = []
        for i in range(0, 256, 64):
            got += evaluate("cdna3", f"v_cvt_pk_f32_{fmt}", lanes=64, S0=words[i:i + 64], SDWA_SRC0_SEL=sel)["outputs"]["D0"]
        for c, g in zip(codes, got):
            for half, code in ((g & 0xFFFFFFFF, c), (g >> 32, c ^ 0x3C)):
                want = value(code, fmt)
                ok = ((half >> 23) & 0xFF == 0xFF and half & 0x7FFFFF) if want is None else half == f32_bits(want)
                assert ok, (fmt, sel, hex(c), hex(g))


def samples(fmt: str, rng: random.Random) -> list[float]:
    vals = [value(c, fmt) for c in range(128)]
    top = float(max(v for v in vals if v is not None))
    finite = sorted(v for v in vals if v is not None)
    xs = [float(v) for v in finite] + [float((a + b) / 2) for a, b in zip(finite, finite[1:])]
    step = float(finite[-1] - finite[-2])
    xs += [top + step / 2, top + step / 2 - step / 64, top * 4, math.inf, -math.inf, math.nan, -0.0, -1e-30]
    xs += [rng.uniform(-top * 1.1, top * 1.1) for _ in range(80)]
    xs += [rng.uniform(-1, 1) * 2.0 ** rng.randrange(-26, 0) for _ in range(60)]
    return [struct.unpack("<f", struct.pack("<f", x))[0] for x in xs]


@pytest.mark.parametrize("fmt", sorted(FNUZ))
def test_fnuz_encode_rounds_to_nearest_even(fmt):
    rng = random.Random(len(fmt) * 7 + ord(fmt[0]))
    xs = samples(fmt, rng)
    ys = xs[::-1]
    for opsel, shift in ((0, 0), (8, 16)):
        for i in range(0, len(xs), 64):
            a, b = xs[i:i + 64], ys[i:i + 64]
            out = evaluate("cdna3", f"v_cvt_pk_{fmt}_f32", lanes=len(a), S0=[f32(x) for x in a], S1=[f32(y) for y in b],
                           OPSEL=opsel, D0=[0x12345678] * len(a))["outputs"]["D0"]
            for x, y, g in zip(a, b, out):
                want = (0x12345678 & ~(0xFFFF << shift)) | ((encode(x, fmt) | encode(y, fmt) << 8) << shift)
                assert g == want, (fmt, opsel, x, y, hex(g), hex(want))


@pytest.mark.parametrize("fmt", sorted(FNUZ))
def test_fnuz_stochastic_rounding_adds_to_the_mantissa(fmt):
    """S1[31:11] added to the f32 mantissa (wrapping inside it), then rounded to nearest even; the byte by op_sel[3:2]."""
    rng = random.Random(ord(fmt[0]))
    xs = samples(fmt, rng)[:64]
    rs = [rng.getrandbits(32) if i % 3 else 0 for i in range(len(xs))]
    for byte in range(4):
        out = evaluate("cdna3", f"v_cvt_sr_{fmt}_f32", lanes=len(xs), S0=[f32(x) for x in xs], S1=rs,
                       OPSEL=byte << 2, D0=[0x5A5A5A5A] * len(xs))["outputs"]["D0"]
        for x, r, g in zip(xs, rs, out):
            bits = f32(x)
            bits = (bits & ~0x7FFFFF) | ((bits + (r >> 11)) & 0x7FFFFF)
            code = encode(struct.unpack("<f", struct.pack("<I", bits))[0], fmt)
            assert g == (0x5A5A5A5A & ~(0xFF << 8 * byte)) | code << 8 * byte, (fmt, byte, x, hex(r), hex(g))


def test_cdna4_sdwa_select_of_ocp_decodes():
    """CDNA4's SDWA forms select the byte (or word) the conversion reads; the packed form writes both dwords."""
    words = [0x38403830, 0x7F80FF01, 0x01020304, 0xC0B8A890]
    for fmt in ("fp8", "bf8"):
        for sel in range(4):
            got = evaluate_encoded("cdna4", f"v_cvt_f32_{fmt}_sdwa v1, v2 src0_sel:BYTE_{sel}", {"V2": words},
                                   lanes=4)["writes"]["V1"]
            for w, g in zip(words, got):
                want = ocp_decode((w >> 8 * sel) & 0xFF, fmt)
                assert (math.isnan(want) and (g >> 23) & 0xFF == 0xFF) or g == f32(want), (fmt, sel, hex(w), hex(g))
        for sel in range(2):
            got = evaluate_encoded("cdna4", f"v_cvt_pk_f32_{fmt}_sdwa v[4:5], v2 src0_sel:WORD_{sel}", {"V2": words},
                                   lanes=4)["writes"]["V[4:5]"]
            for w, g in zip(words, got):
                for half, code in ((g & 0xFFFFFFFF, (w >> 16 * sel) & 0xFF), (g >> 32, (w >> (16 * sel + 8)) & 0xFF)):
                    want = ocp_decode(code, fmt)
                    assert (math.isnan(want) and (half >> 23) & 0xFF == 0xFF) or half == f32(want), (fmt, sel, hex(g))


def test_fnuz_on_assembled_gfx942_code():
    """gfx942 machine code through the wave machine: SDWA byte select, op_sel word/byte of the destination."""
    words = [0x80087F01, 0x4C3C0880]
    got = evaluate_encoded("gfx942", "v_cvt_f32_fp8_sdwa v1, v2 src0_sel:BYTE_2", {"V2": words}, lanes=2)["writes"]["V1"]
    assert got[0] == f32_bits(value(0x08, "fp8")) and got[1] == f32_bits(value(0x3C, "fp8"))
    got = evaluate_encoded("gfx942", "v_cvt_pk_bf8_f32 v1, v2, v3 op_sel:[0,0,1]",
                           {"V1": [0x1234] * 2, "V2": [f32(1.0), f32(-3.0)], "V3": [f32(1e9), f32(2.0 ** -17)]},
                           lanes=2)["writes"]["V1"]
    assert got == [(0x80 << 24) | (encode(1.0, "bf8") << 16) | 0x1234, (0x01 << 24) | (encode(-3.0, "bf8") << 16) | 0x1234]
    got = evaluate_encoded("gfx942", "v_cvt_sr_fp8_f32 v1, v2, v3 op_sel:[0,0,1,1]",
                           {"V1": [0x11223344], "V2": [f32(-240.0)], "V3": [0]}, lanes=1)["writes"]["V1"]
    assert got == [0xFF223344]
