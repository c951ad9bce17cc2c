"""IEEE-754 and small-float helpers on numpy arrays (binary16/32/64, bfloat16, fp8/fp6/fp4).

Values of a float type are numpy arrays of float16/float32/float64; bfloat16 values are
float32 arrays holding exactly representable bfloat16 numbers.  Widening conversions keep
signalling NaNs signalling (numpy's casts would quiet them), fused multiply-add is
correctly rounded (round-to-odd in binary64, exact rationals for binary64 itself), and
narrowing conversions honour round-to-nearest-even or round-toward-zero.
"""

from __future__ import annotations

import math

import numpy as np

DTYPE = {("f", 16): np.float16, ("f", 32): np.float32, ("f", 64): np.float64, ("bf", 16): np.float32}
RNE, RTZ = 0, 3  # AMD ROUND_MODE encodings used by the pseudocode
_DTYPES = {k: np.dtype(v) for k, v in DTYPE.items()}


def dtype(kind: str, width: int):
    return DTYPE[(kind, width)]


_I64 = np.dtype(np.int64)
# (dtype objects, not scalar types: numpy resolves them faster in astype/view)
_FROM: dict[tuple[str, int], tuple[np.dtype, np.dtype]] = {
    ("f", 16): (np.dtype(np.uint16), np.dtype(np.float16)), ("f", 32): (np.dtype(np.uint32), np.dtype(np.float32))}
_TO: dict[tuple[str, int], np.dtype] = {("f", 16): np.dtype(np.uint16), ("f", 32): np.dtype(np.uint32)}


def from_bits(bits, kind: str, width: int) -> np.ndarray:
    if type(bits) is np.ndarray and bits.dtype is _I64:
        uf = _FROM.get((kind, width))
        if uf is not None:  # a narrowing integer cast keeps the low bits, like a mask
            return bits.astype(uf[0]).view(uf[1])
    b = np.asarray(bits)
    if b.dtype == object:
        b = np.array([int(x) & ((1 << width) - 1) for x in b.ravel()], dtype=np.uint64).astype(np.int64)
    b = b.astype(np.int64, copy=False)
    if kind == "bf":
        return ((b & 0xFFFF) << 16).astype(np.uint32).view(np.float32)
    if width == 16:
        return (b & 0xFFFF).astype(np.uint16).view(np.float16)
    if width == 32:
        return (b & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    return b.copy().view(np.float64)


def to_bits(x, kind: str, width: int) -> np.ndarray:
    key = (kind, width)
    if type(x) is not np.ndarray or x.dtype is not _DTYPES[key]:
        x = np.asarray(x, dtype=dtype(kind, width))
    elif key in _TO:
        return x.view(_TO[key]).astype(_I64)
    if kind == "bf":
        return (x.view(np.uint32) >> 16).astype(np.int64)
    if width == 16:
        return x.view(np.uint16).astype(np.int64)
    if width == 32:
        return x.view(np.uint32).astype(np.int64)
    return x.view(np.int64).copy()


_EXP = {16: (10, 0x1F), 32: (23, 0xFF), 64: (52, 0x7FF)}


def _nan_bits_widen(x, src_w: int, dst_w: int) -> np.ndarray:
    sb = to_bits(x, "f", src_w)
    m_src, _ = _EXP[src_w]
    m_dst, e_dst = _EXP[dst_w]
    sign = (sb >> (src_w - 1)) & 1
    mant = sb & ((1 << m_src) - 1)
    out = (e_dst << m_dst) | (mant << (m_dst - m_src))
    if dst_w == 64:
        return np.where(sign == 1, out | np.int64(-(1 << 63)), out)
    return out | (sign << (dst_w - 1))


def convert(x, src: tuple[str, int], dst: tuple[str, int], mode: int = RNE) -> np.ndarray:
    """Float-to-float conversion, src/dst = (kind, width)."""
    if type(x) is not np.ndarray or x.dtype is not _DTYPES[src]:
        x = np.asarray(x, dtype=dtype(*src))
    if src == dst:
        return x
    if src == ("bf", 16):
        src = ("f", 32)
        if dst == src:
            return x
    if dst == ("bf", 16):
        return to_bf16(x.astype(np.float64) if src[1] == 64 else x.astype(np.float32), mode)
    sw, dw = src[1], dst[1]
    if sw == 16 and x.ndim:  # binary16 widens by table lookup (same values as below)
        return _f16_widening_table(dw)[x.view(np.uint16)]
    if dw > sw:
        out = x.astype(dtype(*dst))
        nan = np.isnan(x)
        if np.count_nonzero(nan):
            out = np.where(nan, from_bits(_nan_bits_widen(x, sw, dw), "f", dw), out)
        return out
    out = x.astype(dtype(*dst))
    if mode == RTZ:
        back = out.astype(x.dtype)
        away = np.isfinite(x) & (np.abs(back) > np.abs(x))
        if np.count_nonzero(away):
            out = np.where(away, np.nextafter(out, np.zeros_like(out)), out)
    return out


_F16_WIDE: dict = {}


def _f16_widening_table(dw: int) -> np.ndarray:
    """Every binary16 value widened to binary32/64 (signalling NaNs stay signalling), by code."""
    table = _F16_WIDE.get(dw)
    if table is None:
        codes = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
        out = codes.astype(dtype("f", dw))
        nan = np.isnan(codes)
        table = _F16_WIDE[dw] = np.where(nan, from_bits(_nan_bits_widen(codes, 16, dw), "f", dw), out)
    return table


def to_bf16(x, mode: int = RNE) -> np.ndarray:
    """Round float32/float64 values to bfloat16 (returned as float32)."""
    x = np.asarray(x)
    if x.dtype == np.float64:
        x = _round_to_odd_f32(x)
    x = x.astype(np.float32)
    u = x.view(np.uint32).astype(np.int64)
    nan = np.isnan(x)
    if mode == RTZ:
        r = u >> 16
    else:
        r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    r = np.where(nan, (u >> 16) | 0x40, r)
    return ((r & 0xFFFF) << 16).astype(np.uint32).view(np.float32)


def _round_to_odd_f32(x: np.ndarray) -> np.ndarray:
    y = x.astype(np.float32)
    inexact = np.isfinite(x) & (y.astype(np.float64) != x)
    if np.count_nonzero(inexact):
        even = (y.view(np.uint32) & 1) == 0
        fix = inexact & even
        toward = np.where(y.astype(np.float64) > x, np.float32(-np.inf), np.float32(np.inf))
        y = np.where(fix, np.nextafter(y, toward), y)
    return y


def _two_sum_odd(p: np.ndarray, c: np.ndarray) -> np.ndarray:
    """p + c in binary64 with round-to-odd (for a later correct rounding to <= 51 bits)."""
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    fix = np.isfinite(s) & (err != 0) & ((s.view(np.int64) & 1) == 0)
    if np.count_nonzero(fix):
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return s


def fma(a, b, c, kind: str, width: int) -> np.ndarray:
    dt = dtype(kind, width)
    a, b, c = (np.asarray(v, dtype=dt) for v in (a, b, c))
    if width == 64:
        return _fma64(a, b, c)
    p = a.astype(np.float64) * b.astype(np.float64)  # exact
    s = _two_sum_odd(p, c.astype(np.float64))
    if kind == "bf":
        return to_bf16(s)
    return s.astype(dt)


def _exact(x: float) -> tuple[int, int]:
    """x = n * 2**e with integers n, e."""
    m, e = math.frexp(x)
    return int(m * (1 << 53)), e - 53


def _fma64(a, b, c) -> np.ndarray:
    out = a * b + c  # right for every non-finite case
    shape = np.broadcast(a, b, c).shape
    a, b, c = (np.broadcast_to(v, shape) for v in (a, b, c))
    out = np.array(np.broadcast_to(out, shape), dtype=np.float64)
    fin_ab = np.isfinite(a) & np.isfinite(b)
    inf_c = fin_ab & np.isinf(c)  # an exact finite product plus an infinity is that infinity, even
    out[inf_c] = c[inf_c]  # where a * b alone overflows (max * max + -inf = -inf, not NaN)
    fin = fin_ab & np.isfinite(c)
    if not np.count_nonzero(fin):
        return out
    fast, value = _fma64_fast(a, b, c, fin)
    out[fast] = value[fast]
    _fma64_exact(a, b, c, fin & ~fast, out)
    return out


def _fma64_exact(a, b, c, lanes, out) -> None:
    """Exact a * b + c with Python integers, rounded once, into ``out`` on ``lanes``."""
    for i in zip(*np.nonzero(lanes)):
        fa, fb, fc = float(a[i]), float(b[i]), float(c[i])
        (na, ea), (nb, eb), (nc, ec) = _exact(fa), _exact(fb), _exact(fc)
        n1, e1 = na * nb, ea + eb
        e = min(e1, ec)
        n = (n1 << (e1 - e)) + (nc << (ec - e))
        if n == 0:
            p_neg = (math.copysign(1.0, fa) * math.copysign(1.0, fb)) < 0
            out[i] = -0.0 if (p_neg and fa * fb == 0 and fc == 0 and math.copysign(1.0, fc) < 0) else 0.0
            continue
        try:
            out[i] = float(n << e) if e >= 0 else n / (1 << -e)  # int/int division rounds correctly
        except OverflowError:
            out[i] = math.inf if n > 0 else -math.inf


_VELTKAMP = 134217729.0  # 2**27 + 1: splits a binary64 value into two 26-bit halves


def _two_sum(x, y):
    """s + t = x + y exactly, s = RN(x + y) (Knuth; no overflow assumed)."""
    s = x + y
    yy = s - x
    return s, (x - (s - yy)) + (y - yy)


def _two_product(x, y):
    """p + e = x * y exactly, p = RN(x * y) (Dekker, Veltkamp splitting; no over/underflow assumed)."""
    p = x * y
    t = _VELTKAMP * x
    xh = t - (t - x)
    xl = x - xh
    t = _VELTKAMP * y
    yh = t - (t - y)
    yl = y - yh
    return p, ((xh * yh - p) + xh * yl + xl * yh) + xl * yl


def _fma64_fast(a, b, c, fin):
    """Lanes of ``fin`` whose fused multiply-add error-free transformations decide, and the values.

    * a * b = 0 exactly, c != 0: the result is c.
    * |a * b| below half the gap from c to its neighbour toward zero (bounded by powers of
      two from the exponents): c + (a * b) rounds to c.
    * operands and result well inside the normal range: Boldo and Melquiond's emulated
      FMA (IEEE TC 57(4), 2008): uh + ul = a * b and th + tl = c + uh exactly, then
      RN(th + RO(tl + ul)), RO being round-to-odd (``_two_sum_odd``).
    Every other lane (zeros, cancellation to tiny results, extreme exponents) is left to the
    exact integer path."""
    with np.errstate(all="ignore"):
        zero_ab = (a == 0) | (b == 0)
        c_nz = c != 0
        out = np.array(c, dtype=np.float64, copy=True)
        take = fin & zero_ab & c_nz
        _, ea = np.frexp(a)
        _, eb = np.frexp(b)
        bound = np.ldexp(1.0, np.minimum(np.maximum(ea + eb, -1200), 1100))  # |a * b| < bound (0 below 2**-1074)
        gap = np.abs(c - np.nextafter(c, 0.0))
        take |= fin & c_nz & ~zero_ab & (bound <= gap * 0.5)
        rest = fin & ~take
        if np.count_nonzero(rest):
            lo, hi = 2.0 ** -450, 2.0 ** 450
            aa, ab, ac = np.abs(a), np.abs(b), np.abs(c)
            ok = rest & (aa >= lo) & (aa <= hi) & (ab >= lo) & (ab <= hi) & (ac >= 2.0 ** -900) & (ac <= 2.0 ** 900)
            if np.count_nonzero(ok):
                uh, ul = _two_product(a, b)
                th, tl = _two_sum(c, uh)
                r = th + _two_sum_odd(tl, ul)
                ok &= (np.abs(r) >= 2.0 ** -900) & np.isfinite(r)
                out = np.where(ok, r, out)
                take |= ok
    return take, out


# ---------------------------------------------------------------- small floats (OCP FP8/FP6/FP4)

class MiniFloat:
    """A small float format: 1 sign bit, ``e`` exponent bits, ``m`` mantissa bits."""

    def __init__(self, e: int, m: int, bias: int, inf: bool, nan: str):
        self.e, self.m, self.bias, self.has_inf, self.nan = e, m, bias, inf, nan
        self.bits = 1 + e + m
        n = 1 << self.bits
        vals = np.array([self._decode_one(c) for c in range(n)], dtype=np.float64)
        self.table = vals
        half = n // 2
        pos = vals[:half]
        finite = np.isfinite(pos)
        self.pos_codes = np.nonzero(finite)[0]
        self.pos_vals = pos[finite]
        self.max = self.pos_vals.max()

    def _decode_one(self, code: int) -> float:
        sign = -1.0 if code >> (self.e + self.m) else 1.0
        exp = (code >> self.m) & ((1 << self.e) - 1)
        man = code & ((1 << self.m) - 1)
        emax = (1 << self.e) - 1
        if self.nan == "ieee" and exp == emax:  # (NaN codes keep their sign: -NaN decodes to a negative NaN)
            return sign * np.inf if man == 0 else float(np.copysign(np.nan, sign))
        if self.nan == "fn" and exp == emax and man == (1 << self.m) - 1:
            return float(np.copysign(np.nan, sign))
        if exp == 0:
            return sign * man * 2.0 ** (1 - self.bias - self.m)
        return sign * (1 + man / (1 << self.m)) * 2.0 ** (exp - self.bias)

    def decode(self, codes) -> np.ndarray:
        c = np.asarray(codes).astype(np.int64) & ((1 << self.bits) - 1)
        return self.table[c].astype(np.float32)

    def encode(self, x, saturate: bool = False, rand=None) -> np.ndarray:
        """Codes of float64 values: round to nearest even (or stochastically with 32 random
        bits per value), beyond the largest finite value to it (``saturate``, stochastic) or
        to infinity/NaN/the largest value as the format has them; NaN to the format's NaN."""
        x = np.asarray(x, dtype=np.float64)
        a = np.abs(x)
        t = self._tables()
        # interval [pos_vals[idx-1], pos_vals[idx]] holds a
        idx = np.minimum(np.maximum(np.searchsorted(self.pos_vals, a), 1), len(self.pos_vals) - 1)
        if rand is None:
            # nearer end, ties to the even code; a - lo and hi - a are exact for these short
            # values (neighbours within a factor 2), so comparing with the midpoint is the same test
            mid = t["mid"][idx]
            up = (a > mid) | ((a == mid) & t["lo_odd"][idx])
        else:
            frac = (a - t["lo"][idx]) / t["span"][idx]
            up = frac * 4294967296.0 > np.asarray(rand, dtype=np.float64) % 4294967296.0
        code = np.where(up, self.pos_codes[idx], t["lo_code"][idx])  # (0 stays code 0: up is false there)
        code = np.where(a > t["over_sat"] if (saturate or rand is not None) else a > t["over_rne"], t["over_code"][
            bool(saturate)], code)
        sign_bit = 1 << (self.e + self.m)
        code = code | (np.signbit(x).astype(np.int64) * sign_bit)
        nan = np.isnan(x)
        if np.count_nonzero(nan):
            if self.nan == "ieee":
                nan_code = (((1 << self.e) - 1) << self.m) | (1 << (self.m - 1))
            elif self.nan == "fn":
                nan_code = (1 << (self.e + self.m)) - 1
            else:
                nan_code = self.pos_codes[len(self.pos_vals) - 1]
            code = np.where(nan, nan_code | (np.signbit(x).astype(np.int64) * sign_bit), code)  # the NaN's sign kept
        return np.array(code, dtype=np.int64)  # (an array also for one value, as np.where gives)

    def _tables(self) -> dict:
        """Per-interval tables for ``encode`` (interval i lies between positive values i-1 and i)."""
        t = self.__dict__.get("_encode_tables")
        if t is None:
            v, c = self.pos_vals, self.pos_codes
            lo = np.concatenate([v[:1], v[:-1]])
            top = len(v) - 1
            if self.has_inf:
                over_code = ((1 << self.e) - 1) << self.m
            elif self.nan != "none":
                over_code = (1 << (self.e + self.m)) - 1
            else:
                over_code = c[top]
            t = self._encode_tables = {
                "lo": lo, "span": np.where(v > lo, v - lo, 1.0), "mid": (lo + v) / 2,
                "lo_code": np.concatenate([c[:1], c[:-1]]), "lo_odd": (np.concatenate([c[:1], c[:-1]]) & 1) == 1,
                "over_sat": self.max, "over_rne": self.max + (v[top] - v[top - 1]) / 2,
                # beyond the range: the largest value when saturating, else what the format has
                "over_code": {True: c[top], False: over_code},
            }
        return t


MINI = {
    "fp8": MiniFloat(4, 3, 7, inf=False, nan="fn"),   # OCP E4M3FN
    "bf8": MiniFloat(5, 2, 15, inf=True, nan="ieee"),  # OCP E5M2
    "fp6": MiniFloat(2, 3, 1, inf=False, nan="none"),  # OCP E2M3
    "bf6": MiniFloat(3, 2, 3, inf=False, nan="none"),  # OCP E3M2
    "fp4": MiniFloat(2, 1, 1, inf=False, nan="none"),  # OCP E2M1
}
