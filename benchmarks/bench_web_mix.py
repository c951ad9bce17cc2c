"""`gpuisa serve` under a mixed load: pages, search and the playground (decode, encode, eval) at once.

    .venv/bin/python benchmarks/bench_web_mix.py [--duration 60] [--clients 50] [--workers N]

Starts `gpuisa serve` on 127.0.0.1 (a free port) in its own process, warms every URL of the mix once, then runs
``clients`` keep-alive HTTP/1.1 clients (asyncio + httpx, loopback only) for ``duration`` seconds, each picking
its next request at random: 60 % instruction pages, 20 % search (/api/search and /search), 20 % playground
(/api/eval, /api/decode, /api/encode and the no-JavaScript /playground page).  Prints per kind: requests,
status counts, p50/p99/max in ms; the server's RSS (its own and its worker processes') after start, after the
warm-up and at the end; and the budgets of the issue (pages p99 <= 50 ms, no 5xx, memory flat after warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in Path(f"/proc/{p}").joinpath("task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return out


def rss_mb(pid: int) -> float:
    """RSS of a process and its children (the playground's workers), in MiB."""
    total = 0
    for p in _tree(pid):
        try:
            total += sum(int(x.split()[1]) for x in Path(f"/proc/{p}/status").read_text().splitlines()
                         if x.startswith("VmRSS:"))
        except (OSError, ValueError):
            continue
    return total / 1024


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a process and its live children."""
    total = 0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


class Server:
    """`gpuisa serve` in a subprocess on 127.0.0.1:<free port>; stopped on exit (or after ``max_s``)."""

    def __init__(self, extra: list[str] | None = None, max_s: float = 600, env: dict | None = None):
        self.port = free_port()
        cmd = [sys.executable, "-m", "gpuisa.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               *(extra or [])]
        self.proc = subprocess.Popen(["timeout", "-s", "INT", str(int(max_s)), *cmd], cwd=ROOT, env=env or os.environ,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.base = f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:  # the server under `timeout`
        kids = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        return int(kids[0]) if kids else self.proc.pid

    def wait_ready(self, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gpuisa serve stopped: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gpuisa serve did not start")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.send_signal(2)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.stderr.read().decode() if self.proc.stderr else ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def workload(seed: int = 7, pages: int = 200, wide: int = 0, store=None) -> dict[str, list]:
    """(kind) -> [(method, path, json body)]: instruction pages, searches and playground actions."""
    from gpuisa.store import Store

    st, rng = store or Store(), random.Random(seed)
    paths = []
    for a in st.archs():
        names = sorted(st.all_names(a["name"]))
        paths += [f"/isa/{a['name']}/{quote(n)}" for n in rng.sample(names, min(pages // 10 + 1, len(names)))]
    words = ["msad", "add", "buffer load", "v_cmp", "ds_", "mfma", "wmma", "cvt", "sqrt", "fma", "mov", "dot"]
    search = [("GET", f"/api/search?limit=30&q={quote(w)}", None) for w in words]
    search += [("GET", f"/search?q={quote(w)}", None) for w in words[::2]]
    ops = {"S0": "0x01020304", "S1": "0x01010101", "S2": 0}
    play = [("POST", "/api/eval", {"arch": a, "name": n, "lanes": lanes, "operands": ops})
            for a, n, lanes in [("rdna4", "v_msad_u8", 32), ("rdna3", "v_add_nc_u32", 32), ("cdna3", "v_mul_lo_u32", 64),
                                ("rdna4", "s_bfe_u32", 1), ("rdna2", "v_sad_u32", 16), ("cdna3", "v_mad_u64_u32", 64),
                                ("rdna3", "v_dot4_u32_u8", 32), ("cdna2", "v_sad_u16", 64)]]
    varied = ["v_msad_u8 v5, v1, v2, s3", "s_add_u32 s0, s1, s2", "v_mov_b32 v0, v1", "v_add_f32 v0, v1, v2",
              "s_mov_b32 s0, 0x12345678", "v_fma_f32 v0, v1, v2, v3"]
    play += [("POST", "/api/decode", {"arch": a, "hex": "05 00 39 d6 01 05 0e 00 " * 32})
             for a in ("rdna3", "rdna2", "cdna3", "rdna4")]
    play += [("POST", "/api/encode", {"arch": a, "text": "\n".join(varied * 10)}) for a in ("rdna3", "rdna2")]
    play += [("GET", "/playground?mode=eval&arch=rdna4&name=v_msad_u8&lanes=32&operands=S0%3D0x01020304+S1%3D7+S2%3D0",
              None), ("GET", "/playground?mode=decode&arch=rdna3&hex=05+00+39+d6+01+05+0e+00", None)]
    if wide:
        play += wide_playground(st, rng, wide)
    return {"page": [("GET", p, None) for p in rng.sample(paths, min(pages, len(paths)))], "search": search,
            "play": play}


def wide_playground(st, rng: random.Random, n: int) -> list[tuple[str, str, dict | None]]:
    """``n`` playground requests over every native architecture: evaluations of instructions drawn from each
    one's whole list (most compiled for the first time: the expensive case), decodes of random bytes."""
    native = [a["name"] for a in st.archs() if a["kind"] == "native"]
    names = {a: sorted(st.all_names(a)) for a in native}
    out = []
    for _ in range(n):
        a = rng.choice(native)
        if rng.random() < 0.75:
            ops = {f"S{i}": rng.choice([rng.getrandbits(32), rng.getrandbits(16), "0x3f800000"]) for i in range(3)}
            out.append(("POST", "/api/eval", {"arch": a, "name": rng.choice(names[a]), "lanes": rng.choice([1, 8, 32]),
                                              "operands": ops}))
        else:
            out.append(("POST", "/api/decode", {"arch": a, "hex": rng.randbytes(64).hex(" ")}))
    return out


MIX = (("page", 0.6), ("search", 0.2), ("play", 0.2))


class RawClient:
    """A minimal keep-alive HTTP/1.1 client on asyncio streams: a few times cheaper in CPU than httpx, so that on
    a small machine the load generator takes less of the CPU the server needs.  Async context manager."""

    def __init__(self, port: int):
        self.port, self.reader, self.writer = port, None, None

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def _send(self, method: str, path: str, body) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = json.dumps(body).encode() if body is not None else b""
        head = f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\naccept-encoding: gzip\r\n"
        if body is not None:
            head += f"content-type: application/json\r\ncontent-length: {len(data)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        lines = (await self.reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
        status = int(lines[0].split()[1])
        headers = dict(x.split(b":", 1) for x in lines[1:] if b":" in x)
        headers = {k.strip().lower(): v.strip().lower() for k, v in headers.items()}
        if b"content-length" in headers:
            await self.reader.readexactly(int(headers[b"content-length"]))
        elif headers.get(b"transfer-encoding") == b"chunked":
            while (size := int((await self.reader.readuntil(b"\r\n")).strip(), 16)):
                await self.reader.readexactly(size + 2)
            await self.reader.readuntil(b"\r\n")
        if headers.get(b"connection") == b"close":
            self.close()
        return status

    async def get(self, path: str):
        return await self._send("GET", path, None)

    async def post(self, path: str, json=None):
        return await self._send("POST", path, json)


async def _one(client, method: str, path: str, body) -> tuple[int, float]:
    t = time.perf_counter()
    try:
        r = await (client.post(path, json=body) if method == "POST" else client.get(path))
        status = r if isinstance(r, int) else r.status_code
    except Exception:  # a refused or dropped connection counts as a failure, like a 5xx
        status = 599
        if isinstance(client, RawClient):
            client.close()
    return status, time.perf_counter() - t


async def run_mix(base: str, work: dict, duration: float, clients: int, seed: int = 1, think: float = 0.0,
                  raw: bool = False, settle: float = 0.0) -> dict:
    """``clients`` keep-alive clients for ``duration`` s: {kind: {"status": Counter, "lat": [s]}}.  ``raw``: the
    RawClient instead of httpx.  ``settle``: requests started in the first ``settle`` s (clients connecting, the
    server's first use of each worker) are made but not counted."""
    import httpx

    out: dict = defaultdict(lambda: {"status": Counter(), "lat": []})
    kinds, weights = zip(*MIX)
    end = time.monotonic() + duration
    counted = time.monotonic() + settle

    async def client_loop(i: int):
        rng = random.Random(seed * 1000 + i)
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        port = int(base.rsplit(":", 1)[1])
        async with (RawClient(port) if raw else httpx.AsyncClient(base_url=base, limits=limits, timeout=30,
                                                                  headers={"accept-encoding": "gzip"})) as client:
            while time.monotonic() < end:
                kind = rng.choices(kinds, weights)[0]
                started = time.monotonic()
                status, lat = await _one(client, *rng.choice(work[kind]))
                if started >= counted:
                    out[kind]["status"][status] += 1
                    out[kind]["lat"].append(lat)
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))

    await asyncio.gather(*(client_loop(i) for i in range(clients)))
    return dict(out)


async def warm(base: str, work: dict) -> Counter:
    import httpx

    seen = Counter()
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for kind in work:
            for method, path, body in work[kind][:300]:  # the wide playground's cold cost is the measurement
                seen[(await _one(client, method, path, body))[0]] += 1
    return seen


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000 if s else 0.0


def summary(result: dict) -> dict:
    return {k: {"n": len(v["lat"]), "status": dict(sorted(v["status"].items())), "p50_ms": round(pct(v["lat"], .5), 1),
                "p99_ms": round(pct(v["lat"], .99), 1), "max_ms": round(max(v["lat"], default=0) * 1000, 1)}
            for k, v in sorted(result.items())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duration", type=float, default=60)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--workers", type=int, default=None, help="gpuisa serve --eval-workers")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds each client waits between requests (default 0: closed loop, saturating)")
    ap.add_argument("--wide", type=int, default=2000,
                    help="playground requests drawn over every architecture's instructions (default 2000; 0: none)")
    ap.add_argument("--httpx", action="store_true", help="load from httpx clients (default: the lighter RawClient)")
    ap.add_argument("--old", action="store_true",
                    help="no --eval-workers (a gpuisa serve from before the worker processes, e.g. via PYTHONPATH)")
    args = ap.parse_args()
    work = workload(wide=args.wide)
    extra = ["--eval-workers", str(args.workers)] if args.workers and not args.old else []
    with Server(extra, max_s=args.duration + 300) as srv:
        srv.wait_ready()
        rss0 = rss_mb(srv.pid)
        t = time.monotonic()
        statuses = asyncio.run(warm(srv.base, work))
        print(f"warm-up: {sum(statuses.values())} URLs in {time.monotonic() - t:.1f} s, statuses {dict(statuses)}")
        raw = not args.httpx
        asyncio.run(run_mix(srv.base, work, min(10.0, args.duration), args.clients, seed=99, raw=raw))  # warm-up
        rss1, cpu1, own1, t1 = rss_mb(srv.pid), cpu_s(srv.pid), time.process_time(), time.monotonic()
        result = summary(asyncio.run(run_mix(srv.base, work, args.duration, args.clients, think=args.think, raw=raw)))
        rss2, cpu2, own2, t2 = rss_mb(srv.pid), cpu_s(srv.pid), time.process_time(), time.monotonic()
    fivexx = sum(n for k in result.values() for s, n in k["status"].items() if s >= 500)
    print(json.dumps(result))
    n = sum(k["n"] for k in result.values())
    print(f"{n} requests in {t2 - t1:.1f} s ({n / (t2 - t1):.0f}/s); CPU s: server + workers {cpu2 - cpu1:.1f}, "
          f"load generator {own2 - own1:.1f} (of {os.cpu_count()} cores x {t2 - t1:.0f} s)")
    print(f"RSS (server + workers): {rss0:.0f} MiB after start, {rss1:.0f} after warm-up, {rss2:.0f} at the end")
    page_p99 = result.get("page", {}).get("p99_ms", 0)
    print(f"budgets: page p99 {page_p99} ms (<= 50: {'ok' if page_p99 <= 50 else 'OVER'}), 5xx {fivexx} "
          f"({'ok' if not fivexx else 'OVER'}), memory growth after warm-up {rss2 - rss1:+.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
