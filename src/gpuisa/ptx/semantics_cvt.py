"""Executable semantics of PTX ``cvt`` (the project's own formulation).

Covered: integer <-> integer (truncate or, with .sat, clamp to the destination range), float ->
integer (.rni/.rzi/.rmi/.rpi; NaN gives 0; out-of-range values clamp), integer -> float and
float -> float (.rn/.rz/.rm/.rp, .rna for tf32; widening is exact; .rni.. on a float destination
rounds to an integral float), .ftz (f32 subnormal inputs and results only, as the document says:
it flushes single-precision values), .sat (clamp to [0, 1], NaN -> 0), .relu (negative -> +0) and
.satfinite (overflow -> largest finite), for u8..u64/s8..s64/f16/bf16/tf32/f32/f64, the packed
f16x2/bf16x2 from two f32 (a goes to the upper half), e4m3x2/e5m2x2 from two f32 or from an f16x2,
and f16x2 from e4m3x2/e5m2x2.  Sub-word integer results are reported at the destination type's
width.  Stochastic rounding (.rs) and the fp4/fp6/ue8m0 forms are not covered.
"""

from __future__ import annotations

from fractions import Fraction

from . import floatfmt as ff
from .unsupported import UnsupportedInstruction

INT_TYPES = {f".{k}{n}": (k == "s", n) for k in "us" for n in (8, 16, 32, 64)}
FLOAT_RND = {".rn": "rn", ".rz": "rz", ".rm": "rm", ".rp": "rp", ".rna": "rna"}
INT_RND = {".rni": "rn", ".rzi": "rz", ".rmi": "rm", ".rpi": "rp"}
F8 = {".e4m3x2": ".e4m3", ".e5m2x2": ".e5m2"}


def _unsupported(msg: str) -> UnsupportedInstruction:
    return UnsupportedInstruction(msg)


def round_integral(x: Fraction, mode: str) -> int:
    n = x.numerator // x.denominator  # floor
    rem = x - n
    if not rem:
        return n
    if mode == "rn":
        return n + (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1))
    if mode == "rz":
        return n + (x < 0)
    if mode == "rm":
        return n
    return n + 1


def _to_int(v: tuple, signed: bool, bits: int, mode: str) -> int:
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if v[0] == "nan":
        return 0
    if v[0] == "inf":
        n = lo if v[1] else hi
    else:
        n = max(lo, min(hi, round_integral(ff.signed(v), mode)))
    return n & ((1 << bits) - 1)


def _clamp01(v: tuple) -> tuple:
    if v[0] == "nan" or v[1]:
        return ("num", 0, Fraction(0))
    if v[0] == "inf" or v[2] > 1:
        return ("num", 0, ff.ONE)
    return v


def convert(raw: int, atype: str, dtype: str, mods: set) -> int:
    """One scalar conversion of raw bits of atype into raw bits of dtype."""
    ftz = ".ftz" in mods
    frnd = next((FLOAT_RND[m] for m in mods if m in FLOAT_RND), None)
    irnd = next((INT_RND[m] for m in mods if m in INT_RND), None)
    if atype in INT_TYPES:
        signed, bits = INT_TYPES[atype]
        raw &= (1 << bits) - 1
        n = raw - (1 << bits) if signed and raw >> (bits - 1) & 1 else raw
        if dtype in INT_TYPES:
            ds, db = INT_TYPES[dtype]
            if ".sat" in mods:
                lo, hi = (-(1 << (db - 1)), (1 << (db - 1)) - 1) if ds else (0, (1 << db) - 1)
                n = max(lo, min(hi, n))
            return n & ((1 << db) - 1)
        v = ("num", int(n < 0), Fraction(abs(n)))
        if ".sat" in mods:
            v = _clamp01(v)
        return ff.encode(v, dtype, frnd or "rn", ftz=ftz, satfinite=".satfinite" in mods, relu=".relu" in mods)
    v = ff.decode(raw, atype, ftz and atype == ".f32")  # .ftz flushes single-precision subnormals only
    ftz = ftz and dtype == ".f32"
    if dtype in INT_TYPES:
        return _to_int(v, *INT_TYPES[dtype], irnd or "rz")
    if irnd and v[0] == "num" and v[2]:
        n = round_integral(ff.signed(v), irnd)
        v = ("num", v[1], Fraction(abs(n)))
    if ".sat" in mods:
        v = _clamp01(v)
    if ".relu" in mods and v[0] == "nan":
        return ff.canonical_nan(dtype)
    return ff.encode(v, dtype, frnd or "rn", ftz=ftz, satfinite=".satfinite" in mods, relu=".relu" in mods)


def evaluate(toks: list[str], items: list[dict], inputs: dict, read) -> dict:
    mods = set(toks[1:])
    types = [t for t in toks[1:] if t in INT_TYPES or t in ff.FORMATS or t in F8 or t in (".f16x2", ".bf16x2")]
    if len(types) != 2:
        raise _unsupported(f"cvt with types {' '.join(types) or 'none'} is not covered")
    if ".rs" in mods:
        raise _unsupported("cvt with stochastic rounding (.rs) is not covered")
    dtype, atype = types
    d = items[0]["name"]
    vals = [read(it) for it in items[1:]]
    if dtype in (".f16x2", ".bf16x2") and atype == ".f32":
        lane = dtype[:-2]
        out = convert(vals[0], ".f32", lane, mods) << 16 | convert(vals[1], ".f32", lane, mods)
    elif dtype in F8 and atype == ".f32":
        out = convert(vals[0], ".f32", F8[dtype], mods) << 8 | convert(vals[1], ".f32", F8[dtype], mods)
    elif dtype in F8 and atype == ".f16x2":
        hi, lo = vals[0] >> 16 & 0xFFFF, vals[0] & 0xFFFF
        out = convert(hi, ".f16", F8[dtype], mods) << 8 | convert(lo, ".f16", F8[dtype], mods)
    elif dtype == ".f16x2" and atype in F8:
        hi, lo = vals[0] >> 8 & 0xFF, vals[0] & 0xFF
        out = convert(hi, F8[atype], ".f16", mods) << 16 | convert(lo, F8[atype], ".f16", mods)
    elif dtype in F8 or atype in F8 or dtype.endswith("x2") or atype.endswith("x2"):
        raise _unsupported(f"cvt{dtype}{atype} is not covered")
    else:
        out = convert(vals[0], atype, dtype, mods)
    return {"outputs": {d: out}, "fidelity": "exact"}
