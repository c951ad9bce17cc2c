"""The playground's work (decode, encode, evaluate, PTX check/eval) in worker processes, with a time budget.

A worker thread alone does not keep the server answering: evaluation is Python code, and while 40 threads
hold the GIL the event loop waits its turn behind each (measured: pages at p99 1 s under a 50-client mix).
So ``gpuisa serve`` runs these actions in a few separate processes (lower CPU priority than the server), and
the thread that asked waits on a pipe without holding the GIL.

Budget: a request waits at most ``budget`` seconds for a free worker (else 503) and the worker has ``budget``
seconds to answer (else 504: the worker is killed, a fresh one started, so a runaway evaluation costs nothing
after its budget).  At most ``max_waiting`` requests wait at once; more are answered 503 at once.  A worker
whose memory passes ``max_rss_mb`` is replaced after its answer, so memory stays flat.  The errors are
``HTTPException`` subclasses, so the app's own handler answers them in one line (JSON under /api/).

``install(pool)`` routes ``gpuisa.web.playground``'s actions through the pool (the API routes and the
playground page call them by module attribute); ``uninstall()`` undoes it.  Without it (tests, embedding)
the actions run in the calling thread as before.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
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


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _worker_main(conn, nice: int, max_rss_mb: float) -> None:
    """A worker process: answer (action, args, kwargs) with ("ok", result) / ("error", exception)."""
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


class Worker:
    def __init__(self, ctx, nice: int, max_rss_mb: float):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, nice, max_rss_mb), daemon=True,
                                name="gpuisa-playground")
        self.proc.start()
        child.close()
        self.ready = False
        self.seen: set = set()  # (action, arch) answered once: tables loaded

    def call(self, action: str, args: tuple, kwargs: dict, budget: float):
        if not self.ready:
            if not self.conn.poll(STARTUP_S):
                raise TimeoutError
            self.conn.recv()
            self.ready = True
        self.conn.send((action, args, kwargs))
        if not self.conn.poll(budget):
            raise TimeoutError
        return self.conn.recv()

    def stop(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class Pool:
    """``workers`` processes answering playground actions within ``budget`` seconds each."""

    def __init__(self, workers: int = 1, budget: float = 2.0, max_waiting: int = 16, nice: int = 5,
                 max_rss_mb: float = 600.0, start_method: str = "spawn"):
        self.budget, self.max_waiting = budget, max_waiting
        self.ctx = multiprocessing.get_context(start_method)
        self.nice, self.max_rss_mb = nice, max_rss_mb
        self.idle: queue.LifoQueue = queue.LifoQueue()
        self.lock = threading.Lock()
        self.waiting = 0
        self.closed = False
        self.workers = [self._new() for _ in range(max(1, workers))]
        for w in self.workers:
            self.idle.put(w)
        self.stats = {"calls": 0, "busy": 0, "too_slow": 0, "restarts": 0}

    def _new(self) -> Worker:
        return Worker(self.ctx, self.nice, self.max_rss_mb)

    def _replace(self, old: Worker) -> Worker:
        old.stop()
        new = self._new()
        with self.lock:
            self.workers = [new if w is old else w for w in self.workers]
            self.stats["restarts"] += 1
        return new

    def warm(self, timeout: float = STARTUP_S) -> None:
        """Wait until every worker has started."""
        taken = [self.idle.get(timeout=timeout) for _ in range(len(self.workers))]
        try:
            for w in taken:
                if not w.ready and w.conn.poll(timeout):
                    w.conn.recv()
                    w.ready = True
        finally:
            for w in taken:
                self.idle.put(w)

    def _take(self) -> Worker:
        with self.lock:
            if self.closed:
                raise Busy("the server is stopping")
            if self.waiting >= self.max_waiting:
                self.stats["busy"] += 1
                raise Busy("the playground is busy: try again in a moment")
            self.waiting += 1
        try:
            return self.idle.get(timeout=self.budget)
        except queue.Empty:
            with self.lock:
                self.stats["busy"] += 1
            raise Busy(f"the playground is busy (no worker free within {self.budget:g} s): try again") from None
        finally:
            with self.lock:
                self.waiting -= 1

    def call(self, action: str, args: tuple, kwargs: dict, budget: float | None = None):
        """Run ``playground.<action>(*args, **kwargs)`` in a worker: its result, or its BadInput/FeatureMissing."""
        from . import playground

        w = self._take()
        arch = args[0] if action in ("decode", "encode", "evaluate") and args and isinstance(args[0], str) else None
        key = (action, arch[:32] if arch else None)
        if budget is None:  # the first call of an action for an architecture loads its tables: more time
            budget = self.budget if key in w.seen else max(5 * self.budget, 10.0)
        try:
            try:
                kind, value, retire = w.call(action, args, kwargs, budget)
                if len(w.seen) < 128:
                    w.seen.add(key)
            except TimeoutError:
                w = self._replace(w)
                with self.lock:
                    self.stats["too_slow"] += 1
                raise TooSlow(f"{action.replace('_', ' ')} took longer than {budget:g} s and was stopped") from None
            except (EOFError, OSError, BrokenPipeError):
                w = self._replace(w)
                raise Busy("the playground's worker stopped: try again") from None
            if retire:
                w = self._replace(w)
        finally:
            self.idle.put(w)
        with self.lock:
            self.stats["calls"] += 1
        if kind == "ok":
            return value
        if kind == "error" and isinstance(value, (playground.BadInput, playground.FeatureMissing)):
            raise value
        raise RuntimeError(str(value))

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self.workers]

    def close(self) -> None:
        with self.lock:
            self.closed = True
            workers, self.workers = self.workers, []
        for w in workers:
            w.stop()


_ORIGINAL: dict = {}


def install(pool: Pool) -> None:
    """Route the playground's actions (API and page) through ``pool``."""
    from . import playground

    for name in ACTIONS:
        _ORIGINAL.setdefault(name, getattr(playground, name))

        def pooled(*args, _name=name, **kwargs):
            return pool.call(_name, args, kwargs)

        pooled.__name__ = pooled.__qualname__ = name
        pooled.__doc__ = f"playground.{name} in a worker process (gpuisa.web.offload)"
        setattr(playground, name, pooled)


def uninstall() -> None:
    from . import playground

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
