"""VOP3 DPP disagreement classes the random-word test of test_codec_sdwa.py found (engineer dppfix), each checked
against llvm-mc-22 at test time on words and lines of our own making: the decoder prints llvm-mc-22's text
(or refuses the words it refuses); the encoder gives llvm-mc-22's bytes for the lines it assembles.
"""

from __future__ import annotations

import pytest
from mc_compare import encode_disagreements

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.decoder import get_decoder

_DPP = 2 | 0xE4 << 8 | 0xFF << 24  # src0 v2, quad_perm:[0,1,2,3], row/bank masks 0xf


def _word(arch: str, name: str, dpp: bool = True, encoding: str = "VOP3", **fields: int) -> bytes:
    """A VOP3 word of ``name`` (src0 = 0xFA and the DPP dword, or v2), src1 v3, src2 v4, other fields given."""
    dec = get_decoder(arch)
    enc = dec.tables.encodings[encoding]
    plan = dec.plans[f"{name}|{encoding}"]
    w = plan.word
    ops = {sp.field for sp in plan.operands} | {t for sp in plan.operands for t in sp.tables}
    regs = {f: v for f, v in (("SRC1", 259), ("SRC2", 260)) if f in ops}
    for f, v in {"SRC0": 0xFA if dpp else 258, **regs, **fields}.items():
        if enc.field(f) is not None:
            w = enc.field(f).insert(w, v)
    return w.to_bytes(8, "little") + (_DPP.to_bytes(4, "little") if dpp else b"")


def _disagreements(arch: str, words: list[bytes]) -> list[str]:
    got = oracle.disassemble(archs.by_name(arch).llvm_target, words)
    dec = get_decoder(arch)
    bad = []
    for w, r in zip(words, got):
        theirs = r[0].text if r and r[0].offset == 0 and r[0].size == len(w) else None
        d = dec.decode_at(w + b"\0" * 8, 0)
        ours = d.text if d.valid and len(d.data) == len(w) else None
        if ours != theirs:
            bad.append(f"{w.hex()}: ours {ours}, llvm {theirs}")
    return bad


@pytest.mark.parametrize("arch", ["rdna3", "rdna3.5"])
def test_compare_dpp_op_sel_lists_two_sources(llvm_mc, arch):
    """A GFX11 compare's e64 DPP form prints op_sel:[a,b] (its plain VOP3 form three entries); op_sel bits of
    the missing src2 / the SGPR destination give the fake16 text, or no instruction where an integer compare
    sets a NEG/ABS bit."""
    words = [_word(arch, name, OP_SEL=o, NEG=n, ABS=a) for name in ("v_cmp_eq_f16", "v_cmp_gt_i16", "v_cmpx_eq_u16",
                                                                   "v_cmp_class_f16")
             for o in range(16) for n, a in ((0, 0), (2, 0), (0, 1))]
    words += [_word(arch, "v_cmp_eq_f16", dpp=False, OP_SEL=o) for o in range(4)]
    assert not _disagreements(arch, words)[:5]
    lines = ["v_cmp_eq_f16_e64_dpp s0, -v2.h, v3.l op_sel:[1,0] quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
             "v_cmp_gt_i16_e64_dpp s10, v2.h, v3.h op_sel:[1,1] row_shl:1 row_mask:0xf bank_mask:0xf",
             "v_cmp_lt_u16_e64_dpp vcc_lo, v2.l, v3.h op_sel:[0,1] dpp8:[7,6,5,4,3,2,1,0]",
             "v_cmpx_eq_f16_e64_dpp v2.h, v3.l op_sel:[1,0] quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"]
    assert not encode_disagreements(arch, lines)


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_negated_inline_constant_prints_neg(llvm_mc, arch):
    """NEG without ABS on an inline constant of a 16-bit (true16 table) source: ``neg(-10)``, ``neg(3)``,
    ``neg(0.5)``; with ABS ``-|-1|``; in plain VOP3 and with DPP."""
    words = [_word(arch, name, dpp=dpp, SRC1=v, NEG=n, ABS=a) for name in ("v_mul_f16", "v_cmp_u_f16", "v_add_f16")
             for dpp in (False, True) for v in (128, 131, 192, 202, 208, 240, 243, 248) for n, a in ((2, 0), (2, 2))]
    assert not _disagreements(arch, words)[:5]
    t16 = ".l" if arch == "rdna3" else ""
    lines = [f"v_mul_f16_e64 v27{t16}, v96{t16}, neg(-10) div:2", f"v_cmp_u_f16_e64 s0, v96{t16}, neg(3)",
             f"v_add_f16_e64 v1{t16}, neg(2.0), v2{t16}", f"v_add_f16_e64 v1{t16}, -|-1|, v2{t16}",
             f"v_add_f16_e64 v1{t16}, v2{t16}, neg(-0.5)"]
    assert not encode_disagreements(arch, lines)


def test_fake16_cndmask_and_integer_modifiers(llvm_mc):
    """GFX11: v_cndmask_b16's mask (no neg/abs) has no op_sel bit: bit 2 gives the fake16 text; an integer
    instruction in fake16 is refused with a NEG or ABS bit set, and some (v_sub_nc_u16, v_pack_b32_f16,
    v_mov_b16...) in fake16 at all."""
    words = [_word("rdna3", name, OP_SEL=o, NEG=n, ABS=a) for name in ("v_cndmask_b16", "v_min_u16", "v_not_b16",
                                                                      "v_cvt_u32_u16", "v_ldexp_f16", "v_sub_nc_u16",
                                                                      "v_pack_b32_f16", "v_mov_b16")
             for o in (0, 1, 4, 8, 12) for n, a in ((0, 0), (1, 0), (0, 2), (4, 0))]
    assert not _disagreements("rdna3", words)[:5]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_invalid_register_note_keeps_modifiers(llvm_mc, arch):
    """A VGPR-only DPP source holding an SGPR (or src_lds_direct) prints llvm-mc-22's note inside its neg/abs:
    ``-|s0/*...*/|``."""
    lds = (254,) if arch != "cdna5" else ()  # (gfx1250: 254 is the 64-bit literal)
    words = [_word(arch, "v_fma_mix_f32", encoding="VOP3P", SRC1=s, NEG=n, NEG_HI=a) for s in (0, 42, 124, *lds)
             for n, a in ((0, 0), (2, 0), (0, 2), (2, 2), (4, 6))]
    assert not _disagreements(arch, words)[:5]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_fmac_dpp_inline_constant_prints_its_field(llvm_mc, arch):
    """v_fmac_f16/f32 with DPP16 or DPP8: an inline-constant src1 prints as the field's value in hex (0x81,
    neg(0xac), -|0xf2|); v_add_f32's does not."""
    words = [_word(arch, name, SRC0=s0, SRC1=v, NEG=n, ABS=a) for name in ("v_fmac_f16", "v_fmac_f32", "v_add_f32")
             for s0 in (0xFA, 0xE9) for v in (128, 172, 199, 240, 242, 248) for n, a in ((0, 0), (2, 0), (2, 2))]
    assert not _disagreements(arch, words)[:5]


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna5"])
def test_dpp_ctrl_of_forms_keeping_part_of_their_destination(llvm_mc, arch):
    """v_fma_mixlo/mixhi_f16 (and bf16, v_cvt_pk_fp8/bf8_f32 where they are): a dpp_ctrl of 0x80-0xFF prints as
    llvm-mc-22 reads it (quad_perm of ctrl - 0x80, the invalid-value note, or the value); v_fma_mix_f32 as is."""
    dec = get_decoder(arch)
    names = [n for n in ("v_fma_mixlo_f16", "v_fma_mixhi_bf16", "v_fma_mix_f32") if f"{n}|VOP3P" in dec.plans]
    words = []
    for name in names:
        w = _word(arch, name, encoding="VOP3P")
        words += [w[:8] + (2 | c << 8 | 0x5A << 24).to_bytes(4, "little") for c in range(0x70, 0x110, 3)]
    if "v_cvt_pk_fp8_f32|VOP3" in dec.plans:
        w = _word(arch, "v_cvt_pk_fp8_f32")
        words += [w[:8] + (2 | c << 8 | 0xFF << 24).to_bytes(4, "little") for c in (0x80, 0xC0, 0xC1, 0xD1, 0xF2, 0xFF)]
    assert not _disagreements(arch, words)[:5]


@pytest.mark.parametrize("arch", ["rdna2", "rdna3", "rdna4", "cdna5"])
def test_float_constant_of_wide_integer_sources_prints_its_name(llvm_mc, arch):
    """v_sad_u16's sources, v_mad_i32_i16/v_mad_u32_u16's 32-bit addend, v_sat_pk_u8_i16's packed source: a float
    inline constant prints by name (1.0, 0.15915494), plain and with DPP."""
    dpp = [False] if arch == "rdna2" else [False, True]
    names = [("v_sad_u16", "SRC1"), ("v_sad_u16", "SRC2"), ("v_mad_u32_u16", "SRC2")]
    words = [_word(arch, name, dpp=d, **{"SRC2": 260, f: v}) for name, f in names for d in dpp
             for v in (0xF0, 0xF2, 0xF7, 0xF8)]
    words += [_word(arch, "v_sat_pk_u8_i16", dpp=False, SRC0=v) for v in (0xF1, 0xF6, 0xF8)]
    # v_mad_u32_u16's src0 decoded first (SGPRs beside it; llvm-mc-22 reads that word as 12 bytes): the fast path
    # must not reuse its text of the constant (0x4400) for v_sad_u16's src0
    get_decoder(arch).decode_at(_word(arch, "v_mad_u32_u16", dpp=False, SRC0=0xF6, SRC1=0, SRC2=0) + b"\0" * 8, 0)
    words += [_word(arch, "v_sad_u16", dpp=False, SRC0=0xF6, SRC1=0, SRC2=0)]
    assert not _disagreements(arch, words)[:5]
    lines = ["v_sad_u16 v0, v2, 1.0, v2", "v_mad_u32_u16 v0, v2, v3, -4.0", "v_mad_i32_i16 v0, v2, v3, 0.5"]
    if arch in ("rdna3",):
        lines = [x.replace("v2, v3", "v2.l, v3.l") for x in lines]
    assert not encode_disagreements(arch, lines)


def test_byte_sel_prints_before_clamp(llvm_mc):
    """gfx1250: ``byte_sel:N clamp`` (v_cvt_f32_fp8, v_cvt_sr_fp8_f32), plain and with DPP."""
    words = [_word("cdna5", name, dpp=d, OP_SEL=o, CLAMP=1) for name in ("v_cvt_f32_fp8", "v_cvt_sr_fp8_f32")
             for d in (False, True) for o in (0b0010, 0b0100, 0b1000, 0b1100)]
    assert not _disagreements("cdna5", words)[:5]
    assert not encode_disagreements("cdna5", ["v_cvt_f32_fp8_e64 v0, v2 byte_sel:2 clamp",
                                              "v_cvt_sr_fp8_f32 v0, v2, s0 byte_sel:3 clamp"])


def test_gfx1250_dpp_source_254_is_refused(llvm_mc):
    """gfx1250: a VOP3 DPP source field of 254 (its 64-bit literal, src_lds_direct elsewhere) is refused."""
    words = [_word("cdna5", name, **{f: 254}) for name in ("v_add3_u32", "v_add_f32", "v_max3_num_f16")
             for f in ("SRC1", "SRC2") if f == "SRC1" or name != "v_add_f32"]
    assert not _disagreements("cdna5", words)[:5]
