"""Where pseudocode comes from: adapters that load vendor pseudocode at run time.

The repository carries no vendor pseudocode.  An adapter reads it from an installed
source and hands out :class:`PcodeEntry` records keyed by (architecture, instruction
name) in the store's spelling.  Today there is one adapter, :class:`TinygradPcode`,
reading the ``PCODE`` tables (AMD's ISA-manual pseudocode) shipped in the pinned
tinygrad wheel for RDNA3.5 (``rdna3`` there), RDNA4 and CDNA4 (``cdna``).  The file
is parsed with :mod:`ast` and never imported, so no tinygrad code runs.  A later
adapter (for instance one reading AMD's manuals for other generations) only has to
implement :meth:`PcodeSource.entries`.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from ..sources import tinygrad as tg


@dataclass(frozen=True)
class PcodeEntry:
    arch: str  # store architecture key (rdna3.5, rdna4, cdna4)
    name: str  # store spelling: lower case, _E32/_E64 dropped
    op_class: str  # AMD opcode table the text is listed under (VOP3Op, SOP2Op, ...)
    text: str  # the pseudocode exactly as the source gives it
    source: str  # label for pages: what it is and which version


class PcodeSource:
    """Interface of a pseudocode adapter."""

    label: str = ""

    def archs(self) -> tuple[str, ...]:
        raise NotImplementedError

    def entries(self, arch: str) -> dict[str, list[PcodeEntry]]:
        """name -> entries (one per opcode table that lists the instruction)."""
        raise NotImplementedError


# Among several tables listing one name (VOP1 and its VOP3 form), which text to prefer:
# the native one of the store's first encoding decides elsewhere; this is the fallback order.
TABLE_PREFERENCE = ("VOP3Op", "VOP3SDOp", "VOP1Op", "VOP2Op", "VOPCOp", "VOP3POp", "VOPDOp", "VINTERPOp",
                    "SOP1Op", "SOP2Op", "SOPCOp", "SOPKOp", "SOPPOp")


class TinygradPcode(PcodeSource):
    """AMD pseudocode as shipped in tinygrad's ``autogen/amd/<folder>/str_pcode.py``."""

    def __init__(self, root: Path | None = None):
        self._root = root
        self.label = f"AMD ISA manual pseudocode via tinygrad=={tg.TINYGRAD_VERSION} wheel (str_pcode.py, loaded at run time)"

    def archs(self) -> tuple[str, ...]:
        return tuple(tg.FOLDER_ARCH.values())

    def _path(self, arch: str) -> Path:
        folder = {v: k for k, v in tg.FOLDER_ARCH.items()}[arch]
        root = self._root or tg.autogen_dir()
        return root / folder / "str_pcode.py"

    @functools.lru_cache(maxsize=None)
    def entries(self, arch: str) -> dict[str, list[PcodeEntry]]:
        if arch not in self.archs():
            return {}
        path = self._path(arch)
        from . import cache

        key = f"pcode-{arch}-{cache.file_key(path)}.json"
        cached = cache.load(key)
        if cached is not None:
            return {n: [PcodeEntry(arch, n, oc, text, self.label) for oc, text in lst] for n, lst in cached.items()}
        out = self._parse(arch, path)
        cache.save(key, {n: [[e.op_class, e.text] for e in lst] for n, lst in out.items()})
        return out

    def _parse(self, arch: str, path: Path) -> dict[str, list[PcodeEntry]]:
        tree = ast.parse(path.read_text())
        out: dict[str, list[PcodeEntry]] = {}
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)):
                continue
            if not any(isinstance(t, ast.Name) and t.id == "PCODE" for t in node.targets):
                continue
            for key, value in zip(node.value.keys, node.value.values):
                if not (isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name)):
                    continue
                if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                    continue
                name = tg._canonical(key.attr).lower()
                out.setdefault(name, []).append(PcodeEntry(arch, name, key.value.id, value.value, self.label))
        for name, lst in out.items():
            lst.sort(key=lambda e: TABLE_PREFERENCE.index(e.op_class) if e.op_class in TABLE_PREFERENCE else 99)
        return out


def _index_path():
    """One SQLite file per source version holding every (arch, name) entry: a page needs a
    handful of rows, and a point query costs far less than loading whole tables."""
    from . import cache

    src = default_source()
    keys = "-".join(cache.file_key(src._path(a)) for a in src.archs()) if isinstance(src, TinygradPcode) else "x"
    return cache.cache_dir() / f"pcode-index-{keys}.sqlite"


@functools.lru_cache(maxsize=1)
def _index():
    import os
    import sqlite3
    import tempfile

    path = _index_path()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".sqlite")
        os.close(fd)
        con = sqlite3.connect(tmp)
        con.execute("CREATE TABLE pcode (arch TEXT, name TEXT, rank INTEGER, op_class TEXT, text TEXT)")
        src = default_source()
        for arch in src.archs():
            for name, lst in src.entries(arch).items():
                con.executemany("INSERT INTO pcode VALUES (?, ?, ?, ?, ?)",
                                [(arch, name, i, e.op_class, e.text) for i, e in enumerate(lst)])
        con.execute("CREATE INDEX pcode_name ON pcode (name)")
        con.commit()
        con.close()
        os.replace(tmp, path)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


def lookup_all(name: str) -> dict[str, PcodeEntry]:
    """{arch: preferred entry} for one instruction across the source's generations (fast path for pages)."""
    name = name.lower()
    label = default_source().label
    try:
        rows = _index().execute("SELECT arch, op_class, text FROM pcode WHERE name = ? AND rank = 0", (name,)).fetchall()
        if not rows and name.startswith("v_dual_"):
            rows = _index().execute("SELECT arch, op_class, text FROM pcode WHERE name = ? AND rank = 0",
                                    ("v_" + name[7:],)).fetchall()
            label += f"; the entry of v_{name[7:]}, which each half of a VOPD pair executes"
    except Exception:  # noqa: BLE001 - an unreadable cache falls back to the full tables
        return {a: e for a in default_source().archs() if (e := lookup(a, name)) is not None}
    return {arch: PcodeEntry(arch, name, oc, text, label) for arch, oc, text in rows}


@functools.lru_cache(maxsize=1)
def default_source() -> PcodeSource:
    return TinygradPcode()


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether the pinned wheel with the pseudocode is installed."""
    try:
        tg.autogen_dir()
    except RuntimeError:
        return False
    return True


def lookup(arch: str, name: str, prefer: str | None = None) -> PcodeEntry | None:
    """The pseudocode entry for an instruction; ``prefer`` an encoding name (VOPC, VOP3...)."""
    name = name.lower()
    lst = default_source().entries(arch).get(name)
    if not lst and name.startswith("v_dual_"):
        # Each half of a VOPD dual issue runs its VOP1/VOP2 counterpart's operation.
        lst = default_source().entries(arch).get("v_" + name[len("v_dual_"):])
        if lst:
            e = lst[0]
            return PcodeEntry(e.arch, name, e.op_class, e.text,
                              e.source + f"; the entry of v_{name[7:]}, which each half of a VOPD pair executes")
    if not lst:
        return None
    if prefer:
        want = prefer.upper() + "OP"
        for e in lst:
            if e.op_class.upper() == want:
                return e
    return lst[0]
