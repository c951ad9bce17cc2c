"""A fast laboratory for fault tests: commands run as forked children of the test process.

The committed facts are cut down to RDNA3.5 alone and other ISAs' loaders are off, so a store build takes
a fraction of a second and SIGKILL can be aimed at random points of imports and builds cheaply.  Each
child runs the real CLI (``gpuisa.cli.main``) with its stdout and stderr in files; an exception that
escaped ``main`` would be written there as a traceback, which the tests look for.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
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
    def __init__(self, tmp: Path, monkeypatch, archs=("rdna3.5",)):
        from gpuisa import store
        from gpuisa.amdxml import importer

        facts = tmp / "facts"
        facts.mkdir()
        for a in archs:
            shutil.copy(store.AMD_DIR / f"{a}.json", facts / f"{a}.json")
        monkeypatch.setattr(store, "AMD_DIR", facts)
        monkeypatch.setattr(importer, "AMD_DIR", facts)
        monkeypatch.setattr(store, "PACKAGED_DB", tmp / "no-packaged-store.sqlite")
        monkeypatch.setattr(store, "STORE_LOADERS", ())
        import importlib

        for mod in WARM:  # imported once here, inherited by every child (a child then costs a fork)
            try:
                importlib.import_module(mod)
            except ImportError:
                pass
        self.tmp = tmp
        self.n = 0

    def start(self, args: list[str], home: Path, **env) -> tuple[int, Path]:
        self.n += 1
        base = self.tmp / f"run{self.n}"
        pid = os.fork()
        if pid == 0:  # the child: never returns
            rc = 70
            try:
                os.environ["GPUISA_HOME"] = str(home)
                os.environ.update(env)
                sys.stdout = open(f"{base}.out", "w")
                sys.stderr = open(f"{base}.err", "w")
                from gpuisa.amdxml import imports

                imports._noted = False
                from gpuisa.cli import main

                rc = main(list(args))
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
        return pid, base

    def wait(self, pid: int, base: Path, kill_after: float | None = None) -> Result:
        killed = False
        if kill_after is not None:
            deadline = time.monotonic() + kill_after
            while time.monotonic() < deadline:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    return self._result(status, base, False)
                time.sleep(min(0.005, max(0.0, deadline - time.monotonic())))
            os.kill(pid, signal.SIGKILL)
            killed = True
        _, status = os.waitpid(pid, 0)
        return self._result(status, base, killed)

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
