"""LLVM's 16-bit register syntax modes as a codec attribute: -mattr=+real-true16 on gfx1200/gfx1250 (v1.l/v1.h
halves; their default is fake16) and -mattr=-real-true16 on gfx1100/gfx1150 (whole VGPRs; their default is
true16).  Our encoder and decoder in each mode against llvm-mc-22 run with that -mattr, on lines of our own.
"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from mc_compare import lines_disagreeing

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.decoder import get_decoder
from gpuisa.codec.encoder import get_encoder

# 16-bit operands as halves: VOP2/VOP1/VOPC e32 (v0-v127, bit 7 the half), VOP3 (op_sel from .h), promotion
# to VOP3 past v127, literals and SGPRs, conversions, DPP16/DPP8/VOP3 DPP
TRUE16 = [
    "v_add_f16 v5.l, v1.h, v2.l", "v_add_f16 v5.h, v1.h, v200.l", "v_mul_f16 v127.h, v127.l, v3.h",
    "v_sqrt_f16 v5.h, v1.l", "v_sqrt_f16 v130.l, v1.l", "v_cmp_lt_f16 vcc_lo, v1.h, v2.l",
    "v_cmp_lt_f16 s4, v1.h, v200.l", "v_fma_f16 v5.h, v1.l, v2.h, v3.l", "v_add_f16 v5.l, v1.l, 0x1234",
    "v_add_f16 v5.l, s1, v2.h", "v_cvt_f32_f16 v5, v1.h", "v_cvt_f16_f32 v5.h, v1",
    "v_add_f16_dpp v5.l, v1.h, v2.l quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
    "v_fma_f16_e64_dpp v5.h, v1.l, v2.h, v3.l quad_perm:[0,1,2,3]", "v_pack_b32_f16 v5, v1.h, v2.l",
    "v_cmpx_eq_u16 v1.h, v2.l", "v_add_nc_u16 v5.h, v1.l, v2.h", "v_max_i16 v5.l, v1.h, 4",
    "v_cvt_f16_i16 v5.h, v1.l", "v_ldexp_f16 v5.h, v1.l, v2", "v_cndmask_b16 v5.h, v1.l, v2.h, s3",
    "v_mad_u16 v5.h, v1.l, v2.h, v3.l", "v_sqrt_f16 v5.l, v1.h quad_perm:[1,0,3,2]",
    "v_cmp_class_f16 vcc_lo, v1.h, v2", "v_add_f16 v5.l, v1.h, v2.l dpp8:[7,6,5,4,3,2,1,0]",
    "v_cvt_f16_f32 v5.h, v1 dpp8:[7,6,5,4,3,2,1,0] fi:0", "v_cvt_i16_f16 v9.l, v3.h dpp8:[1,1,1,1,1,1,1,1] fi:1",
    "v_ceil_f16 v5, v199 quad_perm:[3,2,1,0]", "v_cvt_f32_f16 v5, v150.h dpp8:[7,6,5,4,3,2,1,0]",
]
# whole VGPRs: op_sel spelled out, the e32 forms' v0-v127 limit
FAKE16 = [
    "v_add_f16 v5, v1, v2", "v_sqrt_f16 v5, v1", "v_cmp_lt_f16 vcc_lo, v1, v2",
    "v_fma_f16 v5, v1, v2, v3 op_sel:[1,0,1,0]", "v_add_f16_dpp v5, v1, v2 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
    "v_add_f16 v5, v1, v2 dpp8:[7,6,5,4,3,2,1,0]", "v_cvt_f32_f16 v5, v1", "v_mov_b16 v5, v1",
    "v_add_nc_u16 v5, v1, v2 op_sel:[0,1,1]", "v_cmp_class_f16 vcc_lo, v1, v2",
    "v_fma_f16_e64_dpp v5, v1, v2, v3 quad_perm:[0,1,2,3]", "v_cndmask_b16 v5, v1, v2, s3",
    "v_pack_b32_f16 v5, v1, v2 op_sel:[1,0,0]", "v_add_f16 v5, v1, 0x1234", "v_add_f16 v5, v1, v200",
    "v_add_f16 v200, v1, v2", "v_sqrt_f16 v5, v200", "v_cmp_lt_f16 vcc_lo, v2, v200", "v_cvt_f32_f16 v5, v131",
    "v_ceil_f16 v9, v3 dpp8:[0,0,0,0,0,0,0,0] fi:0", "v_add_f32 v200, v200, v200",
    "v_add_f16 v5, v200, v2 row_shl:1", "v_cvt_f32_f16 v5, v150 dpp8:[7,6,5,4,3,2,1,0]",
    "v_ceil_f32 v5, v199 quad_perm:[3,2,1,0]",
]
CASES = [("rdna4", "true16", TRUE16), ("cdna5", "true16", TRUE16), ("rdna3", "fake16", FAKE16),
         ("rdna3.5", "fake16", FAKE16), ("rdna3", None, TRUE16), ("rdna4", None, FAKE16),  # (None: the default)
         ("rdna4", "true16", ["v_mov_b16 v5.h, v1.l", "v_mov_b16 v200.l, v1.h", "v_swap_b16 v5.h, v1.l"])]
# (v_mov_b16/v_swap_b16 on gfx1200: forms only the true16 syntax has, probed from entries without a syntax example)
MATTR = {"true16": "+real-true16", "fake16": "-real-true16"}


def _disagreements(arch: str, mode: str | None, lines: list[str], wave64: bool = False) -> list[str]:
    target = archs.by_name(arch).llvm_target
    enc, dec = get_encoder(arch, wave64, mode), get_decoder(arch, wave64, mode)
    with oracle.features(*([MATTR[mode]] if mode else [])):
        bad = lines_disagreeing(target, enc, lines, wave64, "encode")
        words = [b for b, _ in oracle.assemble(target, lines, wave64) if b]
        texts = [items[0].text if items else None for items in oracle.disassemble(target, words, wave64)]
    for data, text in zip(words, texts):
        mine = dec.decode(data + b"\0" * 8)[0].text
        if mine != text:
            bad.append(f"decode {data.hex()}: llvm {text!r}, ours {mine!r}")
    return bad


@pytest.mark.parametrize("arch,mode,lines", CASES, ids=[f"{a}-{m or 'default'}" for a, m, _ in CASES])
def test_non_default_16_bit_syntax_as_llvm_mc(llvm_mc, arch, mode, lines):
    assert not _disagreements(arch, mode, lines)


@pytest.mark.parametrize("arch,mode", [("rdna4", "true16"), ("rdna3", "fake16")])
def test_wave64_in_the_non_default_syntax(llvm_mc, arch, mode):
    """Compares in wave64 (vcc, SGPR pairs; vcc_lo refused) with 16-bit operands in the non-default syntax."""
    half = ".h" if mode == "true16" else ""
    lines = [f"v_cmp_class_f16 vcc, v1{half}, v2", f"v_cmp_class_f16 vcc_lo, v1{half}, v2",
             f"v_cmp_lt_f16 s[4:5], v1{half}, v200", f"v_cmp_lt_f16 vcc, v1, v2{half}", "v_cmp_lt_f32 vcc, v1, v2",
             f"v_cndmask_b16 v5{half}, v1, v2, s[6:7]", f"v_add_f16 v5{half}, v1, v2"]
    assert not _disagreements(arch, mode, lines, wave64=True)


def test_default_syntax_is_llvm_mcs(llvm_mc):
    """The registry's default mode is the one llvm-mc-22 assembles halves in without -mattr."""
    from gpuisa.regen.plans import measured_default_syntax16

    for a in archs.AMD_ARCHS:
        if a.features.syntax16:
            assert measured_default_syntax16(a.mc_target) == archs.default_syntax16(a), a.name


def test_cli_decode_and_encode_take_llvms_mattr(llvm_mc, cli_env):
    word = "81050a64"  # v_add_f16_e32 with bit 7 of SRC0 set: v1.h in true16, v129 (not a Lo128 VGPR) in fake16
    with oracle.features("+real-true16"):
        want = oracle.disassemble("gfx1200", [bytes.fromhex(word)])[0][0].text
    for opts in (["-mattr=+real-true16"], ["--mattr", "+real-true16"], ["--true16"]):
        got = run_cli(["decode", "--arch", "gfx1200", *opts, "--json", word], cli_env)
        assert got.returncode == 0 and json.loads(got.stdout)["text"] == want, (opts, got.stderr)
    got = run_cli(["encode", "--arch", "gfx1200", "--mattr=+real-true16", "--json", want], cli_env)
    assert json.loads(got.stdout)["bytes"] == word and json.loads(got.stdout)["syntax16"] == "true16"


def test_modes_and_their_errors(cli_env):
    r4, r3 = archs.by_name("rdna4"), archs.by_name("rdna3")
    assert archs.syntax16_mode(r4, "+real-true16") == "true16" and archs.syntax16_mode(r4, "fake16") is None
    assert archs.syntax16_mode(r3, "-real-true16") == "fake16" and archs.syntax16_mode(r3, "true16") is None
    assert archs.parse_mattr(r3, "-real-true16,+wavefrontsize64") == (True, "fake16")
    for args in (["--arch", "gfx1010", "--true16"], ["--arch", "gfx1200", "--mattr=+xnack"]):
        got = run_cli(["decode", *args, "00000000"], cli_env)
        assert got.returncode == 2 and len(got.stderr.strip().splitlines()) == 1 and "Traceback" not in got.stderr


@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "rdna2"])
def test_operands_without_commas_as_llvm_mc(llvm_mc, arch):
    """llvm-mc-22 takes register operands separated by spaces only (``v1 v2 v3``, ``v1 -|v2|``) and refuses
    ``v1 -v2`` (an expression); ``a16`` stays a modifier."""
    from mc_compare import encode_disagreements

    lines = ["v_add_f32 v1 v2 v3", "v_fma_f32 v1 |v2| -|v3| v4", "v_mov_b32 v1 -v2", "v_mov_b32 v1 s2",
             "v_add_f32 v1, v2 v3", "v_add_f32 v1 v2, v3 clamp", "v_max_f32 v5 v1 v2 quad_perm:[1,0,3,2]"]
    if arch != "rdna2":
        lines += ["v_cvt_f16_f32 v200 v1 dpp8:[7,6,5,4,3,2,1,0]", "global_load_b32 v1 v[2:3] off"]
    assert not encode_disagreements(arch, lines)


@pytest.mark.parametrize("arch", ["rdna4", "cdna5"])
def test_op_sel_bits_of_missing_operands_print_fake16(llvm_mc, arch):
    """An op_sel bit of an operand the true16 form lacks (src2 of a two-source op, the SGPR result of a compare)
    makes llvm-mc-22 -mattr=+real-true16 print the word in fake16 syntax; the decoder does the same."""
    enc = get_encoder(arch, False, "true16")
    words = []
    for line, bits in (("v_add_f16_e64 v5.l, v1.h, v2.l", (4,)), ("v_ceil_f16_e64 v5.h, v1.l", (2, 4, 6)),
                       ("v_cmp_lt_f16_e64 s4, v1.h, v2.l", (8,)), ("v_fma_f16 v5.l, v1.l, v2.h, v3.l", (0, 8))):
        got = enc.encode_line(line)
        op_sel = enc.tables.encodings[got.encoding].require_field("OP_SEL")
        word = int.from_bytes(got.data[:8], "little")
        words += [op_sel.insert(word, op_sel.extract(word) | b).to_bytes(8, "little") for b in bits]
    with oracle.features("+real-true16"):
        texts = [items[0].text if items else None for items in oracle.disassemble(archs.by_name(arch).llvm_target, words)]
    dec = get_decoder(arch, False, "true16")
    assert [dec.decode(w)[0].text for w in words] == texts
