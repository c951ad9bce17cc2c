"""AMD side of the look-up: an LLVM mnemonic (with variant suffix) -> its instruction and encoding."""

from __future__ import annotations

from . import build_page_or_none, html_block, not_found, page_path, split_amd


def _pick_encoding(page: dict, variant) -> dict | None:
    encs = page["encodings"]
    if not encs:
        return None
    if variant is not None:
        for want in variant[1]:
            for e in encs:
                if e["name"] == want:
                    return e
    return encs[0]


def _operand_text(o: dict) -> str:
    size = f" {o['size']}-bit" if o.get("size") else ""
    implicit = ", implicit" if o.get("implicit") else ""
    return f"{o['name']} ({o['role']}, {o['kind']}{', ' + o['format'] if o.get('format') else ''}{size}{implicit})"


def amd_doc(st, opcode: str, arch: str | None) -> dict:
    base, variant = split_amd(opcode)
    page = build_page_or_none(st, base, arch, "amdgpu")
    if page is None:
        # a name that merely ends like a suffix (v_foo_e32 the instruction itself): try it whole
        whole = build_page_or_none(st, opcode.lower(), arch, "amdgpu") if variant else None
        if whole is None:
            raise not_found(st, base, opcode, arch, "amdgpu")
        page, base, variant = whole, opcode.lower(), None
    enc = _pick_encoding(page, variant)
    operands = enc["operands"] if enc else page["operands"]
    sem = page.get("semantics") or {}
    fidelity = sem.get("fidelity") or "unknown"
    url = "/" + page_path(page["arch"], page["name"])
    where = page["arch_title"]
    enc_text = ""
    if enc is not None:
        enc_text = f"{enc['name']} opcode {enc['opcode']}"
        if variant is not None and variant[0] not in ("_e32", "_e64"):
            enc_text += f" ({variant[2]})"
    head = f"{page['name']} ({where}{', ' + enc_text if enc_text else ''})"
    syntax = enc.get("syntax") if enc else None
    ops = [_operand_text(o) for o in operands]
    tooltip = f"{head}: {page['summary']}"
    rows = [("architecture", f"{where} ({', '.join(page['targets'])})"), ("category", page["category"] or "")]
    if enc is not None:
        rows.append(("encoding", f"{enc['name']} ({enc['width']}-bit), opcode {enc['opcode']}, "
                                 f"identifier {enc['identifier']}"))
        others = [f"{e['name']} {e['opcode']}" for e in page["encodings"] if e is not enc]
        if others:
            rows.append(("other encodings", ", ".join(others)))
    if syntax:
        rows.append(("syntax", syntax))
    if ops:
        rows.append(("operands", "; ".join(ops)))
    rows.append(("semantics", fidelity))
    if page.get("generation_summary"):
        rows.append(("generations", page["generation_summary"]))
    md = [f"**{head}**", "", page["summary"] or ""]
    if syntax:
        md += ["", f"```\n{syntax}\n```"]
    md += ["", *(f"- {k}: {v}" for k, v in rows if k not in ("syntax",))]
    return {
        "opcode": opcode, "instruction": page["name"], "isa": "amdgpu", "arch": page["arch"],
        "arch_title": where, "summary": page["summary"], "category": page["category"],
        "variant": variant[0] if variant else None, "encoding": enc["name"] if enc else None,
        "opcode_number": enc["opcode"] if enc else None, "syntax": syntax,
        "operands": [{k: o.get(k) for k in ("name", "role", "kind", "format", "size", "implicit")} for o in operands],
        "signature": _signature(page["name"], opcode, operands),
        "fidelity": fidelity, "url": url, "tooltip": tooltip,
        "html": html_block(head, [page["summary"]], rows, url), "markdown": "\n".join(md),
    }


def _signature(name: str, opcode: str, operands: list[dict]) -> dict:
    """Signature help: the mnemonic and its explicit operands as parameters."""
    params = [o["name"].lower() for o in operands if not o.get("implicit")]
    return {"label": f"{opcode.lower() or name} {', '.join(params)}".strip(), "parameters": params,
            "documentation": [_operand_text(o) for o in operands if not o.get("implicit")]}
