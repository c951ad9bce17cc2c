"""The Related section (text and rich): the instructions of other ISAs that have a relation to this one.

Entries come from the ISA registry's relations (``isas.related``); each names its ISA, and the section
title names every ISA that appears ("Related PTX concepts", "Related AMD instructions").
"""

from __future__ import annotations

from ..crossmap.render_words import proof_words
from ..isas import related_isas


def title(page: dict) -> str:
    labels = [i.related_label for i in related_isas(page.get("related") or [])]
    return "Related " + (" and ".join(labels) if labels else "instructions")


def _line(page: dict, e: dict) -> list[str]:
    head = e.get("form") or "(none)"
    many = len({x.get("isa") for x in page.get("related") or [] if isinstance(x, dict)}) > 1
    if many:
        head = f"{e.get('isa')}: {head}"
    archs = [a for a in e.get("archs") or [] if a != e.get("isa")]  # a virtual ISA's one "architecture" is itself
    if archs:
        head += f"  [{', '.join(archs)}]"
    lines = [f"{head} - {e['relation']}" + (f" (for {e['this_form']})" if e.get("this_form") else "")]
    if e.get("restriction"):
        lines.append(f"restriction: {e['restriction']}")
    if e.get("error_bound"):
        lines.append(f"bound: {e['error_bound']}")
    seq = e.get("sequence")
    if seq and seq.get("steps"):
        lines.append(f"sequence ({seq['side'].upper()}): " + " ; ".join(s.rstrip(";") for s in seq["steps"]))
    if e.get("note"):
        lines.append(e["note"])
    words = proof_words(e)
    if words:
        lines.append(words)
    return lines


def text_lines(page: dict) -> list[str]:
    related = page.get("related") or []
    if not related:
        return []
    out = [f"{title(page)}:"]
    for e in related:
        first, *rest = _line(page, e)
        out.append("  " + first)
        out += ["      " + x for x in rest]
    return out


def print_rich(page: dict, console) -> None:
    from rich.text import Text

    related = page.get("related") or []
    if not related:
        return
    console.print(Text(title(page), style="bold cyan"))
    for e in related:
        first, *rest = _line(page, e)
        console.print(Text("  " + first, style="bold"))
        for x in rest:
            console.print(Text("      " + x, style="dim" if x.startswith(("checked", "listed")) else ""))
