"""Relation cards of an instruction page: one per entry of its Related section (``isas.related``), each
linking to the other ISA's page -- whichever two ISAs the relation joins."""

from __future__ import annotations

from .. import archs, isas


def _figures(checked) -> str:
    if not isinstance(checked, dict) or not checked.get("vectors"):
        return "not executed by the prover"
    where = ", ".join(archs.by_name(a).title for a in checked.get("archs") or [] if a in archs.arch_names())
    text = f"{checked.get('agreed', 0):,} of {checked['vectors']:,} random inputs agree"
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


def _link_arch(page: dict, have: list[str]) -> str | None:
    """The other page's architecture: this page's where the relation holds there, else the newest."""
    if page.get("arch") in have:
        return page["arch"]
    known = [a for a in have if _known(a)]
    return archs.newest_first(known)[0] if known else (have[0] if have else None)


def relation_cards(page: dict, present: set[str], form_anchor=None) -> list[dict]:
    """One card per relation of this page, linking to the other ISA's page (to the row of its forms table
    that the form is written in where the other ISA has a checker: ``form_anchor(name, text)`` names it)."""
    cards = []
    for r in page.get("related") or []:
        if not isinstance(r, dict) or not r.get("name"):
            continue
        key = r.get("isa") or ""
        other = isas.get(key) if key in isas.keys() else None
        entry_archs = [a for a in r.get("archs") or [] if a != key]  # a virtual ISA's one "architecture" is itself
        arch = _link_arch(page, [a for a in r.get("archs") or [key] if a in present])
        anchor = form_anchor(r["name"], r["form"]) if form_anchor and r.get("form") and other and other.can("check") \
            else None
        checked = r.get("checked") or {}
        cx = checked.get("counterexample") if isinstance(checked, dict) else None
        cards.append({"name": r["name"], "isa": key, "isa_short": other.short if other else key,
                      "arch": arch, "fragment": anchor or "relations", "vendor": r.get("vendor"),
                      "this_form": r.get("this_form"), "other_form": r.get("form"), "relation": r.get("relation"),
                      "restriction": r.get("restriction"), "domain": r.get("domain"),
                      "error_bound": r.get("error_bound"), "sequence": r.get("sequence"), "note": r.get("note"),
                      "figures": _figures(checked), "counterexample": cx,
                      "archs": [_title(a) for a in entry_archs]})
    return cards
