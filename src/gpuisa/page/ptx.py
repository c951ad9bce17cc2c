"""The PTX page builder: every section of a PTX (virtual ISA) instruction page is assembled here.

Facts come from the store (the catalog's page: syntax forms, operands, targets, sources) and from the
feature packages, each optional: semantics (``ptx.pages``) and related AMD instructions (``crossmap.pages``).
A virtual ISA has no encodings and no generations.
"""

from __future__ import annotations

import json

from .. import archs
from ..features import optional_module
from .codec import from_json
from .model import Form, InstructionPage, Operand, Semantics, Source, isa_kind
from .related import related


def build(store, row, arch: str) -> InstructionPage:
    """The page of the store's PTX instruction ``row``."""
    stored = json.loads(row["page"])
    a = archs.by_name(arch)
    name = row["name"]
    return InstructionPage(
        name=name, vendor=a.vendor, isa=a.isa, isa_kind=isa_kind(a.kind), arch=a.name, arch_title=a.title,
        category=row["category"], subgroup=row["subgroup"], summary=row["summary"], description=row["description"],
        description_source=None, encodings=[],
        operands=[from_json(Operand, o, "operands") for o in stored.get("operands", [])],
        targets=list(stored.get("targets", [])), flags={}, generations={}, generation_summary="",
        sources=[from_json(Source, s, "sources") for s in stored.get("sources", [])],
        isa_note=stored.get("isa_note"), family=stored.get("family"),
        forms=[from_json(Form, f, "forms") for f in stored.get("forms", [])],
        ptx_version=stored.get("ptx_version"), min_target=stored.get("min_target"),
        semantics=_semantics(name, row["category"]), related=related(a.isa, name, a.name))


def _semantics(name: str, category: str) -> Semantics | None:
    mod = optional_module("gpuisa.ptx.pages")
    sem = mod.ptx_semantics(name, category) if mod is not None else None
    return from_json(Semantics, sem, "semantics") if sem else None
