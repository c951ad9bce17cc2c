"""The runtime runs no oracle: importing every runtime module of gpuisa loads no llvm-mc runner, probe or
generator (``gpuisa.regen`` and the facts generators are the only callers of llvm-mc; issue 14 item 5).

Two checks: a fresh interpreter imports every runtime module and lists the oracle modules that came with
them (module-level imports), and an ``ast`` walk of the runtime modules finds no import of an oracle module
anywhere in them, function bodies included (lazy imports that the first check cannot see)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "gpuisa"
# what runs llvm-mc (or another oracle) or writes generated tables: never imported by the runtime
ORACLE_MODULES = ("gpuisa.regen", "gpuisa.codec.oracle", "gpuisa.sources.llvm", "gpuisa.data.amd.generate",
                  "gpuisa.data.amd.examples.generate", "gpuisa.data.ptx.generate", "gpuisa.data.ptx.generate_probes")
# runtime modules allowed to start a process: ptxas is the PTX checker's own tool (``gpuisa ptx check``)
SUBPROCESS_ALLOWED = {"gpuisa.ptx.ptxas"}
# (importer, oracle module) pairs a user asks for by name, imported inside that command only
ON_REQUEST = {("gpuisa.cli", "gpuisa.data.amd.generate"),  # gpuisa build --from-sources: regenerates the facts
              ("gpuisa.factscli", "gpuisa.regen.timing")}  # gpuisa timing --llvm-mca: llvm-mca-22 on the listing


def _is_oracle(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in ORACLE_MODULES)


def _runtime_modules() -> dict[str, Path]:
    """Every module of the package but the oracle ones, the facts sources (``gpuisa.sources``: generation
    input) and ``__main__`` files (importing one runs it)."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = ("gpuisa",) + path.relative_to(PKG).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if _is_oracle(name) or name.startswith("gpuisa.sources."):
            continue
        out[name] = path
    return out


def _imports(name: str, path: Path) -> list[str]:
    """The absolute names of every module ``path`` imports, at any depth of its code."""
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = pkg.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.append(mod)
            found += [f"{mod}.{a.name}" for a in node.names]  # (``from ..codec import oracle``)
    return found


def test_runtime_modules_import_no_oracle_statically():
    bad = []
    for name, path in _runtime_modules().items():
        for mod in _imports(name, path):
            asked = any(who == name and (mod == m or mod.startswith(m + ".")) for who, m in ON_REQUEST)
            if _is_oracle(mod) and not asked:
                bad.append(f"{name} imports {mod}")
            if mod == "subprocess" and name not in SUBPROCESS_ALLOWED:
                bad.append(f"{name} imports subprocess")
    assert bad == [], "runtime modules reaching an oracle (move the probe into gpuisa.regen):\n" + "\n".join(bad)


def test_importing_the_runtime_loads_no_oracle(tmp_path):
    names = sorted(_runtime_modules())
    code = ("import importlib, json, sys\n"
            f"names = {names!r}\n"
            "failed = {}\n"
            "for n in names:\n"
            "    try:\n"
            "        importlib.import_module(n)\n"
            "    except Exception as exc:\n"
            "        failed[n] = repr(exc)\n"
            "print(json.dumps({'loaded': sorted(m for m in sys.modules if m.startswith('gpuisa')), 'failed': failed}))\n")
    env_home = tmp_path / "home"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                          env={"GPUISA_HOME": str(env_home), "PATH": "/usr/bin:/bin",
                               "PYTHONPATH": str(PKG.parent)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["failed"] == {}, got["failed"]
    assert set(names) <= set(got["loaded"])
    assert [m for m in got["loaded"] if _is_oracle(m)] == []
