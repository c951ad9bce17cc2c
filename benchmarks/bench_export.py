"""The static export (issue 17 item 4: at most 60 s and 80 MB, every link checked).

    GPUISA_HOME=/tmp/gh-bench .venv/bin/python benchmarks/bench_export.py [--jobs N] [--keep DIR]

Runs `gpuisa export-site` of everything into an empty temporary folder as its own process (the store is built
first, outside the timing), then walks every href/src of every exported page (gpuisa.web.linkcheck).
Prints wall seconds and the CPU seconds of the export's processes (user+sys, this machine is shared), the bytes
of every file (what a static host serves), the disk usage (4 KiB blocks), the file count and where they are,
the links checked and broken, and the ratios to the issue's budgets.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUDGET_S, BUDGET_BYTES = 60.0, 80_000_000


def sizes(out: Path) -> tuple[int, int, int, dict[str, tuple[int, int]]]:
    """(bytes, disk bytes, files, {top folder: (files, bytes)})."""
    total = disk = n = 0
    parts: dict[str, tuple[int, int]] = {}
    for p in out.rglob("*"):
        if p.is_file():
            st = p.stat()
            total, disk, n = total + st.st_size, disk + st.st_blocks * 512, n + 1
            rel = p.relative_to(out).parts
            key = "/".join(rel[:2]) if rel[0] == "isa" and len(rel) > 2 else rel[0] if len(rel) > 1 else "."
            f, b = parts.get(key, (0, 0))
            parts[key] = (f + 1, b + st.st_size)
    return total, disk, n, parts


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--keep", help="export into this (new or empty) folder and keep it")
    args = ap.parse_args()
    gpuisa = [sys.executable, "-m", "gpuisa.cli"]
    subprocess.run([*gpuisa, "show", "v_msad_u8"], check=True, stdout=subprocess.DEVNULL)  # store built, not timed
    tmp = None
    if args.keep:
        out = Path(args.keep)
    else:
        tmp = tempfile.mkdtemp(prefix="gpuisa-export-")
        out = Path(tmp) / "site"
    cmd = [*gpuisa, "export-site", str(out)] + (["--jobs", str(args.jobs)] if args.jobs else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    total, disk, n, parts = sizes(out)
    from gpuisa.web.linkcheck import check_links

    checked, broken = check_links(out)
    print(f"gpuisa export-site (jobs {args.jobs or 'default'}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f})")
    print(f"  wall {wall:.1f} s   cpu {cpu:.1f} s (user+sys of the export's processes)")
    print(f"  size {total / 1e6:.1f} MB in {n} files   disk {disk / 1e6:.1f} MB")
    for key, (f, b) in sorted(parts.items(), key=lambda kv: -kv[1][1]):
        print(f"    {key:<16} {f:6d} files {b / 1e6:7.1f} MB")
    print(f"  links checked {checked}   broken {len(broken)}")
    for page, link, why in broken[:10]:
        print(f"    {page}: {link} ({why})")
    print(f"ratio wall / {BUDGET_S:.0f} s: {wall / BUDGET_S:.2f}   cpu / {BUDGET_S:.0f} s: {cpu / BUDGET_S:.2f}   "
          f"size / {BUDGET_BYTES / 1e6:.0f} MB: {total / BUDGET_BYTES:.2f}")
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
