"""The regeneration steps, in order, each run as its own process (every step reads the files the steps before it
wrote, so no table cached in memory by an earlier step is ever used by a later one)."""

from __future__ import annotations

import subprocess
import sys

from .. import archs

# step -> (module, takes architecture arguments, architectures it applies to by default)
STEPS: dict[str, tuple[str, bool, str]] = {
    "facts": ("gpuisa.data.amd.generate", False, "all"),
    "layouts": ("gpuisa.regen.layouts", True, "layouts"),
    "plans": ("gpuisa.regen.plans", True, "llvm"),
    "named": ("gpuisa.regen.named", True, "llvm"),
    "sdwa": ("gpuisa.regen.sdwa", True, "sdwa"),
    "literals": ("gpuisa.regen.literals", True, "llvm"),
    "aliases": ("gpuisa.regen.aliases", True, "llvm"),
    "accepts": ("gpuisa.regen.accepts", True, "llvm"),
    "processors": ("gpuisa.regen.processors", True, "llvm"),  # (what gfx1011, gfx1013 ... add to their generation)
    "batch": ("gpuisa.regen.batch", True, "llvm"),
    "accel": ("gpuisa.regen.accel", True, "llvm"),  # (the C accelerator's base tables, from the batch tables)
    "examples": ("gpuisa.data.amd.examples.generate", True, "all"),
    "golden": ("gpuisa.regen.golden", True, "llvm"),
    "timing": ("gpuisa.regen.timing", True, "llvm"),
    "ptxforms": ("gpuisa.regen.ptxforms", False, "all"),  # (the PTX validator's committed forms index)
}


def _default(kind: str) -> list[str]:
    if kind == "layouts":
        from ..codec.layouts import EXTRA

        return sorted(EXTRA)
    if kind == "sdwa":
        return [a.name for a in archs.AMD_ARCHS if a.features.sdwa]
    if kind == "llvm":
        return [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    return [a.name for a in archs.AMD_ARCHS]


def run_steps(steps: list[str], arch_names: list[str]) -> int:
    names = [archs.resolve_arch(a).name for a in arch_names]
    if "batch" in steps and "accel" not in steps:  # (made from the batch tables: regenerated with them)
        at = steps.index("batch") + 1
        steps = steps[:at] + ["accel"] + steps[at:]
    for step in steps:
        module, per_arch, kind = STEPS[step]
        targets = [a for a in _default(kind) if not names or a in names]
        if per_arch and not targets:
            continue
        cmd = [sys.executable, "-m", module] + (targets if per_arch else [])
        print(f"regen: {step}: {' '.join(cmd[2:])}", file=sys.stderr)
        if subprocess.run(cmd).returncode:
            print(f"regen: step {step} failed", file=sys.stderr)
            return 1
    return 0
