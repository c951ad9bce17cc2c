"""Our offline facts against real excerpts of AMD's machine-readable ISA XML (../shared/fixtures).

The excerpts are AMD's own files (RDNA3.5 and CDNA3), an oracle independent of the
tinygrad tables and of llvm-mc from which the offline default is generated.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

FIXTURES = {"rdna3.5": "amdgpu_isa_rdna3_5.excerpt.xml", "cdna3": "amdgpu_isa_cdna3.excerpt.xml"}

# Known gaps of the offline sources, each checked by hand: AMD lists the encoding, but
# neither llvm-mc-22 nor tinygrad gives it for this architecture.  The XML importer fills them.
KNOWN_GAPS = {
    # VOP3 form of v_readfirstlane_b32: llvm-mc-22 -mcpu=gfx942 does not decode it, and
    # tinygrad's table is CDNA4's, so CDNA3 learns it only from AMD's XML.
    ("cdna3", "VOP3", 322),
}


def load(shared_dir, arch):
    return ET.parse(shared_dir / "fixtures" / "amd-mrisa" / FIXTURES[arch]).getroot()


def xml_fields(enc):
    out = {}
    for fld in enc.iter("Field"):
        ranges = []
        for r in sorted(fld.iter("Range"), key=lambda r: int(r.get("Order", 0))):
            lo, n = int(r.findtext("BitOffset")), int(r.findtext("BitCount"))
            ranges.append((lo + n - 1, lo))
        out[fld.findtext("FieldName")] = ranges
    return out


@pytest.mark.parametrize("arch", list(FIXTURES))
def test_encoding_layouts_match_amd(store, shared_dir, arch):
    root = load(shared_dir, arch)
    for enc in root.iter("Encoding"):
        name = enc.findtext("EncodingName").removeprefix("ENC_")
        ours = store.encoding(arch, name)
        assert ours is not None, name
        assert ours.width == int(enc.findtext("BitCount"))
        assert {f.name: sorted(f.ranges) for f in ours.fields} == {k: sorted(v) for k, v in xml_fields(enc).items()}, name
        # identifiers: every one AMD lists is the identifier of one of our instructions in that encoding
        mask = int(enc.findtext("EncodingIdentifierMask"), 2)
        assert mask == ours.fixed_mask | ours.field(ours.op_field).place((1 << ours.field(ours.op_field).width) - 1)
        opcodes = {op for e, op, _ in sum(store.encodings_of(arch).values(), []) if e == name}
        for ident in enc.iter("EncodingIdentifier"):
            value = int(ident.text, 2)
            opcode = ours.field(ours.op_field).extract(value)
            assert ours.identifier(opcode) == value
            if (arch, name, opcode) in KNOWN_GAPS:
                assert opcode not in opcodes, "a known gap is filled now: drop it from KNOWN_GAPS"
                continue
            assert opcode in opcodes, f"{name} opcode {opcode} listed by AMD is not in the store"


@pytest.mark.parametrize("arch", list(FIXTURES))
def test_instruction_operands_match_amd(store, shared_dir, arch):
    root = load(shared_dir, arch)
    for inst in root.iter("Instruction"):
        name = inst.findtext("InstructionName").lower()
        page = json.loads(store.instruction(name, arch)["page"])
        ours = {e["encoding"]: e for e in page["encodings"]}
        for ie in inst.iter("InstructionEncoding"):
            enc = ie.findtext("EncodingName")
            if not enc.startswith("ENC_"):
                continue  # variants (literal, DPP, SDWA) come with the XML importer
            mine = ours[enc.removeprefix("ENC_")]
            assert mine["opcode"] == int(ie.findtext("Opcode")), (name, enc)
            expected = []
            for op in sorted(ie.iter("Operand"), key=lambda o: int(o.get("Order"))):
                role = {(True, False): "read", (False, True): "write", (True, True): "readwrite"}[
                    (op.get("Input") == "true", op.get("Output") == "true")]
                implicit = op.get("IsBinaryMicrocodeRequired") == "false"
                expected.append((op.findtext("FieldName") or op.findtext("OperandType").removeprefix("OPR_"), role,
                                 op.findtext("OperandType"), op.findtext("DataFormatName"), int(op.findtext("OperandSize")),
                                 implicit))
            got = [(o["name"], o["role"], o["kind"], o["format"], o["size"], o["implicit"]) for o in mine["operands"]]
            assert got == expected, (name, enc)
