"""One ordered driver for every generator: ``python -m gpuisa.regen [--arch A ...] [--check] [--list]``.

Order (each step reads what the ones before it wrote):
 1. ``facts``     AMD facts: llvm-mc-22 opcode sweep + tinygrad's MR-ISA tables -> data/amd/<arch>.json
 2. ``layouts``   codec-side GFX9 layouts (EXP/VINTRP/MIMG for CDNA1, MIMG for CDNA2) -> codec/data/layouts_*.json
 3. ``plans``     how each field prints (probed) -> codec/data/plans_<arch>.json
 4. ``named``     named tables (hwreg, formats, DPP, VOPD, VOP3-DPP ...) -> codec/data/named_<arch>.json
 5. ``sdwa``      GFX9/GFX10 SDWA forms -> named_<arch>.json["sdwa"]
 6. ``literals``  literal types LLVM gives each source -> named_<arch>.json["literal_types"]
 7. ``aliases``   other mnemonics LLVM's assembler accepts -> named_<arch>.json["aliases"]
    ``accepts``   the kinds of source value each operand takes -> named_<arch>.json["src_rejects"]
 8. ``batch``     the bulk decoder's tables -> codec/data/batch_<arch>.json
    ``accel``     the C accelerator's base tables, from them (run by ``batch`` too) -> codec/data/accel_<arch>.bin
 9. ``examples``  page examples verified by llvm-mc-22 -> data/amd/examples/<arch>.json
10. ``golden``    (text, bytes) corpora of llvm-mc-22 -> tests/golden/<target>.jsonl
11. ``timing``    latency / reciprocal throughput of LLVM 22's scheduling models (llvm-mca-22) -> data/amd/timing/<arch>.json

``--check`` copies the package into a scratch folder, regenerates there (with its own data folder) and
fails listing every generated file that differs from the committed one, as iced-x86's CI does.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .steps import STEPS, run_steps

PACKAGE = Path(__file__).resolve().parents[1]  # src/gpuisa
REPO = PACKAGE.parents[1]


def _check(arch_names: list[str], steps: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="gpuisa-regen-") as tmp:
        src = Path(tmp) / "src"
        shutil.copytree(PACKAGE, src / "gpuisa", ignore=shutil.ignore_patterns("__pycache__", "*.sqlite"))
        golden = REPO / "tests" / "golden"
        if golden.is_dir():
            shutil.copytree(golden, Path(tmp) / "tests" / "golden")
        env = {**os.environ, "PYTHONPATH": str(src), "GPUISA_HOME": str(Path(tmp) / "home")}
        cmd = [sys.executable, "-m", "gpuisa.regen", "--steps", ",".join(steps)] + \
              [x for a in arch_names for x in ("--arch", a)]
        proc = subprocess.run(cmd, env=env, cwd=tmp)
        if proc.returncode:
            print(f"regen --check: regeneration failed (exit {proc.returncode})", file=sys.stderr)
            return 1
        diffs = []
        made = sorted((src / "gpuisa").rglob("*.json")) + sorted((src / "gpuisa" / "codec" / "data").glob("accel_*.bin"))
        for new in made + sorted((Path(tmp) / "tests" / "golden").rglob("*")):
            if not new.is_file():
                continue
            rel = new.relative_to(src) if src in new.parents else new.relative_to(tmp)
            old = (PACKAGE.parent / rel) if src in new.parents else (REPO / rel)
            if not old.exists() or not filecmp.cmp(old, new, shallow=False):
                diffs.append(str(rel))
        for d in diffs:
            print(f"regen --check: {d} differs from a fresh regeneration", file=sys.stderr)
        if not diffs:
            print(f"regen --check: generated files match ({', '.join(steps)}; {', '.join(arch_names) or 'all'})")
        return 1 if diffs else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gpuisa.regen", description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", action="append", default=[], help="architecture(s) to regenerate (default: all)")
    ap.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated subset of: {', '.join(STEPS)}")
    ap.add_argument("--check", action="store_true", help="regenerate into a scratch copy and fail on any difference")
    ap.add_argument("--list", action="store_true", help="print the steps in order and exit")
    args = ap.parse_args(argv)
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    unknown = [s for s in steps if s not in STEPS]
    if unknown:
        print(f"regen: unknown step {unknown[0]!r} (allowed: {', '.join(STEPS)})", file=sys.stderr)
        return 2
    if args.list:
        for s in STEPS:
            print(s)
        return 0
    if args.check:
        return _check(args.arch, steps)
    return run_steps(steps, args.arch)


if __name__ == "__main__":
    raise SystemExit(main())
