"""Which ALU instructions' pseudocode parses, compiles and runs, per architecture and category."""

from __future__ import annotations

import re

from .. import archs
from . import fidelity, sources

CATEGORIES = ("VALU", "SALU")
# Not ALU work even where the encoding is SOPK/SOP1: waits on counters.
_WAIT = re.compile(r"^s_wait|^s_waitcnt")


def alu_instructions(store, arch: str) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for r in store.list_arch(arch):
        if r["category"] in CATEGORIES and not _WAIT.match(r["name"]):
            seen.setdefault(r["name"], r["category"])
    return sorted(seen.items())


def semantics_coverage(store, arch_keys: list[str] | None = None) -> dict:
    out = {}
    for arch in arch_keys or list(sources.default_source().archs()):
        cats: dict[str, dict] = {}
        failed = []
        total = ok = 0
        for name, cat in alu_instructions(store, arch):
            c = cats.setdefault(cat, {"total": 0, "executable": 0})
            c["total"] += 1
            total += 1
            reason = fidelity.check(arch, name) if arch in sources.default_source().archs() else \
                "no pseudocode source for this generation"
            if reason is None:
                c["executable"] += 1
                ok += 1
            else:
                failed.append({"name": name, "category": cat, "reason": reason})
        out[arch] = {"title": archs.by_name(arch).title, "total": total, "executable": ok,
                     "percent": round(100.0 * ok / total, 1) if total else 0.0,
                     "categories": cats, "failed": failed}
    return out
