"""Page extender: the Semantics section of AMD instruction pages.

page["semantics"] = {"source", "pseudocode", "fidelity", "reason", "generations"}.  The
pseudocode is loaded at run time from the installed source and labelled with it; the
repository stores none.  ``generations`` says, for each other generation with
pseudocode, whether its text is the same, with a unified diff where it differs.
"""

from __future__ import annotations

from .. import archs


def extend(page: dict) -> None:
    if page.get("vendor") != "AMD":
        return
    from . import sources
    from .diffs import text_diff

    if not sources.available():
        return
    src = sources.default_source()
    arch, name = page["arch"], page["name"]
    have = src.archs()
    found = sources.lookup_all(name)
    entry = found.get(arch)
    others = {}
    for a in archs.newest_first([x for x in have if x != arch]):
        e = found.get(a)
        if e is None:
            continue
        if entry is None:
            others[a] = {"same": None, "diff": None}
            continue
        same = e.text.strip() == entry.text.strip()
        diff = None if same else text_diff(entry.text, e.text, archs.by_name(arch).title, archs.by_name(a).title)
        others[a] = {"same": same, "diff": diff}
    if entry is None:
        if arch in have:
            reason = "the pseudocode source has no entry for this instruction"
        else:
            reason = (f"no pseudocode source for {archs.by_name(arch).title} "
                      f"(available: {', '.join(archs.by_name(a).title for a in have)})")
        page["semantics"] = {"source": src.label, "pseudocode": None, "fidelity": "unsupported", "reason": reason,
                             "generations": others}
        return
    from .fidelity import page_fidelity

    fid, reason = page_fidelity(arch, name)
    page["semantics"] = {"source": entry.source, "pseudocode": entry.text, "fidelity": fid, "reason": reason,
                         "generations": others}
