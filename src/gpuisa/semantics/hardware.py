"""Hardware formulations: instructions whose pseudocode, run literally, gives another result
than the hardware.

The manuals' pseudocode describes some instructions by a recipe that is right for most
inputs but not all: rounding to nearest even as ``floor(x + 0.5)`` computed in the format's
own precision (wrong where ``x + 0.5`` rounds), ``fract`` without its clamp below 1.0, an
f16 ``ldexp`` whose scale is made an f16 first (overflowing at 2**16), ``sin``/``cos``
multiplying by 2*pi before reducing, exponents of zeros and denormals read from the raw
exponent field, and the division helpers (``div_scale``/``div_fmas``/``div_fixup``) whose
scaling and special cases do not make LLVM's division expansion correctly rounded.  For these
the evaluator runs the formulation written here instead (the compiled pseudocode stays
available as ``Program.reference_fn``) and the fidelity report says why (``reason``).
tests/test_semantics_hardware.py checks each against values computed independently.
"""

from __future__ import annotations

import math
import re

import numpy as np

from . import floats
from . import runtime as rt
from .types import Ty

_MANT = {16: 10, 32: 23, 64: 52}


def _f(R, reg: str, w: int):
    """Register ``reg`` read as a float of w bits."""
    return floats.from_bits(rt.view_u(np.asarray(R[reg]), w), "f", w)


def _store(R, _m, bits, w: int):
    """D0's low w bits replaced by ``bits`` in the active lanes."""
    old = R["D0"]
    R["D0"] = rt.merge(_m, rt.setbits(old, 0, w, np.asarray(bits, dtype=np.int64)), old)
    return R


def _float_out(R, _m, y, w: int):
    y = rt.quiet(np.asarray(y).astype(floats.dtype("f", w)), Ty("f", w))
    return _store(R, _m, floats.to_bits(y, "f", w), w)


def _rndne(w: int):
    def run(R, _m, C):
        return _float_out(R, _m, np.rint(_f(R, "S0", w)), w)  # exact round half to even; keeps -0
    return run


def _round_half_up_i32(R, _m, C):
    x = _f(R, "S0", 32).astype(np.float64)  # x + 0.5 is exact in binary64 for every f32 x
    return _store(R, _m, rt.f_to_int(np.floor(x + 0.5), Ty("f", 64), 32, True), 32)


def _fract(w: int):
    def run(R, _m, C):
        x = _f(R, "S0", w)
        y = x - np.floor(x)  # one rounding in the format (f16: exact in numpy's f32 step, then rounded)
        below_one = np.nextafter(np.array(1.0, dtype=x.dtype), np.array(0.0, dtype=x.dtype))
        return _float_out(R, _m, np.where(np.isfinite(y) & (y >= 1), below_one, y), w)
    return run


def _ldexp_f16(R, _m, C):
    n = rt.view_i(np.asarray(R["S1"]), 16)
    return _float_out(R, _m, rt.ldexp(_f(R, "S0", 16), n, Ty("f", 16)), 16)


def _frexp_exp(w: int, out: int):
    def run(R, _m, C):
        _, e = np.frexp(_f(R, "S0", w).astype(np.float64))  # 0 for zeros, infinities and NaN
        return _store(R, _m, e.astype(np.int64), out)
    return run


def _trig(cos: bool, w: int):
    """sin/cos of x turns: x mod 1 (exact), then as half turns u = 2(x mod 1) split exactly into k
    quarter turns plus |f| <= 1/4, so that multiples of a quarter turn give exact zeros and ones."""
    def run(R, _m, C):
        x = _f(R, "S0", w).astype(np.float64)
        u = 2 * np.fmod(x, 1.0)
        k = np.rint(2 * u)
        f = np.pi * (u - k / 2)  # u - k/2 is exact
        q = (np.nan_to_num(k).astype(np.int64) + (1 if cos else 0)) & 3
        y = np.choose(q, [np.sin(f), np.cos(f), -np.sin(f), -np.cos(f)])
        y = np.where(y == 0, np.copysign(0.0, 1.0 if cos else x), y)  # zeros: sin keeps x's sign, cos gives +0
        return _float_out(R, _m, floats.convert(y, ("f", 64), ("f", w)), w)
    return run


def _rsq(w: int):
    """1/sqrt(x) rounded once: binary64's sqrt and quotient are close enough to the real value that
    rounding them to f16/f32 gives the nearest (or, at a near tie, a neighbouring) value."""
    def run(R, _m, C):
        x = _f(R, "S0", w).astype(np.float64)
        with np.errstate(all="ignore"):
            y = 1.0 / np.sqrt(x)  # +-0 -> +-inf, inf -> 0, x < 0 and NaN -> NaN
        return _float_out(R, _m, floats.convert(y, ("f", 64), ("f", w)), w)
    return run


def _cvt_pk_u8(R, _m, C):
    """Byte S1[1:0] of S2 replaced by S0 rounded to nearest even, clamped to 0..255 (NaN: 0)."""
    x = _f(R, "S0", 32).astype(np.float64)
    v = np.where(np.isnan(x), 0.0, np.clip(np.rint(np.nan_to_num(x)), 0.0, 255.0)).astype(np.int64)
    sh = 8 * (rt.view_u(np.asarray(R["S1"]), 32) & 3)
    old = rt.view_u(np.asarray(R["S2"]), 32)
    return _store(R, _m, (old & ~(np.int64(0xFF) << sh)) | (v << sh), 32)


def _fma_dx9(acc: str):
    """fma(S0, S1, acc), where a zero S0 or S1 makes the product +0 whatever the other is (infinity and
    NaN included): +0 + acc, so a -0 addend gives +0 and a signalling NaN addend is quieted."""
    def run(R, _m, C):
        a, b, c = _f(R, "S0", 32), _f(R, "S1", 32), _f(R, acc, 32)
        with np.errstate(all="ignore"):
            zero = (a == 0) | (b == 0)
            y = np.where(zero, np.float32(0.0) + c, floats.fma(np.where(zero, 0, a), np.where(zero, 0, b), c, "f", 32))
        return _float_out(R, _m, y, 32)
    return run


def _bcnt64(bit: int):
    """The number of S0's 64 bits equal to ``bit`` into the 32-bit D0; SCC = that count is not 0."""
    def run(R, _m, C):
        x = rt.view_u(np.asarray(R["S0"]), 64)
        ones = np.vectorize(lambda v: bin(int(v) & 0xFFFFFFFFFFFFFFFF).count("1"), otypes=[np.int64])(x)
        n = ones if bit else 64 - ones
        R["D0"] = n
        R["SCC"] = (n != 0).astype(np.int64)
        return R
    return run


def _exp2_no_denormal(R, _m, C):
    """2**x rounded once to f32, a result below the smallest normal (x < -126) flushed to +0."""
    with np.errstate(all="ignore"):
        y = np.exp2(_f(R, "S0", 32).astype(np.float64))
        y = np.where(y < 2.0 ** -126, 0.0, y)
    return _float_out(R, _m, floats.convert(y, ("f", 64), ("f", 32)), 32)


def _log2_no_denormal(R, _m, C):
    """log2 x rounded once to f32, a denormal x read as a zero of its sign (so -inf)."""
    x = _f(R, "S0", 32).astype(np.float64)
    with np.errstate(all="ignore"):
        x = np.where((x != 0) & (np.abs(x) < 2.0 ** -126), np.copysign(0.0, x), x)
        y = np.log2(x)  # +-0 -> -inf, x < 0 -> NaN
    return _float_out(R, _m, floats.convert(y, ("f", 64), ("f", 32)), 32)


# ---------------------------------------------------------------- division helpers
#
# LLVM divides n by d as: d' = div_scale(d, d, n), n' = div_scale(n, d, n) (which also sets VCC),
# a Newton-Raphson quotient q' of n'/d' refined with fmas, div_fmas(r, y, q') for the last step
# and div_fixup(that, d, n) for the special operands.  div_scale moves operands whose quotient
# or reciprocal would leave the normal range by 2**k (k = 64 for f32, 128 for f64); where that
# changes the quotient it sets VCC and div_fmas undoes it, rounding once.

_DIV = {32: (64, 96, 23, 126), 64: (128, 768, 53, 1022)}  # k, huge-quotient exponent gap, tiny-numerator exponent, emax


def _below(x, y, e: int):
    """|x| < 2**e * |y| exactly (finite x, y; frexp is exact, also for denormals)."""
    mx, ex = np.frexp(np.abs(x).astype(np.float64))
    my, ey = np.frexp(np.abs(y).astype(np.float64))
    return (ex < ey + e) | ((ex == ey + e) & (mx < my))


def _div_scale(w: int):
    """D0 = S0 moved by 2**+-k where S0 is the denominator S1 or the numerator S2 that needs it;
    VCC = 1 where the move changes the quotient S2/S1 (div_fmas then moves the result back).

    With k, the exponent gap g and the tiny-numerator exponent t of ``_DIV`` (exponents are the
    raw biased fields), in this order: a zero S1 or S2 gives NaN; a gap exponent(S2) -
    exponent(S1) >= g (the quotient may overflow) sets VCC and moves the denominator up by 2**k;
    a denormal denominator moves both operands up; a denominator whose reciprocal is not normal
    (|S1| > 2**emax) moves the denominator down by 2**k and sets VCC when the quotient is below
    the normal range, else moves both down; a quotient below the normal range (compared exactly,
    zero quotients included) moves the numerator up and sets VCC; a numerator exponent <= t moves
    both up.  Which operand S0 is follows from its value (S0 == S1 or S0 == S2), as AMD describes.
    The denominator of a huge-reciprocal, tiny-quotient pair moves down (AMD's pseudocode writes
    up, which overflows it), and "reciprocal not normal" is judged in the operand's own format
    (the pseudocode's binary64 reciprocal of an f32 is never denormal): the choices that keep
    LLVM's expansion correctly rounded."""
    ty = Ty("f", w)
    k, gap, tiny_exp, emax = _DIV[w]

    def run(R, _m, C):
        x, d, n = _f(R, "S0", w), _f(R, "S1", w), _f(R, "S2", w)
        en, ed = rt.exponent(n, ty), rt.exponent(d, ty)
        with np.errstate(all="ignore"):
            zero = (n == 0) | (d == 0)
            huge_q = ~zero & (en - ed >= gap)
            rest = ~zero & ~huge_q
            d_den = rest & rt.is_denorm(d, ty)
            rest &= ~d_den
            tiny_q = np.isfinite(n) & np.isfinite(d) & _below(n, d, -emax)
            d_huge = rest & np.isfinite(d) & (np.abs(d) > 2.0 ** emax)
            rest &= ~d_huge
            q_small = rest & tiny_q
            rest &= ~q_small
            up = (huge_q & (x == d)) | d_den | (q_small & (x == n)) | (rest & (en <= tiny_exp))
            down = d_huge & (~tiny_q | (x == d))
            shift = np.where(up, k, np.where(down, -k, 0))
            y = np.where(zero, np.nan, rt.ldexp(x, shift, ty))
        vcc = huge_q | (d_huge & tiny_q) | q_small
        R["VCC"] = rt.merge(_m, rt.set_lane_flag(R["VCC"], vcc, C), R["VCC"])
        return _float_out(R, _m, y, w)
    return run


def _scaled_fma(a, b, c, shift, w: int):
    """(a * b + c) * 2**shift rounded once to binary-w (f32: a*b exact in binary64, then a
    round-to-odd sum; f64: an exact integer path where the unscaled or scaled result leaves the
    normal range)."""
    if w == 32:
        s = floats._two_sum_odd(a.astype(np.float64) * b.astype(np.float64), c.astype(np.float64))
        return np.ldexp(s, shift).astype(np.float32)  # the binary64 scale is exact here
    r = floats.fma(a, b, c, "f", 64)
    with np.errstate(all="ignore"):
        y = np.ldexp(r, shift)
        tiny = (np.abs(r) < 2.0 ** -1022) | (np.frexp(r)[1] + shift <= -1021)  # |r| * 2**shift < 2**-1021
    redo = (shift != 0) & np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & (tiny | np.isinf(r))
    for i in np.flatnonzero(redo):
        (na, ea), (nb, eb), (nc, ec) = (floats._exact(float(v[i])) for v in (a, b, c))
        e = min(ea + eb, ec)
        m = ((na * nb) << (ea + eb - e)) + (nc << (ec - e))
        e += int(shift[i])
        if m:  # (an exact zero keeps the sign the fma gave it)
            try:
                y[i] = float(m << e) if e >= 0 else m / (1 << -e)  # int / int rounds correctly, denormals too
            except OverflowError:
                y[i] = math.inf if m > 0 else -math.inf
    return y


def _div_fmas(w: int):
    """fma(S0, S1, S2), and where VCC is set, times 2**k when |S2| >= 2 (exponent field above the
    bias) and 2**-k below, rounded once.  S2 is the scaled quotient: a div_scale that moved the
    denominator up for a huge quotient leaves it far above 1, one that moved the numerator up or a
    huge denominator down leaves it below 2**(k - emax); any threshold between works for LLVM's
    expansion, so the exact one used by the hardware is not determinable from it.  AMD's
    pseudocode multiplies by a fixed 2**32 (2**64 for f64) after rounding: the wrong scale, and a
    second rounding where the quotient is denormal."""
    ty = Ty("f", w)
    k, bias = _DIV[w][0], {32: 127, 64: 1023}[w]

    def run(R, _m, C):
        a, b, c = _f(R, "S0", w), _f(R, "S1", w), _f(R, "S2", w)
        vcc = rt.lane_bit(np.asarray(R["VCC"]), C) != 0
        shift = np.where(vcc, np.where(rt.exponent(c, ty) > bias, k, -k), 0)
        return _float_out(R, _m, _scaled_fma(a, b, c, np.broadcast_to(shift, np.shape(a)), w), w)
    return run


def _div_fixup(w: int):
    """The quotient S2/S1 from its approximation S0: a NaN operand (S2 first) quieted; 0/0 and
    inf/inf the default NaN; x/0 and inf/y infinity, x/inf and 0/y zero (sign: S1's xor S2's);
    then by the raw exponent fields, a gap exponent(S2) - exponent(S1) above 128 (f64: 1024),
    where |quotient| > 2**128 (2**1024), gives infinity and one below -150 (f64: -1075), where
    |quotient| < 2**-150 (2**-1075), half the smallest denormal, gives zero; else |S0| with that sign.
    For the overflowing gaps LLVM's scaled quotient can itself overflow (q * 2**-k beyond the
    format's range) and arrive as NaN.  AMD's pseudocode tests S1's exponent for all ones instead,
    which the infinity cases before it already took, and names its overflow and underflow results
    without values: here they are round-to-nearest's infinity and zero, the correctly rounded
    quotients for those gaps (the exact gaps the hardware tests are not determinable from LLVM's
    expansion, which needs only that NaN from an overflowing quotient becomes infinity)."""
    ty = Ty("f", w)
    big = {32: 128, 64: 1024}[w]  # a gap above this: |quotient| > 2**big, beyond the largest finite value
    small = {32: -150, 64: -1075}[w]  # a gap below this: |quotient| < 2**small, which rounds to zero
    default_nan = {32: 0xFFC00000, 64: 0xFFF8000000000000}[w]

    def run(R, _m, C):
        x, d, n = _f(R, "S0", w), _f(R, "S1", w), _f(R, "S2", w)
        neg = np.signbit(d) ^ np.signbit(n)
        gap = rt.exponent(n, ty) - rt.exponent(d, ty)
        inf_d, inf_n = np.isinf(d), np.isinf(n)
        with np.errstate(all="ignore"):
            mag = np.where(gap > big, np.inf, np.where(gap < small, 0.0, np.abs(x)))
            mag = np.where((d == 0) | inf_n, np.inf, np.where(inf_d | (n == 0), 0.0, mag))
            y = np.where(neg, -mag, mag).astype(x.dtype)
            y = np.where(((d == 0) & (n == 0)) | (inf_d & inf_n), floats.from_bits(np.int64(default_nan) if w < 64
                         else np.uint64(default_nan), "f", w), y)
            y = np.where(np.isnan(d), d, y)
            y = np.where(np.isnan(n), n, y)
        return _float_out(R, _m, y, w)
    return run


_WHY_RNDNE = ("AMD's pseudocode computes floor(x+0.5) in working precision; the hardware rounds half to even "
              "exactly (x+0.5 may round up, and -0.5 <= x <= -0 must give -0)")
_WHY_NEAREST = ("AMD's pseudocode computes floor(x+0.5) in working precision, where x+0.5 may round up; "
                "the hardware adds 0.5 exactly before taking the floor")
_WHY_FRACT = ("AMD's pseudocode computes x - floor(x), which rounds to 1.0 for tiny negative x; the hardware "
              "clamps the result to the largest value below 1.0")
_WHY_LDEXP16 = ("AMD's pseudocode converts 2**S1 to f16 before the multiply, so a scale of 2**16 or more "
                "overflows (and 0 * inf gives NaN); the hardware scales exactly and rounds once")
_WHY_FREXP = ("AMD's pseudocode reads the raw exponent field, wrong for zeros (must give 0) and denormals "
              "(must give their true exponent, as v_frexp_mant does); the hardware gives frexp's exponent")
_WHY_TRIG = ("AMD's pseudocode multiplies by 2*pi before reducing, losing accuracy for large |x|; the input "
             "counts turns, so the hardware reduction x mod 1 is exact")
_WHY_DIV_SCALE = ("AMD's pseudocode leaves D0 unwritten where nothing is scaled, moves a huge denominator up (to "
                  "infinity) where the quotient is also tiny, and judges an f32 denominator's reciprocal in binary64, "
                  "where it is never denormal.  Formulation: S0 (the denominator S1 or the numerator S2, by value) "
                  "moved by 2**+-64 (f64: 2**+-128); a zero operand gives NaN; an exponent gap S2 - S1 of 96 (f64: 768) "
                  "or more moves the denominator up and sets VCC; a denormal denominator or, last, a numerator "
                  "exponent field of 23 (53) or less moves both up; a denominator above 2**126 (2**1022) moves both "
                  "down, or itself alone with VCC set where the quotient is below the normal range; otherwise such a "
                  "quotient moves the numerator up and sets VCC; else S0 unchanged.  Where the hardware's own tests "
                  "cannot be told apart by LLVM's division expansion, the choice keeps that expansion correctly rounded")

_WHY_DIV_FMAS = ("AMD's pseudocode multiplies the rounded fma by a fixed 2**32 (f32; 2**64 for f64) where VCC is set. "
                 "Formulation: where VCC is set, (S0 * S1 + S2) times 2**64 (f64: 2**128) when |S2| >= 2 and 2**-64 "
                 "(2**-128) below, undoing div_scale's move, rounded once (the quotient may be denormal); without "
                 "VCC a plain fma.  The |S2| threshold is not determinable from LLVM's division expansion: any value "
                 "between its two bands works")

_WHY_DIV_FIXUP = ("AMD's pseudocode has no overflow result for finite operands (its test of S1's exponent comes after "
                  "S1 = inf was handled), so a quotient that overflows LLVM's scaled computation would stay NaN. "
                  "Formulation: NaN operands (S2 first) quieted; 0/0 and inf/inf the default NaN; x/0 and inf/y "
                  "infinity; x/inf and 0/y zero; an exponent gap S2 - S1 above 128 (f64: 1024) infinity and below "
                  "-150 (-1075) zero, where the correctly rounded quotient is those; else |S0|; the sign S1's xor S2's")

_WHY_RSQ = ("AMD's pseudocode computes 1.0 / sqrt(x) with two roundings in the format, up to about 1.2 ulp away "
            "from 1/sqrt(x), beyond the hardware's documented 1 ulp; here 1/sqrt(x) is rounded once")
_WHY_PK_U8 = ("AMD's pseudocode names f32_to_u8 without its rounding, and run like the other float-to-integer "
              "conversions it truncates (3.7 gives 3); the hardware rounds to nearest even (3.5 gives 4, 2.5 gives 2) "
              "and clamps to 0..255, NaN giving 0 (as the shadPS4 emulator translates it since its hardware "
              "conformance test, pull request 5194)")

_WHY_FMA_DX9 = ("AMD's pseudocode writes the addend itself where S0 or S1 is zero, so a -0 addend stays -0 and a "
                "signalling NaN addend stays signalling; the hardware adds the +0 product to it (+0 + -0 = +0, as LLVM "
                "folds llvm.amdgcn.fma.legacy).  V_FMAC_DX9_ZERO_F32's pseudocode also names S2, which the VOP2 form does "
                "not have, for its accumulator D0")

_WHY_BCNT64 = ("AMD's pseudocode sets SCC from D0.u64, 64 bits of a 32-bit destination, so the SGPR after it "
               "decided SCC and was taken as part of the destination; the hardware writes the 32-bit count and sets "
               "SCC where the count is not 0")

_WHY_EXP = ("AMD's pseudocode computes 2**x for every x; the hardware's transcendental unit returns no denormal "
            "results: below 2**-126 (x < -126) it gives +0 (LLVM 22 adds 64 to such x and scales the result by 2**-64 "
            "even with f32 denormals enabled)")
_WHY_LOG = ("AMD's pseudocode computes log2 x for every x; the hardware's transcendental unit reads a denormal x as "
            "zero, giving -inf (LLVM 22 scales such x by 2**32 and subtracts 32 even with f32 denormals enabled)")

# name pattern -> (builder(match, reference_fn) -> fn, reason)
_RULES: list[tuple[re.Pattern, object, str]] = [
    (re.compile(r"^[vs]_rndne_f(16|32|64)$"), lambda m, ref: _rndne(int(m.group(1))), _WHY_RNDNE),
    (re.compile(r"^v_cvt_(nearest|rpi)_i32_f32$"), lambda m, ref: _round_half_up_i32, _WHY_NEAREST),
    (re.compile(r"^v_fract_f(16|32|64)$"), lambda m, ref: _fract(int(m.group(1))), _WHY_FRACT),
    (re.compile(r"^v_ldexp_f16$"), lambda m, ref: _ldexp_f16, _WHY_LDEXP16),
    (re.compile(r"^v_frexp_exp_i(16|32)_f(16|32|64)$"),
     lambda m, ref: _frexp_exp(int(m.group(2)), int(m.group(1))), _WHY_FREXP),
    (re.compile(r"^v_(sin|cos)_f(16|32)$"),
     lambda m, ref: _trig(m.group(1) == "cos", int(m.group(2))), _WHY_TRIG),
    (re.compile(r"^v_div_scale_f(32|64)$"), lambda m, ref: _div_scale(int(m.group(1))), _WHY_DIV_SCALE),
    (re.compile(r"^v_div_fmas_f(32|64)$"), lambda m, ref: _div_fmas(int(m.group(1))), _WHY_DIV_FMAS),
    (re.compile(r"^v_div_fixup_f(32|64)$"), lambda m, ref: _div_fixup(int(m.group(1))), _WHY_DIV_FIXUP),
    (re.compile(r"^v_(?:s_)?rsq_f(16|32)$"), lambda m, ref: _rsq(int(m.group(1))), _WHY_RSQ),
    (re.compile(r"^v_cvt_pk_u8_f32$"), lambda m, ref: _cvt_pk_u8, _WHY_PK_U8),
    (re.compile(r"^v_fma(c?)_dx9_zero_f32$"), lambda m, ref: _fma_dx9("D0" if m.group(1) else "S2"), _WHY_FMA_DX9),
    (re.compile(r"^s_bcnt([01])_i32_b64$"), lambda m, ref: _bcnt64(int(m.group(1))), _WHY_BCNT64),
    (re.compile(r"^v_(?:s_)?exp_f32$"), lambda m, ref: _exp2_no_denormal, _WHY_EXP),
    (re.compile(r"^v_(?:s_)?log_f32$"), lambda m, ref: _log2_no_denormal, _WHY_LOG),
]
_D0_BITS = {"s_bcnt0_i32_b64": 32, "s_bcnt1_i32_b64": 32}  # the destination's real width where the pseudocode's is wider
_NOT_READ = {"v_fmac_dx9_zero_f32": ("S2",)}  # sources the pseudocode names but the formulation (and encoding) lacks


def _rule(name: str):
    for pat, build, why in _RULES:
        m = pat.match(name)
        if m:
            return m, build, why
    return None


APPROXIMATE = re.compile(r"^v_((s_)?(rsq|exp|log)|sin|cos)_f")  # the hardware approximates these; not modelled bit for bit


def reason(name: str) -> str | None:
    """Why ``name`` runs a hardware formulation instead of its pseudocode (None: it runs the pseudocode)."""
    r = _rule(name)
    return r[2] if r else None


def fidelity(name: str) -> tuple[str, str] | None:
    """(exact|untested, reason) for an instruction that runs a hardware formulation, else None."""
    why = reason(name)
    if why is None:
        return None
    head = f"executes the project's formulation of the hardware result, not the pseudocode run literally: {why}"
    if APPROXIMATE.match(name):
        return "untested", f"{head}; the hardware's own approximation is not modelled bit for bit"
    return "exact", f"{head}; checked against an independent reference"


def attach(prog) -> bool:
    """Run the hardware formulation of ``prog`` where one is listed here (pseudocode kept as reference_fn)."""
    r = _rule(prog.name)
    if r is None:
        return False
    m, build, _ = r
    prog.reference_fn = prog.fn
    prog.fn = build(m, prog.reference_fn)
    for reg in _NOT_READ.get(prog.name, ()):
        prog.inputs.discard(reg)
        prog.reads.discard(reg)
    if prog.name in _D0_BITS:
        prog.widths["D0"] = _D0_BITS[prog.name]
        prog.formats["D0"] = Ty("i", _D0_BITS[prog.name])
        prog.inputs.discard("D0")
        prog.reads.discard("D0")
    return True
