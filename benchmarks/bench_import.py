"""Import of one full-size architecture: seconds and peak RSS (median of 3).

    .venv/bin/python benchmarks/bench_import.py [--target-mb 14] [--runs 3]

The file is synthesised from AMD's real RDNA3.5 excerpt (../shared/fixtures/amd-mrisa):
its instructions are repeated under new names and opcodes until the file is as
large as the real ones (11-17 MB), and its operand types and data formats are kept.
Each run imports into a fresh GPUISA_HOME in a child process; the reference is the
issue's budget (10 s, 500 MB).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT.parent / "shared" / "fixtures" / "amd-mrisa" / "amdgpu_isa_rdna3_5.excerpt.xml"


def synthesise(target_bytes: int, out: Path) -> int:
    text = FIXTURE.read_text()
    head, rest = text.split("<Instructions>", 1)
    body, tail = rest.split("</Instructions>", 1)
    blocks = re.findall(r"\s*<Instruction>.*?</Instruction>", body, re.S)
    copies, n = [], 0
    size = len(head) + len(tail)
    while size < target_bytes:
        for b in blocks:
            n += 1
            b2 = re.sub(r"<InstructionName>([^<]+)</InstructionName>", rf"<InstructionName>\1_SYN{n}</InstructionName>", b)
            b2 = re.sub(r'<Opcode Radix="10">(\d+)</Opcode>', lambda m: f'<Opcode Radix="10">{1000 + n}</Opcode>', b2)
            copies.append(b2)
            size += len(b2)
    out.write_text(head + "<Instructions>" + "".join(copies) + "\n        </Instructions>" + tail)
    return n


def run_once(path: Path) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, GPUISA_HOME=home)
        code = ("import resource, sys, time; from gpuisa.amdxml.cli import import_paths; t=time.perf_counter(); "
                f"import_paths([{str(path)!r}], out=lambda *a: None); "
                "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        secs, rss_kb = r.stdout.split()
        return float(secs), int(rss_kb) / 1024


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--target-mb", type=float, default=14.0)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    if not FIXTURE.exists():
        print(f"needs {FIXTURE}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as d:
        xml = Path(d) / "synthetic_rdna3_5.xml"
        n = synthesise(int(args.target_mb * 2**20), xml)
        size_mb = xml.stat().st_size / 2**20
        results = [run_once(xml) for _ in range(args.runs)]
    secs = statistics.median(r[0] for r in results)
    rss = statistics.median(r[1] for r in results)
    print(f"synthetic file: {size_mb:.1f} MB, {n} instructions")
    print(f"import (parse + cross-check + install + store rebuild): median {secs:.2f} s, peak RSS {rss:.0f} MB "
          f"over {args.runs} runs")
    print(f"ratio to budget: time {secs / 10:.2f} of 10 s, memory {rss / 500:.2f} of 500 MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
