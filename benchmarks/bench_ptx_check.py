"""`gpuisa ptx check --file` vs `ptxas -arch=sm_90` on one generated 5,000-instruction kernel (median of 7).

Times the full CLI (`python -m gpuisa.cli ptx check --file`, which loads every CLI plugin) and the
PTX-only entry point (`python -m gpuisa.ptx check --file`).  Byte code is compiled first, as an
installed package has it (this environment sets PYTHONDONTWRITEBYTECODE, so without that step every
run would compile the sources again).  Also reports peak memory of checking a 100,000-instruction file.
Run: .venv/bin/python benchmarks/bench_ptx_check.py
"""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gpuisa.ptx import ptxas
from gpuisa.ptx.semantics import COVERED

VIDEO = ["vadd", "vsub", "vabsdiff", "vmin", "vmax"]


def kernel(n: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    sels = ["", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"]
    lines = []
    for i in range(n):
        k = i % 4
        t = lambda: rng.choice([".u32", ".s32"])  # noqa: E731
        if k == 0:
            lines.append(f"{rng.choice(VIDEO)}{t()}{t()}{t()}{rng.choice(['', '.sat'])} r1, r2{rng.choice(sels)}, r3{rng.choice(sels)};")
        elif k == 1:
            lines.append(f"{rng.choice(['vadd2', 'vsub2', 'vavrg2', 'vmin2', 'vmax2', 'vabsdiff2'])}{t()}{t()}{t()} r1, r2, r3, r4;")
        elif k == 2:
            lines.append(f"{rng.choice(['add', 'sub', 'min', 'max'])}{rng.choice(['.u32', '.s32'])} r1, r2, r3;")
        else:
            lines.append(f"mad.lo{rng.choice(['.u32', '.s32'])} r1, r2, r3, r4;")
    return ptxas.wrap(lines, "sm_90", "9.0")


def median_time(cmd: list[str], runs: int = 7) -> float:
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main() -> int:
    tool = ptxas.find_ptxas()
    if not tool:
        print("ptxas not found", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "k5000.ptx"
        src.write_text(kernel(5000))
        rc = subprocess.run([tool, "-arch=sm_90", str(src), "-o", str(Path(tmp) / "k.cubin")], capture_output=True)
        assert rc.returncode == 0, rc.stderr.decode()[:500]
        import compileall

        import gpuisa

        compileall.compile_dir(str(Path(gpuisa.__file__).parent), quiet=1)
        ours = median_time([sys.executable, "-m", "gpuisa.cli", "ptx", "check", "--file", str(src)])
        ptx_only = median_time([sys.executable, "-m", "gpuisa.ptx", "check", "--file", str(src)])
        bare = median_time([sys.executable, "-c", "pass"])
        theirs = median_time([tool, "-arch=sm_90", str(src), "-o", str(Path(tmp) / "k.cubin")])
        print(f"5,000 instructions: ptxas -arch=sm_90 {theirs:.3f} s; gpuisa ptx check --file {ours:.3f} s, "
              f"ratio {theirs / ours:.2f}x (goal >= 10x); python -m gpuisa.ptx check --file {ptx_only:.3f} s, "
              f"ratio {theirs / ptx_only:.2f}x; bare python start-up {bare:.3f} s")
        big = Path(tmp) / "k100k.ptx"
        big.write_text(kernel(100_000))
        code = ("import resource,sys;from gpuisa.ptx.check import check_file;"
                f"check_file(open({str(big)!r}).read());"
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
        print(f"100,000 instructions: peak RSS {int(out) / 1024:.0f} MB (goal < 200 MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
