"""Shared test helpers: the ground-truth tools and ../shared, skipped only outside CI."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"


def need(condition: bool, reason: str) -> None:
    """Skip when a ground truth is missing, except in CI where that is a failure."""
    if not condition:
        if IN_CI:
            pytest.fail(f"{reason} (CI=true: this must be available)")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def llvm_mc() -> str:
    from gpuisa.sources.llvm import find_llvm_mc

    path = find_llvm_mc()
    need(path is not None, "llvm-mc-22 not installed (apt-get install -y llvm-22)")
    return path


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    need(SHARED.is_dir(), f"{SHARED} (the workplace's shared reference folder) is absent")
    return SHARED


@pytest.fixture(scope="session")
def store(tmp_path_factory):
    """A store built fresh from the committed facts."""
    from gpuisa.store import Store, build

    path = tmp_path_factory.mktemp("store") / "gpuisa.sqlite"
    build(path)
    return Store(path)


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory):
    env = dict(os.environ)
    env["GPUISA_HOME"] = str(tmp_path_factory.mktemp("home"))
    return env


def run_cli(args: list[str], env: dict, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpuisa.cli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, **kw)


# -- markers ---------------------------------------------------------------------------------------------
# ``oracle``: a test that runs a ground-truth tool (llvm-mc-22, llvm-objdump-22, llvm-mca-22, llc-22, ptxas,
# nvcc, chromium).  ``pytest -m "not oracle"`` runs the rest without any of them.
ORACLE_FIXTURES = {"llvm_mc"}
_ORACLE_WORDS = ("llvm-mc", "llvm_mc", "find_ptxas", "ptxas", "chromium", "llvm-mca", "llc-22", "nvcc",
                 "llvm-objdump", "oracle.")


_MENTIONS: dict = {}


def _source(fn) -> str:
    import inspect

    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return ""


def _called_helpers(fn):
    """Functions of ``fn``'s own module, or of a helper module beside it, that its code (nested functions included)
    names."""
    import inspect

    module = inspect.getmodule(fn)
    code = getattr(fn, "__code__", None)
    if module is None or code is None:
        return
    stack, names = [code], set()
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        stack += [k for k in c.co_consts if inspect.iscode(k)]
    for name in sorted(names):
        obj = getattr(module, name, None)
        if inspect.isfunction(obj) and (obj.__module__ == module.__name__ or _test_helper(obj)):
            yield obj


def _test_helper(fn) -> bool:
    """Whether ``fn`` is defined in a helper module of this folder (``mc_compare.py``, ``ieee_bits.py``, ...)."""
    code = getattr(fn, "__code__", None)
    return code is not None and os.path.dirname(os.path.abspath(code.co_filename)) == os.path.dirname(__file__)


def _mentions_oracle(fn, depth: int = 0) -> bool:
    """Whether ``fn``, or a helper of its module it calls (three calls deep), names a ground-truth tool."""
    key = (fn, depth)
    if key not in _MENTIONS:
        _MENTIONS[key] = False  # (recursion)
        src = _source(fn)
        if depth:  # a helper: the oracle module's constants (probe separators, its crash marker) run nothing
            src = re.sub(r"oracle\.(separator|sep_text|SEPARATOR|CRASHED)\b", "", src)
        _MENTIONS[key] = any(w in src for w in _ORACLE_WORDS) or (
            depth < 3 and any(_mentions_oracle(h, depth + 1) for h in _called_helpers(fn)))
    return _MENTIONS[key]


def _uses_oracle(item) -> bool:
    """The test, a fixture it uses (directly or through other fixtures) or a helper they call runs a tool."""
    if ORACLE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    fn = getattr(item, "function", None)
    if fn is not None and _mentions_oracle(fn):
        return True
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for fixture in (info.name2fixturedefs.get(name, ()) if info is not None else ()):
            func = getattr(fixture, "func", None)
            if func is not None and getattr(func, "__module__", "").startswith(("conftest", "test_")) \
                    and _mentions_oracle(func):
                return True
    return False


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _uses_oracle(item):
            item.add_marker(pytest.mark.oracle)


# -- costs shared by the whole session ------------------------------------------------------------------
@pytest.fixture(scope="session", autouse=True)
def _code_digest_once_per_state():
    """``batch_data.code_digest`` parses the codec's modules (~0.2 s CPU); every architecture's table fingerprint
    and every fresh data folder asks for it again.  In this session the package's own digest is computed once per
    state of the files it may read (the sizes and modification times of every module of the codec folder and of
    the package's top level, as the data folder's remembered fingerprint is keyed), so it is the value recomputing
    gives; a copy of the codec (``test_batch_fingerprint.py`` edits one) is digested afresh each time."""
    from gpuisa.codec import batch_data

    real, memo = batch_data.code_digest, {}

    def stamped(codec_dir=batch_data.HERE):
        if codec_dir != batch_data.HERE:
            return real(codec_dir)
        key = tuple((str(p), st.st_size, st.st_mtime_ns) for folder in (codec_dir, codec_dir.parent)
                    for p in sorted(Path(folder).glob("*.py")) for st in [p.stat()])
        if key not in memo:
            memo[key] = real(codec_dir)
        return memo[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch_data, "code_digest", stamped)
        yield


def pytest_collection_finish(session):
    """The collected modules (tables, catalogs, test data) stay alive for the whole run: moved out of the
    cyclic collector's sight, and its young generation made larger, the collector stops re-scanning them
    (about 7% of an in-process test run's CPU)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)
