"""Throughput of the executable semantics: wave-instructions per second.

    .venv/bin/python benchmarks/bench_semantics.py [--rounds 7] [--count 1000]

Takes ``--count`` different VALU instructions (distinct architecture/instruction pairs of
RDNA4, RDNA3.5 and CDNA4 that execute, taken round-robin), compiles them once (not timed), fills a 64-lane wave with random operands, and
times running each instruction once per round.  Prints the median over rounds of
wave-instructions/s for the compiled programs alone and for the full ``evaluate()`` path
(operand parsing and write-back included), with the ratio to the goal of 20,000/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np

GOAL = 20_000


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()

    from gpuisa.semantics import compiler, sources, wave
    from gpuisa.semantics.fidelity import check

    rng = random.Random(1)
    per_arch = []
    for arch in ("rdna4", "rdna3.5", "cdna4"):
        per_arch.append([(arch, name) for name, lst in sorted(sources.default_source().entries(arch).items())
                         if lst[0].op_class.startswith(("VOP", "VINTERP")) and check(arch, name) is None])
    chosen = [p for group in zip(*per_arch) for p in group]
    chosen += [p for g in per_arch for p in g[len(chosen) // 3:]]
    chosen = chosen[: args.count]
    t0 = time.perf_counter()
    jobs = []
    for arch, name in chosen:
        prog = compiler.program(arch, name)
        ops = {r: (rng.getrandbits(prog.widths[r]) if r in wave.SCALAR_REGS else
                   [rng.getrandbits(min(prog.widths[r], 32)) for _ in range(64)])
               for r in prog.inputs if r in wave.REQUIRED}
        ctx = wave.Context(64, 64, arch)
        regs = {}
        for r, w in prog.widths.items():
            vals = ops.get(r, [0] * 64)
            vals = vals if isinstance(vals, list) else [vals] * 64
            vals = [v - (1 << 64) if w <= 64 and v >> 63 else v for v in vals]
            regs[r] = np.array(vals, dtype=object if w > 64 else np.int64)
        jobs.append((prog, ops, ctx, regs))
    compile_s = time.perf_counter() - t0
    print(f"{len(jobs)} different VALU instructions ({len({n for _, n in chosen})} distinct names), wave64; "
          f"compiled and prepared in {compile_s:.1f} s")

    def round_compiled() -> float:
        t = time.perf_counter()
        with np.errstate(all="ignore"):
            for prog, _, ctx, regs in jobs:
                prog.fn(dict(regs), None, ctx)
        return len(jobs) / (time.perf_counter() - t)

    def round_evaluate() -> float:
        t = time.perf_counter()
        for prog, ops, _, _ in jobs:
            wave.run(prog, 64, 64, True, ops)
        return len(jobs) / (time.perf_counter() - t)

    round_compiled()  # warm caches
    comp = statistics.median(round_compiled() for _ in range(args.rounds))
    full = statistics.median(round_evaluate() for _ in range(max(1, args.rounds // 2)))
    print(f"compiled programs: median {comp:,.0f} wave-instructions/s  (ratio to the {GOAL:,}/s goal: {comp / GOAL:.2f})")
    print(f"full evaluate():   median {full:,.0f} wave-instructions/s  (ratio to the goal: {full / GOAL:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
