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
    s.add_argument("--llvm-mca", action="store_true",
                   help="also run llvm-mca-22 on the listing (its Block RThroughput and simulated Total Cycles)")
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
        return archs.resolve_amd(text).name  # (timing facts exist for AMD architectures only)
    except archs.UnknownArch as exc:
        raise UserError(str(exc)) from None


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
    if args.llvm_mca:
        table = timing.load(arch)
        assert table is not None  # estimate() above found it
        est["llvm_mca"] = _run_llvm_mca(table["target"], lines)
    if args.json:
        sys.stdout.write(json.dumps(est, indent=2) + "\n")
        return 0
    _print_estimate(est, args.lines)
    if args.llvm_mca:
        m = est["llvm_mca"]
        print(f"llvm-mca-22 on the same {len(lines)} lines: Block RThroughput {m['block_rthroughput']}, "
              f"Total Cycles {m['total_cycles']:g} for {m['iterations']:g} iterations (its simulation, also a model)")
    return 0


def _run_llvm_mca(target: str, lines: list[tuple[int, str]]) -> dict:
    """llvm-mca-22's summary of the listing's instruction lines (comments, labels and directives dropped)."""
    from .regen.timing import find_llvm_mca, mca_crashed, mca_process, parse_report

    mca = find_llvm_mca()
    if mca is None:
        raise UserError("--llvm-mca: llvm-mca-22 is not installed (apt-get install -y llvm-22)")
    proc = mca_process(mca, target, [text for _, text in lines], "none", iterations=100)
    if proc.returncode and not mca_crashed(proc) and target.startswith("gfx1"):  # a wave64 listing (vcc, not vcc_lo)
        retry = mca_process(mca, target, [text for _, text in lines], "none", iterations=100, mattr="+wavefrontsize64")
        proc = retry if not retry.returncode else proc
    if proc.returncode or mca_crashed(proc):
        first = (proc.stderr.strip().splitlines() or ["it failed"])[0]
        raise UserError(f"llvm-mca-22 rejected the listing: {first}")
    r = parse_report(proc.stdout)
    return {"block_rthroughput": r.get("Block RThroughput"), "total_cycles": r.get("Total Cycles"),
            "iterations": r.get("Instructions", 0) / max(1, len(lines)), "source": "model (llvm-mca simulation)"}


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
