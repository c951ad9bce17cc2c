"""Instruction pages: which instruction a name means (``resolve``) and its page as JSON (``build_page``).

The page itself is the typed model of ``gpuisa.page`` (built in one place per ISA); ``build_page``
returns its JSON, the contract of ``gpuisa show --json`` (schema: ``schema/instruction-page.schema.json``).
"""

from __future__ import annotations

from .page.amd import field_json  # noqa: F401  (the JSON of one encoding field, for the web's layouts)
from .page.resolve import NotFound, resolve  # noqa: F401  (where a name is looked up; NotFound for callers)
from .store import Store


def build_model(store: Store, name: str, arch: str | None = None, isa: str | None = None):
    """The typed page (``gpuisa.page.model.InstructionPage``) of an instruction: built from the store, or by
    the ``page`` hook of an ISA whose pages come from the registry (``isa``, or ``arch`` one of its own)."""
    from . import isas

    hooked = isas.get(isa) if isa in isas.keys() else (isas.with_own_archs(arch) if arch else None)
    if hooked is not None and hooked.pages_from_hook():
        from .page.codec import from_json
        from .page.model import InstructionPage

        page = hooked.build_page(store, name.strip().lower(), arch)
        page = page if isinstance(page, InstructionPage) else from_json(InstructionPage, page)
        if page.related is None:  # the relations the registry knows for it, as on every other page
            from .page.related import related

            page.related = related(hooked.key, page.name, page.arch)
        return page
    from .page import build

    return build(store, name, arch, isa)


def build_page(store: Store, name: str, arch: str | None = None, isa: str | None = None) -> dict:
    """The JSON of an instruction's page (``gpuisa show --json``)."""
    return build_model(store, name, arch, isa).to_json()
