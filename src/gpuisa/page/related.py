"""The Related section of any page: the relations the ISA registry (``isas.related``) answers for it."""

from __future__ import annotations

from ..features import optional_module
from .codec import from_json
from .model import Relation


def related(isa: str, name: str, arch: str | None) -> list[Relation] | None:
    registry = optional_module("gpuisa.isas")
    if registry is not None:
        entries = registry.related(isa, name, arch)
    else:  # (before the registry: the AMD <-> PTX pair directly)
        pair = optional_module("gpuisa.crossmap.pages")
        if pair is None:
            entries = []
        else:
            entries = pair.related_for_ptx(name) if isa == "ptx" else pair.related_for_amd(name, arch)
    return [from_json(Relation, e, "related") for e in entries] or None
