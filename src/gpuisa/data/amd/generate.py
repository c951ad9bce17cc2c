"""Regenerate the committed AMD facts (one JSON file per architecture here).

    python -m gpuisa.data.amd.generate          # needs llvm-mc-22 and the pinned tinygrad wheel

Sources, per architecture:
- encodings (bit layouts): tinygrad's MR-ISA tables for RDNA3.5/RDNA4/CDNA4,
  applied (marked inferred) to RDNA3 and CDNA1-3; the GFX10 table for RDNA1/2;
- instructions and opcodes: the llvm-mc-22 opcode sweep of every encoding of
  the architecture's LLVM target, united with tinygrad's opcode tables;
- operand kinds, formats and sizes: tinygrad's tables, carried by name to the
  other generations (inferred); implicit VCC operands from LLVM's syntax.
Only facts are written: names, opcodes, fields, kinds, formats, sizes,
targets and provenance.  No vendor prose.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ...archs import AMD_ARCHS, Arch
from ...model import Encoding, Field, InstructionEncoding, Operand, Provenance
from ...sources import derive, gfx10_layouts, llvm, tinygrad
from ..diffable import dumps_one_per_line

HERE = Path(__file__).parent
COMMAND = "python -m gpuisa.data.amd.generate"

# Where an architecture without its own tinygrad table borrows layouts and operand facts.
LAYOUT_FOLDER = {"rdna3": "rdna3", "rdna3.5": "rdna3", "rdna4": "rdna4",
                 "cdna1": "cdna", "cdna2": "cdna", "cdna3": "cdna", "cdna4": "cdna", "cdna5": "rdna4"}
OPERAND_DONORS = {"rdna1": ["rdna3.5", "rdna4"], "rdna2": ["rdna3.5", "rdna4"], "rdna3": ["rdna3.5", "rdna4"],
                  "cdna1": ["cdna4"], "cdna2": ["cdna4"], "cdna3": ["cdna4"], "cdna5": ["rdna4", "cdna4"]}
GFX10_PROV = Provenance("gpuisa GFX10 layout table", "", "transcribed bit fields, checked against llvm-mc-22")


def gfx10_encodings(target: str) -> dict[str, Encoding]:
    out = {}
    for name in gfx10_layouts.TARGETS[target]:
        width, fields = gfx10_layouts.LAYOUTS[name]
        fs = tuple(Field(n, tuple((r[0], r[1]) for r in rngs), v) for n, rngs, v in fields)
        op = "OP" if any(f.name == "OP" for f in fs) else None
        enc = Encoding(name, width, fs, op, GFX10_PROV)
        out[name] = Encoding(name, width, tuple(enc.sorted_fields()), op, GFX10_PROV)
    return out


class ArchFacts:
    """Everything known about one architecture while generating."""

    def __init__(self, arch: Arch):
        self.arch = arch
        self.encodings: dict[str, Encoding] = {}
        # name -> encoding name -> InstructionEncoding
        self.instructions: dict[str, dict[str, InstructionEncoding]] = {}
        self.sources: list[Provenance] = []
        self.report: dict[str, object] = {}
        self.confirmed: set[tuple[str, str]] = set()  # (name, encoding) whose opcode llvm-mc agrees with
        self.llvm_prov: Provenance | None = None

    def add(self, name: str, ie: InstructionEncoding) -> None:
        self.instructions.setdefault(name, {})[ie.encoding] = ie


def _tinygrad_operands(tg: tinygrad.TinygradArch, op_class: str, name: str, enc_name: str, prov: Provenance) -> list[Operand]:
    table = tg.operands.get((op_class, name.upper()), {})
    src_kinds = [k for f, (_, _, k) in table.items() if f in ("src1", "src2")]
    ops = []
    for fld, (fmt, size, kind) in table.items():
        amd_name, amd_kind, note = tinygrad.native_operand_fix(enc_name, fld, kind, src_kinds[0] if src_kinds else None)
        p = Provenance(prov.source, prov.version, note) if note else prov
        ops.append(Operand(amd_name, derive.operand_role(name, amd_name), amd_kind, fmt, size, False, "", p))
    return sorted(ops, key=lambda o: derive.operand_rank(o.name))


def load_tinygrad(facts: ArchFacts, folder: str) -> None:
    tg = tinygrad.load_arch(folder)
    prov = tinygrad.provenance(folder)
    facts.sources.append(prov)
    for te in tg.encodings.values():
        facts.encodings[te.name] = te.encoding
    for op_class, ops in tg.opcodes.items():
        if not op_class.endswith("Op") or op_class in ("HWREG", "MSG"):
            continue
        for upper, opcode in ops.items():
            found = tinygrad.encoding_for(tg, op_class, upper)
            if found is None:
                continue
            name = upper.lower()
            operands = _tinygrad_operands(tg, op_class, upper, found.name, prov)
            facts.add(name, InstructionEncoding(found.name, opcode if found.encoding.op_field else None, tuple(operands),
                                                provenance=prov))


def _group_encodings(facts: ArchFacts, group: str, donors: list[ArchFacts], name: str) -> str:
    """Pick among encodings sharing the swept group's fixed bits (VOP3 / VOP3SD / VOP3_SDST)."""
    base = group.split(".")[0]
    enc = facts.encodings[base]
    same = [n for n, e in facts.encodings.items() if e.fixed_mask == enc.fixed_mask and e.fixed_value == enc.fixed_value
            and e.width == enc.width]
    if name in facts.instructions:
        for n in same:
            if n in facts.instructions[name]:
                return n
    for d in donors:
        for n in same:
            if n in d.instructions.get(name, {}):
                return n
    if base == "VOP3" and "VOP3B" in same:
        for d in donors:
            if any(e in ("VOP3SD", "VOP3_SDST") for e in d.instructions.get(name, {})):
                return "VOP3B"
    return base


def load_llvm(facts: ArchFacts, llvm_mc: str, version: str, donors: list[ArchFacts]) -> dict:
    target = facts.arch.mc_target
    prov = Provenance("llvm-mc", version, f"opcode sweep of -mcpu={target}")
    facts.sources.append(prov)
    facts.llvm_prov = Provenance("llvm-mc", version, f"opcode confirmed by the sweep of -mcpu={target}")
    sweep = llvm.sweep_target(llvm_mc, target, llvm.groups_for(facts.encodings))
    triples = set()
    disagreements = []
    for group, found in sweep.items():
        for opcode, (mnemonic, text) in sorted(found.items()):
            name = llvm.base_mnemonic(mnemonic)
            enc_name = _group_encodings(facts, group, donors, name)
            opc = None if opcode < 0 else opcode
            triples.add((name, group.split(".")[0], opc))
            existing = facts.instructions.get(name, {}).get(enc_name)
            tokens = llvm.parse_operand_tokens(text.split("::")[0])
            implicit = derive.implicit_operands(enc_name, text, tokens, prov)
            if existing is not None:
                if existing.opcode != opc:
                    disagreements.append((name, enc_name, existing.opcode, opc))
                    continue
                ops = tuple(existing.operands) + tuple(o for o in implicit if o.name not in {x.name for x in existing.operands})
                facts.add(name, InstructionEncoding(enc_name, opc, ops, syntax=text, provenance=existing.provenance))
                facts.confirmed.add((name, enc_name))
                continue
            operands = _inferred_operands(facts, donors, name, enc_name, tokens) + implicit
            facts.add(name, InstructionEncoding(enc_name, opc, tuple(operands), syntax=text, provenance=prov))
    return {"triples": sorted(triples, key=lambda t: (t[1], t[2] if t[2] is not None else -1, t[0])),
            "disagreements": disagreements}


def _inferred_operands(facts: ArchFacts, donors: list[ArchFacts], name: str, enc_name: str, tokens: list[str]) -> list[Operand]:
    enc = facts.encodings[enc_name]
    field_names = {f.name for f in enc.fields}
    for d in donors:
        cands = d.instructions.get(name, {})
        donor_ie = cands.get(enc_name) or next((ie for ie in cands.values() if ie.encoding.split("_")[0] == enc_name.split("_")[0]), None)
        if donor_ie is None or not donor_ie.operands:
            continue
        explicit = [o for o in donor_ie.operands if not o.implicit]
        if all(o.name in field_names for o in explicit):
            note = f"carried over from {d.arch.title}"
            return [Operand(o.name, o.role, o.kind, o.format, o.size, False, o.note,
                            Provenance(o.provenance.source if o.provenance else "",
                                       o.provenance.version if o.provenance else "", note, True))
                    for o in explicit]
    fields = derive.operand_fields_in_syntax([f.name for f in enc.fields if f.value is None], tokens)
    return [Operand(f, derive.operand_role(name, f), derive.field_kind(f), None, None, False, "", derive.RULES) for f in fields]


def generate(llvm_mc: str | None, progress=None) -> dict[str, dict]:
    version = llvm.llvm_version(llvm_mc) if llvm_mc else ""
    facts: dict[str, ArchFacts] = {}
    reports: dict[str, dict] = {}
    # tinygrad-backed architectures first: they donate operand facts to the others
    order = sorted(AMD_ARCHS, key=lambda a: (a.tinygrad_dir is None, a.order))
    for arch in order:
        f = ArchFacts(arch)
        if arch.tinygrad_dir:
            load_tinygrad(f, arch.tinygrad_dir)
        elif arch.gfx == "GFX10":
            f.encodings = gfx10_encodings(arch.mc_target)
            f.sources.append(GFX10_PROV)
        else:
            tg = tinygrad.load_arch(LAYOUT_FOLDER[arch.name])
            note = f"layout of {tinygrad.FOLDER_ARCH[LAYOUT_FOLDER[arch.name]]} applied to {arch.title}"
            for te in tg.encodings.values():
                e = te.encoding
                f.encodings[te.name] = Encoding(e.name, e.width, e.fields, e.op_field,
                                                tinygrad.provenance(LAYOUT_FOLDER[arch.name], note, True))
            f.sources.append(tinygrad.provenance(LAYOUT_FOLDER[arch.name], note, True))
        _add_llvm_fields(f)
        if arch.llvm_target and llvm_mc:
            donors = [facts[d] for d in OPERAND_DONORS.get(arch.name, []) if d in facts]
            reports[arch.name] = load_llvm(f, llvm_mc, version, donors)
        facts[arch.name] = f
        if progress:
            progress(arch.name)
    for arch in AMD_ARCHS:
        if not arch.llvm_target and IMPLICIT_DONOR.get(arch.name) in facts:
            _carry_implicit(facts[arch.name], facts[IMPLICIT_DONOR[arch.name]])
    return {name: {"facts": facts[name], "report": reports.get(name)} for name in facts}


# Bits the layout tables leave unnamed but LLVM 22 decodes as a modifier (found by probing llvm-mc-22: bit 56 of a
# GFX12 scalar-memory word prints scale_offset on gfx1200 and gfx1250), by encoding family.
LLVM_FIELDS = {("GFX12", "SMEM"): (("SCALE_OFFSET", 56, 56),)}


def _add_llvm_fields(facts: ArchFacts) -> None:
    family = facts.arch.features.encoding_family
    for (fam, enc_name), extra in LLVM_FIELDS.items():
        enc = facts.encodings.get(enc_name)
        if fam != family or enc is None:
            continue
        new = [Field(n, ((hi, lo),), None) for n, hi, lo in extra if enc.field(n) is None]
        if new:
            facts.encodings[enc_name] = Encoding(enc.name, enc.width, tuple(sorted(enc.fields + tuple(new),
                                                 key=lambda f: (-f.hi, -f.lo))), enc.op_field, enc.provenance)


# Architectures LLVM 22 does not know take implicit operands from their predecessor.
IMPLICIT_DONOR = {"cdna4": "cdna3"}


def _carried(o: Operand, donor: ArchFacts) -> Provenance:
    """The provenance of an implicit operand carried over from ``donor``."""
    prov = o.provenance
    assert prov is not None  # every operand the generator makes has its source
    return Provenance(prov.source, prov.version, f"carried over from {donor.arch.title}", True)


def _carry_implicit(facts: ArchFacts, donor: ArchFacts) -> None:
    for name, ies in facts.instructions.items():
        for enc_name, ie in list(ies.items()):
            d = donor.instructions.get(name, {}).get(enc_name)
            if d is None:
                continue
            extra = [Operand(o.name, o.role, o.kind, o.format, o.size, True, o.note, _carried(o, donor))
                     for o in d.operands if o.implicit and o.name not in {x.name for x in ie.operands}]
            if extra:
                ies[enc_name] = InstructionEncoding(ie.encoding, ie.opcode, tuple(ie.operands) + tuple(extra),
                                                    ie.condition, ie.syntax, ie.provenance)


def _prov_json(p: Provenance | None, table: list) -> int | None:
    if p is None:
        return None
    d = [p.source, p.version, p.note, p.inferred]
    if d not in table:
        table.append(d)
    return table.index(d)


def facts_to_json(f: ArchFacts) -> dict:
    provs: list = []
    encs = [{"name": e.name, "width": e.width, "op_field": e.op_field,
             "fields": [[fd.name, [list(r) for r in fd.ranges], fd.value] for fd in e.fields],
             "prov": _prov_json(e.provenance, provs)} for e in sorted(f.encodings.values(), key=lambda e: e.name)]
    used = {ie.encoding for ies in f.instructions.values() for ie in ies.values()}
    encs = [e for e in encs if e["name"] in used or e["op_field"] is None]
    insts = []
    for name in sorted(f.instructions):
        ies = sorted(f.instructions[name].values(), key=lambda ie: (f.encodings[ie.encoding].width, ie.encoding))
        insts.append({"name": name, "encodings": [
            {"encoding": ie.encoding, "opcode": ie.opcode, "condition": ie.condition, "syntax": ie.syntax,
             "prov": _prov_json(ie.provenance, provs),
             "confirmed": _prov_json(f.llvm_prov, provs) if (name, ie.encoding) in f.confirmed else None,
             "operands": [[o.name, o.role, o.kind, o.format, o.size, o.implicit, o.note, _prov_json(o.provenance, provs)]
                          for o in ie.operands]} for ie in ies]})
    return {"arch": f.arch.name, "generated_by": COMMAND, "sources": [_prov_json(p, provs) for p in f.sources],
            "provenance": provs, "encodings": encs, "instructions": insts}


def write_json(path: Path, doc: dict) -> None:
    """One instruction per line: small diffs when a source changes."""
    head = {k: v for k, v in doc.items() if k != "instructions"}
    path.write_text(dumps_one_per_line(head, "instructions", doc["instructions"]))


def main(argv: list[str] | None = None) -> int:
    llvm_mc = llvm.find_llvm_mc()
    if not llvm_mc:
        print("llvm-mc-22 not found (apt-get install -y llvm-22)", file=sys.stderr)
        return 2
    result = generate(llvm_mc, progress=lambda a: print(f"generated {a}", file=sys.stderr))
    sweep = {}
    for name, r in result.items():
        write_json(HERE / f"{name}.json", facts_to_json(r["facts"]))
        if r["report"]:
            sweep[name] = {"target": r["facts"].arch.llvm_target, "triples": r["report"]["triples"],
                           "disagreements": r["report"]["disagreements"]}
    (HERE / "llvm_sweep.json").write_text(json.dumps({"generated_by": COMMAND, "targets": sweep}, separators=(",", ":")) + "\n")
    for name, r in result.items():
        rep = r["report"] or {}
        print(f"{name}: {len(r['facts'].instructions)} instructions, {len(rep.get('triples', []))} llvm triples, "
              f"{len(rep.get('disagreements', []))} disagreements", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
