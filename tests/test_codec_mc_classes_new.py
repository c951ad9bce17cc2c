"""Disagreement classes tools/mc_agreement.py found on GFX11/GFX12/GFX12.5 test files of LLVM (engineer mcnew),
each checked against llvm-mc-22 at test time on lines and words of our own making: the encoder gives
llvm-mc-22's bytes for the lines it assembles and refuses the lines it rejects; the decoder prints its text.
"""

from __future__ import annotations

import random

import pytest
from mc_compare import encode_disagreements

from gpuisa.codec.encoder import get_encoder
from gpuisa.regen import differential

_TENSOR = ["tensor_load_to_lds s[12:15], s[40:47]", "tensor_store_from_lds s[96:99], s[0:7]",
           "tensor_load_to_lds s[4:7], s[8:15], s[24:27], s[28:31]",
           "tensor_store_from_lds ttmp[4:7], ttmp[8:15], s[100:103], ttmp[0:3] nv",
           "tensor_load_to_lds s[4:7], s[8:15] th:TH_LOAD_HT scope:SCOPE_SE",
           "tensor_load_to_lds s[4:7], s[8:15] th:TH_LOAD_BYPASS scope:SCOPE_SYS",
           "tensor_store_from_lds s[4:7], s[8:15] th:TH_STORE_NT_WB scope:SCOPE_DEV",
           "tensor_store_from_lds s[4:7], s[8:15] th:TH_STORE_RT nv scope:SCOPE_CU",
           # refused: alignment, range, sizes, three operands, null, other modifiers, th names of the other kind
           "tensor_load_to_lds s[6:9], s[8:15]", "tensor_load_to_lds s[4:7], s[10:17]",
           "tensor_load_to_lds s[104:107], s[8:15]", "tensor_load_to_lds s[4:7], s[8:11]",
           "tensor_load_to_lds s[4:7], s[8:15], s[16:19]", "tensor_load_to_lds s[4:7], s[8:15], null, null",
           "tensor_load_to_lds v[4:7], s[8:15]", "tensor_load_to_lds s[4:7], s[8:15] offset:16",
           "tensor_load_to_lds s[4:7], s[8:15] r128", "tensor_load_to_lds s[4:7], s[8:15] th:TH_STORE_WB",
           "tensor_store_from_lds s[4:7], s[8:15] th:TH_LOAD_LU", "tensor_load_to_lds s[4:7], s[8:15] th:TH_LOAD_BYPASS"]


def test_tensor_movers_encode(llvm_mc):
    """gfx1250's tensor_load_to_lds / tensor_store_from_lds: two or four 4-aligned SGPR tuples, th/scope/nv."""
    bad = encode_disagreements("cdna5", _TENSOR)
    assert not bad, bad[:5]


def test_tensor_movers_decode(llvm_mc):
    """Their words with the free bits, cache policy, register bytes (SGPRs, ttmps, null, constants) varied."""
    rng = random.Random(5)
    words = []
    for _ in range(300):
        d0 = 0xD0710001 | rng.choice((0, 0x4000)) | rng.choice((0, 0x80, 0x10, 0x3F08))
        d1 = 0x7C000000 | rng.getrandbits(5) << 18 | rng.getrandbits(9) * rng.choice((0, 0, 1))
        regs = [rng.choice((rng.randrange(0, 128), 0x7C, rng.randrange(128, 256))) for _ in range(4)]
        if rng.random() < 0.4:
            regs[2] = regs[3] = 0x7C
        words.append(d0.to_bytes(4, "little") + d1.to_bytes(4, "little") + bytes(regs))
    rows = differential.compare("cdna5", words)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


def test_vgpr_only_true16_source_notes(llvm_mc):
    """GFX11's v_swap_b16 reads a VGPR half only: other values print with LLVM's notes (constants by their 32-bit
    names, the whole literal dword)."""
    words = [bytes([v, 0xCC, 0x0A, 0x7F]) + bytes.fromhex("12345678")
             for v in (0x02, 0x6A, 0x7C, 0x7D, 0x7E, 0x6C, 0x80, 0xC1, 0xD0, 0xF2, 0xF8, 0xEB, 0xFD, 0xFF)]
    words += [bytes([v, 0xCA, 0x0A, 0x7E]) for v in (0x02, 0xF2)]  # (v_swap_b32 alongside)
    rows = differential.compare("rdna3", words)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


_VERSION = ["s_version UC_VERSION_GFX11 | UC_VERSION_W32_BIT", "s_version UC_VERSION_W64_BIT|UC_VERSION_GFX10",
            "s_version (UC_VERSION_GFX12 | UC_VERSION_MDP_BIT) | UC_VERSION_W32_BIT", "s_version UC_VERSION_GFX7 + 2",
            "s_version 4 | 0x4000", "s_version UC_VERSION_GFX12", "s_version uc_version_gfx11",
            "s_version UC_VERSION_GFX12 |", "s_version UC_VERSION_GFX99 | 1"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_s_version_expressions(llvm_mc, arch):
    """s_version reads an expression over the version codes' and flags' names (case-sensitive)."""
    bad = encode_disagreements(arch, _VERSION)
    assert not bad, bad[:5]


_SCC = ["buffer_load_b32 v3, off, s[8:11], src_scc offset:8", "buffer_atomic_add_u32 v3, off, s[8:11], scc",
        "tbuffer_store_format_x v3, off, s[8:11], scc format:[BUF_FMT_32_FLOAT]", "s_load_b64 s[4:5], s[2:3], scc offset:0x20",
        "scratch_store_b32 off, v2, src_scc", "global_load_b32 v1, v2, src_scc",
        "buffer_load_b32 v3, off, s[8:11], src_flat_scratch_base_hi", "s_load_b32 s1, s[2:3], src_flat_scratch_base_lo",
        "buffer_load_b32 v3, off, s[8:11], src_vccz", "buffer_load_b32 v3, off, s[8:11], src_shared_base"]


@pytest.mark.parametrize("arch", ["rdna4", "cdna5"])
def test_src_scc_in_seven_bit_scalar_fields(llvm_mc, arch):
    """GFX12's 7-bit SOFFSET / scratch SADDR take src_scc as its low seven bits (gfx1250 also the flat-scratch
    bases); global SADDR refuses it."""
    bad = encode_disagreements(arch, _SCC)
    assert not bad, bad[:5]


_SCALE_OFFSET = ["s_load_b32 s4, s[2:3], 0x10 scale_offset", "s_load_b64 s[4:5], s[2:3], s7 offset:16 scale_offset",
                 "s_buffer_load_b32 s4, s[8:11], m0 scale_offset", "s_load_b32 s4, s[2:3], 0x10",
                 "s_load_u16 s4, s[6:7], 0x10 scale_offset", "s_prefetch_data s[8:9], 0x40, s10, 3 scale_offset",
                 "s_atc_probe 5, s[4:5], s0 scale_offset"]


@pytest.mark.parametrize("arch", ["rdna4", "cdna5"])
def test_scale_offset_assembles_on_gfx1250_only(llvm_mc, arch):
    """scale_offset: decoded on gfx1200 and gfx1250, taken by the assembler on gfx1250 only."""
    bad = encode_disagreements(arch, _SCALE_OFFSET)
    assert not bad, bad[:5]


_VOP3P_DPP = ["v_fma_mix_f32 v1, v2, v3, v4 quad_perm:[1,0,3,2]", "v_fma_mixlo_f16 v1, v2, v3, s4 row_shl:3",
              "v_fma_mixhi_f16 v1, -v2, |v3|, v4 op_sel:[1,0,0] row_ror:2 bank_mask:0x3",
              "v_fma_mix_f32 v1, v2, s3, v4 row_mirror", "v_fma_mix_f32 v1, v2, v3, 1.0 row_mirror",
              "v_fma_mix_f32 v1, v2, v3, v4 dpp8:[1,2,3,4,5,6,7,0]"]
_VOP3P_DPP_GFX12 = ["v_dot4_f32_fp8_bf8 v1, v2, v3, v4 row_share:3", "v_dot4_f32_bf8_bf8 v1, v2, v3, v4 dpp8:[7,6,5,4,3,2,1,0]",
                    "v_dot4_f32_fp8_fp8 v1, v2, s3, v4 row_share:3", "v_dot4_f32_bf8_fp8 v1, v2, v3, s4 row_shr:1"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_vop3p_dpp_vgpr_only_sources(llvm_mc, arch):
    """VOP3P DPP forms whose src1 (v_fma_mix*) or src1/src2 (v_dot4_f32_fp8/bf8) read VGPRs only: assembled
    from a bare name with DPP modifiers, SGPRs refused there; their words decode with LLVM's notes."""
    lines = _VOP3P_DPP + (_VOP3P_DPP_GFX12 if arch == "rdna4" else [])
    bad = encode_disagreements(arch, lines)
    assert not bad, bad[:5]
    enc = get_encoder(arch)
    base = [enc.encode_line(line).data for line in lines[:1] + (_VOP3P_DPP_GFX12[:1] if arch == "rdna4" else [])]
    words = []
    for b in base:
        for s1, s2 in ((0x02, 0x6A), (0xF2, 0x80), (0x7C, 0xFD), (0xC1, 0x103), (0x7E, 0x7F)):
            w = int.from_bytes(b[:8], "little") & ~(0x3FFFF << 41) | s1 << 41 | s2 << 50
            words.append(w.to_bytes(8, "little") + b[8:])
    rows = differential.compare(arch, words)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


_ABS = ["v_mul_f32_e64 v3, abs(v4), -v5", "v_mul_f32_e64 v3, -abs(s4), v5", "v_max_f32_e64 v3, abs( v4 ), abs(0.5)",
        "v_mul_f32_e64 v3, abs(-v4), v5", "v_fma_mix_f32 v3, abs(v4), v5, -abs(v6)"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna3"])
def test_abs_function_spelling(llvm_mc, arch):
    """abs(x) is LLVM's other spelling of |x| (abs(-x) it refuses), DPP forms included."""
    lines = _ABS + (["v_fma_mixlo_f16 v3, abs(v4), -v5, abs(v6) dpp8:[1,1,1,1,2,2,2,2]"] if arch != "cdna3" else [])
    bad = encode_disagreements(arch, lines)
    assert not bad, bad[:5]


_DEFAULT_FIELDS = ["s_waitcnt_depctr depctr_va_vdst(15)", "s_waitcnt_depctr depctr_sa_sdst(1)",
                   "s_waitcnt_depctr depctr_vm_vsrc(7) depctr_va_vcc(1)", "s_waitcnt_depctr depctr_va_vdst(16)",
                   "s_waitcnt_depctr depctr_va_vdst(15) & depctr_va_sdst(3)", "s_waitcnt vmcnt(63)",
                   "s_waitcnt expcnt(7) lgkmcnt(63)", "s_waitcnt lgkmcnt(64)", "s_waitcnt", "s_delay_alu",
                   "s_waitcnt_depctr", "s_sendmsg"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4"])
def test_named_fields_at_their_default(llvm_mc, arch):
    """A named SIMM16 field written at its default (LLVM leaves such fields out, and prints every field when all
    are at their default): the default value; out of range still refused."""
    bad = encode_disagreements(arch, _DEFAULT_FIELDS)
    assert not bad, bad[:5]


def _vopd_lines() -> list[str]:
    lines = ["v_dual_add_f32 v10, s1, v2 :: v_dual_mul_f32 v11, s2, v3", "v_dual_add_f32 v10, s1, v2 :: v_dual_cndmask_b32 v11, s2, v3",
             "v_dual_add_f32 v10, vcc_lo, v2 :: v_dual_cndmask_b32 v11, v1, v3",
             "v_dual_add_f32 v10, vcc_hi, v2 :: v_dual_cndmask_b32 v11, s1, v3",
             "v_dual_add_f32 v10, 0x1234, v2 :: v_dual_cndmask_b32 v11, s2, v3",
             "v_dual_add_f32 v10, null, v2 :: v_dual_cndmask_b32 v11, s1, v3",
             "v_dual_fmamk_f32 v10, s1, 0x1234, v2 :: v_dual_mov_b32 v11, s2",
             "v_dual_fmamk_f32 v10, v1, 0x1234, v6 :: v_dual_fmamk_f32 v11, v2, 4660, v7",
             "v_dual_fmamk_f32 v10, v1, 0x1234, v6 :: v_dual_fmamk_f32 v11, v2, 0x1235, v7",
             "v_dual_add_f32 v10, v1, v5 :: v_dual_mul_f32 v11, v1, v5"]
    for a, b in ((0, 0), (1, 5), (2, 7), (3, 13), (6, 6)):
        lines += [f"v_dual_add_f32 v10, v{a}, v{16 + a} :: v_dual_mul_f32 v11, v{b + 8}, v{24 + b}",
                  f"v_dual_fmamk_f32 v10, v{a}, 0x1234, v{16 + a} :: v_dual_fmac_f32 v{41 + 2 * b}, v{b + 1}, v{24 + b}",
                  f"v_dual_dot2acc_f32_f16 v{40 + 2 * a}, v{a}, v{16 + a} :: v_dual_fmamk_f32 v11, v{b + 2}, 0x1234, v{24 + b}",
                  f"v_dual_mov_b32 v10, v{a} :: v_dual_fmaak_f32 v11, v{b + 1}, v{24 + b}, 0x1234"]
    return lines


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_vopd_pairing_rules(llvm_mc, arch):
    """Dual issue: at most two scalar values (cndmask's VCC one of them), src0/src1 VGPR banks mod 4, src2 mod 2
    (gfx1250: one register in both halves passes), a constant K written in two spellings."""
    bad = encode_disagreements(arch, _vopd_lines())
    assert not bad, bad[:5]


_CACHE_POLICY = ["global_load_b32 v1, v2, s[0:1] th:TH_LOAD_LU scope:SCOPE_SYS",
                 "global_load_b32 v1, v2, s[0:1] th:TH_LOAD_BYPASS scope:SCOPE_DEV",
                 "global_load_b32 v1, v2, s[0:1] th:TH_LOAD_BYPASS scope:SCOPE_SYS",
                 "global_load_b32 v1, v2, s[0:1] th:TH_LOAD_BYPASS scope:3", "global_load_b32 v1, v2, s[0:1] scope:2",
                 "global_load_b32 v1, v2, s[0:1] th:2 scope:SCOPE_DEV",
                 "global_load_b32 v1, v2, s[0:1] th:TH_LOAD_HT th:TH_LOAD_HT",
                 "global_store_b32 v2, v1, s[0:1] th:TH_STORE_WB scope:SCOPE_SYS",
                 "global_store_b32 v2, v1, s[0:1] th:TH_STORE_WB scope:SCOPE_SE",
                 "global_atomic_add_u32 v1, v2, s[0:1] th:TH_ATOMIC_CASCADE_NT scope:SCOPE_SE",
                 "buffer_load_b32 v1, off, s[4:7], s0 scope:SCOPE_SE scope:SCOPE_SE"]
_SMEM_OFFSETS = ["s_load_b32 s1, s[2:3], 0x7fffff", "s_load_b32 s1, s[2:3], 0x800000", "s_load_b32 s1, s[2:3], -0x800000",
                 "s_load_b32 s1, s[2:3], s4 offset:0xfffffe", "s_buffer_load_b32 s1, s[4:7], 0x7fffff",
                 "s_buffer_load_b32 s1, s[4:7], 0x800000", "s_buffer_load_b32 s1, s[4:7], -2",
                 "s_load_b64 s[2:3], s[4:5], 0x100000", "s_load_b64 s[2:3], s[4:5], 0xfffff", "s_load_b64 s[2:3], s[4:5], -0x100000",
                 "s_buffer_load_b64 s[2:3], s[4:7], 0xfffff", "s_buffer_load_b64 s[2:3], s[4:7], 0x100000"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_cache_policy_and_scalar_offsets(llvm_mc, arch):
    """GFX12 th:/scope: (th by name, scope by name or number, once each, BYPASS at system scope only) and
    GFX11/GFX12 scalar-memory offsets (signed; s_buffer_* unsigned below half the field), as llvm-mc-22 reads them."""
    bad = encode_disagreements(arch, (_CACHE_POLICY if arch != "rdna3" else []) + _SMEM_OFFSETS)
    assert not bad, bad[:5]


_SCALAR_SOURCES = ["s_movrels_b32 s0, 1", "s_movrels_b32 s0, 0x41", "s_movrels_b32 s0, m0", "s_movrels_b64 s[0:1], 1.0",
                   "s_movrels_b32 s0, src_shared_base", "s_movreld_b32 s0, 0x41", "s_fmamk_f32 s0, 0x41, 0x41, s0",
                   "s_fmamk_f32 s0, 0x41, 0x42, s0", "s_fmaak_f32 s0, 0x41, s1, 0x41", "v_fmamk_f32 v0, 0x41, 0x41, v1",
                   "v_fmamk_f32 v0, 0x41, 0x42, v1", "v_fmaak_f32 v0, 1.0, v1, 0x3f800000"]
_BARRIERS = ["s_barrier_signal -16", "s_barrier_signal 64", "s_barrier_signal 65", "s_barrier_signal m0",
             "s_barrier_join 0x41", "s_get_barrier_state s0, 3", "s_get_barrier_state s0, 0x41", "s_barrier_init -1"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_scalar_sources_and_shared_literals(llvm_mc, arch):
    """s_movrels_* read registers only, the named-barrier instructions no literal (GFX11+); a literal source beside
    a constant K must be the same value (then one literal dword)."""
    bad = encode_disagreements(arch, _SCALAR_SOURCES + (_BARRIERS if arch != "rdna3" else []))
    assert not bad, bad[:5]


_TWICE = ["buffer_load_b32 v1, off, s[4:7], s0 offset:4 offset:8", "v_add_f32_e64 v1, v2, v3 clamp clamp",
          "v_add_f32_e64 v1, v2, v3 mul:2 mul:2", "v_pk_add_f16 v1, v2, v3 op_sel:[0,0] op_sel:[0,0]",
          "s_waitcnt vmcnt(0) & expcnt(0) & lgkmcnt(0)", "v_add_f64_e64 v[2:3], 0x123456789, v[4:5]",
          "v_add_f64 v[2:3], 0x123456789, v[4:5]", "v_fma_f64 v[0:1], 0x3ff8000000000001, v[2:3], v[4:5]",
          "v_fma_f64 v[0:1], 0x3ff8000000000000, v[2:3], v[4:5]"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_modifier_twice_and_wide_literals(llvm_mc, arch):
    """A modifier given twice is refused (every target); gfx1250's 64-bit literal follows 32-bit encodings only."""
    bad = encode_disagreements(arch, _TWICE)
    assert not bad, bad[:5]
