"""The project's own formulations of instructions whose pseudocode the compiler cannot run, or
that the pseudocode source does not list at all.

Each is written here from the instruction's documented behaviour, in this project's words and
code (no vendor text): moves between VGPRs and accumulation VGPRs, the 2/pi table lookup of
``v_trig_preop_f64``, ``s_getreg``/``s_setreg`` on a model of the MODE and STATUS hardware
registers, ``s_movrel*`` on an SGPR file, ``s_set_gpr_idx_on``, GFX9/10's unfused multiply-adds,
the xf32 and block-scaled MFMAs, CDNA1/2's older MFMA forms, and instructions without register
effects (``v_nop``, counter waits); CDNA5's new operations are in :mod:`.formulations_cdna5`.
A formulation runs in place of the compiled pseudocode wherever the name matches (``covers``).
``tests/test_semantics_generations_formulations.py`` checks each against references computed there.

Hardware-register model: ``s_getreg_b32``/``s_setreg_b32`` take SIMM16 (register id in bits
[5:0], bit offset in [10:6], field size minus one in [15:11]) and the registers as operands
``MODE`` and ``STATUS`` (one 32-bit value per wave, 0 unless given).  Ids 1 (MODE) and 2
(STATUS) are modelled; any other id is an evaluation error.  s_setreg writes MODE's field; STATUS
is read-only to it (privileged writes are not modelled), so a write there changes nothing.
"""

from __future__ import annotations

import functools
import re

import numpy as np

from . import floats
from . import formulations_cdna5 as cdna5
from .compiled import EvalError, Program

M32 = (1 << 32) - 1
HWREG = {1: "MODE", 2: "STATUS"}


def _eval_error(msg: str) -> Exception:
    return EvalError(msg)


# ------------------------------------------------------------------ 2/pi

@functools.lru_cache(maxsize=1)
def two_over_pi_bits(nbits: int = 1201) -> int:
    """floor(2/pi * 2**nbits): the first ``nbits`` fractional bits of 2/pi (2/pi < 1), computed with
    Machin's formula pi = 16 atan(1/5) - 4 atan(1/239) in fixed point with 64 guard bits."""
    guard = nbits + 64

    def atan_inv(x: int) -> int:  # atan(1/x) * 2**guard
        total, term, k, x2 = 0, (1 << guard) // x, 0, x * x
        while term:
            total += term // (2 * k + 1) if k % 2 == 0 else -(term // (2 * k + 1))
            term //= x2
            k += 1
        return total

    pi = 16 * atan_inv(5) - 4 * atan_inv(239)  # pi * 2**guard (error a few units)
    return ((2 << (2 * guard)) // pi) >> (guard - nbits)


def _exponent64(bits: np.ndarray) -> np.ndarray:
    return (bits >> 52) & 0x7FF


def _trig_preop(R, _m, C):
    """53 bits of 2/pi starting ``S1[4:0] * 53`` bits below its top (further down for large
    exponents of S0), scaled so that successive selections add up to 2/pi."""
    x = np.asarray(R["S0"]).astype(np.int64)
    sel = np.asarray(R["S1"]).astype(np.int64) & 31
    table = two_over_pi_bits()
    out = np.zeros(len(x), dtype=np.float64)
    for i, (bits, k) in enumerate(zip(x.tolist(), sel.tolist())):
        e = (bits >> 52) & 0x7FF
        shift = 53 * k + max(e - 1077, 0)
        low = 1148 - shift  # bit index of the selection's lowest bit in the 1201-bit table
        part = (table >> low if low >= 0 else table << -low) & ((1 << 53) - 1)
        scale = -53 - shift + (128 if e >= 1968 else 0)
        out[i] = float(np.ldexp(float(part), scale))  # part < 2**53: exact; scaling may go denormal
    d0 = floats.to_bits(out, "f", 64)
    R["D0"] = np.where(_m, d0, R["D0"]) if _m is not None and _m is not False else d0
    return R


# ------------------------------------------------------------------ moves

def _move(R, _m, C):
    new = np.asarray(R["S0"]) & M32
    R["D0"] = np.where(_m, new, R["D0"]) if _m is not None and _m is not False else new
    return R


# ------------------------------------------------------------------ hardware registers

def _field(simm16: int) -> tuple[int, int, int]:
    return simm16 & 0x3F, (simm16 >> 6) & 0x1F, ((simm16 >> 11) & 0x1F) + 1


def _hwreg(rid: int) -> str:
    if rid not in HWREG:
        raise _eval_error(f"hardware register {rid} is not modelled (modelled: 1 MODE, 2 STATUS)")
    return HWREG[rid]


def _getreg(R, _m, C):
    rid, off, size = _field(int(R["SIMM16"][0]) & 0xFFFF)
    value = int(R[_hwreg(rid)][0]) & M32
    R["D0"] = np.array([(value >> off) & ((1 << size) - 1)], dtype=np.int64)
    return R


def _setreg(source: str):
    def run(R, _m, C):
        rid, off, size = _field(int(R["SIMM16"][0]) & 0xFFFF)
        reg = _hwreg(rid)
        writable = M32 if reg == "MODE" else 0
        mask = (((1 << size) - 1) << off) & M32 & writable
        old = int(R[reg][0]) & M32
        R[reg] = np.array([(old & ~mask) | ((int(R[source][0]) << off) & mask)], dtype=np.int64)
        return R
    return run


# ------------------------------------------------------------------ GFX9/10 multiply-adds (not fused)

_TINY32 = np.float32(2.0 ** -126)


def _flush32(x: np.ndarray) -> np.ndarray:
    return np.where((np.abs(x) < _TINY32) & (x != 0), np.copysign(np.float32(0), x), x).astype(np.float32)


def _f32(R, reg: str) -> np.ndarray:
    return np.asarray(R[reg]).astype(np.int64).astype(np.uint32).view(np.float32)


def _mad(a_reg: str, b_reg: str, c_reg: str, legacy: bool):
    """D = a*b + c with the product rounded to f32 before the add; f32 denormals (inputs, product,
    result) flushed to zero; ``legacy``: a zero factor makes the product +0 (DX9 rule)."""
    def run(R, _m, C):
        a, b, c = (_flush32(_f32(R, r)) for r in (a_reg, b_reg, c_reg))
        with np.errstate(all="ignore"):
            p = _flush32(a * b)  # numpy's f32 product: one rounding, to nearest even
            if legacy:
                p = np.where((a == 0) | (b == 0), np.float32(0), p)
            d = _flush32(p + c)
        bits = d.view(np.uint32).astype(np.int64)
        R["D0"] = np.where(_m, bits, R["D0"]) if _m is not None and _m is not False else bits
        return R
    return run


# ------------------------------------------------------------------ xf32 and block-scaled MFMAs

def _round_xf32(wide: np.ndarray, count: int) -> np.ndarray:
    """Each 32-bit f32 element of a lane rounded to xf32 (10 mantissa bits, nearest even); inf/NaN kept."""
    u = np.asarray(wide).astype(np.int64).view(np.uint64)
    out = np.zeros_like(u)
    for e in range(count):
        f = (u >> np.uint64(32 * e)) & np.uint64(M32)
        special = (f & np.uint64(0x7F800000)) == np.uint64(0x7F800000)
        r = (f + np.uint64(0xFFF) + ((f >> np.uint64(13)) & np.uint64(1))) & np.uint64(0xFFFFE000)
        out |= np.where(special, f, r) << np.uint64(32 * e)
    return out.view(np.int64)


def _masked_d0(R, _m, new):
    if _m is not None and _m is not False:
        new = np.where(_m, new, np.asarray(R.get("D0", np.zeros(len(new))), dtype=object))
    R["D0"] = new
    return R


def _mfma_xf32(m, n, k):
    def run(R, _m, C):
        from . import matrix

        s = matrix.Shape("mfma", "cdna", "f32", m, n, k, 1, ("f32", 32), ("f32", 32))
        regs = dict(R)
        per = m * k // 64  # f32 elements per lane in A (and B: n == m)
        regs["S0"], regs["S1"] = _round_xf32(R["S0"], per), _round_xf32(R["S1"], per)
        matrix.execute(s, regs, C.wave)
        return _masked_d0(R, _m, regs["D0"])
    return run


def _e8m0(wide) -> np.ndarray:
    e = np.asarray(wide).astype(np.int64) & 0xFF  # byte 0 (OP_SEL at its default)
    return np.where(e == 0xFF, np.nan, np.exp2(e.astype(np.float64) - 127.0))


def _mfma_scaled(base: str):
    """The f8f6f4 MFMA with each lane's A and B values multiplied by 2**(scale byte - 127) of the same
    lane's SCALE_SRC0 / SCALE_SRC1 (each lane holds one 32-value block of one row or column)."""
    def run(R, _m, C):
        from . import matrix

        s = matrix.parse(base, "cdna4")
        if s is None:
            raise ValueError(f"{base} is not a matrix instruction of cdna4")
        mats = []
        for which, reg, sreg in (("a", "S0", "SCALE_SRC0"), ("b", "S1", "SCALE_SRC1")):
            vals = matrix._read_input(s, which, R[reg], C.wave)
            flat, lanes, elems = matrix._input_flat(s, which, C.wave, s.K)
            scale = np.ones(vals.size)
            scale[flat] = np.repeat(_e8m0(R[sreg])[:lanes], elems)
            mats.append(vals * scale.reshape(vals.shape))
        A, B = mats[0], np.transpose(mats[1], (0, 2, 1))
        flat, lanes, n, _ = matrix._output_flat(s, C.wave)
        c_codes = matrix._unpack(np.asarray(R["S2"])[:lanes], 32, n)
        acc = np.zeros(s.blocks * s.M * s.N)
        acc[flat] = matrix._decode(c_codes, "f32")
        with np.errstate(all="ignore"):
            D = np.einsum("bik,bkj->bij", A, B) + acc.reshape(s.blocks, s.M, s.N)
        return _masked_d0(R, _m, np.array(matrix._pack(matrix._encode(D.reshape(-1)[flat], "f32"), 32), dtype=object))
    return run


def _mfma_widths(m: int, n: int, k: int, bits: int) -> dict:
    d = m * n * 32 // 64
    return {"S0": max(32, m * k * bits // 64), "S1": max(32, n * k * bits // 64), "S2": d, "D0": d}


# ------------------------------------------------------------------ SGPR file (S_MOVREL*)

SGPR_FILE = 106  # s0..s105 (VCC and the other named registers are not in the relative address range)
SGPRS = {f"SGPR{i}": 32 for i in range(SGPR_FILE)}


def _sgpr_index(R, num_reg: str, m0_lo: int, m0_bits: int, count: int) -> int:
    addr = int(R[num_reg][0]) + ((int(R["M0"][0]) >> m0_lo) & ((1 << m0_bits) - 1))
    if not 0 <= addr <= SGPR_FILE - count:
        last = f"..s{addr + count - 1}" if count > 1 else ""
        raise _eval_error(f"SGPR address s{addr}{last} is outside the file s0..s{SGPR_FILE - 1} "
                          f"(register number plus M0)")
    return addr


def _movrels(count: int):
    def run(R, _m, C):
        i = _sgpr_index(R, "SRC0", 0, 32, count)
        v = sum((int(R[f"SGPR{i + k}"][0]) & M32) << (32 * k) for k in range(count))
        R["D0"] = np.array([v if v < (1 << 63) else v - (1 << 64)], dtype=np.int64)
        return R
    return run


def _movreld(count: int):
    def run(R, _m, C):
        i = _sgpr_index(R, "DST", 0, 32, count)
        v = int(R["S0"][0])
        for k in range(count):
            R[f"SGPR{i + k}"] = np.array([(v >> (32 * k)) & M32], dtype=np.int64)
        return R
    return run


def _movrelsd_2(R, _m, C):
    src = _sgpr_index(R, "SRC0", 0, 10, 1)
    dst = _sgpr_index(R, "DST", 16, 10, 1)
    R[f"SGPR{dst}"] = np.array([int(R[f"SGPR{src}"][0]) & M32], dtype=np.int64)
    return R


def _cvt_2xpk16(kind: str):
    """16 f32 values of S0 and 16 of S1, scaled by 2**-(exponent field of S2 - 127) and converted to a
    6-bit format, interleaved pairwise (S0's value in the low 6 bits of each 12-bit pair) into 192 bits."""
    def run(R, _m, C):
        from . import runtime as rt
        from .types import Ty

        lanes = len(np.asarray(R["S0"]))
        vals = np.array([[(int(R[r][i]) >> (32 * k)) & M32 for k in range(16)] for r in ("S0", "S1")
                         for i in range(lanes)], dtype=np.int64).reshape(2, lanes, 16)
        f = vals.astype(np.uint32).view(np.float32)
        scale = ((np.asarray(R["S2"]).astype(np.int64) >> 23) & 0xFF)[:, None]
        codes = [np.asarray(rt.mini_scale_encode(f[j], Ty("f", 32), kind, scale)).astype(np.int64) for j in (0, 1)]
        out = [sum(((int(codes[0][i][k]) & 0x3F) | (int(codes[1][i][k]) & 0x3F) << 6) << (12 * k) for k in range(16))
               for i in range(lanes)]
        return _masked_d0(R, _m, np.array(out, dtype=object))
    return run


def _set_gpr_idx_on(R, _m, C):
    """GFX9 VGPR indexing on: M0[7:0] = S0[7:0] (the index), M0[15:12] = the raw 4-bit SRC1 field (which
    operands are indexed), other M0 bits kept; the mode bit that enables indexing is reported as GPR_IDX_EN."""
    m0 = int(R["M0"][0]) & M32
    m0 = (m0 & ~0xF0FF) | (int(R["S0"][0]) & 0xFF) | ((int(R["SRC1"][0]) & 0xF) << 12)
    R["M0"] = np.array([m0], dtype=np.int64)
    R["GPR_IDX_EN"] = np.array([1], dtype=np.int64)
    return R


# ------------------------------------------------------------------ no-ops and CDNA1/2's older MFMAs

def _nothing(R, _m, C):
    return R


# older CDNA1/2 MFMAs gfx940 dropped (the bf16 forms before ``_1k``, two i8 forms): name -> shape
_OLD_MFMA = {"v_mfma_f32_32x32x2bf16": (32, 2, 2, "bf16"), "v_mfma_f32_16x16x2bf16": (16, 2, 4, "bf16"),
             "v_mfma_f32_4x4x2bf16": (4, 2, 16, "bf16"), "v_mfma_f32_32x32x4bf16": (32, 4, 1, "bf16"),
             "v_mfma_f32_16x16x8bf16": (16, 8, 1, "bf16"), "v_mfma_i32_32x32x8i8": (32, 8, 1, "i8"),
             "v_mfma_i32_16x16x16i8": (16, 16, 1, "i8")}


def _old_shape(name: str):
    from . import matrix

    mn, k, blocks, ty = _OLD_MFMA[name]
    bits = 16 if ty == "bf16" else 8
    return matrix.Shape("mfma", "cdna", "f32" if ty == "bf16" else "i32", mn, mn, k, blocks, (ty, bits), (ty, bits))


def _mfma_old(name: str):
    def run(R, _m, C):
        from . import matrix

        regs = dict(R)
        matrix.execute(_old_shape(name), regs, C.wave)
        return _masked_d0(R, _m, regs["D0"])
    return run


def _old_widths(name: str) -> dict:
    from . import matrix

    return matrix.operand_bits(_old_shape(name), 64)


# ------------------------------------------------------------------ the table

# name pattern -> (fn, scalar, widths, writes, fidelity, reason)
_WHY_TRIG = ("runs the project's formulation (the compiler does not model the pseudocode's 1201-bit 2/pi "
             "constant): 2/pi computed exactly here, 53 bits selected and scaled; checked against an independent "
             "computation of 2/pi")
_WHY_MOVE = ("runs the project's formulation (the pseudocode source lists none): a 32-bit move between a VGPR "
             "and an accumulation VGPR (AccVGPR) in the active lanes; checked against the identity")
_WHY_REG = ("runs the project's formulation on a model of the MODE and STATUS hardware registers (operands "
            "MODE, STATUS; ids 1 and 2; STATUS read-only to s_setreg); checked against field arithmetic")
_WHY_MAD = ("runs the project's formulation (the pseudocode source lists none for this generation's "
            "unfused multiply-add): the product rounded to f32, then the add rounded; f32 denormals flushed to zero "
            "in the inputs, the product and the result; not checked against hardware")
_WHY_MAD_LEGACY = _WHY_MAD + "; a zero factor gives a +0 product whatever the other factor (DX9 rule)"
_F3 = {"S0": 32, "S1": 32, "S2": 32, "D0": 32}
_WHY_XF32 = ("runs the project's formulation (the pseudocode source lists none): f32 inputs rounded to xf32 "
             "(10 mantissa bits, nearest even), products summed exactly and rounded once to f32; register layout "
             "as the f32 MFMAs', extrapolated; not checked against hardware")
_WHY_SCALED = ("runs the project's formulation (the pseudocode source lists none): the f8f6f4 MFMA (FP8 inputs, "
               "CBSZ/BLGP at their defaults) with each lane's A and B values scaled by 2**(e-127), e byte 0 of "
               "the lane's SCALE_SRC0 / SCALE_SRC1 (0x7F: no scaling); scale placement not checked against hardware")
_WHY_MOVREL = ("runs the project's formulation (the compiler does not model SGPRs addressed by number): the SGPR "
               "file is given as operands SGPR0..SGPR105, SRC0/DST are the operands' SGPR numbers, M0 is added "
               "(S_MOVRELSD_2: M0[9:0] to the source, M0[25:16] to the destination); only SGPRs that change are "
               "reported; an address outside the file is an error; checked against list indexing")
_REL = {**SGPRS, "SRC0": 32, "M0": 32}
_WHY_NOP = ("runs the project's formulation: no register or mode state changes (the pipeline effects of the "
            "instruction are not modelled)")
_WHY_WAIT = ("runs the project's formulation: no register changes; a single evaluated instruction has no memory "
             "operations in flight, so the counter is already within the threshold (the wait is not modelled)")
_WHY_OLD_MFMA = ("runs the project's formulation (no generation's pseudocode source lists this CDNA1/2 form): "
                 "natively, accumulation rounded once; register layout extrapolated from the calculator's MFMA "
                 "rule (one block per group of lanes, elements along K), not checked")
_WHY_2XPK16 = ("runs the project's formulation of the pseudocode (the compiler does not assign to bit ranges "
               "computed in a loop): each f32 of S0 and S1 divided by 2**(exponent field of S2 - 127), converted "
               "to the 6-bit format (nearest even, saturating) as the other scaled conversions, S0's and S1's "
               "values interleaved; not checked against hardware")
_SPECS: list[tuple[re.Pattern, object, bool, dict | None, set, str, str]] = [
    *[(re.compile(f"^v_cvt_scalef32_2xpk16_{k}_f32$"), _cvt_2xpk16(k), False,
       {"S0": 512, "S1": 512, "S2": 32, "D0": 192}, {"D0"}, "untested", _WHY_2XPK16) for k in ("fp6", "bf6")],
    (re.compile(r"^v_(nop|pipeflush)$"), _nothing, False, {}, set(), "exact", _WHY_NOP),
    (re.compile(r"^s_set_gpr_idx_on$"), _set_gpr_idx_on, True, {"S0": 32, "SRC1": 32, "M0": 32, "GPR_IDX_EN": 1},
     {"M0", "GPR_IDX_EN"}, "exact", "runs the project's formulation (the compiler does not model a raw "
     "operand field as a number): M0[7:0] = S0[7:0], M0[15:12] = the SRC1 field, other M0 bits kept; the "
     "mode's GPR_IDX_EN bit is reported as GPR_IDX_EN = 1; checked against bit arithmetic"),
    (re.compile(r"^s_sleep_var$"), _nothing, True, {"S0": 32}, set(), "exact", _WHY_NOP),
    (re.compile(r"^s_waitcnt_(vm|exp|lgkm|vs)cnt$"), _nothing, True, {"S0": 32, "SIMM16": 16}, set(), "exact",
     _WHY_WAIT),
    *[(re.compile(f"^{n}$"), _mfma_old(n), False, None, {"D0"}, "untested", _WHY_OLD_MFMA) for n in _OLD_MFMA],
    *cdna5.SPECS,
    (re.compile(r"^s_movrels_b32$"), _movrels(1), True, {**_REL, "D0": 32}, {"D0"}, "exact", _WHY_MOVREL),
    (re.compile(r"^s_movrels_b64$"), _movrels(2), True, {**_REL, "D0": 64}, {"D0"}, "exact", _WHY_MOVREL),
    (re.compile(r"^s_movreld_b32$"), _movreld(1), True, {**SGPRS, "DST": 32, "M0": 32, "S0": 32}, set(SGPRS),
     "exact", _WHY_MOVREL),
    (re.compile(r"^s_movreld_b64$"), _movreld(2), True, {**SGPRS, "DST": 32, "M0": 32, "S0": 64}, set(SGPRS),
     "exact", _WHY_MOVREL),
    (re.compile(r"^s_movrelsd_2_b32$"), _movrelsd_2, True, {**_REL, "DST": 32}, set(SGPRS), "exact", _WHY_MOVREL),
    (re.compile(r"^v_mfma_f32_16x16x8_xf32$"), _mfma_xf32(16, 16, 8), False, _mfma_widths(16, 16, 8, 32), {"D0"},
     "untested", _WHY_XF32),
    (re.compile(r"^v_mfma_f32_32x32x4_xf32$"), _mfma_xf32(32, 32, 4), False, _mfma_widths(32, 32, 4, 32), {"D0"},
     "untested", _WHY_XF32),
    (re.compile(r"^v_mfma_scale_f32_16x16x128_f8f6f4$"), _mfma_scaled("v_mfma_f32_16x16x128_f8f6f4"), False,
     {**_mfma_widths(16, 16, 128, 8), "SCALE_SRC0": 32, "SCALE_SRC1": 32}, {"D0"}, "untested", _WHY_SCALED),
    (re.compile(r"^v_mfma_scale_f32_32x32x64_f8f6f4$"), _mfma_scaled("v_mfma_f32_32x32x64_f8f6f4"), False,
     {**_mfma_widths(32, 32, 64, 8), "SCALE_SRC0": 32, "SCALE_SRC1": 32}, {"D0"}, "untested", _WHY_SCALED),
    (re.compile(r"^v_mad_f32$"), _mad("S0", "S1", "S2", False), False, _F3, {"D0"}, "untested", _WHY_MAD),
    (re.compile(r"^v_mad_legacy_f32$"), _mad("S0", "S1", "S2", True), False, _F3, {"D0"}, "untested",
     _WHY_MAD_LEGACY),
    (re.compile(r"^v_mac_f32$"), _mad("S0", "S1", "D0", False), False, {"S0": 32, "S1": 32, "D0": 32}, {"D0"},
     "untested", _WHY_MAD),
    (re.compile(r"^v_mac_legacy_f32$"), _mad("S0", "S1", "D0", True), False, {"S0": 32, "S1": 32, "D0": 32},
     {"D0"}, "untested", _WHY_MAD_LEGACY),
    (re.compile(r"^v_madak_f32$"), _mad("S0", "S1", "SIMM32", False), False,
     {"S0": 32, "S1": 32, "SIMM32": 32, "D0": 32}, {"D0"}, "untested", _WHY_MAD),
    (re.compile(r"^v_madmk_f32$"), _mad("S0", "SIMM32", "S1", False), False,
     {"S0": 32, "S1": 32, "SIMM32": 32, "D0": 32}, {"D0"}, "untested", _WHY_MAD),
    (re.compile(r"^v_trig_preop_f64$"), _trig_preop, False, {"S0": 64, "S1": 32, "D0": 64}, {"D0"}, "exact",
     _WHY_TRIG),
    (re.compile(r"^v_accvgpr_(read|write|mov)(_b32)?$"), _move, False, {"S0": 32, "D0": 32}, {"D0"}, "exact",
     _WHY_MOVE),
    (re.compile(r"^s_getreg_b32$"), _getreg, True, {"SIMM16": 16, "MODE": 32, "STATUS": 32, "D0": 32}, {"D0"},
     "exact", _WHY_REG),
    (re.compile(r"^s_setreg_b32$"), _setreg("S0"), True, {"S0": 32, "SIMM16": 16, "MODE": 32, "STATUS": 32},
     {"MODE", "STATUS"}, "exact", _WHY_REG),
    (re.compile(r"^s_setreg_imm32_b32$"), _setreg("SIMM32"), True,
     {"SIMM32": 32, "SIMM16": 16, "MODE": 32, "STATUS": 32}, {"MODE", "STATUS"}, "exact", _WHY_REG),
]


_MAD_NAMES = re.compile(r"^v_(mad|mac)(_legacy)?_f32$|^v_mad(ak|mk)_f32$")


def _spec(name: str):
    for spec in _SPECS:
        if spec[0].match(name):
            return spec
    return None


def covers(name: str) -> bool:
    return _spec(name) is not None


def description(name: str) -> str:
    """What runs, for an instruction the pseudocode source does not list (shown instead of pseudocode; the
    bf16 forms derived from RDNA4's pseudocode show their derived text, ``sources``)."""
    return ("(no pseudocode in the source: the project's own formulation runs, as the fidelity reason "
            "describes)") if covers(name) else ""


def fidelity(name: str) -> tuple[str, str] | None:
    spec = _spec(name)
    return (spec[5], spec[6]) if spec else None


def program(arch: str, name: str, entry):
    """The program of a formulated instruction (the compiler compiles the bf16 forms derived from RDNA4's
    pseudocode itself: ``formulations_cdna5.DERIVED``)."""
    from .types import Ty

    _, fn, scalar, widths, writes, _, _ = _spec(name)
    widths = _old_widths(name) if widths is None else widths
    reads = set(widths) - writes if writes != {"MODE", "STATUS"} else set(widths) - {"D0"}
    if fn is _nothing:
        reads = set()  # operands an encoding gives are accepted, none is required
    if "SGPR0" in widths:
        reads = set(widths) - {"D0"}
    if name == "s_set_gpr_idx_on":
        reads = {"S0", "SRC1", "M0"}
    if name.startswith("v_mac_"):
        reads = reads | {"D0"}
    formats = {"S0": Ty("f", 64), "D0": Ty("f", 64)} if name == "v_trig_preop_f64" else {}
    if _MAD_NAMES.match(name):
        formats = {r: Ty("f", 32) for r in widths}
    formats = cdna5.formats(name, widths) or formats
    return Program(arch, name, entry.op_class if entry else ("SOP1Op" if scalar else "VOP1Op"),
                            entry.text if entry else description(name), fn, entry.source if entry else "",
                            scalar, reads, set(writes), dict(widths), formats, set(), False, None, set(reads),
                            set(), f"# formulation: {name}")
