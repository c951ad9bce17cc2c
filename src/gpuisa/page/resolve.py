"""Which instruction a name means: ``resolve(store, name, arch, isa)`` -> (name, arch key), or ``NotFound``
(one line with close matches).  Below ``page`` (whose ``build`` resolves before it builds) and ``pages``
(which re-exports both for its callers)."""

from __future__ import annotations

import difflib

from .. import archs

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..store import Store


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
