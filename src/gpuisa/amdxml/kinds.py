"""Pages for data formats (FMT_*) and operand types (OPR_*), known once AMD's XML is imported."""

from __future__ import annotations

import json

from .. import archs
from ..errors import UserError

KINDS = {"format": "data_formats", "operand-type": "operand_types"}


def _tables(store, kind: str) -> dict[str, list[dict]]:
    key = KINDS[kind]
    rows = store.con.execute("SELECT key, value FROM meta WHERE key LIKE ?", (f"{key}:%",)).fetchall()
    return {k.split(":", 1)[1]: json.loads(v) for k, v in rows}


def build_kind_page(store, name: str, kind: str, arch: str | None) -> dict:
    tables = _tables(store, kind)
    if not tables:
        raise UserError(f"no {kind.replace('-', ' ')}s are known yet: import AMD's XML first (gpuisa import-amd PATH)")
    key = name.strip().upper()
    have = [a for a, items in tables.items() if any(i["name"] == key for i in items)]
    if arch:
        if arch not in have:
            where = f" (known in {', '.join(archs.by_name(a).title for a in have)})" if have else ""
            raise UserError(f"no {kind.replace('-', ' ')} {name} in {arch}{where}")
        pick = arch
    elif have:
        pick = archs.newest_first(have)[0]
    else:
        import difflib

        names = sorted({i["name"] for items in tables.values() for i in items})
        close = difflib.get_close_matches(key, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UserError(f"no {kind.replace('-', ' ')} {name} in the imported architectures{hint}")
    item = next(i for i in tables[pick] if i["name"] == key)
    src = store.arch_row(pick)
    sources = json.loads(src["sources"]) if src else []
    return {"kind": kind, "arch": pick, "arch_title": archs.by_name(pick).title, **item,
            "description_source": (sources[0]["source"] + " " + sources[0]["version"]) if sources else None,
            "sources": sources}


def render_kind_text(page: dict) -> str:
    out = [f"{page['name']}  ({'data format' if page['kind'] == 'format' else 'operand type'}; {page['arch_title']})"]
    if page.get("description"):
        out += ["", f"Description ({page.get('description_source')}):", page["description"]]
    if page["kind"] == "format":
        out += ["", f"Data type: {page['data_type']}; {page['bits']} bits; {page['components']} component(s)"]
        for f in page["fields"]:
            bits = ", ".join(f"{hi}:{lo}" for hi, lo in f["ranges"])
            out.append(f"  component {f['component']}: {f['name']} bits {bits} ({(f['signedness'] or '').lower()})")
    else:
        out += ["", f"Partitioned: {'yes' if page['partitioned'] else 'no'}"]
        if page["subtypes"]:
            out.append("Subtypes: " + ", ".join(page["subtypes"]))
        if page["values"]:
            out += ["", f"Predefined values ({len(page['values'])}):"]
            out += [f"  {v['value']:>5}  {v['name']}" for v in page["values"] if v["value"] is not None]
        for m in page.get("microcode", []):
            out.append(f"  field {m['name']} bits {', '.join(f'{hi}:{lo}' for hi, lo in m['ranges'])}: "
                       + ", ".join(f"{v['name']}={v['value']}" for v in m["values"]))
    out += ["", "Sources:"] + [f"  - {s['source']} {s['version']}" for s in page["sources"]]
    return "\n".join(out)
