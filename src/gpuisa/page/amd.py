"""The AMD page builder: every section of a native AMD instruction page is assembled here.

Facts come from the store (encodings, operands, targets, flags, sources, generations) and from the
feature packages' committed data, each optional: semantics (``semantics.pages``), examples
(``codec.pages``), related PTX instructions (``crossmap.pages``), timing (``timing``).
"""

from __future__ import annotations

import json

from .. import archs
from ..features import optional_module
from .codec import from_json
from .model import (
    BitField,
    Disagreement,
    Encoding,
    Example,
    Generation,
    InstructionPage,
    Operand,
    Semantics,
    Source,
    Timing,
    isa_kind,
)
from .related import related


def field_json(f) -> dict:
    """A field for JSON: name, hi, lo, width; ranges when split; value and bits when fixed."""
    d = {"name": f.name, "hi": f.hi, "lo": f.lo, "width": f.width}
    if len(f.ranges) > 1:
        d["ranges"] = [list(r) for r in f.ranges]
    if f.value is not None:
        d["value"] = f.value
        d["bits"] = f.fixed_text()
    return d


def bit_field(f) -> BitField:
    return BitField(f.name, f.hi, f.lo, f.width, [list(r) for r in f.ranges] if len(f.ranges) > 1 else None,
                    f.value, f.fixed_text() if f.value is not None else None)


def operand(o: dict) -> Operand:
    return Operand(o["name"], o["role"], o["kind"], o["format"], o["size"], bool(o["implicit"]), o.get("note") or "",
                   bool(o.get("provenance") and o["provenance"].get("inferred")))


def build(store, row, arch: str) -> InstructionPage:
    """The page of the store's instruction ``row`` on the native architecture ``arch``."""
    stored = json.loads(row["page"])
    a = archs.by_name(arch)
    name = row["name"]
    encodings = []
    for ie in stored["encodings"]:
        enc = store.encoding(arch, ie["encoding"])
        encodings.append(Encoding(
            ie["encoding"], enc.width if enc else None, ie["opcode"], enc.identifier_hex(ie["opcode"]) if enc else None,
            ie["condition"], [bit_field(f) for f in enc.sorted_fields()] if enc else [], ie["syntax"],
            [operand(o) for o in ie["operands"]]))
    primary = stored["encodings"][0] if stored["encodings"] else None
    gens = generations(store, name, arch, primary["encoding"] if primary else None)
    return InstructionPage(
        name=name, vendor=a.vendor, isa=a.isa, isa_kind=isa_kind(a.kind), arch=arch, arch_title=a.title,
        category=row["category"], subgroup=row["subgroup"], summary=row["summary"], description=row["description"],
        description_source=stored.get("description_source"), encodings=encodings,
        operands=[operand(o) for o in (primary["operands"] if primary else [])], targets=list(stored["targets"]),
        flags=dict(stored.get("flags") or {}), generations=gens, generation_summary=generation_summary(arch, gens),
        sources=[from_json(Source, s, "sources") for s in stored["sources"] if s is not None],
        aliases=stored.get("aliases") or None,
        disagreements=[from_json(Disagreement, d, "disagreements") for d in stored["disagreements"]]
        if stored.get("disagreements") else None,
        semantics=_semantics(arch, name), examples=_examples(arch, name), related=related(a.isa, name, arch),
        timing=_timing(a, name, [e.name for e in encodings]))


def _semantics(arch: str, name: str) -> Semantics | None:
    mod = optional_module("gpuisa.semantics.pages")
    sem = mod.amd_semantics(arch, name) if mod is not None else None
    return from_json(Semantics, sem, "semantics") if sem else None


def _examples(arch: str, name: str) -> list[Example] | None:
    mod = optional_module("gpuisa.codec.pages")
    ex = mod.examples_for(arch, name) if mod is not None else []
    return [from_json(Example, x, "examples") for x in ex] or None


def _timing(a, name: str, encodings: list[str]) -> Timing | None:
    mod = optional_module("gpuisa.timing")
    if mod is None or a.kind != "native":
        return None
    t = mod.page_timing(a.name, name, encodings)
    return from_json(Timing, t, "timing") if t is not None else None


def generations(store, name: str, arch_key: str, enc_name: str | None) -> dict[str, Generation | None]:
    """This instruction in every generation of the ISA: encoding, opcode, same field layout (None: absent)."""
    gens = store.generations(name)
    mine = {r["encoding"]: r for r in gens.get(arch_key, [])}
    ref = mine.get(enc_name) if enc_name else None
    isa = archs.by_name(arch_key).isa
    out: dict[str, Generation | None] = {}
    for arow in store.archs():
        other = arow["name"]
        if arow["isa"] != isa:
            continue
        rows = gens.get(other)
        if not rows:
            out[other] = None
            continue
        pick = next((r for r in rows if r["encoding"] == enc_name), None) or rows[0]
        out[other] = Generation(pick["encoding"], pick["opcode"],
                                bool(ref is not None and pick["layout"] == ref["layout"]))
    return out


def generation_summary(arch_key: str, gens: dict[str, Generation | None]) -> str:
    """'Not the same in every generation: CDNA4 (opcode 484, field layout), ... The same in RDNA4.'"""
    ref = gens.get(arch_key)
    if ref is None:
        return ""
    differ, same, absent = [], [], []
    for other in archs.newest_first([k for k in gens if k != arch_key]):
        g = gens[other]
        title = archs.by_name(other).title
        if g is None:
            absent.append(title)
            continue
        what = []
        if g.encoding != ref.encoding:
            what.append(f"encoding {g.encoding}")
        if g.opcode != ref.opcode:
            what.append(f"opcode {g.opcode}")
        if not g.layout_same:
            what.append("field layout")
        (differ.append(f"{title} ({', '.join(what)})") if what else same.append(title))
    parts = []
    if differ:
        parts.append("Not the same in every generation: " + ", ".join(differ) + ".")
    else:
        parts.append("The same in every generation that has it.")
    if same and differ:
        parts.append("The same in " + ", ".join(same) + ".")
    if absent:
        parts.append("Not in " + ", ".join(absent) + ".")
    return " ".join(parts)
