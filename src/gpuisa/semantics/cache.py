"""Small on-disk caches that keep ``gpuisa show`` fast: the pseudocode tables as read from
the installed wheel (so the wheel's Python file is parsed once) and each instruction's
coverage result.  They live in the user's cache folder (never in the repository) and are
keyed by the source file's size and mtime and by this package's code (its contents), so any change
rebuilds them.  Writes go through the one safe writer (gpuisa.cachefile).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path


def cache_dir() -> Path:
    """The semantics caches' folder under the one cache root (``cachefile.cache_path``)."""
    from ..cachefile import cache_path

    return Path(cache_path("semantics"))


@functools.lru_cache(maxsize=1)
def code_version() -> str:
    """This package's code by content (not by times: a fresh checkout of the same code keeps the caches)."""
    h = hashlib.sha1()
    here = Path(__file__).parent
    for p in sorted(here.glob("*.py")) + sorted(here.glob("*.lark")):
        h.update(f"{p.name}:".encode() + p.read_bytes())
    return h.hexdigest()[:12]


def file_key(path: Path) -> str:
    st = path.stat()
    return hashlib.sha1(f"{path}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:12]


def load(name: str) -> dict | None:
    try:
        return json.loads((cache_dir() / name).read_text())
    except (OSError, ValueError):
        return None


def save(name: str, data: dict) -> None:
    from ..cachefile import write_cache_file

    write_cache_file(cache_dir() / name, json.dumps(data).encode())  # (a read-only home only costs speed)
