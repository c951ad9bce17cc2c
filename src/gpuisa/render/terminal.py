"""Rich terminal rendering (tables, colours) of the same page models as render.text."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .text import (OPTIONAL_SECTIONS, category_text, field_rows, flags_text, generation_rows, isa_kind_text,
                   operand_rows, section_module, source_label)


def _table(title: str | None, headers: list[str], rows: list[list[str]], styles: dict[int, str] | None = None) -> Table:
    t = Table(title=title, title_justify="left", header_style="bold cyan", show_lines=False)
    for h in headers:
        t.add_column(h)
    for r in rows:
        t.add_row(*[Text(c, style=(styles or {}).get(i, "")) for i, c in enumerate(r)])
    return t


def print_page(page: dict, console: Console | None = None) -> None:
    c = console or Console()
    c.print(Text.assemble((page["name"], "bold yellow"), "  ", (isa_kind_text(page), "magenta"), " | ",
                          (page["arch_title"], "bold green"), " | ", category_text(page["category"])))
    c.print(page["summary"])
    if page.get("description"):
        c.print(Text(f"Description ({page.get('description_source') or 'vendor text'}): ", style="bold")
                + Text(page["description"]))
    if page.get("flags"):
        c.print(Text("Flags: ", style="bold") + Text(flags_text(page["flags"])))
    if page.get("subgroup"):
        c.print(Text("Functional subgroup: ", style="bold") + Text(page["subgroup"]))
    if page["isa_kind"] == "virtual":
        _optional_sections(page, c)
        _sources(page, c)
        return
    for enc in page["encodings"]:
        if enc["width"] is None:
            c.print(Text(f"{enc['name']} [{enc['condition']}] opcode {enc['opcode']}: a variant whose layout the "
                         "loaded sources do not define", style="italic"))
            continue
        title = (f"{enc['name']}  {enc['width']} bits  opcode {enc['opcode']}  identifier {enc['identifier']}"
                 + (f"  [{enc['condition']}]" if enc["condition"] != "default" else ""))
        c.print(_table(title, ["field", "bits", "fixed"], field_rows(enc), {2: "green"}))
        if enc["syntax"]:
            c.print(Text("  LLVM syntax: ", style="dim") + Text(enc["syntax"], style="bold"))
    c.print(_table("Operands", ["operand", "role", "kind", "format", "size", "", "note"], operand_rows(page["operands"]),
                   {0: "bold", 5: "yellow", 6: "dim"}))
    c.print(Text("Targets: ", style="bold") + Text(", ".join(page["targets"])))
    c.print(_table("Across generations", ["arch", "encoding", "opcode", "layout"], generation_rows(page)))
    if page["generation_summary"]:
        c.print(page["generation_summary"])
    _optional_sections(page, c)
    _sources(page, c)


def _optional_sections(page: dict, c: Console) -> None:
    for key in OPTIONAL_SECTIONS:
        if page.get(key):
            mod = section_module(key)
            if mod:
                mod.print_rich(page, c)
            else:
                c.print(Text(key.capitalize(), style="bold"), page[key])


def _sources(page: dict, c: Console) -> None:
    c.print(Text("Sources", style="bold"))
    for s in page["sources"]:
        c.print(f"  • {source_label(s)}")


def print_table(headers: list[str], rows: list[list[str]], title: str | None = None) -> None:
    Console().print(_table(title, headers, rows))
