"""Page extender: the Examples section of AMD instruction pages.

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


def extend(page: dict) -> None:
    if page.get("isa") != "amdgpu":
        return
    ex = examples_for(page["arch"], page["name"])
    if ex:
        page["examples"] = ex
