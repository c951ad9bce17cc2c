"""``gpuisa timing`` (LLVM's throughput model over a kernel listing) and ``gpuisa export-data`` (the whole
knowledge base as versioned tables).  CLI plugin: ``register(subparsers)``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import UserError


def register(sub) -> None:
    s = sub.add_parser("timing", help="LLVM's throughput model of a kernel (assembly .s or code object .o)",
                       description="Sums the committed timing facts of LLVM 22's scheduling model over the "
                                   "listing as llvm-mca computes Block RThroughput. A model, not a measurement.")
    s.add_argument("--arch", required=True, help="family (rdna3) or gfx target (gfx1100)")
    s.add_argument("--file", required=True, help="assembly (.s) or ELF code object (.o/.co/.hsaco)")
    s.add_argument("--lines", action="store_true", help="also print each instruction's numbers")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_timing)
    s = sub.add_parser("export-data", help="write the whole knowledge base as versioned tables (json, csv, parquet)",
                       description="One file per table plus a schema file per table (with its version) and "
                                   "manifest.json; see the README section 'Machine-readable export'.")
    s.add_argument("dir", help="output folder (created; existing table files are replaced)")
    s.add_argument("--format", choices=["json", "csv", "parquet"], default="json")
    s.set_defaults(func=cmd_export_data)


def _arch(text: str) -> str:
    from . import archs

    try:
        a = archs.resolve_arch(text)
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None
    if a.isa != "amdgpu":
        raise UserError(f"{a.title} has no timing facts (AMD architectures only)")
    return a.name


def cmd_timing(args) -> int:
    from . import timing

    arch = _arch(args.arch)
    try:
        data = Path(args.file).read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {args.file}: {exc.strerror}") from None
    if data[:4] == b"\x7fELF":
        lines = timing.listing_of_object(arch, data)
    else:
        try:
            lines = timing.instruction_lines(data.decode("utf-8"))
        except UnicodeDecodeError:
            raise UserError(f"{args.file} is neither an ELF code object nor UTF-8 assembly text") from None
    if not lines:
        raise UserError(f"no instructions in {args.file}")
    try:
        est = timing.estimate(arch, lines)
    except LookupError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        sys.stdout.write(json.dumps(est, indent=2) + "\n")
        return 0
    _print_estimate(est, args.lines)
    return 0


def _print_estimate(est: dict, with_lines: bool) -> None:
    from .render.text import table

    print(f"{est['instructions']} instructions on {est['target']}: Block RThroughput {est['block_rthroughput']:.2f} "
          f"cycles ({est['uops']} micro-ops, dispatch width {est['dispatch_width']}, busiest resource "
          f"{est['busiest_resource']})")
    print("Resource cycles: " + ", ".join(f"{r} {c:g}" for r, c in est["resource_cycles"].items()))
    print(f"Sum of latencies (every instruction waiting for the one before): {est['latency_sum']} cycles")
    print(f"Note: {est['note']}; {est['model']}. No dependencies, waits or memory are simulated.")
    if est["vopd_pairs"]:
        print(f"{est['vopd_pairs']} VOPD pairs counted as LLVM's instruction-info view does (2 micro-ops each); "
              "llvm-mca's own summary counts them differently, so its Block RThroughput can differ here")
    if est["unknown"]:
        miss = sorted({u["mnemonic"] for u in est["unknown"]})
        print(f"Not in the timing facts ({len(est['unknown'])} lines, left out of the sums): {', '.join(miss)}")
    if with_lines:
        rows = [[str(r["line"]), r["text"], str(r["latency"]), f"{r['rthroughput']:.2f}", str(r["uops"])]
                for r in est["lines"]]
        print("\n".join(table(["line", "instruction", "latency", "rthroughput", "uops"], rows)))


def cmd_export_data(args) -> int:
    from .exportdata import export

    counts = export(Path(args.dir), args.format)
    print(f"wrote {sum(counts.values())} rows in {len(counts)} tables to {args.dir} ({args.format}): "
          + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0
