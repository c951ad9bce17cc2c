"""The Related section (text and rich): the instructions of other ISAs that have a relation to this one.

Entries are the typed page's ``related`` (``page.model.Relation``, from the ISA registry's relations,
``isas.related``); each names its ISA, and the section title names every ISA that appears ("Related PTX
concepts", "Related AMD instructions").
"""

from __future__ import annotations

from .. import isas
from ..crossmap.render_words import proof_words
from ..page.codec import to_json
from ..page.model import InstructionPage, Relation


def title(page: InstructionPage) -> str:
    named = {e.isa for e in page.related or []}
    labels = [i.related_label for i in isas.all_isas() if i.key in named]
    return "Related " + (" and ".join(labels) if labels else "instructions")


def _line(page: InstructionPage, e: Relation) -> list[str]:
    head = e.form or "(none)"
    if len({x.isa for x in page.related or []}) > 1:
        head = f"{e.isa}: {head}"
    archs = [a for a in e.archs if a != e.isa]  # a virtual ISA's one "architecture" is itself
    if archs:
        head += f"  [{', '.join(archs)}]"
    lines = [f"{head} - {e.relation}" + (f" (for {e.this_form})" if e.this_form else "")]
    if e.restriction:
        lines.append(f"restriction: {e.restriction}")
    if e.error_bound:
        lines.append(f"bound: {e.error_bound}")
    if e.sequence and e.sequence.steps:
        lines.append(f"sequence ({e.sequence.side.upper()}): " + " ; ".join(s.rstrip(";") for s in e.sequence.steps))
    if e.note:
        lines.append(e.note)
    words = proof_words(to_json(e))
    if words:
        lines.append(words)
    return lines


def text_lines(page: InstructionPage) -> list[str]:
    if not page.related:
        return []
    out = [f"{title(page)}:"]
    for e in page.related:
        first, *rest = _line(page, e)
        out.append("  " + first)
        out += ["      " + x for x in rest]
    return out


def print_rich(page: InstructionPage, console) -> None:
    from rich.text import Text

    if not page.related:
        return
    console.print(Text(title(page), style="bold cyan"))
    for e in page.related:
        first, *rest = _line(page, e)
        console.print(Text("  " + first, style="bold"))
        for x in rest:
            console.print(Text("      " + x, style="dim" if x.startswith(("checked", "listed")) else ""))
