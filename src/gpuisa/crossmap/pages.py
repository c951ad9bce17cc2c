"""The Related section's entries for the AMD <-> PTX pair: the ISA registry's relation hook (``related``, read
through ``isas.related`` by the page model).  AMD pages get related PTX concepts, PTX pages related AMD
instructions per architecture, each entry with its relation, restriction and proof figures.

Entry: {vendor, isa, name, form, this_form, archs, relation, restriction, checked: {vectors, agreed,
counterexample}} plus ``error_bound``/``sequence``/``note`` where they apply: ``isa``/``vendor``/``name``/
``form``/``archs`` name the other ISA's side, ``this_form`` the page's own; ``checked`` is None when the
relation was not run (a listed sequence) or the proofs file lacks it.
"""

from __future__ import annotations

from . import relations as rel_data


def checked(rel_id: str) -> dict | None:
    res = rel_data.proofs().get(rel_id)
    if not res or not res.get("executed"):
        return None
    cx = res.get("counterexample")
    if cx:
        cx = {k: cx[k] for k in ("inputs", "amd", "ptx", "arch", "outside", "against", "how") if k in cx}
    return {"vectors": res["vectors"], "agreed": res["agreed"], "archs": sorted(res["archs"]), "counterexample": cx}


def _common(rel: dict) -> dict:
    return {"relation": rel["kind"], "restriction": rel.get("restriction"), "domain": rel.get("domain") or None,
            "error_bound": rel.get("error_bound"), "sequence": rel.get("sequence"), "note": rel.get("note"),
            "checked": checked(rel["id"])}


def related_for_amd(name: str, arch: str | None) -> list[dict]:
    out = []
    for rel in rel_data.for_amd(name):
        if arch and arch not in rel["amd"]["archs"]:
            continue
        out.append({"vendor": "NVIDIA", "isa": "ptx", "name": rel["ptx"]["name"], "form": rel_data.ptx_text(rel),
                    "this_form": rel["amd"]["form"], "archs": ["ptx"], **_common(rel)})
    return out


def related_for_ptx(name: str) -> list[dict]:
    out = []
    for rel in rel_data.for_ptx(name):
        out.append({"vendor": "AMD", "isa": "amdgpu", "name": rel["amd"]["name"], "form": rel["amd"]["form"],
                    "archs": rel["amd"]["archs"], "this_form": rel_data.ptx_text(rel), **_common(rel)})
    for item in rel_data.ptx_only():
        if item["name"] == name:
            out.append({"vendor": "AMD", "isa": "amdgpu", "name": None, "form": None, "archs": [],
                        "this_form": item["ptx"], "relation": "no single counterpart", "restriction": None,
                        "domain": None, "error_bound": None,
                        "sequence": {"side": "amd", "steps": item["amd_sequence"]} if item["amd_sequence"] else None,
                        "note": item["note"], "checked": None})
    return out


def related(isa: str, name: str, arch: str | None = None) -> list[dict]:
    """The registry's hook for the AMD <-> PTX pair (``isas.related``): entries for a page of ``isa``."""
    if isa == "ptx":
        return related_for_ptx(name)
    return related_for_amd(name, arch) if isa == "amdgpu" else []

