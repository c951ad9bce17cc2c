"""Coverage against the sources, re-measured here (not read back from our own files).

- every (mnemonic, encoding, opcode) triple a fresh llvm-mc-22 sweep finds is in the store;
- every instruction of tinygrad's RDNA3.5/RDNA4/CDNA4 tables is in the store with its
  opcode and, field by field, its operand data formats and sizes.
"""

from __future__ import annotations

import pytest

from gpuisa import archs
from gpuisa.sources import llvm, tinygrad

LLVM_ARCHS = [a.name for a in archs.AMD_ARCHS if a.llvm_target]
TINYGRAD_ARCHS = [a.name for a in archs.AMD_ARCHS if a.tinygrad_dir]


@pytest.mark.parametrize("arch", LLVM_ARCHS)
def test_every_llvm_triple_is_in_the_store(store, llvm_mc, arch):
    target = archs.by_name(arch).llvm_target
    encs = {n: store.encoding(arch, n) for n in store.encoding_names(arch)}
    found = llvm.sweep_target(llvm_mc, target, llvm.groups_for(encs))
    have = store.encodings_of(arch)
    triples, missing = 0, []
    for group, by_opcode in found.items():
        base = encs[group.split(".")[0]]
        same_bits = {n for n, e in encs.items() if (e.fixed_mask, e.fixed_value, e.width) ==
                     (base.fixed_mask, base.fixed_value, base.width)}
        for opcode, (mnemonic, _text) in by_opcode.items():
            triples += 1
            name = llvm.base_mnemonic(mnemonic)
            opc = None if opcode < 0 else opcode
            if not any(e in same_bits and op == opc for e, op, _ in have.get(name, [])):
                missing.append((name, group, opcode))
    assert triples > 1000, f"suspiciously few triples for {target}: {triples}"
    assert missing == [], f"{len(missing)} of {triples} llvm-mc triples missing, e.g. {missing[:5]}"


@pytest.mark.parametrize("arch", TINYGRAD_ARCHS)
def test_every_tinygrad_instruction_with_formats(store, arch):
    folder = archs.by_name(arch).tinygrad_dir
    tg = tinygrad.load_arch(folder)
    have = store.encodings_of(arch)
    checked, problems = 0, []
    for (op_class, upper), fields in tg.operands.items():
        name = upper.lower()
        te = tinygrad.encoding_for(tg, op_class, upper)
        if te is None:
            continue
        opcode = tg.opcodes[op_class][upper]
        if not any(e == te.name and (op == opcode or te.encoding.op_field is None) for e, op, _ in have.get(name, [])):
            problems.append((name, te.name, opcode, "missing"))
            continue
        row = store.instruction(name, arch)
        import json
        page = json.loads(row["page"])
        ie = next(x for x in page["encodings"] if x["encoding"] == te.name)
        ours = {o["name"]: (o["format"], o["size"]) for o in ie["operands"] if not o["implicit"]}
        for fld, (fmt, size, _kind) in fields.items():
            amd = "SRC0" if fld == "vsrc0" and te.name.startswith("VOP3") else fld.upper()
            if ours.get(amd) != (fmt, size):
                problems.append((name, te.name, amd, ours.get(amd), (fmt, size)))
        checked += 1
    assert checked > 1000
    assert problems == [], f"{len(problems)} problems, e.g. {problems[:5]}"
