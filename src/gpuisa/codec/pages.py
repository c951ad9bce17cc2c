"""The Examples section's facts of AMD instruction pages (``examples_for``; ``page.amd`` builds the section).

Examples are committed data (``gpuisa/data/amd/examples/<arch>.json``) made by
``python -m gpuisa.data.amd.examples.generate``: each carries the verdict of
the llvm-mc-22 run done at generation time, or "round-trip only".
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "data" / "amd" / "examples"


@functools.lru_cache(maxsize=None)
def _examples(arch: str) -> dict[str, list[dict]]:
    path = EXAMPLES_DIR / f"{arch}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text())["examples"]


def examples_for(arch: str, name: str) -> list[dict]:
    return [dict(x) for x in _examples(arch).get(name, [])]

