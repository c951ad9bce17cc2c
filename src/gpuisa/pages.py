"""Instruction pages: which instruction a name means (``resolve``) and its page as JSON (``build_page``).

The page itself is the typed model of ``gpuisa.page`` (built in one place per ISA); ``build_page``
returns its JSON, the contract of ``gpuisa show --json`` (schema: ``schema/instruction-page.schema.json``).
"""

from __future__ import annotations

import difflib

from . import archs
from .page.amd import field_json  # noqa: F401  (the JSON of one encoding field, for the web's layouts)
from .store import Store


class NotFound(LookupError):
    """An instruction that is not in the store (message includes close matches)."""


def _close(name: str, candidates: list[str]) -> list[str]:
    """Close matches, keeping only those nearly as close as the best one."""
    scored = []
    for c in set(candidates):
        m = difflib.SequenceMatcher(None, name, c)
        if m.real_quick_ratio() >= 0.6 and m.quick_ratio() >= 0.6:
            r = m.ratio()
            if r >= 0.6:
                scored.append((r, c))
    scored.sort(key=lambda t: (-t[0], t[1]))
    if not scored:
        return []
    best = scored[0][0]
    return [c for r, c in scored[:3] if r >= best - 0.05]


def resolve(store: Store, name: str, arch: str | None, isa: str | None = None) -> tuple[str, str]:
    """(instruction name, arch key); default arch = newest that has it (within ``isa`` if given)."""
    key = name.strip().lower()
    have = store.instruction_archs(key)
    if isa:
        have = [a for a in have if archs.by_name(a).isa == isa]
    if arch is not None:
        a = archs.resolve_arch(arch)
        if a.name in have:
            return key, a.name
        if store.arch_row(a.name) is None:
            raise NotFound(f"architecture {a.title} is not in the store (import it first: gpuisa import-amd)")
        close = _close(key, store.all_names(a.name))
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        where = f" (it exists in {', '.join(archs.by_name(x).title for x in archs.newest_first(have))})" if have else ""
        raise NotFound(f"no instruction {name} in {a.name}{where}{hint}")
    if not have:
        close = _close(key, store.all_names())
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise NotFound(f"no instruction {name} in any architecture{hint}")
    return key, archs.newest_first(have)[0]


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
