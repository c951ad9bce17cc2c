"""The issue's seed examples, checked against llvm-mc-22 (independent truth) and hand-computed fields."""

from __future__ import annotations

import pytest

import gpuisa.codec as codec
from gpuisa.codec import oracle

SEED_BYTES = bytes.fromhex("050039d601050e00")


def test_decode_seed_gfx1200_fields_hand_computed():
    d = codec.decode("gfx1200", SEED_BYTES)
    assert len(d) == 1 and d[0].valid
    # VOP3 on GFX12: VDST[7:0]=5, OP[25:16]=0x239, SRC0=0x101 (v1), SRC1=0x102 (v2), SRC2=3 (s3)
    assert d[0].fields["VDST"] == 5 and d[0].fields["OP"] == 0x239
    assert (d[0].fields["SRC0"], d[0].fields["SRC1"], d[0].fields["SRC2"]) == (0x101, 0x102, 3)
    assert d[0].meanings["SRC2"] == "s3" and d[0].meanings["SRC0"] == "v1"
    assert d[0].encoding == "VOP3"


def test_decode_seed_matches_llvm(llvm_mc):
    ref = oracle.disassemble("gfx1200", [SEED_BYTES])[0]
    assert [(i.offset, i.text) for i in ref] == [(0, codec.decode("gfx1200", SEED_BYTES)[0].text)]


@pytest.mark.parametrize("arch", ["rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna1", "cdna2", "cdna3"])
@pytest.mark.parametrize("text,wave64", [("v_msad_u8 v5, v1, v2, s3", False), ("v_mad_i32_i24 v5, v1, v2, s3", False),
                                         ("v_cndmask_b32 v5, -1, v2, vcc", True)])
def test_encode_seeds_match_llvm(llvm_mc, arch, text, wave64):
    from gpuisa import archs

    a = archs.by_name(arch)
    rdna_wave64 = wave64 and a.family == "RDNA"
    ref, msg = oracle.assemble(a.llvm_target, [text], rdna_wave64)[0]
    assert ref is not None, msg
    ours = codec.encode(arch, text, wave64=rdna_wave64)
    assert ours == ref
    back = codec.decode(arch, ours, wave64=rdna_wave64)[0]
    assert back.valid and back.name in text


def test_seed_examples_on_pages(store):
    from gpuisa.pages import build_page

    for name, text in [("v_msad_u8", "v_msad_u8 v5, v1, v2, s3"), ("v_mad_i32_i24", "v_mad_i32_i24 v5, v1, v2, s3"),
                       ("v_cndmask_b32", "v_cndmask_b32 v5, -1, v2, vcc")]:
        page = build_page(store, name, "rdna4")  # the seed texts are RDNA4's (wave32: vcc in a VOP3 form)
        texts = [x["text"] for x in page["examples"]]
        assert text in texts
        for x in page["examples"]:
            assert set(x) >= {"text", "bytes", "target", "verified_by"}
            assert x["verified_by"].startswith("accepted by llvm-mc 22") or x["verified_by"] == "round-trip only"
