"""The syntax-forms section of virtual-ISA (PTX) pages (the typed page's ``forms``): text and rich renderers."""

from __future__ import annotations

from ..page.model import Form, InstructionPage
from .text import table

HEADERS = ["syntax", "data types", "state spaces", "modifiers", "PTX", "min target"]
TYPE_SETS = (".type", ".dtype", ".atype", ".btype", ".ctype", ".stype", ".itype")


def _types(form: Form) -> str:
    vals: list[str] = []
    for k, vs in form.value_sets.items():
        if k in TYPE_SETS or k.endswith("type"):
            vals += [v for v in vs if v not in vals]
    return " ".join(vals)


def form_rows(page: InstructionPage) -> list[list[str]]:
    return [[f.syntax, _types(f), " ".join(f.state_spaces), " ".join(f.modifiers), f.ptx_version or "?",
             f.min_target or "?"] for f in page.forms or []]


def _header(page: InstructionPage) -> list[str]:
    out = []
    if page.isa_note:
        out.append(page.isa_note)
    if page.ptx_version or page.min_target:
        out.append(f"PTX ISA version introduced: {page.ptx_version or '?'}; minimum target: "
                   f"{page.min_target or '?'}")
    return out


def _value_set_lines(page: InstructionPage) -> list[str]:
    seen: dict[str, str] = {}
    for f in page.forms or []:
        for k, vs in f.value_sets.items():
            text = ", ".join(vs[:20]) + (f", … ({len(vs)})" if len(vs) > 20 else "")
            seen.setdefault(f"{k} = {{ {text} }}", "")
    return list(seen)


def _examples(page: InstructionPage) -> list[str]:
    ex = []
    for f in page.forms or []:
        ex += f.examples[:1]
    return ex[:8]


def text_lines(page: InstructionPage) -> list[str]:
    out = _header(page) + ["", "Syntax forms:"]
    out += ["  " + line for line in table(HEADERS, form_rows(page))]
    vs = _value_set_lines(page)
    if vs:
        out += ["", "Value sets:"] + ["  " + v for v in vs]
    ex = _examples(page)
    if ex:
        out += ["", "Examples (accepted by ptxas):"] + ["  " + e for e in ex]
    return out


def print_rich(page: InstructionPage, console) -> None:
    from rich.table import Table
    from rich.text import Text

    for line in _header(page):
        console.print(Text(line, style="italic"))
    t = Table(title="Syntax forms", title_justify="left", header_style="bold cyan")
    for h in HEADERS:
        t.add_column(h)
    for r in form_rows(page):
        t.add_row(Text(r[0], style="bold"), *r[1:])
    console.print(t)
    vs = _value_set_lines(page)
    if vs:
        console.print(Text("Value sets", style="bold"))
        for v in vs:
            console.print("  " + v)
    ex = _examples(page)
    if ex:
        console.print(Text("Examples (accepted by ptxas)", style="bold"))
        for e in ex:
            console.print("  " + e)
