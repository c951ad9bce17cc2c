"""One page model per instruction, rendered as terminal text, JSON (and later HTML).

``build_page`` returns the JSON contract of ``gpuisa show --json``; renderers
only format what is here.
"""

from __future__ import annotations

import difflib
import json

from . import archs
from .store import Store


class NotFound(LookupError):
    """An instruction that is not in the store (message includes close matches)."""


def _close(name: str, candidates: list[str]) -> list[str]:
    """Close matches, keeping only those nearly as close as the best one."""
    scored = []
    for c in set(candidates):
        m = difflib.SequenceMatcher(None, name, c)
        if m.real_quick_ratio() >= 0.6 and m.quick_ratio() >= 0.6:
            r = m.ratio()
            if r >= 0.6:
                scored.append((r, c))
    scored.sort(key=lambda t: (-t[0], t[1]))
    if not scored:
        return []
    best = scored[0][0]
    return [c for r, c in scored[:3] if r >= best - 0.05]


def resolve(store: Store, name: str, arch: str | None, isa: str | None = None) -> tuple[str, str]:
    """(instruction name, arch key); default arch = newest that has it (within ``isa`` if given)."""
    key = name.strip().lower()
    have = store.instruction_archs(key)
    if isa:
        have = [a for a in have if archs.by_name(a).isa == isa]
    if arch is not None:
        a = archs.resolve_arch(arch)
        if a.name in have:
            return key, a.name
        if store.arch_row(a.name) is None:
            raise NotFound(f"architecture {a.title} is not in the store (import it first: gpuisa import-amd)")
        close = _close(key, store.all_names(a.name))
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        where = f" (it exists in {', '.join(archs.by_name(x).title for x in archs.newest_first(have))})" if have else ""
        raise NotFound(f"no instruction {name} in {a.name}{where}{hint}")
    if not have:
        close = _close(key, store.all_names())
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise NotFound(f"no instruction {name} in any architecture{hint}")
    return key, archs.newest_first(have)[0]


def field_json(f) -> dict:
    """A field for JSON: name, hi, lo, width; ranges when split; value and bits when fixed."""
    d = {"name": f.name, "hi": f.hi, "lo": f.lo, "width": f.width}
    if len(f.ranges) > 1:
        d["ranges"] = [list(r) for r in f.ranges]
    if f.value is not None:
        d["value"] = f.value
        d["bits"] = f.fixed_text()
    return d


# Feature packages that add sections computed at run time (semantics loaded from an installed
# source, verified examples, cross-vendor relations): module with extend(page: dict) -> None.
PAGE_EXTENDERS = ("gpuisa.semantics.pages", "gpuisa.codec.pages", "gpuisa.crossmap.pages", "gpuisa.ptx.pages",
                  "gpuisa.timing")


def build_page(store: Store, name: str, arch: str | None = None, isa: str | None = None) -> dict:
    from .features import optional_module

    page = _build_page(store, name, arch, isa)
    for mod in PAGE_EXTENDERS:
        module = optional_module(mod)
        if module is not None:
            module.extend(page)
    return page


def _build_page(store: Store, name: str, arch: str | None = None, isa: str | None = None) -> dict:
    key, arch_key = resolve(store, name, arch, isa)
    row = store.instruction(key, arch_key)
    page = json.loads(row["page"])
    a = archs.by_name(arch_key)
    if a.kind == "virtual":
        return _virtual_page(row, page, a)
    encodings = []
    layouts = {}
    for ie in page["encodings"]:
        enc = store.encoding(arch_key, ie["encoding"])
        layouts[ie["encoding"]] = enc
        encodings.append({
            "name": ie["encoding"],
            "width": enc.width if enc else None,
            "opcode": ie["opcode"],
            "identifier": enc.identifier_hex(ie["opcode"]) if enc else None,
            "condition": ie["condition"],
            "fields": [field_json(f) for f in enc.sorted_fields()] if enc else [],
            "syntax": ie["syntax"],
            "operands": [_operand_json(o) for o in ie["operands"]],
        })
    primary = page["encodings"][0] if page["encodings"] else None
    generations = _generations(store, key, arch_key, primary["encoding"] if primary else None)
    return {
        "name": key,
        "vendor": a.vendor,
        "isa": a.isa,
        "isa_kind": a.kind,
        "arch": arch_key,
        "arch_title": a.title,
        "category": row["category"],
        "subgroup": row["subgroup"],
        "summary": row["summary"],
        "description": row["description"],
        "description_source": page.get("description_source"),
        "encodings": encodings,
        "operands": [_operand_json(o) for o in (primary["operands"] if primary else [])],
        "targets": page["targets"],
        "flags": page.get("flags", {}),
        "generations": generations,
        "generation_summary": generation_summary(arch_key, generations),
        "sources": page["sources"],
        **{k: v for k, v in page.items() if k not in COMMON_KEYS and k not in ("encodings",)},
    }


# Keys every page has, in this order; sections of later features (forms, semantics,
# examples, related) are carried through from the stored page when their data exists.
COMMON_KEYS = ("name", "vendor", "isa", "isa_kind", "arch", "arch_title", "category", "subgroup", "summary",
               "description", "description_source", "encodings", "operands", "targets", "flags", "generations", "generation_summary", "sources")


def _virtual_page(row, page: dict, a) -> dict:
    """A virtual-ISA page (PTX): no encodings; the stored page carries forms etc."""
    out = {"name": row["name"], "vendor": a.vendor, "isa": a.isa, "isa_kind": a.kind, "arch": a.name,
           "arch_title": a.title, "category": row["category"], "subgroup": row["subgroup"], "summary": row["summary"],
           "description": row["description"], "encodings": [], "operands": page.get("operands", []),
           "targets": page.get("targets", []), "flags": page.get("flags", {}), "generations": {},
           "generation_summary": "", "sources": page.get("sources", [])}
    for k, v in page.items():
        out.setdefault(k, v)
    return out


def _operand_json(o: dict) -> dict:
    return {"name": o["name"], "role": o["role"], "kind": o["kind"], "format": o["format"], "size": o["size"],
            "implicit": o["implicit"], "note": o.get("note", ""),
            "inferred": bool(o.get("provenance") and o["provenance"].get("inferred"))}


def _generations(store: Store, name: str, arch_key: str, enc_name: str | None) -> dict:
    gens = store.generations(name)
    mine = {r["encoding"]: r for r in gens.get(arch_key, [])}
    ref = mine.get(enc_name) if enc_name else None
    out: dict[str, dict | None] = {}
    for arow in store.archs():
        other = arow["name"]
        if arow["isa"] != "amdgpu":
            continue
        rows = gens.get(other)
        if not rows:
            out[other] = None
            continue
        pick = next((r for r in rows if r["encoding"] == enc_name), None) or rows[0]
        out[other] = {
            "encoding": pick["encoding"],
            "opcode": pick["opcode"],
            "layout_same": bool(ref is not None and pick["layout"] == ref["layout"]),
        }
    return out


def generation_summary(arch_key: str, gens: dict) -> str:
    """'Not the same in every generation: CDNA4 (opcode 484, field layout), ... The same in RDNA4.'"""
    ref = gens.get(arch_key)
    if ref is None:
        return ""
    differ, same, absent = [], [], []
    for other in archs.newest_first([k for k in gens if k != arch_key]):
        g = gens[other]
        title = archs.by_name(other).title
        if g is None:
            absent.append(title)
            continue
        what = []
        if g["encoding"] != ref["encoding"]:
            what.append(f"encoding {g['encoding']}")
        if g["opcode"] != ref["opcode"]:
            what.append(f"opcode {g['opcode']}")
        if not g["layout_same"]:
            what.append("field layout")
        (differ.append(f"{title} ({', '.join(what)})") if what else same.append(title))
    parts = []
    if differ:
        parts.append("Not the same in every generation: " + ", ".join(differ) + ".")
    else:
        parts.append("The same in every generation that has it.")
    if same and differ:
        parts.append("The same in " + ", ".join(same) + ".")
    if absent:
        parts.append("Not in " + ", ".join(absent) + ".")
    return " ".join(parts)
