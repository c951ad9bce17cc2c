"""Web reference under load, and the static export's duration.

    .venv/bin/python benchmarks/bench_web.py [--duration 60] [--connections 50]   # load: pages, then search
    .venv/bin/python benchmarks/bench_web.py --export                             # time `export-site` of everything

Load: `gpuisa serve` runs in its own process; the load comes from another process, `wrk` (apt-get install
wrk) when it is installed, else the bounded asyncio load generator below (keep-alive HTTP/1.1, one
connection per client).  Pages: 600 instruction pages spread over every architecture; search: 300
queries (name fragments, words, typos, LLVM spellings, gfx targets) through /api/search and the grouped
/search page.  Every request asks for gzip, as browsers do.  All are warmed first, so the numbers are the
served-from-memory case; the cold cost of a search (no cache) is printed separately.
Prints p50/p99 in ms, errors, requests/s, the CPU seconds the load generator and the server each used
(both share this machine's cores), and each p99's ratio to the issue's budget (25 ms pages, 50 ms search).
Export: one full `export-site` into a temporary folder: seconds, bytes, disk usage, files, ratio to budgets.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

WRK_LUA = """
local paths = {}
local i = 0
init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  i = math.random(#paths)
end
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workload(seed: int = 7) -> tuple[list[str], list[str]]:
    from gpuisa.store import Store

    st = Store()
    rng = random.Random(seed)
    pages, names = [], []
    for a in st.archs():
        arch_names = sorted(st.all_names(a["name"]))
        names += arch_names
        pages += [f"/isa/{a['name']}/{quote(n)}" for n in rng.sample(arch_names, min(60, len(arch_names)))]
    words = ["msad", "add", "buffer load", "v_cmp", "ds_", "scalar", "barrier", "mfma", "wmma", "cvt", "sqrt",
             "fma", "mov", "exec", "global store", "atomic", "packed", "bfe", "shuffle", "dot"]
    queries = set(words)
    while len(queries) < 300:
        n = rng.choice(names)
        k = rng.randint(3, min(10, len(n)))
        start = rng.randint(0, len(n) - k)
        queries.add(n[start:start + k])
    queries |= {"msda", "v_msadu8", "v_cndmask_b32_e64", "v_add_f32_dpp", "v_add gfx1100", "fma gfx942",
                "FMT_NUM_I24", "vsub.s32.s32.u32.sat", "bufer load", "s_wait_cnt"}
    ordered = sorted(queries)
    searches = [f"/api/search?limit=30&q={quote(q)}" for q in ordered[::2]]
    searches += [f"/search?q={quote(q)}" for q in ordered[1::2]]
    return pages, searches


def start_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "gpuisa.cli", "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/archs", timeout=2).read()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("server failed to start: " + proc.stderr.read().decode())
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not answer within 60 s")


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of another process, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def warm(port: int, paths: list[str]) -> None:
    for p in paths:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{p}", timeout=30).read()


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    v, unit = float(m.group(1)), m.group(2)
    return v * {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 6e4}[unit]


def run_wrk(port: int, paths: list[str], duration: int, connections: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "paths.txt").write_text("\n".join(paths) + "\n")
        (Path(tmp) / "rotate.lua").write_text(WRK_LUA)
        out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", "-s",
                              str(Path(tmp) / "rotate.lua"), f"http://127.0.0.1:{port}", "--", str(Path(tmp) / "paths.txt")],
                             capture_output=True, text=True, check=True).stdout
    pct = dict(re.findall(r"^\s+(50|99)%\s+(\S+)$", out, re.M))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    non2xx = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    sock = sum(int(x) for x in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    return {"tool": "wrk", "p50": _ms(pct["50"]), "p99": _ms(pct["99"]), "requests": total,
            "errors": non2xx + sock, "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}


async def _client(port: int, paths: list[str], deadline: float, lat: list[float], errs: list[int], offset: int):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    i = offset
    try:
        while time.perf_counter() < deadline:
            path = paths[i % len(paths)]
            i += 1
            t0 = time.perf_counter()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
            await reader.readexactly(length)
            lat.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                errs.append(status)
    finally:
        writer.close()


def run_python(port: int, paths: list[str], duration: int, connections: int) -> dict:
    lat: list[float] = []
    errs: list[int] = []

    async def main():
        deadline = time.perf_counter() + duration
        await asyncio.gather(*[_client(port, paths, deadline, lat, errs, k * 7) for k in range(connections)])

    t0 = time.perf_counter()
    asyncio.run(main())
    took = time.perf_counter() - t0
    q = statistics.quantiles(lat, n=100)
    return {"tool": "python asyncio", "p50": q[49], "p99": q[98], "requests": len(lat), "errors": len(errs),
            "rps": len(lat) / took}


def load(args) -> int:
    pages, searches = workload()
    port = free_port()
    proc = start_server(port)
    try:
        warm(port, pages + searches)
        runner = run_wrk if shutil.which("wrk") and not args.python_client else run_python
        for label, paths, budget in (("instruction pages", pages, 25.0), ("search", searches, 50.0)):
            g0, s0 = _self_cpu(), _proc_cpu(proc.pid)
            r = runner(port, paths, args.duration, args.connections)
            gen, srv = _self_cpu() - g0, _proc_cpu(proc.pid) - s0
            print(f"{label:17s} [{r['tool']}, {args.connections} clients, {args.duration} s]: p50 {r['p50']:.2f} ms  "
                  f"p99 {r['p99']:.2f} ms  errors {r['errors']}  {r['requests']} requests ({r['rps']:.0f}/s)  "
                  f"ratio p99/budget {r['p99'] / budget:.2f} (budget {budget:.0f} ms); CPU: load generator "
                  f"{gen:.1f} s ({100 * gen / args.duration:.0f}% of a core), server {srv:.1f} s "
                  f"({100 * srv / args.duration:.0f}%)")
    finally:
        proc.terminate()
        proc.wait(10)
    from gpuisa.web.site import Site

    site = Site()
    site.search.search("warm")
    qs = [re.search(r"q=([^&]+)", s).group(1) for s in searches]
    samples = []
    for q in qs:
        t0 = time.perf_counter()
        site.search.search(urllib.request.unquote(q), None)
        samples.append((time.perf_counter() - t0) * 1000)
    print(f"uncached search (no server, one at a time): median {statistics.median(samples):.1f} ms, "
          f"max {max(samples):.1f} ms over {len(qs)} queries")
    print(f"machine: {os.cpu_count()} CPUs; load average at the end {os.getloadavg()[0]:.2f}")
    return 0


def export(args) -> int:
    from gpuisa.web.export import export_site

    with tempfile.TemporaryDirectory() as tmp:
        c0 = os.times()
        r = export_site(Path(tmp) / "site", jobs=args.jobs)
        c1 = os.times()
        root = Path(tmp) / "site"
        files = [p for p in root.rglob("*") if p.is_file()]
        size = sum(p.stat().st_size for p in files)
        kinds: dict[str, list[int]] = {}
        for p in files:
            parts = p.relative_to(root).parts
            if len(parts) == 1:
                kind = "top pages"
            elif parts[0] != "isa":
                kind = parts[0]
            else:
                kind = {2: "isa/ARCH", 3: "isa/ARCH/NAME"}.get(len(parts)) or f"isa/ARCH/{parts[2]}/*"
            n_b = kinds.setdefault(kind, [0, 0])
            n_b[0] += 1
            n_b[1] += p.stat().st_size
        disk = subprocess.run(["du", "-sk", str(Path(tmp) / "site")], capture_output=True, text=True).stdout.split()[0]
    cpu = (c1.user - c0.user) + (c1.children_user - c0.children_user) + (c1.system - c0.system) + \
          (c1.children_system - c0.children_system)
    print(f"export-site: {r['pages']} pages in {r['seconds']:.1f} s wall ({cpu:.1f} s CPU, {os.cpu_count()} CPUs); "
          f"ratio to the 60 s budget {r['seconds'] / 60:.2f}; load average {os.getloadavg()[0]:.2f}")
    print(f"export size: {size / 1e6:.1f} MB in {len(files)} files (disk usage {int(disk) / 1024:.1f} MiB); "
          f"ratio to the 80 MB budget {size / 80e6:.2f}")
    for kind, (n, b) in sorted(kinds.items(), key=lambda kv: -kv[1][1])[:6]:
        print(f"  {kind:24s} {n:6d} files {b / 1e6:7.1f} MB ({b / n / 1e3:.1f} kB each)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", type=int, default=60)
    ap.add_argument("--connections", type=int, default=50)
    ap.add_argument("--python-client", action="store_true", help="use the asyncio load generator even if wrk exists")
    ap.add_argument("--export", action="store_true", help="time the full static export instead")
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    return export(args) if args.export else load(args)


if __name__ == "__main__":
    raise SystemExit(main())
