"""House rules read from the package's source (``ast`` and text, no imports): one safe writer, one cache root,
no pickles from the user's folder, functions of at most 80 lines, modules of at most 600 lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "src" / "gpuisa"
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 600
# (The codec's and its probes' long functions are split: no exemption left.)
LONG_FUNCTION_EXEMPT: set[str] = set()
EXEMPT_FOLDERS = ("codec/", "regen/")
# (The batch decoder's tables are read from the package's JSON: no exemption left.)
PICKLE_EXEMPT: set[str] = set()


def _sources():
    for path in sorted(PKG.rglob("*.py")):
        yield path.relative_to(PKG).as_posix(), path.read_text()


def test_one_safe_writer():
    """Files are renamed into place only by gpuisa.cachefile (write_cache_file, atomic_write, atomic_path)."""
    offenders = [rel for rel, text in _sources() if rel != "cachefile.py" and re.search(r"\bos\.(replace|rename)\(", text)]
    assert offenders == []


def test_one_cache_root():
    """Caches live under cachefile.data_home() (GPUISA_HOME, else platformdirs' user data folder)."""
    pattern = re.compile(r"expanduser|[\"']~/|XDG_CACHE_HOME|user_cache_dir|platformdirs")
    offenders = [rel for rel, text in _sources() if rel != "cachefile.py" and pattern.search(text)]
    assert offenders == []


def test_no_pickle_loads():
    offenders = [rel for rel, text in _sources() if rel not in PICKLE_EXEMPT and re.search(r"\bpickle\.loads?\(", text)]
    assert offenders == []


def test_functions_at_most_80_lines():
    long = []
    for rel, text in _sources():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                exempt = rel.startswith(EXEMPT_FOLDERS) and node.name in LONG_FUNCTION_EXEMPT
                if lines > MAX_FUNCTION_LINES and not exempt:
                    long.append(f"{rel}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_modules_at_most_600_lines():
    """A module past 600 lines is split where its parts meet (tables, probes, a section of its own module)."""
    long = [f"{rel} ({n} lines)" for rel, text in _sources() if (n := len(text.splitlines())) > MAX_MODULE_LINES]
    assert long == []
