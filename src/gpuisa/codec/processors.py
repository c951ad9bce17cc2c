"""What a processor adds to or lacks from its generation's codec tables (the loader of ``data/processors.json``,
which ``python -m gpuisa.regen.processors`` measures with llvm-mc-22).

A processor with feature flags in the registry (``archs.PROCESSOR_FEATURES``: gfx1011's ``dot``) is encoded and
decoded with its generation's tables, except for the instructions it adds (taken from the donor architecture
whose words and texts llvm-mc-22 gives it unchanged) and those it lacks (refused, decoded as invalid).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import NamedTuple

from .. import archs
from ..errors import UserError

PATH = Path(__file__).resolve().parent / "data" / "processors.json"
_SUFFIX = re.compile(r"(_e32|_e64|_dpp|_sdwa|_e64_dpp)$")


class Variant(NamedTuple):
    target: str  # gfx1011
    arch: str  # rdna1
    adds: dict[str, str]  # instruction name -> donor architecture
    lacks: frozenset[str]


@functools.cache
def _facts() -> dict[str, dict]:
    try:
        doc = json.loads(PATH.read_text())
        return dict(doc["processors"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"cannot read {PATH.name}: {exc} (python -m gpuisa.regen.processors writes it)") from None


def variant(key: str) -> Variant | None:
    """The variant of a codec key (``archs.codec_key``): None for an architecture name or a processor without
    feature flags."""
    flags = archs.PROCESSOR_FEATURES.get(key)
    if not flags:
        return None
    got = _facts().get(key)
    arch = archs.resolve_arch(key).name
    if got is None:
        return Variant(key, arch, {}, frozenset())
    return Variant(key, arch, dict(got["adds"]), frozenset(got["lacks"]))


def instruction_name(mnemonic: str) -> str:
    """The instruction of an LLVM mnemonic: its _e32/_e64/_dpp/_sdwa form suffix removed."""
    return _SUFFIX.sub("", mnemonic)


def only_on(arch: str, name: str) -> list[str]:
    """The processors of ``arch`` that add instruction ``name`` (its generation's default target lacks it)."""
    return sorted(p for p, v in _facts().items() if v["arch"] == arch and name in v["adds"])
