"""Optional feature packages (codec, semantics, PTX, web, ...): import one if it is present.

Each issue's package plugs into the shared mechanisms (CLI commands, store loaders,
the page builders' sections, the renderers' section modules) by module name; a build without one of them simply lacks
that feature.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def optional_module(name: str) -> ModuleType | None:
    """The module, or None when it (or a package above it) does not exist.

    An ImportError raised *inside* an existing module is a bug and propagates.
    """
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            return None
        raise
