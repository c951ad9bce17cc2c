"""The shared shape of the steps that each add one learned table to the codec's named tables."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from .. import archs
from ..codec.plans import DATA_DIR


def add_key(key: str, probe: Callable[[str], dict], summary: Callable[[str, dict], str],
            argv: list[str] | None = None) -> int:
    """For each architecture named on the command line (default: every one with an LLVM target), run ``probe``
    and store its result as ``key`` of ``codec/data/named_<arch>.json``; print ``summary``'s line."""
    names = (argv if argv is not None else sys.argv[1:]) or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    for name in names:
        path = DATA_DIR / f"named_{name}.json"
        doc = json.loads(path.read_text())
        doc[key] = probe(name)
        path.write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n")
        print(summary(name, doc[key]), file=sys.stderr)
    return 0
