"""Independent reference values for PTX floating-point semantics (used by the reference tests).

Inputs are decoded with numpy (``view`` of the raw bits); exact results are ``fractions.Fraction``;
rounding into a format is this module's own integer routine ``round_frac`` (IEEE 754 rules, five
modes), which tests/test_ptx_semantics_reference_float.py checks against numpy's correctly rounded
float16/float32/float64 arithmetic and the bracketing property of the directed modes.  Special cases
follow IEEE 754 and the PTX ISA document: NaN results of f32 (and f16/bf16) operations are the
canonical NaN (all payload bits set), .ftz flushes subnormal inputs and results of the flushed
precision to a zero of the same sign, .sat clamps to [0, 1] with NaN -> +0, .relu turns negative
results (-0.0 included) into +0 and keeps NaN a canonical NaN.  Nothing here calls the evaluator's
helpers: only ``evaluate_ptx`` (through ``out``/``d_of``/``run``).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np

from gpuisa.ptx.semantics import evaluate_ptx

RNG = np.random.default_rng(7)
FMT = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}
MODES = ("rn", "rz", "rm", "rp")
NP_FLOAT = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
NP_UINT = {16: np.uint16, 32: np.uint32, 64: np.uint64}
CANON = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF}


def width(fmt: str) -> int:
    e, m = FMT[fmt]
    return 1 + e + m


def emin(fmt: str) -> int:
    return 2 - (1 << (FMT[fmt][0] - 1))


def to_float(raw: int, fmt: str) -> float:
    """The value of raw bits as a Python float (exact for every format here), decoded by numpy."""
    if fmt == "bf16":
        return float(np.uint32(raw << 16).view(np.float32))
    return float(NP_UINT[width(fmt)](raw).view(NP_FLOAT[fmt]))


def is_nan(raw: int, fmt: str) -> bool:
    return math.isnan(to_float(raw, fmt))


def is_sub(raw: int, fmt: str) -> bool:
    x = to_float(raw, fmt)
    return x != 0 and math.isfinite(x) and abs(x) < 2.0 ** emin(fmt)


def flush(raw: int, fmt: str) -> int:
    return raw & (1 << (width(fmt) - 1)) if is_sub(raw, fmt) else raw


def round_frac(x: Fraction, fmt: str, mode: str, zero_sign: int = 0) -> int:
    """Raw bits of the exact value x rounded into fmt (rn: ties to even, rna: ties away)."""
    e_bits, m = FMT[fmt]
    w, bias = 1 + e_bits + m, (1 << (e_bits - 1)) - 1
    if x == 0:
        return zero_sign << (w - 1)
    sign, a = int(x < 0), abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = max(e, 1 - bias) - m
    scaled = a / Fraction(2) ** q
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    half = Fraction(1, 2)
    up = {"rn": rest > half or (rest == half and n % 2 == 1), "rna": rest >= half, "rz": False,
          "rm": rest > 0 and sign == 1, "rp": rest > 0 and sign == 0}[mode]
    n += int(up)
    if n < 1 << m:
        return sign << (w - 1) | n  # subnormal (or zero after rounding)
    if n == 1 << (m + 1):
        n, q = n >> 1, q + 1
    biased = q + m + bias
    if biased >= (1 << e_bits) - 1:  # overflow: infinity, or the largest finite value toward zero
        toward_zero = mode == "rz" or (mode == "rm" and not sign) or (mode == "rp" and sign)
        body = ((1 << e_bits) - 1) << m
        return sign << (w - 1) | (body - 1 if toward_zero else body)
    return sign << (w - 1) | biased << m | (n - (1 << m))


def bits_of_float(x: float, fmt: str) -> int:
    """Raw bits of a Python float already representable in fmt (or a special value)."""
    if math.isnan(x):
        return CANON.get(fmt, 0x7FF8000000000000)
    if fmt == "bf16":
        return int(np.float32(x).view(np.uint32)) >> 16
    return int(NP_FLOAT[fmt](x).view(NP_UINT[width(fmt)]))


def special_result(op: str, xs: list[float]) -> float | None:
    """The IEEE result when an input is NaN or infinite (numpy float64 arithmetic), else None."""
    if all(math.isfinite(v) for v in xs):
        return None
    a = [np.float64(v) for v in xs]
    with np.errstate(all="ignore"):
        if op == "add":
            return float(a[0] + a[1])
        if op == "sub":
            return float(a[0] - a[1])
        if op == "mul":
            return float(a[0] * a[1])
        if op == "div":
            return float(a[0] / a[1])
        if op == "fma":  # a finite product (exact or not) meeting a non-finite c gives c's result
            if math.isfinite(xs[0]) and math.isfinite(xs[1]):
                return float(a[2])
            return float(a[0] * a[1] + a[2])
        if op == "sqrt":
            return float(np.sqrt(a[0]))
        if op == "rcp":
            return float(1 / a[0])
    raise AssertionError(op)


def zero_sign(op: str, xs: list[float], mode: str) -> int:
    """The sign of an exact zero result (IEEE 754 6.3)."""
    neg = [math.copysign(1, v) < 0 for v in xs]
    if op in ("mul", "div"):
        return int(neg[0] != neg[1])
    if op == "rcp":
        return int(neg[0])
    if op == "sqrt":
        return int(neg[0])
    if op == "fma":
        terms = [neg[0] != neg[1], neg[2]] if xs[0] * xs[1] == 0 and xs[2] == 0 else None
    else:
        second = neg[1] if op == "add" else not neg[1]
        terms = [neg[0], second] if xs[0] == 0 and xs[1] == 0 else None
    if terms is None:  # cancellation of non-zero values
        return int(mode == "rm")
    return int(terms[0] or terms[1]) if mode == "rm" else int(terms[0] and terms[1])


def exact(op: str, xs: list[float]) -> Fraction:
    f = [Fraction(v) for v in xs]
    if op == "add":
        return f[0] + f[1]
    if op == "sub":
        return f[0] - f[1]
    if op == "mul":
        return f[0] * f[1]
    if op == "fma":
        return f[0] * f[1] + f[2]
    if op == "div":
        return f[0] / f[1]
    if op == "rcp":
        return 1 / f[0]
    raise AssertionError(op)


def sqrt_round(v: float, fmt: str, mode: str) -> int:
    """Correctly rounded square root: numpy's round-to-nearest root, moved to the neighbour the
    directed mode asks for (decided exactly by squaring)."""
    r = float(np.sqrt(NP_FLOAT[fmt](v)))
    raw = bits_of_float(r, fmt)
    sq, fv = Fraction(r) ** 2, Fraction(v)
    if mode == "rn" or sq == fv:
        return raw
    if mode in ("rz", "rm") and sq > fv:
        return raw - 1
    if mode == "rp" and sq < fv:
        return raw + 1
    return raw


def reference(op: str, fmt: str, raws: list[int], mode: str = "rn", ftz: bool = False, sat: bool = False,
              relu: bool = False) -> int:
    if ftz:
        raws = [flush(r, fmt) for r in raws]
    xs = [to_float(r, fmt) for r in raws]
    special = special_result(op, xs)
    if special is not None:
        res = bits_of_float(special, fmt)
    elif op == "sqrt":
        if xs[0] < 0:
            res = CANON.get(fmt, 0x7FF8000000000000)
        elif xs[0] == 0:
            res = raws[0]
        else:
            res = sqrt_round(xs[0], fmt, mode)
    elif op in ("div", "rcp") and xs[-1] == 0:
        with np.errstate(all="ignore"):
            res = bits_of_float(float(np.float64(xs[0] if op == "div" else 1.0) / np.float64(xs[-1])), fmt)
    else:
        v = exact(op, xs)
        res = round_frac(v, fmt, mode, zero_sign(op, xs, mode) if v == 0 else 0)
    return post(res, fmt, ftz, sat, relu)


def post(res: int, fmt: str, ftz: bool, sat: bool, relu: bool) -> int:
    top = 1 << (width(fmt) - 1)
    if is_nan(res, fmt):
        return 0 if sat else CANON.get(fmt, res)
    if ftz:
        res = flush(res, fmt)
    if sat:
        x = to_float(res, fmt)
        return 0 if x <= 0 else (bits_of_float(1.0, fmt) if x >= 1 else res)
    if relu and res & top:
        return 0
    return res


def same(got: int, want: int, fmt: str) -> bool:
    """Equal bits; for f64 any NaN matches any NaN (PTX fixes the canonical NaN only for f32/f16)."""
    if fmt == "f64" and is_nan(want, fmt):
        return is_nan(got, fmt)
    return got == want


def sample(fmt: str, n: int) -> list[int]:
    """Raw values: zeros, subnormals, extremes, infinities, NaNs, near-ties around 1, random bits."""
    e, m = FMT[fmt]
    w = width(fmt)
    top, exp_all = 1 << (w - 1), ((1 << e) - 1) << m
    one = bits_of_float(1.0, fmt)
    edge = [0, 1, 2, (1 << m) - 1, 1 << m, exp_all - 1, exp_all, exp_all | 1, exp_all | (1 << (m - 1)),
            one, one + 1, one - 1, bits_of_float(3.0, fmt), bits_of_float(0.5, fmt), bits_of_float(1.5, fmt)]
    edge += [v | top for v in edge]
    rand = [int(x) & (top * 2 - 1) for x in RNG.integers(0, 1 << 62, n)]
    rand += [(one + int(x)) & (top * 2 - 1) for x in RNG.integers(-(1 << (m + 2)), 1 << (m + 2), n // 2)]
    return edge + rand


def combos(fmt: str, arity: int, n: int) -> list[list[int]]:
    vs = sample(fmt, n)
    idx = RNG.integers(0, len(vs), (max(n * 3, 60), arity))
    return [[vs[i] for i in row] for row in idx]


def out(text: str, **inputs) -> dict:
    return evaluate_ptx(text, inputs)["outputs"]


def d_of(text: str, **inputs) -> int:
    return out(text, **inputs)["d"]


NAMES = "abc"


def run(text: str, raws: list[int]) -> int:
    return d_of(text, **dict(zip(NAMES, raws)))


ARITH = [("add", 2), ("sub", 2), ("mul", 2), ("fma", 3), ("div", 2)]


def f32_bits(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def ulp32(x: float) -> float:
    x = abs(float(np.float32(x)))
    return float(np.spacing(np.float32(x))) if x else 2.0 ** -149


def minmax_ref(op: str, a: int, b: int, fmt: str, nan_mode: bool, xorsign: bool, ftz: bool) -> int:
    """The document's rule: both NaN -> NaN; .NaN and one NaN -> NaN; one NaN -> the other; else the
    smaller/larger with -0.0 below +0.0; .xorsign.abs compares magnitudes and gives the XOR of signs."""
    top = 1 << (width(fmt) - 1)
    if ftz:
        a, b = flush(a, fmt), flush(b, fmt)
    sign = (a ^ b) & top
    if xorsign:
        a, b = a & ~top, b & ~top
    na, nb = is_nan(a, fmt), is_nan(b, fmt)
    if (na and nb) or (nan_mode and (na or nb)):
        return CANON.get(fmt, 0x7FF8000000000000)
    if na or nb:
        r = b if na else a
    else:
        x, y = to_float(a, fmt), to_float(b, fmt)
        kx, ky = (x, -(a >> (width(fmt) - 1))), (y, -(b >> (width(fmt) - 1)))  # -0.0 sorts below +0.0
        r = (a if kx < ky else b) if op == "min" else (a if kx > ky else b)
    return (r & ~top) | sign if xorsign else r


FCMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
        "ge": np.greater_equal}


def fcmp_ref(cmp: str, x: float, y: float) -> int:
    unordered = math.isnan(x) or math.isnan(y)
    if cmp == "num":
        return int(not unordered)
    if cmp == "nan":
        return int(unordered)
    if cmp.endswith("u"):
        return int(unordered or bool(FCMP[cmp[:2]](x, y)))
    return int(not unordered and bool(FCMP[cmp](x, y)))  # ordered: false on NaN (numpy: -0 == +0)


INTS = {f"{k}{n}": (k == "s", n) for k in "us" for n in (8, 16, 32, 64)}
IRND = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}


@functools.cache
def f8_values(kind: str) -> dict[int, float]:
    """All codes of e4m3 (bias 7, no infinities, S.1111.111 NaN) or e5m2 (bias 15, IEEE-like)."""
    e_bits, m, b = (4, 3, 7) if kind == "e4m3" else (5, 2, 15)
    table = {}
    for code in range(256):
        s, e, f = code >> 7, (code >> m) & ((1 << e_bits) - 1), code & ((1 << m) - 1)
        if kind == "e4m3" and e == 15 and f == 7:
            v = math.nan
        elif kind == "e5m2" and e == 31:
            v = math.inf if f == 0 else math.nan
        elif e == 0:
            v = f * 2.0 ** (1 - b - m)
        else:
            v = (1 + f / (1 << m)) * 2.0 ** (e - b)
        table[code] = -v if s else v
    return table


def f8_encode(x: float, kind: str, relu: bool = False) -> int:
    """Nearest code (ties to the even code), saturated to the largest finite value; NaN -> 0x7f."""
    if math.isnan(x):
        return 0x7F
    if relu and math.copysign(1, x) < 0:  # a negative result (-0.0 included) becomes +0
        return 0
    finite = _f8_finite(kind)
    big = max(finite.values())
    x = max(-big, min(big, x))
    neg = math.copysign(1, x) < 0  # a zero keeps its sign
    fx = Fraction(x)
    return min(finite, key=lambda c: (abs(finite[c] - fx), c & 1, c >> 7 != neg))


@functools.cache
def _f8_finite(kind: str) -> dict[int, Fraction]:
    return {c: Fraction(v) for c, v in f8_values(kind).items() if math.isfinite(v)}
