"""The typed instruction page (``model``), its builders (one per ISA: ``amd``, ``ptx``), its JSON
(``codec``) and the JSON schema generated from it (``schema``).

``build(store, name, arch, isa)`` resolves the instruction and hands its store row to the builder of
its ISA (the ISA registry's ``builder``); every renderer (terminal, text, HTML, ``show --json``, the
JSON API) draws what it returns.
"""

from __future__ import annotations

from .. import archs, isas
from .model import InstructionPage
from .resolve import NotFound, resolve


def build(store, name: str, arch: str | None = None, isa: str | None = None) -> InstructionPage:
    """The page of instruction ``name`` (on ``arch``; default: the newest architecture that has it,
    within ``isa`` if given).  Raises ``NotFound`` (``page.resolve``) with close matches."""
    key, arch_key = resolve(store, name, arch, isa)
    row = store.instruction(key, arch_key)
    a = archs.by_name(arch_key)
    builder = isas.get(a.isa).builder
    if builder is None:
        raise NotFound(f"{name}: {a.title} instructions have no page")
    return isas.load(builder)(store, row, arch_key)


__all__ = ["InstructionPage", "build"]
