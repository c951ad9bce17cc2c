"""The Examples section of AMD instruction pages (the typed page's ``examples``): text and rich renderers."""

from __future__ import annotations

from ..page.model import InstructionPage
from .text import table

HEADERS = ["example", "bytes", "encoding", "verified"]


def rows(page: InstructionPage) -> list[list[str]]:
    return [[x.text, x.bytes, x.encoding or "", x.verified_by] for x in page.examples or []]


def text_lines(page: InstructionPage) -> list[str]:
    if not page.examples:
        return []
    return ["Examples:"] + ["  " + line for line in table(HEADERS, rows(page))]


def print_rich(page: InstructionPage, console) -> None:
    from rich.table import Table
    from rich.text import Text

    if not page.examples:
        return
    t = Table(title="Examples", title_justify="left", header_style="bold cyan")
    for h in HEADERS:
        t.add_column(h)
    for r in rows(page):
        t.add_row(Text(r[0], style="bold"), Text(r[1], style="green"), r[2], Text(r[3], style="dim"))
    console.print(t)
