"""PTX floating-point semantics against values computed independently of the evaluator.

Inputs are decoded with numpy (``view`` of the raw bits); exact results are ``fractions.Fraction``;
rounding into a format is this file's own integer routine ``round_frac`` (IEEE 754 rules, five
modes), which is itself checked against numpy's correctly rounded float16/float32/float64 arithmetic
and against the bracketing property of the directed modes.  Special cases follow IEEE 754 and the
PTX ISA document: NaN results of f32 (and f16/bf16) operations are the canonical NaN (all payload
bits set), .ftz flushes subnormal inputs and results of the flushed precision to a zero of the same
sign, .sat clamps to [0, 1] with NaN -> +0, .relu turns negative results into +0 and keeps NaN a
canonical NaN.  Approximate instructions are checked against the document's error bounds.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

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


# -- the reference rounding itself --------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["f16", "f32", "f64"])
def test_round_frac_agrees_with_numpy(fmt):
    """round_frac(rn) equals numpy's correctly rounded arithmetic; directed modes bracket the value."""
    t = NP_FLOAT[fmt]
    for a, b in combos(fmt, 2, 80):
        x, y = to_float(a, fmt), to_float(b, fmt)
        if not (math.isfinite(x) and math.isfinite(y)) or x + y == 0:
            continue
        with np.errstate(all="ignore"):
            want = t(x) + t(y)
            prod = t(x) * t(y)
        assert round_frac(Fraction(x) + Fraction(y), fmt, "rn") == bits_of_float(float(want), fmt)
        if float(prod) != 0:
            assert round_frac(Fraction(x) * Fraction(y), fmt, "rn") == bits_of_float(float(prod), fmt)
        v = Fraction(x) + Fraction(y)
        lo, hi = round_frac(v, fmt, "rm"), round_frac(v, fmt, "rp")
        flo, fhi = to_float(lo, fmt), to_float(hi, fmt)
        assert flo <= v <= fhi or (math.isinf(flo) or math.isinf(fhi))
        with np.errstate(over="ignore"):
            assert lo == hi or float(np.nextafter(t(flo), t(np.inf))) == fhi


def test_round_frac_bf16_against_bit_rounding():
    """bf16 round-to-nearest-even is f32 bits + 0x7fff + (bit 16), keeping the upper half."""
    for raw in sample("f32", 300):
        x = to_float(raw, "f32")
        if not math.isfinite(x):
            continue
        want = (raw + 0x7FFF + (raw >> 16 & 1)) >> 16
        assert round_frac(Fraction(x), "bf16", "rn", raw >> 31) == want, hex(raw)


# -- arithmetic -----------------------------------------------------------------------------------------------

ARITH = [("add", 2), ("sub", 2), ("mul", 2), ("fma", 3), ("div", 2)]


@pytest.mark.parametrize("fmt", ["f32", "f64"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op,arity", ARITH)
def test_arith_rounding_modes(op, arity, mode, fmt):
    ftzs = (False, True) if fmt == "f32" else (False,)
    for raws in combos(fmt, arity, 40):
        for ftz in ftzs:
            text = f"{op}.{mode}{'.ftz' if ftz else ''}.{fmt} d, {', '.join(NAMES[:arity])}"
            want = reference(op, fmt, raws, mode, ftz)
            got = run(text, raws)
            assert same(got, want, fmt), (text, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("op,arity", ARITH[:4])
def test_arith_sat_f32(op, arity):
    for raws in combos("f32", arity, 40):
        mode = "rn" if op != "fma" else "rz"
        text = f"{op}.{mode}.sat.f32 d, {', '.join(NAMES[:arity])}"
        want = reference(op, "f32", raws, mode, sat=True)
        got = run(text, raws)
        assert got == want, (text, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f16", "bf16"])
@pytest.mark.parametrize("op,arity", ARITH[:4])
def test_arith_half(op, arity, fmt):
    """f16 (with .ftz, .sat) and bf16 arithmetic; fma also with .relu."""
    for raws in combos(fmt, arity, 40):
        rnd = "" if op != "fma" else ".rn"
        text = f"{op}{rnd}.{fmt} d, {', '.join(NAMES[:arity])}"
        want = reference(op, fmt, raws)
        got = run(text, raws)
        assert got == want, (text, [hex(r) for r in raws], hex(got), hex(want))
        if fmt == "f16":
            for mods, kw in ((".ftz", {"ftz": True}), (".sat", {"sat": True}), (".ftz.sat", {"ftz": True, "sat": True})):
                got = run(f"{op}{rnd}{mods}.f16 d, {', '.join(NAMES[:arity])}", raws)
                assert got == reference(op, fmt, raws, **kw), (op, mods, [hex(r) for r in raws], hex(got))
        if op == "fma":
            got = run(f"fma.rn.relu.{fmt} d, a, b, c", raws)
            want = reference(op, fmt, raws, relu=True)
            assert got == want, ("relu", fmt, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f16x2", "bf16x2", "f32x2"])
@pytest.mark.parametrize("op,arity", ARITH[:4])
def test_arith_packed(op, arity, fmt):
    lane = fmt[:-2]
    lb = width(lane)
    lo_vals, hi_vals = combos(lane, arity, 25), combos(lane, arity, 25)
    for lo, hi in zip(lo_vals, hi_vals):
        raws = [h << lb | v for v, h in zip(lo, hi)]
        rnd = ".rn" if (op == "fma" or lane == "f32") else ""
        got = run(f"{op}{rnd}.{fmt} d, {', '.join(NAMES[:arity])}", raws)
        want = reference(op, lane, hi) << lb | reference(op, lane, lo)
        assert got == want, (op, fmt, [hex(r) for r in raws], hex(got), hex(want))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("atype", ["f16", "bf16"])
@pytest.mark.parametrize("op", ["add", "sub", "fma"])
def test_mixed_precision(op, atype, mode):
    """add/sub.f32.atype d, a, c and fma.f32.abtype d, a, b, c: a (and b) in the half type, c and d f32."""
    for raws in combos(atype, 3, 30):
        c = int(RNG.integers(0, 1 << 32)) if raws[2] & 1 else bits_of_float(to_float(raws[2], atype), "f32")
        if op == "fma":
            xs = [to_float(raws[0], atype), to_float(raws[1], atype), to_float(c, "f32")]
            text = f"fma.{mode}.f32.{atype} d, a, b, c"
            inputs = {"a": raws[0], "b": raws[1], "c": c}
        else:
            xs = [to_float(raws[0], atype), to_float(c, "f32")]
            text = f"{op}.{mode}.f32.{atype} d, a, c"
            inputs = {"a": raws[0], "c": c}
        want = reference(op, "f32", [bits_of_float(x, "f32") for x in xs], mode)
        got = d_of(text, **inputs)
        assert got == want, (text, {k: hex(v) for k, v in inputs.items()}, hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f32", "f64"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["sqrt", "rcp"])
def test_sqrt_rcp_rounding(op, mode, fmt):
    for (a,) in combos(fmt, 1, 120):
        for ftz in ((False, True) if fmt == "f32" else (False,)):
            text = f"{op}.{mode}{'.ftz' if ftz else ''}.{fmt} d, a"
            want = reference(op, fmt, [a], mode, ftz)
            got = run(text, [a])
            assert same(got, want, fmt), (text, hex(a), hex(got), hex(want))


# -- approximate instructions: the document's error bounds -------------------------------------------------

def f32_bits(x: float) -> int:
    return int(np.float32(x).view(np.uint32))


def ulp32(x: float) -> float:
    x = abs(float(np.float32(x)))
    return float(np.spacing(np.float32(x))) if x else 2.0 ** -149


def test_approx_bounds():
    xs = [float(np.float32(v)) for v in RNG.uniform(-300, 300, 150)] + [0.5, 1.0, 2.0, 3.0, 1e-3, 100.0]
    for x in xs:
        a = f32_bits(x)
        if -100 * math.pi <= x <= 100 * math.pi:
            assert abs(to_float(d_of("sin.approx.f32 d, a", a=a), "f32") - math.sin(x)) <= 2 ** -20.5
            assert abs(to_float(d_of("cos.approx.f32 d, a", a=a), "f32") - math.cos(x)) <= 2 ** -20.5
        if x > 0:
            r = to_float(d_of("lg2.approx.f32 d, a", a=a), "f32")  # the bound is on the mantissa's part
            assert abs(r - math.log2(x)) <= 2 ** -22 + ulp32(math.log2(x)) / 2
            r = to_float(d_of("sqrt.approx.f32 d, a", a=a), "f32")
            assert abs(r - math.sqrt(x)) <= 2 ** -23 * math.sqrt(x) * 1.0001
            r = to_float(d_of("rsqrt.approx.f32 d, a", a=a), "f32")
            assert abs(r - 1 / math.sqrt(x)) <= 2 ** -22.9 / math.sqrt(x)
        if abs(x) < 120:
            r = to_float(d_of("ex2.approx.f32 d, a", a=a), "f32")
            assert abs(r - 2.0 ** x) <= 2 * ulp32(2.0 ** x)
        r = to_float(d_of("tanh.approx.f32 d, a", a=a), "f32")
        assert abs(r - math.tanh(x)) <= 2 ** -10.987 * abs(math.tanh(x)) + 2 ** -149
        r = to_float(d_of("rcp.approx.f32 d, a", a=a), "f32")
        assert abs(r - 1 / x) <= ulp32(1 / x)
        for y in (3.0, -7.5, 1e-3):
            r = to_float(d_of("div.approx.f32 d, a, b", a=a, b=f32_bits(y)), "f32")
            assert abs(r - x / y) <= 2 * ulp32(x / y)
            r = to_float(d_of("div.full.f32 d, a, b", a=a, b=f32_bits(y)), "f32")
            assert abs(r - x / y) <= 2 * ulp32(x / y)


def test_approx_special_values():
    """The document's special-value tables: sin/cos(inf) NaN, lg2(0) -inf, lg2(-x) NaN, ex2(-inf) +0,
    rsqrt(+-0) +-inf, rsqrt(+inf) +0, rcp(+-0) +-inf."""
    inf, ninf = 0x7F800000, 0xFF800000
    assert is_nan(d_of("sin.approx.f32 d, a", a=inf), "f32")
    assert is_nan(d_of("cos.approx.f32 d, a", a=ninf), "f32")
    assert d_of("lg2.approx.f32 d, a", a=0) == ninf
    assert d_of("lg2.approx.f32 d, a", a=0x80000000) == ninf
    assert is_nan(d_of("lg2.approx.f32 d, a", a=f32_bits(-2.0)), "f32")
    assert d_of("lg2.approx.f32 d, a", a=inf) == inf
    assert d_of("ex2.approx.f32 d, a", a=ninf) == 0
    assert d_of("ex2.approx.f32 d, a", a=inf) == inf
    assert d_of("rsqrt.approx.f32 d, a", a=0) == inf
    assert d_of("rsqrt.approx.f32 d, a", a=0x80000000) == ninf
    assert d_of("rsqrt.approx.f32 d, a", a=inf) == 0
    assert is_nan(d_of("rsqrt.approx.f32 d, a", a=f32_bits(-4.0)), "f32")
    assert d_of("rcp.approx.f32 d, a", a=0x80000000) == ninf
    assert d_of("tanh.approx.f32 d, a", a=inf) == f32_bits(1.0)
    assert d_of("tanh.approx.f32 d, a", a=ninf) == f32_bits(-1.0)


# -- min/max, abs/neg, copysign, testp ---------------------------------------------------------------------

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


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_float(op, fmt):
    variants = [("", False, False, False), (".NaN", True, False, False)]
    if fmt != "f64":
        variants += [(".xorsign.abs", False, True, False), (".NaN.xorsign.abs", True, True, False)]
    if fmt in ("f32", "f16"):
        variants += [(".ftz", False, False, True), (".ftz.NaN.xorsign.abs", True, True, True)]
    pairs_ = combos(fmt, 2, 50) + [[0, 1 << (width(fmt) - 1)], [1 << (width(fmt) - 1), 0]]
    for a, b in pairs_:
        for mods, nan_mode, xs, ftz in variants:
            want = minmax_ref(op, a, b, fmt, nan_mode, xs, ftz)
            got = d_of(f"{op}{mods}.{fmt} d, a, b", a=a, b=b)
            assert same(got, want, fmt), (op, mods, fmt, hex(a), hex(b), hex(got), hex(want))
    # the worked values
    assert d_of("max.xorsign.abs.f32 d, a, b", a=0xC0000000, b=0x3F800000) == 0xC0000000
    assert d_of("min.xorsign.abs.f32 d, a, b", a=0xC0000000, b=0x3F800000) == 0xBF800000


def test_min_max_packed_half():
    for (a0, b0), (a1, b1) in zip(combos("f16", 2, 30), combos("f16", 2, 30)):
        for op in ("min", "max"):
            got = d_of(f"{op}.NaN.f16x2 d, a, b", a=a1 << 16 | a0, b=b1 << 16 | b0)
            want = minmax_ref(op, a1, b1, "f16", True, False, False) << 16 | minmax_ref(op, a0, b0, "f16", True,
                                                                                         False, False)
            assert got == want, (op, hex(a0), hex(b0), hex(a1), hex(b1))


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
def test_abs_neg_copysign_testp(fmt):
    top = 1 << (width(fmt) - 1)
    for (a, b) in combos(fmt, 2, 60):
        ftzs = (False, True) if fmt in ("f32", "f16") else (False,)
        for ftz in ftzs:
            x = flush(a, fmt) if ftz else a
            f = ".ftz" if ftz else ""
            for op, want in (("abs", x & ~top), ("neg", x ^ top)):
                got = d_of(f"{op}{f}.{fmt} d, a", a=a)
                if is_nan(a, fmt):  # PTX leaves the NaN's bits unspecified
                    assert is_nan(got, fmt), (op, fmt, hex(a))
                else:
                    assert got == want, (op, f, fmt, hex(a), hex(got))
        if fmt not in ("f32", "f64"):
            continue
        assert d_of(f"copysign.{fmt} d, a, b", a=a, b=b) == (b & ~top) | (a & top)
        v = to_float(a, fmt)
        tests = {"finite": math.isfinite(v), "infinite": math.isinf(v), "number": not math.isnan(v),
                 "notanumber": math.isnan(v), "normal": math.isfinite(v) and not is_sub(a, fmt),
                 "subnormal": is_sub(a, fmt)}  # the document counts +-0 as normal
        for name, want in tests.items():
            assert d_of(f"testp.{name}.{fmt} d, a", a=a) == int(want), (name, fmt, hex(a))


# -- comparison and selection ------------------------------------------------------------------------------

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


@pytest.mark.parametrize("fmt", ["f32", "f64", "f16", "bf16"])
def test_setp_set_float(fmt):
    cmps = [*FCMP, "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
    for a, b in combos(fmt, 2, 25) + [[0, 1 << (width(fmt) - 1)]]:
        for ftz in ((False, True) if fmt in ("f32", "f16") else (False,)):
            x, y = (flush(a, fmt), flush(b, fmt)) if ftz else (a, b)
            fx, fy = to_float(x, fmt), to_float(y, fmt)
            f = ".ftz" if ftz else ""
            for cmp in cmps:
                r = fcmp_ref(cmp, fx, fy)
                o = out(f"setp.{cmp}{f}.{fmt} p|q, a, b", a=a, b=b) if fmt in ("f32", "f64") else \
                    {"p": out(f"setp.{cmp}{f}.{fmt} p, a, b", a=a, b=b)["p"], "q": 1 - r}
                assert (o["p"], o["q"]) == (r, 1 - r), (cmp, f, fmt, hex(a), hex(b))
                if fmt in ("f32", "f64"):
                    assert d_of(f"set.{cmp}{f}.f32.{fmt} d, a, b", a=a, b=b) == (0x3F800000 if r else 0)
                    assert d_of(f"set.{cmp}{f}.u32.{fmt} d, a, b", a=a, b=b) == (0xFFFFFFFF if r else 0)
                    assert d_of(f"set.{cmp}.xor{f}.s32.{fmt} d, a, b, c", a=a, b=b, c=1) == \
                        (0 if r else 0xFFFFFFFF)
                if fmt == "f16":
                    assert d_of(f"set.{cmp}{f}.u16.f16 d, a, b", a=a, b=b) == (0xFFFF if r else 0)
                    assert d_of(f"set.{cmp}{f}.u32.f16 d, a, b", a=a, b=b) == (0xFFFFFFFF if r else 0)


def test_set_half_destinations():
    """1.0 in the destination's own format for a true result (f16 0x3c00, bf16 0x3f80)."""
    one, two = 0x3F800000, 0x40000000
    assert d_of("set.lt.f16.f32 d, a, b", a=one, b=two) == 0x3C00
    assert d_of("set.gt.f16.f32 d, a, b", a=one, b=two) == 0
    assert d_of("set.lt.bf16.f32 d, a, b", a=one, b=two) == 0x3F80
    assert d_of("set.lt.u16.f16 d, a, b", a=0x3C00, b=0x4000) == 0xFFFF


def test_slct_float_c():
    """c >= 0 picks a: -0.0 counts as >= 0, NaN does not; .ftz reads a subnormal c as a signed zero."""
    a, b = 0x11111111, 0x22222222
    for c in sample("f32", 80):
        v = to_float(c, "f32")
        assert d_of("slct.b32.f32 d, a, b, c", a=a, b=b, c=c) == (a if v >= 0 else b), hex(c)
        vf = to_float(flush(c, "f32"), "f32")
        assert d_of("slct.ftz.b32.f32 d, a, b, c", a=a, b=b, c=c) == (a if vf >= 0 else b), hex(c)


# -- cvt ---------------------------------------------------------------------------------------------------

INTS = {f"{k}{n}": (k == "s", n) for k in "us" for n in (8, 16, 32, 64)}
IRND = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}


@pytest.mark.parametrize("ftype", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("itype", list(INTS))
def test_cvt_float_to_int(ftype, itype):
    """Rounded with the integer rounding mode, clamped to the destination's range; NaN -> 0."""
    signed, n = INTS[itype]
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
    with np.errstate(over="ignore"):
        big = [bits_of_float(float(v), ftype) for v in (lo, hi, lo - 1.0, hi + 1.0, 2.0 ** n, -0.5, 0.5, 1.5, 2.5)
               if ftype != "bf16" and math.isfinite(NP_FLOAT[ftype](v))]
    for (a,) in combos(ftype, 1, 40) + [[v] for v in big]:
        x = to_float(a, ftype)
        for rnd, fn in IRND.items():
            if math.isnan(x):
                want = 0
            elif math.isinf(x):
                want = lo if x < 0 else hi
            else:
                want = max(lo, min(hi, int(fn(x))))
            got = d_of(f"cvt.{rnd}.{itype}.{ftype} d, a", a=a)
            assert got == want & ((1 << n) - 1), (rnd, itype, ftype, hex(a), hex(got))
            if ftype == "f32":
                xf = to_float(flush(a, "f32"), "f32")
                want = 0 if math.isnan(xf) else (lo if xf < 0 else hi) if math.isinf(xf) else \
                    max(lo, min(hi, int(fn(xf))))
                got = d_of(f"cvt.{rnd}.ftz.{itype}.f32 d, a", a=a)
                assert got == want & ((1 << n) - 1), (rnd, "ftz", itype, hex(a), hex(got))


@pytest.mark.parametrize("ftype", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("itype", list(INTS))
def test_cvt_int_to_float(itype, ftype):
    signed, n = INTS[itype]
    vals = [0, 1, (1 << n) - 1, 1 << (n - 1), (1 << (n - 1)) - 1, 0x1000001, 2049, 4097]
    vals = [v & ((1 << n) - 1) for v in vals] + [int(v) & ((1 << n) - 1) for v in RNG.integers(0, 1 << 62, 30)]
    for a in vals:
        v = a - (1 << n) if signed and a >> (n - 1) else a
        for mode in MODES:
            got = d_of(f"cvt.{mode}.{ftype}.{itype} d, a", a=a)
            assert got == round_frac(Fraction(v), ftype, mode), (mode, ftype, itype, hex(a), hex(got))


@pytest.mark.parametrize("dst", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("src", ["f16", "bf16", "f32", "f64"])
def test_cvt_float_to_float(src, dst):
    """Correct rounding in each mode; NaN -> canonical NaN; .ftz flushes f32 subnormals only."""
    for (a,) in combos(src, 1, 60):
        x = to_float(a, src)
        for mode in MODES if src != dst else ("rn",):
            rnd = f".{mode}" if width(dst) < width(src) or (src, dst) in (("f16", "bf16"), ("bf16", "f16")) else ""
            if rnd == "" and mode != "rn":
                continue
            if math.isnan(x):
                want = CANON.get(dst, 0x7FF8000000000000)
            elif math.isinf(x):
                want = bits_of_float(x, dst)
            else:
                want = round_frac(Fraction(x), dst, mode, int(math.copysign(1, x) < 0))
            got = d_of(f"cvt{rnd}.{dst}.{src} d, a", a=a)
            assert same(got, want, dst), (rnd, dst, src, hex(a), hex(got), hex(want))
            if "f32" in (src, dst) and src != dst:
                xin = to_float(flush(a, src), src) if src == "f32" else x
                if math.isnan(xin):
                    want = CANON.get(dst, 0x7FF8000000000000)
                elif math.isinf(xin):
                    want = bits_of_float(xin, dst)
                else:
                    want = round_frac(Fraction(xin), dst, mode, int(math.copysign(1, xin) < 0))
                if dst == "f32":
                    want = flush(want, "f32")
                got = d_of(f"cvt{rnd}.ftz.{dst}.{src} d, a", a=a)
                assert same(got, want, dst), (rnd, "ftz", dst, src, hex(a), hex(got), hex(want))


@pytest.mark.parametrize("fmt", ["f16", "f32", "f64"])
def test_cvt_round_to_integral_and_sat(fmt):
    for (a,) in combos(fmt, 1, 80):
        x = to_float(a, fmt)
        for rnd, fn in IRND.items():
            got = d_of(f"cvt.{rnd}.{fmt}.{fmt} d, a", a=a)
            with np.errstate(invalid="ignore"):
                want = bits_of_float(float(fn(x)), fmt)  # numpy keeps the sign of a zero result
            assert same(got, want, fmt), (rnd, fmt, hex(a), hex(got), hex(want))
        got = d_of(f"cvt.sat.{fmt}.{fmt} d, a", a=a) if fmt != "f64" else d_of("cvt.sat.f64.f64 d, a", a=a)
        want = 0 if math.isnan(x) or x <= 0 else bits_of_float(1.0, fmt) if x >= 1 else a
        assert got == want, ("sat", fmt, hex(a), hex(got))


def test_cvt_relu_satfinite_half():
    for (a,) in combos("f32", 1, 150):
        x = to_float(a, "f32")
        for dst, big in (("f16", 0x7BFF), ("bf16", 0x7F7F)):
            for mode in ("rn", "rz"):
                plain = CANON[dst] if math.isnan(x) else bits_of_float(x, dst) if math.isinf(x) else \
                    round_frac(Fraction(x), dst, mode, a >> 31)
                top = 0x8000
                relu = plain if is_nan(plain, dst) else (0 if plain & top else plain)
                assert d_of(f"cvt.{mode}.relu.{dst}.f32 d, a", a=a) == relu, (mode, dst, hex(a))
                sf = plain
                if not is_nan(plain, dst) and plain & 0x7FFF > big:  # infinity -> the largest finite value
                    sf = (plain & top) | big
                assert d_of(f"cvt.{mode}.satfinite.{dst}.f32 d, a", a=a) == sf, (mode, dst, hex(a))


def test_cvt_tf32():
    """tf32 keeps 10 mantissa bits in the f32 layout: .rna adds half of the dropped part and truncates."""
    for (a,) in combos("f32", 1, 300):
        x = to_float(a, "f32")
        if math.isnan(x):
            want = 0x7FFFFFFF
        elif math.isinf(x):
            want = a
        else:
            want = (a + 0x1000) & ~0x1FFF & 0xFFFFFFFF
        assert d_of("cvt.rna.tf32.f32 d, a", a=a) == want, hex(a)
        if math.isfinite(x):  # .rn (ties to even at bit 13) and .rz (cut), .satfinite keeps the largest finite
            rn = (a + 0xFFF + (a >> 13 & 1)) & ~0x1FFF & 0xFFFFFFFF
            assert d_of("cvt.rn.tf32.f32 d, a", a=a) == rn, hex(a)
            assert d_of("cvt.rz.tf32.f32 d, a", a=a) == a & ~0x1FFF, hex(a)
            sat = rn if rn & 0x7FFFFFFF < 0x7F800000 else (a & 0x80000000) | 0x7F7FE000
            assert d_of("cvt.rn.satfinite.tf32.f32 d, a", a=a) == sat, hex(a)


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
    table = f8_values(kind)
    if math.isnan(x) or (relu and math.isnan(x)):
        return 0x7F
    if relu and math.copysign(1, x) < 0:  # a negative result (-0.0 included) becomes +0
        return 0
    finite = {c: v for c, v in table.items() if math.isfinite(v)}
    big = max(finite.values())
    x = max(-big, min(big, x))
    neg = math.copysign(1, x) < 0  # a zero keeps its sign
    best = min(finite, key=lambda c: (abs(Fraction(finite[c]) - Fraction(x)), c & 1, c >> 7 != neg))
    return best


@pytest.mark.parametrize("kind", ["e4m3", "e5m2"])
def test_cvt_f8(kind):
    table = f8_values(kind)
    for a, b in combos("f32", 2, 30):
        xa, xb = to_float(a, "f32"), to_float(b, "f32")
        for relu in ("", ".relu"):
            got = d_of(f"cvt.rn.satfinite{relu}.{kind}x2.f32 d, a, b", a=a, b=b)
            want = f8_encode(xa, kind, bool(relu)) << 8 | f8_encode(xb, kind, bool(relu))
            assert got == want, (kind, relu, hex(a), hex(b), hex(got), hex(want))
    for code in range(0, 0x10000, 97):
        got = d_of(f"cvt.rn.f16x2.{kind}x2 d, a", a=code)
        relu = d_of(f"cvt.rn.relu.f16x2.{kind}x2 d, a", a=code)
        for half, r, c in ((got >> 16, relu >> 16, code >> 8), (got & 0xFFFF, relu & 0xFFFF, code & 0xFF)):
            v = table[c]
            assert (is_nan(half, "f16") and math.isnan(v)) or to_float(half, "f16") == v, (kind, hex(code))
            want = 0x7FFF if math.isnan(v) else 0 if math.copysign(1, v) < 0 else half
            assert r == want, ("relu", kind, hex(code), hex(r))


@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_three_inputs(op):
    """min/max.f32 d, a, b, c: the pairwise rule applied twice; .abs compares magnitudes."""
    top = 1 << 31
    for a, b, c in combos("f32", 3, 60):
        for mods, nan_mode, absolute, ftz in (("", False, False, False), (".NaN", True, False, False),
                                              (".abs", False, True, False), (".ftz.NaN.abs", True, True, True)):
            xs = [flush(v, "f32") if ftz else v for v in (a, b, c)]
            if absolute:
                xs = [v & ~top for v in xs]
            want = minmax_ref(op, minmax_ref(op, xs[0], xs[1], "f32", nan_mode, False, False), xs[2], "f32",
                              nan_mode, False, False)
            got = d_of(f"{op}{mods}.f32 d, a, b, c", a=a, b=b, c=c)
            assert got == want, (op, mods, hex(a), hex(b), hex(c), hex(got), hex(want))


# -- more forms: half-precision approximations, f64 approximations, packing, immediates ------------------

def test_approx_half_and_f64_bounds():
    """ex2/tanh on f16/bf16 within their relative bounds (plus half an ulp of the format); the f64
    .approx.ftz reciprocals within 2^-50 / 2^-52.2 relative error."""
    for (a,) in combos("f16", 1, 150):
        x = to_float(a, "f16")
        if not math.isfinite(x) or abs(x) > 14:
            continue
        r = to_float(d_of("ex2.approx.f16 d, a", a=a), "f16")
        e = 2.0 ** x
        assert abs(r - e) <= e * 2 ** -9.9 + float(np.spacing(np.float16(e))) / 2 or e < 2 ** -14, hex(a)
        r = to_float(d_of("tanh.approx.f16 d, a", a=a), "f16")
        t = math.tanh(x)
        assert abs(r - t) <= abs(t) * 2 ** -8 + 2 ** -24, hex(a)
    for (a,) in combos("bf16", 1, 150):
        x = to_float(a, "bf16")
        if not math.isfinite(x) or abs(x) > 100:
            continue
        r = to_float(d_of("ex2.approx.ftz.bf16 d, a", a=a), "bf16")
        e = 2.0 ** x
        assert abs(r - e) <= e * 2 ** -7, hex(a)
        r = to_float(d_of("tanh.approx.bf16 d, a", a=a), "bf16")
        assert abs(r - math.tanh(x)) <= abs(math.tanh(x)) * 2 ** -7 + 2 ** -133, hex(a)
    for (a,) in combos("f64", 1, 150):
        x = to_float(a, "f64")
        if not math.isfinite(x) or x == 0 or abs(x) < 2.0 ** -1000 or abs(x) > 2.0 ** 1000:
            continue
        r = to_float(d_of("rcp.approx.ftz.f64 d, a", a=a), "f64")
        assert abs(Fraction(r) * Fraction(x) - 1) <= Fraction(2) ** -50, hex(a)
        if x > 0:
            r = to_float(d_of("rsqrt.approx.ftz.f64 d, a", a=a), "f64")
            assert abs(r * math.sqrt(x) - 1) <= 2 ** -52.2 + 2 ** -52, hex(a)


@pytest.mark.parametrize("fmt", ["f16x2", "bf16x2"])
def test_packed_abs_neg_min_max(fmt):
    lane = fmt[:-2]
    for (a0, b0), (a1, b1) in zip(combos(lane, 2, 25), combos(lane, 2, 25)):
        a, b = a1 << 16 | a0, b1 << 16 | b0
        for op in ("min", "max"):
            want = minmax_ref(op, a1, b1, lane, False, False, False) << 16 | minmax_ref(op, a0, b0, lane, False,
                                                                                          False, False)
            assert d_of(f"{op}.{fmt} d, a, b", a=a, b=b) == want, (op, fmt, hex(a), hex(b))
        for op, f in (("abs", lambda v: v & 0x7FFF), ("neg", lambda v: v ^ 0x8000)):
            got = d_of(f"{op}.{fmt} d, a", a=a)
            for half, src in ((got >> 16, a1), (got & 0xFFFF, a0)):
                assert is_nan(half, lane) if is_nan(src, lane) else half == f(src), (op, fmt, hex(a))


def test_cvt_pack_two_f32():
    """cvt.rn.f16x2.f32 d, a, b: a converted into the upper half, b into the lower one (bf16x2 too)."""
    def one(v: int, dst: str, mode: str) -> int:
        x = to_float(v, "f32")
        if math.isnan(x):
            return CANON[dst]
        return bits_of_float(x, dst) if math.isinf(x) else round_frac(Fraction(x), dst, mode, v >> 31)

    for a, b in combos("f32", 2, 60):
        for dst in ("f16", "bf16"):
            for mode in ("rn", "rz"):
                got = d_of(f"cvt.{mode}.{dst}x2.f32 d, a, b", a=a, b=b)
                assert got == one(a, dst, mode) << 16 | one(b, dst, mode), (dst, mode, hex(a), hex(b), hex(got))


def test_cvt_f8_from_f16x2():
    for kind in ("e4m3", "e5m2"):
        for a0, a1 in combos("f16", 2, 60):
            got = d_of(f"cvt.rn.satfinite.{kind}x2.f16x2 d, a", a=a1 << 16 | a0)
            want = f8_encode(to_float(a1, "f16"), kind) << 8 | f8_encode(to_float(a0, "f16"), kind)
            assert got == want, (kind, hex(a0), hex(a1), hex(got), hex(want))


def test_cvt_integer_to_integer():
    """Truncation (or sign/zero extension) to the destination's width; .sat clamps to its range."""
    for src, (s_signed, s_bits) in INTS.items():
        vals = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 63,
                (1 << 64) - 1] + [int(x) for x in RNG.integers(0, 1 << 62, 10)]
        for a in vals:
            a &= (1 << s_bits) - 1
            v = a - (1 << s_bits) if s_signed and a >> (s_bits - 1) else a
            for dst, (d_signed, d_bits) in INTS.items():
                assert d_of(f"cvt.{dst}.{src} d, a", a=a) == v & ((1 << d_bits) - 1), (dst, src, hex(a))
                lo, hi = (-(1 << (d_bits - 1)), (1 << (d_bits - 1)) - 1) if d_signed else (0, (1 << d_bits) - 1)
                got = d_of(f"cvt.sat.{dst}.{src} d, a", a=a)
                assert got == max(lo, min(hi, v)) & ((1 << d_bits) - 1), ("sat", dst, src, hex(a))


def test_lop3_predicate_form():
    for a, b, c in [[int(x) for x in RNG.integers(0, 1 << 32, 3)] for _ in range(40)] + [[0, 0, 0]]:
        for lut in (0x00, 0x96, 0xE8, 0xFF, 0x80):
            d = sum(((lut >> ((a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1))) & 1) << i for i in range(32))
            for bop in ("and", "or"):
                for q in (0, 1):
                    o = out(f"lop3.{bop}.b32 d|p, a, b, c, {lut}, q", a=a, b=b, c=c, q=q)
                    want_p = (int(d != 0) & q) if bop == "and" else (int(d != 0) | q)
                    assert (o["d"], o["p"]) == (d, want_p), (bop, lut, q)
                    o = out(f"lop3.{bop}.b32 d|p, a, b, c, {lut}, !q", a=a, b=b, c=c, q=q)
                    assert o["p"] == ((int(d != 0) & (1 - q)) if bop == "and" else (int(d != 0) | (1 - q)))


def test_float_immediates_and_mad():
    """0f/0d hexadecimal and decimal immediates; mad.rnd.f32/f64 is fma."""
    assert d_of("add.f32 d, a, 0f3F800000", a=0x40000000) == 0x40400000
    assert d_of("add.f64 d, a, 0d3FF0000000000000", a=0x4000000000000000) == 0x4008000000000000
    assert d_of("mul.f32 d, a, 0.5", a=0x40000000) == 0x3F800000
    for raws in combos("f32", 3, 40):
        for mode in MODES:
            assert run(f"mad.{mode}.f32 d, a, b, c", raws) == reference("fma", "f32", raws, mode)
    for raws in combos("f64", 3, 20):
        assert same(run("mad.rn.f64 d, a, b, c", raws), reference("fma", "f64", raws), "f64")


def test_negated_and_foreign_literals():
    """A `-` before a literal negates it; an 0f (f32) literal in an f64 instruction is that f32 value."""
    assert d_of("add.f32 d, a, -0f3F800000", a=0x40000000) == 0x3F800000  # 2 + (-1)
    assert d_of("add.f32 d, a, -1.5", a=0x40000000) == 0x3F000000
    assert d_of("mul.f64 d, a, 0f40000000", a=0x3FF8000000000000) == 0x4008000000000000  # 1.5 * 2.0
    assert d_of("add.f64 d, a, -0d3FF0000000000000", a=0x4000000000000000) == 0x3FF0000000000000
    assert out("setp.lt.f32 p, a, -0f3F800000", a=0xC0000000)["p"] == 1  # -2 < -1


@pytest.mark.parametrize("fmt", ["f16x2", "bf16x2"])
def test_setp_set_packed(fmt):
    """Each half compared on its own: setp gives lane 0 (low half) to p and lane 1 to q; set writes
    1.0 (packed float destination) or 0xffff (u32/s32 destination) into each half."""
    lane = fmt[:-2]
    one = bits_of_float(1.0, lane)
    cmps = [*FCMP, "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]
    for (a0, b0), (a1, b1) in zip(combos(lane, 2, 20), combos(lane, 2, 20)):
        a, b = a1 << 16 | a0, b1 << 16 | b0
        for cmp in cmps:
            r0 = fcmp_ref(cmp, to_float(a0, lane), to_float(b0, lane))
            r1 = fcmp_ref(cmp, to_float(a1, lane), to_float(b1, lane))
            o = out(f"setp.{cmp}.{fmt} p|q, a, b", a=a, b=b)
            assert (o["p"], o["q"]) == (r0, r1), (cmp, fmt, hex(a), hex(b))
            for c in (0, 1):
                o = out(f"setp.{cmp}.or.{fmt} p|q, a, b, c", a=a, b=b, c=c)
                assert (o["p"], o["q"]) == (r0 | c, r1 | c)
            assert d_of(f"set.{cmp}.{fmt}.{fmt} d, a, b", a=a, b=b) == (one if r0 else 0) | (one if r1 else 0) << 16
            assert d_of(f"set.{cmp}.u32.{fmt} d, a, b", a=a, b=b) == (0xFFFF if r0 else 0) | (0xFFFF if r1 else 0) << 16
    # .ftz on f16x2 reads subnormal halves as zeros
    assert out("setp.eq.ftz.f16x2 p|q, a, b", a=0x00010001, b=0x80000000) == {"p": 1, "q": 1}
    assert out("setp.eq.f16x2 p|q, a, b", a=0x00010001, b=0x80000000) == {"p": 0, "q": 0}


def test_div_approx_large_divisors():
    """The document: for 2^126 < |b| < 2^128 div.approx.f32 gives 0 (NaN when a is infinite); div.full
    keeps its 2-ulp bound over the whole range."""
    for b in (0x7F000001, 0x7F7FFFFF, 0xFF400000, 0x7F200000):
        for a in (0x3F800000, 0xC0400000, 0x00000000, 0x7F7FFFFF):
            got = d_of("div.approx.f32 d, a, b", a=a, b=b)
            assert got == (a ^ b) & 0x80000000, (hex(a), hex(b), hex(got))
            exact_q = Fraction(to_float(a, "f32")) / Fraction(to_float(b, "f32"))
            full = to_float(d_of("div.full.f32 d, a, b", a=a, b=b), "f32")
            assert abs(Fraction(full) - exact_q) <= 2 * Fraction(ulp32(float(exact_q))), (hex(a), hex(b))
        assert is_nan(d_of("div.approx.f32 d, a, b", a=0x7F800000, b=b), "f32")
    assert d_of("div.approx.f32 d, a, b", a=0x3F800000, b=0x7E800000) == 0x00800000  # |b| = 2^126: still 1/b
