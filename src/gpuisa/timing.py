"""Timing of AMD instructions from the committed facts of LLVM 22's scheduling models (``data/amd/timing``).

Every number here is the *model's* (``llvm-mca-22 --instruction-info``, swept by ``python -m gpuisa.regen.timing``),
not a measurement on hardware.  Three uses:

* ``page_timing``: the Timing section of an AMD instruction page (``page.amd`` builds it into the page);
* ``latency_of`` for ``gpuisa list --sort latency``;
* ``estimate(arch, lines)``: LLVM's throughput bound of a listing (``gpuisa timing``), computed from the facts as
  llvm-mca computes its ``Block RThroughput``: max(total micro-ops / dispatch width, the busiest resource's cycles
  / its units).  It does not simulate dependencies (llvm-mca's ``Total Cycles`` does).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data" / "amd" / "timing"
MODEL_NOTE = "LLVM's scheduling model (llvm-mca), not a measurement on hardware"
SUFFIX_ENCODINGS = (("_e64_dpp", "VOP3_DPP"), ("_e32", "VOP"), ("_e64", "VOP3"), ("_sdwa", "SDWA"), ("_dpp", "DPP"))
_MNEMONIC = re.compile(r"^[a-z][a-z0-9_]*$")


@lru_cache(maxsize=None)
def load(arch: str) -> dict | None:
    """The timing facts of an architecture (``data/amd/timing/<arch>.json``), or None when there are none."""
    path = DATA_DIR / f"{arch}.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())


def entry_dict(doc: dict, key: str) -> dict:
    lat, rthr, uops, res = doc["instructions"][key]
    name, _, enc = key.partition("|")
    return {"encoding": enc, "latency": lat, "rthroughput": rthr, "uops": uops, "resources": res}


def provenance(doc: dict) -> dict:
    return {"source": doc["source"], "model": doc["model"], "llvm_version": doc["llvm_version"],
            "target": doc["target"], "generated_by": doc["generated_by"], "note": MODEL_NOTE}


def page_timing(arch: str, name: str, encodings: list[str]) -> dict | None:
    """The ``timing`` section of a page: per encoding latency, reciprocal throughput, micro-ops and resources,
    the first encoding's numbers at the top, and which encodings the facts lack (with the reason)."""
    doc = load(arch)
    if doc is None:
        return None
    have, missing = [], []
    for enc in encodings:
        key = f"{name}|{enc}"
        if key in doc["instructions"]:
            have.append(entry_dict(doc, key))
        else:
            reason = doc["missing"].get(key, "not in the timing facts (no LLVM syntax for this encoding)")
            missing.append({"encoding": enc, "reason": reason})
    out = provenance(doc)
    if have:
        out.update({k: have[0][k] for k in ("encoding", "latency", "rthroughput", "uops")})
    else:
        out["latency"] = out["rthroughput"] = out["uops"] = None
    out["encodings"] = have
    if missing:
        out["missing"] = missing
    return out


def latency_of(arch: str, name: str, encoding: str | None = None) -> tuple[int | None, float | None]:
    """(latency, reciprocal throughput) of an instruction (its given encoding, else its first one with timing)."""
    doc = load(arch)
    if doc is None:
        return None, None
    ins = doc["instructions"]
    if encoding and f"{name}|{encoding}" in ins:
        v = ins[f"{name}|{encoding}"]
        return v[0], v[1]
    for key in _keys_by_name(arch).get(name, []):
        return ins[key][0], ins[key][1]
    return None, None


@lru_cache(maxsize=None)
def _keys_by_name(arch: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key in sorted((load(arch) or {}).get("instructions", {})):
        out.setdefault(key.split("|")[0], []).append(key)
    return out


def lookup(arch: str, mnemonic: str) -> str | None:
    """The facts key (``name|ENCODING``) of a mnemonic as LLVM prints it (``v_add_f32_e32``), or None."""
    doc = load(arch)
    if doc is None:
        return None
    if mnemonic in doc["spellings"]:
        return doc["spellings"][mnemonic]
    by_name = _keys_by_name(arch)
    for suffix, enc in SUFFIX_ENCODINGS:
        if mnemonic.endswith(suffix) and mnemonic[: -len(suffix)] in by_name:
            keys = by_name[mnemonic[: -len(suffix)]]
            return next((k for k in keys if enc in k.split("|")[1]), keys[0])
    found = by_name.get(mnemonic)
    return found[0] if found else None


def instruction_lines(text: str) -> list[tuple[int, str]]:
    """(line number, instruction text) of an assembly listing: labels, directives and comments dropped."""
    out = []
    in_block = False
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw
        if in_block:
            if "*/" not in line:
                continue
            line, in_block = line.split("*/", 1)[1], False
        while "/*" in line:
            head, _, rest = line.partition("/*")
            if "*/" in rest:
                line = head + " " + rest.split("*/", 1)[1]
            else:
                line, in_block = head, True
        line = re.split(r";|//", line, maxsplit=1)[0].strip()
        while re.match(r"^[\w.$@]+:", line):  # labels, possibly before an instruction
            line = line.split(":", 1)[1].strip()
        if not line or line.startswith((".", "#")):
            continue
        if _MNEMONIC.match(line.split()[0]):
            out.append((no, line))
    return out


def estimate(arch: str, lines: list[tuple[int, str]]) -> dict:
    """LLVM's throughput model over a listing: per line the facts' numbers, the total micro-ops, each
    resource's cycles and the block reciprocal throughput (llvm-mca's ``Block RThroughput``)."""
    doc = load(arch)
    if doc is None:
        raise LookupError(f"no timing facts for {arch} (regenerate: python -m gpuisa.regen --steps timing)")
    rows, unknown = [], []
    pressure: dict[str, float] = {}
    uops = 0
    latency_sum = 0
    for no, text in lines:
        mnemonic = text.split()[0]
        key = lookup(arch, mnemonic)
        if key is None:
            unknown.append({"line": no, "text": text, "mnemonic": mnemonic})
            continue
        e = entry_dict(doc, key)
        rows.append({"line": no, "text": text, "key": key, **{k: e[k] for k in ("latency", "rthroughput", "uops")}})
        uops += e["uops"]
        latency_sum += e["latency"]
        for r, c in e["resources"].items():
            pressure[r] = pressure.get(r, 0.0) + c
    units = doc["resource_units"]
    bound = max([uops / doc["dispatch_width"]] + [c / units.get(r, 1) for r, c in pressure.items()])
    busiest = max(pressure, key=lambda r: pressure[r] / units.get(r, 1)) if pressure else None
    return {**provenance(doc), "arch": arch, "instructions": len(lines), "timed": len(rows),
            "uops": uops, "block_rthroughput": round(bound, 2), "dispatch_width": doc["dispatch_width"],
            "busiest_resource": busiest, "resource_cycles": {r: round(c, 2) for r, c in sorted(pressure.items())},
            "latency_sum": latency_sum, "vopd_pairs": sum("::" in r["text"] for r in rows), "lines": rows,
            "unknown": unknown}


def listing_of_object(arch: str, data: bytes) -> list[tuple[int, str]]:
    """The instructions of an ELF code object's executable sections (the codec's decoder; numbered in order)."""
    from .codec.decoder import get_decoder
    from .codec.elf import code_sections

    dec = get_decoder(arch)
    text = "\n".join(dec.decode_text(sec.data) for sec in code_sections(data))
    return instruction_lines(text)
