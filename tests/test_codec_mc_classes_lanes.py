"""Operand classes of lane and scalar-operand instructions, checked against llvm-mc-22 on lines of our own writing
(the classes tools/lane_class_sweep.py found): the encoder must give llvm-mc-22's bytes for the lines it assembles
and refuse the lines it rejects, on every generation."""

from __future__ import annotations

import pytest
from mc_compare import lines_disagreeing

from gpuisa.codec.processor_codec import encoder_for

CPUS = ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1200", "gfx1250"]

# v_writelane_b32: an SGPR, M0 or an inline constant as value and lane select; GFX9 reads one SGPR (the same one
# twice is one read; M0 as lane select does not count); no VGPR, no literal
_WRITELANE = [
    "v_writelane_b32 v1, s6, s6", "v_writelane_b32 v1, s7, m0", "v_writelane_b32 v1, s6, s7",
    "v_writelane_b32 v1, m0, s6", "v_writelane_b32 v1, 5, s101", "v_writelane_b32 v1, -4.0, m0",
    "v_writelane_b32 v1, s6, 63", "v_writelane_b32 v1, vcc_hi, m0", "v_writelane_b32 v1, ttmp15, m0",
    "v_writelane_b32 v1, exec_lo, exec_lo", "v_writelane_b32 v1, v6, s1", "v_writelane_b32 v1, s6, v1",
    "v_writelane_b32 v1, 0x1234, s7", "v_writelane_b32 v1, s6, 0x1234", "v_writelane_b32 v255, s5, 3",
]
# v_readlane_b32: a VGPR source, an SGPR/M0/inline lane select; v_permlane16/x16: a VGPR source, scalar selects
_READLANE = [
    "v_readlane_b32 s4, v2, s6", "v_readlane_b32 s4, v2, m0", "v_readlane_b32 s4, v2, 7", "v_readlane_b32 s4, s2, s6",
    "v_readlane_b32 s4, 1, s6", "v_readlane_b32 s4, 0x1234, s6", "v_readlane_b32 s4, v2, v3",
    "v_readlane_b32 s4, v2, 0x1234", "v_readlane_b32 vcc_lo, v255, s6", "v_readlane_b32 s4, exec_hi, s6",
    "v_permlane16_b32 v1, v2, s6, s7", "v_permlane16_b32 v1, s2, s6, s7", "v_permlane16_b32 v1, 1, s6, s7",
    "v_permlane16_b32 v1, v2, v3, s7", "v_permlane16_b32 v1, v2, s6, v3", "v_permlane16_b32 v1, v2, m0, 5",
    "v_permlanex16_b32 v1, v2, v3, s7", "v_permlanex16_b32 v1, v2, 0x1234, s7", "v_permlanex16_b32 v1, v2, s6, v4",
]

# scalar destinations: no constant, no M0 for v_readlane/v_readfirstlane; null (none on GFX9); GFX9's one
# constant-bus read per VOP3 instruction (an SGPR carry-in or mask is one)
_SCALAR = [
    "v_readlane_b32 m0, v2, s6", "v_readlane_b32 0, v2, s6", "v_readlane_b32 s105, v2, s6",
    "v_readlane_b32 ttmp3, v2, 3", "v_readfirstlane_b32 m0, v2", "v_readfirstlane_b32 -1, v2",
    "v_readfirstlane_b32 exec_hi, v2", "v_cmp_eq_u32_e64 0, v1, v2", "v_cmp_lt_f32_e64 s[4:5], s1, v2",
    "v_cmp_class_f32_e64 1.0, v1, v2", "v_mov_b32 v1, null", "v_mov_b32_e64 v1, null", "v_readlane_b32 s4, v2, null",
    "s_getreg_b32 null, hwreg(1)", "v_cndmask_b32 v1, v2, v3, null",
    "v_cndmask_b32_e64 v1, s6, v3, s[4:5]", "v_cndmask_b32_e64 v1, s6, v3, s[6:7]",
    "v_cndmask_b32_e64 v1, 1, v3, s[4:5]", "v_cndmask_b32_e64 v1, v2, m0, vcc",
    "v_addc_co_u32_e64 v1, s[4:5], s6, v3, s[6:7]", "v_add_co_ci_u32_e64 v1, s4, s6, v3, s7",
    "v_fma_f32 v0, s1, s1, s2", "v_fma_f32 v0, s1, s1, v2", "v_add_f32_e64 v0, s1, s1",
    "v_div_fmas_f32 v0, s1, v2, v3", "v_lshlrev_b64 v[0:1], s1, s[2:3]", "v_lshrrev_b64 v[4:5], s4, s[2:3]",
    "v_ashrrev_i64 v[4:5], s4, s[2:3]",
    "v_mad_u64_u32 v[0:1], s[2:3], s1, v2, v[4:5]", "v_div_scale_f32 v1, s[4:5], s6, v3, s6",
]
# hardware-register names of other generations the assembler takes (GFX12: HW_REG_MODE is HW_REG_WAVE_MODE)
_HWREG = [
    "s_getreg_b32 s4, hwreg(HW_REG_MODE)", "s_setreg_b32 hwreg(HW_REG_STATUS, 0, 8), s6",
    "s_getreg_b32 s4, hwreg(HW_REG_HW_ID)", "s_getreg_b32 s4, hwreg(HW_REG_HW_ID1)",
    "s_getreg_b32 s4, hwreg(HW_REG_GPR_ALLOC)", "s_getreg_b32 s4, hwreg(HW_REG_LDS_ALLOC, 2, 4)",
    "s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x1234", "s_getreg_b32 s4, hwreg(HW_REG_WAVE_MODE)",
    "s_getreg_b32 s4, hwreg(HW_REG_NO_SUCH)",
]

# SDWA: GFX9 reads one scalar value (the VCC of v_cndmask_b32/v_addc_co_u32 counts); GFX10 two
_SEL = " dst_sel:DWORD src0_sel:DWORD src1_sel:DWORD"
_SDWA = [line + _SEL for line in (
    "v_add_f32_sdwa v0, s1, s2", "v_add_f32_sdwa v0, s1, s1", "v_add_f32_sdwa v0, s1, v2",
    "v_add_f32_sdwa v0, -s1, |s2|", "v_add_u32_sdwa v0, sext(s1), s2", "v_add_f32_sdwa v0, m0, exec_lo",
    "v_cndmask_b32_sdwa v0, s1, v2, vcc", "v_cndmask_b32_sdwa v0, 1, v2, vcc", "v_addc_co_u32_sdwa v1, vcc, s1, v2, vcc",
    "v_addc_co_u32_sdwa v1, vcc, v1, v2, vcc")] + [
    "v_cmp_eq_u32_sdwa s[4:5], s1, s2 src0_sel:DWORD src1_sel:DWORD",
    "v_cmp_eq_u32_sdwa s[4:5], s1, s1 src0_sel:DWORD src1_sel:DWORD", "v_mov_b32_sdwa v1, s2 dst_sel:DWORD src0_sel:DWORD",
    "v_cmp_eq_u32_sdwa s[4:5], src_scc, s1 src0_sel:DWORD src1_sel:DWORD", "v_add_f32_sdwa v0, src_scc, s2" + _SEL,
    "v_cmp_eq_u32_sdwa s4, s6, v1 src0_sel:DWORD src1_sel:DWORD", "v_cmp_eq_u32_sdwa s[4:5], 1, v1 src0_sel:DWORD src1_sel:DWORD"]


def _disagreements(cpu: str, lines: list[str], wave64: bool = False) -> list[str]:
    return lines_disagreeing(cpu, encoder_for(cpu, wave64=wave64), lines, wave64)


@pytest.mark.parametrize("cpu", CPUS)
def test_writelane_scalar_sources(llvm_mc, cpu):
    bad = _disagreements(cpu, _WRITELANE)
    assert not bad, bad[:5]


@pytest.mark.parametrize("cpu", CPUS)
def test_readlane_and_permlane_sources(llvm_mc, cpu):
    bad = _disagreements(cpu, _READLANE)
    assert not bad, bad[:5]


@pytest.mark.parametrize("cpu", CPUS)
def test_scalar_destinations_null_and_constant_bus(llvm_mc, cpu):
    bad = _disagreements(cpu, _SCALAR)
    assert not bad, bad[:5]


@pytest.mark.parametrize("cpu", CPUS)
def test_hardware_register_names_of_other_generations(llvm_mc, cpu):
    bad = _disagreements(cpu, _HWREG)
    assert not bad, bad[:5]


@pytest.mark.parametrize("cpu", ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030"])
def test_sdwa_scalar_sources(llvm_mc, cpu):
    bad = _disagreements(cpu, _SDWA) + _disagreements(cpu, _SDWA, wave64=True)  # (GFX10 wave64: an SGPR pair)
    assert not bad, bad[:5]
