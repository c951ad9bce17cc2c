"""8-bit float conversions (FP8 E4M3, BF8 E5M2; OCP formats on RDNA4 and CDNA4) against the formats' definitions.

Decoding: every one of the 256 codes, its value computed here from sign, exponent and mantissa fields
(E4M3: bias 7, no infinities, S.1111.111 NaN; E5M2: bias 15, IEEE-style infinities and NaNs).  Encoding:
f32 values inside each format's range rounded to nearest even over the format's exact grid, computed
with ``fractions``.  Run through ``evaluate_encoded`` (plain VOP1/VOP3 forms: byte or word 0 selected).
"""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import pytest

from gpuisa.semantics import sources
from gpuisa.semantics.encoded import evaluate_encoded

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

ARCHS = (("rdna4", 32), ("cdna4", 64))
FORMATS = {"fp8": (4, 3, 7), "bf8": (5, 2, 15)}  # exponent bits, mantissa bits, bias


def decode(code: int, fmt: str) -> float:
    eb, mb, bias = FORMATS[fmt]
    sign = -1.0 if code >> 7 else 1.0
    e, m = (code >> mb) & ((1 << eb) - 1), code & ((1 << mb) - 1)
    if fmt == "fp8" and e == 15 and m == 7:
        return math.nan
    if fmt == "bf8" and e == 31:
        return sign * math.inf if m == 0 else math.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mb)
    return sign * (1 + m / (1 << mb)) * 2.0 ** (e - bias)


def grid(fmt: str) -> list[tuple[Fraction, int]]:
    """Every finite non-negative value of the format with its code, ascending."""
    return sorted((Fraction(decode(c, fmt)), c) for c in range(128) if math.isfinite(decode(c, fmt)))


def encode(x: float, fmt: str) -> int | None:
    """x rounded to nearest even onto the format (None beyond its largest finite value)."""
    vals = grid(fmt)
    a = abs(Fraction(x))
    if a > vals[-1][0]:
        return None
    sign = 0x80 if math.copysign(1, x) < 0 else 0
    for (lo, cl), (hi, ch) in zip(vals, vals[1:]):
        if lo <= a <= hi:
            if a - lo < hi - a or (a - lo == hi - a and cl % 2 == 0):
                return sign | cl
            return sign | ch
    return sign | vals[-1][1]


def f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def run(arch, wave, text, regs, n):
    out = []
    for i in range(0, n, wave):
        chunk = {k: v[i:i + wave] for k, v in regs.items()}
        res = evaluate_encoded(arch, text, chunk, lanes=len(next(iter(chunk.values()))))
        out.append(res["writes"])
    return out


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_decode_every_code(fmt):
    codes = list(range(256))
    for arch, wave in ARCHS:
        got = [v for w in run(arch, wave, f"v_cvt_f32_{fmt} v1, v2", {"V2": codes}, 256) for v in w["V1"]]
        for c, g in zip(codes, got):
            want = decode(c, fmt)
            if math.isnan(want):
                assert (g >> 23) & 0xFF == 0xFF and g & 0x7FFFFF, (arch, fmt, hex(c), hex(g))
            else:
                assert g == f32(want), (arch, fmt, hex(c), hex(g), want)
        pairs = [c | (c ^ 0x5A) << 8 for c in codes]  # packed: bytes 0 and 1 of word 0
        res = run(arch, wave, f"v_cvt_pk_f32_{fmt} v[2:3], v4", {"V4": pairs}, 256)
        got = [v for w in res for v in w["V[2:3]"]]
        for p, g in zip(pairs, got):
            for half, code in ((g & 0xFFFFFFFF, p & 0xFF), (g >> 32, p >> 8)):
                want = decode(code, fmt)
                ok = ((half >> 23) & 0xFF == 0xFF and half & 0x7FFFFF) if math.isnan(want) else half == f32(want)
                assert ok, (arch, fmt, hex(p), hex(g))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_encode_rounds_to_nearest_even(fmt):
    rng = random.Random(len(fmt) + ord(fmt[0]))
    top = float(grid(fmt)[-1][0])
    xs = [float(v) for v, _ in grid(fmt)] + [(float(a) + float(b)) / 2 for (a, _), (b, _) in zip(grid(fmt), grid(fmt)[1:])]
    xs += [rng.uniform(-top, top) for _ in range(120)] + [rng.uniform(-1, 1) * 2.0 ** rng.randrange(-20, 0) for _ in range(60)]
    xs = [struct.unpack("<f", struct.pack("<f", x))[0] for x in xs]
    xs = [x for x in xs if encode(x, fmt) is not None]
    ys = xs[::-1]
    for arch, wave in ARCHS:
        res = run(arch, wave, f"v_cvt_pk_{fmt}_f32 v1, v2, v3", {"V2": [f32(x) for x in xs], "V3": [f32(y) for y in ys],
                                                                 "V1": [0xABCD0000] * len(xs)}, len(xs))
        got = [v for w in res for v in w["V1"]]
        for x, y, g in zip(xs, ys, got):
            want = encode(x, fmt) | encode(y, fmt) << 8 | 0xABCD0000  # bits 31:16 kept
            assert g == want, (arch, fmt, x, y, hex(g), hex(want))


def test_cdna3_fnuz_formats_are_not_taken_from_cdna4():
    """CDNA3 (gfx940-942) uses the FNUZ variants (E4M3 bias 8: code 0x08 is 2**-7, not OCP's 2**-6; 0x80 is NaN,
    not -0): its conversions run the FNUZ formulation (tests/test_semantics_reference_fnuz.py), not CDNA4's OCP
    pseudocode; its FP8 matrix operations say why they do not run."""
    from gpuisa.semantics import fidelity
    from gpuisa.semantics.wave import EvalError, evaluate

    assert decode(0x08, "fp8") == 2.0 ** -6 and math.copysign(1, decode(0x80, "fp8")) < 0  # OCP, for contrast
    assert evaluate("cdna3", "v_cvt_f32_fp8", S0=0x08)["outputs"]["D0"] == [f32(2.0 ** -7)]
    assert fidelity.fidelity("cdna3", "v_cvt_f32_fp8")[0] == "exact"
    assert "FNUZ" in fidelity.fidelity("cdna3", "v_cvt_pk_fp8_f32")[1]
    with pytest.raises(EvalError, match="FNUZ"):
        evaluate("cdna3", "v_mfma_f32_16x16x32_fp8_fp8", S0=0x08)
    level, why = fidelity.fidelity("cdna3", "v_mfma_f32_16x16x32_fp8_fp8")
    assert level == "unsupported" and "FNUZ" in why, (level, why)
    assert fidelity.fidelity("cdna4", "v_cvt_f32_fp8")[0] == "exact"
