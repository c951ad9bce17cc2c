"""Per-instruction fidelity: exact (runs, and a property test checks its family against an
independent reference), untested (runs, no test covers its family) or unsupported (why).

``TESTED_FAMILIES`` names the families that ``tests/test_semantics_properties.py`` checks, and
(``REFERENCE_FAMILIES``) those the reference tests ``tests/test_semantics_reference_*.py`` check;
the properties test asserts each family listed here is exercised, so this table cannot claim
more than the tests do.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from pathlib import Path

from . import sources

# Precomputed fidelity of every instruction the pseudocode source lists, so that pages never
# compile: regenerate with ``python -m gpuisa.semantics.fidelity --write`` (a test checks it is current).
TABLE_PATH = Path(__file__).with_name("fidelity_table.json")

_W = (16, 32, 64)
_CMP = ("lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt")
# family -> the instructions whose property tests compare them with an independent reference
TESTED_FAMILIES: dict[str, tuple[str, ...]] = {
    "integer add/sub/mul/mad": ("v_add_nc_u32", "v_sub_nc_u32", "v_subrev_nc_u32", "v_add_u32", "v_sub_u32",
                                "v_subrev_u32", "v_mul_lo_u32", "v_mul_hi_u32", "v_mul_hi_i32", "v_mul_u32_u24",
                                "v_mul_hi_u32_u24", "v_mul_i32_i24", "v_mul_hi_i32_i24", "v_mad_u32_u24",
                                "v_mad_i32_i24"),
    "integer min/max": ("v_min_u32", "v_max_u32", "v_min_i32", "v_max_i32"),
    "shifts": ("v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32"),
    "bitfield extract/insert": ("v_bfe_u32", "v_bfe_i32", "v_bfi_b32"),
    "bit counts": ("v_bcnt_u32_b32", "v_clz_i32_u32", "v_ffbh_u32", "v_ctz_i32_b32", "v_ffbl_b32", "v_cls_i32",
                   "v_ffbh_i32", "v_bfrev_b32"),
    "SAD family": ("v_sad_u8", "v_msad_u8", "v_sad_hi_u8", "v_sad_u16", "v_sad_u32"),
    "float add/sub/mul": tuple(f"{p}_{op}_f{w}" for p in ("v", "s") for op in ("add", "sub", "mul") for w in _W
                               if not (p == "s" and w == 64)),
    "fused multiply-add": ("v_fma_f16", "v_fma_f32", "v_fma_f64"),
    "float min/max": ("v_min_f32", "v_max_f32", "s_min_f32", "s_max_f32", "v_min_num_f32", "v_max_num_f32",
                      "s_min_num_f32", "s_max_num_f32"),
    "float compare": tuple(f"v_cmp_{c}_f{w}" for c in _CMP for w in _W),
    "float class": tuple(f"v_cmp_class_f{w}" for w in _W),
    "conversions": ("v_cvt_f32_f16", "v_cvt_f16_f32", "v_cvt_i32_f32", "v_cvt_u32_f32", "v_cvt_i32_f64",
                    "v_cvt_u32_f64", "v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_f64_i32", "v_cvt_f64_u32",
                    "v_cvt_f64_f32", "v_cvt_f32_f64"),
    "packed 16-bit (VOP3P)": ("v_pk_add_u16", "v_pk_sub_u16", "v_pk_add_i16", "v_pk_sub_i16", "v_pk_mul_lo_u16",
                              "v_pk_mad_u16", "v_pk_mad_i16", "v_pk_min_u16", "v_pk_max_u16", "v_pk_min_i16",
                              "v_pk_max_i16", "v_pk_lshlrev_b16", "v_pk_lshrrev_b16", "v_pk_ashrrev_i16",
                              "v_pk_add_f16", "v_pk_mul_f16", "v_pk_fma_f16"),
    "scalar ALU with SCC": ("s_add_u32", "s_sub_u32", "s_add_i32", "s_sub_i32", "s_addc_u32", "s_subb_u32",
                            "s_and_b32", "s_or_b32", "s_xor_b32", "s_nand_b32", "s_nor_b32", "s_xnor_b32",
                            "s_lshl_b32", "s_lshr_b32", "s_ashr_i32", "s_min_i32", "s_max_u32", "s_bfe_u32",
                            "s_mul_hi_u32", "s_mul_i32", "s_cmp_lt_i32", "s_cmp_ge_u32", "s_cmp_eq_u32",
                            "s_bcnt1_i32_b32"),
    "lane select": ("v_cndmask_b32",),
    "VGPR file moves (M0-relative)": ("v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32",
                                      "v_swaprel_b32"),
}


# families checked by tests/test_semantics_reference_{int,float,scalar,fp8,scale,lanes}.py and test_semantics_llvm_fold.py
REFERENCE_FAMILIES: dict[str, tuple[str, ...]] = {
    "integer three-operand, 16-bit, packing and byte": tuple("""
        v_add3_u32 v_add_i16 v_add_i32 v_add_lshl_u32 v_add_nc_i16 v_add_nc_i32 v_add_nc_u16 v_add_u16
        v_alignbit_b32 v_alignbyte_b32 v_and_b16 v_and_or_b32 v_ashr_pk_i8_i32 v_ashr_pk_u8_i32
        v_ashrrev_i16 v_bfm_b32 v_bitop3_b16 v_bitop3_b32 v_cvt_i32_i16 v_cvt_pk_i16_i32
        v_cvt_pk_u16_u32 v_cvt_u32_u16 v_dot2_i32_i16 v_dot2_u32_u16 v_dot2c_i32_i16 v_dot4_i32_i8
        v_dot4_u32_u8 v_dot4c_i32_i8 v_dot8_i32_i4 v_dot8_u32_u4 v_dot8c_i32_i4 v_lerp_u8 v_lshl_add_u32
        v_lshl_or_b32 v_lshlrev_b16 v_lshrrev_b16 v_mad_i16 v_mad_i32_i16 v_mad_u16 v_mad_u32_u16
        v_max3_i16 v_max3_i32 v_max3_u16 v_max3_u32 v_max_i16 v_max_u16 v_maxmin_i32 v_maxmin_u32
        v_mbcnt_hi_u32_b32 v_mbcnt_lo_u32_b32 v_med3_i16 v_med3_i32 v_med3_u16 v_med3_u32 v_min3_i16
        v_min3_i32 v_min3_u16 v_min3_u32 v_min_i16 v_min_u16 v_minmax_i32 v_minmax_u32 v_mqsad_pk_u16_u8
        v_mqsad_u32_u8 v_mul_lo_u16 v_not_b16 v_not_b32 v_or3_b32 v_or_b16 v_perm_b32 v_qsad_pk_u16_u8
        v_sat_pk_u8_i16 v_sub_i16 v_sub_i32 v_sub_nc_i16 v_sub_nc_i32 v_sub_nc_u16 v_sub_u16
        v_subrev_u16 v_xad_u32 v_xnor_b32 v_xor3_b32 v_xor_b16
    """.split()),
    "64-bit shifts and multiply-add": tuple("""
        v_ashrrev_i64 v_lshlrev_b64 v_lshrrev_b64 v_mad_co_u64_u32 v_mad_u64_u32
    """.split()),
    "carry chains": tuple("""
        v_add_co_ci_u32 v_add_co_u32 v_addc_co_u32 v_sub_co_ci_u32 v_sub_co_u32 v_subb_co_u32
        v_subbrev_co_u32 v_subrev_co_ci_u32 v_subrev_co_u32
    """.split()),
    "float rounding to integral, frexp, ldexp": tuple("""
        s_ceil_f16 s_ceil_f32 s_floor_f16 s_floor_f32 s_trunc_f16 s_trunc_f32 v_ceil_f16 v_ceil_f32
        v_ceil_f64 v_floor_f16 v_floor_f32 v_floor_f64 v_frexp_mant_f16 v_frexp_mant_f32
        v_frexp_mant_f64 v_ldexp_f32 v_ldexp_f64 v_trunc_f16 v_trunc_f32 v_trunc_f64
    """.split()),
    "conversions and packing": tuple("""
        s_cvt_f16_f32 s_cvt_f32_f16 s_cvt_f32_i32 s_cvt_f32_u32 s_cvt_hi_f32_f16 s_cvt_i32_f32
        s_cvt_pk_rtz_f16_f32 s_cvt_u32_f32 v_cvt_f16_i16 v_cvt_f16_u16 v_cvt_f32_bf16 v_cvt_f32_bf8
        v_cvt_f32_fp8 v_cvt_f32_ubyte0 v_cvt_f32_ubyte1 v_cvt_f32_ubyte2 v_cvt_f32_ubyte3
        v_cvt_floor_i32_f32 v_cvt_flr_i32_f32 v_cvt_i16_f16 v_cvt_norm_i16_f16 v_cvt_norm_u16_f16
        v_cvt_off_f32_i4 v_cvt_pk_bf16_f32 v_cvt_pk_f16_f32 v_cvt_pk_f32_bf8 v_cvt_pk_f32_fp8
        v_cvt_pk_i16_f32 v_cvt_pk_norm_i16_f16 v_cvt_pk_norm_i16_f32 v_cvt_pk_norm_u16_f16
        v_cvt_pk_norm_u16_f32 v_cvt_pk_rtz_f16_f32 v_cvt_pk_u16_f32 v_cvt_pknorm_i16_f16
        v_cvt_pknorm_i16_f32 v_cvt_pknorm_u16_f16 v_cvt_pknorm_u16_f32 v_cvt_pkrtz_f16_f32 v_cvt_u16_f16
        v_pack_b32_f16
    """.split()),
    "float min/max/median of two and three": tuple("""
        s_maximum_f16 s_maximum_f32 s_minimum_f16 s_minimum_f32 v_max3_f16 v_max3_f32 v_max3_num_f16
        v_max3_num_f32 v_max_f16 v_max_f64 v_maximum3_f16 v_maximum3_f32 v_maximum_f16 v_maximum_f32
        v_maximum_f64 v_maximumminimum_f16 v_maximumminimum_f32 v_maxmin_f16 v_maxmin_f32
        v_maxmin_num_f16 v_maxmin_num_f32 v_med3_f16 v_med3_f32 v_med3_num_f16 v_med3_num_f32 v_min3_f16
        v_min3_f32 v_min3_num_f16 v_min3_num_f32 v_min_f16 v_min_f64 v_minimum3_f16 v_minimum3_f32
        v_minimum_f16 v_minimum_f32 v_minimum_f64 v_minimummaximum_f16 v_minimummaximum_f32 v_minmax_f16
        v_minmax_f32 v_minmax_num_f16 v_minmax_num_f32
    """.split()),
    "cube map, legacy multiply, packed f32, fma_mix": tuple("""
        v_cubeid_f32 v_cubema_f32 v_cubesc_f32 v_cubetc_f32 v_div_fixup_f16 v_fma_mix_f32
        v_mul_dx9_zero_f32 v_mul_legacy_f32 v_pk_add_f32 v_pk_fma_f32 v_pk_mul_f32 v_trig_preop_f64
    """.split()),
    "scalar ALU (bit, 64-bit, compare, pack)": tuple("""
        s_abs_i32 s_absdiff_i32 s_add_co_ci_u32 s_add_co_i32 s_add_co_u32 s_add_nc_u64 s_and_b64
        s_and_not1_b32 s_and_not1_b64 s_andn2_b32 s_ashr_i64 s_bcnt0_i32_b32 s_bfe_i32 s_bfe_i64
        s_bfe_u64 s_bfm_b32 s_bfm_b64 s_bitcmp0_b32 s_bitcmp0_b64 s_bitcmp1_b32 s_bitcmp1_b64
        s_bitreplicate_b64_b32 s_bitset0_b32 s_bitset0_b64 s_bitset1_b32 s_bitset1_b64 s_brev_b32
        s_brev_b64 s_cls_i32 s_cls_i32_i64 s_clz_i32_u32 s_clz_i32_u64 s_cmov_b32 s_cmov_b64
        s_cmp_eq_i32 s_cmp_eq_u64 s_cmp_ge_i32 s_cmp_gt_i32 s_cmp_gt_u32 s_cmp_le_i32 s_cmp_le_u32
        s_cmp_lg_i32 s_cmp_lg_u32 s_cmp_lg_u64 s_cmp_lt_u32 s_cselect_b32 s_cselect_b64 s_ctz_i32_b32
        s_ctz_i32_b64 s_ff1_i32_b32 s_ff1_i32_b64 s_flbit_i32 s_flbit_i32_b32 s_flbit_i32_b64
        s_flbit_i32_i64 s_lshl1_add_u32 s_lshl2_add_u32 s_lshl3_add_u32 s_lshl4_add_u32 s_lshl_b64
        s_lshr_b64 s_max_i32 s_min_u32 s_mul_hi_i32 s_mul_u64 s_nand_b64 s_nor_b64 s_not_b32 s_not_b64
        s_or_b64 s_or_not1_b32 s_or_not1_b64 s_orn2_b32 s_pack_hh_b32_b16 s_pack_hl_b32_b16
        s_pack_lh_b32_b16 s_pack_ll_b32_b16 s_quadmask_b32 s_quadmask_b64 s_sext_i32_i16 s_sext_i32_i8
        s_sub_co_ci_u32 s_sub_co_i32 s_sub_co_u32 s_sub_nc_u64 s_wqm_b32 s_wqm_b64 s_xnor_b64 s_xor_b64
    """.split()),
    "block-scaled FP8/BF8/FP4 conversions (test_semantics_reference_scale.py)": tuple("""
        v_cvt_scalef32_f32_fp8 v_cvt_scalef32_f32_bf8 v_cvt_scalef32_pk_f32_fp8 v_cvt_scalef32_pk_f32_bf8
        v_cvt_scalef32_pk_f32_fp4 v_cvt_scalef32_pk_fp8_f32 v_cvt_scalef32_pk_bf8_f32 v_cvt_scalef32_pk_fp4_f32
    """.split()),
    "lane reads, writes and swaps (test_semantics_reference_lanes.py)": tuple("""
        v_readlane_b32 v_writelane_b32 v_readfirstlane_b32 v_swap_b32 v_swap_b16 v_permlane16_swap_b32
        v_permlane32_swap_b32
    """.split()),
}
TESTED_FAMILIES.update(REFERENCE_FAMILIES)


# transcendental units the hardware approximates: the model gives the exact value rounded once
_APPROX = re.compile(r"^v_(s_)?(rcp|rcp_iflag|sqrt|log|exp)_f(16|32|64)$")
_WHY_APPROX = ("executes the pseudocode, which gives the exact value rounded once; the hardware approximates it "
               "(about 1 ulp for f16/f32, coarser for f64, which LLVM refines with Newton-Raphson steps), so its "
               "bits may differ; checked within 1 ulp of the exact value and exactly on the special cases "
               "(tests/test_semantics_reference_float.py)")


def family_of(name: str) -> str | None:
    for fam, names in TESTED_FAMILIES.items():
        if name in names:
            return fam
    return None


@functools.lru_cache(maxsize=None)
def check(arch: str, name: str) -> str | None:
    """None when the instruction's pseudocode parses, compiles and runs; else the reason (cached on disk)."""
    from . import cache

    key = f"check-{arch}-{cache.code_version()}.json"
    known = _disk.get(key)
    if known is None:
        known = _disk[key] = cache.load(key) or {}
    if name in known:
        return known[name]
    reason = _check(arch, name)
    known[name] = reason
    if _batching:
        _dirty.add(key)
    else:
        cache.save(key, known)
    return reason


_disk: dict = {}
_dirty: set[str] = set()
_batching = 0


@contextlib.contextmanager
def saved_once():
    """Checks inside write the on-disk cache once, at the end (not the whole file after each instruction)."""
    global _batching
    _batching += 1
    try:
        yield
    finally:
        _batching -= 1
        if not _batching:
            from . import cache

            for key in sorted(_dirty):
                cache.save(key, _disk[key])
            _dirty.clear()


def _check(arch: str, name: str) -> str | None:
    import numpy as np

    from . import compiler

    if sources.lookup(arch, name) is None:
        return sources.missing_reason(arch, name)
    try:
        prog = compiler.program(arch, name)
    except compiler.NoSemantics as exc:
        return str(exc)
    from . import wave

    ops = {r: (0x3F800000 + i) & ((1 << prog.widths[r]) - 1) for i, r in enumerate(sorted(prog.inputs))
           if r in wave.REQUIRED}
    if prog.vgpr_file or "SGPR0" in prog.widths:  # register numbers that, plus M0 (0), stay inside the file
        ops.update({r: 1 + i for i, r in enumerate(("SRC0", "DST")) if r in ops})
    try:
        with np.errstate(all="ignore"):
            wave.run(prog, None, wave.default_wave(arch), True, ops)
    except Exception as exc:  # noqa: BLE001 - a crash of the interpreter is a coverage finding, not a user error
        return f"runs into an interpreter error: {type(exc).__name__}: {exc}"
    return None


def fidelity(arch: str, name: str) -> tuple[str, str]:
    """(exact|untested|unsupported, reason)."""
    reason = check(arch, name)
    if reason is not None:
        return "unsupported", reason
    carried = sources.donor(arch, name)
    if carried is not None:  # the donor's fidelity, marked with where it comes from
        level, why = fidelity(*carried)
        return level, f"{sources.inferred_label(arch, name)}; {why}"
    from . import fnuz, formulations

    own = fnuz.fidelity(arch, name) or formulations.fidelity(name)
    if own is not None:
        return own
    from . import matrix

    if matrix.is_matrix(name):
        return matrix.fidelity(arch, name)
    from . import hardware

    hw = hardware.fidelity(name)  # tests/test_semantics_hardware.py checks every one of these
    if hw is not None:
        return hw
    if _APPROX.match(name):
        return "untested", _WHY_APPROX
    fam = family_of(name)
    if fam is None:
        return "untested", "executes; no property test covers its family yet"
    return "exact", f"executes; checked against an independent reference ({fam})"


def _source_tag() -> str:
    from ..sources import tinygrad as tg

    return f"tinygrad=={tg.TINYGRAD_VERSION}"


@functools.lru_cache(maxsize=1)
def table() -> dict:
    try:
        data = json.loads(TABLE_PATH.read_text())
    except (OSError, ValueError):
        return {}
    if data.get("source") != _source_tag():
        return {}
    rows = data["rows"]
    return {a: {n: rows[i] for n, i in names.items()} for a, names in data["archs"].items()}


def page_fidelity(arch: str, name: str) -> tuple[str, str]:
    """Fidelity for a page without compiling: the precomputed table, else the on-disk check cache."""
    row = table().get(arch, {}).get(name)
    if row is not None:
        return row[0], row[1]
    from . import cache

    known = cache.load(f"check-{arch}-{cache.code_version()}.json") or {}
    if name in known:
        return fidelity(arch, name)
    return "untested", "fidelity not precomputed for this source version; `gpuisa coverage semantics` computes it"


def build_table() -> dict:
    """{"source", "rows": [[fidelity, reason], ...], "archs": {arch: {name: row index}}} (rows shared)."""
    src = sources.default_source()
    rows: list[list[str]] = []
    index: dict[tuple[str, str], int] = {}
    archs: dict[str, dict[str, int]] = {}
    with saved_once():
        _rows_by_arch(src, rows, index, archs)
    return {"source": _source_tag(), "rows": rows, "archs": archs}


def _rows_by_arch(src, rows: list[list[str]], index: dict, archs: dict[str, dict[str, int]]) -> None:
    for a in sources.generations():
        archs[a] = {}
        names = set(src.entries(a)) | set(sources.inherited_entries(a))
        for n in sorted(names):
            row = fidelity(a, n)
            archs[a][n] = index.setdefault(row, len(rows))
            if archs[a][n] == len(rows):
                rows.append(list(row))


if __name__ == "__main__":
    import sys

    data = build_table()
    if "--write" in sys.argv:
        TABLE_PATH.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
        print(f"wrote {TABLE_PATH} ({sum(len(v) for v in data['archs'].values())} instructions)")
    else:
        print(json.dumps(data, indent=1))
