"""``gpuisa export-data DIR [--format json|csv|parquet]``: the whole knowledge base as versioned tables.

Every table is flat (scalar columns; a list or mapping is a JSON-encoded text column, marked ``"json"`` in its
schema) so the three formats hold the same values.  Beside the tables: ``schemas/<table>.schema.json`` (JSON
Schema 2020-12 of one row, with ``x-version``, the table's version, and ``x-primary-key``) and ``manifest.json``
(export version, formats, row counts).  Rows are sorted by primary key and nothing varies from run to run.
Read back with ``read_table``; check with ``validate``.  Tables (see README "Machine-readable export"):

archs, instructions (architecture x name: AMD generations and PTX), instruction_encodings, encodings,
encoding_fields, operands, timing, timing_missing (LLVM 22's scheduling models), ptx_forms, ptx_form_targets,
ptx_requirements, crossmap (AMD <-> PTX relations).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Callable

from .errors import UserError

EXPORT_VERSION = "1"
FORMATS = ("json", "csv", "parquet")
S, I, N, B, J = "string", "integer", "number", "boolean", "json"  # noqa: E741  (column types, one letter each)

# table -> (version, description, primary key, [(column, type, nullable, description)])
TABLES: dict[str, tuple[str, str, tuple[str, ...], list[tuple[str, str, bool, str]]]] = {
    "archs": ("1", "Architectures (AMD generations and the PTX virtual ISA).", ("arch",), [
        ("arch", S, False, "key, e.g. rdna3, cdna4, ptx"), ("title", S, False, "display name"),
        ("vendor", S, False, "AMD or NVIDIA"), ("isa", S, False, "amdgpu or ptx"),
        ("kind", S, False, "native or virtual"), ("family", S, False, "RDNA, CDNA, PTX"),
        ("order", I, False, "generation order (higher is newer)"), ("targets", J, False, "gfx targets (list)"),
        ("llvm_target", S, True, "the -mcpu LLVM facts were swept with"),
        ("instructions", I, False, "instruction count in the store")]),
    "instructions": ("1", "One row per (architecture, instruction): AMD generations x names, and PTX names.",
                     ("arch", "name"), [
        ("arch", S, False, "architecture key"), ("name", S, False, "mnemonic"), ("isa", S, False, "amdgpu or ptx"),
        ("vendor", S, False, "AMD or NVIDIA"), ("category", S, False, "category"),
        ("subgroup", S, True, "functional subgroup"), ("summary", S, False, "one-line summary"),
        ("description", S, True, "vendor description when the store holds one")]),
    "instruction_encodings": ("1", "AMD instruction x encoding: opcode and LLVM syntax.",
                              ("arch", "name", "encoding", "condition"), [
        ("arch", S, False, "architecture key"), ("name", S, False, "mnemonic"), ("encoding", S, False, "encoding"),
        ("condition", S, False, "variant condition ('default' for most)"), ("opcode", I, True, "opcode value"),
        ("syntax", S, True, "LLVM assembler syntax of an example")]),
    "encodings": ("1", "AMD encodings of each architecture.", ("arch", "encoding"), [
        ("arch", S, False, "architecture key"), ("encoding", S, False, "encoding name"),
        ("width", I, False, "bits"), ("opcode_field", S, True, "the field holding the opcode")]),
    "encoding_fields": ("1", "Fields of each AMD encoding (bit ranges, fixed values).", ("arch", "encoding", "field"), [
        ("arch", S, False, "architecture key"), ("encoding", S, False, "encoding name"), ("field", S, False, "name"),
        ("hi", I, False, "highest bit"), ("lo", I, False, "lowest bit"), ("width", I, False, "bits"),
        ("ranges", J, False, "[[hi, lo], ...] (more than one when split)"),
        ("value", I, True, "fixed value (identifying bits), else null")]),
    "operands": ("1", "Operands of each AMD instruction encoding, in order.", ("arch", "name", "encoding", "condition",
                                                                            "position"), [
        ("arch", S, False, "architecture key"), ("name", S, False, "mnemonic"), ("encoding", S, False, "encoding"),
        ("condition", S, False, "variant condition"), ("position", I, False, "0-based position"),
        ("operand", S, False, "operand name"), ("role", S, False, "read, write, ..."),
        ("kind", S, True, "operand type (OPR_*)"), ("format", S, True, "data format (FMT_*)"),
        ("size", I, True, "bits"), ("implicit", B, False, "implicit operand"),
        ("note", S, True, "note"), ("inferred", B, False, "inferred by gpuisa rules, not stated by a source")]),
    "timing": ("1", "LLVM 22 scheduling-model timing per AMD instruction encoding (a model, not measurements).",
               ("arch", "name", "encoding"), [
        ("arch", S, False, "architecture key"), ("target", S, False, "-mcpu of the model"),
        ("name", S, False, "mnemonic"), ("encoding", S, False, "encoding"), ("latency", I, False, "cycles"),
        ("rthroughput", N, False, "reciprocal throughput, cycles"), ("uops", I, False, "micro-ops"),
        ("resources", J, False, "{resource: cycles}"), ("source", S, False, "'model'"),
        ("model", S, False, "which model (LLVM version, -mcpu)")]),
    "timing_missing": ("1", "AMD instruction encodings the timing facts lack, with the reason.",
                       ("arch", "name", "encoding"), [
        ("arch", S, False, "architecture key"), ("name", S, False, "mnemonic"), ("encoding", S, False, "encoding"),
        ("reason", S, False, "why LLVM's model gave no numbers")]),
    "ptx_forms": ("1", "PTX syntax forms with ISA versions and targets.", ("name", "form"), [
        ("name", S, False, "PTX instruction"), ("form", I, False, "0-based form index"), ("syntax", S, False, "form"),
        ("ptx_version", S, True, "first PTX ISA version"), ("min_target", S, True, "lowest sm_ target"),
        ("targets", J, False, "targets (list)"), ("modifiers", J, False, "modifiers (list)"),
        ("state_spaces", J, False, "state spaces (list)"), ("operands", J, False, "operands (list of objects)"),
        ("verified_by_ptxas", B, True, "versions/targets measured with ptxas")]),
    "ptx_form_targets": ("1", "PTX form x target it is available on (the targets column of ptx_forms, one per row).",
                         ("name", "form", "target"), [
        ("name", S, False, "PTX instruction"), ("form", I, False, "form index"), ("target", S, False, "sm_NN[a|f] or a note"),
        ("ptx_version", S, True, "the form's first PTX ISA version")]),
    "ptx_requirements": ("1", "PTX form values that need a later ISA version or other targets.",
                         ("name", "form", "value"), [
        ("name", S, False, "PTX instruction"), ("form", I, False, "form index"), ("value", S, False, "e.g. .type=.u16x2"),
        ("ptx_version", S, True, "PTX ISA version needed"), ("targets", J, True, "targets (list)")]),
    "crossmap": ("1", "Relations between AMD instructions and PTX forms (data/crossmap/relations.json).",
                 ("relation",), [
        ("relation", I, False, "0-based index in relations.json"), ("amd_name", S, False, "AMD mnemonic"),
        ("amd_form", S, True, "AMD form"), ("amd_archs", J, False, "architectures (list)"),
        ("ptx_form", S, True, "PTX form (a sequence: its forms, one per line)"), ("kind", S, False, "equivalent, ..."),
        ("family", S, True, "family"),
        ("note", S, True, "note"), ("restriction", S, True, "restriction"),
        ("error_bound", J, True, "error bound, if any")]),
}


def schema(table: str) -> dict:
    """The JSON Schema (2020-12) of one row of a table."""
    version, desc, key, cols = TABLES[table]
    props = {}
    for name, typ, nullable, text in cols:
        one = "string" if typ == J else typ
        base: dict[str, str | list[str]] = {"type": [one, "null"] if nullable else one}
        if typ == J:
            base["contentMediaType"] = "application/json"
        props[name] = {**base, "description": text}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://gpuisa.invalid/export/v{EXPORT_VERSION}/{table}/{version}", "title": table,
            "description": desc, "x-version": version, "x-export-version": EXPORT_VERSION,
            "x-primary-key": list(key), "type": "object", "properties": props,
            "required": [c[0] for c in cols], "additionalProperties": False}


def _j(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def collect(store) -> dict[str, list[dict]]:
    """Every table's rows, from the store (and the committed timing and crossmap facts)."""
    from . import timing

    con = store.con
    out: dict[str, list[dict]] = {t: [] for t in TABLES}
    for r in con.execute("SELECT * FROM archs ORDER BY name"):
        out["archs"].append({"arch": r["name"], "title": r["title"], "vendor": r["vendor"], "isa": r["isa"],
                             "kind": r["kind"], "family": r["family"], "order": r["ord"], "targets": r["targets"],
                             "llvm_target": r["llvm_target"], "instructions": r["instructions"]})
        if r["isa"] == "amdgpu":
            _timing_rows(out, r["name"], timing.load(r["name"]))
    for r in con.execute("SELECT arch, name, isa, vendor, category, subgroup, summary, description, page "
                         "FROM instructions ORDER BY arch, name"):
        out["instructions"].append({k: r[k] or (None if k in ("subgroup", "description") else r[k])
                                    for k in ("arch", "name", "isa", "vendor", "category", "subgroup", "summary",
                                              "description")})
        page = json.loads(r["page"])
        if r["isa"] == "ptx":
            _ptx_rows(out, r["name"], page)
        else:
            _encoding_rows(out, r["arch"], r["name"], page)
    for r in con.execute("SELECT arch, name, width, op_field, fields FROM encodings ORDER BY arch, name"):
        out["encodings"].append({"arch": r["arch"], "encoding": r["name"], "width": r["width"],
                                 "opcode_field": r["op_field"] or None})
        for fname, ranges, value in json.loads(r["fields"]):
            out["encoding_fields"].append({
                "arch": r["arch"], "encoding": r["name"], "field": fname, "hi": max(h for h, _ in ranges),
                "lo": min(lo for _, lo in ranges), "width": sum(h - lo + 1 for h, lo in ranges), "ranges": _j(ranges),
                "value": value})
    _crossmap_rows(out)
    for t, rows in out.items():
        key = TABLES[t][2]
        empty_is_null = [c for c, typ, nullable, _ in TABLES[t][3] if nullable and typ in (S, J)]
        for row in rows:  # (CSV cannot tell an empty text from a missing one: empty optional text is null)
            for c in empty_is_null:
                if row[c] == "":
                    row[c] = None
        rows.sort(key=lambda row: tuple((row[k] is not None, row[k]) for k in key))
    return out


def _encoding_rows(out: dict, arch: str, name: str, page: dict) -> None:
    for e in page.get("encodings", []):
        cond = e.get("condition") or "default"
        out["instruction_encodings"].append({"arch": arch, "name": name, "encoding": e["encoding"], "condition": cond,
                                             "opcode": e.get("opcode"), "syntax": e.get("syntax") or None})
        for i, o in enumerate(e.get("operands", [])):
            prov = o.get("provenance") or {}
            out["operands"].append({
                "arch": arch, "name": name, "encoding": e["encoding"], "condition": cond, "position": i,
                "operand": o["name"], "role": o["role"], "kind": o.get("kind") or None,
                "format": o.get("format") or None, "size": o.get("size"), "implicit": bool(o.get("implicit")),
                "note": o.get("note") or None, "inferred": bool(prov.get("inferred"))})


def _ptx_rows(out: dict, name: str, page: dict) -> None:
    for i, f in enumerate(page.get("forms", [])):
        verified = f.get("verified_by_ptxas", f.get("verified"))
        out["ptx_forms"].append({
            "name": name, "form": i, "syntax": f["syntax"], "ptx_version": f.get("ptx_version"),
            "min_target": f.get("min_target"), "targets": _j(f.get("targets", [])),
            "modifiers": _j(f.get("modifiers", [])), "state_spaces": _j(f.get("state_spaces", [])),
            "operands": _j(f.get("operands", [])), "verified_by_ptxas": None if verified is None else bool(verified)})
        for target in dict.fromkeys(f.get("targets", [])):
            out["ptx_form_targets"].append({"name": name, "form": i, "target": target,
                                            "ptx_version": f.get("ptx_version")})
        for value, req in sorted((f.get("value_requirements") or {}).items()):
            out["ptx_requirements"].append({"name": name, "form": i, "value": value,
                                            "ptx_version": req.get("ptx_version"),
                                            "targets": _j(req["targets"]) if "targets" in req else None})


def _timing_rows(out: dict, arch: str, doc: dict | None) -> None:
    if doc is None:
        return
    for key, (lat, rthr, uops, res) in doc["instructions"].items():
        name, _, enc = key.partition("|")
        out["timing"].append({"arch": arch, "target": doc["target"], "name": name, "encoding": enc, "latency": lat,
                              "rthroughput": float(rthr), "uops": uops, "resources": _j(res),
                              "source": doc["source"], "model": doc["model"]})
    for key, reason in doc["missing"].items():
        name, _, enc = key.partition("|")
        out["timing_missing"].append({"arch": arch, "name": name, "encoding": enc, "reason": reason})


def _crossmap_rows(out: dict) -> None:
    path = Path(__file__).resolve().parent / "data" / "crossmap" / "relations.json"
    if not path.exists():
        return
    for i, r in enumerate(json.loads(path.read_text()).get("relations", [])):
        amd, ptx = r.get("amd") or {}, r.get("ptx") or {}
        restriction = r.get("restriction")
        out["crossmap"].append({
            "relation": i, "amd_name": amd.get("name", ""), "amd_form": amd.get("form"),
            "amd_archs": _j(amd.get("archs", [])),
            "ptx_form": "\n".join(ptx["form"]) if isinstance(ptx.get("form"), list) else ptx.get("form"),
            "kind": r.get("kind", ""),
            "family": r.get("family"), "note": r.get("note") or None,
            "restriction": restriction if isinstance(restriction, str) or restriction is None else _j(restriction),
            "error_bound": None if r.get("error_bound") is None else _j(r["error_bound"])})


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise UserError("--format parquet needs pyarrow (pip install pyarrow)") from None
    return pyarrow


def write_table(path: Path, table: str, rows: list[dict], fmt: str) -> None:
    cols = TABLES[table][3]
    if fmt == "json":
        path.write_text(json.dumps(rows, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    elif fmt == "csv":
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow([c[0] for c in cols])
            for row in rows:
                w.writerow(["" if row[c] is None else ("true" if row[c] else "false") if t == B else row[c]
                            for c, t, _, _ in cols])
    else:
        pa = _pyarrow()
        types = {S: pa.string(), J: pa.string(), I: pa.int64(), N: pa.float64(), B: pa.bool_()}
        sch = pa.schema([pa.field(c, types[t], nullable=n) for c, t, n, _ in cols])
        tab = pa.Table.from_pylist(rows, schema=sch)
        import pyarrow.parquet as pq

        pq.write_table(tab, str(path))


def read_table(folder: Path, table: str, fmt: str) -> list[dict]:
    """A table written by ``export`` as Python rows (CSV text converted by the schema's types)."""
    path = Path(folder) / f"{table}.{fmt}"
    if fmt == "json":
        return json.loads(path.read_text(encoding="utf-8"))
    if fmt == "parquet":
        _pyarrow()
        import pyarrow.parquet as pq

        return pq.read_table(str(path)).to_pylist()
    cols = {c: (t, n) for c, t, n, _ in TABLES[table][3]}
    conv: dict[str, Callable[[str], Any]] = {I: int, N: float, B: lambda v: v == "true", S: str, J: str}
    with path.open(newline="", encoding="utf-8") as fh:
        return [{k: None if (v == "" and cols[k][1]) else conv[cols[k][0]](v) for k, v in row.items()}
                for row in csv.DictReader(fh)]


def validate(folder: Path) -> list[str]:
    """Problems of an export: each table's rows checked against its schema file (types, required, extra)."""
    folder = Path(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    errors = []
    pytypes: dict[str, type | tuple[type, ...]] = {
        "string": str, "integer": int, "number": (int, float), "boolean": bool, "null": type(None)}
    exact: dict[str, set[type]] = {"string": {str}, "integer": {int}, "number": {int, float}, "boolean": {bool},
                                   "null": {type(None)}}
    for table, info in manifest["tables"].items():
        sch = json.loads((folder / info["schema"]).read_text())
        rows = read_table(folder, table, manifest["format"])
        if len(rows) != info["rows"]:
            errors.append(f"{table}: {len(rows)} rows, manifest says {info['rows']}")
        required = set(sch["required"])
        # per column: its types, the plain Python types that are surely one of them (a subclass is checked below)
        columns: list[tuple[str, dict, list[str], set[type]]] = [
            (col, spec, allowed, set[type]().union(*(exact[t] for t in allowed)))
            for col, spec in sch["properties"].items()
            for allowed in [spec["type"] if isinstance(spec["type"], list) else [spec["type"]]]]
        for i, row in enumerate(rows):
            if set(row) != required:
                errors.append(f"{table} row {i}: columns {sorted(set(row) ^ required)} differ")
                continue
            for col, spec, allowed, plain in columns:
                v = row[col]
                ok = type(v) in plain or any(
                    isinstance(v, pytypes[t]) and not (t in ("integer", "number") and isinstance(v, bool))
                    for t in allowed)
                if ok and spec.get("contentMediaType") == "application/json" and v is not None:
                    try:
                        json.loads(v)
                    except ValueError:
                        ok = False
                if not ok:
                    errors.append(f"{table} row {i}: {col}={v!r} is not {'/'.join(allowed)}")
            if len(errors) > 50:
                return errors
    return errors


def export(folder: Path, fmt: str = "json", store=None) -> dict[str, int]:
    """Write every table, its schema and the manifest; returns rows per table."""
    if fmt not in FORMATS:
        raise UserError(f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})")
    if fmt == "parquet":
        _pyarrow()
    if store is None:
        from .store import Store, default_db_path

        store = Store(default_db_path())
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder} exists and is not a folder")
    (folder / "schemas").mkdir(parents=True, exist_ok=True)
    tables = collect(store)
    manifest: dict[str, Any] = {"export_version": EXPORT_VERSION, "format": fmt, "generated_by": "gpuisa export-data",
                "store_schema": _store_schema(), "tables": {}}
    for table, rows in tables.items():
        write_table(folder / f"{table}.{fmt}", table, rows, fmt)
        (folder / "schemas" / f"{table}.schema.json").write_text(json.dumps(schema(table), indent=1) + "\n")
        manifest["tables"][table] = {"file": f"{table}.{fmt}", "schema": f"schemas/{table}.schema.json",
                                     "version": TABLES[table][0], "rows": len(rows)}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return {t: len(r) for t, r in tables.items()}


def _store_schema() -> str:
    from .store import SCHEMA_VERSION

    return SCHEMA_VERSION
