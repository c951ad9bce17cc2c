"""The Related section: PTX concepts on AMD pages, AMD instructions on PTX pages (text and rich)."""

from __future__ import annotations

from ..crossmap.render_words import proof_words


def _title(page: dict) -> str:
    return "Related AMD instructions" if page.get("isa") == "ptx" else "Related PTX concepts"


def _line(page: dict, e: dict) -> list[str]:
    if page.get("isa") == "ptx":
        head = e["form"] or "(none)"
        if e.get("archs"):
            head += f"  [{', '.join(e['archs'])}]"
        other = e.get("ptx_form")
    else:
        head = e["form"]
        other = e.get("amd_form")
    lines = [f"{head} - {e['relation']}" + (f" (for {other})" if other and page.get("isa") != "ptx" else "")]
    if page.get("isa") == "ptx" and other:
        lines[0] += f" (for {other})"
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
    out = [f"{_title(page)}:"]
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
    console.print(Text(_title(page), style="bold cyan"))
    for e in related:
        first, *rest = _line(page, e)
        console.print(Text("  " + first, style="bold"))
        for x in rest:
            console.print(Text("      " + x, style="dim" if x.startswith(("checked", "listed")) else ""))
