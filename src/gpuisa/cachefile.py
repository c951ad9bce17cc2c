"""Writing a file of the user's cache folder: whole or not at all (a temporary file renamed over it), and
never an error -- a cache that cannot be written is simply made again by the next process.  (No imports
beyond ``os``: the PTX checker's start-up uses it.)"""

from __future__ import annotations

import os


def write_cache_file(path, data: bytes) -> bool:
    """Write ``data`` to ``path`` (its folder made first) through a temporary file renamed over it; False
    where it cannot be written (a read-only home)."""
    path = os.fspath(path)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        return False
