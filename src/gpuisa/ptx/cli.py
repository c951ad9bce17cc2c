"""`gpuisa ptx check` and `gpuisa ptx matrix`."""

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import SimpleNamespace
else:  # types.SimpleNamespace (sys.implementation is one), without importing types: ~1 M instructions of start-up
    SimpleNamespace = type(sys.implementation)


def _user_error(message: str) -> Exception:
    """errors.UserError(message), imported when one is raised (a module's import is ~0.5 M instructions
    of a check's start-up)."""
    from ..errors import UserError

    return UserError(message)


def check_file_args(argv: list[str]):
    """`check --file F [--target T] [--version V] [--json]` read without argparse (whose import and
    help formatting cost a build script's every call a few milliseconds), else None (the launcher's
    `ptx check` and `python -m gpuisa.ptx`)."""
    if len(argv) < 3 or argv[0] != "check" or len(argv) > 8:
        return None
    args = argparse_free_namespace(instruction=None, file=None, target=None, version=None, json=False)
    rest = argv[1:]
    while rest:
        opt = rest.pop(0)
        if opt == "--json" and not args.json:
            args.json = True
        elif opt in ("--file", "--target", "--version") and rest and not rest[0].startswith("-") and (
                getattr(args, opt[2:]) is None):
            setattr(args, opt[2:], rest.pop(0))
        else:
            return None
    return args if args.file else None


def argparse_free_namespace(**kw) -> SimpleNamespace:
    """A plain namespace, as argparse gives."""
    return SimpleNamespace(**kw)


# patterns compiled on first use (re's own cache): start-up matters for `check --file`
TARGET_RE = r"^(sm|compute)_\d+[af]?$"
VERSION_RE = r"^\d+\.\d+$"


def register(sub) -> None:
    p = sub.add_parser("ptx", help="NVIDIA PTX: validate instructions, availability matrix")
    ps = p.add_subparsers(dest="ptx_cmd", required=True)
    c = ps.add_parser("check", help="validate a PTX instruction (or --file a .ptx) against the catalog")
    c.add_argument("instruction", nargs="?", help='e.g. "vsub.s32.s32.u32.sat d, a.h1, b.h1;"')
    c.add_argument("--file", help="a .ptx file: check every instruction")
    c.add_argument("--target", help="sm_NN target to check availability on (e.g. sm_90a)")
    c.add_argument("--version", help="PTX ISA version X.Y to check against")
    c.add_argument("--relocatable", action="store_true",
                   help="as ptxas -c (nvcc -rdc=true): .extern functions may be used without a definition")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_check)
    m = ps.add_parser("matrix", help="availability of every form by PTX ISA version and target")
    g = m.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    m.set_defaults(func=cmd_matrix)


def _validate_args(args) -> None:
    if not (args.target or args.version):
        return
    import re

    if args.target and not re.match(TARGET_RE, args.target):
        raise _user_error(f"--target {args.target!r} is not a target name; allowed: sm_NN with optional a/f suffix (sm_90a)")
    if args.version and not re.match(VERSION_RE, args.version):
        raise _user_error(f"--version {args.version!r} is not a PTX ISA version; allowed: X.Y (e.g. 8.0)")


def cmd_check(args) -> int:
    import gc

    collecting = gc.isenabled()
    gc.disable()  # few reference cycles: the collector's passes over the imports' and the checker's objects cost ~10%
    try:
        return _check(args)
    finally:
        if collecting:
            gc.enable()


def _check(args) -> int:
    from .check import check_instruction

    _validate_args(args)
    if bool(args.file) == bool(args.instruction):
        raise _user_error("give one instruction or --file FILE.ptx (not both, not neither)")
    if args.file:
        from .frontend import errors

        if not os.path.isfile(args.file):
            raise _user_error(f"no such file: {args.file}")
        with open(args.file, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        count, bad = errors(text, args.target, args.version, getattr(args, "relocatable", False))
        shown_name = os.path.basename(args.file)
        if args.json:
            import json

            shown = [{k: v for k, v in r.items() if not k.startswith("_")} for r in bad]
            sys.stdout.write(json.dumps({"instructions": count, "invalid": len(bad), "errors": shown}, indent=1) + "\n")
        else:
            for r in bad:
                label = "form" if r.get("kind") in ("type", "name") else "closest form"  # (a form took it)
                print(f"{shown_name}:{r['line']}:{r['col']}: {r['error']}" + (f" ({label}: `{r['form']}`)"
                                                                              if r.get("form") else ""))
            print(f"{count} instructions, {len(bad)} invalid")
        return 1 if bad else 0
    r = check_instruction(args.instruction, args.target, args.version)
    out = {k: r[k] for k in ("valid", "form", "error", "min_target", "ptx_version")}
    out["name"] = r["name"]
    if args.json:
        import json

        sys.stdout.write(json.dumps(out, indent=2) + "\n")
    elif r["valid"]:
        print(f"valid: {r['name']} form `{r['form']}`; PTX ISA {r['ptx_version'] or '?'}, min target {r['min_target'] or '?'}")
    else:
        print(f"invalid: {r['error']}", file=sys.stderr)
    return 0 if r["valid"] else 1


def matrix_rows() -> tuple[list[str], list[list[str]]]:
    from . import catalog

    headers = ["instruction", "form", "ptx_version", "min_target"] + list(catalog.PROBE_TARGETS)
    rows = []
    for fam in catalog.families():
        for inst in fam["instructions"]:
            for f in inst["forms"]:
                ts = set(catalog.expand_targets(f.get("targets", [])))
                rows.append([inst["name"], f["syntax"], f["ptx_version"], f["min_target"]]
                            + [("yes" if t in ts else "no") if f.get("verified") else "?" for t in catalog.PROBE_TARGETS])
    return headers, rows


def cmd_matrix(args) -> int:
    headers, rows = matrix_rows()
    if args.json:
        import json

        sys.stdout.write(json.dumps([dict(zip(headers, r)) for r in rows], indent=1) + "\n")
    elif args.csv:
        import csv

        w = csv.writer(sys.stdout)
        w.writerow(headers)
        w.writerows(rows)
    else:
        from ..render.text import table

        short = [r[:4] + [" ".join(t for t, v in zip(headers[4:], r[4:]) if v == "yes")] for r in rows]
        print("\n".join(table(headers[:4] + ["targets"], short)))
    return 0
