"""The GFX10+ constant bus limit (``codec/constant_bus.py``) against llvm-mc-22 on lines of our own writing:
two scalar values per VOP3/VOP3P instruction (distinct SGPRs, literals per operand size, the implicit VCC of
v_div_fmas), one for the 64-bit shifts before gfx1250; the encoder must give llvm-mc-22's bytes for the lines it
assembles and refuse the lines it rejects, in wave32 and wave64."""

from __future__ import annotations

import pytest

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.encoder import get_encoder

_LINES = [
    'v_div_fmas_f32 v5, s3, s3, s2',
    'v_div_fmas_f32 v5, s3, s3, s3',
    'v_div_fmas_f32 v5, s3, s2, v3',
    'v_div_fmas_f32 v5, s3, v2, v3',
    'v_div_fmas_f32 v5, v1, v2, v3',
    'v_div_fmas_f32 v5, 0x123, v2, v3',
    'v_div_fmas_f32 v5, s3, 0x123, v3',
    'v_div_fmas_f32 v5, 1.0, v2, s3',
    'v_div_fmas_f32 v5, v1, v2, s3',
    'v_div_fmas_f64 v[5:6], v[1:2], s[2:3], 0x123456',
    'v_div_fmas_f64 v[5:6], v[1:2], s[2:3], v[3:4]',
    'v_div_fmas_f64 v[5:6], v[1:2], 0x123456, v[3:4]',
    'v_fma_f32 v5, s3, s3, s2',
    'v_fma_f32 v5, s3, s2, v3',
    'v_fma_f32 v5, s3, 0x123, v3',
    'v_fma_f32 v5, s3, s3, 0x123',
    'v_fma_f64 v[5:6], s[2:3], s[2:3], s[4:5]',
    'v_fma_f64 v[5:6], s[2:3], v[2:3], s[4:5]',
    'v_fma_f64 v[5:6], s[2:3], 0x123, v[4:5]',
    'v_lshlrev_b64 v[5:6], 0x3f717273, 0x3f717273',
    'v_lshlrev_b64 v[5:6], 0x3f717273, s[2:3]',
    'v_lshlrev_b64 v[5:6], s2, s[2:3]',
    'v_lshlrev_b64 v[5:6], s4, s[2:3]',
    'v_lshlrev_b64 v[5:6], 0x10, v[2:3]',
    'v_lshlrev_b64 v[5:6], v1, 0x10',
    'v_ashrrev_i64 v[0:1], 0x100, s[0:1]',
    'v_ashrrev_i64 v[0:1], s2, s[0:1]',
    'v_ashrrev_i64 v[0:1], s0, s[0:1]',
    'v_lshrrev_b64 v[0:1], s2, s[0:1]',
    'v_add_f64 v[0:1], s[0:1], s[2:3]',
    'v_add_f64 v[0:1], s[0:1], 0x100',
    'v_mad_u64_u32 v[5:6], s12, s1, 0x12345678, 0x12345678',
    'v_mad_u64_u32 v[5:6], s12, s1, s2, 0x12345678',
    'v_mad_u64_u32 v[5:6], s12, v1, s2, 0x12345678',
    'v_mad_u64_u32 v[5:6], s12, s1, s2, v[2:3]',
    'v_mad_u64_u32 v[5:6], s12, s1, s1, v[2:3]',
    'v_mad_u64_u32 v[5:6], s12, 0x1, 0x1, s[2:3]',
    'v_mad_u64_u32 v[5:6], s12, s1, 0x1, s[2:3]',
    'v_mad_u64_u32 v[5:6], s12, s1, v1, s[2:3]',
    'v_mad_u64_u32 v[5:6], s12, s2, v1, s[2:3]',
    'v_mad_i64_i32 v[5:6], s12, s1, s2, s[4:5]',
    'v_add3_u32 v1, s1, s2, s3',
    'v_add3_u32 v1, s1, s2, 0x12',
    'v_add3_u32 v1, s1, s1, 0x12',
    'v_add3_u32 v1, 0x12, 0x12, s1',
    'v_add3_u32 v1, 0x12, 0x13, v1',
    'v_cndmask_b32_e64 v1, s1, s2, s[4:5]',
    'v_cndmask_b32_e64 v1, s1, v2, s[4:5]',
    'v_cndmask_b32_e64 v1, s1, s1, s[4:5]',
    'v_addc_co_u32_e64 v1, s0, s1, s2, s3',
    'v_div_scale_f32 v1, s0, s1, s2, s3',
    'v_div_scale_f64 v[1:2], s0, s[2:3], s[2:3], s[4:5]',
    'v_div_scale_f64 v[1:2], s0, s[2:3], s[4:5], v[4:5]',
    'v_readlane_b32 s1, v1, s2',
    'v_writelane_b32 v1, s1, s2',
    'v_pk_add_f16 v1, s1, s2',
    'v_pk_fma_f16 v1, s1, s2, s3',
    'v_pk_fma_f16 v1, s1, s2, 0x12',
    'v_add3_u32 v1, 0x12345, 0x12345, s1',
    'v_add3_u32 v1, 0x12345, 0x12345, v1',
    'v_add3_u32 v1, s1, 0x12345, 0x12345',
    'v_add3_u32 v1, s1, 0x12345, v2',
    'v_add3_u32 v1, s1, 0x12345, s1',
    'v_add3_u32 v1, 0x12345, 0x12346, v1',
    'v_mad_u64_u32 v[5:6], s12, v1, 0x12345678, 0x12345678',
    'v_mad_u64_u32 v[5:6], s12, s1, v1, 0x12345678',
    'v_mad_u64_u32 v[5:6], s12, v1, v1, 0x12345678',
    'v_mad_u64_u32 v[5:6], s12, v1, 0x12345678, v[2:3]',
    'v_mad_u64_u32 v[5:6], s12, s1, 0x12345678, v[2:3]',
    'v_mad_u64_u32 v[5:6], s12, v1, s1, s[2:3]',
    'v_lshlrev_b64 v[5:6], s2, v[2:3]',
    'v_lshlrev_b64 v[5:6], 0x12345, v[2:3]',
    'v_lshlrev_b64 v[5:6], v1, s[2:3]',
    'v_lshlrev_b64 v[5:6], v1, 0x12345',
    'v_lshrrev_b64 v[5:6], 1, s[2:3]',
    'v_ashrrev_i64 v[5:6], s1, 1',
    'v_lshlrev_b16 v1, s1, s2',
    'v_lshlrev_b32_e64 v1, s1, s2',
    'v_div_fmas_f32 v5, s3, v2, vcc_lo',
    'v_div_fmas_f32 v5, vcc_lo, v2, v3',
    'v_div_fmas_f32 v5, vcc_lo, s1, v3',
    'v_div_fmas_f32 v5, vcc_lo, vcc_lo, vcc_lo',
    'v_div_fmas_f64 v[5:6], s[2:3], v[2:3], v[3:4]',
    'v_div_fmas_f64 v[5:6], vcc, v[2:3], v[3:4]',
    'v_fma_f32 v5, s3, 0x123, 0x123',
    'v_fma_f32 v5, 0x123, 0x123, 0x123',
    'v_fma_f32 v5, 0x123, 0x124, v1',
    'v_fma_f64 v[5:6], s[2:3], s[4:5], 0x123',
    'v_cndmask_b32_e64 v1, s1, s2, vcc_lo',
    'v_cndmask_b32_e64 v1, s1, v2, vcc_lo',
    'v_cndmask_b32_e64 v1, s1, s1, vcc_lo',
    'v_cndmask_b32_e64 v1, s1, v2, s3',
    'v_cndmask_b32_e64 v1, s1, s2, s3',
    'v_cndmask_b32_e64 v1, 0x123, v2, s3',
    'v_cndmask_b32_e64 v1, 0x123, s2, s3',
    'v_add_co_ci_u32_e64 v1, s0, s1, s2, s3',
    'v_add_co_ci_u32_e64 v1, s0, s1, v2, s3',
    'v_add_co_ci_u32_e64 v1, s0, 0x123, v2, s3',
    'v_add_co_ci_u32_e64 v1, s0, s1, s1, s3',
    'v_readlane_b32 s1, v1, 0x12',
    'v_mov_b32_e64 v1, 0x123',
    'v_add_f32_e64 v1, 0x123, s1',
    'v_add_f32_e64 v1, s2, s1',
    'v_cmp_eq_u32_e64 s0, s1, s2',
    'v_cmp_eq_u32_e64 s0, s1, 0x1234',
    'v_cmp_eq_u64_e64 s0, s[2:3], 0x1234',
    'v_pk_fma_f16 v1, s1, 0x1234, s2',
    'v_pk_fma_f16 v1, s1, 0x1234, 0x1234',
    'v_fma_mix_f32 v1, s1, s2, s3',
    'v_fma_mix_f32 v1, s1, s2, 0x1234',
    'v_div_scale_f32 v1, vcc_lo, s1, s2, v3',
    'v_div_scale_f32 v1, vcc_lo, s1, s2, s2',
    'v_sad_u8 v1, s1, 0x12345, s2',
    'v_qsad_pk_u16_u8 v[1:2], s[2:3], s4, v[4:5]',
    'v_qsad_pk_u16_u8 v[1:2], s[2:3], s4, s[4:5]',
    'v_mqsad_u32_u8 v[1:4], s[2:3], s4, v[4:7]',
    'v_ldexp_f64 v[1:2], s[2:3], s4',
    'v_trig_preop_f64 v[1:2], s[2:3], s4',
    'v_mul_lo_u32 v1, s1, 0x12345',
    'v_bfe_u32 v9, s4, s5, null',
    'v_add3_u32 v9, null, exec_lo, 0x2468ace',
    'v_max3_i32 v2, 0x2468ace, vcc_hi, null',
    'v_fma_f32 v2, null, s7, m0',
    'v_fma_f32 v2, m0, s7, 0x1234',
    'v_med3_u32 v2, ttmp1, s7, v3',
    'v_med3_u32 v2, ttmp1, s7, exec_hi',
]
_WAVE64 = ["v_cndmask_b32_e64 v1, s1, s2, s[4:5]", "v_cndmask_b32_e64 v1, s1, v2, s[4:5]",
           "v_cndmask_b32_e64 v1, s1, v2, vcc", "v_add_co_ci_u32_e64 v1, s[0:1], s1, v2, s[2:3]",
           "v_add_co_ci_u32_e64 v1, s[0:1], s1, s1, s[2:3]", "v_div_fmas_f32 v5, s3, v2, v3",
           "v_div_scale_f32 v1, vcc, s1, s2, v3", "v_div_scale_f32 v1, vcc, s1, 0x1234, v3"]


def _disagreements(arch: str, lines: list[str], wave64: bool) -> list[str]:
    ref = oracle.assemble(archs.by_name(arch).llvm_target, lines, wave64)
    enc = get_encoder(arch, wave64)
    bad = []
    for line, (want, msg) in zip(lines, ref):
        try:
            got: bytes | None = enc.encode_line(line).data
        except EncodeError:
            got = None
        if got != want:
            bad.append(f"{arch}: {line!r}: llvm {want.hex() if want else msg!r}, ours {got.hex() if got else None}")
    return bad


@pytest.mark.parametrize("arch", ["rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna5"])
def test_constant_bus_limit_wave32(llvm_mc, arch):
    bad = _disagreements(arch, _LINES, False)
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["rdna1", "rdna3", "rdna4"])
def test_constant_bus_limit_wave64(llvm_mc, arch):
    bad = _disagreements(arch, _WAVE64, True)
    assert not bad, bad[:5]
