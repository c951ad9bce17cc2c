"""Which ALU instructions' semantics parse, compile and run, per architecture and category.

Every VALU and SALU instruction of the store counts, waits on counters included (an
instruction whose pseudocode does not parse is a failure with its reason, never left out).
Generations without pseudocode of their own count the instructions whose semantics are
carried from a donor generation (``sources.donor``); ``inferred_from`` says how many, by donor, and
``formulated`` how many run the project's own formulations (:mod:`.formulations`); ``inferred``
maps each carried instruction to its donor.
"""

from __future__ import annotations

from .. import archs
from . import fidelity, fnuz, formulations, sources

CATEGORIES = ("VALU", "SALU")


def alu_instructions(store, arch: str) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for r in store.list_arch(arch):
        if r["category"] in CATEGORIES:
            seen.setdefault(r["name"], r["category"])
    return sorted(seen.items())


def arch_coverage(store, arch: str) -> dict:
    cats: dict[str, dict] = {}
    failed = []
    inferred: dict[str, int] = {}
    carried_names: dict[str, str] = {}
    total = ok = formulated = 0
    own = sources.native(arch)
    for name, cat in alu_instructions(store, arch):
        c = cats.setdefault(cat, {"total": 0, "executable": 0})
        c["total"] += 1
        total += 1
        reason = fidelity.check(arch, name)
        if reason is None:
            c["executable"] += 1
            ok += 1
            carried = sources.donor(arch, name)
            if carried is not None:
                inferred[carried[0]] = inferred.get(carried[0], 0) + 1
                carried_names[name] = carried[0]
            formulated += formulations.covers(name) or fnuz.covers(arch, name)
        else:
            failed.append({"name": name, "category": cat, "reason": reason})
    return {"title": archs.by_name(arch).title, "total": total, "executable": ok,
            "percent": round(100.0 * ok / total, 1) if total else 0.0, "categories": cats, "failed": failed,
            "pseudocode": "native" if own else "inferred",
            "inferred_from": dict(sorted(inferred.items(), key=lambda kv: -kv[1])), "formulated": formulated,
            "inferred": carried_names}


def semantics_coverage(store, arch_keys: list[str] | None = None) -> dict:
    with fidelity.saved_once():
        return {arch: arch_coverage(store, arch) for arch in arch_keys or list(sources.generations())}
