"""The seed pages' facts, exactly (values written by hand from the issue and AMD's manuals)."""

from __future__ import annotations

import pytest

from gpuisa.pages import build_page

VOP3_LAYOUT = [("NEG", 63, 61, None), ("OMOD", 60, 59, None), ("SRC2", 58, 50, None), ("SRC1", 49, 41, None),
               ("SRC0", 40, 32, None), ("ENCODING", 31, 26, 0b110101), ("OP", 25, 16, None), ("CLAMP", 15, 15, None),
               ("OP_SEL", 14, 11, None), ("ABS", 10, 8, None), ("VDST", 7, 0, None)]


def layout(enc):
    return [(f["name"], f["hi"], f["lo"], f.get("value")) for f in enc["fields"]]


@pytest.mark.parametrize("arch,opcode", [("rdna3", 569), ("rdna3.5", 569), ("rdna4", 569), ("cdna1", 484),
                                         ("cdna2", 484), ("cdna3", 484), ("cdna4", 484), ("rdna1", 369), ("rdna2", 369),
                                         ("cdna5", 569)])
def test_v_msad_u8_opcodes(store, arch, opcode):
    page = build_page(store, "v_msad_u8", arch)
    assert [(e["name"], e["opcode"]) for e in page["encodings"]] == [("VOP3", opcode)]


def test_v_msad_u8_cdna5_page(store):
    """The issue's CDNA5 page (gfx1250, checked with llvm-mc-22: v_msad_u8 v5, v1, v2, s3 -> 05 00 39 d6 01 05 0e 00)."""
    page = build_page(store, "v_msad_u8")  # default: the newest generation that has it, CDNA5 (gfx1250)
    assert page["arch"] == "cdna5"
    enc = page["encodings"][0]
    assert (enc["name"], enc["opcode"], enc["identifier"]) == ("VOP3", 569, "0x00000000D6390000")
    assert layout(enc) == VOP3_LAYOUT


def test_v_msad_u8_rdna4_page(store):
    page = build_page(store, "v_msad_u8", "rdna4")
    assert page["arch"] == "rdna4"
    assert (page["vendor"], page["isa"], page["category"]) == ("AMD", "amdgpu", "VALU")
    enc = page["encodings"][0]
    assert enc["identifier"] == "0x00000000D6390000" and int(enc["identifier"], 16) == 0xD6390000
    assert enc["width"] == 64
    assert layout(enc) == VOP3_LAYOUT
    assert next(f for f in enc["fields"] if f["name"] == "ENCODING")["bits"] == "110101"
    ops = [(o["name"], o["role"], o["kind"]) for o in page["operands"]]
    assert ops == [("VDST", "write", "OPR_VGPR"), ("SRC0", "read", "OPR_SRC"), ("SRC1", "read", "OPR_SRC"),
                   ("SRC2", "read", "OPR_SRC")]
    assert page["operands"][0]["format"] == "FMT_NUM_U32"
    assert set(page["targets"]) == {"gfx1200", "gfx1201"}
    gens = page["generations"]
    assert gens["cdna4"]["opcode"] == 484 and gens["cdna4"]["layout_same"] is False  # ENCODING bits 110100
    assert gens["rdna3.5"] == {"encoding": "VOP3", "opcode": 569, "layout_same": True}
    assert "CDNA4 (opcode 484, field layout)" in page["generation_summary"]
    assert page["description"] is None


@pytest.mark.parametrize("arch,opcode", [("rdna3", 522), ("rdna3.5", 522), ("rdna4", 522), ("cdna1", 450),
                                         ("cdna2", 450), ("cdna3", 450), ("cdna4", 450), ("rdna1", 322), ("rdna2", 322)])
def test_v_mad_i32_i24(store, arch, opcode):
    page = build_page(store, "v_mad_i32_i24", arch)
    assert [(e["name"], e["opcode"]) for e in page["encodings"]] == [("VOP3", opcode)]
    fmts = [(o["name"], o["role"], o["format"]) for o in page["operands"]]
    assert fmts == [("VDST", "write", "FMT_NUM_I32"), ("SRC0", "read", "FMT_NUM_I24"), ("SRC1", "read", "FMT_NUM_I24"),
                    ("SRC2", "read", "FMT_NUM_I32")]


@pytest.mark.parametrize("arch,opcode", [("rdna1", 1), ("rdna2", 1), ("rdna3", 1), ("rdna3.5", 1), ("rdna4", 1),
                                         ("cdna1", 0), ("cdna2", 0), ("cdna3", 0), ("cdna4", 0)])
def test_v_cndmask_b32(store, arch, opcode):
    page = build_page(store, "v_cndmask_b32", arch)
    enc = page["encodings"][0]
    assert (enc["name"], enc["opcode"], enc["width"]) == ("VOP2", opcode, 32)
    assert layout(enc) == [("ENCODING", 31, 31, 0), ("OP", 30, 25, None), ("VDST", 24, 17, None),
                           ("VSRC1", 16, 9, None), ("SRC0", 8, 0, None)]
    vcc = [o for o in page["operands"] if o["implicit"]]
    assert [(o["name"], o["role"], o["kind"], o["size"]) for o in vcc] == [("VCC", "read", "OPR_VCC", 64)]
    assert "wave32" in vcc[0]["note"]
    if arch == "rdna4":
        assert enc["identifier"] == "0x02000000"
