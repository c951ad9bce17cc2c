"""Tests for the rule-and-dictionary instruction summaries."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpuisa.summaries import MAX_LEN, summarize

GENERIC = "' operation"  # marker of the fallback wording for unknown stems

KEY_PHRASES = {
    "v_msad_u8": ("Vector ALU", "absolute differences", "8-bit"),
    "v_mad_i32_i24": ("multiply", "24-bit", "signed 32-bit"),
    "v_cndmask_b32": ("select", "32-bit"),
    "s_mov_b32": ("Scalar ALU", "copy", "32-bit", "scalar register"),
    "v_cvt_f32_u32": ("convert an unsigned 32-bit integer to 32-bit float",),
    "buffer_load_dword": ("Buffer memory", "load a 32-bit value per lane", "buffer resource"),
    "v_mfma_f32_32x32x8f16": ("matrix", "32x32x8", "16-bit float", "32-bit float"),
    "v_wmma_f32_16x16x16_f16": ("matrix", "16x16x16", "16-bit float"),
    "v_dot2_f32_f16": ("dot product", "16-bit float", "32-bit float"),
    "v_pk_fma_f16": ("fused multiply-add", "packed"),
    "v_cmp_lt_f32": ("compare", "less than", "32-bit float"),
    "v_cmpx_eq_u32": ("compare", "equal", "EXEC"),
    "v_add_co_ci_u32": ("add", "carry-in", "carry-out"),
    "s_cbranch_vccz": ("Scalar control", "VCC"),
    "s_waitcnt": ("wait",),
    "s_sendmsg": ("message",),
    "exp": ("Export",),
    "v_interp_p1_f32": ("Interpolation", "32-bit float"),
    "v_dual_mul_f32": ("dual-issue", "multiply"),
    "ds_load_b32": ("LDS", "load", "32-bit"),
    "ds_read_b32": ("LDS", "load", "32-bit"),
    "global_store_b64": ("Global memory", "store", "64-bit"),
    "scratch_load_dword": ("Scratch memory", "load"),
    "flat_atomic_cmpswap": ("Flat memory", "atomic", "compare-and-swap"),
    "image_sample_c_lz": ("Image memory", "sample", "depth comparison", "LOD zero"),
    "s_load_dwordx4": ("Scalar memory", "four 32-bit values"),
    "v_cvt_pkrtz_f16_f32": ("convert", "toward zero", "32-bit float"),
    "s_and_saveexec_b64": ("EXEC",),
}

REAL_MNEMONICS = """
v_add_f32 v_add_f32_e64 v_add_u32 v_add_nc_u32 v_add_co_u32 v_addc_co_u32 v_sub_f32 v_subrev_f32 v_subrev_co_ci_u32
v_mul_f32 v_mul_lo_u32 v_mul_hi_u32 v_mul_u32_u24 v_mul_hi_i32_i24 v_mad_f32 v_mad_u64_u32 v_mad_u32_u24 v_fma_f64
v_fmac_f32 v_fmaak_f32 v_fmamk_f32 v_madak_f32 v_mac_f32 v_sad_u8 v_qsad_pk_u16_u8 v_mqsad_u32_u8 v_lerp_u8
v_min_f32 v_max_i32 v_med3_f32 v_min3_u32 v_max_num_f32 v_minimum3_f32 v_and_b32 v_or3_b32 v_xor_b32 v_not_b32
v_xnor_b32 v_lshlrev_b32 v_lshrrev_b64 v_ashrrev_i32 v_lshl_add_u32 v_bfe_u32 v_bfi_b32 v_bfm_b32 v_bfrev_b32
v_ffbh_u32 v_ffbl_b32 v_bcnt_u32_b32 v_mbcnt_lo_u32_b32 v_mbcnt_hi_u32_b32 v_cvt_f32_i32 v_cvt_i32_f64 v_cvt_f16_f32
v_cvt_f32_ubyte0 v_cvt_pk_u8_f32 v_cvt_flr_i32_f32 v_cvt_rpi_i32_f32 v_cvt_off_f32_i4 v_rcp_f32 v_rsq_f64 v_sqrt_f32
v_sin_f32 v_cos_f16 v_exp_f32 v_log_f32 v_ldexp_f32 v_frexp_mant_f64 v_frexp_exp_i32_f32 v_fract_f32 v_trunc_f64
v_ceil_f32 v_floor_f16 v_rndne_f32 v_div_scale_f64 v_div_fmas_f32 v_div_fixup_f64 v_trig_preop_f64 v_mov_b32
v_movrels_b32 v_readlane_b32 v_readfirstlane_b32 v_writelane_b32 v_permlane16_b32 v_permlanex16_b32 v_perm_b32
v_alignbit_b32 v_alignbyte_b32 v_cubeid_f32 v_cubema_f32 v_cmp_class_f32 v_cmp_nge_f64 v_cmp_o_f32 v_cmpx_ne_u64
v_cmp_t_i32 v_dot4_i32_i8 v_dot8_u32_u4 v_dot2c_f32_f16 v_pk_add_f16 v_pk_mul_lo_u16 v_pk_mov_b32 v_pk_fma_f32
v_mfma_f32_16x16x16bf16_1k v_mfma_i32_32x32x8i8 v_mfma_f64_16x16x4f64 v_mfma_f32_32x32x4_xf32 v_smfmac_f32_16x16x32_f16
v_wmma_i32_16x16x16_iu8 v_wmma_f32_16x16x16_fp8_bf8 v_swmmac_f32_16x16x32_bf16 v_accvgpr_read_b32 v_accvgpr_write_b32
v_interp_p2_f32 v_interp_mov_f32 v_interp_p10_f16_f32 lds_param_load lds_direct_load v_dual_fmac_f32 v_dual_cndmask_b32
v_dual_add_nc_u32 s_add_u32 s_addc_u32 s_sub_i32 s_mul_i32 s_mul_hi_u32 s_and_b64 s_andn2_b32 s_and_not1_b32 s_not_b64
s_lshl_b32 s_lshr_b64 s_ashr_i32 s_bfe_u32 s_brev_b32 s_bcnt1_i32_b64 s_ff1_i32_b32 s_flbit_i32_b32 s_sext_i32_i8
s_movk_i32 s_cmov_b32 s_cselect_b64 s_cmp_eq_u32 s_cmpk_lg_u32 s_bitcmp1_b32 s_bitset0_b32 s_and_saveexec_b32
s_or_saveexec_b64 s_andn2_saveexec_b64 s_and_not1_saveexec_b32 s_getpc_b64 s_setpc_b64 s_swappc_b64 s_branch
s_cbranch_scc0 s_cbranch_execz s_cbranch_execnz s_waitcnt s_waitcnt_vscnt s_wait_loadcnt s_wait_kmcnt s_wait_idle
s_sendmsg s_sendmsghalt s_barrier s_endpgm s_nop s_sleep s_trap s_setprio s_getreg_b32 s_setreg_b32 s_delay_alu
s_load_dword s_load_b64 s_buffer_load_dwordx8 s_store_dword s_dcache_inv s_memtime s_wqm_b64 s_quadmask_b32
ds_read_b64 ds_read2_b32 ds_read2st64_b64 ds_write_b32 ds_write2_b64 ds_load_b128 ds_store_b16 ds_load_2addr_b32
ds_add_u32 ds_add_rtn_u32 ds_cmpst_b32 ds_cmpstore_rtn_b32 ds_swizzle_b32 ds_bpermute_b32 ds_permute_b32 ds_append
ds_consume ds_read_u8 ds_read_i16 ds_max_rtn_f64 ds_wrxchg_rtn_b32 ds_bvh_stack_rtn_b32 ds_load_tr_b64
buffer_load_dwordx4 buffer_store_byte buffer_load_ubyte buffer_load_sbyte_d16_hi buffer_load_format_xyzw
buffer_atomic_add buffer_atomic_cmpswap_x2 buffer_atomic_add_f32 buffer_wbinvl1 buffer_gl0_inv buffer_load_b32
tbuffer_load_format_x tbuffer_store_format_xyzw global_load_dword global_load_b128 global_store_short_d16_hi
global_atomic_add_f32 global_atomic_pk_add_f16 global_atomic_cmpswap_b64 global_load_lds_dwordx4 global_load_tr_b64
global_inv global_wb flat_load_dwordx2 flat_store_dword flat_atomic_swap_x2 flat_atomic_umax scratch_store_b32
image_load image_load_mip image_store image_sample image_sample_d image_sample_l_o image_gather4_c_lz
image_get_resinfo image_atomic_add image_bvh_intersect_ray image_msaa_load exp export
""".split()


@pytest.mark.parametrize("name,phrases", sorted(KEY_PHRASES.items()))
def test_key_phrases(name: str, phrases: tuple[str, ...]) -> None:
    text = summarize(name)
    for phrase in phrases:
        assert phrase in text, (name, text)


def test_examples_exact_spirit() -> None:
    assert summarize("s_mov_b32") == "Scalar ALU: copy a 32-bit value into a scalar register."
    assert summarize("v_cvt_f32_u32") == "Vector ALU: convert an unsigned 32-bit integer to 32-bit float."
    assert summarize("buffer_load_dword") == "Buffer memory: load a 32-bit value per lane through a buffer resource."
    assert summarize("v_mad_i32_i24") == "Vector ALU: multiply two signed 24-bit integers and add a signed 32-bit integer."


def _well_formed(text: str) -> None:
    assert text and text.strip() == text
    assert "\n" not in text and "\r" not in text
    assert text.endswith(".")
    assert len(text) <= MAX_LEN


@pytest.mark.parametrize("name", REAL_MNEMONICS)
def test_real_mnemonics_are_specific(name: str) -> None:
    text = summarize(name)
    _well_formed(text)
    assert GENERIC not in text, text
    assert "{" not in text and "}" not in text


def test_encoding_suffix_ignored() -> None:
    assert summarize("v_add_f32_e64") == summarize("v_add_f32")
    assert summarize("v_cmp_eq_u32_e32") == summarize("v_cmp_eq_u32")


def test_unknown_stem_falls_back() -> None:
    text = summarize("v_frobnicate_f32")
    _well_formed(text)
    assert text.startswith("Vector ALU:") and "32-bit float" in text and GENERIC in text


def test_category_hint_for_unprefixed_names() -> None:
    assert summarize("mystery", "SMEM").startswith("Scalar memory:")
    assert summarize("mystery").startswith("Instruction:")


@pytest.mark.parametrize("name", ["", " ", "_", "v_", "s___", "ds_", "image_", "v_interp_", "x" * 500, "V_ADD_F32"])
def test_odd_inputs(name: str) -> None:
    _well_formed(summarize(name))


@settings(max_examples=400, deadline=None)
@given(st.from_regex(r"[vs]_[a-z0-9_]{1,30}", fullmatch=True))
def test_random_mnemonics_never_fail(name: str) -> None:
    _well_formed(summarize(name))


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["v_", "s_", "ds_", "buffer_", "tbuffer_", "global_", "flat_", "scratch_", "image_",
                     "v_dual_", "v_interp_", "lds_param_", "s_buffer_", "s_load_", "v_cmp_", "v_pk_", "exp"]),
    st.from_regex(r"[a-z0-9_]{0,40}", fullmatch=True),
)
def test_random_with_unit_prefixes(prefix: str, rest: str) -> None:
    _well_formed(summarize(prefix + rest))
