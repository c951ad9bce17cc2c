"""The Examples section of AMD instruction pages: text and rich renderers."""

from __future__ import annotations

from .text import table

HEADERS = ["example", "bytes", "encoding", "verified"]


def rows(page: dict) -> list[list[str]]:
    return [[x["text"], x["bytes"], x.get("encoding", ""), x["verified_by"]] for x in page.get("examples", [])]


def text_lines(page: dict) -> list[str]:
    if not page.get("examples"):
        return []
    return ["Examples:"] + ["  " + line for line in table(HEADERS, rows(page))]


def print_rich(page: dict, console) -> None:
    from rich.table import Table
    from rich.text import Text

    if not page.get("examples"):
        return
    t = Table(title="Examples", title_justify="left", header_style="bold cyan")
    for h in HEADERS:
        t.add_column(h)
    for r in rows(page):
        t.add_row(Text(r[0], style="bold"), Text(r[1], style="green"), r[2], Text(r[3], style="dim"))
    console.print(t)
