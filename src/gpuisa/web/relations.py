"""Relation cards of an instruction page: one per entry of its Related section (``isas.related``), each
linking to the other ISA's page -- whichever two ISAs the relation joins."""

from __future__ import annotations

from .. import archs, isas
from ..page.codec import to_json
from ..page.model import Checked, InstructionPage


def _figures(checked: Checked | None) -> str:
    if checked is None or not checked.vectors:
        return "not executed by the prover"
    where = ", ".join(archs.by_name(a).title for a in checked.archs if a in archs.arch_names())
    text = f"{checked.agreed:,} of {checked.vectors:,} random inputs agree"
    return text + (f" ({where})" if where else "")


def _known(arch: str) -> bool:
    """An architecture archs.py lists (an ISA registered with architectures of its own has others)."""
    try:
        archs.by_name(arch)
    except KeyError:
        return False
    return True


def _title(arch: str) -> str:
    return archs.by_name(arch).title if _known(arch) else arch


def _link_arch(page: InstructionPage, have: list[str]) -> str | None:
    """The other page's architecture: this page's where the relation holds there, else the newest."""
    if page.arch in have:
        return page.arch
    known = [a for a in have if _known(a)]
    return archs.newest_first(known)[0] if known else (have[0] if have else None)


def relation_cards(page: InstructionPage, present: set[str], form_anchor=None) -> list[dict]:
    """One card per relation of the typed page, linking to the other ISA's page (to the row of its forms
    table that the form is written in where the other ISA has a checker: ``form_anchor(name, text)``)."""
    cards = []
    for r in page.related or []:
        if not r.name:
            continue
        other = isas.get(r.isa) if r.isa in isas.keys() else None
        entry_archs = [a for a in r.archs if a != r.isa]  # a virtual ISA's one "architecture" is itself
        arch = _link_arch(page, [a for a in r.archs or [r.isa] if a in present])
        anchor = form_anchor(r.name, r.form) if form_anchor and r.form and other and other.can("check") else None
        cx = r.checked.counterexample if r.checked else None
        cards.append({"name": r.name, "isa": r.isa, "isa_short": other.short if other else r.isa,
                      "arch": arch, "fragment": anchor or "relations", "vendor": r.vendor,
                      "this_form": r.this_form, "other_form": r.form, "relation": r.relation,
                      "restriction": r.restriction, "domain": r.domain, "error_bound": r.error_bound,
                      "sequence": to_json(r.sequence) if r.sequence else None, "note": r.note,
                      "figures": _figures(r.checked), "counterexample": to_json(cx) if cx else None,
                      "archs": [_title(a) for a in entry_archs]})
    return cards
