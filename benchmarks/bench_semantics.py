"""Throughput of the executable semantics: wave-instructions per second.

    .venv/bin/python benchmarks/bench_semantics.py [--rounds 15] [--count 1000] [--mix spread|first] [--top N]

Takes ``--count`` different VALU instructions (distinct architecture/instruction pairs of
RDNA4, RDNA3.5 and CDNA4 that execute), compiles them once (not timed), fills a 64-lane
wave with random operands, and times running each instruction once per round.  The mix
``spread`` (the default, the figure of record) takes them evenly spaced over all
executable VALU instructions of the three architectures, so it is a representative
sample: compares, conversions, v_med3_*, v_perm_*, v_pk_*, dot products and the natively
run matrix instructions (MFMA/SMFMAC, RDNA3.5 WMMA; RDNA4's WMMA, whose wave64 layout is
not modelled, is left out).  ``first`` (the earlier figure) takes them round-robin over
the three architectures in name order, which covers only names from about v_c... to
v_f... (mostly compares).  Prints the median over rounds of wave-instructions/s for the
compiled programs alone and for the full ``evaluate()`` path (operand parsing and
write-back included), with the ratio to the goal of 20,000/s, both by wall-clock time and
by this process's CPU time (the steadier figure on a shared machine: other jobs' time
slices do not count), and how many instructions of the mix run a vectorised fast path
instead of their compiled pseudocode (see ``semantics/fastpaths.py``).  ``--top N`` also
lists the N instructions that take longest (CPU time per run, best of the rounds).
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
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--mix", choices=("spread", "first"), default="spread")
    ap.add_argument("--top", type=int, default=0, help="list the N slowest instructions of the mix")
    args = ap.parse_args()

    from gpuisa.semantics import compiler, sources, wave
    from gpuisa.semantics.fidelity import check

    rng = random.Random(1)
    per_arch = []
    for arch in ("rdna4", "rdna3.5", "cdna4"):
        per_arch.append([(arch, name) for name, lst in sorted(sources.default_source().entries(arch).items())
                         if lst[0].op_class.startswith(("VOP", "VINTERP")) and check(arch, name) is None])
    if args.mix == "first":
        chosen = [p for group in zip(*per_arch) for p in group]
        chosen += [p for g in per_arch for p in g[len(chosen) // 3:]]
        chosen = chosen[: args.count]
    else:
        from gpuisa.semantics import matrix

        pool = [p for g in per_arch for p in g if not (p[0] == "rdna4" and matrix.is_matrix(p[1]))]
        step = max(1.0, len(pool) / args.count)
        chosen = [pool[int(i * step)] for i in range(min(args.count, len(pool)))]
    t0 = time.perf_counter()
    jobs = []
    for arch, name in chosen:
        prog = compiler.program(arch, name)
        ops = {r: (rng.getrandbits(prog.widths[r]) if r in wave.SCALAR_REGS else
                   [rng.getrandbits(min(prog.widths[r], 32)) for _ in range(64)])
               for r in prog.inputs if r in wave.REQUIRED}
        if prog.vgpr_file:  # V_MOVREL*: register numbers (plus M0) inside the VGPR file
            ops.update({r: rng.randrange(100) for r in ("SRC0", "DST", "M0") if r in prog.widths})
        ctx = wave.Context(64, 64, arch)
        regs = {}
        for r, w in prog.widths.items():
            vals = ops.get(r, [0] * 64)
            vals = vals if isinstance(vals, list) else [vals] * 64
            vals = [v - (1 << 64) if w <= 64 and v >> 63 else v for v in vals]
            regs[r] = np.array(vals, dtype=object if w > 64 else np.int64)
        if prog.vgpr_file:
            regs["VGPR"] = np.array([[rng.getrandbits(32) for _ in range(64)] for _ in range(256)], dtype=np.int64)
        jobs.append((prog, ops, ctx, regs))
    compile_s = time.perf_counter() - t0
    fast = sum(1 for prog, *_ in jobs if prog.reference_fn is not None)
    print(f"{len(jobs)} different VALU instructions ({len({n for _, n in chosen})} distinct names, mix '{args.mix}'), "
          f"wave64; compiled and prepared in {compile_s:.1f} s; {fast} of them run a vectorised fast path, "
          f"the rest their compiled pseudocode")

    def round_compiled() -> tuple[float, float]:
        t, c = time.perf_counter(), time.process_time()
        with np.errstate(all="ignore"):
            for prog, _, ctx, regs in jobs:
                prog.fn(dict(regs), None, ctx)
        return len(jobs) / (time.perf_counter() - t), len(jobs) / max(time.process_time() - c, 1e-9)

    def round_evaluate() -> tuple[float, float]:
        t, c = time.perf_counter(), time.process_time()
        for prog, ops, _, _ in jobs:
            wave.run(prog, 64, 64, True, ops)
        return len(jobs) / (time.perf_counter() - t), len(jobs) / max(time.process_time() - c, 1e-9)

    round_compiled()  # warm caches
    if args.top:
        best = []
        with np.errstate(all="ignore"):
            for prog, _, ctx, regs in jobs:
                times = []
                for _ in range(5):
                    c = time.process_time()
                    for _ in range(5):
                        prog.fn(dict(regs), None, ctx)
                    times.append((time.process_time() - c) / 5)
                best.append((min(times), prog.arch, prog.name))
        best.sort(reverse=True)
        total = sum(b[0] for b in best)
        print(f"slowest {args.top} (CPU time per run, best of 5; all {len(best)} take {total * 1e3:.1f} ms):")
        for t, arch, name in best[: args.top]:
            print(f"  {t * 1e6:7.0f} us  {arch:8s} {name}")
    for label, rounds in (("compiled programs", [round_compiled() for _ in range(args.rounds)]),
                          ("full evaluate():  ", [round_evaluate() for _ in range(max(3, args.rounds // 3))])):
        wall = sorted(r[0] for r in rounds)
        cpu = statistics.median(r[1] for r in rounds)
        med = statistics.median(wall)
        print(f"{label}: median {med:,.0f} wave-instructions/s wall-clock (rounds {wall[0]:,.0f}..{wall[-1]:,.0f}), "
              f"{cpu:,.0f}/s CPU time  (ratio to the {GOAL:,}/s goal: {med / GOAL:.2f} wall, {cpu / GOAL:.2f} CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
