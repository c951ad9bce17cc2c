"""Identifiers and field layouts against LLVM's *assembler* (an independent path from the sweep).

1. Every syntax example in the store is assembled by llvm-mc-22; the encoding's fixed bits and
   opcode bits of the bytes LLVM produces must equal our identifier for that instruction.
2. Hand-written instructions with distinct operand values check where each field sits.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from gpuisa import archs

LLVM_ARCHS = [a for a in archs.AMD_ARCHS if a.llvm_target]
_ENC = re.compile(r"encoding:\s*\[([^\]]*)\]")


def assemble(llvm_mc: str, target: str, lines: list[str]) -> list[bytes | None]:
    """Assemble each line separately in one process; None where LLVM rejects it."""
    out: list[bytes | None] = []
    proc = subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True)
    errors = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: error", proc.stderr)}
    encs = iter(_ENC.findall(proc.stdout))
    for i, _ in enumerate(lines, start=1):
        if i in errors:
            out.append(None)
        else:
            out.append(bytes(int(x, 16) for x in next(encs).split(",")))
    return out


@pytest.mark.parametrize("arch", [a.name for a in LLVM_ARCHS])
def test_identifiers_agree_with_llvm_assembler(store, llvm_mc, arch):
    target = archs.by_name(arch).llvm_target
    cases = []
    for name in store.all_names(arch):
        page = json.loads(store.instruction(name, arch)["page"])
        texts = [ie["syntax"] for ie in page["encodings"]]
        for ie in page["encodings"]:
            if texts.count(ie["syntax"]) > 1:
                continue  # e.g. "v_nop" prints the same for its VOP1 and VOP3 forms: the assembler picks one
            if ie["syntax"] and "Invalid" not in ie["syntax"] and "::" not in ie["syntax"]:
                cases.append((name, ie["encoding"], ie["opcode"], ie["syntax"]))
    results = assemble(llvm_mc, target, [c[3] for c in cases])
    assembled, wrong = 0, []
    for (name, enc_name, opcode, text), data in zip(cases, results):
        if data is None:
            continue
        enc = store.encoding(arch, enc_name)
        word = int.from_bytes(data[: enc.width // 8], "little")
        mask = enc.fixed_mask
        if enc.op_field:
            op = enc.field(enc.op_field)
            mask |= op.mask
        assembled += 1
        if word & mask != enc.identifier(opcode):
            wrong.append((name, enc_name, opcode, text, data.hex()))
    assert assembled >= 0.9 * len(cases), f"only {assembled} of {len(cases)} examples assembled"
    assert wrong == [], f"{len(wrong)} of {assembled} disagree, e.g. {wrong[:3]}"


# (line, encoding, expected field values) per LLVM generation; hand-computed:
# VGPR n in a 9-bit source field is 256 + n; SGPR n is n; vcc_lo is 106, vcc 106.
GFX11_PLUS = [
    ("v_msad_u8 v5, v1, v2, s3", "VOP3", {"VDST": 5, "SRC0": 257, "SRC1": 258, "SRC2": 3}),
    ("v_cndmask_b32_e32 v5, s1, v2, vcc_lo", "VOP2", {"VDST": 5, "SRC0": 1, "VSRC1": 2}),
    ("v_mov_b32_e32 v7, s3", "VOP1", {"VDST": 7, "SRC0": 3}),
    ("s_mov_b32 s5, s3", "SOP1", {"SDST": 5, "SSRC0": 3}),
    ("s_movk_i32 s5, 0x1234", "SOPK", {"SDST": 5, "SIMM16": 0x1234}),
]
LAYOUT_CASES = {
    "GFX12": GFX11_PLUS + [("s_add_co_u32 s5, s1, s2", "SOP2", {"SDST": 5, "SSRC0": 1, "SSRC1": 2})],
    "GFX11": GFX11_PLUS + [("s_add_u32 s5, s1, s2", "SOP2", {"SDST": 5, "SSRC0": 1, "SSRC1": 2}),
                           ("ds_add_u32 v1, v2 offset:16", "DS", {"ADDR": 1, "DATA0": 2, "OFFSET0": 16})],
    "GFX10": [("v_msad_u8 v5, v1, v2, s3", "VOP3", {"VDST": 5, "SRC0": 257, "SRC1": 258, "SRC2": 3}),
              ("v_cndmask_b32_e32 v5, s1, v2, vcc_lo", "VOP2", {"VDST": 5, "SRC0": 1, "VSRC1": 2}),
              ("s_mov_b32 s5, s3", "SOP1", {"SDST": 5, "SSRC0": 3}),
              ("ds_add_u32 v1, v2 offset:16", "DS", {"ADDR": 1, "DATA0": 2, "OFFSET0": 16})],
    "GFX9": [("v_msad_u8 v5, v1, v2, s3", "VOP3", {"VDST": 5, "SRC0": 257, "SRC1": 258, "SRC2": 3}),
             ("v_cndmask_b32_e32 v5, v1, v2, vcc", "VOP2", {"VDST": 5, "SRC0": 257, "VSRC1": 2}),  # one constant-bus read on GFX9
             ("s_mov_b32 s5, s3", "SOP1", {"SDST": 5, "SSRC0": 3}),
             ("ds_add_u32 v1, v2 offset:16", "DS", {"ADDR": 1, "DATA0": 2, "OFFSET0": 16})],
}


@pytest.mark.parametrize("arch", [a.name for a in LLVM_ARCHS])
def test_field_positions_agree_with_llvm_assembler(store, llvm_mc, arch):
    a = archs.by_name(arch)
    cases = LAYOUT_CASES[a.features.encoding_family]
    results = assemble(llvm_mc, a.llvm_target, [c[0] for c in cases])
    for (line, enc_name, expect), data in zip(cases, results):
        assert data is not None, f"llvm-mc rejected {line!r} for {a.llvm_target}"
        enc = store.encoding(arch, enc_name)
        word = int.from_bytes(data[: enc.width // 8], "little")
        got = {k: enc.field(k).extract(word) for k in expect}
        assert got == expect, (arch, line)
