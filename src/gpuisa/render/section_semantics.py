"""The Semantics section of a page (the typed page's ``semantics``): text and terminal renderers."""

from __future__ import annotations

from .. import archs
from ..page.model import InstructionPage, Semantics


def _generations(sem: Semantics) -> list[str]:
    out = []
    for a, g in (sem.generations or {}).items():
        title = archs.by_name(a).title
        if g.same is None:
            out.append(f"{title}: has pseudocode for this instruction")
        elif g.same:
            out.append(f"{title}: the same pseudocode")
        else:
            out.append(f"{title}: different pseudocode:")
            out += ["    " + line for line in (g.diff or "").splitlines()]
    return out


def text_lines(page: InstructionPage) -> list[str]:
    sem = page.semantics
    if not sem:
        return []
    out = ["", f"Semantics ({sem.fidelity}): {sem.reason}", f"  source: {sem.source}"]
    if sem.description:
        out.append(f"  {sem.description}")
    if sem.pseudocode:
        out += ["  " + line for line in sem.pseudocode.splitlines()]
    gens = _generations(sem)
    if gens:
        out += ["  Other generations:"] + ["    " + g for g in gens]
    return out


def print_rich(page: InstructionPage, console) -> None:
    sem = page.semantics
    if not sem:
        return
    from rich.panel import Panel
    from rich.text import Text

    body = Text()
    body.append(f"{sem.fidelity}", style="bold green" if sem.fidelity == "exact" else "bold yellow")
    body.append(f": {sem.reason}\n", style="dim")
    if sem.description:
        body.append(sem.description + "\n")
    if sem.pseudocode:
        body.append(sem.pseudocode + "\n")
    for g in _generations(sem):
        body.append(g + "\n", style="dim")
    console.print(Panel(body, title="Semantics", subtitle=sem.source, title_align="left"))
