"""The opcode documentation as static JSON files, for tools that work offline.

``export_docs(DIR, store)`` writes what ``/api/asm/{isa}/{opcode}`` answers, one file per opcode:
``DIR/api/asm/amdgpu/{opcode}.json`` for every AMD instruction and the LLVM spellings of it that
its encodings allow (``_e32``, ``_e64``, ``_dpp``, ``_e64_dpp``, ``_sdwa``), and
``DIR/api/asm/ptx/{name}.json`` for every PTX instruction (a tool maps a full dotted opcode to
the longest dotted prefix that has a file); every ISA of the registry with a ``doc`` hook gets its folder
(its ``doc_opcodes`` hook lists the opcodes, else its instruction names).  Each file's ``url`` (and the link in its ``html``) is
relative to the file.  ``DIR/api/asm/index.json`` lists the opcodes.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import archs, isas
from . import DocNotFound, lookup, public

VOP32 = ("VOP1", "VOP2", "VOPC")
VOP64 = ("VOP3", "VOP3SD", "VOP3_SDST_ENC")
SDWA_GENERATIONS = ("GFX9", "GFX10")


def amd_opcodes(store) -> list[str]:
    """Every AMD instruction name and the LLVM variant spellings its encodings allow."""
    out: set[str] = set()
    for a in archs.arch_names():
        if store.arch_row(a) is None:
            continue
        gen = archs.by_name(a).gfx
        for r in store.list_arch(a, None):
            name, enc = r["name"], r["encoding"]
            out.add(name)
            if enc in VOP32:
                out.update((name + "_e32", name + "_e64", name + "_dpp"))
                if gen in SDWA_GENERATIONS:
                    out.add(name + "_sdwa")
            elif enc in VOP64:
                out.add(name + "_e64")
                if gen not in SDWA_GENERATIONS:
                    out.add(name + "_e64_dpp")
    return sorted(out)


def ptx_opcodes(store) -> list[str]:
    """Every PTX instruction name (a dotted opcode is looked up by its longest prefix that has a file)."""
    return sorted(store.all_names("ptx"))


def opcodes_of(isa: str, store) -> list[str]:
    """The opcodes exported for ``isa``: its ``doc_opcodes`` hook, else the names of its instructions."""
    i = isas.get(isa)
    if i.can("doc_opcodes"):
        return i.hook("doc_opcodes")(store)
    return sorted({n for a in i.arch_names() for n in store.all_names(a)})


def _relative(doc: dict) -> dict:
    out = public(doc)
    rel = "../../.." + doc["url"] + ".html"  # from api/asm/{isa}/ to the export's root
    out["html"] = out["html"].replace(f'href="{doc["url"]}"', f'href="{rel}"')
    out["url"] = rel
    return out


def export_docs(out_dir: Path, store) -> int:
    """Write the JSON files under out_dir/api/asm; returns how many."""
    base = Path(out_dir) / "api" / "asm"
    index: dict[str, list[str]] = {}
    for isa in isas.keys("doc"):
        opcodes = opcodes_of(isa, store)
        folder = base / isa
        folder.mkdir(parents=True, exist_ok=True)
        done = index.setdefault(isa, [])
        for op in opcodes:
            try:
                doc = lookup(op, isa, None, store)
            except DocNotFound:
                continue
            (folder / f"{op}.json").write_text(json.dumps(_relative(doc), separators=(",", ":")), encoding="utf-8")
            done.append(op)
    (base / "index.json").write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")
    return sum(len(v) for v in index.values())
