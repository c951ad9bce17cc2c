"""Cold `gpuisa show v_msad_u8`: a new process each run; prints the median and ratios.

    .venv/bin/python benchmarks/bench_show.py [--runs 21]

The reference is a bare `python -c pass` start on the same machine (the floor no Python
CLI can beat) and the issue's budget of 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def timed(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    subprocess.run([sys.executable, "-m", "gpuisa.cli", "show", "v_msad_u8"], check=True, stdout=subprocess.DEVNULL)
    show = timed([sys.executable, "-m", "gpuisa.cli", "show", "v_msad_u8"], args.runs)
    show_json = timed([sys.executable, "-m", "gpuisa.cli", "show", "v_msad_u8", "--json"], args.runs)
    bare = timed([sys.executable, "-c", "pass"], args.runs)
    print(f"cold gpuisa show v_msad_u8 (piped): median {show * 1000:.1f} ms over {args.runs} runs")
    print(f"cold gpuisa show v_msad_u8 --json:  median {show_json * 1000:.1f} ms")
    print(f"bare python start:                  median {bare * 1000:.1f} ms")
    print(f"ratio show / 0.5 s budget: {show / 0.5:.2f}   ratio show / bare python: {show / bare:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
