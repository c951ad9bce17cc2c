"""The Semantics section of AMD instruction pages (``page.amd`` builds it into the page).

amd_semantics(arch, name) = {"source", "pseudocode", "fidelity", "reason", "generations", "inferred_from",
"notes", "description"}.  The pseudocode is loaded at run time from the installed source and
labelled with it; the repository stores none.  ``generations`` says, for each other generation
with pseudocode, whether its text is the same, with a unified diff where it differs.  A
generation without pseudocode of its own shows the text it carries from its donor
(``inferred_from``, the donor's key), and ``notes`` states the differences between the two
generations that are known (``generation_notes``); ``description`` is the notes as one line.
"""

from __future__ import annotations

import re
from typing import Any

from .. import archs

_LEGACY_MUL = re.compile(r"^v_(mad|mac|mul|fma|fmac)_legacy_f32$|^v_(mul|fma|fmac)_dx9_zero_f32$")
_UNFUSED = re.compile(r"^v_(mad|mac)_(f32|f16|legacy_f32)$|^v_mad(ak|mk)_f32$")
_CARRY = re.compile(r"^v_(add|sub|subrev)_(co_ci|co|c_co|b_co)_u32$|^v_(addc|subb|subbrev)_co_u32$|^v_cndmask_b32$")
_PERMLANE = re.compile(r"^v_permlane(x?)16(_var)?_b32$")
_LDS_LANES = re.compile(r"^ds_(permute|bpermute|swizzle)_b32$")


def generation_notes(arch: str, name: str) -> list[str]:
    """Differences, known to this project, between the generation and the one its semantics come from
    (or that a reader of another generation's pseudocode should know), in this project's words."""
    from . import sources

    me = archs.by_name(arch)
    fam = me.features.encoding_family
    notes = []
    found = sources.donor(arch, name)
    d = archs.by_name(found[0]) if found is not None else None
    if d is not None and set(d.features.waves) != set(me.features.waves):
        notes.append(f"carried from {d.title}, which runs {_waves(d)}; {me.title} runs {_waves(me)}: lane masks "
                     "(EXEC, VCC, compare and carry results) have one bit per lane of the wave in use")
    elif len(me.features.waves) == 1:
        notes.append(f"{me.title} runs {_waves(me)}")
    if _LEGACY_MUL.match(name):
        notes.append("legacy (DX9) multiply: zero times any value, infinity and NaN included, gives zero; "
                     "GFX9 and GFX10 call these *_legacy_f32, GFX11 and later *_dx9_zero_f32")
    if _UNFUSED.match(name) and fam in ("GFX9", "GFX10"):
        notes.append("not fused: the product is rounded before the add (unlike v_fma_*); the f32 forms flush "
                     "denormals to zero on these generations")
    if _CARRY.match(name) and fam == "GFX10":
        notes.append("carry in RDNA1/2: the VOP2 form reads and writes VCC, which is VCC_LO (32 bits) in wave32 "
                     "and the 64-bit VCC in wave64; the VOP3 form names an SGPR or SGPR pair of the wave's size")
    elif _CARRY.match(name) and fam == "GFX9":
        notes.append("carry on GFX9 (wave64): the VOP2 form reads and writes the 64-bit VCC, the VOP3 form an "
                     "SGPR pair")
    notes += _machine_notes(name)
    return notes


def _machine_notes(name: str) -> list[str]:
    """Where the hardware differs from the pseudocode run literally and the wave machine (``gpuisa run``,
    ``eval --hex``) follows the hardware."""
    from .intclamp import saturate

    notes = []
    if _PERMLANE.match(name):
        notes.append("a select naming a lane outside EXEC reads that lane only with FI (op_sel[0]); otherwise the "
                     "lane gets 0 with BOUND_CTRL (op_sel[1]) or keeps its destination, as DPP does (the pseudocode "
                     "reads every lane; the wave machine applies the rule)")
    if _LDS_LANES.match(name):
        notes.append("a lane exchange through the LDS unit (no LDS memory): the wave machine runs it; lanes are "
                     "chosen by (address + offset) / 4 modulo the wave size, an inactive source lane gives 0")
    if saturate(name) is not None:
        notes.append("clamp: the exact result saturated to the destination's range (the pseudocode does not read "
                     "CLAMP; the wave machine applies it)")
    return notes


def _waves(a) -> str:
    waves = a.features.waves or (32, 64)
    return " and ".join(f"wave{w}" for w in waves) + (" only" if len(waves) == 1 else "")


def amd_semantics(arch: str, name: str) -> dict | None:
    """The Semantics section of an AMD page (the JSON of ``page.model.Semantics``), or None when no
    pseudocode source is installed."""
    from . import sources

    if not sources.available():
        return None
    found = sources.lookup_all(name)
    entry = found.get(arch)
    if entry is None:  # carried from the nearest generation with pseudocode, or the project's formulation
        entry = sources.lookup(arch, name)
    others = _other_generations(arch, found, entry)
    notes = generation_notes(arch, name)
    extra = {"inferred_from": entry.inherited_from if entry is not None else None, "notes": notes,
             "description": "; ".join(notes) if notes else None}
    if entry is None:
        src = sources.default_source()
        return {"source": src.label, "pseudocode": None, "fidelity": "unsupported",
                "reason": sources.missing_reason(arch, name), "generations": others, **extra}
    from .fidelity import page_fidelity

    fid, reason = page_fidelity(arch, name)
    return {"source": entry.source, "pseudocode": entry.text, "fidelity": fid, "reason": reason,
            "generations": others, **extra}


def _other_generations(arch: str, found: dict, entry) -> dict:
    from .diffs import text_diff

    others: dict[str, dict[str, Any]] = {}
    title = archs.by_name(arch).title
    for a in archs.newest_first([x for x in found if x != arch]):
        e = found[a]
        if entry is None:
            others[a] = {"same": None, "diff": None}
            continue
        same = e.text.strip() == entry.text.strip()
        diff = None if same else text_diff(entry.text, e.text, title, archs.by_name(a).title)
        others[a] = {"same": same, "diff": diff}
    return others
