"""Pseudocode differences between two generations (``gpuisa diff A B --semantics``).

``semantics_diff(a, b)`` compares, instruction by instruction, the pseudocode the source
gives for architecture ``a`` and for ``b`` (both resolved like any ``--arch`` value) and
returns {"from", "to", "same": [names], "differ": [{"name", "diff"}], "only_a": [names],
"only_b": [names], "counts": {...}}.  Texts are compared after trimming surrounding white
space; ``diff`` is a unified diff of the lines, labelled with the generations' titles.
Raises :class:`gpuisa.errors.UserError` for an architecture without pseudocode.
"""

from __future__ import annotations

from .. import archs
from ..errors import UserError


def text_diff(old: str, new: str, old_label: str, new_label: str) -> str:
    import difflib

    return "\n".join(difflib.unified_diff(old.splitlines(), new.splitlines(), old_label, new_label, lineterm=""))


def _resolve(arch: str, have: tuple[str, ...]) -> str:
    try:
        key = archs.resolve_arch(arch).name
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None
    if key not in have:
        raise UserError(f"no pseudocode for {archs.by_name(key).title} "
                        f"(available: {', '.join(archs.by_name(x).title for x in have)})")
    return key


def semantics_diff(a: str, b: str) -> dict:
    from . import sources

    if not sources.available():
        raise UserError("no pseudocode source installed (the pinned tinygrad wheel provides it)")
    src = sources.default_source()
    have = src.archs()
    a, b = _resolve(a, have), _resolve(b, have)
    ea, eb = src.entries(a), src.entries(b)
    ta, tb = archs.by_name(a).title, archs.by_name(b).title
    same, differ = [], []
    for name in sorted(set(ea) & set(eb)):
        xa, xb = ea[name][0].text.strip(), eb[name][0].text.strip()
        if xa == xb:
            same.append(name)
        else:
            differ.append({"name": name, "diff": text_diff(xa, xb, ta, tb)})
    only_a, only_b = sorted(set(ea) - set(eb)), sorted(set(eb) - set(ea))
    return {"from": a, "to": b, "same": same, "differ": differ, "only_a": only_a, "only_b": only_b,
            "counts": {"same": len(same), "differ": len(differ), "only_a": len(only_a), "only_b": len(only_b)}}
