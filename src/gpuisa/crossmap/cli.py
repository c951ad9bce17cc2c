"""``gpuisa port``, ``gpuisa map`` and ``gpuisa coverage map`` (the cross-vendor map AMD <-> PTX)."""

from __future__ import annotations

import csv
import io
import json
import sys

from ..errors import UserError
from . import relations as rel_data
from .pages import checked
from .render_words import proof_words


def register(sub) -> None:
    p = sub.add_parser("port", help="the AMD instruction (or sequence) for a PTX instruction, or the reverse with --to ptx")
    p.add_argument("instruction", help="a PTX instruction (mad24.lo.s32, or a whole line) or, with --to ptx, an AMD one")
    p.add_argument("--arch", help="AMD architecture (rdna3.5, rdna4, cdna4, gfx1200, ...; default: any)")
    p.add_argument("--to", choices=["amd", "ptx"], default="amd", help="direction (default: PTX -> AMD)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_port)
    m = sub.add_parser("map", help="export the whole AMD <-> PTX map with proof figures")
    g = m.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    m.set_defaults(func=cmd_map)


def _arch_key(arch: str | None) -> str | None:
    if not arch:
        return None
    from .. import archs

    try:
        return archs.resolve_amd(arch).name
    except archs.UnknownArch as exc:
        raise UserError(f"--arch: {exc}") from None


def _opcode(text: str) -> str:
    return text.strip().split()[0].rstrip(";").lower() if text.strip() else ""


def _entry(rel: dict) -> dict:
    return {"id": rel["id"], "amd": rel["amd"]["name"], "amd_form": rel["amd"]["form"], "archs": rel["amd"]["archs"],
            "ptx": rel["ptx"]["name"], "ptx_form": rel_data.ptx_text(rel), "relation": rel["kind"],
            "family": rel["family"], "restriction": rel.get("restriction"), "domain": rel.get("domain") or None,
            "error_bound": rel.get("error_bound"), "sequence": rel.get("sequence"), "note": rel.get("note"),
            "checked": checked(rel["id"])}


def find_port(instruction: str, arch: str | None, to: str) -> tuple[list[dict], list[dict]]:
    """(relations, PTX-only entries) for one instruction in one direction."""
    op = _opcode(instruction)
    if not op:
        raise UserError("give an instruction, e.g. mad24.lo.s32 (or v_mad_i32_i24 with --to ptx)")
    rels = [r for r in rel_data.relations() if not arch or arch in r["amd"]["archs"]]
    if to == "ptx":
        hits = [r for r in rels if r["amd"]["name"] == op]
        return hits, []
    exact = [r for r in rels if _opcode(rel_data.ptx_text(r)) == op and isinstance(r["ptx"]["form"], str)]
    if not exact:
        exact = [r for r in rels if _opcode(rel_data.ptx_text(r)) == op]
    name = rel_data.ptx_name(op)
    hits = exact or [r for r in rels if r["ptx"]["name"] == name and isinstance(r["ptx"]["form"], str)]
    only = [i for i in rel_data.ptx_only() if _opcode(i["ptx"]) == op]
    if not only and not hits:
        only = [i for i in rel_data.ptx_only() if i["name"] == name]
    return hits, only


def cmd_port(args) -> int:
    arch = _arch_key(args.arch)
    hits, only = find_port(args.instruction, arch, args.to)
    if not hits and not only:
        where = f" on {arch}" if arch else ""
        if args.to == "ptx":
            raise UserError(f"no PTX counterpart of {args.instruction!r}{where} is in the map "
                            "(give an AMD instruction name such as v_mad_i32_i24; `gpuisa map` lists all)")
        raise UserError(f"no AMD counterpart of {args.instruction!r}{where} is in the map "
                        "(give a PTX instruction such as mad24.lo.s32; `gpuisa map` lists all)")
    if args.json:
        print(json.dumps({"instruction": args.instruction, "arch": arch, "to": args.to,
                          "relations": [_entry(r) for r in hits], "sequences": only}, indent=2))
        return 0
    for r in hits:
        e = _entry(r)
        if args.to == "ptx":
            print(f"{e['amd_form']}  ->  {e['ptx_form']}")
        else:
            print(f"{e['ptx_form']}  ->  {e['amd_form']}")
        print(f"  relation: {e['relation']}")
        if e["restriction"]:
            print(f"  restriction: {e['restriction']}")
        if e["error_bound"]:
            print(f"  bound: {e['error_bound']}")
        if e["sequence"]:
            print(f"  sequence ({e['sequence']['side'].upper()}): " + " ; ".join(s.rstrip(';') for s in e["sequence"]["steps"]))
        print(f"  architectures: {', '.join(e['archs'])}")
        print(f"  {proof_words(e)}")
    for i in only:
        print(f"{i['ptx']}  ->  no single AMD instruction")
        if i["amd_sequence"]:
            print("  sequence (AMD): " + " ; ".join(i["amd_sequence"]))
        print(f"  {i['note']}")
    return 0


MAP_FIELDS = ["amd", "amd_form", "archs", "ptx", "ptx_form", "relation", "family", "restriction", "domain",
              "error_bound", "vectors", "agreed", "counterexample"]


def map_rows() -> list[dict]:
    rows = []
    for r in rel_data.relations():
        e = _entry(r)
        c = e["checked"] or {}
        cx = c.get("counterexample")
        rows.append({"amd": e["amd"], "amd_form": e["amd_form"], "archs": " ".join(e["archs"]), "ptx": e["ptx"],
                     "ptx_form": e["ptx_form"], "relation": e["relation"], "family": e["family"],
                     "restriction": e["restriction"] or "", "domain": json.dumps(e["domain"]) if e["domain"] else "",
                     "error_bound": e["error_bound"] or "", "vectors": c.get("vectors", ""), "agreed": c.get("agreed", ""),
                     "counterexample": json.dumps(cx["inputs"]) if cx else ""})
    return rows


def cmd_map(args) -> int:
    if args.json:
        print(json.dumps({"relations": [_entry(r) for r in rel_data.relations()],
                          "ptx_without_single_counterpart": rel_data.ptx_only()}, indent=2))
        return 0
    rows = map_rows()
    if args.csv:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=MAP_FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        sys.stdout.write(buf.getvalue())
        return 0
    from ..cliutil import rows_out

    rows_out(["AMD", "PTX", "relation", "checked"],
             [[r["amd_form"], r["ptx_form"], r["relation"], f"{r['agreed']}/{r['vectors']}" if r["vectors"] != "" else "-"]
              for r in rows], title=f"AMD <-> PTX map: {len(rows)} relations")
    return 0


def map_coverage() -> dict:
    """{amd_mapped, ptx_mapped, by_family, unmapped: {amd, ptx}} over executable AMD VALU/SALU and PTX value instructions."""
    from ..ptx.catalog import families
    from ..ptx.semantics import VALUE_CATEGORIES, VALUE_INSTRUCTIONS
    from ..semantics import sources
    from .execute import EXECUTABLE_ARCHS

    rels = rel_data.relations()
    amd_all = set()
    src = sources.default_source()
    for a in EXECUTABLE_ARCHS:
        if a in src.archs():
            amd_all |= {n for n in src.entries(a) if n.startswith(("v_", "s_"))}
    amd_mapped = {r["amd"]["name"] for r in rels}
    ptx_family = {}
    for fam in families():
        for inst in fam["instructions"]:
            cat = VALUE_INSTRUCTIONS.get(inst["name"], inst.get("category"))
            if cat in VALUE_CATEGORIES or inst["name"] in VALUE_INSTRUCTIONS:
                ptx_family[inst["name"]] = cat
    ptx_mapped = {n for r in rels for n in r["ptx"]["names"] if n in ptx_family}
    listed = {i["name"] for i in rel_data.ptx_only()}
    by_family: dict[str, dict[str, int]] = {}
    for name, cat in ptx_family.items():
        row = by_family.setdefault(cat, {"ptx_total": 0, "ptx_mapped": 0, "ptx_sequence_only": 0, "relations": 0})
        row["ptx_total"] += 1
        if name in ptx_mapped:
            row["ptx_mapped"] += 1
        elif name in listed:
            row["ptx_sequence_only"] += 1
    for r in rels:
        cat = ptx_family.get(r["ptx"]["name"], r["family"])
        by_family.setdefault(cat, {"ptx_total": 0, "ptx_mapped": 0, "ptx_sequence_only": 0, "relations": 0})["relations"] += 1
    kinds: dict[str, int] = {}
    for r in rels:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    return {"amd_mapped": len(amd_mapped & amd_all) if amd_all else len(amd_mapped), "amd_total": len(amd_all),
            "ptx_mapped": len(ptx_mapped), "ptx_total": len(ptx_family), "relations": len(rels), "by_kind": kinds,
            "by_family": dict(sorted(by_family.items())),
            "unmapped": {"amd": sorted(amd_all - amd_mapped),
                         "ptx": sorted(n for n in ptx_family if n not in ptx_mapped)},
            "ptx_sequence_only": sorted(n for n in listed if n in ptx_family and n not in ptx_mapped)}


def cmd_coverage_map(args) -> int:
    cov = map_coverage()
    if getattr(args, "json", False):
        print(json.dumps(cov, indent=2))
        return 0
    print(f"AMD VALU/SALU instructions mapped: {cov['amd_mapped']}/{cov['amd_total']} (RDNA3.5, RDNA4, CDNA4)")
    print(f"PTX value instructions mapped: {cov['ptx_mapped']}/{cov['ptx_total']}; relations: {cov['relations']} "
          + ", ".join(f"{k} {v}" for k, v in cov["by_kind"].items()))
    for fam, row in cov["by_family"].items():
        print(f"  {fam}: {row['ptx_mapped']}/{row['ptx_total']} PTX instructions mapped, "
              f"{row['ptx_sequence_only']} by an AMD sequence only; {row['relations']} relations")
    print("PTX not mapped: " + (", ".join(cov["unmapped"]["ptx"]) or "none"))
    print(f"AMD not mapped: {len(cov['unmapped']['amd'])} (see --json)")
    return 0
