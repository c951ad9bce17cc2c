"""Where the store's inputs and outputs live: the data folder, the user's imports, the in-memory store's name.

Below both ``store.py`` and ``amdxml/imports.py`` (the store's loader reads the user's imports; the imports
module checks a built store's files), so neither has to import the other to find a folder.
"""

from __future__ import annotations

from pathlib import Path

MEMORY_DB = Path("file:gpuisa-store?mode=memory&cache=shared")  # (a name, not a file: see store.build_in_memory)


def home_dir() -> Path:
    """The data folder: ``$GPUISA_HOME``, else the platform's user data folder (``cachefile.data_home``)."""
    from .cachefile import data_home

    return Path(data_home())


def imports_dir() -> Path:
    """Where ``gpuisa import-amd`` keeps the user's imported architectures (normalised facts)."""
    return home_dir() / "imports" / "amd"


def db_uri(db: Path) -> str:
    """The read-only SQLite URI of a store file (the in-memory store's own name as it is)."""
    from urllib.parse import quote

    return str(db) if db == MEMORY_DB else f"file:{quote(str(db))}?mode=ro"
