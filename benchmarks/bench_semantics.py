"""Throughput of the executable semantics: wave-instructions per second.

    .venv/bin/python benchmarks/bench_semantics.py [--rounds 15] [--count 1000] [--mix spread|first] [--top N]
                                                   [--sequence-only]

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

The sequence figure (printed last; ``--sequence-only`` prints just it): a program of 1,000
VALU instructions (RDNA4, wave64; a fixed random mix of 20 common forms: f32 add/sub/mul/
fma/fmac/max/min with abs/neg, clamp and inline constants, bitwise and shift ops, integer
add, compares into VCC, v_cndmask, conversions, rcp, moves) is assembled and prepared once
(basic blocks of steps, not timed) and run on one wave by ``gpuisa.run``'s machine, reading
64-lane random registers and writing results; median over rounds of CPU-time
wave-instructions/s against the goal of 100,000/s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import numpy as np

GOAL = 20_000
SEQUENCE_GOAL = 100_000
SEQUENCE_FORMS = ("v_add_f32 v{d}, v{a}, v{b}", "v_mul_f32 v{d}, v{a}, v{b}", "v_fma_f32 v{d}, v{a}, v{b}, v{c}",
                  "v_fmac_f32 v{d}, v{a}, v{b}", "v_sub_f32 v{d}, v{a}, v{b}", "v_max_num_f32 v{d}, v{a}, v{b}",
                  "v_min_num_f32 v{d}, v{a}, v{b}", "v_and_b32 v{d}, v{a}, v{b}", "v_or_b32 v{d}, v{a}, v{b}",
                  "v_xor_b32 v{d}, v{a}, v{b}", "v_lshlrev_b32 v{d}, 3, v{a}", "v_add_nc_u32 v{d}, v{a}, v{b}",
                  "v_cndmask_b32 v{d}, v{a}, v{b}, vcc", "v_cmp_lt_f32 vcc, v{a}, v{b}", "v_mov_b32 v{d}, v{a}",
                  "v_add_f32_e64 v{d}, -v{a}, |v{b}|", "v_mul_f32 v{d}, 0.5, v{a}", "v_cvt_f32_i32 v{d}, v{a}",
                  "v_rcp_f32 v{d}, v{a}", "v_fma_f32 v{d}, v{a}, v{b}, 1.0 clamp")


def sequence_figure(rounds: int) -> None:
    """Wave-instructions/s of a 1,000-instruction VALU program on the wave machine (see the docstring)."""
    from gpuisa.semantics.machine import from_values
    from gpuisa.semantics.program import execute, parse

    rng = random.Random(5)
    lines = [rng.choice(SEQUENCE_FORMS).format(d=rng.randrange(24, 64), a=rng.randrange(64), b=rng.randrange(64),
                                                c=rng.randrange(64)) for _ in range(1000)]
    t0 = time.perf_counter()
    prog = parse("rdna4", "\n".join(lines), 64)
    prep = time.perf_counter() - t0
    start = from_values("rdna4", 64, {f"V{i}": [rng.uniform(-4, 4) for _ in range(64)] for i in range(64)})
    execute(prog, start.copy())  # warm caches
    cpu, wall = [], []
    for _ in range(rounds):
        ws = start.copy()
        t, c = time.perf_counter(), time.process_time()
        execute(prog, ws)
        wall.append(1000 / (time.perf_counter() - t))
        cpu.append(1000 / max(time.process_time() - c, 1e-9))
    med = statistics.median(cpu)
    print(f"sequence of 1,000 VALU instructions (rdna4, wave64; prepared once in {prep:.2f} s): median "
          f"{med:,.0f} wave-instructions/s CPU time, {statistics.median(wall):,.0f}/s wall-clock "
          f"(ratio to the {SEQUENCE_GOAL:,}/s goal: {med / SEQUENCE_GOAL:.2f} CPU)")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--mix", choices=("spread", "first"), default="spread")
    ap.add_argument("--top", type=int, default=0, help="list the N slowest instructions of the mix")
    ap.add_argument("--sequence-only", action="store_true", help="only the 1,000-instruction sequence figure")
    args = ap.parse_args()
    if args.sequence_only:
        sequence_figure(args.rounds)
        return 0

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
    sequence_figure(args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
