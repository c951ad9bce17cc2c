"""Turn a parsed AMD MR-ISA file into the store's facts document, cross-checked
against the offline default, and install it into the user's data folder.

The facts document has the committed facts' schema (see data/amd/generate.py)
plus what only the XML carries: AMD's descriptions (vendor text, kept in the
user's folder, never in the repository), instruction flags, functional group
and subgroups, aliases, every encoding variant with its condition name, the
encodings' condition trees and identifiers, data formats and operand types.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from .. import archs
from ..cachefile import atomic_write
from ..errors import echo
from ..sources import derive
from ..store import AMD_DIR, encoding_from_json
from ..storepaths import imports_dir
from .parse import XmlImportError, XmlIsa

SOURCE = "AMD machine-readable ISA XML"
_ARCH_NAME = re.compile(r"\b(RDNA|CDNA)\s*(\d+(?:\.\d+)?)", re.I)


def arch_key(isa: XmlIsa, label: str) -> str:
    name = isa.architecture.get("name") or ""
    m = _ARCH_NAME.search(name)
    if not m:
        raise XmlImportError(f"{label}: unknown architecture {name!r} (expected AMD RDNA n or AMD CDNA n)")
    key = f"{m.group(1).lower()}{m.group(2)}"
    try:
        return archs.resolve_arch(key).name
    except archs.UnknownArch:
        raise XmlImportError(f"{label}: architecture {name!r} is not one gpuisa knows ({', '.join(archs.arch_names())})") from None


def _enc_name(name: str) -> str:
    return name[4:] if name.startswith("ENC_") else name


def _role(op: dict) -> str:
    if op["input"] and op["output"]:
        return "readwrite"
    return "write" if op["output"] else "read"


def _encoding_json(e: dict, prov: int) -> dict:
    fields = []
    for f in e["fields"]:
        value = None
        if f["name"] == "ENCODING" and e["identifiers"]:
            from ..model import Field

            value = Field("ENCODING", tuple(tuple(r) for r in f["ranges"])).extract(e["identifiers"][0])
        fields.append([f["name"], [list(r) for r in f["ranges"]], value])
    names = {f[0] for f in fields}
    op_field = "OP" if "OP" in names else ("OPX" if "OPX" in names else None)
    return {"name": _enc_name(e["name"]), "width": e["width"], "op_field": op_field, "fields": fields, "prov": prov,
            "order": e["order"], "mask": hex(e["mask"]), "identifiers": [hex(i) for i in e["identifiers"]],
            "conditions": e["conditions"], "description": e["description"]}


def _load_default(arch: str) -> dict | None:
    p = AMD_DIR / f"{arch}.json"
    return json.loads(p.read_bytes()) if p.exists() else None


def build_document(isa: XmlIsa, label: str, sha256: str) -> tuple[dict, dict]:
    """(facts document, cross-check report) for one architecture."""
    arch = arch_key(isa, label)
    release = isa.document.get("ReleaseDate", "")
    provs = [[SOURCE, f"{release} (schema {isa.document.get('SchemaVersion', '?')})", "", False]]
    encodings = [_encoding_json(e, 0) for e in sorted(isa.encodings, key=lambda e: (e["order"], e["name"] or ""))]
    instructions = []
    for inst in isa.instructions:
        name = (inst["name"] or "").lower()
        encs = []
        for ie in inst["encodings"]:
            ops = []
            for op in ie["operands"]:
                implicit = op["implicit_attr"] or not op["microcode_required"]
                oname = op["field"] or (op["kind"] or "").removeprefix("OPR_")
                note = derive.VCC_NOTE if implicit and op["kind"] == "OPR_VCC" else ""
                ops.append([oname, _role(op), op["kind"], op["format"], op["size"], implicit, note, 0])
            encs.append({"encoding": _enc_name(ie["encoding"] or ""), "opcode": ie["opcode"], "condition": ie["condition"],
                         "syntax": "", "prov": 0, "operands": ops})
        subgroups = [s for s in inst["subgroups"] if s != "NOT_ASSIGNED"]
        instructions.append({"name": name, "description": inst["description"],
                             "description_source": f"{SOURCE} {release}" if inst["description"] else None,
                             "category": inst["group"],
                             "subgroup": ", ".join(subgroups) or None, "flags": inst["flags"],
                             "aliases": [a.lower() for a in inst["aliases"]], "encodings": encs})
    doc = {"arch": arch, "generated_by": "gpuisa import-amd", "source_file": label, "source_sha256": sha256,
           "xml_counts": {"instructions": len(isa.instructions), "encodings": len(isa.encodings)},
           "document": isa.document, "architecture": isa.architecture, "sources": [0], "provenance": provs,
           "encodings": encodings, "instructions": instructions, "data_formats": isa.data_formats,
           "operand_types": isa.operand_types, "functional_groups": isa.functional_groups,
           "functional_subgroups": isa.functional_subgroups, "unknown": isa.unknown}
    report = cross_check(doc, _load_default(arch))
    return doc, report


def cross_check(doc: dict, default: dict | None) -> dict:
    """Compare every fact both sources have; XML wins, both values are kept on the instruction.

    Also carries over what only the default knows (LLVM syntax, instructions AMD does not list).
    """
    report = {"arch": doc["arch"], "checked": 0, "disagreements": []}
    if default is None:
        return report
    dis = report["disagreements"]
    default_prov = len(doc["provenance"])
    doc["provenance"] += default["provenance"]
    d_encs = {e["name"]: e for e in default["encodings"]}
    x_encs = {e["name"] for e in doc["encodings"]}
    for e in doc["encodings"]:
        d = d_encs.get(e["name"])
        if d is None:
            continue
        dfields = {f[0]: f for f in d["fields"]}
        for name, ranges, _value in e["fields"]:
            if name in dfields:
                report["checked"] += 1
                if sorted(map(tuple, ranges)) != sorted(map(tuple, dfields[name][1])):
                    dis.append({"what": "field range", "encoding": e["name"], "field": name,
                                "xml": ranges, "default": dfields[name][1]})
    # default encodings the XML lacks (e.g. excerpts) keep their layout
    for name, d in d_encs.items():
        if name not in x_encs:
            doc["encodings"].append(dict(d, prov=default_prov + d["prov"] if d["prov"] is not None else None))
    d_insts = {i["name"]: i for i in default["instructions"]}
    for inst in doc["instructions"]:
        inst.setdefault("sources", [0])
        d = d_insts.pop(inst["name"], None)
        if d is None:
            continue
        d_by_enc = {ie["encoding"]: ie for ie in d["encodings"]}
        mine = []
        for ie in inst["encodings"]:
            de = d_by_enc.get(ie["encoding"])
            if de is None or ie["condition"] != "default":
                continue
            ie["syntax"] = de.get("syntax", "")
            extra = [default_prov + i for i in (de.get("prov"), de.get("confirmed")) if i is not None]
            srcs = inst.setdefault("sources", [0])
            srcs += [i for i in extra if i not in srcs]
            report["checked"] += 1
            if de["opcode"] != ie["opcode"]:
                mine.append({"what": "opcode", "encoding": ie["encoding"], "xml": ie["opcode"], "default": de["opcode"]})
            d_ops = {o[0]: o for o in de["operands"]}
            for o in ie["operands"]:
                do = d_ops.get(o[0])
                if do is None:
                    continue
                for idx, what in ((1, "role"), (2, "kind"), (3, "format"), (4, "size")):
                    if do[idx] is None:
                        continue
                    report["checked"] += 1
                    if do[idx] != o[idx]:
                        mine.append({"what": f"operand {what}", "encoding": ie["encoding"], "operand": o[0],
                                     "xml": o[idx], "default": do[idx],
                                     "default_source": default["provenance"][do[7]][0] if do[7] is not None else None})
        # encodings only the default knows (e.g. dropped from an excerpt) stay, marked with their source
        for enc_name, de in d_by_enc.items():
            if enc_name not in {ie["encoding"] for ie in inst["encodings"]}:
                inst["encodings"].append(_reindexed(de, default_prov))
        if mine:
            inst["disagreements"] = mine
            dis += [dict(x, instruction=inst["name"]) for x in mine]
    for d in d_insts.values():  # instructions only LLVM/tinygrad list
        doc["instructions"].append(dict(d, encodings=[_reindexed(ie, default_prov) for ie in d["encodings"]]))
    return report


def _reindexed(ie: dict, offset: int) -> dict:
    out = dict(ie)
    out["prov"] = ie["prov"] + offset if ie.get("prov") is not None else None
    if ie.get("confirmed") is not None:
        out["confirmed"] = ie["confirmed"] + offset
    out["operands"] = [o[:7] + [o[7] + offset if o[7] is not None else None] for o in ie["operands"]]
    return out


def check_layouts(doc: dict) -> list[str]:
    """Identifiers computed from the encoding's fixed bits and each opcode must equal AMD's list."""
    problems = []
    for e in doc["encodings"]:
        if "identifiers" not in e or not e["op_field"]:
            continue
        enc = encoding_from_json(e)
        op = enc.require_field(e["op_field"])
        for ident in e["identifiers"]:
            v = int(ident, 16)
            if enc.identifier(op.extract(v)) != v:
                problems.append(f"{e['name']}: identifier {ident} != computed {hex(enc.identifier(op.extract(v)))}")
    return problems


# The fewest instructions AMD's file for an architecture may list.  AMD's full files list 1 100-1 800;
# excerpts of them (a handful of instructions, as in ../shared/fixtures) are legitimate inputs, since the
# offline default fills in the rest, so the floor only refuses files that describe no instruction at all;
# what protects a good import from a truncated file is WORSE_RATIO (see is_worse).
SANITY_FLOOR: dict[str, int] = {}
DEFAULT_FLOOR = 1
WORSE_RATIO = 0.9  # a file listing fewer than 90% of the imported file's instructions is worse


def sanity_floor(arch: str) -> int:
    return SANITY_FLOOR.get(arch, DEFAULT_FLOOR)


def validate(isa: XmlIsa, doc: dict, label: str) -> None:
    """Refuse (XmlImportError, one line) a file that parsed but cannot be a usable description."""
    arch = doc["arch"]
    n = len(isa.instructions)
    if n < sanity_floor(arch):
        raise XmlImportError(f"{label}: lists {n} instructions; an {arch} file lists at least {sanity_floor(arch)} "
                             "(refused; nothing imported)")
    if not isa.encodings:
        raise XmlImportError(f"{label}: lists no <Encoding>; refused, nothing imported")
    seen: dict[str, int] = {}
    for inst in isa.instructions:
        name = (inst["name"] or "").strip()
        if not name:
            raise XmlImportError(f"{label}: an <Instruction> without <InstructionName>; refused, nothing imported")
        seen[name.lower()] = seen.get(name.lower(), 0) + 1
        if not inst["encodings"] or not all(ie["encoding"] for ie in inst["encodings"]):
            raise XmlImportError(f"{label}: instruction {echo(name)} has no <EncodingName>; refused, nothing imported")
    dups = [k for k, c in seen.items() if c > 1]
    if dups:
        raise XmlImportError(f"{label}: instruction {echo(dups[0].upper())} is listed {seen[dups[0]]} times"
                             + (f" (and {len(dups) - 1} more duplicated)" if len(dups) > 1 else "")
                             + "; refused, nothing imported")


def is_worse(doc: dict, prev: dict | None) -> str | None:
    """Why ``doc`` would be a worse import than ``prev`` (None if it is not)."""
    if not prev:
        return None
    pc = (prev.get("xml_counts") or {}).get("instructions")
    nc = doc["xml_counts"]["instructions"]
    if isinstance(pc, int) and nc < pc * WORSE_RATIO:
        return f"the imported file lists {pc} instructions, this one {nc}"
    return None


def existing(arch: str) -> dict | None:
    p = imports_dir() / f"{arch}.json"
    try:
        doc = json.loads(p.read_bytes())
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def install(doc: dict) -> Path:
    """Write one architecture's document atomically and durably (the per-architecture transaction)."""
    target = imports_dir() / f"{doc['arch']}.json"
    try:
        atomic_write(target, json.dumps(doc, separators=(",", ":")).encode(), durable=True)
    except OSError as exc:
        raise XmlImportError(f"cannot write {target} ({type(exc).__name__}: {exc.strerror or exc})") from None
    return target
