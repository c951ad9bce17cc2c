"""Assembler classes found by tools/mc_agreement.py on LLVM's MC test files, checked against llvm-mc-22 at
test time: each case is a set of lines; our encoder must give llvm-mc-22's bytes for the lines it assembles
and refuse the lines it rejects.
"""

from __future__ import annotations

import pytest
from mc_compare import encode_disagreements


def _disagreements(arch: str, lines: list[str]) -> list[str]:
    return encode_disagreements(arch, lines)


_MEMORY = ["global_load_b32 v1, v2, s[2:3]", "global_store_b32 v2, v1, s[2:3]", "global_atomic_add_u32 v2, v3, s[2:3]",
           "global_atomic_add_u32 v1, v2, v3, s[2:3]", "buffer_load_b32 v1, off, s[4:7], s3",
           "buffer_atomic_add_u32 v1, off, s[4:7], s3", "flat_atomic_cmpswap_b32 v0, v[2:3], v[4:5]",
           "s_load_b32 s1, s[2:3], 0x0"]
_POLICY = ["", "th:TH_LOAD_RT", "th:TH_STORE_RT", "th:TH_ATOMIC_RT", "th:TH_DEFAULT", "scope:SCOPE_CU", "scope:0",
           "th:TH_LOAD_RT scope:SCOPE_CU", "th:TH_ATOMIC_RETURN", "th:TH_ATOMIC_NT_RETURN", "th:TH_ATOMIC_RT_RETURN",
           "th:TH_ATOMIC_RETURN scope:SCOPE_SYS", "th:TH_ATOMIC_NT", "scope:SCOPE_DEV"]


@pytest.mark.parametrize("arch", ["rdna4", "cdna5"])
def test_gfx12_default_cache_policy_and_atomic_return(llvm_mc, arch):
    """th:TH_*_RT / TH_DEFAULT and scope:SCOPE_CU name the zero values; a returning atomic needs a *_RETURN th."""
    lines = [f"{i} {p}".strip() for i in _MEMORY for p in _POLICY]
    if arch == "rdna4":
        lines += [f"image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D {p}" for p in _POLICY[:8]]
        lines += ["image_gather4 v[12:15], [v16, v17], s[16:23], s[92:95] dmask:0x2 dim:SQ_RSRC_IMG_2D scope:SCOPE_CU"]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_suffixed_aliases_stand_without_their_suffix(llvm_mc, arch):
    """v_ffbh_i32 / v_ffbh_u32 / v_ffbl_b32 are v_cls_i32 / v_clz_i32_u32 / v_ctz_i32_b32 on GFX11+."""
    lines = ["v_ffbh_i32 v5, v1", "v_ffbh_u32 v5, 0.5", "v_ffbl_b32 v255, 0xaf123456", "v_ffbh_i32_e64 v5, v1",
             "v_ffbh_u32_e32 v5, s1", "v_ffbh_i32 v5, -v1"]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["cdna1", "cdna2", "cdna3", "cdna4", "rdna2"])
def test_dpp_of_64_bit_sources(llvm_mc, arch):
    """gfx90a+: 64-bit VOP1/VOP2 sources take DPP with row_newbcast only (the _dpp suffix inferred), aligned pairs;
    gfx908 and RDNA refuse them."""
    lines = ["v_ceil_f64 v[0:1], v[2:3] row_newbcast:1", "v_fmac_f64_dpp v[0:1], v[2:3], v[4:5] row_newbcast:2",
             "v_fmac_f64_dpp v[0:1], v[2:3], v[5:6] row_newbcast:2", "v_ceil_f64_dpp v[0:1], v[3:4] row_newbcast:1",
             "v_ceil_f64_dpp v[0:1], v[2:3] quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
             "v_cvt_f32_f64_dpp v5, -v[0:1] row_newbcast:15 row_mask:0x3",
             "v_cvt_f64_f32_dpp v[4:5], |v1| row_newbcast:3 bank_mask:0x1", "v_ceil_f64_dpp v[0:1], v[2:3] row_shl:1",
             "v_add_f32_dpp v1, v2, v3 row_newbcast:1", "v_add_f32_dpp v1, -v2, |v3| row_shl:1 bound_ctrl:0"]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]


_CONST_LINES = [
    "v_add_f32_e32 v5, |-4.0|, v2", "v_add_f32_e32 v5, |-1|, v2", "v_add_f32_e32 v5, -|-4.0|, v2",
    "v_add_f32_e32 v5, |-3.0|, v2", "v_add_f32_e32 v5, -|1|, v2", "v_add_f32 v5, |-4.0|, v2",
    "v_add_f32_e64 v5, |-4.0|, v2", "v_add_f32_e32 v5, |s1|, v2", "v_mov_b32_e32 v5, |-4.0|",
    "v_add_u32_e32 v5, |-4.0|, v2", "v_add_f16_e32 v5, |-4.0|, v2", "v_add_f16_e32 v5, |-3.0|, v2",
    "v_ceil_f64_e32 v[5:6], |-4.0|", "v_ceil_f64_e32 v[5:6], |-3.0|", "v_cndmask_b32_e32 v5, |-4.0|, v2, vcc_lo",
    "v_cndmask_b32_e32 v5, |-4.0|, v2, vcc", "v_cvt_f32_f16_e32 v5, |-4.0|", "v_pk_add_f16 v5, |-4.0|, v2",
    "v_add_f32_e32 v5, |-0.0|, v2", "v_add_f32_e32 v5, |-0.15915494|, v2",
    "v_add_u32_e32 v5, 0x40800000, v2", "s_add_u32 s5, 0x40800000, s2", "s_mov_b32 s5, 0x3f800000",
    "v_mov_b32 v5, 0x3e22f983", "s_mov_b64 s[4:5], 0x3e22f983", "v_add_f16 v5, 0x3c00, v2",
    "v_add_f16_e64 v5, 0x3118, v2", "v_add_f32_e32 v5, lit(0x40800000), v2", "v_pk_add_f16 v5, 0x3c00, v2",
    "v_pk_add_f16 v5, 0x40800000, v2", "v_pk_add_u16 v5, 0x40800000, v2", "v_pk_mul_f32 v[4:5], 0x40800000, v[2:3]",
    "s_cmp_eq_u32 s1, 0x3f000000", "v_mul_f64 v[4:5], 0x40100000, v[2:3]", "v_dot2_f32_bf16 v5, 0x3f80, v2, v3",
    "v_add_f16 v5, 0x40800000, v2", "v_add_u16 v5, 0x12345, v2", "v_add_nc_u16 v5, 0x12345, v2",
]


@pytest.mark.parametrize("arch", ["cdna2", "cdna3", "rdna1", "rdna3", "rdna4", "cdna5"])
def test_constants_with_modifiers_and_float_bit_patterns(llvm_mc, arch):
    """|c| / -|c| where the form has no modifier bits are folded into the value (its float sign bit); an integer
    with an inline float's bits is that inline constant in 32-bit (and 16-bit float) operands; a 16-bit operand
    takes no wider integer (llvm-mc-22)."""
    bad = _disagreements(arch, _CONST_LINES)
    assert not bad, bad[:5]


def test_gfx12_image_atomic_aliases(llvm_mc):
    """GFX12 renamed the image atomics (image_atomic_add is image_atomic_add_uint, smin is min_int, ...)."""
    lines = [f"image_atomic_{op} v1, v2, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D"
             for op in ("add", "sub", "smin", "umin", "smax", "umax", "inc", "dec", "fmin", "fmax", "and", "swap")]
    lines += ["image_atomic_add v1, [v2, v3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D th:TH_ATOMIC_RETURN",
              "image_atomic_add v1, v[2:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D"]
    bad = _disagreements("rdna4", lines)
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["cdna2", "cdna3", "rdna1", "rdna3", "rdna4", "cdna5"])
def test_ds_swizzle_offsets(llvm_mc, arch):
    """ds_swizzle_b32 offset:swizzle(QUAD_PERM|BITMASK_PERM|SWAP|REVERSE|BROADCAST|FFT|ROTATE, ...) or a number."""
    modes = ["", " offset:0", " offset:0xFFFF", " offset:65536", " offset:swizzle(QUAD_PERM, 0, 1, 2, 3)",
             " offset:swizzle(QUAD_PERM,0,1,2,4)", " offset:swizzle(SWAP,16)", " offset:swizzle(SWAP,3)",
             " offset:swizzle(REVERSE,8)", " offset:swizzle(REVERSE,32)", " offset:swizzle(BROADCAST,4,1)",
             " offset:swizzle(BROADCAST,8,8)", ' offset:swizzle(BITMASK_PERM, "01pip")', ' offset:swizzle(BITMASK_PERM,"01pi")',
             " offset:swizzle(FFT,5)", " offset:swizzle(ROTATE,1,3)"]
    bad = _disagreements(arch, [f"ds_swizzle_b32 v8, v2{m}" for m in modes])
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["rdna1", "rdna2", "rdna3"])
def test_mimg_atomic_address_counts(llvm_mc, arch):
    """GFX10/GFX11 image atomics take as many address registers as DIM and A16 ask (fcmpswap/cmpswap 3D: v[2:4])."""
    lines = ["image_atomic_cmpswap v[1:2], v[2:4], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_3D unorm",
             "image_atomic_cmpswap v[1:2], v2, s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_3D unorm",
             "image_atomic_cmpswap v[1:2], v2, s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_1D unorm",
             "image_atomic_add v1, v[2:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
             "image_atomic_add v1, v[2:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D",
             "image_atomic_add v1, v[2:4], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY a16",
             "image_atomic_cmpswap v[1:4], v[2:3], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
             "image_load v[0:3], v[2:4], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D"]
    if arch != "rdna3":
        lines += ["image_atomic_fcmpswap v[1:2], v[2:4], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_3D unorm",
                  "image_atomic_fcmpswap v[1:2], v[2:3], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_3D unorm a16",
                  "image_atomic_fcmpswap v[1:2], v[2:5], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY unorm"]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]
