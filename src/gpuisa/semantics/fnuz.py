"""CDNA3's (gfx940-942) FP8/BF8 conversions in the FNUZ formats, as the project's own formulations.

The pseudocode source describes the 8-bit float conversions only for the OCP formats of CDNA4 and
RDNA4 (E4M3 bias 7 with S.1111.111 NaN, E5M2 bias 15 with infinities).  CDNA3 reads and writes the
FNUZ variants: E4M3 with exponent bias 8 and E5M2 with bias 16, no infinities, no negative zero, and
one NaN, the code 0x80 (sign set, all else clear).  The operand selection is CDNA4's (byte/word by the
SDWA select or the whole dword, the destination byte/word by op_sel), the values are FNUZ's:

* decoding (v_cvt_f32_fp8/bf8, v_cvt_pk_f32_fp8/bf8): every code but 0x80 exactly; 0x80 gives a NaN;
* encoding (v_cvt_pk_fp8/bf8_f32): round to nearest even on the format's grid; a value that rounds
  beyond the largest finite one (240 for FP8, 57344 for BF8), an infinity or a NaN gives 0x80; a value
  that rounds to zero gives 0x00 whatever its sign;
* stochastic rounding (v_cvt_sr_fp8/bf8_f32): S1[31:11] added to the f32 mantissa (wrapping within
  it), then encoded as above, as CDNA4's pseudocode describes it for OCP.

``covers(arch, name)`` is true for these instructions on the FNUZ generations only.
"""

from __future__ import annotations

import re

import numpy as np

from .compiled import Program
from .types import Ty

FNUZ_ARCHS = frozenset({"cdna3"})
FORMATS = {"fp8": (4, 3, 8), "bf8": (5, 2, 16)}  # exponent bits, mantissa bits, bias
NAN_CODE = 0x80
_NAMES = re.compile(r"^v_cvt_(f32|pk_f32|pk|sr)_(fp8|bf8)(_f32)?$")


def _shape(name: str):
    """(kind: decode|pk_decode|encode|sr, format) for a covered name, else None."""
    m = _NAMES.match(name)
    if m is None or (m.group(1) in ("pk", "sr")) != bool(m.group(3)):
        return None
    return {"f32": "decode", "pk_f32": "pk_decode", "pk": "encode", "sr": "sr"}[m.group(1)], m.group(2)


def covers(arch: str, name: str) -> bool:
    return arch in FNUZ_ARCHS and _shape(name) is not None


def largest(fmt: str) -> float:
    eb, mb, bias = FORMATS[fmt]
    return (2.0 - 2.0 ** -mb) * 2.0 ** ((1 << eb) - 1 - bias)


def decode(codes, fmt: str) -> np.ndarray:
    """f32 bits of FNUZ codes (0x80: the quiet NaN 0x7FC00000)."""
    eb, mb, bias = FORMATS[fmt]
    c = np.asarray(codes).astype(np.int64) & 0xFF
    e, m = (c >> mb) & ((1 << eb) - 1), c & ((1 << mb) - 1)
    mag = np.where(e == 0, m * 2.0 ** (1 - bias - mb), (1.0 + m / (1 << mb)) * np.exp2(e - bias))
    val = np.where(c >> 7 == 1, -mag, mag).astype(np.float32)
    bits = val.view(np.int32).astype(np.int64) & 0xFFFFFFFF
    return np.where(c == NAN_CODE, 0x7FC00000, bits)


def encode(x, fmt: str) -> np.ndarray:
    """FNUZ codes of float values, rounded to nearest even (ties to the even quantum multiple)."""
    eb, mb, bias = FORMATS[fmt]
    x = np.asarray(x, dtype=np.float64)
    a = np.abs(np.where(np.isfinite(x), x, 0.0))
    emin = 1 - bias
    _, k = np.frexp(a)  # a = f * 2**k, 0.5 <= f < 1: exponent k - 1 (zero: k = 0)
    q = np.exp2(np.maximum(k - 1, emin) - mb)  # the grid's step at a's binade
    r = np.rint(a / q) * q  # exact: a / q has at most 24 significant bits
    _, k2 = np.frexp(r)
    exp = np.maximum(k2 - 1, emin)
    normal = r >= 2.0 ** emin
    man = np.where(normal, r / np.exp2(exp) - 1.0, r / 2.0 ** emin) * (1 << mb)
    code = np.where(normal, ((exp + bias) << mb), 0) + man.astype(np.int64)
    code = np.where(np.signbit(x) & (code != 0), code | 0x80, code)
    bad = ~np.isfinite(x) | (r > largest(fmt))
    return np.where(bad, NAN_CODE, code).astype(np.int64)


def _f32(R, reg: str) -> np.ndarray:
    bits = np.asarray(R[reg]).astype(np.int64) & 0xFFFFFFFF
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def _set_d0(R, _m, new):
    if _m is not None and _m is not False:
        new = np.where(_m, new, np.asarray(R["D0"]).astype(np.int64))
    R["D0"] = new
    return R


def _decoder(fmt: str, packed: bool):
    def run(R, _m, C):
        s0 = np.asarray(R["S0"]).astype(np.int64)
        sel = np.asarray(R["SDWA_SRC0_SEL"]).astype(np.int64)
        if packed:  # word 1 where the select's low bits say WORD_1 (5), else word 0
            word = np.where(sel & 3 == 1, s0 >> 16, s0) & 0xFFFF
            lo, hi = decode(word & 0xFF, fmt).astype(np.uint64), decode(word >> 8, fmt).astype(np.uint64)
            return _set_d0(R, _m, (lo | (hi << np.uint64(32))).view(np.int64))
        byte = np.where((sel >= 1) & (sel <= 3), sel, 0)  # BYTE_1..3, else byte 0
        return _set_d0(R, _m, decode(s0 >> (8 * byte), fmt))
    return run


def _encoder(fmt: str):
    def run(R, _m, C):
        word = encode(_f32(R, "S0"), fmt) | (encode(_f32(R, "S1"), fmt) << 8)
        shift = np.where((np.asarray(R["OPSEL"]).astype(np.int64) >> 3) & 1, 16, 0)
        old = np.asarray(R["D0"]).astype(np.int64)
        return _set_d0(R, _m, (old & ~(0xFFFF << shift)) | (word << shift))
    return run


def _stochastic(fmt: str):
    def run(R, _m, C):
        bits = np.asarray(R["S0"]).astype(np.int64) & 0xFFFFFFFF
        rand = (np.asarray(R["S1"]).astype(np.int64) & 0xFFFFFFFF) >> 11
        bits = (bits & ~0x7FFFFF) | ((bits + rand) & 0x7FFFFF)  # the mantissa plus the random bits, wrapped
        code = encode(bits.astype(np.uint32).view(np.float32).astype(np.float64), fmt)
        shift = 8 * ((np.asarray(R["OPSEL"]).astype(np.int64) >> 2) & 3)
        old = np.asarray(R["D0"]).astype(np.int64)
        return _set_d0(R, _m, (old & ~(0xFF << shift)) | (code << shift))
    return run


_WHY = ("runs the project's formulation in CDNA3's FNUZ format (E4M3 bias 8, E5M2 bias 16, no infinities, no -0, "
        "0x80 the only NaN; the pseudocode source describes only the OCP formats of CDNA4 and RDNA4): ")
_WHY_DECODE = _WHY + "every code decoded exactly, 0x80 to a NaN; checked against the format's definition"
_WHY_ENCODE = (_WHY + "rounded to nearest even on the format's grid (checked against the format's definition); "
               "beyond the largest finite value, infinities and NaN give 0x80 (no infinity to saturate to; "
               "not checked against hardware), a result of zero is +0")
_WHY_SR = (_WHY + "S1[31:11] added to the f32 mantissa, then rounded to nearest even as CDNA4's pseudocode does "
           "for OCP; not checked against hardware")


def fidelity(arch: str, name: str) -> tuple[str, str] | None:
    shape = _shape(name) if arch in FNUZ_ARCHS else None
    if shape is None:
        return None
    kind = shape[0]
    if kind in ("decode", "pk_decode"):
        return "exact", _WHY_DECODE
    return ("untested", _WHY_ENCODE) if kind == "encode" else ("untested", _WHY_SR)


def description(name: str) -> str:
    return "(no pseudocode in the source for the FNUZ formats: the project's own formulation runs, as the " \
           "fidelity reason describes)"


def program(arch: str, name: str, entry) -> Program:
    shape = _shape(name)
    assert shape is not None  # callers check covers()
    kind, fmt = shape
    f32 = Ty("f", 32)
    if kind in ("decode", "pk_decode"):
        fn = _decoder(fmt, kind == "pk_decode")
        widths = {"S0": 32, "SDWA_SRC0_SEL": 3, "D0": 64 if kind == "pk_decode" else 32}
        reads, formats, op_class = {"S0", "SDWA_SRC0_SEL"}, {"D0": f32}, "VOP1Op"
    else:
        fn = _encoder(fmt) if kind == "encode" else _stochastic(fmt)
        widths = {"S0": 32, "S1": 32, "OPSEL": 4, "D0": 32}
        reads = {"S0", "S1", "OPSEL", "D0"}
        formats = {"S0": f32, "S1": f32} if kind == "encode" else {"S0": f32}
        op_class = "VOP3Op"
    return Program(arch, name, entry.op_class if entry else op_class, entry.text if entry else description(name),
                   fn, entry.source if entry else "", False, reads, {"D0"}, widths, formats, set(), False, None,
                   set(reads) - {"D0"}, set(), f"# formulation: {name} (FNUZ)")
