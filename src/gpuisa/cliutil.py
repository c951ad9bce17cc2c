"""Helpers every command line shares (the main CLI and the feature packages' plugins): open the store with a
progress bar on a terminal, print a table as rich or plain text."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (typing's import costs `gpuisa ptx check --file` start-up: for mypy only)
if TYPE_CHECKING:
    from typing import Any


def open_store():
    """The user's store, built on first use (a progress bar on a terminal)."""
    from .store import Store, default_db_path

    if sys.stderr.isatty():
        path = default_db_path(progress=progress_printer())
    else:
        path = default_db_path()
    return Store(path)


def progress_printer():
    """A ``progress(name, i, n)`` callback drawing a transient rich progress bar."""
    from rich.progress import Progress

    state: dict[str, Any] = {}  # "p": the Progress, "t": its task

    def update(name: str, i: int, n: int) -> None:
        if "p" not in state:
            state["p"] = Progress(transient=True)
            state["p"].start()
            state["t"] = state["p"].add_task("building the gpuisa store", total=n)
        state["p"].update(state["t"], completed=i, description=f"building store: {name}")
        if name == "done":
            state["p"].stop()

    return update


def rows_out(headers: list[str], rows: list[list[str]], title: str | None = None) -> None:
    """A table on stdout: rich on a terminal, aligned plain text otherwise."""
    if sys.stdout.isatty():
        from .render.terminal import print_table

        print_table(headers, rows, title)
    else:
        from .render.text import table

        if title:
            print(title)
        print("\n".join(table(headers, rows)))
