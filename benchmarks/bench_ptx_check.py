"""`gpuisa ptx check --file` vs `ptxas` on compiler output (median of whole-process runs, ratio).

Timed on two files of the committed corpus (tests/data/ptx_corpus, made by nvcc 13 with
tools/make_ptx_corpus.py): big.sm_90.ptx (about 25,000 instructions, nearly all distinct) and
mid.sm_90.ptx (one kernel of about 2,500 instructions).  Each command runs as a whole process
(interpreter start-up included), cold: every run gets a new, empty data folder (GPUISA_HOME), so no
gpuisa cache is carried between runs (the validator's forms come from the package's committed index,
data/ptx/forms.marshal); what is carried is what an installed package has: its byte code (compiled
first, as pip does; this environment sets PYTHONDONTWRITEBYTECODE) and the operating system's file
cache.  The runs of all commands are interleaved so that load from other work on the machine hits
them alike; printed: the median, the spread (min-max), the ratio of medians, and CPU time (user +
system of the process, less sensitive to other load) with its ratio.  Timed: the `gpuisa` console
script (`gpuisa ptx check --file`), the PTX-only entry point (`python -m gpuisa.ptx check --file`)
and `ptxas -arch=sm_90` (the files' target).
Also reports peak memory of checking a generated 100,000-instruction file.
Run: .venv/bin/python benchmarks/bench_ptx_check.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # (this checkout's package, for the benchmark and its child processes)

from gpuisa.ptx import ptxas  # noqa: E402

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


def timed_runs(cmds: dict[str, list[str]], runs: int, env: dict) -> tuple[dict, dict]:
    """Wall time and CPU time (user + system) of each command, the runs interleaved; each run with a new,
    empty data folder (nothing carried between runs)."""
    wall: dict[str, list[float]] = {k: [] for k in cmds}
    cpu: dict[str, list[float]] = {k: [] for k in cmds}
    with tempfile.TemporaryDirectory() as homes:
        for i in range(runs):
            for name, cmd in cmds.items():
                run_env = dict(env, GPUISA_HOME=os.path.join(homes, f"{name}-{i}"))  # (not made: empty)
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True, env=run_env)
                wall[name].append(time.perf_counter() - t0)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return wall, cpu


def _shown(ts: list[float]) -> str:
    return f"{statistics.median(ts):.3f} s (spread {min(ts):.3f}-{max(ts):.3f})"


def console_script() -> list[str]:
    """The installed `gpuisa` command next to this interpreter, else the module that it runs."""
    script = Path(sys.executable).parent / "gpuisa"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gpuisa.cli"]


CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "ptx_corpus"
FILES = (("big.sm_90.ptx", "compiler output, >= 20,000 distinct instructions"),
         ("mid.sm_90.ptx", "a 2,500-instruction kernel"))


def _instructions(path: Path) -> tuple[int, int]:
    """(instructions, distinct instruction texts) of a corpus file, as the front end reads them."""
    from gpuisa.ptx.lexer import blank_comments, statements

    texts = [" ".join(s.split()) for _, s, end in statements(blank_comments(path.read_text()))
             if end == ";" and s and s[0] != "."]
    return len(texts), len(set(texts))


def bench_file(tool: str, src: Path, what: str, runs: int, env: dict) -> None:
    cmds = {"gpuisa": console_script() + ["ptx", "check", "--file", str(src)],
            "ptx_only": [sys.executable, "-m", "gpuisa.ptx", "check", "--file", str(src)],
            "ptxas": [tool, "-arch=sm_90", str(src), "-o", os.devnull]}
    with tempfile.TemporaryDirectory() as home:  # (its verdict: every instruction valid)
        first = subprocess.run(cmds["gpuisa"], capture_output=True, text=True, env=dict(env, GPUISA_HOME=home))
    assert first.returncode == 0, first.stdout[-500:] + first.stderr[-500:]
    t, cpu = timed_runs(cmds, runs, env)
    theirs = statistics.median(t["ptxas"])
    ours, ptx_only = statistics.median(t["gpuisa"]), statistics.median(t["ptx_only"])
    med = {k: statistics.median(v) for k, v in cpu.items()}
    n, distinct = _instructions(src)
    print(f"{src.name} ({what}: {n:,} instructions, {distinct:,} distinct), {runs} runs each, cold (a new empty "
          "GPUISA_HOME per run):")
    print(f"  ptxas -arch=sm_90 {_shown(t['ptxas'])}")
    print(f"  gpuisa ptx check --file {_shown(t['gpuisa'])}: ratio {theirs / ours:.1f}x (goal >= 10x)")
    print(f"  python -m gpuisa.ptx check --file {_shown(t['ptx_only'])}: ratio {theirs / ptx_only:.1f}x")
    print(f"  CPU time (median): ptxas {med['ptxas']:.3f} s, gpuisa {med['gpuisa']:.3f} s "
          f"({med['ptxas'] / med['gpuisa']:.1f}x), python -m gpuisa.ptx {med['ptx_only']:.3f} s "
          f"({med['ptxas'] / med['ptx_only']:.1f}x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    args = ap.parse_args()
    tool = ptxas.find_ptxas()
    if not tool:
        print("ptxas not found", file=sys.stderr)
        return 2
    import compileall

    import gpuisa

    compileall.compile_dir(str(Path(gpuisa.__file__).parent), quiet=1)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    subprocess.run([sys.executable, "-c", "pass"], capture_output=True)
    print(f"bare python start-up: {_shown([_time([sys.executable, '-c', 'pass']) for _ in range(args.runs)])}")
    print("carried between runs: nothing of gpuisa's (each run: a new empty GPUISA_HOME); the byte code of the "
          "package (as installed) and the OS file cache")
    for name, what in FILES:
        bench_file(tool, CORPUS / name, what, args.runs, env)
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "k100k.ptx"
        big.write_text(kernel(100_000))
        code = ("import resource,sys;from gpuisa.ptx.frontend import check_file;"
                f"check_file(open({str(big)!r}).read());"
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stdout.strip()
        print(f"100,000 instructions (generated): peak RSS {int(out) / 1024:.0f} MB (goal < 200 MB)")
    return 0


def _time(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True)
    return time.perf_counter() - t0


if __name__ == "__main__":
    raise SystemExit(main())
