"""A fast laboratory for fault tests: commands run as forked children of a small helper process.

The committed facts are cut down to RDNA3.5 alone and other ISAs' loaders are off, so a store build takes
a fraction of a second and SIGKILL can be aimed at random points of imports and builds cheaply.  Each
command runs the real CLI (``gpuisa.cli.main``) in a child forked from a helper interpreter (started once per
lab with the CLI's modules imported, so a command costs a fork of a small process, not of the test session's
large one), with its stdout and stderr in files; an exception that escaped ``main`` would be written there as
a traceback, which the tests look for.  ``Lab.patch`` sets a module attribute in every later command's child
(what ``monkeypatch.setattr`` did for children forked from the test process itself).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

WARM = ("gpuisa.cli", "gpuisa.pages", "gpuisa.summaries", "gpuisa.sources.derive", "gpuisa.amdxml.cli",
        "gpuisa.amdxml.importer", "gpuisa.amdxml.imports", "gpuisa.render.text", "gpuisa.semantics.sources",
        "gpuisa.semantics.diffs", "gpuisa.semantics.fidelity", "gpuisa.crossmap.relations", "defusedxml.ElementTree")


@dataclass
class Result:
    returncode: int  # -9 when killed
    stdout: str
    stderr: str
    killed: bool = False


class Lab:
    """``with Lab(tmp_path, monkeypatch) as lab:`` (the helper process ends with the block)."""

    def __init__(self, tmp: Path, monkeypatch, archs=("rdna3.5",)):
        from gpuisa import store
        from gpuisa.amdxml import importer

        facts = tmp / "facts"
        facts.mkdir()
        for a in archs:
            shutil.copy(store.AMD_DIR / f"{a}.json", facts / f"{a}.json")
        packaged = tmp / "no-packaged-store.sqlite"
        monkeypatch.setattr(store, "AMD_DIR", facts)  # (the same store for what a test runs in-process)
        monkeypatch.setattr(importer, "AMD_DIR", facts)
        monkeypatch.setattr(store, "PACKAGED_DB", packaged)
        monkeypatch.setattr(store, "STORE_LOADERS", ())
        self.tmp = tmp
        self.n = 0
        self.patches: dict[str, object] = {}
        self._exits: dict[int, int] = {}
        self._pids: list[int] = []
        self._buf = b""
        self._helper = subprocess.Popen([sys.executable, __file__, str(facts), str(packaged)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
        while not self._pids:  # its "ready" (pid 0)
            self._pump(None)
        self._pids.clear()

    def __enter__(self) -> Lab:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._helper.poll() is None:
            self._helper.stdin.close()
            try:
                self._helper.wait(30)
            except subprocess.TimeoutExpired:
                self._helper.kill()
                self._helper.wait()
        self._helper.stdout.close()

    def patch(self, module: str, attr: str, value) -> None:
        """``module.attr = value`` (a JSON value) in the children of every later ``start``."""
        self.patches[f"{module}:{attr}"] = value

    def start(self, args: list[str], home: Path, **env) -> tuple[int, Path]:
        self.n += 1
        base = self.tmp / f"run{self.n}"
        order = {"args": list(args), "home": str(home), "env": env, "base": str(base), "patches": self.patches}
        self._helper.stdin.write(json.dumps(order).encode() + b"\n")
        self._helper.stdin.flush()
        while not self._pids:
            self._pump(None)
        return self._pids.pop(0), base

    def _pump(self, timeout: float | None) -> None:
        """Read what the helper has said within ``timeout`` seconds: ``pid N`` and ``exit N STATUS`` lines."""
        fd = self._helper.stdout.fileno()
        if not select.select([fd], [], [], timeout)[0]:
            return
        data = os.read(fd, 65536)
        if not data:
            raise RuntimeError("the fault lab's helper process ended")
        *lines, self._buf = (self._buf + data).split(b"\n")
        for line in lines:
            head, *nums = line.split()
            if head == b"exit":
                self._exits[int(nums[0])] = int(nums[1])
            else:
                self._pids.append(int(nums[0]))

    def wait(self, pid: int, base: Path, kill_after: float | None = None) -> Result:
        killed = False
        if kill_after is not None:
            deadline = time.monotonic() + kill_after
            while pid not in self._exits and (left := deadline - time.monotonic()) > 0:
                self._pump(left)
            if pid not in self._exits:
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed = True
                except ProcessLookupError:  # (it ended just now)
                    pass
        while pid not in self._exits:
            self._pump(None)
        return self._result(self._exits.pop(pid), base, killed)

    @staticmethod
    def _result(status: int, base: Path, killed: bool) -> Result:
        rc = os.waitstatus_to_exitcode(status)
        read = lambda p: p.read_text() if p.exists() else ""  # noqa: E731
        return Result(rc, read(Path(f"{base}.out")), read(Path(f"{base}.err")), killed and rc == -signal.SIGKILL)

    def run(self, args: list[str], home: Path, **env) -> Result:
        return self.wait(*self.start(args, home, **env))

    def show_marker(self, home: Path) -> str:
        """`show v_msad_u8` answers, with no traceback and at most one note: the marker it shows."""
        r = self.run(["show", "v_msad_u8", "--arch", "rdna3.5", "--json"], home)
        assert r.returncode == 0, r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) <= 1, r.stderr
        return json.loads(r.stdout)["description"].split(":", 1)[0]


# -- the helper process ----------------------------------------------------------------------------------------

def _child(order: dict) -> None:
    """A command in a child of the helper: never returns."""
    rc = 70
    try:
        for fd, suffix in ((1, ".out"), (2, ".err")):  # (the helper's stdout is the lab's pipe: never write there)
            f = os.open(order["base"] + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(f, fd)
            os.close(f)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        os.environ["GPUISA_HOME"] = order["home"]
        os.environ.update(order["env"])
        import importlib

        for target, value in order["patches"].items():
            module, attr = target.split(":")
            setattr(importlib.import_module(module), attr, value)
        from gpuisa.amdxml import imports

        imports._noted = False
        from gpuisa.cli import main

        rc = main(list(order["args"]))
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 -- what a user would have seen as a traceback
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(rc)


def _helper(facts: str, packaged: str) -> None:
    """Reads one JSON order a line from stdin, forks a child for it and answers ``pid N``; answers ``exit N
    STATUS`` as each child ends; ends when stdin closes."""
    import importlib

    from gpuisa import store
    from gpuisa.amdxml import importer

    store.AMD_DIR = importer.AMD_DIR = Path(facts)
    store.PACKAGED_DB = Path(packaged)
    store.STORE_LOADERS = ()
    for mod in WARM:  # imported once here, inherited by every child (a child then costs a fork)
        try:
            importlib.import_module(mod)
        except ImportError:
            pass
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    out = sys.stdout.buffer
    out.write(b"pid 0\n")  # (ready)
    out.flush()
    buf, children = b"", 0
    while True:
        try:
            ready = select.select([0, wake_r], [], [])[0]
        except InterruptedError:
            continue
        if wake_r in ready:
            os.read(wake_r, 4096)
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if not pid:
                break
            children -= 1
            out.write(b"exit %d %d\n" % (pid, status))
        if 0 in ready:
            data = os.read(0, 65536)
            if not data:
                break
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                order = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    null = os.open(os.devnull, os.O_RDONLY)
                    os.dup2(null, 0)
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    os.close(wake_r)
                    os.close(wake_w)
                    _child(order)
                children += 1
                out.write(b"pid %d\n" % pid)
        out.flush()
    while children:  # (the lab went away: its commands are ended)
        os.waitpid(-1, 0)
        children -= 1


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    _helper(sys.argv[1], sys.argv[2])
