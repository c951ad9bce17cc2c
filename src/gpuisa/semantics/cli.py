"""``gpuisa eval`` and ``gpuisa coverage semantics``."""

from __future__ import annotations

import json
import sys

from .. import isas
from ..errors import UserError


def register(sub) -> None:
    s = sub.add_parser("eval", help="run an instruction's semantics on a simulated wave (AMD pseudocode, or PTX)")
    s.add_argument("name", help="instruction name (AMD), or a whole PTX instruction in quotes with --isa ptx")
    s.add_argument("operands", nargs="*", metavar="OPERAND=VALUE",
                   help="S0=0x10 S1=1.5 VCC=0b0110 ...; a comma list gives one value per lane")
    s.add_argument("--arch", help="any AMD generation or gfx target (default: newest with pseudocode of its own; "
                   "other generations carry semantics from the nearest that has them)")
    s.add_argument("--isa", choices=isas.keys("eval"), default="amdgpu")
    s.add_argument("--lanes", type=int, help="active lanes (default: the length of the longest list, else 1)")
    s.add_argument("--wave", type=int, choices=[32, 64], help="wave size (default: 32 on RDNA and CDNA5, 64 on CDNA1-4)")
    s.add_argument("--no-ieee", action="store_true", help="run with the IEEE mode bit clear")
    s.add_argument("--hex", action="store_true",
                   help="NAME is machine code in hex (one instruction, decoded); registers as V1=.. S0=.. VCC=..")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_eval)
    from .runcli import register_run

    register_run(sub)
    if "coverage" not in getattr(sub, "choices", {}):
        c = sub.add_parser("coverage", help="coverage reports (semantics: which instructions execute)")
        c.add_argument("subject", choices=["semantics", "map"])
        c.add_argument("--arch")
        c.add_argument("--isa", choices=isas.keys("coverage"), default="amdgpu")
        c.add_argument("--json", action="store_true")
        c.set_defaults(func=cmd_coverage)


# names that are options of ``gpuisa eval`` (or the instruction itself), not operands: True where an option takes it
OPTIONS = {"lanes": True, "wave": True, "arch": True, "isa": True, "name": False, "ieee": False, "json": False}


def parse_operands(items: list[str]) -> dict:
    out = {}
    for item in items:
        if "=" not in item:
            raise UserError(f"operand {item!r} is not NAME=VALUE (for example S0=0x10 or S1=1.5,2.5)")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k or not v:
            raise UserError(f"operand {item!r} is not NAME=VALUE (for example S0=0x10 or S1=1.5,2.5)")
        if k.lower() in OPTIONS:
            raise UserError(f"{k} is not an operand; give it as the option --{k.lower()} {v}"
                            if OPTIONS[k.lower()] else f"{k} is not an operand (operands are registers such as S0, VCC)")
        out[k] = v.split(",") if "," in v else v
    return out


def eval_ptx(args) -> int:
    """``gpuisa eval --isa ptx``: a whole PTX instruction on integer inputs (the registry's eval hook)."""
    try:
        from ..ptx.semantics import evaluate_ptx
    except ImportError:
        raise UserError("PTX semantics are not available in this installation") from None
    inputs = {}
    for k, v in parse_operands(args.operands).items():
        if isinstance(v, list):
            raise UserError(f"PTX operand {k} takes one value")
        try:
            inputs[k] = int(v, 0)
        except ValueError:
            raise UserError(f"PTX operand {k}={v!r} is not an integer (decimal, 0x.., 0b..)") from None
    try:
        res = evaluate_ptx(args.name, inputs)
    except (ValueError, KeyError) as exc:
        raise UserError(str(exc).splitlines()[0] if str(exc) else f"cannot evaluate {args.name!r}") from None
    if args.json:
        print(json.dumps({"isa": "ptx", "instruction": args.name, **res}, indent=2))
    else:
        for k, v in res.get("outputs", {}).items():
            print(f"{k} = {v} ({v:#x})" if isinstance(v, int) else f"{k} = {v}")
    return 0


def _default_arch(name: str) -> str:
    from .. import archs
    from . import sources

    own = sources.default_source().archs()
    have = [a for a in own if sources.lookup(a, name.lower())]
    if not have:  # an instruction only older generations have (carried from a donor by another spelling)
        have = [a for a in sources.generations() if a not in own and sources.lookup(a, name.lower())]
    if not have:
        raise UserError(f"no pseudocode for {name} in any generation ({', '.join(archs.by_name(a).title for a in own)} "
                        "have their own; the others carry it from those)")
    return archs.newest_first(have)[0]


def cmd_eval(args) -> int:
    return isas.get(args.isa).hook("eval")(args)


def eval_amd(args) -> int:
    """``gpuisa eval``: an AMD instruction's pseudocode on a simulated wave (the registry's eval hook)."""
    if args.hex or any(c in args.name.strip() for c in " \t,"):
        from .runcli import cmd_eval_encoded

        return cmd_eval_encoded(args, parse_operands(args.operands))
    from .wave import EvalError, evaluate

    arch = args.arch or _default_arch(args.name)
    try:
        res = evaluate(arch, args.name, lanes=args.lanes, wave=args.wave, ieee=not args.no_ieee,
                       **parse_operands(args.operands))
    except EvalError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        keys = ("arch", "name", "lanes", "wave", "inferred_from", "outputs", "state", "scalar_registers", "unused")
        print(json.dumps({k: res[k] for k in keys if k in res}, indent=2))
        return 0
    for line in render_result(res):
        print(line)
    return 0


def _show(v) -> str:
    if isinstance(v, float):
        return repr(v)
    return str(v)


def render_result(res: dict) -> list[str]:
    from .. import archs

    out = [f"{res['name']} on {archs.by_name(res['arch']).title}, wave{res['wave']}, {res['lanes']} lane(s)"]
    if res.get("inferred_from"):
        out[0] += f" (semantics inferred from {archs.by_name(res['inferred_from']).title})"
    w = max([len(k) for k in res["outputs"]] + [8])
    for reg, vals in res["outputs"].items():
        fmt = res["formats"].get(reg)
        interp = res["interpreted"][reg]
        scalar = reg in res["scalar_registers"]
        for i, (raw, val) in enumerate(zip(vals, interp)):
            where = "wave" if scalar else f"lane {i}"
            shown = f"  = {_show(val)} ({fmt})" if fmt and val != raw else ""
            out.append(f"  {reg:<{w}} {where:<8} {raw:#x}{shown}")
    changed = res["state"].get("changed", [])
    out.append("changed: " + (", ".join(changed) if changed else "nothing"))
    extra = {k: v for k, v in res["state"].items() if k not in ("changed",) and k not in res["outputs"]}
    if extra:
        out.append("state: " + ", ".join(f"{k}={v}" for k, v in extra.items()))
    if res.get("unused"):
        out.append("unused: " + ", ".join(res["unused"]) + " (not read by the instruction)")
    return out


def cmd_coverage(args) -> int:
    if args.subject == "map":  # the cross-vendor map (gpuisa.crossmap)
        from ..crossmap.cli import cmd_coverage_map

        return cmd_coverage_map(args)
    return isas.get(args.isa).hook("coverage")(args)


def coverage_ptx(args) -> int:
    """``gpuisa coverage semantics --isa ptx`` (the registry's coverage hook)."""
    try:
        from ..ptx import semantics as ptx_semantics
    except ImportError:
        raise UserError("PTX semantics are not available in this installation") from None
    res = ptx_semantics.coverage()
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    for isa, v in res.items():
        pct = round(100 * v["executable"] / v["total"], 1) if v["total"] else 0.0
        print(f"{isa.upper()}: {v['executable']}/{v['total']} value-computing instructions execute ({pct}%)")
        for cat, c in sorted(v.get("categories", {}).items()):
            print(f"  {cat}: {c['executable']}/{c['total']}")
        for f in v.get("failed", []):
            print(f"  not executable: {f['name']}: {f['reason']}")
    return 0


def coverage_amd(args) -> int:
    """``gpuisa coverage semantics`` for AMD's generations (the registry's coverage hook)."""
    from .. import archs
    from ..cliutil import open_store
    from . import sources
    from .coverage import semantics_coverage

    keys = None
    if args.arch:
        try:
            keys = [archs.resolve_arch(args.arch).name]
        except archs.UnknownArch as exc:
            raise UserError(str(exc)) from None
        if keys[0] not in sources.generations():
            have = ", ".join(archs.by_name(a).title for a in sources.generations())
            raise UserError(f"no semantics for {archs.by_name(keys[0]).title} (available: {have})")
    cov = semantics_coverage(open_store(), keys)
    if args.json:
        print(json.dumps({a: {"total": v["total"], "executable": v["executable"], "pseudocode": v["pseudocode"],
                              "inferred_from": v["inferred_from"], "inferred": v["inferred"],
                              "formulated": v["formulated"],
                              "categories": v["categories"],
                              "failed": [{"name": f["name"], "reason": f["reason"]} for f in v["failed"]]}
                          for a, v in cov.items()}, indent=2))
        return 0
    for v in cov.values():
        print(f"{v['title']}: {v['executable']}/{v['total']} VALU+SALU instructions execute ({v['percent']}%)")
        if v["inferred_from"]:
            print("  inferred from " + ", ".join(f"{archs.by_name(d).title} ({n})" for d, n in v["inferred_from"].items())
                  + (f": {v['title']} has no pseudocode of its own" if v["pseudocode"] == "inferred" else
                     ": instructions its own pseudocode table lacks"))
        if v["formulated"]:
            print(f"  the project's own formulations: {v['formulated']} (pseudocode absent or not runnable)")
        for cat, c in sorted(v["categories"].items()):
            print(f"  {cat}: {c['executable']}/{c['total']}")
        for f in v["failed"]:
            print(f"  not executable: {f['name']} ({f['category']}): {f['reason']}")
    sys.stdout.flush()
    return 0
