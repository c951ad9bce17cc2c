"""Executable semantics of PTX floating-point arithmetic (the project's own formulation).

add sub mul fma mad div min max abs neg rcp sqrt rsqrt copysign on f16/bf16/f32/f64 and the packed
f16x2/bf16x2/f32x2 forms (lane by lane, lane 0 in the low half), with rounding modifiers .rn/.rz/.rm/.rp (default .rn), .ftz
(subnormal inputs and results become zero of the same sign), .sat (clamp to [0, 1], NaN -> +0) and
.relu (a negative result becomes +0, NaN stays NaN); the mixed-precision add/sub.f32.{f16,bf16}
d, a, c and fma.f32.{f16,bf16} d, a, b, c (a and b in the half format, c and d f32);
min/max .xorsign.abs compare magnitudes and give the result the XOR of the two sign bits.
Exact operations round the exact result once (see floatfmt).  Approximate instructions (sin cos
lg2 ex2 tanh, and the .approx/.full forms of div rcp sqrt rsqrt) return the correctly rounded value
of the real function and report ``fidelity: approximate`` with the documented error bound in our
own words: real hardware may differ from that value within the bound.
"""

from __future__ import annotations

import math
from fractions import Fraction

from . import floatfmt as ff
from .unsupported import UnsupportedInstruction

FLOAT_TYPES = (".f16", ".bf16", ".f32", ".f64", ".f16x2", ".bf16x2", ".f32x2")
ROUNDING = {".rn": "rn", ".rz": "rz", ".rm": "rm", ".rp": "rp"}
COVERED_FLOAT = ("add", "sub", "mul", "fma", "mad", "div", "min", "max", "abs", "neg", "rcp", "sqrt", "rsqrt",
                 "copysign", "sin", "cos", "lg2", "ex2", "tanh")
# error bounds of the approximate forms, as the PTX ISA states them (paraphrased)
APPROX_BOUNDS = {
    "sin": "absolute error at most 2^-20.5 for inputs in [-100*pi, +100*pi]",
    "cos": "absolute error at most 2^-20.5 for inputs in [-100*pi, +100*pi]",
    "lg2": "absolute error at most 2^-22 (f32 with .ftz: 2^-22.6 for the mantissa part)",
    "ex2": "at most 2 ulp off the exact result (f32); f16/bf16 forms about 2^-9.9 relative error",
    "tanh": "relative error at most about 2^-10.987 (f32); about 2^-8 for f16/bf16",
    "div.approx": "at most 2 ulp off for divisors of magnitude in [2^-126, 2^126]",
    "div.full": "at most 2 ulp off the exact quotient",
    "rcp.approx": "at most 1 ulp off the exact reciprocal (f32); f64 .ftz form about 2^-50 relative error",
    "sqrt.approx": "relative error at most 2^-23 (f32)",
    "rsqrt.approx": "relative error at most 2^-22.9 (f32); f64 about 2^-52.2",
}


# the types PTX defines for the approximate functions
APPROX_TYPES = {"sin": (".f32",), "cos": (".f32",), "lg2": (".f32",),
                "ex2": (".f32", ".f16", ".f16x2", ".bf16", ".bf16x2"),
                "tanh": (".f32", ".f16", ".f16x2", ".bf16", ".bf16x2")}


class Result:
    """One evaluated output: raw integer plus fidelity."""

    def __init__(self, value: int, approx: str | None = None):
        self.value, self.approx = value, approx


def float_type(toks: list[str]) -> str | None:
    for t in reversed(toks):
        if t in FLOAT_TYPES:
            return t
    return None


def float_operand(item: dict, inputs: dict, fmt: str, width: int) -> int:
    """Raw bits of a float operand: a named input, 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX (an f32 / f64 value,
    converted when the instruction's format differs), or a decimal literal; a leading `-` negates."""
    name = item.get("name", item["text"])
    raw = int(inputs[name]) & ((1 << width) - 1) if name in inputs else _literal(name, fmt, width)
    if item.get("prefix") == "-":
        raw ^= 1 << (width - 1)
    return raw


def _literal(name: str, fmt: str, width: int) -> int:
    low = name.lower()
    if low[:2] in ("0f", "0d") and len(low) in (10, 18):
        bits, own = int(low[2:], 16), (".f32" if low[1] == "f" else ".f64")
        if own == fmt or fmt not in ff.FORMATS:
            return bits
        return ff.encode(ff.decode(bits, own), fmt)
    try:
        if "." in name or "e" in low:
            return ff.encode(ff.from_float(float(name)), fmt)
        return int(name, 0) & ((1 << width) - 1)
    except ValueError:
        raise UnsupportedInstruction(f"no input value for operand {name!r}") from None


def _add(x, y, mode):
    if x[0] == "nan" or y[0] == "nan":
        return ff.NAN
    if x[0] == "inf" or y[0] == "inf":
        if x[0] == y[0] == "inf" and x[1] != y[1]:
            return ff.NAN
        return x if x[0] == "inf" else y
    s = ff.signed(x) + ff.signed(y)
    if s == 0:
        if x[2] == 0 and y[2] == 0:
            sign = (x[1] | y[1]) if mode == "rm" else (x[1] & y[1])
        else:
            sign = int(mode == "rm")
        return ("num", sign, Fraction(0))
    return ("num", int(s < 0), abs(s))


def _mul(x, y):
    if x[0] == "nan" or y[0] == "nan":
        return ff.NAN
    sign = x[1] ^ y[1]
    if "inf" in (x[0], y[0]):
        if (x[0] == "num" and x[2] == 0) or (y[0] == "num" and y[2] == 0):
            return ff.NAN
        return ("inf", sign, Fraction(0))
    return ("num", sign, x[2] * y[2])


def _div(x, y):
    if x[0] == "nan" or y[0] == "nan":
        return ff.NAN
    sign = x[1] ^ y[1]
    if x[0] == "inf":
        return ff.NAN if y[0] == "inf" else ("inf", sign, Fraction(0))
    if y[0] == "inf":
        return ("num", sign, Fraction(0))
    if y[2] == 0:
        return ff.NAN if x[2] == 0 else ("inf", sign, Fraction(0))
    return ("num", sign, x[2] / y[2])


def _div_approx_large(x, y):
    """div.approx computes a * (1/b), whose reciprocal is flushed to zero for 2^126 < |b| < 2^128: the
    document gives 0 there (NaN for an infinite a); None for any other divisor."""
    if y[0] != "num" or not Fraction(2) ** 126 < y[2] < Fraction(2) ** 128 or x[0] == "nan":
        return None
    return ff.NAN if x[0] == "inf" else ("num", x[1] ^ y[1], Fraction(0))


def _sqrt(x, m_bits):
    if x[0] == "nan" or (x[1] and not (x[0] == "num" and x[2] == 0)):
        return ff.NAN
    if x[0] == "inf" or x[2] == 0:
        return x
    return ("num", 0, ff.sqrt_exact(x[2], m_bits))


def _minmax(op, x, y, nan_mode):
    xn, yn = x[0] == "nan", y[0] == "nan"
    if xn or yn:
        if nan_mode or (xn and yn):
            return ff.NAN
        return y if xn else x

    def key(v):
        return (math.inf if v[0] == "inf" else ff.signed(v)) * (-1 if v[0] == "inf" and v[1] else 1), -v[1]

    kx, ky = key(x), key(y)
    if op == "min":
        return x if kx <= ky else y
    return x if kx >= ky else y


def _minmax_result(op: str, mods: set, fmt: str, raws: list[int], vals: list) -> Result:
    """min/max of two or three values (already flushed under .ftz): .abs compares magnitudes,
    .xorsign.abs gives the result the XOR of the two sources' sign bits (a NaN's too), .NaN makes any
    NaN input a NaN result; otherwise a NaN loses to a number and -0.0 < +0.0."""
    nan_mode = ".NaN" in mods
    if ".abs" in mods:
        vals = [(k, 0, m) for k, _, m in vals]
    v = vals[0]
    for w in vals[1:]:
        v = _minmax(op, v, w, nan_mode)
    if ".xorsign" in mods and v[0] != "nan":
        v = (v[0], (raws[0] ^ raws[1]) >> (ff.FORMATS[fmt][2] - 1) & 1, v[2])
    return Result(ff.encode(v, fmt, ftz=".ftz" in mods))


def _approx(op: str, x, fmt: str):
    xf = ff.to_float(x)
    try:
        if op == "sin":
            r = math.sin(xf) if math.isfinite(xf) else math.nan
        elif op == "cos":
            r = math.cos(xf) if math.isfinite(xf) else math.nan
        elif op == "lg2":
            r = -math.inf if xf == 0 else (math.nan if xf < 0 or math.isnan(xf) else math.log2(xf))
        elif op == "ex2":
            r = 0.0 if xf == -math.inf else (math.inf if xf > 1100 else 2.0 ** xf)
        else:
            r = math.tanh(xf)
    except OverflowError:
        r = math.inf
    return ff.from_float(r)


def scalar(op: str, mods: set, fmt: str, raws: list[int], in_fmts: list[str] | None = None) -> Result:
    """One lane of a float instruction: raws are the source bits in fmt (or, for the mixed-precision
    forms, each in its own format of in_fmts); the result is in fmt."""
    ftz = ".ftz" in mods
    mode = next((ROUNDING[m] for m in mods if m in ROUNDING), "rn")
    m_bits = ff.FORMATS[fmt][1]
    vals = [ff.decode(r, f, ftz) for r, f in zip(raws, in_fmts or [fmt] * len(raws))]
    approx = None
    if op in ("abs", "neg"):
        width = ff.FORMATS[fmt][2]
        r = raws[0]
        if ftz and vals[0][0] == "num" and vals[0][2] == 0:
            r &= 1 << (width - 1)
        if vals[0][0] == "nan":  # PTX leaves the NaN's bits unspecified
            return Result(ff.canonical_nan(fmt))
        return Result(r & ((1 << (width - 1)) - 1) if op == "abs" else r ^ (1 << (width - 1)))
    if op == "copysign":
        width = ff.FORMATS[fmt][2]
        top = 1 << (width - 1)
        return Result((raws[1] & (top - 1)) | (raws[0] & top))
    if op == "add":
        v = _add(vals[0], vals[1], mode)
    elif op == "sub":
        v = _add(vals[0], (vals[1][0], vals[1][1] ^ 1, vals[1][2]), mode)
    elif op == "mul":
        v = _mul(vals[0], vals[1])
    elif op in ("fma", "mad"):
        v = _add(_mul(vals[0], vals[1]), vals[2], mode)
    elif op == "div":
        v = _div_approx_large(vals[0], vals[1]) if ".approx" in mods else None
        v = v or _div(vals[0], vals[1])
        if ".approx" in mods or ".full" in mods:
            approx = APPROX_BOUNDS["div.approx" if ".approx" in mods else "div.full"]
    elif op == "rcp":
        v = _div(("num", 0, ff.ONE), vals[0])
        if ".approx" in mods:
            approx = APPROX_BOUNDS["rcp.approx"]
    elif op == "sqrt":
        v = _sqrt(vals[0], m_bits)
        if ".approx" in mods:
            approx = APPROX_BOUNDS["sqrt.approx"]
    elif op == "rsqrt":
        x = vals[0]
        if x[0] == "num" and x[2] == 0:
            v = ("inf", x[1], Fraction(0))
        elif x[0] == "inf" and not x[1]:
            v = ("num", 0, Fraction(0))
        else:
            r = _sqrt(x, m_bits + 8)
            v = r if r[0] != "num" else ("num", 0, 1 / r[2])
        approx = APPROX_BOUNDS["rsqrt.approx"]
    elif op in ("min", "max"):
        return _minmax_result(op, mods, fmt, raws, vals)
    elif op in ("sin", "cos", "lg2", "ex2", "tanh"):
        v = _approx(op, vals[0], fmt)
        approx = APPROX_BOUNDS[op]
    else:
        raise ValueError(op)
    if ".sat" in mods:
        v = _saturate(v)
    return Result(ff.encode(v, fmt, mode, ftz=ftz, relu=".relu" in mods), approx)  # .relu: negative -> +0


def _saturate(v):
    if v[0] == "nan":
        return ("num", 0, Fraction(0))
    if v[1]:
        return ("num", 0, Fraction(0))
    if v[0] == "inf" or v[2] > 1:
        return ("num", 0, ff.ONE)
    return v


def _mixed_formats(op: str, toks: list[str], count: int) -> list[str] | None:
    """The sources' formats of a mixed-precision form (.f32 then .f16/.bf16 in the opcode), else None."""
    types = [t for t in toks if t in FLOAT_TYPES]
    if len(types) != 2 or types[0] != ".f32" or types[1] not in (".f16", ".bf16"):
        return None
    if op not in ("add", "sub", "fma"):
        raise UnsupportedInstruction(f"{op}{''.join(types)} is not a mixed-precision form the evaluator covers")
    return [types[1]] * (count - 1) + [".f32"]


def evaluate(op: str, toks: list[str], items: list[dict], inputs: dict) -> dict:
    """{"outputs": {d: raw}, "fidelity", "error_bound"?} for a float instruction."""
    fmt = float_type(toks)
    mods = set(toks)
    if op in APPROX_TYPES and fmt not in APPROX_TYPES[op]:
        raise UnsupportedInstruction(f"{op} is defined on {', '.join(APPROX_TYPES[op])}, not {fmt}")
    assert fmt is not None  # a float instruction names its type (the caller dispatched on it)
    packed = fmt.endswith("x2")
    lane_fmt = fmt[:-2] if packed else fmt
    lane_bits = ff.FORMATS[lane_fmt][2]
    width = 2 * lane_bits if packed else lane_bits
    mixed = _mixed_formats(op, toks, len(items) - 1)
    if mixed:  # add/sub.f32.atype d, a, c and fma.f32.abtype d, a, b, c: c and d are f32
        raws = [float_operand(it, inputs, f, ff.FORMATS[f][2]) for it, f in zip(items[1:], mixed)]
        res = scalar(op, mods, ".f32", raws, mixed)
    elif packed:  # lane 0 in the low half
        raws = [float_operand(it, inputs, lane_fmt, width) for it in items[1:]]
        out, approx = 0, None
        for lane in range(2):
            r = scalar(op, mods, lane_fmt, [(x >> (lane_bits * lane)) & ((1 << lane_bits) - 1) for x in raws])
            out |= r.value << (lane_bits * lane)
            approx = approx or r.approx
        res = Result(out, approx)
    else:
        res = scalar(op, mods, lane_fmt, [float_operand(it, inputs, lane_fmt, width) for it in items[1:]])
    doc = {"outputs": {items[0]["name"]: res.value}, "fidelity": "approximate" if res.approx else "exact"}
    if res.approx:
        doc["error_bound"] = res.approx
    return doc
