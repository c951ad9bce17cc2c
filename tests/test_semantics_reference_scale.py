"""CDNA4's (gfx950) block-scaled 8/4-bit float conversions (v_cvt_scalef32_*) against the OCP formats'
definitions and an E8M0 scale: the scale is 2**(e - 127) for the exponent field e of the scale operand's f32.

Decoding: every FP8/BF8 code (byte 0) and every FP4 (E2M1) nibble pair, value times the scale, rounded once
to f32 (the exact product has a few significant bits, so numpy's float64 -> float32 cast rounds it once).
Encoding: f32 values divided by the scale, rounded to nearest even over the format's exact grid (``fractions``)
and saturated to the largest finite value; both halves of the destination word, bits outside kept.
"""

from __future__ import annotations

import functools
import random
import struct
from fractions import Fraction

import numpy as np
import pytest
from test_semantics_reference_fp8 import decode as ocp_decode
from test_semantics_reference_fp8 import f32

from gpuisa.semantics import sources
from gpuisa.semantics.encoded import evaluate_encoded

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

FP4 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]  # E2M1 magnitudes by code (bit 3: sign)
SCALES = (127, 130, 120, 1, 250)  # exponent fields: 2**0, 2**3, 2**-7, 2**-126, 2**123


def fp4(code: int) -> float:
    return -FP4[code & 7] if code & 8 else FP4[code & 7]


def scaled_bits(value: float, e: int) -> int:
    if value != value:
        return -1
    with np.errstate(over="ignore"):
        return int(np.float32(value * 2.0 ** (e - 127)).view(np.uint32))


def same(got: int, want: int) -> bool:
    return ((got >> 23) & 0xFF == 0xFF and got & 0x7FFFFF != 0) if want == -1 else got == want


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
def test_scaled_decode(fmt):
    codes = list(range(256))
    for e in SCALES:
        scale = [e << 23] * 64
        for i in range(0, 256, 64):
            res = evaluate_encoded("cdna4", f"v_cvt_scalef32_f32_{fmt} v1, v2, v3", {"V2": codes[i:i + 64], "V3": scale},
                                   lanes=64)["writes"]["V1"]
            for c, g in zip(codes[i:i + 64], res):
                assert same(g, scaled_bits(ocp_decode(c, fmt), e)), (fmt, e, hex(c), hex(g))
            pairs = [c | ((c ^ 0x3C) << 8) for c in codes[i:i + 64]]
            res = evaluate_encoded("cdna4", f"v_cvt_scalef32_pk_f32_{fmt} v[2:3], v1, v4", {"V1": pairs, "V4": scale},
                                   lanes=64)["writes"]["V[2:3]"]
            for p, g in zip(pairs, res):
                for half, code in ((g & 0xFFFFFFFF, p & 0xFF), (g >> 32, p >> 8)):
                    assert same(half, scaled_bits(ocp_decode(code, fmt), e)), (fmt, e, hex(p), hex(g))


def test_scaled_fp4_decode():
    pairs = list(range(256))
    for e in SCALES:
        for i in range(0, 256, 64):
            res = evaluate_encoded("cdna4", "v_cvt_scalef32_pk_f32_fp4 v[2:3], v1, v4",
                                   {"V1": pairs[i:i + 64], "V4": [e << 23] * 64}, lanes=64)
            for p, g in zip(pairs[i:i + 64], res["writes"]["V[2:3]"]):
                assert g & 0xFFFFFFFF == scaled_bits(fp4(p & 15), e) and g >> 32 == scaled_bits(fp4(p >> 4), e), (e, p)


@functools.lru_cache(maxsize=None)
def grid(fmt: str) -> list[Fraction]:
    vals = [abs(Fraction(fp4(c))) for c in range(8)] if fmt == "fp4" else \
        [Fraction(ocp_decode(c, fmt)) for c in range(128) if ocp_decode(c, fmt) == ocp_decode(c, fmt)
         and abs(ocp_decode(c, fmt)) != float("inf")]
    return sorted(set(vals))


def encode(x: float, fmt: str, e: int) -> int:
    """Nearest code of x / 2**(e - 127), ties to the even code, saturated to the largest value."""
    g = grid(fmt)
    a = min(abs(Fraction(x)) / Fraction(2) ** (e - 127), g[-1])
    best = min(g, key=lambda v: (abs(v - a), code_of(v, fmt) & 1))
    code = code_of(best, fmt)
    sign = (8 if fmt == "fp4" else 0x80) if x < 0 or (x == 0 and struct.pack("<f", x)[3] & 0x80) else 0
    return code | sign


@functools.lru_cache(maxsize=None)
def code_of(v: Fraction, fmt: str) -> int:
    if fmt == "fp4":
        return FP4.index(float(v))
    return next(c for c in range(128) if Fraction(ocp_decode(c, fmt)) == v)


@pytest.mark.parametrize("fmt", ["fp8", "bf8", "fp4"])
def test_scaled_encode_rounds_and_saturates(fmt):
    rng = random.Random(ord(fmt[0]) + len(fmt))
    width = 4 if fmt == "fp4" else 8
    for e in (127, 131, 118):
        top = float(grid(fmt)[-1]) * 2.0 ** (e - 127)
        xs = [rng.uniform(-1.3 * top, 1.3 * top) for _ in range(40)] + [top * 0.75, -top / 3, 0.0, -0.0]
        xs += [float(v) * 2.0 ** (e - 127) * s for v in grid(fmt)[1:6] for s in (1, -1)]
        xs = [struct.unpack("<f", struct.pack("<f", x))[0] for x in xs]
        ys = xs[::-1]
        res = evaluate_encoded("cdna4", f"v_cvt_scalef32_pk_{fmt}_f32 v1, v2, v3, v4",
                               {"V2": [f32(x) for x in xs], "V3": [f32(y) for y in ys], "V4": [e << 23] * len(xs),
                                "V1": [0x5A5A5A5A] * len(xs)}, lanes=len(xs))["writes"]["V1"]
        keep = ~((1 << 2 * width) - 1) & 0xFFFFFFFF
        for x, y, g in zip(xs, ys, res):
            want = (0x5A5A5A5A & keep) | encode(x, fmt, e) | (encode(y, fmt, e) << width)
            assert g == want, (fmt, e, x, y, hex(g), hex(want))



def test_nan_keeps_its_sign_and_the_e8m0_nan_scale_gives_nan():
    """A NaN converts to the format's NaN with the NaN's sign (E4M3 S.1111.111, E5M2 S.11111.10; FP4 has no NaN:
    S.111) and back to a NaN of that sign; the E8M0 scale 0xFF is NaN, so every element becomes NaN."""
    pos, neg = 0x7FC00000, 0xFFC00000
    for arch in ("rdna4", "cdna4"):
        for fmt, code in (("fp8", 0x7F), ("bf8", 0x7E)):
            got = evaluate_encoded(arch, f"v_cvt_pk_{fmt}_f32 v1, v2, v3", {"V1": [0, 0], "V2": [pos, neg], "V3": [neg, pos]},
                                   lanes=2)["writes"]["V1"]
            assert got == [code | (code | 0x80) << 8, (code | 0x80) | code << 8], (arch, fmt, [hex(g) for g in got])
            got = evaluate_encoded(arch, f"v_cvt_f32_{fmt} v1, v2", {"V2": [code, code | 0x80]}, lanes=2)["writes"]["V1"]
            assert got == [pos, neg], (arch, fmt, [hex(g) for g in got])
    nan_scale = [0x7F800000, 0x7F800000]
    got = evaluate_encoded("cdna4", "v_cvt_scalef32_f32_fp8 v1, v2, v3", {"V2": [0x38, 0xB8], "V3": nan_scale},
                           lanes=2)["writes"]["V1"]
    assert got == [pos, neg]
    for fmt, code, width in (("fp8", 0x7F, 8), ("bf8", 0x7E, 8), ("fp4", 0x7, 4)):
        got = evaluate_encoded("cdna4", f"v_cvt_scalef32_pk_{fmt}_f32 v1, v2, v3, v4",
                               {"V1": [0, 0], "V2": [f32(1.0), f32(-1.0)], "V3": [f32(2.0), f32(0.0)], "V4": nan_scale},
                               lanes=2)["writes"]["V1"]
        sign = 1 << (width - 1)
        assert got == [code | code << width, (code | sign) | code << width], (fmt, [hex(g) for g in got])


CHECKED = ("v_cvt_scalef32_f32_fp8", "v_cvt_scalef32_f32_bf8", "v_cvt_scalef32_pk_f32_fp8", "v_cvt_scalef32_pk_f32_bf8",
           "v_cvt_scalef32_pk_f32_fp4", "v_cvt_scalef32_pk_fp8_f32", "v_cvt_scalef32_pk_bf8_f32",
           "v_cvt_scalef32_pk_fp4_f32")  # checked above (fidelity.REFERENCE_FAMILIES)
