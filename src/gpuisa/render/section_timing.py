"""The Timing section of AMD instruction pages (the typed page's ``timing``, LLVM's scheduling model): text and
rich renderers."""

from __future__ import annotations

from ..page.model import InstructionPage, Timing
from .text import table

HEADERS = ["encoding", "latency", "rthroughput", "uops", "resources"]


def rows(t: Timing) -> list[list[str]]:
    return [[e.encoding, str(e.latency), f"{e.rthroughput:.2f}", str(e.uops),
             ", ".join(f"{r} {c:g}" for r, c in e.resources.items())] for e in t.encodings]


def _caption(t: Timing) -> str:
    return f"model, not measurement: {t.model}"


def _missing(t: Timing) -> list[str]:
    return [f"Not in the timing facts: {m.encoding} ({m.reason})" for m in t.missing or []]


def text_lines(page: InstructionPage) -> list[str]:
    t = page.timing
    if not t:
        return []
    out = [f"Timing ({_caption(t)}):"]
    if t.encodings:
        out += ["  " + line for line in table(HEADERS, rows(t))]
    return out + ["  " + m for m in _missing(t)]


def print_rich(page: InstructionPage, console) -> None:
    from rich.table import Table
    from rich.text import Text

    t = page.timing
    if not t:
        return
    if t.encodings:
        tab = Table(title="Timing", title_justify="left", header_style="bold cyan", caption=_caption(t),
                    caption_justify="left")
        for h in HEADERS:
            tab.add_column(h)
        for r in rows(t):
            tab.add_row(r[0], Text(r[1], style="bold"), r[2], r[3], Text(r[4], style="dim"))
        console.print(tab)
    else:
        console.print(Text("Timing", style="bold"), f"({_caption(t)})")
    for m in _missing(t):
        console.print(Text("  " + m, style="italic"))
