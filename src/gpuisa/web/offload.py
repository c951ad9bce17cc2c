"""The playground's work (decode, encode, evaluate, PTX check/eval) in worker processes, with a time budget.

A worker thread alone does not keep the server answering: evaluation is Python code, and while threads hold
the GIL the event loop waits its turn behind each one, and a runaway evaluation cannot be stopped.  So
``gpuisa serve`` runs these actions in separate processes; the event loop waits on their pipes (no thread, no
GIL held while waiting), and the JSON API's actions are answered straight from ``hardening.harden``
(``api_answer``).  The no-JavaScript playground page calls the same actions from its worker thread, bridged to
the loop (``Pool.call``).

Budget: a request waits at most ``budget`` seconds for a free worker (else 503) and the worker has ``budget``
seconds to answer (else 504: the worker is killed and a fresh one started, so a runaway evaluation costs
nothing after its budget); an action's first call for an architecture in a worker (tables to load) gets five
times as long.  At most ``max_waiting`` requests wait at once; more are answered 503 at once.  A worker whose
memory passes ``max_rss_mb`` is replaced after its answer, so memory stays flat.  Busy and TooSlow are
``HTTPException``s, so on the page path the app's own handler answers them in one line.

``install(pool)`` routes ``gpuisa.web.playground``'s actions through the pool (the API routes and the
playground page call them by module attribute); ``uninstall()`` undoes it.  Without it (tests, embedding)
the actions run in the calling thread as before.
"""

from __future__ import annotations

import asyncio
import collections
import json
import multiprocessing
import os
import signal
import time

from starlette.exceptions import HTTPException

ACTIONS = ("decode", "encode", "evaluate", "ptx_check", "ptx_evaluate")
STARTUP_S = 60.0  # a fresh worker imports gpuisa and loads its tables once


class Busy(HTTPException):
    def __init__(self, message: str):
        super().__init__(503, message, headers={"retry-after": "1"})


class TooSlow(HTTPException):
    def __init__(self, message: str):
        super().__init__(504, message)


class WorkerBug(Exception):
    """An exception in feature code (a bug, answered 500), reported by a worker as one line."""


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _worker_main(conn, nice: int, max_rss_mb: float) -> None:
    """A worker process: answer (action, args, kwargs) with ("ok", result) / ("error", exception)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    try:
        os.nice(nice)
    except OSError:
        pass
    from . import playground

    conn.send(("ready", os.getpid()))
    while True:
        try:
            action, args, kwargs = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            if action not in ACTIONS:
                raise LookupError(f"no playground action {action!r}")
            reply = ("ok", getattr(playground, action)(*args, **kwargs))
        except (playground.BadInput, playground.FeatureMissing) as exc:
            reply = ("error", exc)
        except Exception as exc:  # a bug: its one line, answered 500 by the server
            reply = ("bug", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        retire = _rss_mb() > max_rss_mb
        try:
            conn.send((*reply, retire))
        except Exception as exc:  # an answer that does not pickle
            conn.send(("bug", f"cannot send the answer: {type(exc).__name__}", retire))
        if retire:
            return


async def _readable(conn, timeout: float) -> None:
    """Wait, on the running event loop, until ``conn`` has data; TimeoutError after ``timeout`` seconds."""
    if conn.poll():
        return
    loop = asyncio.get_running_loop()
    fut = loop.create_future()
    fd = conn.fileno()

    def readable() -> None:
        if not fut.done():
            fut.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await asyncio.wait_for(fut, timeout)
    finally:
        loop.remove_reader(fd)


class Worker:
    def __init__(self, ctx, nice: int, max_rss_mb: float):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, nice, max_rss_mb), daemon=True,
                                name="gpuisa-playground")
        self.proc.start()
        child.close()
        self.ready = self.pending = False
        self.seen: set = set()  # (action, arch) answered once: tables loaded

    async def call(self, action: str, args: tuple, kwargs: dict, budget: float):
        if not self.ready:
            await _readable(self.conn, STARTUP_S)
            self.conn.recv()
            self.ready = True
        self.conn.send((action, args, kwargs))
        self.pending = True
        await _readable(self.conn, budget)
        self.pending = False
        return self.conn.recv()

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class Pool:
    """``workers`` processes answering playground actions within ``budget`` seconds each, used from one event
    loop (``acall``) or from its worker threads (``call``)."""

    def __init__(self, workers: int = 1, budget: float = 2.0, max_waiting: int = 256, nice: int = 0,
                 max_rss_mb: float = 600.0, start_method: str = "spawn"):
        self.budget, self.max_waiting = budget, max_waiting
        self.ctx = multiprocessing.get_context(start_method)
        self.nice, self.max_rss_mb = nice, max_rss_mb
        self.workers = [self._new() for _ in range(max(1, workers))]
        self.idle: list[Worker] = list(self.workers)
        self.waiters: collections.deque = collections.deque()
        self.closed = False
        self.stats = {"calls": 0, "busy": 0, "too_slow": 0, "restarts": 0}

    def _new(self) -> Worker:
        return Worker(self.ctx, self.nice, self.max_rss_mb)

    def _replace(self, old: Worker) -> Worker:
        old.stop()
        new = self._new()
        self.workers = [new if w is old else w for w in self.workers]
        self.stats["restarts"] += 1
        return new

    def warm(self, timeout: float = STARTUP_S) -> None:
        """Block until every worker has started (before the event loop runs)."""
        for w in self.workers:
            if not w.ready and w.conn.poll(timeout):
                w.conn.recv()
                w.ready = True

    async def _take(self) -> Worker:
        if self.closed:
            raise Busy("the server is stopping")
        if self.idle:
            return self.idle.pop()
        if len(self.waiters) >= self.max_waiting:
            self.stats["busy"] += 1
            raise Busy("the playground is busy: try again in a moment")
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append(fut)
        try:
            await asyncio.wait({fut}, timeout=self.budget)
        finally:
            if not fut.done():
                fut.cancel()
        if fut.cancelled():
            self.waiters.remove(fut) if fut in self.waiters else None
            self.stats["busy"] += 1
            raise Busy(f"the playground is busy (no worker free within {self.budget:g} s): try again")
        return fut.result()

    def _give(self, w: Worker) -> None:
        while self.waiters:
            fut = self.waiters.popleft()
            if not fut.done():
                fut.set_result(w)
                return
        self.idle.append(w)

    async def acall(self, action: str, args: tuple, kwargs: dict | None = None, budget: float | None = None):
        """``playground.<action>(*args, **kwargs)`` in a worker: its result, or its BadInput/FeatureMissing."""
        from . import playground

        w = await self._take()
        drained = False  # handed to a drain task (which gives it back)
        arch = args[0] if action in ("decode", "encode", "evaluate") and args and isinstance(args[0], str) else None
        key = (action, arch[:32] if arch else None)
        if budget is None:  # the first call of an action for an architecture loads its tables: more time
            budget = self.budget if key in w.seen else max(5 * self.budget, 10.0)
        try:
            try:
                kind, value, retire = await w.call(action, args, kwargs or {}, budget)
                if len(w.seen) < 128:
                    w.seen.add(key)
            except (TimeoutError, asyncio.TimeoutError):
                w = self._replace(w)
                self.stats["too_slow"] += 1
                raise TooSlow(f"{action.replace('_', ' ')} took longer than {budget:g} s and was stopped") from None
            except (EOFError, OSError):
                w = self._replace(w)
                raise Busy("the playground's worker stopped: try again") from None
            except asyncio.CancelledError:  # the client went away: the worker is back once its answer is read
                if w.pending:
                    asyncio.get_running_loop().create_task(self._drain(w, budget))
                    drained = True
                raise
            if retire:
                w = self._replace(w)
        finally:
            if not drained:
                self._give(w)
        self.stats["calls"] += 1
        if kind == "ok":
            return value
        if kind == "error" and isinstance(value, (playground.BadInput, playground.FeatureMissing)):
            raise value
        raise WorkerBug(str(value))

    async def _drain(self, w: Worker, budget: float) -> None:
        try:
            await _readable(w.conn, budget)
            w.conn.recv()
            w.pending = False
        except (TimeoutError, asyncio.TimeoutError, EOFError, OSError):
            w = self._replace(w)
        self._give(w)

    def call(self, action: str, args: tuple, kwargs: dict | None = None):
        """``acall`` from a worker thread of the event loop (the playground page); elsewhere in this thread."""
        import anyio
        import anyio.from_thread

        try:
            return anyio.from_thread.run(self.acall, action, args, kwargs)
        except getattr(anyio, "NoEventLoopError", ()):  # not a worker thread of the loop: run it here
            return _ORIGINAL[action](*args, **(kwargs or {}))

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self.workers]

    def close(self) -> None:
        self.closed = True
        workers, self.workers = self.workers, []
        for w in workers:
            w.stop()


_ORIGINAL: dict = {}
ACTIVE: Pool | None = None

# The JSON API's playground actions, as app.Api.routes calls them: path -> (action, body -> args).
API = {
    "/api/decode": ("decode", lambda d: (d.get("arch"), d.get("hex"), d.get("wave64"))),
    "/api/encode": ("encode", lambda d: (d.get("arch"), d.get("text"), d.get("wave64"))),
    "/api/eval": ("evaluate", lambda d: (d.get("arch"), d.get("name"), d.get("lanes", 1), d.get("operands"),
                                         d.get("wave64"))),
    "/api/ptx/check": ("ptx_check", lambda d: (d.get("text"), d.get("target"), d.get("version"))),
    "/api/ptx/eval": ("ptx_evaluate", lambda d: (d.get("text"), d.get("operands"))),
}


async def api_answer(pool: Pool, path: str, body: bytes) -> tuple[int, bytes]:
    """The status and JSON body of a playground API request, answered by ``pool`` without a thread (waiting for
    a worker is a wait on the event loop, so any number of such requests cost no thread while they wait)."""
    from . import playground

    def error(status: int, message: str) -> tuple[int, bytes]:
        return status, json.dumps({"error": message}).encode()

    try:
        data = json.loads(body or b"null")
    except (ValueError, UnicodeDecodeError, RecursionError):
        data = None
    if not isinstance(data, dict):
        return error(422, "the body must be a JSON object")
    action, to_args = API[path]
    try:
        result = await pool.acall(action, to_args(data))
    except playground.FeatureMissing as exc:
        return error(404, str(exc))
    except playground.BadInput as exc:
        return error(422, str(exc))
    except (Busy, TooSlow) as exc:
        return error(exc.status_code, exc.detail)
    except WorkerBug as exc:
        return error(500, f"internal error: {exc}")
    return 200, json.dumps(result, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def install(pool: Pool) -> None:
    """Route the playground's actions (API and page) through ``pool``."""
    global ACTIVE
    from . import playground

    ACTIVE = pool
    for name in ACTIONS:
        _ORIGINAL.setdefault(name, getattr(playground, name))

        def pooled(*args, _name=name, **kwargs):
            return pool.call(_name, args, kwargs)

        pooled.__name__ = pooled.__qualname__ = name
        pooled.__doc__ = f"playground.{name} in a worker process (gpuisa.web.offload)"
        setattr(playground, name, pooled)


def uninstall() -> None:
    global ACTIVE
    from . import playground

    ACTIVE = None
    for name, fn in _ORIGINAL.items():
        setattr(playground, name, fn)
    _ORIGINAL.clear()


def default_workers() -> int:
    return max(1, min(4, (os.cpu_count() or 2) // 2))


class serving:
    """``with serving(workers, budget) as pool:`` a started, installed pool, closed and uninstalled after."""

    def __init__(self, workers: int | None = None, budget: float = 2.0, **kw):
        self.args = (workers or default_workers(), budget)
        self.kw = kw
        self.pool: Pool | None = None

    def __enter__(self) -> Pool:
        self.pool = Pool(*self.args, **self.kw)
        install(self.pool)
        return self.pool

    def __exit__(self, *exc) -> None:
        uninstall()
        if self.pool is not None:
            self.pool.close()


def wait_ready(pool: Pool, timeout: float = STARTUP_S) -> float:
    t = time.monotonic()
    pool.warm(timeout)
    return time.monotonic() - t
