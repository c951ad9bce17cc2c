"""PTX side of the look-up: a full dotted opcode -> the instruction and the form that takes it."""

from __future__ import annotations

from . import build_page_or_none, html_block, not_found, page_path


def match_form(opcode: str) -> tuple[str | None, dict | None, dict]:
    """(instruction name, raw catalog form, bound value sets) of the first form whose opcode takes
    ``opcode`` (e.g. ld.global.nc.v4.f32 -> ld.global.nc); (None, None, {}) when none does."""
    from ..ptx import catalog
    from ..ptx.match import dot_tokens, match_opcode

    toks = dot_tokens(opcode.strip().lower())
    for name, form in catalog.forms_for_head(toks[0]):
        bind, _ = match_opcode(form, toks)
        if bind is not None:
            return name, form, bind
    return None, None, {}


def _prefix_name(st, opcode: str) -> str | None:
    parts = opcode.lower().split(".")
    for n in range(len(parts), 0, -1):
        name = ".".join(parts[:n])
        if "ptx" in st.instruction_archs(name):
            return name
    return None


def ptx_doc(st, opcode: str, arch: str | None = None) -> dict:
    name, raw, bind = match_form(opcode)
    if name is None:
        name = _prefix_name(st, opcode)
    page = build_page_or_none(st, name or opcode.lower(), None, "ptx")
    if page is None:
        raise not_found(st, (name or opcode.split(".")[0]).lower(), opcode, None, "ptx")
    forms = page.get("forms") or []
    form = next((f for f in forms if raw is not None and f["syntax"] == raw["syntax"]), None)
    sem = page.get("semantics") or {}
    fidelity = sem.get("fidelity") or "unknown"
    url = "/" + page_path("ptx", page["name"])
    version = (form or page).get("ptx_version")
    target = (form or page).get("min_target")
    head = f"{page['name']} (PTX ISA {version or '?'}+, {target or '?'}+)"
    rows = [("category", page["category"] or "")]
    if form is not None:
        rows.append(("form", form["syntax"]))
        if bind:
            rows.append(("modifiers", ", ".join(f"{k}={v}" for k, v in sorted(_flat(bind).items()))))
    else:
        rows += [("forms", " | ".join(f["syntax"] for f in forms[:6]) + (" | ..." if len(forms) > 6 else ""))]
    operands = (form or {}).get("operands") or page["operands"]
    ops = [f"{o['name']} ({o['role']}, {o['kind']}{', ' + str(o.get('type') or o.get('format')) if (o.get('type') or o.get('format')) else ''})"  # noqa: E501
           for o in operands]
    if ops:
        rows.append(("operands", "; ".join(ops)))
    rows.append(("semantics", fidelity))
    tooltip = f"{head}: {page['summary']}" + (f" Form: {form['syntax']}" if form else "")
    md = [f"**{head}**", "", page["summary"] or ""]
    if form:
        md += ["", f"```\n{form['syntax']}\n```"]
    md += ["", *(f"- {k}: {v}" for k, v in rows if k != "form")]
    syntaxes = [form["syntax"]] if form else [f["syntax"] for f in forms]
    return {
        "opcode": opcode, "instruction": page["name"], "isa": "ptx", "arch": "ptx", "arch_title": "PTX",
        "summary": page["summary"], "category": page["category"], "variant": None, "encoding": None,
        "opcode_number": None, "syntax": form["syntax"] if form else None, "form": form,
        "ptx_version": version, "min_target": target,
        "operands": [{k: o.get(k) for k in ("name", "role", "kind", "type", "format")} for o in operands],
        "signatures": [_signature(s, form or _form_of(forms, s)) for s in syntaxes[:8]],
        "fidelity": fidelity, "url": url, "tooltip": tooltip,
        "html": html_block(head, [page["summary"]], rows, url), "markdown": "\n".join(md),
    }


def _form_of(forms: list[dict], syntax: str) -> dict:
    return next(f for f in forms if f["syntax"] == syntax)


def _flat(bind: dict) -> dict:
    return {k: (" ".join(v) if isinstance(v, (list, tuple)) else str(v)) for k, v in bind.items()}


def _signature(syntax: str, form: dict) -> dict:
    params = [o["name"] for o in form.get("operands") or []]
    return {"label": syntax, "parameters": params,
            "documentation": [f"{o['name']}: {o['role']} {o['kind']}" for o in form.get("operands") or []]}
