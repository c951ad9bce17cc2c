"""The cross-vendor map as data: relations between AMD instructions and PTX forms.

``src/gpuisa/data/crossmap/relations.json`` is written by the project (facts from the
vendors' ISA documents, words our own); ``proofs.json`` next to it holds the figures
of ``python -m gpuisa.crossmap.prove``.  Each relation gets a stable ``id``
("AMD name ~ PTX form") and the PTX catalog name of its (first) PTX instruction.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "crossmap"
RELATIONS = DATA / "relations.json"
PROOFS = DATA / "proofs.json"
KINDS = ("equivalent", "equivalent with restrictions", "approximate", "sequence")


def ptx_text(rel: dict) -> str:
    form = rel["ptx"]["form"]
    return form if isinstance(form, str) else " ".join(form)


def relation_id(rel: dict) -> str:
    return f"{rel['amd']['form']} ~ {ptx_text(rel)}"


@functools.lru_cache(maxsize=1)
def _ptx_names() -> frozenset:
    return frozenset(p.stem for p in (DATA.parent / "ptx").glob("*.json"))


def ptx_name(text: str) -> str:
    """The catalog instruction of a PTX form: the longest dotted prefix of its opcode that is a catalog page."""
    op = text.strip().split()[0].rstrip(";")
    parts = op.split(".")
    names = _ptx_names()
    for k in range(len(parts), 0, -1):
        cand = ".".join(parts[:k])
        if cand in names:
            return cand
    return parts[0]


@functools.lru_cache(maxsize=1)
def _load() -> dict:
    data = json.loads(RELATIONS.read_text())
    for rel in data["relations"]:
        rel["id"] = relation_id(rel)
        form = rel["ptx"]["form"]
        first = form if isinstance(form, str) else form[0]
        rel["ptx"]["name"] = ptx_name(first)
        rel["ptx"]["names"] = sorted({ptx_name(t) for t in ([form] if isinstance(form, str) else form)})
    for item in data["ptx_without_single_counterpart"]:
        item["name"] = item.get("name") or ptx_name(item["ptx"])
    return data


def relations() -> list[dict]:
    return _load()["relations"]


def ptx_only() -> list[dict]:
    """PTX concepts with no single AMD instruction (with the usual AMD sequence where one exists)."""
    return _load()["ptx_without_single_counterpart"]


@functools.lru_cache(maxsize=1)
def proofs() -> dict:
    """{relation id: figures}; empty when the proofs have not been written."""
    if not PROOFS.exists():
        return {}
    return json.loads(PROOFS.read_text()).get("relations", {})


def for_amd(name: str) -> list[dict]:
    return [r for r in relations() if r["amd"]["name"] == name]


def for_ptx(name: str) -> list[dict]:
    return [r for r in relations() if name in r["ptx"]["names"]]
