"""The user's imported architectures (``$GPUISA_HOME/imports/amd``) as the store's loader sees them.

Only ``<known architecture>.json`` files are candidates; dot-files (the safe writer's temporaries, the
lock) are not looked at; anything else is ignored and named in the one-line note (:func:`note_ignored`),
together with the candidates the store's build could not use (:func:`skipped_files`).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

from .. import archs
from ..errors import echo, one_line
from ..storepaths import db_uri, imports_dir


def usable_imports() -> tuple[dict[str, Path], list[str]]:
    """Imported architectures that look usable by name ({arch: path}) and a note for every other file.

    Dot-files (the safe writer's temporaries, the lock) are not looked at; anything else that is not
    ``<known arch>.json`` is ignored and reported.  Content is checked when the store is built.
    """
    known = set(archs.arch_names())
    found: dict[str, Path] = {}
    notes: list[str] = []
    try:
        entries = sorted(os.scandir(imports_dir()), key=lambda e: e.name)
    except OSError:
        return found, notes
    for entry in entries:
        name = entry.name
        if name.startswith("."):
            continue
        if not name.endswith(".json"):
            notes.append(f"{echo(name)} (not a .json file)")
        elif name[:-5] not in known:
            notes.append(f"{echo(name)} (not an architecture gpuisa knows)")
        elif not entry.is_file():
            notes.append(f"{echo(name)} (not a file)")
        else:
            found[name[:-5]] = Path(entry.path)
    return found, notes


def skipped_files(db: Path) -> list[list[str]]:
    """[file name, why] of every imported file the store at ``db`` could not use."""
    try:
        con = sqlite3.connect(db_uri(db), uri=True)
        try:
            row = con.execute("SELECT value FROM meta WHERE key='skipped'").fetchone()
        finally:
            con.close()
        return json.loads(row[0]) if row else []
    except (sqlite3.Error, ValueError, TypeError):
        return []


_noted = False


def note_ignored(db: Path | None) -> None:
    """One line, once per process, on stderr: the files of imports/amd the store does not use."""
    global _noted
    if _noted:
        return
    notes = usable_imports()[1]
    if db is not None:
        notes += [f"{echo(n)} ({why})" for n, why in skipped_files(db)]
    if notes:
        _noted = True
        print(one_line(f"gpuisa: note: ignoring {len(notes)} unusable file(s) in {imports_dir()}: "
                       + "; ".join(notes)), file=sys.stderr)
