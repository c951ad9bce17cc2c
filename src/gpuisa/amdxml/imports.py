"""The user's imported architectures (``$GPUISA_HOME/imports/amd``) as the store's loader sees them.

Only ``<known architecture>.json`` files are candidates; dot-files (the safe writer's temporaries, the
lock) are not looked at; anything else is ignored and named in the one-line note the store prints.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import archs
from ..errors import echo
from ..store import imports_dir


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
