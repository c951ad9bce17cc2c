"""Run-time helpers called by compiled pseudocode: lane masks, bit access, integer and
float conversions, and the functions the manuals call (``signext``, ``exponent``, ...).

Integers of up to 64 bits are numpy int64 arrays holding the exact value modulo 2**64
(views such as ``.u32`` cut them down); wider ones are object arrays of Python ints.
Lane masks are ``None`` (every lane) or numpy bool arrays.
"""

from __future__ import annotations

import math
import sys

import numpy as np

from . import floats
from .registers import gather, lane_get, scatter, vgpr_file_get, vgpr_file_put  # noqa: F401 (rt.* in generated code)
from .types import Ty

M64 = (1 << 64) - 1


def i64(v: int) -> int:
    """A Python int wrapped into the int64 range (for constants mixed with int64 arrays)."""
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def mask(w: int) -> int:
    return i64((1 << w) - 1) if w < 64 else -1


# Fast paths below test for the common case first: an int64 numpy array (``_ND``/``_I64``)
# with widths and offsets known at compile time; anything else takes the general code.
_ND = np.ndarray
_I64 = np.dtype(np.int64)
_OBJ = np.dtype(object)
_BOOL = np.dtype(bool)
_LITTLE = sys.byteorder == "little"  # aligned fields of an int64 are then its uint8/16/32 view's elements
_UNSIGNED: dict[int, np.dtype] = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32)}
_SIGNED: dict[int, np.dtype] = {8: np.dtype(np.int8), 16: np.dtype(np.int16), 32: np.dtype(np.int32)}
_MASKS = [mask(w) for w in range(65)]
_SETBITS_KEEP: dict = {}  # (lo, w) -> int64 mask of the bits that setbits keeps


# ------------------------------------------------------------------ lane masks


def mand(m, c):
    """Lanes of mask m where c holds; None = every lane."""
    if not isinstance(c, np.ndarray):
        return m if c else False
    if m is None:
        return c
    if m is False:
        return False
    return m & c


def mandnot(m, c):
    if not isinstance(c, np.ndarray):
        return False if c else m
    if m is None:
        return ~c
    if m is False:
        return False
    return m & ~c


def many(m) -> bool:
    if m is None:
        return True
    if m is False:
        return False
    return np.count_nonzero(m) != 0  # (much cheaper than m.any() on short arrays)


def mminus(a, b):
    """Lanes of mask a that are not in mask b."""
    if b is None or a is False:
        return False
    if b is False:
        return a
    if a is None:
        return ~b
    return a & ~b


def merge(m, new, old):
    """new in the lanes of m, old elsewhere."""
    if m is None:
        if type(new) is _ND and new.ndim:
            return new
    elif type(m) is _ND and type(new) is _ND and type(old) is _ND and new.dtype is not _OBJ and old.dtype is not _OBJ:
        return np.where(m, new, old)  # the common masked case: two int/float arrays
    if old is None:
        if np.ndim(new):
            old = np.zeros_like(np.asarray(new))
        else:
            old = np.zeros(np.shape(m) if m is not None and m is not False else 1, dtype=np.asarray(new).dtype)
    if m is None:
        return new if isinstance(new, np.ndarray) and np.ndim(new) else np.broadcast_to(new, np.shape(old)).copy()
    if m is False:
        return old
    if isinstance(old, np.ndarray) and old.dtype == object or isinstance(new, np.ndarray) and new.dtype == object:
        return np.where(m, np.asarray(new, dtype=object), np.asarray(old, dtype=object))
    return np.where(m, new, old)


def first(m, v):
    """A uniform value from the first lane of m (wave-level statements)."""
    if not isinstance(v, np.ndarray) or v.ndim == 0:
        return v
    if m is None or m is False:
        return v[0]
    idx = np.flatnonzero(m)
    return v[idx[0]] if len(idx) else v[0]


# ------------------------------------------------------------------ integers

def obj(x, ty: Ty):
    """Exact Python-int object array for an integer value of type ty."""
    if isinstance(x, np.ndarray) and x.dtype == object:
        return x
    if not isinstance(x, np.ndarray):
        x = int(x)
        return x & M64 if (ty.width >= 64 and ty.kind != "i" and x < 0 and ty.width <= 64) else x
    out = x.astype(object)
    if ty.width == 64 and ty.kind != "i":
        out = np.array([v & M64 for v in out], dtype=object)
    return out


def from_obj(x):
    """Object array / Python int -> int64 representation (mod 2**64)."""
    if isinstance(x, np.ndarray) and x.dtype == object:
        return np.array([i64(int(v)) for v in x], dtype=np.int64)
    if isinstance(x, int):
        return i64(x)
    return x


def wide_bytes(wide, nbytes: int) -> bytes:
    """The low ``nbytes`` bytes of each value (little-endian), concatenated."""
    vals = wide.tolist() if isinstance(wide, np.ndarray) else list(wide)
    try:  # values already in range (the usual case): no masking
        return b"".join([v.to_bytes(nbytes, "little") for v in vals])
    except (OverflowError, AttributeError):
        keep = (1 << (8 * nbytes)) - 1
        return b"".join([(int(v) & keep).to_bytes(nbytes, "little") for v in vals])


def view_u(x, w: int):
    if type(x) is _ND and x.dtype is _I64:
        if w >= 64:
            return x
        t = _UNSIGNED.get(w)  # a narrowing cast keeps the low bits, like the mask
        return x.astype(t).astype(_I64) if t is not None else x & _MASKS[w]
    if isinstance(x, np.ndarray) and x.dtype == object:
        m = (1 << w) - 1
        r = np.array([int(v) & m for v in x], dtype=object)
        return from_obj(r) if w <= 64 else r
    if isinstance(x, (int, np.integer)) and not isinstance(x, np.ndarray):
        return int(x) & ((1 << w) - 1) if w < 64 else i64(int(x))
    if w >= 64:
        return x
    return x & mask(w)


def view_i(x, w: int):
    if type(x) is _ND and x.dtype is _I64:
        if w >= 64:
            return x
        t = _SIGNED.get(w)
        if t is not None:
            return x.astype(t).astype(_I64)
        s = 1 << (w - 1)
        return ((x & _MASKS[w]) ^ s) - s
    if isinstance(x, np.ndarray) and x.dtype == object:
        m, s = (1 << w) - 1, 1 << (w - 1)
        r = np.array([((int(v) & m) ^ s) - s for v in x], dtype=object)
        return from_obj(r) if w <= 64 else r
    if not isinstance(x, np.ndarray):
        v = int(x) & ((1 << w) - 1)
        return v - (1 << w) if v >> (w - 1) else v
    if w >= 64:
        return x
    s = 1 << (w - 1)
    return ((x & mask(w)) ^ s) - s


def shl(a, n, big: bool = False):
    if big:
        return _objmap2(lambda x, k: x << k, a, n)
    if isinstance(n, (int, np.integer)) and not isinstance(n, np.ndarray):
        n = int(n)
        return a << n if n < 64 else a * 0
    n = np.asarray(n)
    return np.where(n >= 64, 0, np.left_shift(a, np.minimum(n, 63)))


def shr(a, n, unsigned64: bool = False, big: bool = False):
    if big:
        return _objmap2(lambda x, k: x >> k, a, n)
    if unsigned64:
        ua = np.asarray(a).astype(np.int64).view(np.uint64) if isinstance(a, np.ndarray) else np.uint64(int(a) & M64)
        if isinstance(n, (int, np.integer)) and not isinstance(n, np.ndarray):
            return (ua >> np.uint64(n)).astype(np.int64) if n < 64 else np.zeros_like(np.asarray(a), dtype=np.int64)
        n = np.asarray(n).astype(np.uint64)
        return np.where(n >= 64, 0, ua >> np.minimum(n, 63)).astype(np.int64)
    if isinstance(n, (int, np.integer)) and not isinstance(n, np.ndarray):
        return a >> min(int(n), 63)
    return np.right_shift(a, np.minimum(np.asarray(n), 63))


def _objmap2(f, a, b):
    sh = np.broadcast(np.asarray(a, dtype=object), np.asarray(b, dtype=object)).shape
    aa = np.broadcast_to(np.asarray(a, dtype=object), sh)
    bb = np.broadcast_to(np.asarray(b, dtype=object), sh)
    return np.array([f(int(x), int(y)) for x, y in zip(aa.ravel(), bb.ravel())], dtype=object).reshape(sh)


def _uniform(lo):
    """A per-lane offset that is the same in every lane, as a Python int (loop offsets)."""
    if isinstance(lo, np.ndarray) and lo.ndim == 1 and len(lo) and lo.dtype != object:
        first_v = lo[0]
        if not np.count_nonzero(lo != first_v):
            return int(first_v)
    return lo


def getbits(x, lo, w):
    """Bits [lo, lo+w) of x (lo may be per lane; w uniform)."""
    if type(lo) is int and type(x) is _ND and x.dtype is _I64 and 0 <= lo < 64:
        if lo:
            t = _UNSIGNED.get(w)
            if t is not None and lo % w == 0 and _LITTLE and x.ndim == 1 and x.flags.c_contiguous:
                return x.view(t)[lo // w::64 // w].astype(_I64)  # an aligned field: read it in place
            x = x >> lo
        if w >= 64:
            return x
        t = _UNSIGNED.get(w)  # (view_u's int64 case, inline)
        return x.astype(t).astype(_I64) if t is not None else x & _MASKS[w]
    w = int(w)
    lo = _uniform(lo)
    if isinstance(x, np.ndarray) and x.dtype == object:
        if not isinstance(lo, np.ndarray):
            r = (x >> int(lo)) & ((1 << w) - 1)
            return r.astype(np.int64) if w < 64 else (from_obj(r) if w == 64 else r)
        return view_u(_objmap2(lambda v, k: v >> k, x, lo), w)
    if not isinstance(lo, np.ndarray):
        lo = int(lo)
        if lo >= 64:
            return np.where(np.asarray(x) < 0, mask(min(w, 64)), 0) if isinstance(x, np.ndarray) else (-1 if x < 0 else 0) & ((1 << w) - 1)
        return view_u(x >> lo, w) if lo else view_u(x, w)
    return view_u(np.right_shift(x, np.minimum(lo, 63)), w)


def setbits(old, lo, w, v):
    """old with bits [lo, lo+w) replaced by the low bits of v."""
    if type(lo) is int and type(old) is _ND and old.dtype is _I64 and lo >= 0 and lo + w <= 64:
        t = _UNSIGNED.get(w)
        if (t is not None and lo % w == 0 and _LITTLE and type(v) is _ND and v.dtype is _I64 and old.ndim == 1
                and v.shape == old.shape and old.flags.c_contiguous):
            out = old.copy()  # an aligned field: write it in place (the cast keeps v's low bits)
            out.view(t)[lo // w::64 // w] = v
            return out
        keep = _SETBITS_KEEP.get((lo, w))
        if keep is None:
            keep = _SETBITS_KEEP[(lo, w)] = ~i64(((1 << w) - 1) << lo)
        return (old & keep) | ((v & _MASKS[w]) << lo) if lo else (old & keep) | (v & _MASKS[w])
    w = int(w)
    lo = _uniform(lo)
    if not isinstance(lo, np.ndarray) and (isinstance(old, np.ndarray) and old.dtype == object or int(lo) + w > 64):
        m = (1 << w) - 1
        o = np.asarray(old, dtype=object)
        vv: np.ndarray | int
        if isinstance(v, np.ndarray):
            vv = v.astype(object) if v.dtype != object else v
        else:
            vv = int(v)
        out = (o & ~(m << int(lo))) | ((vv & m) << int(lo))
        return np.asarray(out, dtype=object)
    if isinstance(old, np.ndarray) and old.dtype == object or (not isinstance(lo, np.ndarray) and int(lo) + w > 64):
        o = np.asarray(old, dtype=object)
        sh = np.broadcast(o, np.asarray(lo, dtype=object), np.asarray(v, dtype=object)).shape
        oo = np.broadcast_to(o, sh).ravel()
        ll = np.broadcast_to(np.asarray(lo, dtype=object), sh).ravel()
        vv = np.broadcast_to(obj(v, Ty("i", 64)) if isinstance(v, np.ndarray) else np.asarray(v, dtype=object), sh).ravel()
        m = (1 << w) - 1
        return np.array([(int(a) & ~(m << int(k))) | ((int(b) & m) << int(k)) for a, k, b in zip(oo, ll, vv)],
                        dtype=object).reshape(sh)
    m = mask(w)
    if isinstance(lo, np.ndarray):
        lo = np.minimum(lo, 63)
        return (old & ~np.left_shift(np.int64(m), lo)) | np.left_shift(np.asarray(v) & m, lo)
    lo = int(lo)
    if isinstance(v, int):  # a Python int: its field shifted and wrapped into int64 (bit 63 is the sign)
        return (old & ~i64((((1 << w) - 1) << lo))) | i64((v & ((1 << w) - 1)) << lo)
    return (old & ~i64((((1 << w) - 1) << lo))) | ((v & m) << lo)


def lane_bit(x, C):
    """Bit ``laneId`` of x in each lane (``VCC.u64[laneId]``)."""
    if type(x) is _ND and x.dtype is _I64 and C.L <= 64:
        return (x >> C.lane) & 1
    return getbits(x, C.lane, 1)


def set_lane_bit(old, v, C):
    """old with bit ``laneId`` replaced by the low bit of v in each lane (``D0.u64[laneId] = ...``)."""
    if type(old) is _ND and old.dtype is _I64 and C.L <= 64:
        return (old & C.lane_keep) | ((v & 1) << C.lane)
    return setbits(old, C.lane, 1, v)


def set_lane_flag(old, flag, C):
    """``set_lane_bit`` for a per-lane boolean: bit laneId set where it holds."""
    if type(old) is _ND and old.dtype is _I64 and C.L <= 64 and type(flag) is _ND and flag.dtype is _BOOL:
        return (old & C.lane_keep) | (flag * C.lane_bit)
    return set_lane_bit(old, np.asarray(flag).astype(np.int64), C)


_REVERSED_BYTE = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint8)


def bitrev(x, w: int):
    """Bits [0 .. w-1] of x in reverse order (the manuals' x[0 : 31])."""
    if type(x) is _ND and x.dtype is _I64 and 0 < w <= 64 and x.ndim == 1:
        # reverse all 64 bits (bytes in reverse order, each byte reversed), then drop the low 64 - w
        b = _REVERSED_BYTE[x.astype("<i8").view(np.uint8).reshape(-1, 8)[:, ::-1]]
        u = np.ascontiguousarray(b).view("<u8").ravel()
        return (u >> np.uint64(64 - w)).astype(np.int64)
    u = np.asarray(x).astype(np.int64).view(np.uint64)
    r = np.zeros_like(u)
    for i in range(w):
        r |= ((u >> np.uint64(i)) & np.uint64(1)) << np.uint64(w - 1 - i)
    return r.view(np.int64)


def concat(parts):
    """{a, b, ...}: parts = [(value, width)], most significant first."""
    total = sum(w for _, w in parts)
    if total > 64:
        acc = 0
        for v, w in parts:
            vv = obj(v, Ty("i", 64))
            acc = _objmap2(lambda a, b, w=w: (a << w) | (b & ((1 << w) - 1)), acc, vv)
        return acc
    acc = 0
    for v, w in parts:
        acc = (acc << w) | (v & mask(w)) if w < 64 else v
    return acc


def cmp_unsigned64(a, b, op: str):
    ua = np.asarray(a).astype(np.int64).view(np.uint64)
    ub = np.asarray(b).astype(np.int64).view(np.uint64)
    return {"<": ua < ub, ">": ua > ub, "<=": ua <= ub, ">=": ua >= ub, "==": ua == ub, "!=": ua != ub}[op]


def idiv(a, b, signed: bool):
    a = np.asarray(a)
    b = np.asarray(b)
    safe = np.where(b == 0, 1, b)
    q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe) if signed else a // safe
    return np.where(b == 0, -1, q)


def popcount(x):
    if isinstance(x, np.ndarray) and x.dtype == object:
        return np.array([bin(int(v) & M64).count("1") for v in x], dtype=np.int64)
    return np.bitwise_count(np.asarray(x).astype(np.int64).view(np.uint64)).astype(np.int64)


def signext_from_bit(x, n):
    n = np.asarray(n).astype(np.int64)
    nn = np.minimum(np.maximum(n, 1), 64)
    sign = np.left_shift(np.int64(1), np.minimum(nn - 1, 63))
    low = np.where(nn >= 64, x, x & (np.left_shift(np.int64(1), np.minimum(nn, 63)) - 1))
    return np.where(n == 0, 0, (low ^ sign) - sign)


# ------------------------------------------------------------------ conversions between types

def to_int_trunc(x, ty_src: Ty):
    """Numeric float -> int (truncate), used by integer casts of float values."""
    f = np.asarray(x, dtype=np.float64)
    f = np.where(np.isnan(f), 0.0, np.minimum(np.maximum(np.trunc(f), -9.2e18), 9.2e18))  # (np.clip is slower)
    return f.astype(np.int64)


def int_to_float(x, src: Ty, dst: Ty):
    if isinstance(x, np.ndarray) and x.dtype == object:
        f = np.array([float(int(v)) for v in x], dtype=np.float64)
    elif src.width == 64 and src.kind != "i":
        f = np.asarray(x).astype(np.int64).view(np.uint64)
    else:
        f = np.asarray(x)
    if dst.kind == "bf":
        return floats.to_bf16(np.asarray(f).astype(np.float64))
    return np.asarray(f).astype(floats.dtype(dst.kind, dst.width))


_FLOATS = [Ty("f", 16), Ty("f", 32), Ty("f", 64), Ty("bf", 16)]
_FLOAT_PAIRS = {(a, b): ((a.kind, a.width), (b.kind, b.width)) for a in _FLOATS for b in _FLOATS}


def conv(x, src: Ty, dst: Ty, mode: int = floats.RNE, bitcast: bool = False):
    """Value of type src -> value of type dst (numeric, or bit-cast when asked)."""
    pair = _FLOAT_PAIRS.get((src, dst))  # the common float -> float case, looked up once
    if pair is not None:
        return floats.convert(x, pair[0], pair[1], mode)
    if src.is_float and dst.is_float:
        return floats.convert(x, (src.kind, src.width), (dst.kind, dst.width), mode)
    if src.is_mini and dst.is_float:
        return floats.convert(floats.MINI[src.kind].decode(x), ("f", 32), (dst.kind, dst.width), mode)
    if src.is_float and dst.is_mini:
        return floats.MINI[dst.kind].encode(np.asarray(x, dtype=np.float64))
    if src.is_float:  # -> int
        if bitcast:
            return floats.to_bits(x, src.kind, src.width)
        return to_int_trunc(x, src)
    if dst.is_float:  # int -> float
        if bitcast:
            bits = from_obj(x) if isinstance(x, np.ndarray) and x.dtype == object else x
            return floats.from_bits(np.asarray(bits), dst.kind, dst.width)
        return int_to_float(x, src, dst)
    if dst.width > 64:
        return obj(x, src)
    if isinstance(x, np.ndarray) and x.dtype == object:
        return from_obj(x)
    return x


def fbits(x, ty: Ty):
    """Raw bits (int64) of a value of any type."""
    if ty.is_float:
        return floats.to_bits(x, ty.kind, ty.width)
    return x


# ------------------------------------------------------------------ the manuals' functions

def isnan(x):
    return np.isnan(x)


def is_snan(x, ty: Ty):
    if not ty.is_float:
        return np.zeros(np.shape(x), dtype=bool)
    nan = np.isnan(x)
    if not np.count_nonzero(nan):  # no NaN at all (the common case): no bit work
        return nan
    mbits = {16: 10, 32: 23, 64: 52}[ty.width] if ty.kind == "f" else 7
    bits = floats.to_bits(x, ty.kind, ty.width)
    return nan & (((bits >> (mbits - 1)) & 1) == 0)


def is_qnan(x, ty: Ty):
    nan = np.isnan(x)
    if not np.count_nonzero(nan):
        return nan
    return nan & ~is_snan(x, ty)


def quiet(x, ty: Ty):
    nan = np.isnan(x)
    if type(x) is _ND and x.ndim and not np.count_nonzero(nan):  # nothing to quiet: a copy, as np.where gives
        return x.astype(np.result_type(floats.dtype(ty.kind, ty.width), x.dtype))
    mbits = {16: 10, 32: 23, 64: 52}[ty.width] if ty.kind == "f" else 7
    bits = floats.to_bits(x, ty.kind, ty.width)
    q = floats.from_bits(bits | (1 << (mbits - 1)), ty.kind, ty.width)
    return np.where(nan, q, x)


def sign(x, ty: Ty):
    if ty.is_float:
        return np.signbit(x).astype(np.int64)
    return (np.asarray(x) < 0).astype(np.int64)


def exponent(x, ty: Ty):
    mbits, emask = {16: (10, 0x1F), 32: (23, 0xFF), 64: (52, 0x7FF)}[ty.width] if ty.kind == "f" else (7, 0xFF)
    return (floats.to_bits(x, ty.kind, ty.width) >> mbits) & emask


def mantissa(x, ty: Ty):
    """frexp mantissa in [0.5, 1) with the sign of x (the V_FREXP_MANT meaning)."""
    m, _ = np.frexp(np.asarray(x, dtype=np.float64))
    return floats.convert(m, ("f", 64), (ty.kind, ty.width))


def mantissa_bits(x, ty: Ty):
    mbits = {16: 10, 32: 23, 64: 52}[ty.width] if ty.kind == "f" else 7
    return floats.to_bits(x, ty.kind, ty.width) & ((1 << mbits) - 1)


def is_denorm(x, ty: Ty):
    return (exponent(x, ty) == 0) & (np.asarray(x) != 0)


def ldexp(x, n, ty: Ty):
    n = np.minimum(np.maximum(np.asarray(n).astype(np.int64), -4000), 4000)
    if ty.width == 64:
        return np.ldexp(np.asarray(x, dtype=np.float64), n)
    # scale in binary64 is exact (n small enough) and rounds once to the target
    y = np.ldexp(np.asarray(x).astype(np.float64), n)
    return floats.convert(y, ("f", 64), (ty.kind, ty.width))


def unary_f(fn, x, ty: Ty):
    y = fn(np.asarray(x).astype(np.float64)) if ty.width != 64 else fn(np.asarray(x, dtype=np.float64))
    return floats.convert(np.asarray(y, dtype=np.float64), ("f", 64), (ty.kind, ty.width))


def f_to_int(x, ty: Ty, w: int, signed: bool):
    """AMD float -> int conversion: truncate, saturate, NaN -> 0."""
    f = np.asarray(x).astype(np.float64)
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    t = np.trunc(np.where(np.isnan(f), 0.0, f))
    out = np.where(t <= lo, lo, np.where(t >= hi, hi, np.clip(t, lo, hi) if w >= 64 else np.minimum(np.maximum(t, lo), hi)))
    return out.astype(np.float64).astype(np.int64) if w < 64 else np.array([int(v) for v in np.atleast_1d(out)], dtype=object)


def sat_int(x, w: int, signed: bool):
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)
    if type(x) is _ND and x.dtype is _I64 and w < 64:
        return np.minimum(np.maximum(x, lo), hi)
    return np.clip(x, lo, hi)


def to_norm(x, ty: Ty, w: int, signed: bool):
    """f16/f32 -> snorm/unorm integer: clamp, scale, round to nearest even, NaN -> 0."""
    f = np.asarray(x).astype(np.float64)
    f = np.where(np.isnan(f), 0.0, f)
    scale = (1 << (w - 1)) - 1 if signed else (1 << w) - 1
    f = np.clip(f, -1.0 if signed else 0.0, 1.0)
    return np.rint(f * scale).astype(np.int64)


def is_even(x):
    f = np.asarray(x, dtype=np.float64)
    return np.where(np.isfinite(f), np.fmod(f, 2.0) == 0, False)


def fract(x, ty: Ty):
    f = np.asarray(x)
    return f - np.floor(f)


def float32_from_fields(s, e, m):
    bits = ((np.asarray(s) & 1) << 31) | ((np.asarray(e) & 0xFF) << 23) | (np.asarray(m) & 0x7FFFFF)
    return floats.from_bits(bits, "f", 32)


def cvt_sr(x, rand, ty: Ty, dst: Ty):
    """Stochastic rounding of an f32 value to f16/bf16 with 32 random bits."""
    f = np.asarray(x, dtype=np.float32)
    down = floats.convert(f, ("f", 32), (dst.kind, dst.width), floats.RTZ)
    back = floats.convert(down, (dst.kind, dst.width), ("f", 32))
    up = np.nextafter(down, np.where(f > 0, np.inf, -np.inf).astype(down.dtype)) if dst.kind == "f" else \
        floats.to_bf16(np.nextafter(back, np.where(f > 0, np.inf, -np.inf).astype(np.float32)) , floats.RNE)
    up_f = floats.convert(up, (dst.kind, dst.width), ("f", 32))
    span = np.abs(up_f.astype(np.float64) - back.astype(np.float64))
    frac = np.abs(f.astype(np.float64) - back.astype(np.float64)) / np.where(span > 0, span, 1.0)
    take = frac * 4294967296.0 > (np.asarray(rand).astype(np.int64) & 0xFFFFFFFF)
    return np.where(np.isfinite(f) & (span > 0) & take, up, down)


def mini_scale_decode(x, kind: str, scale, dst: Ty):
    """An OCP small-float code times the E8M0 scale 2**(scale - 127); scale 0xFF (E8M0's NaN) gives NaN."""
    s = np.asarray(scale).astype(np.int64)
    f = floats.MINI[kind].decode(x).astype(np.float64) * np.exp2(s - 127.0)
    f = np.where(s & 0xFF == 0xFF, np.copysign(np.nan, f), f)
    return floats.convert(f, ("f", 64), (dst.kind, dst.width))


def mini_scale_encode(x, ty: Ty, kind: str, scale, rand=None):
    """x divided by the E8M0 scale, encoded saturating; scale 0xFF (E8M0's NaN) gives the format's NaN."""
    s = np.asarray(scale).astype(np.int64)
    f = np.asarray(x).astype(np.float64) / np.exp2(s - 127.0)
    f = np.where(s & 0xFF == 0xFF, np.copysign(np.nan, np.asarray(x).astype(np.float64)), f)
    return floats.MINI[kind].encode(f, saturate=True, rand=rand)


PI = math.pi
CVT_OFF_TABLE = [((i ^ 8) - 8) / 16.0 for i in range(16)]


def lane_put(reg, lane, v, m):
    """VGPR[lane][reg] = v for a uniform lane index (cross-lane instructions)."""
    if not many(m):
        return reg
    reg = reg.copy()
    k = int(first(m, lane))
    if 0 <= k < len(reg):
        reg[k] = first(m, v)
    return reg
