"""Encoding modifiers applied around an instruction's compiled semantics.

Sources: the 9-bit source encoding's constants (inline integers 128-208, inline floats
240-248 in the operand's float format), input ``abs``/``neg`` (a sign-bit operation in the
operand's width), ``op_sel`` halves of 16-bit and packed operands.  Results: ``omod``
(times 2, 4 or 0.5) and ``clamp`` to [0, 1] of float results.  Lane moves: DPP16 controls
(quad_perm, row shifts and rotates, mirrors, broadcasts, row_newbcast, row_share/row_xmask), DPP8 lane
selects, and GFX9 SDWA byte/word selects.  Every function works on int64 arrays of raw
bits, one element per lane.
"""

from __future__ import annotations

import re

import numpy as np

from . import floats

# inline float constants by (code, width): 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi)
_FLOAT_VALUES = (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0)
_INV_2PI = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F306DC9C882, "bf": 0x3E23}
SRC_VCCZ, SRC_EXECZ, SRC_SCC, SRC_LITERAL = 251, 252, 253, 255
SRC_DPP8, SRC_DPP8FI, SRC_SDWA, SRC_DPP16 = 233, 234, 249, 250


def inline_int(code: int) -> int | None:
    """The value of an inline integer constant code (128..208), else None."""
    if 128 <= code <= 192:
        return code - 128
    if 193 <= code <= 208:
        return 192 - code
    return None


def inline_float_bits(code: int, width: int, bf16: bool = False) -> int | None:
    """Raw bits of inline float constant ``code`` (240..248) for an operand of ``width`` bits."""
    if not 240 <= code <= 248:
        return None
    w = width if width in (16, 32, 64) else 32
    if code == 248:
        return _INV_2PI["bf" if bf16 else w]
    v = np.array([_FLOAT_VALUES[code - 240]])
    if bf16:
        return int(floats.to_bits(floats.to_bf16(v), "bf", 16)[0]) & 0xFFFF
    return int(floats.to_bits(floats.convert(v, ("f", 64), ("f", w)), "f", w)[0]) & ((1 << w) - 1)


def constant_bits(code: int, width: int, is_float: bool, bf16: bool = False) -> int | None:
    """An inline constant as raw bits of a ``width``-bit operand (integers sign-extended), else None."""
    i = inline_int(code)
    if i is not None:
        return i & ((1 << width) - 1)
    f = inline_float_bits(code, width, bf16)
    return f


def abs_neg(x: np.ndarray, width: int, use_abs: bool, neg: bool) -> np.ndarray:
    """abs then neg on the sign bit of a ``width``-bit float held in x's low bits."""
    sign = np.int64(-(1 << 63)) if width == 64 else np.int64(1 << (width - 1))
    if use_abs:
        x = x & ~sign
    if neg:
        x = x ^ sign
    return x


def packed_source(x: np.ndarray, half: int, sel_lo: bool, sel_hi: bool, neg_lo: bool, neg_hi: bool) -> np.ndarray:
    """A packed operand rebuilt from its op_sel/op_sel_hi halves, with neg_lo/neg_hi applied."""
    m = (1 << half) - 1
    lo = (x >> half) & m if sel_lo else x & m
    hi = (x >> half) & m if sel_hi else x & m
    if neg_lo:
        lo = lo ^ (1 << (half - 1))
    if neg_hi:
        hi = hi ^ (1 << (half - 1))
    return lo | (hi << half)


def omod_clamp(bits: np.ndarray, kind: str, width: int, omod: int, clamp: bool) -> np.ndarray:
    """A float result (raw bits) scaled by omod (1: *2, 2: *4, 3: *0.5) and clamped to [0, 1] (NaN -> 0)."""
    if kind == "f" and width == 32 and not omod:  # the common case: clamp of an f32 result
        x = bits.astype(np.uint32).view(np.float32)
        y = np.where(x > 0, np.minimum(x, np.float32(1.0)), np.float32(0.0))
        return (bits & ~np.int64(0xFFFFFFFF)) | y.view(np.uint32).astype(np.int64)
    x = floats.from_bits(bits, kind, width)
    if omod:
        scale = {1: 2.0, 2: 4.0, 3: 0.5}[omod]
        x = floats.convert(x.astype(np.float64) * scale, ("f", 64), (kind, width))  # exact product, one rounding
    if clamp:
        x = np.where(x > 0, np.minimum(x, np.array(1.0, dtype=x.dtype)), np.array(0.0, dtype=x.dtype))
    keep = ~np.int64((1 << width) - 1) if width < 64 else np.int64(0)
    return (bits & keep) | floats.to_bits(np.asarray(x, dtype=x.dtype), kind, width)


_PACKED_FLOAT = re.compile(r"^v_pk_[a-z0-9_]+_(f16|bf16|f32)$")
_SCALAR_FLOAT = re.compile(r"^v_dot2c?_(f32|f16|bf16)_(f16|bf16)$|^v_fma_mix_(f32)$")


def packed_float_clamp(name: str):
    """For a VOP3P instruction with a float result: fn(bits) clamping each element (both halves of a
    v_pk_*_f16/bf16/f32 result, the single result of v_dot2*_f32/f16/bf16 and v_fma_mix_f32) to [0, 1]
    (NaN -> +0); None for others."""
    m = _PACKED_FLOAT.match(name)
    m1 = None if m else _SCALAR_FLOAT.match(name)
    if m is None and m1 is None:
        return None
    ty = m.group(1) if m else (m1.group(1) or m1.group(3))  # type: ignore[union-attr]
    kind, width = ("bf", 16) if ty == "bf16" else ("f", int(ty[1:]))
    count, mask = (2 if m else 1), (1 << width) - 1

    def run(bits):
        u = np.asarray(bits).astype(np.int64).view(np.uint64)
        for k in range(count):
            shift = np.uint64(width * k)
            part = ((u >> shift) & np.uint64(mask)).astype(np.int64)
            c = (omod_clamp(part, kind, width, 0, True) & mask).astype(np.uint64)
            u = (u & ~(np.uint64(mask) << shift)) | (c << shift)
        return u.view(np.int64)
    return run


# ------------------------------------------------------------------ DPP


def dpp16_sources(ctrl: int, L: int, gfx9: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """For a DPP16 control: the lane each lane reads and whether that lane is in range (None: unknown control)."""
    lane = np.arange(L, dtype=np.int64)
    row, pos = lane & ~15, lane & 15
    ok = np.ones(L, dtype=bool)
    if ctrl <= 0xFF:
        return (lane & ~3) | ((ctrl >> (2 * (lane & 3))) & 3), ok
    n = ctrl & 15
    if 0x101 <= ctrl <= 0x10F:
        return lane + n, pos + n < 16
    if 0x111 <= ctrl <= 0x11F:
        return lane - n, pos - n >= 0
    if 0x121 <= ctrl <= 0x12F:
        return row | ((pos - n) & 15), ok
    if ctrl == 0x140:
        return row | (15 - pos), ok
    if ctrl == 0x141:
        return (lane & ~7) | (7 - (lane & 7)), ok
    if gfx9 and 0x150 <= ctrl <= 0x15F:  # row_newbcast (GFX90A and later, the GFX9 generations the machine runs)
        return row | n, ok
    if gfx9:
        moves = {0x130: (lane + 1, lane + 1 < L), 0x134: ((lane + 1) % L, ok), 0x138: (lane - 1, lane >= 1),
                 0x13C: ((lane - 1) % L, ok), 0x142: (row - 1, row >= 16), 0x143: (np.full(L, 31), lane >= 32)}
        return moves.get(ctrl)
    if 0x150 <= ctrl <= 0x15F:
        return row | n, ok
    if 0x160 <= ctrl <= 0x16F:
        return row | (pos ^ n), ok
    return None


def dpp16(src: np.ndarray, word: int, active: np.ndarray, gfx9: bool):
    """DPP16 on SRC0 from the DPP dword: (moved values, lanes that write) or None for an unknown control."""
    L = len(src)
    ctrl, fi, bc = (word >> 8) & 0x1FF, (word >> 18) & 1, (word >> 19) & 1
    moved = dpp16_sources(ctrl, L, gfx9)
    if moved is None:
        return None
    idx, ok = moved
    idx = np.clip(idx, 0, L - 1)
    ok = ok & (active[idx] | bool(fi))
    vals = np.where(ok, src[idx], 0)
    lane = np.arange(L)
    row_mask, bank_mask = (word >> 28) & 15, (word >> 24) & 15
    enabled = (((row_mask >> (lane >> 4)) & 1) & ((bank_mask >> ((lane >> 2) & 3)) & 1)).astype(bool)
    writes = active & enabled & (ok | bool(bc))
    return vals, writes


def dpp8(src: np.ndarray, word: int, active: np.ndarray, fetch_inactive: bool) -> np.ndarray:
    """DPP8 lane selects from the DPP8 dword (lanes reading an inactive lane read 0 unless fetch_inactive)."""
    L = len(src)
    lane = np.arange(L, dtype=np.int64)
    sel = np.array([(word >> (8 + 3 * k)) & 7 for k in range(8)], dtype=np.int64)
    idx = (lane & ~7) | sel[lane & 7]
    vals = src[idx]
    return vals if fetch_inactive else np.where(active[idx], vals, 0)


def dpp_word_mods(word: int, slot: int) -> tuple[bool, bool]:
    """(neg, abs) of source ``slot`` (0 or 1) carried in a VOP1/VOP2/VOPC DPP16 dword."""
    return bool((word >> (20 + 2 * slot)) & 1), bool((word >> (21 + 2 * slot)) & 1)


# ------------------------------------------------------------------ SDWA (GFX9)

_SEL = {0: (0, 8), 1: (8, 8), 2: (16, 8), 3: (24, 8), 4: (0, 16), 5: (16, 16), 6: (0, 32)}


def sdwa_select(x: np.ndarray, sel: int, sext: bool) -> np.ndarray:
    lo, w = _SEL.get(sel, (0, 32))
    v = (x >> lo) & ((1 << w) - 1)
    if sext and w < 32:
        v = ((v ^ (1 << (w - 1))) - (1 << (w - 1))) & 0xFFFFFFFF
    return v


def sdwa_dest(new: np.ndarray, old: np.ndarray, sel: int, unused: int) -> np.ndarray:
    """A 32-bit result placed by dst_sel; other bits zero (pad), sign-extended (sext) or kept (preserve)."""
    lo, w = _SEL.get(sel, (0, 32))
    if w == 32:
        return new & 0xFFFFFFFF
    m = ((1 << w) - 1) << lo
    placed = (new << lo) & m
    if unused == 2:
        return (old & ~m & 0xFFFFFFFF) | placed
    if unused == 1:
        top = (placed >> (lo + w - 1)) & 1
        above = (0xFFFFFFFF & ~((1 << (lo + w)) - 1))
        return placed | np.where(top == 1, above, 0)
    return placed
