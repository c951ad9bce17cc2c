"""Shared test helpers: the ground-truth tools and ../shared, skipped only outside CI."""

from __future__ import annotations

import os
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


def _uses_oracle(item) -> bool:
    if ORACLE_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    fn = getattr(item, "function", None)
    try:
        import inspect

        src = inspect.getsource(fn) if fn is not None else ""
    except (OSError, TypeError):
        src = ""
    return any(w in src for w in _ORACLE_WORDS)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if _uses_oracle(item):
            item.add_marker(pytest.mark.oracle)
