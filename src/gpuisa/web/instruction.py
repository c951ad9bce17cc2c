"""Parts of an instruction page computed from the typed page (``page.model.InstructionPage``) and the store:
per-generation opcodes of every encoding with the fields that changed, the compact forms table, and links
to the vendors' documents (addresses only; each ISA's through its registry hook ``docs``)."""

from __future__ import annotations

import re

from .. import archs, isas
from ..page.model import Form, InstructionPage

# Vendors' documents: addresses only, never their text.
AMD_DOCS = "https://gpuopen.com/amd-gpu-architecture-programming-documentation/"
LLVM_SYNTAX = {"rdna1": "GFX10", "rdna2": "GFX1030", "rdna3": "GFX11", "rdna3.5": "GFX11", "rdna4": "GFX12",
               "cdna1": "GFX908", "cdna2": "GFX90a", "cdna3": "GFX940", "cdna4": "GFX940"}
PTX_DOCS = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html"


def doc_links(page: InstructionPage) -> list[dict]:
    """The vendor documents of the page's ISA (its registry hook ``docs``; none where it has no hook)."""
    isa = isas.get(page.isa) if page.isa in isas.keys() else None
    return isa.hook("docs")(page) if isa and isa.can("docs") else []


def target_text(page: InstructionPage) -> str:
    """The page's targets in one line where its ISA says how (registry hook ``target_text``), else ""."""
    isa = isas.get(page.isa) if page.isa in isas.keys() else None
    return isa.hook("target_text")(page) if isa and isa.can("target_text") else ""


def ptx_doc_links(page: InstructionPage) -> list[dict]:
    return [{"title": f"NVIDIA: PTX ISA (Parallel Thread Execution), the {page.name} instruction", "url": PTX_DOCS}]


def ptx_target_text(page: InstructionPage) -> str:
    return target_range(page.targets, all_targets(page.forms))


def amd_doc_links(page: InstructionPage) -> list[dict]:
    out = [{"title": "AMD: GPU architecture programming documentation (ISA guides)", "url": AMD_DOCS}]
    gfx = LLVM_SYNTAX.get(page.arch)
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
    plain = [t for t in ts if (m := _TARGET_RE.match(t)) and not m.group(2)]
    if plain:
        lo = _target_key(plain[0])
        uplain = [t for t in universe if (m := _TARGET_RE.match(t)) and not m.group(2)
                  and _target_key(t) >= lo]
        if plain == uplain:
            special = [t for t in ts if t not in plain]
            all_special = [t for t in universe if t not in uplain and _target_key(t) >= lo]
            return f"{plain[0]}+" + ("" if special == all_special or not all_special
                                      else " (arch-specific: " + ", ".join(special or ["none"]) + ")")
    return ", ".join(ts)


def all_targets(forms: list[Form] | None) -> list[str]:
    """Every target any form names, oldest first (the universe 'sm_20+' is read against)."""
    return sorted({t for f in forms or [] for t in f.targets}, key=_target_key)


def forms_table(forms: list[Form] | None) -> tuple[list[dict], list[dict]]:
    """(compact rows of the syntax forms, every operand of every form once)."""
    universe = all_targets(forms)
    rows: list[dict] = []
    operands: list[dict] = []
    seen: set[str] = set()
    for i, f in enumerate(forms or []):
        if not f.syntax:
            continue
        for o in f.operands:
            if o.name and o.name not in seen:
                seen.add(o.name)
                operands.append({"name": o.name, "role": o.role, "kind": o.kind, "format": o.type or "",
                                 "optional": o.optional})
        rows.append({"n": i + 1, "syntax": f.syntax, "operands": ", ".join(o.name for o in f.operands),
                     "version": f"{f.ptx_version}+" if f.ptx_version else "",
                     "targets": target_range(f.targets, universe), "value_sets": f.value_sets,
                     "examples": list(f.examples), "ptxas": f.verified_by_ptxas})
    return rows, operands
