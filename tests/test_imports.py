"""The package's import graph, read statically with ``ast``: no circles through module-level imports, no circles
through function-level (deferred) imports either -- a deferred import may put off a heavy module, not hide a
circle: shared parts move to a module both sides import -- and no module imports another module's private
(``_name``) helpers."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "gpuisa"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module):
    """(node, at module level?) for every import that runs; ``if TYPE_CHECKING:`` blocks never run."""
    def walk(node, top: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    yield from walk(ast.Module(body=[sub], type_ignores=[]), top)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, top
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            yield from walk(child, inner)
    yield from walk(tree, True)


def _base(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def _edges(modules: dict[str, Path]):
    """Yield (importer, imported module, names imported from it, at module level?)."""
    for module, path in modules.items():
        for node, top in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        yield module, alias.name, (), top
                continue
            base = _base(module, path, node)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in modules:
                    yield module, sub, (), top
                elif base in modules:
                    yield module, base, (alias.name,), top


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


@functools.lru_cache(maxsize=1)
def _graphs():
    modules = _modules()
    top: dict[str, set[str]] = {m: set() for m in modules}
    everything: dict[str, set[str]] = {m: set() for m in modules}
    private: list[str] = []
    for importer, imported, names, at_top in _edges(modules):
        if imported != importer:
            everything[importer].add(imported)
            if at_top:
                top[importer].add(imported)
        private += [f"{importer} imports {imported}.{n}" for n in names
                    if n.startswith("_") and not n.startswith("__") and imported != importer]
    return top, everything, private


def test_no_circle_through_module_level_imports():
    top, _, _ = _graphs()
    assert _cycles(top) == []


def test_no_circle_through_function_level_imports(capsys):
    """No circle either when deferred imports count (any circle found is printed, so a reader sees it)."""
    _, everything, _ = _graphs()
    cycles = _cycles(everything)
    with capsys.disabled():
        for comp in cycles:
            print(f"\nfunction-level import circle ({len(comp)} modules): {', '.join(comp)}")
    assert cycles == []


def test_circle_finder_sees_a_function_level_circle():
    """The finder reports a circle closed only by a deferred import (a -> b at the top, b -> a in a function)."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# (The codec's shared helpers are public since its long functions were split: no exemption left.)
EXEMPT_PROVIDERS: tuple[str, ...] = ()


def test_no_private_cross_module_imports():
    _, _, private = _graphs()
    assert [p for p in private if not p.split(" imports ")[1].startswith(EXEMPT_PROVIDERS)] == []


def test_graph_reader_sees_known_edges():
    """The reader resolves absolute, relative and ``from package import module`` imports."""
    top, _, _ = _graphs()
    assert "gpuisa.store" in top["gpuisa.cli"] or any(m.startswith("gpuisa.") for m in top["gpuisa.cli"])
    assert top["gpuisa.codec.decoder"], "the decoder imports sibling modules at module level"
