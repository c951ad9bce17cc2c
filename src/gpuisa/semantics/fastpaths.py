"""Vectorised replacements for compiled programs whose pseudocode loops over packed elements.

The pk32 FP6/BF6 conversions of CDNA4 loop 32 times over 6-bit fields of 192-bit values;
compiled statement by statement that is 32 rounds of wide-integer work per lane.  Here
the same run-time helpers (``mini_scale_decode``/``mini_scale_encode`` and the
``v_prng_b32`` step) are applied once to all 32 elements of every lane.  The compiled
program stays available as ``Program.reference_fn``; tests/test_semantics_fastpaths.py
checks that both give the same bits on random and special inputs.
"""

from __future__ import annotations

import math
import re

import numpy as np

from . import floats
from . import runtime as rt
from .types import Ty

PK32 = re.compile(r"^v_cvt_scalef32_(sr_)?pk32_(f32|f16|bf16|fp6|bf6)_(f32|f16|bf16|fp6|bf6)$")
_FLOAT = {"f32": ("f", 32), "f16": ("f", 16), "bf16": ("bf", 16)}


def _group(bits: int) -> tuple[int, int]:
    """(bytes, fields) of the smallest whole-byte group of ``bits``-bit fields (fits in int64)."""
    nbytes = bits // math.gcd(bits, 8)
    return nbytes, nbytes * 8 // bits


def _unpack(wide, bits: int, count: int) -> np.ndarray:
    """(lanes,) wide ints -> (lanes, count) unsigned fields of ``bits`` bits, lowest first."""
    nbytes = -(-bits * count // 8)
    raw = rt.wide_bytes(wide, nbytes)
    u8 = np.frombuffer(raw, dtype=np.uint8).reshape(len(wide), nbytes)
    if bits in (16, 32):
        return u8.view(np.uint16 if bits == 16 else np.uint32)[:, :count].astype(np.int64)
    gb, gf = _group(bits)
    if nbytes % gb == 0 and gb <= 7:  # whole groups: each is one integer of gb bytes
        g = u8.reshape(len(wide), nbytes // gb, gb).astype(np.int64) << (8 * np.arange(gb))
        v = g.sum(axis=2)
        f = (v[:, :, None] >> (bits * np.arange(gf))) & ((1 << bits) - 1)
        return f.reshape(len(wide), -1)[:, :count]
    b = np.unpackbits(u8, axis=1, bitorder="little")[:, : bits * count].reshape(len(wide), count, bits)
    return (b.astype(np.int64) << np.arange(bits)).sum(axis=2)


def _pack(codes: np.ndarray, bits: int) -> np.ndarray:
    """(lanes, count) fields -> object array of wide ints."""
    lanes, count = codes.shape
    gb, gf = _group(bits)
    if bits in (16, 32):
        u8 = codes.astype(np.uint16 if bits == 16 else np.uint32).view(np.uint8).reshape(lanes, -1)
    elif count % gf == 0 and gb <= 7:
        f = (np.asarray(codes, dtype=np.int64) & ((1 << bits) - 1)).reshape(lanes, count // gf, gf)
        v = (f << (bits * np.arange(gf))).sum(axis=2)
        u8 = ((v[:, :, None] >> (8 * np.arange(gb))) & 0xFF).astype(np.uint8).reshape(lanes, -1)
    else:
        b = ((codes[:, :, None] >> np.arange(bits)) & 1).astype(np.uint8).reshape(lanes, count * bits)
        u8 = np.packbits(b, axis=1, bitorder="little")
    raw = np.ascontiguousarray(u8).tobytes()
    n = u8.shape[1]
    return np.array([int.from_bytes(raw[i * n:(i + 1) * n], "little") for i in range(lanes)], dtype=object)


def _clmul197(h):
    """Carry-less product h * 197 (197 = x^7 + x^6 + x^2 + 1)."""
    return h ^ (h << 2) ^ (h << 6) ^ (h << 7)


def _prng_chain(seed, steps: int) -> np.ndarray:
    """(lanes, steps): the seed, then each v_prng_b32 step (shift left, xor 197 when bit 31 was set).

    A step is multiplication by x modulo P(x) = x^32 + 197 over GF(2), so step p is
    r * x^p mod P: the low bits shifted left by p, plus the p bits shifted out times 197
    (carry-less), reduced once more for the at most 7 bits that product has above bit 31.
    All steps of all lanes at once."""
    r = (np.asarray(seed, dtype=np.int64) & 0xFFFFFFFF)[:, None]
    p = np.arange(steps, dtype=np.int64)[None, :]
    high = r >> (32 - p)  # the p bits shifted out (none for p = 0)
    t = _clmul197(high)
    return ((r << p) & 0xFFFFFFFF) ^ (t & 0xFFFFFFFF) ^ _clmul197(t >> 32)


def pk32_source_bits(name: str) -> int:
    """Width of S0 for a pk32 conversion: 32 fields of the source format (the pseudocode's
    slices have loop-dependent bounds, so the compiler cannot see it)."""
    m = PK32.match(name)
    if m is None:
        raise ValueError(f"{name} is not a pk32 conversion")
    return 32 * {"f32": 32, "f16": 16, "bf16": 16}.get(m.group(3), 6)


def pk32(name: str):
    """A fast program body for a pk32 conversion, or None."""
    m = PK32.match(name)
    if not m:
        return None
    sr, dst, src = m.group(1) is not None, m.group(2), m.group(3)
    scale_reg = "S2" if sr else "S1"
    if src in _FLOAT and dst in ("fp6", "bf6"):
        kind, width = _FLOAT[src]

        def encode(R, _m, C):
            scale = rt.view_u(rt.exponent(floats.from_bits(R[scale_reg], "f", 32), Ty("f", 32)), 32)
            scale = rt.view_u(scale, 8)[:, None]
            x = floats.from_bits(_unpack(R["S0"], width, 32), kind, width)
            rand = _prng_chain(R["S1"], 32) if sr else None
            codes = rt.mini_scale_encode(x, Ty(kind, width), dst, scale, rand)
            return _store(R, _m, _pack(np.asarray(codes) & 0x3F, 6))

        return encode
    if src in ("fp6", "bf6") and dst in _FLOAT and not sr:
        kind, width = _FLOAT[dst]

        def decode(R, _m, C):
            scale = rt.view_u(rt.exponent(floats.from_bits(R[scale_reg], "f", 32), Ty("f", 32)), 32)
            scale = rt.view_u(scale, 8)[:, None]
            vals = rt.mini_scale_decode(_unpack(R["S0"], 6, 32), src, scale, Ty(kind, width))
            bits = floats.to_bits(vals, kind, width)
            return _store(R, _m, _pack(np.asarray(bits) & ((1 << width) - 1), width))

        return decode
    return None


def _store(R, _m, new):
    if _m is not None and _m is not False:
        new = np.where(_m, new, np.asarray(R["D0"], dtype=object))
    R["D0"] = new
    return R


# ---------------------------------------------------------------- cross-lane permutes

PERMLANE = re.compile(r"^v_permlane(x?)16(_var)?_b32$|^v_permlane64_b32$")


def permlane(name: str, reference):
    """Whole-wave gathers for the permlane family (``reference`` runs when a lane mask is given)."""
    m = PERMLANE.match(name)
    if not m:
        return None
    is64 = name == "v_permlane64_b32"
    cross, var = m.group(1) == "x", m.group(2) is not None

    def run(R, _m, C):
        if _m is not None:
            return reference(R, _m, C)
        if is64 and C.w32:
            return R  # a no-op in wave32
        n = 32 if C.w32 else 64
        lanes = np.arange(n)
        s0 = np.asarray(R["S0"])
        exec_bits = int(np.asarray(R["EXEC"])[0]) if "EXEC" in R else (1 << n) - 1
        if is64:
            src = lanes ^ 32
        else:
            row = lanes // 16
            base = (row ^ 1 if cross else row) * 16
            if var:
                sel = np.asarray(R["S1"])[:n].astype(np.int64) & 15
            else:
                lanesel = (int(np.asarray(R["S2"])[0]) & 0xFFFFFFFF) << 32 | (int(np.asarray(R["S1"])[0]) & 0xFFFFFFFF)
                sel = np.array([(lanesel >> (4 * (i % 16))) & 15 for i in range(n)], dtype=np.int64)
            src = base + sel
        active = ((exec_bits >> lanes) & 1).astype(bool)
        d = np.array(R["D0"], copy=True)
        d[:n] = np.where(active, s0[src], d[:n])
        R["D0"] = d
        return R

    return run


def attach(prog) -> None:
    """Swap in a fast path where one exists, keeping the compiled pseudocode as ``reference_fn``."""
    fast = pk32(prog.name) or permlane(prog.name, prog.fn)
    if fast is None:
        return
    prog.reference_fn, prog.fn = prog.fn, fast
    if PK32.match(prog.name):
        prog.widths["S0"] = pk32_source_bits(prog.name)
