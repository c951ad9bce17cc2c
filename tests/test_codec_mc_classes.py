"""Disagreement classes that tools/mc_agreement.py found on a larger sample of LLVM's MC test files, each
checked against llvm-mc-22 at test time on lines and words of our own making: the encoder must give
llvm-mc-22's bytes for the lines it assembles and refuse the lines it rejects; the decoder must print
llvm-mc-22's text.
"""

from __future__ import annotations

import pytest
from mc_compare import encode_disagreements

from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.encoder import get_encoder
from gpuisa.regen import differential


def _disagreements(arch: str, lines: list[str]) -> list[str]:
    return encode_disagreements(arch, lines)


_BARE_DPP = ["v_mov_b32 v7, v3 row_shr:3", "v_mov_b32 v7, v3 quad_perm:[1,0,3,2] row_mask:0x5",
             "v_mov_b32 v7, v3 dpp8:[1,1,2,2,3,3,0,0]", "v_mov_b32 v7, v3 dpp8:[0,1,2,3,4,5,6,7] fi:1",
             "v_sub_f32 v9, v4, v6 row_ror:7", "v_sub_f32 v9, -v4, |v6| quad_perm:[2,2,2,2]",
             "v_sub_f32 v9, v4, s6 row_ror:7", "v_sub_f32 v9, v4, 2.0 row_ror:7", "v_sub_f32 v9, v4, v6 clamp row_ror:7",
             "v_sub_f32 v9, v4, v6 dpp8:[7,7,7,7,0,0,0,0]", "v_sub_f32 v9, v4, s6 dpp8:[7,7,7,7,0,0,0,0]",
             "v_mad_u32_u24 v9, v4, v6, v8 row_shl:2", "v_mad_u32_u24 v9, v4, s6, v8 row_shl:2",
             "v_mad_u32_u24 v9, v4, v6, s8 dpp8:[3,2,1,0,3,2,1,0]",
             "v_cmp_lt_f32 vcc_lo, v4, v6 row_shl:2", "v_cmp_lt_f32 s10, v4, v6 row_shl:2",
             "v_sub_f32_e64 v9, v4, v6 row_ror:7", "v_sub_f32_e32 v9, v4, v6 row_ror:7",
             "v_mov_b32_e64 v7, v3 dpp8:[1,1,2,2,3,3,0,0]"]


@pytest.mark.parametrize("arch", ["rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna5"])
def test_dpp_modifiers_on_a_bare_name(llvm_mc, arch):
    """A bare name with DPP modifiers is the 32-bit DPP form where one fits, else (GFX11+) the VOP3 DPP form;
    an ``_e32``/``_e64`` name with DPP modifiers is refused."""
    bad = _disagreements(arch, _BARE_DPP)
    assert not bad, bad[:5]


_SRC1 = ["v_mad_u32_u24_e64_dpp v9, v4, {s}, v8 quad_perm:[0,0,1,1]", "v_mad_u32_u24_e64_dpp v9, v4, v6, {s} row_shr:2",
         "v_mad_u32_u24_e64_dpp v9, v4, {s}, v8 dpp8:[0,0,1,1,2,2,3,3]", "v_sub_f32_e64_dpp v9, v4, {s} row_ror:3",
         "v_cmp_lt_f32_e64_dpp s10, v4, {s} row_shl:2", "v_sub_nc_u32_e64_dpp v9, v4, {s} quad_perm:[3,3,3,3]"]


@pytest.mark.parametrize("arch", ["rdna3", "rdna3.5", "rdna4", "cdna5"])
def test_vop3_dpp_src1_kinds(llvm_mc, arch):
    """gfx1100 takes only a VGPR as a VOP3 DPP form's src1 (no SGPR, no constant); gfx1150 and later take
    them (``Features.dpp_src1_sgpr``)."""
    lines = [t.format(s=s) for t in _SRC1 for s in ("v6", "s6", "-v6", "4", "vcc_lo", "v6.l")]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]


def test_bitop3_prints_before_op_sel(llvm_mc):
    """v_bitop3_b16/b32: ``bitop3:N`` comes before ``op_sel:[...]`` (gfx1250)."""
    words = [bytes.fromhex(h) for h in ("07 4c 33 d6 02 07 12 dc", "07 34 33 d6 02 07 12 04", "07 04 34 d6 02 07 12 34",
                                        "07 7c 33 d6 82 fe 10 7c")]
    rows = differential.compare("cdna5", words)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad


_STORES = {"cdna1": ["buffer_store_dword v{d}, off, s[8:11], s3 tfe", "buffer_store_format_xy v{d2}, v0, s[8:11], 0 idxen tfe",
                     "buffer_store_short v{d}, off, s[8:11], s3 offset:4 tfe", "buffer_load_dword v{d2}, off, s[8:11], s3 tfe"],
           "rdna1": ["buffer_store_dword v{d}, off, s[8:11], s3 tfe", "buffer_store_format_x v{d}, off, s[8:11], s3 glc tfe",
                     "buffer_store_format_d16_x v{d}, off, s[8:11], s3 tfe", "buffer_load_dword v{d2}, off, s[8:11], s3 tfe"],
           "rdna3": ["buffer_store_b32 v{d}, off, s[8:11], s3 tfe", "buffer_store_d16_hi_format_x v{d}, off, s[8:11], s3 tfe",
                     "buffer_store_format_xy v{d2}, off, s[8:11], s3 tfe", "buffer_load_b32 v{d2}, off, s[8:11], s3 tfe",
                     "tbuffer_store_format_x v{d}, off, s[8:11], s3 format:[BUF_FMT_32_FLOAT] tfe"],
           "rdna4": ["buffer_store_b32 v{d}, off, s[8:11], s3 tfe", "buffer_store_d16_format_x v{d}, off, s[8:11], s3 tfe",
                     "buffer_store_b64 v{d2}, off, s[8:11], s3 offset:8 tfe", "buffer_load_b32 v{d2}, off, s[8:11], s3 tfe"]}


@pytest.mark.parametrize("arch", sorted(_STORES))
def test_buffer_store_with_tfe_is_refused(llvm_mc, arch):
    """A buffer store with tfe does not assemble, with the data register counted plain or one more; a load
    with tfe does (its data one register more)."""
    lines = [t.format(d=d, d2=d2) for t in _STORES[arch] for d, d2 in (("7", "[7:8]"), ("[7:8]", "[7:9]"))]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["cdna1", "cdna3", "rdna1", "rdna3", "rdna4", "cdna5"])
def test_ds_swizzle_offsets_decode(llvm_mc, arch):
    """ds_swizzle_b32's 16 offset bits print as one ``offset:swizzle(...)`` (bitmask, swap, reverse,
    broadcast, quad_perm, rotate, FFT) or a number, whatever the two 8-bit offset fields hold."""
    import random

    word = int.from_bytes(get_encoder(arch).encode_line("ds_swizzle_b32 v9, v3").data, "little")
    rng = random.Random(7)
    offsets = [rng.getrandbits(16) for _ in range(300)] + [0x8000 | rng.getrandbits(8) for _ in range(40)] + \
        [0xC000 | rng.getrandbits(14) for _ in range(40)] + [31 | 1 << rng.randrange(10, 15) for _ in range(20)]
    probes = [(word & ~0xFFFF | off).to_bytes(8, "little") for off in offsets]
    rows = differential.compare(arch, probes)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["cdna3", "rdna3", "rdna4"])
def test_ds_swizzle_modes_encode(llvm_mc, arch):
    modes = ["swizzle(QUAD_PERM,1,3,0,2)", 'swizzle(BITMASK_PERM,"01pi0")', "swizzle(SWAP,8)", "swizzle(REVERSE,16)",
             "swizzle(BROADCAST,4,3)", "swizzle(ROTATE,1,7)", "swizzle(FFT,9)", "0x8123", "0xc5e1", "1234"]
    bad = _disagreements(arch, [f"ds_swizzle_b32 v9, v3 offset:{m}" for m in modes])
    assert not bad, bad[:5]


_FLOATS = ["v_fract_f64 v[2:3], 0x4000000000000000", "v_fract_f64 v[2:3], 0xbfe0000000000000", "v_fract_f64 v[2:3], 0x3ff4000000000000",
           "v_fract_f64 v[2:3], 0x3fc45f306dc9c882", "v_sqrt_f32 v2, 0x4000000000000000", "s_mov_b64 s[4:5], 0xc010000000000000",
           "s_mov_b64 s[4:5], 0x3fc45f306dc9c882", "v_fract_f64 v[2:3], 0.0", "v_fract_f64 v[2:3], -0.0",
           "v_sqrt_f32 v2, 0.0", "v_sqrt_f32 v2, -0.0", "v_or_b32 v2, 0.0, v3", "v_or_b32 v2, -2.0, v3",
           "v_or_b32 v2, 0.1591549430918953357, v3", "v_or_b32 v2, 2.25, v3", "s_mov_b64 s[4:5], 0.1591549430918953357",
           "s_mov_b64 s[4:5], -4.0", "s_mov_b64 s[4:5], 2.25", "v_mul_f16 v2, 0.1591549430918953357, v3",
           "v_mul_f16 v2, 0.1591549, v3", "v_sqrt_f32 v2, 3.7e-60", "v_sqrt_f32 v2, 2e-46", "v_sqrt_f32 v2, 5e40",
           "v_mul_f16 v2, 3e-9, v3", "v_mul_f16 v2, 1e5, v3", "v_fract_f64 v[2:3], 3e-321", "v_fract_f64 v[2:3], -2.718281828",
           "v_fract_f64_e32 v[2:3], lit(2.0)", "v_fract_f64_e32 v[2:3], lit(2.75)", "v_sqrt_f32 v2, lit(2.0)",
           "v_or_b32 v2, lit(-1.0), v3", "v_mul_f16 v2, lit(2.0), v3", "s_mov_b64 s[4:5], lit(2.0)",
           "v_fract_f64_e32 v[2:3], lit(0x4000000000000000)", "v_sqrt_f32 v2, 2.75", "v_fract_f64 v[2:3], 2.0e0",
           "v_sqrt_f32 v2, .25", "v_sqrt_f32 v2, 25e-2", "v_sqrt_f32 v2, 4.0E+0", "v_sqrt_f32_e64 v2, 0.5e0",
           "s_add_i32 s1, vccz, s2", "s_add_i32 s1, s2, execz", "s_or_b64 s[0:1], src_vccz, s[2:3]",
           "v_add_f32 v1, src_execz, v2"]


@pytest.mark.parametrize("arch", ["cdna3", "rdna2", "rdna3", "rdna4", "cdna5"])
def test_float_and_wide_literals(llvm_mc, arch):
    """Decimal floats take the operand format's bits (inline where those are an inline constant, 0.0 too;
    a 64-bit operand's literal is the high dword; refused where they overflow or underflow); lit(X) of a
    float is its bits; a 64-bit integer with an inline double's bits is that constant; vccz/execz exist
    before GFX11 only."""
    bad = _disagreements(arch, _FLOATS)
    assert not bad, bad[:6]


@pytest.mark.parametrize("arch", ["rdna3", "rdna3.5"])
def test_true16_bf16_source_constants_print_as_floats(llvm_mc, arch):
    """GFX11 v_dot2_bf16_bf16: an inline constant in its 16-bit src2 prints by its float name (1.0,
    0.15915494), not as the f16 bits (0x3c00)."""
    import random

    word = int.from_bytes(get_encoder(arch).encode_line("v_dot2_bf16_bf16 v7, v2, v3, v4").data, "little")
    rng = random.Random(11)
    probes = []
    for _ in range(200):
        w = word
        for shift in (32, 41, 50):
            w = w & ~(0x1FF << shift) | rng.choice([*range(128, 249), 3, 106, 260, 255]) << shift
        probes.append(w.to_bytes(8, "little") + bytes.fromhex("7b410000"))
    rows = differential.compare(arch, probes)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


_ATOMICS = ["flat_atomic_swap v0, v[2:3], v3", "flat_atomic_swap v0, v[2:3], v3 glc", "flat_atomic_swap v0, v[2:3], v3 sc0",
            "flat_atomic_add v0, v[2:3], v3 slc", "flat_atomic_add v0, v[2:3], v3 glc slc", "flat_atomic_add v[2:3], v3",
            "global_atomic_add v0, v[2:3], v3, off", "global_atomic_add v0, v[2:3], v3, off glc",
            "global_atomic_add v0, v2, v3, s[4:5] offset:16 glc", "global_atomic_add v0, v2, v3, s[4:5] offset:16 sc0",
            "flat_atomic_swap_b32 v0, v[2:3], v3", "flat_atomic_swap_b32 v0, v[2:3], v3 glc",
            "global_atomic_add_u32 v0, v2, v3, s[4:5]", "global_atomic_add_u32 v0, v2, v3, s[4:5] glc",
            "global_atomic_cmpswap_x2 v[0:1], v[2:3], v[4:7], off glc", "global_atomic_cmpswap_x2 v[0:1], v[2:3], v[4:7], off",
            "global_atomic_add_u32 v0, v2, v3, s[4:5] th:TH_ATOMIC_RETURN", "flat_atomic_swap v[2:3], v3 glc",
            "flat_atomic_swap v[2:3], v3 sc0", "flat_atomic_swap_b32 v[2:3], v3 glc", "global_atomic_add v[2:3], v3, off glc",
            "buffer_atomic_add v1, off, s[4:7], s3 glc", "flat_atomic_swap v[2:3], v3 slc"]


@pytest.mark.parametrize("arch", ["cdna1", "cdna3", "rdna2", "rdna3", "rdna4"])
def test_returning_atomic_names_its_return_bit(llvm_mc, arch):
    """An atomic written with its returned value must also write the return bit's modifier: glc (GFX9, GFX10,
    GFX11), sc0 (gfx940), a *_RETURN th (GFX12); a FLAT/GLOBAL one written without it must not (buffer atomics
    may)."""
    bad = _disagreements(arch, _ATOMICS)
    assert not bad, bad[:5]


_GFX10_FLAT = ["flat_load_ubyte v5, v[1:2]", "flat_load_dwordx3 v[5:7], v[1:2] offset:12", "flat_load_dword v5, v[1:2] glc slc dlc",
               "flat_store_dwordx2 v[1:2], v[2:3] offset:2047", "flat_atomic_add v[1:2], v2 dlc",
               "flat_atomic_cmpswap_x2 v[4:5], v[1:2], v[2:5] glc", "flat_atomic_fmax_x2 v[1:2], v[2:3]",
               "flat_load_dword v5, v[1:2] offset:4096", "flat_load_dword v5, v[1:2], off",
               "scratch_load_dword v1, v2, off", "scratch_load_dword v1, v2, off offset:-16 glc",
               "scratch_store_dword v2, v1, off offset:8", "scratch_load_dword v1, off, off", "scratch_load_dword v1, off, s2"]


@pytest.mark.parametrize("arch", ["cdna1", "cdna2", "rdna1", "rdna2"])
def test_gfx9_gfx10_flat_and_scratch_vgpr_address(llvm_mc, arch):
    """GFX10 has FLAT (flat_*) instructions (SADDR 0x7d); GFX9/GFX10 scratch with SADDR off reads a VGPR address
    (``scratch_load_dword v1, v2, off``), in both directions."""
    bad = _disagreements(arch, _GFX10_FLAT)
    assert not bad, bad[:5]
    enc = get_encoder(arch)
    words = []
    for line in _GFX10_FLAT:
        try:
            words.append(enc.encode_line(line).data)
        except EncodeError:
            continue
    rows = differential.compare(arch, words)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4"])
def test_wave64_wmma_source_notes(llvm_mc, arch):
    """Wave64 WMMA: an SGPR or constant where a VGPR tuple belongs keeps llvm-mc-22's note, with the VGPR class
    of the wave64 (half as wide) accumulator."""
    import random

    rng = random.Random(3)
    words = []
    for op in (0x40, 0x41, 0x42, 0x43, 0x44):
        for _ in range(12):
            w = 0x1C00000000CC0004 | op << 16 | 0x40 << 8
            for shift in (32, 41, 50):
                w = w & ~(0x1FF << shift) | rng.choice([0, 2, 4, 106, 128, 242, 256, 260, 272]) << shift
            words.append(w.to_bytes(8, "little"))
    rows = differential.compare(arch, words, wave64=True)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    assert not bad, bad[:5]


_FORMATS = ["format:[BUF_FMT_8_UNORM] offset:16", "format:1", "format:2", "format:0", "format:63", "format:77", "format:128",
            "format:[BUF_DATA_FORMAT_8, BUF_NUM_FORMAT_UNORM]", "format:[BUF_DATA_FORMAT_8, BUF_NUM_FORMAT_SNORM]",
            "format:[BUF_DATA_FORMAT_16_16, BUF_NUM_FORMAT_FLOAT]", "format:[BUF_DATA_FORMAT_32, BUF_NUM_FORMAT_UINT]",
            "format:[BUF_DATA_FORMAT_32]", "format:[BUF_NUM_FORMAT_FLOAT]", "format:[BUF_FMT_32_32_UINT]", ""]


@pytest.mark.parametrize("arch", ["cdna1", "cdna3", "rdna1", "rdna3", "rdna4"])
def test_typed_buffer_format_spellings(llvm_mc, arch):
    """A typed buffer access's format as a number, as data and number formats, or by the default's name."""
    lines = [f"tbuffer_load_format_x v4, off, s[8:11], s3 {f}".strip() for f in _FORMATS]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]


@pytest.mark.parametrize("arch", ["cdna1", "cdna2", "cdna3", "rdna2"])
def test_acc_register_spelling(llvm_mc, arch):
    """acc0 and acc[0:3] are LLVM's other spelling of the AGPRs a0 and a[0:3] (refused where there are none)."""
    lines = ["v_accvgpr_read_b32 v2, acc0", "v_accvgpr_write_b32 acc2, -2.0", "v_accvgpr_mov_b32 acc1, acc255",
             "v_mfma_f32_32x32x1f32 acc[0:31], acc0, acc1, acc[32:63]", "global_load_dword acc5, v[2:3], off",
             "v_mfma_f32_4x4x1f32 acc[0:3], v0, v1, acc[4:7]"]
    bad = _disagreements(arch, lines)
    assert not bad, bad[:5]
