"""Rich terminal rendering (tables, colours) of the typed instruction page, as render.text."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..page.codec import to_json
from ..page.model import InstructionPage
from .text import (
    OPERAND_HEADERS,
    OPTIONAL_SECTIONS,
    as_page,
    category_text,
    encoding_title,
    field_rows,
    flags_text,
    generation_rows,
    isa_kind_text,
    operand_rows,
    section_module,
    source_label,
)


def _table(title: str | None, headers: list[str], rows: list[list[str]], styles: dict[int, str] | None = None) -> Table:
    t = Table(title=title, title_justify="left", header_style="bold cyan", show_lines=False)
    for h in headers:
        t.add_column(h)
    for r in rows:
        t.add_row(*[Text(c, style=(styles or {}).get(i, "")) for i, c in enumerate(r)])
    return t


def print_page(page: InstructionPage | dict, console: Console | None = None) -> None:
    page = as_page(page)
    c = console or Console()
    c.print(Text.assemble((page.name, "bold yellow"), "  ", (isa_kind_text(page), "magenta"), " | ",
                          (page.arch_title, "bold green"), " | ", category_text(page.category)))
    c.print(page.summary)
    if page.description:
        c.print(Text(f"Description ({page.description_source or 'vendor text'}): ", style="bold")
                + Text(page.description))
    if page.flags:
        c.print(Text("Flags: ", style="bold") + Text(flags_text(page.flags)))
    if page.subgroup:
        c.print(Text("Functional subgroup: ", style="bold") + Text(page.subgroup))
    if page.isa_kind == "virtual":
        _optional_sections(page, c)
        _sources(page, c)
        return
    for enc in page.encodings:
        if enc.width is None:
            c.print(Text(encoding_title(enc).removeprefix("Encoding "), style="italic"))
            continue
        title = (f"{enc.name}  {enc.width} bits  opcode {enc.opcode}  identifier {enc.identifier}"
                 + (f"  [{enc.condition}]" if enc.condition != "default" else ""))
        c.print(_table(title, ["field", "bits", "fixed"], field_rows(enc), {2: "green"}))
        if enc.syntax:
            c.print(Text("  LLVM syntax: ", style="dim") + Text(enc.syntax, style="bold"))
    c.print(_table("Operands", OPERAND_HEADERS, operand_rows(page.operands), {0: "bold", 5: "yellow", 6: "dim"}))
    c.print(Text("Targets: ", style="bold") + Text(", ".join(page.targets)))
    c.print(_table("Across generations", ["arch", "encoding", "opcode", "layout"], generation_rows(page)))
    if page.generation_summary:
        c.print(page.generation_summary)
    _optional_sections(page, c)
    _sources(page, c)


def _optional_sections(page: InstructionPage, c: Console) -> None:
    for key in OPTIONAL_SECTIONS:
        if getattr(page, key):
            mod = section_module(key)
            if mod:
                mod.print_rich(page, c)
            else:
                c.print(Text(key.capitalize(), style="bold"), to_json(getattr(page, key)))


def _sources(page: InstructionPage, c: Console) -> None:
    c.print(Text("Sources", style="bold"))
    for s in page.sources:
        c.print(f"  • {source_label(s)}")


def print_table(headers: list[str], rows: list[list[str]], title: str | None = None) -> None:
    Console().print(_table(title, headers, rows))
