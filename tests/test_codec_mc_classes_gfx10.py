"""Disagreement classes found on GFX10 files of LLVM's MC tests (tools/mc_agreement.py), each checked against
llvm-mc-22 on lines of our own writing: the encoder must give llvm-mc-22's bytes for the lines it assembles and
refuse the lines it rejects."""

from __future__ import annotations

import pytest
from mc_compare import lines_disagreeing

from gpuisa.codec.processor_codec import encoder_for

# GFX10 ray tracing with an address list (NSA): as many addresses as the contiguous form has registers, 11/12
# (8/9 with a16); image_msaa_load: multisampled dims only
_IMAGE = [
    "image_bvh_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16], s[4:7] a16",
    "image_bvh_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16], s[4:7]",
    "image_bvh_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19], s[4:7]",
    "image_bvh_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19], s[4:7] a16",
    "image_bvh64_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20], s[4:7]",
    "image_bvh64_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17], s[4:7] a16",
    "image_bvh64_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17], s[4:7]",
    "image_bvh64_intersect_ray v[4:7], [v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19], s[4:7]",
    "image_sample v[1:4], [v5, v6, v7], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D",
    "image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA",
    "image_msaa_load v[1:4], v[5:8], s[8:15] dmask:0x2 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY",
    "image_msaa_load v[1:4], v[5:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D",
    "image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0x1 dim:3D",
    "image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0x4 dim:SQ_RSRC_IMG_2D_ARRAY",
    "image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_CUBE",
    "image_msaa_load v[1:4], v[5:6], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D_ARRAY",
    "image_load v[1:4], v[5:7], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA",
]


def _disagreements(cpu: str, lines: list[str]) -> list[str]:
    return lines_disagreeing(cpu, encoder_for(cpu), lines)


@pytest.mark.parametrize("cpu", ["gfx1013", "gfx1030", "gfx1200"])
def test_image_address_lists_and_msaa_dims(llvm_mc, cpu):
    bad = _disagreements(cpu, _IMAGE)
    assert not bad, bad[:5]


# GFX10 FLAT offsets: flat_* 0..2047, global_*/scratch_* -2048..2047; exec is no scalar address of a global access
_FLAT = [
    "global_load_dword v7, v[8:9], off offset:2047", "global_load_dword v7, v[8:9], off offset:2048",
    "global_load_dword v7, v[8:9], off offset:-2048", "global_load_dword v7, v[8:9], off offset:-2049",
    "global_store_dword v8, v7, s[4:5] offset:3000", "global_store_dword v8, v7, s[4:5] offset:-100",
    "scratch_load_dword v7, v8, off offset:2047", "scratch_load_dword v7, v8, off offset:2049",
    "scratch_store_dword off, v7, s5 offset:-2049", "scratch_store_dword off, v7, s5 offset:-2048",
    "flat_load_dword v7, v[8:9] offset:2047", "flat_load_dword v7, v[8:9] offset:2048",
    "flat_store_dword v[8:9], v7 offset:3000", "flat_load_dword v7, v[8:9] offset:-2",
    "global_load_dword v7, v8, exec", "global_store_dword v8, v7, exec offset:8", "global_atomic_or v8, v7, exec",
    "global_load_dword v7, v8, vcc", "global_load_dword v7, v8, ttmp[4:5]", "global_load_dword v7, v8, s[10:11]",
]


@pytest.mark.parametrize("cpu", ["gfx1010", "gfx1030"])
def test_flat_offsets_and_global_scalar_address(llvm_mc, cpu):
    bad = _disagreements(cpu, _FLAT)
    assert not bad, bad[:5]


@pytest.mark.parametrize("cpu", ["gfx908", "gfx90a", "gfx942", "gfx1100"])
def test_global_scalar_address_not_exec(llvm_mc, cpu):
    bad = _disagreements(cpu, _FLAT[14:])
    assert not bad, bad[:5]


# CDNA: sext() of a plain register on v_pk_fmac_f16's SDWA sources is taken and encodes nothing; around |x| or -x
# it is refused (found on gfx9_asm_vop2_features.s)
_PK_SDWA = [
    "v_pk_fmac_f16_sdwa v5, sext(v1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
    "v_pk_fmac_f16_sdwa v7, v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_1",
    "v_pk_fmac_f16_sdwa v5, sext(|v1|), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
    "v_pk_fmac_f16_sdwa v5, v1, sext(-v2) dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
    "v_pk_fmac_f16_sdwa v5, sext(s1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
    "v_add_f32_sdwa v5, v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
    "v_add_u32_sdwa v5, v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD",
]


@pytest.mark.parametrize("cpu", ["gfx908", "gfx90a", "gfx942", "gfx950"])
def test_packed_sdwa_sext(llvm_mc, cpu):
    bad = _disagreements(cpu, _PK_SDWA)
    assert not bad, bad[:5]
