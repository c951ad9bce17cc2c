"""The project's formulations of CDNA5's (gfx1250's) new operations that no generation's pseudocode
source lists: 64-bit integer arithmetic, packed 16-bit three-way min/max, packed bf16 arithmetic and
bf16/tanh transcendental operations.  :mod:`.formulations` lists them with the others (``SPECS``);
``tests/test_semantics_generations_formulations.py`` checks each against references computed there.
"""

from __future__ import annotations

import re
from typing import Callable

import numpy as np

from . import floats

M32 = (1 << 32) - 1


# ------------------------------------------------------------------ GFX1250 integer operations

M64 = (1 << 64) - 1


def _signed(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def _lanewise(fn, ins: tuple[str, ...], out_bits: int):
    """D0 = fn(*operands) per active lane, on the operands' raw bits as Python ints."""
    def run(R, _m, C):
        cols = [[int(v) & M64 for v in np.asarray(R[r]).tolist()] for r in ins]
        vals = [fn(*args) & ((1 << out_bits) - 1) for args in zip(*cols)]
        new = np.array([v - (1 << 64) if v >> 63 else v for v in vals], dtype=np.int64)
        R["D0"] = np.where(_m, new, R["D0"]) if _m is not None and _m is not False else new
        return R
    return run


def _pk3(pick, signed: bool):
    def f(a, b, c):
        out = 0
        for h in (0, 16):
            xs = [(v >> h) & 0xFFFF for v in (a, b, c)]
            xs = [_signed(x, 16) for x in xs] if signed else xs
            out |= (pick(xs) & 0xFFFF) << h
        return out
    return f


_INT64 = {  # name -> (fn of raw operand bits, operands, result bits)
    "v_add_nc_u64": (lambda a, b: a + b, ("S0", "S1"), 64),
    "v_sub_nc_u64": (lambda a, b: a - b, ("S0", "S1"), 64),
    "v_mul_u64": (lambda a, b: a * b, ("S0", "S1"), 64),
    "v_min_u64": (min, ("S0", "S1"), 64),
    "v_max_u64": (max, ("S0", "S1"), 64),
    "v_min_i64": (lambda a, b: min(_signed(a, 64), _signed(b, 64)), ("S0", "S1"), 64),
    "v_max_i64": (lambda a, b: max(_signed(a, 64), _signed(b, 64)), ("S0", "S1"), 64),
    "v_mad_u32": (lambda a, b, c: (a & M32) * (b & M32) + (c & M32), ("S0", "S1", "S2"), 32),
    "v_mad_nc_u64_u32": (lambda a, b, c: (a & M32) * (b & M32) + c, ("S0", "S1", "S2"), 64),
    "v_mad_nc_i64_i32": (lambda a, b, c: _signed(a, 32) * _signed(b, 32) + _signed(c, 64), ("S0", "S1", "S2"), 64),
    "v_pk_max3_i16": (_pk3(max, True), ("S0", "S1", "S2"), 32),
    "v_pk_max3_u16": (_pk3(max, False), ("S0", "S1", "S2"), 32),
    "v_pk_min3_i16": (_pk3(min, True), ("S0", "S1", "S2"), 32),
    "v_pk_min3_u16": (_pk3(min, False), ("S0", "S1", "S2"), 32),
}
_IN64 = {"v_add_nc_u64", "v_sub_nc_u64", "v_mul_u64", "v_min_u64", "v_max_u64", "v_min_i64", "v_max_i64"}


def _int_widths(name: str) -> dict:
    _, ins, out = _INT64[name]
    w = {r: (64 if name in _IN64 or (r == "S2" and name.startswith("v_mad_nc")) else 32) for r in ins}
    return {**w, "D0": out}


# ------------------------------------------------------------------ GFX1250 bf16 arithmetic

def _bf16_half(R, reg: str, half: int) -> np.ndarray:
    bits = (np.asarray(R[reg]).astype(np.int64) >> (16 * half)) & 0xFFFF
    return (bits << 16).astype(np.uint32).view(np.float32).astype(np.float64)


def _sum_to_odd(p: np.ndarray, c: np.ndarray) -> np.ndarray:
    """p + c in binary64 rounded to odd (the error term of TwoSum sets the last bit), so that one more
    rounding to a format of far fewer bits is correctly rounded."""
    with np.errstate(all="ignore"):
        s = p + c
        bp = s - c
        err = (p - bp) + (c - (s - bp))
    even = (s.view(np.int64) & 1) == 0
    fix = (err != 0) & even & np.isfinite(s) & np.isfinite(err)
    return np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)


def _min_max_num(a: np.ndarray, b: np.ndarray, is_min: bool) -> np.ndarray:
    """IEEE 754-2019 minimumNumber / maximumNumber: a NaN loses to a number; -0 < +0."""
    pick_a = (a < b) if is_min else (a > b)
    zeros = (a == 0) & (b == 0)
    pick_a = np.where(zeros, np.signbit(a) if is_min else ~np.signbit(a), pick_a)
    out = np.where(pick_a, a, b)
    out = np.where(np.isnan(b) & ~np.isnan(a), a, out)
    return np.where(np.isnan(a) & ~np.isnan(b), b, out)


def _pk_bf16(op: str):
    def run(R, _m, C):
        new = np.zeros(len(np.asarray(R["S0"])), dtype=np.int64)
        for half in (0, 1):
            a, b = _bf16_half(R, "S0", half), _bf16_half(R, "S1", half)
            with np.errstate(all="ignore"):
                if op == "add":
                    y = _sum_to_odd(a, b)
                elif op == "mul":
                    y = a * b  # 8-bit significands: the product is exact
                elif op == "fma":
                    y = _sum_to_odd(a * b, _bf16_half(R, "S2", half))
                else:
                    y = _min_max_num(a, b, op == "min")
            y = np.where(np.isnan(y), np.float64(np.nan), y)  # a quiet NaN
            new |= (floats.to_bits(floats.to_bf16(y), "bf", 16).astype(np.int64) & 0xFFFF) << (16 * half)
        R["D0"] = np.where(_m, new, R["D0"]) if _m is not None and _m is not False else new
        return R
    return run


def _pk3_num_f16(is_min: bool):
    """Per 16-bit half: minimumNumber / maximumNumber of S0, S1 and S2 (a NaN result is quiet)."""
    def run(R, _m, C):
        new = np.zeros(len(np.asarray(R["S0"])), dtype=np.int64)
        for half in (0, 1):
            a, b, c = (floats.from_bits((np.asarray(R[r]).astype(np.int64) >> (16 * half)) & 0xFFFF, "f", 16)
                       .astype(np.float64) for r in ("S0", "S1", "S2"))
            y = _min_max_num(_min_max_num(a, b, is_min), c, is_min)
            y = np.where(np.isnan(y), np.float64(np.nan), y)
            new |= (floats.to_bits(y.astype(np.float16), "f", 16).astype(np.int64) & 0xFFFF) << (16 * half)
        R["D0"] = np.where(_m, new, R["D0"]) if _m is not None and _m is not False else new
        return R
    return run


# ------------------------------------------------------------------ GFX1250 transcendental ops

_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp2, "log": np.log2, "rcp": lambda x: 1.0 / x, "rsq": lambda x: 1.0 / np.sqrt(x),
    "sqrt": np.sqrt, "tanh": np.tanh,
    "sin": lambda x: np.sin(2 * np.pi * np.fmod(x, 1.0)), "cos": lambda x: np.cos(2 * np.pi * np.fmod(x, 1.0))}


def _unary(op: str, kind: str, w: int):
    """D0's low w bits = op(S0's low w bits as kind), computed in binary64 and rounded once."""
    def run(R, _m, C):
        raw = np.asarray(R["S0"]).astype(np.int64) & ((1 << w) - 1)
        x = floats.from_bits(raw, kind, w).astype(np.float64)
        with np.errstate(all="ignore"):
            y = np.asarray(_UNARY[op](x), dtype=np.float64)
        y = np.where(np.isnan(y), np.float64(np.nan), y)
        out = floats.to_bf16(y) if kind == "bf" else floats.convert(y, ("f", 64), ("f", w))
        bits = floats.to_bits(out, kind, w).astype(np.int64) & ((1 << w) - 1)
        old = np.asarray(R["D0"]).astype(np.int64)
        new = (old & ~((1 << w) - 1)) | bits if w < 32 else bits
        R["D0"] = np.where(_m, new, old) if _m is not None and _m is not False else new
        return R
    return run


# ------------------------------------------------------------------ GFX1250 8-bit float and 4-bit packing

def _keep_high(R, _m, low: np.ndarray, w: int):
    old = np.asarray(R["D0"]).astype(np.int64)
    new = (old & ~((1 << w) - 1)) | (low & ((1 << w) - 1))
    R["D0"] = np.where(_m, new, old) if _m is not None and _m is not False else new
    return R


def _cvt_from8(kind: str, count: int):
    """``count`` 8-bit floats from S0's low bytes to f16 (exact), packed from bit 0 (OP_SEL at its default)."""
    def run(R, _m, C):
        s0 = np.asarray(R["S0"]).astype(np.int64)
        out = np.zeros(len(s0), dtype=np.int64)
        for i in range(count):
            f = floats.MINI[kind].decode((s0 >> (8 * i)) & 0xFF).astype(np.float64)
            out |= (floats.to_bits(floats.convert(f, ("f", 64), ("f", 16)), "f", 16).astype(np.int64) & 0xFFFF) << (16 * i)
        return _keep_high(R, _m, out, 16 * count)
    return run


def _cvt_pk_to8(kind: str):
    """S0's two f16 halves to 8-bit floats (nearest even; beyond the range as the format has it) in D0[15:0]."""
    def run(R, _m, C):
        s0 = np.asarray(R["S0"]).astype(np.int64)
        out = np.zeros(len(s0), dtype=np.int64)
        for i in (0, 1):
            f = floats.from_bits((s0 >> (16 * i)) & 0xFFFF, "f", 16).astype(np.float64)
            out |= (np.asarray(floats.MINI[kind].encode(f)).astype(np.int64) & 0xFF) << (8 * i)
        return _keep_high(R, _m, out, 16)
    return run


def _sat_pk4(signed: bool):
    """S0's four bytes (signed or unsigned) saturated to 4 bits each and packed into D0[15:0]."""
    lo, hi = (-8, 7) if signed else (0, 15)

    def run(R, _m, C):
        s0 = np.asarray(R["S0"]).astype(np.int64)
        out = np.zeros(len(s0), dtype=np.int64)
        for i in range(4):
            b = (s0 >> (8 * i)) & 0xFF
            b = np.where(b >= 128, b - 256, b) if signed else b
            out |= (np.minimum(np.maximum(b, lo), hi) & 0xF) << (4 * i)
        return _keep_high(R, _m, out, 16)
    return run


# ------------------------------------------------------------------ derived from RDNA4's pseudocode

# bf16 forms of RDNA4's mixed-precision FMAs: the same text with bf16 in place of f16 (loaded at run time)
DERIVED = {"v_fma_mix_f32_bf16": "v_fma_mix_f32", "v_fma_mixlo_bf16": "v_fma_mixlo_f16",
           "v_fma_mixhi_bf16": "v_fma_mixhi_f16"}


def derived_text(base_text: str) -> str:
    """RDNA4's pseudocode of a mixed-precision FMA (``DERIVED``'s value) with bf16 in place of f16; the caller
    looks the text up (``sources`` for the entry, ``compiler`` for the program), so this module imports neither."""
    return (base_text.replace("f16_to_f32(", "bf16_to_f32(").replace(".f16)", ".bf16)")
            .replace("f32_to_f16(", "f32_to_bf16(").replace("].f16 =", "].bf16 ="))


def derived_source(name: str) -> str:
    """Where a derived program's text comes from (its ``source``)."""
    return f"RDNA4's pseudocode for {DERIVED[name]} with bf16 in place of f16 (the project's derivation)"


_WHY_INT = ("runs the project's formulation (the pseudocode source lists none for this generation's new "
            "integer operation): wrap-around integer arithmetic on the operands' bits, as the name and LLVM's "
            "description state; checked against Python integers, not against hardware")
_WHY_BF16 = ("runs the project's formulation (the pseudocode source lists none for this generation's packed "
             "bf16 operation): each half computed exactly and rounded once to bf16 (nearest even; denormals kept; "
             "NaN results quiet, payload not modelled); min/max are IEEE 754-2019 minimumNumber/maximumNumber; "
             "checked against exact rationals, not against hardware")
_WHY_UNARY = ("runs the project's formulation (the pseudocode source lists none for this generation's new "
              "operation): computed in binary64 and rounded once (sin/cos take turns: x mod 1 times 2*pi); the "
              "hardware approximates these (about one ulp), which is not modelled")

_WHY_8BIT = ("runs the project's formulation (the pseudocode source lists none for this generation's new "
             "operation): 8-bit floats (FP8 E4M3, BF8 E5M2) to f16 exactly, f16 to them rounded to nearest even "
             "as RDNA4's f32 conversions do; bytes from bit 0 (OP_SEL at its default), the rest of D0 kept; "
             "checked against codes worked out by hand, not against hardware")
_WHY_SAT4 = ("runs the project's formulation (the pseudocode source lists none for this generation's new "
             "operation): each byte of S0 saturated to 4 bits (signed -8..7 or unsigned 0..15) and packed into "
             "D0[15:0], the rest of D0 kept; checked against Python integers, not against hardware")

_WHY_DERIVED = ("runs RDNA4's pseudocode for the f16 form with bf16 in place of f16 (the project's derivation: "
                "the pseudocode source lists none for this generation); modifiers as the operands OPSEL, OPSEL_HI; "
                "checked on exact values, not against hardware")

_WHY_PK3_NUM = ("runs the project's formulation (the pseudocode source lists none for this generation's new "
                "operation): per 16-bit half, IEEE 754-2019 minimumNumber/maximumNumber of the three f16 values "
                "(a NaN loses to a number, -0 < +0; a NaN result is quiet); checked on hand-picked values, not "
                "against hardware")

SPECS: list = [
    *[(re.compile(f"^{n}$"), None, False, None, {"D0"}, "untested", _WHY_DERIVED) for n in DERIVED],
    *[(re.compile(f"^v_pk_{m}3_num_f16$"), _pk3_num_f16(m == "min"), False, {"S0": 32, "S1": 32, "S2": 32, "D0": 32},
       {"D0"}, "untested", _WHY_PK3_NUM)
      for m in ("min", "max")],
    *[(re.compile(f"^v_cvt_f16_{k}$"), _cvt_from8(k, 1), False, {"S0": 32, "D0": 32}, {"D0"}, "untested", _WHY_8BIT)
      for k in ("fp8", "bf8")],
    *[(re.compile(f"^v_cvt_pk_f16_{k}$"), _cvt_from8(k, 2), False, {"S0": 32, "D0": 32}, {"D0"}, "untested",
       _WHY_8BIT) for k in ("fp8", "bf8")],
    *[(re.compile(f"^v_cvt_pk_{k}_f16$"), _cvt_pk_to8(k), False, {"S0": 32, "D0": 32}, {"D0"}, "untested",
       _WHY_8BIT) for k in ("fp8", "bf8")],
    (re.compile(r"^v_sat_pk4_i4_i8$"), _sat_pk4(True), False, {"S0": 32, "D0": 32}, {"D0"}, "untested", _WHY_SAT4),
    (re.compile(r"^v_sat_pk4_u4_u8$"), _sat_pk4(False), False, {"S0": 32, "D0": 32}, {"D0"}, "untested", _WHY_SAT4),
    *[(re.compile(f"^v_{op}_bf16$"), _unary(op, "bf", 16), False, {"S0": 32, "D0": 32}, {"D0"}, "untested",
       _WHY_UNARY) for op in _UNARY],
    (re.compile(r"^v_tanh_f16$"), _unary("tanh", "f", 16), False, {"S0": 32, "D0": 32}, {"D0"}, "untested",
     _WHY_UNARY),
    (re.compile(r"^v_tanh_f32$"), _unary("tanh", "f", 32), False, {"S0": 32, "D0": 32}, {"D0"}, "untested",
     _WHY_UNARY),
    *[(re.compile(f"^v_pk_{op}_bf16$".replace("min_", "min_num_").replace("max_", "max_num_")
                  if op in ("min", "max") else f"^v_pk_{op}_bf16$"), _pk_bf16(op), False,
       {"S0": 32, "S1": 32, **({"S2": 32} if op == "fma" else {}), "D0": 32}, {"D0"}, "untested", _WHY_BF16)
      for op in ("add", "mul", "fma", "min", "max")],
    *[(re.compile(f"^{n}$"), _lanewise(f, ins, out), False, _int_widths(n), {"D0"}, "exact", _WHY_INT)
      for n, (f, ins, out) in _INT64.items()],
]


def formats(name: str, widths: dict) -> dict | None:
    """Operand formats (for parsing float operands and showing results), where not integers."""
    from .types import Ty

    if name == "v_tanh_f32":
        return {r: Ty("f", 32) for r in widths}
    m = re.match(r"^v_(\w+)_bf16$", name)
    if name == "v_tanh_f16" or (m and m.group(1) in _UNARY):
        return {r: Ty("f", 16) if name.endswith("_f16") else Ty("bf", 16) for r in widths}
    return None
