"""The Related section of any page: the relations the ISA registry (``isas.related``) answers for it."""

from __future__ import annotations

from .. import isas
from .codec import from_json
from .model import Relation


def related(isa: str, name: str, arch: str | None) -> list[Relation] | None:
    return [from_json(Relation, e, "related") for e in isas.related(isa, name, arch)] or None
