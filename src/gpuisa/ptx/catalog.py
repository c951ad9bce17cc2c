"""The PTX catalog: the committed family files, as store documents and as forms for the validator.

Store loader contract (``store.STORE_LOADERS``): ``store_documents()`` and ``fact_paths()``.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / "ptx"
VIRTUAL_NOTE = "PTX is a virtual ISA: no fixed binary encoding"
PROBE_TARGETS = ("sm_20", "sm_30", "sm_32", "sm_35", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70",
                 "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
                 "sm_100f", "sm_103a", "sm_110a", "sm_120", "sm_120a")
NO_DEST = {"st", "red", "bar", "barrier.cluster", "bra", "brx.idx", "call", "ret", "exit", "trap", "brkpt", "membar",
           "fence", "prefetch", "applypriority", "discard", "sust", "sured", "wmma.store", "stmatrix", "cp.async",
           "cp.async.bulk", "cp.async.bulk.tensor", "cp.reduce.async.bulk", "cp.reduce.async.bulk.tensor",
           "st.async", "st.bulk", "red.async", "mbarrier.init", "mbarrier.inval", "mbarrier.expect_tx",
           "mbarrier.complete_tx", "tensormap.replace", "pmevent", "nanosleep", "bar.warp.sync", "griddepcontrol",
           "cp.async.bulk.prefetch", "cp.async.bulk.prefetch.tensor", "tcgen05.st", "tcgen05.mma", "tcgen05.cp",
           "tcgen05.shift", "tcgen05.commit", "tcgen05.mma.sp", "tcgen05.mma.ws", "tcgen05.mma.ws.sp",
           "tensormap.cp_fenceproxy", "setmaxnreg", "stackrestore", "wgmma.fence", "cp.async.mbarrier.arrive"}


def fact_paths() -> list[Path]:
    return sorted(DATA_DIR.glob("*.json"))


@functools.lru_cache(maxsize=1)
def families() -> list[dict]:
    return [json.loads(p.read_text()) for p in fact_paths()]


def _form_head(form: dict) -> str:
    return form["opcode"][0]["lit"].split(".")[0] if form["opcode"] and "lit" in form["opcode"][0] else ""


@functools.lru_cache(maxsize=1)
def forms_by_head() -> dict[str, list[tuple[str, dict]]]:
    """First opcode token ('vadd', 'cp', 'ld') -> [(instruction name, form)] for the validator."""
    out: dict[str, list[tuple[str, dict]]] = {}
    for fam in families():
        for inst in fam["instructions"]:
            for form in inst["forms"]:
                out.setdefault(_form_head(form), []).append((inst["name"], form))
    return out


@functools.lru_cache(maxsize=None)
def _family_file(path: Path) -> dict:
    return json.loads(dict(_fact_texts())[path])


@functools.lru_cache(maxsize=1)
def _fact_texts() -> tuple[tuple[Path, str], ...]:
    return tuple((p, p.read_text()) for p in fact_paths())


_FORM_HEAD = re.compile(r'"opcode":\s*\[\s*\{\s*"lit":\s*"([^".]*)')


@functools.lru_cache(maxsize=1)
def _head_index() -> dict[str, list[Path]]:
    """Opcode head -> family files holding a form with that head, from one regex pass over the texts."""
    index: dict[str, list[Path]] = {}
    for path, text in _fact_texts():
        for head in set(_FORM_HEAD.findall(text)):
            index.setdefault(head, []).append(path)
    return index


@functools.lru_cache(maxsize=None)
def forms_for_head(head: str) -> list[tuple[str, dict]]:
    """Like ``forms_by_head()[head]`` but parses only the family files that hold that head, so the
    validator of a whole .ptx file parses a handful of files, not all."""
    if families.cache_info().currsize:  # everything is parsed already
        return forms_by_head().get(head, [])
    out: list[tuple[str, dict]] = []
    for path in _head_index().get(head, []):
        for inst in _family_file(path)["instructions"]:
            out += [(inst["name"], f) for f in inst["forms"] if _form_head(f) == head]
    return out


MEASURED = DATA_DIR / "measured" / "ptxas.json"


@functools.lru_cache(maxsize=1)
def ignored_tokens() -> tuple[tuple[str, ...], ...]:
    """Modifier token sequences ptxas accepts and ignores in any instruction (measured; see generate.py)."""
    if not MEASURED.exists():
        return ()
    from .match import dot_tokens

    return tuple(tuple(dot_tokens(t)) for t in json.loads(MEASURED.read_text()).get("ignored_tokens", []))


@functools.lru_cache(maxsize=None)
def target_key(t: str) -> tuple[int, str]:
    m = re.match(r"(?:sm|compute)_(\d+)([af]?)$", t)
    return (int(m.group(1)), m.group(2)) if m else (-1, "")


def expand_targets(targets: list[str]) -> list[str]:
    """Stored target lists may be abbreviated as 'all from sm_NN'."""
    return list(_expand_targets(tuple(targets)))


@functools.lru_cache(maxsize=4096)
def _expand_targets(targets: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for t in targets:
        if t.startswith("all from "):
            lo = target_key(t[9:])
            out += [p for p in PROBE_TARGETS if target_key(p) >= lo]
        else:
            out.append(t)
    return tuple(out)


def _operand_type(name: str, value_sets: dict) -> str:
    base = name.strip("[]{}").split(".")[0].split("|")[0].lower()
    for key in (f".{base}type", ".type" if base in ("d", "a", "b", "c") else ""):
        if key and key in value_sets:
            return key
    return ""


def public_form(name: str, form: dict) -> dict:
    ops = []
    for i, o in enumerate(form["operands"]):
        role = "read"
        if i == 0 and name not in NO_DEST and o["kind"] != "mem":
            role = "write"
        ops.append({"name": o["name"], "role": role, "kind": o["kind"], "type": _operand_type(o["name"], form["value_sets"]),
                    "optional": o["optional"]})
    out = {"syntax": form["syntax"], "value_sets": {k: (v if v else [form.get("value_patterns", {}).get(k, "")])
                                                    for k, v in form["value_sets"].items()},
           "operands": ops, "state_spaces": form["state_spaces"], "modifiers": form["modifiers"],
           "ptx_version": form["ptx_version"], "min_target": form["min_target"],
           "targets": expand_targets(form.get("targets", [])), "verified_by_ptxas": form.get("verified", False),
           "examples": form.get("examples", [])}
    if form.get("value_requirements"):
        out["value_requirements"] = form["value_requirements"]
    return out


def _vkey(v: str) -> tuple:
    return tuple(int(x) for x in v.split(".")) if v else (99,)


def store_documents() -> list[dict]:
    insts = []
    sources: list[dict] = []
    for fam in families():
        for s in fam["sources"]:
            if s not in sources:
                sources.append(s)
        for inst in fam["instructions"]:
            forms = [public_form(inst["name"], f) for f in inst["forms"]]
            dated = [f for f in forms if f["ptx_version"]]
            oldest = min(dated, key=lambda f: (_vkey(f["ptx_version"]), target_key(f["min_target"]))) if dated else None
            page = {
                "isa_note": VIRTUAL_NOTE,
                "family": fam["family"],
                "forms": forms,
                "ptx_version": oldest["ptx_version"] if oldest else "",
                "min_target": oldest["min_target"] if oldest else "",
                "operands": [{"name": o["name"], "role": o["role"], "kind": o["kind"], "format": o["type"] or None,
                              "size": None, "implicit": False, "note": "optional" if o["optional"] else "",
                              "inferred": False} for o in (forms[0]["operands"] if forms else [])],
                "targets": sorted({t for f in forms for t in f["targets"]}, key=target_key),
                "sources": fam["sources"] + ([{"source": "gpuisa", "version": "", "note": "grammar corrections: "
                                               + "; ".join(fam["source_corrections"]), "inferred": False}]
                                             if fam.get("source_corrections") else []),
            }
            formats = sorted({v for f in forms for vs in f["value_sets"].values() for v in vs if len(v) < 12})
            insts.append({"name": inst["name"], "category": inst["category"], "summary": inst["summary"],
                          "description": None, "subgroup": fam["family"], "page": page,
                          "search_encodings": "ptx virtual " + fam["family"], "search_formats": " ".join(formats)})
    return [{"arch": "ptx", "sources": sources, "instructions": insts}]
