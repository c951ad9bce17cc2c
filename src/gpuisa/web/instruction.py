"""Parts of an instruction page computed from the store: per-generation opcodes of every encoding with the
fields that changed, the compact PTX forms table, and links to the vendors' documents (addresses only)."""

from __future__ import annotations

import re

from .. import archs

# Vendors' documents: addresses only, never their text.
AMD_DOCS = "https://gpuopen.com/amd-gpu-architecture-programming-documentation/"
LLVM_SYNTAX = {"rdna1": "GFX10", "rdna2": "GFX1030", "rdna3": "GFX11", "rdna3.5": "GFX11", "rdna4": "GFX12",
               "cdna1": "GFX908", "cdna2": "GFX90a", "cdna3": "GFX940", "cdna4": "GFX940"}
PTX_DOCS = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html"


def doc_links(page: dict) -> list[dict]:
    if page.get("isa") == "ptx":
        return [{"title": f"NVIDIA: PTX ISA (Parallel Thread Execution), the {page['name']} instruction", "url": PTX_DOCS}]
    out = [{"title": "AMD: GPU architecture programming documentation (ISA guides)", "url": AMD_DOCS}]
    gfx = LLVM_SYNTAX.get(page.get("arch", ""))
    if gfx:
        out.append({"title": f"LLVM: AMDGPU {gfx} instruction syntax",
                    "url": f"https://llvm.org/docs/AMDGPU/AMDGPUAsm{gfx}.html"})
    return out


def field_changes(a, b) -> list[str]:
    """Names of the fields whose bits differ between two layouts of one encoding (added, moved, removed)."""
    fa = {f.name: (f.ranges, f.value) for f in a.fields}
    fb = {f.name: (f.ranges, f.value) for f in b.fields}
    return sorted(n for n in set(fa) | set(fb) if fa.get(n) != fb.get(n))


def generation_opcodes(store, name: str, arch: str, encoding_of) -> list[dict]:
    """Per encoding of ``name``: each generation's opcode and the fields that changed from this page's layout."""
    rows = store.con.execute("SELECT arch, encoding, opcode FROM inst_enc WHERE name=?", (name,)).fetchall()
    isa = archs.by_name(arch).isa
    by_enc: dict[str, dict[str, int | None]] = {}
    for a, enc, op in rows:
        if archs.by_name(a).isa == isa:
            by_enc.setdefault(enc, {})[a] = op
    order = archs.generation_order(sorted({a for e in by_enc.values() for a in e}))
    out = []
    for enc in sorted(by_enc, key=lambda e: (arch not in by_enc[e], e)):
        here = encoding_of(arch, enc)
        gens = []
        for a in order:
            if a not in by_enc[enc]:
                gens.append({"arch": a, "title": archs.by_name(a).title, "present": False})
                continue
            other = encoding_of(a, enc)
            changed = field_changes(here, other) if here is not None and other is not None and a != arch else []
            op = by_enc[enc][a]
            base = by_enc[enc].get(arch)
            gens.append({"arch": a, "title": archs.by_name(a).title, "present": True, "opcode": op,
                         "opcode_changed": base is not None and op != base, "changed": changed, "current": a == arch})
        out.append({"encoding": enc, "gens": gens})
    return out


_TARGET_RE = re.compile(r"sm_(\d+)([a-z]?)$")


def _target_key(t: str) -> tuple:
    m = _TARGET_RE.match(t)
    return (int(m.group(1)), m.group(2)) if m else (1 << 30, t)


def target_range(targets: list[str], universe: list[str]) -> str:
    """'sm_20+' when a form runs on every plain target from its first; else the targets listed."""
    if not targets:
        return ""
    ts = sorted(set(targets), key=_target_key)
    plain = [t for t in ts if _TARGET_RE.match(t) and not _TARGET_RE.match(t).group(2)]
    if plain:
        lo = _target_key(plain[0])
        uplain = [t for t in universe if _TARGET_RE.match(t) and not _TARGET_RE.match(t).group(2)
                  and _target_key(t) >= lo]
        if plain == uplain:
            special = [t for t in ts if t not in plain]
            all_special = [t for t in universe if t not in uplain and _target_key(t) >= lo]
            return f"{plain[0]}+" + ("" if special == all_special or not all_special
                                      else " (arch-specific: " + ", ".join(special or ["none"]) + ")")
    return ", ".join(ts)


def all_targets(forms) -> list[str]:
    """Every target any form names, oldest first (the universe 'sm_20+' is read against)."""
    if not isinstance(forms, list):
        return []
    return sorted({t for f in forms if isinstance(f, dict) for t in f.get("targets") or []}, key=_target_key)


def forms_table(forms) -> tuple[list[dict], list[dict]]:
    """(compact rows of the PTX syntax forms, every operand of every form once)."""
    if not isinstance(forms, list):
        return [], []
    universe = all_targets(forms)
    rows, operands, seen = [], [], set()
    for i, f in enumerate(forms):
        if not isinstance(f, dict) or not f.get("syntax"):
            continue
        ops = [o for o in f.get("operands") or [] if isinstance(o, dict)]
        for o in ops:
            if o.get("name") and o["name"] not in seen:
                seen.add(o["name"])
                operands.append({"name": o["name"], "role": o.get("role", ""), "kind": o.get("kind") or "",
                                 "format": o.get("type") or "", "optional": o.get("optional")})
        vs = f.get("value_sets") if isinstance(f.get("value_sets"), dict) else {}
        rows.append({"n": i + 1, "syntax": f["syntax"], "operands": ", ".join(o.get("name", "") for o in ops),
                     "version": f"{f['ptx_version']}+" if f.get("ptx_version") else "",
                     "targets": target_range(f.get("targets") or [], universe), "value_sets": vs,
                     "examples": [e for e in f.get("examples") or [] if isinstance(e, str)],
                     "ptxas": f.get("verified_by_ptxas")})
    return rows, operands
