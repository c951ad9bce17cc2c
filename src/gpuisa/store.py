"""SQLite + FTS5 store: built from the committed facts, then opened read-only.

Layout: one row per (instruction, architecture) holding the page data as JSON
(so ``show`` is two indexed look-ups), a normalised ``inst_enc`` table for
``list``/``diff``, an ``encodings`` table, and an FTS5 index over names,
summaries, categories, encodings and operand formats for ``search``.

Where it lives: the wheel ships ``gpuisa/data/gpuisa.sqlite`` built at install
time; when that is missing or older than the committed facts (an editable
checkout after a regenerate), the store is built once into the user's cache
folder (``$GPUISA_HOME/cache`` or the platform's user cache) and reused.
Builds happen in a temporary file that is renamed into place (gpuisa.cachefile),
under the folder's lock, so a failed or killed build never leaves a broken store
behind and concurrent builds queue.  A data folder that cannot be written gets its
store in the system's temporary folder; a damaged store file is rebuilt on first
use; an imported file that cannot be used is ignored (one line on stderr) and the
committed facts of its architecture are used instead.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from . import archs
from .errors import StoreError, UserError, echo, one_line
from .model import Encoding, Field
from .storepaths import MEMORY_DB, db_uri, home_dir, imports_dir

DATA_DIR = Path(__file__).parent / "data"
AMD_DIR = DATA_DIR / "amd"
PACKAGED_DB = DATA_DIR / "gpuisa.sqlite"
SCHEMA_VERSION = "2"
MAX_SEARCH_CHARS = 200
MAX_SEARCH_WORDS = 16

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE archs(name TEXT PRIMARY KEY, title TEXT, vendor TEXT, isa TEXT, kind TEXT, family TEXT,
                   ord INTEGER, targets TEXT, llvm_target TEXT, sources TEXT, instructions INTEGER);
CREATE TABLE encodings(arch TEXT, name TEXT, width INTEGER, op_field TEXT, fields TEXT, provenance TEXT,
                       PRIMARY KEY(arch, name));
CREATE TABLE instructions(id INTEGER PRIMARY KEY, name TEXT, arch TEXT, isa TEXT, vendor TEXT, category TEXT,
                          summary TEXT, description TEXT, subgroup TEXT, page TEXT, UNIQUE(name, arch));
CREATE INDEX inst_name ON instructions(name);
CREATE TABLE inst_enc(inst_id INTEGER, name TEXT, arch TEXT, encoding TEXT, opcode INTEGER, layout TEXT);
CREATE INDEX inst_enc_arch ON inst_enc(arch, encoding);
CREATE INDEX inst_enc_name ON inst_enc(name);
CREATE VIRTUAL TABLE inst_fts USING fts5(name, summary, category, encodings, formats, tokenize='unicode61');
"""


# Feature packages that contribute instructions of other ISAs: module with
# store_documents() -> list[doc] and fact_paths() -> list[Path] (see build()).
STORE_LOADERS = ("gpuisa.ptx.catalog",)


def _loaders():
    from .features import optional_module

    for mod in STORE_LOADERS:
        module = optional_module(mod)
        if module is not None:
            yield module


def fact_sources() -> dict[str, list[Path]]:
    """Each AMD architecture's facts in order of preference: the user's import, then the committed file."""
    from .amdxml.imports import usable_imports

    out: dict[str, list[Path]] = {p.stem: [p] for p in AMD_DIR.glob("*.json") if p.name != "llvm_sweep.json"}
    for arch, p in usable_imports()[0].items():
        out.setdefault(arch, []).insert(0, p)
    return {k: out[k] for k in sorted(out)}


def fact_files() -> list[Path]:
    """Committed AMD facts, each replaced by the user's import of the same architecture."""
    return [paths[0] for paths in fact_sources().values()]


def all_fact_paths() -> list[Path]:
    paths = [p for ps in fact_sources().values() for p in ps]
    for loader in _loaders():
        paths += list(loader.fact_paths())
    return paths


def _is_import(p: Path) -> bool:
    return p.parent == imports_dir()


def _label(p: Path) -> str:
    return f"imports/{p.name}" if _is_import(p) else p.name


def fingerprint(files: Iterable[Path] | None = None) -> str:
    h = hashlib.sha1(SCHEMA_VERSION.encode())
    for p in files if files is not None else all_fact_paths():
        h.update(_label(p).encode())
        try:
            h.update(p.read_bytes())
        except OSError:  # (removed meanwhile: a rolled-back import)
            h.update(b"\0unreadable")
    return h.hexdigest()


def encoding_from_json(d: dict) -> Encoding:
    return Encoding(d["name"], d["width"], tuple(Field(n, tuple(tuple(r) for r in rs), v) for n, rs, v in d["fields"]),
                    d["op_field"])


def layout_signature(enc: Encoding) -> str:
    """A stable string of what 'field layout' compares (names, bit ranges, fixed bits)."""
    return json.dumps([[f.name, [list(r) for r in f.ranges], f.value] for f in enc.sorted_fields()])


def _prov_dict(row: list | None) -> dict | None:
    if row is None:
        return None
    source, version, note, inferred = row[:4]
    return {"source": source, "version": version, "note": note, "inferred": bool(inferred)}


def insert_instruction(con: sqlite3.Connection, arch, name: str, category: str, summary: str, page: dict,
                       description: str | None = None, subgroup: str | None = None,
                       enc_rows: Iterable[tuple[str, int | None, str]] = (), search_encodings: str = "",
                       search_formats: str = "") -> int:
    """One instruction page of one architecture (any ISA) into the store."""
    from .sources import derive

    cur = con.execute("INSERT INTO instructions(name, arch, isa, vendor, category, summary, description,"
                      " subgroup, page) VALUES (?,?,?,?,?,?,?,?,?)",
                      (name, arch.name, arch.isa, arch.vendor, category, summary, description, subgroup, json.dumps(page)))
    iid = cur.lastrowid
    assert iid is not None  # set by the INSERT just run
    for enc_name, opcode, layout in enc_rows:
        con.execute("INSERT INTO inst_enc VALUES (?,?,?,?,?,?)", (iid, name, arch.name, enc_name, opcode, layout))
    con.execute("INSERT INTO inst_fts(rowid, name, summary, category, encodings, formats) VALUES (?,?,?,?,?,?)",
                (iid, name, summary + (" " + description if description else ""),
                 f"{category} {derive.CATEGORY_TITLES.get(category, '')}", search_encodings, search_formats))
    return iid


def insert_arch(con: sqlite3.Connection, arch, sources: list[dict | None], count: int) -> None:
    con.execute("INSERT INTO archs VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (arch.name, arch.title, arch.vendor, arch.isa, arch.kind, arch.family, arch.order,
                 json.dumps(list(arch.targets)), arch.llvm_target, json.dumps(sources), count))


@functools.lru_cache(maxsize=8192)
def _summary(name: str, category: str) -> str:
    """``summaries.summarize``, once per (name, category): a store build meets each about five times (once per
    generation that has the instruction)."""
    from . import summaries

    return summaries.summarize(name, category)


def _load_amd_doc(con: sqlite3.Connection, doc: dict) -> None:
    from .sources import derive

    arch = archs.by_name(doc["arch"])
    provs = doc["provenance"]
    encs = {}
    for e in doc["encodings"]:
        enc = encoding_from_json(e)
        encs[enc.name] = enc
        con.execute("INSERT INTO encodings VALUES (?,?,?,?,?,?)",
                    (arch.name, enc.name, enc.width, enc.op_field, layout_signature(enc),
                     json.dumps(_prov_dict(provs[e["prov"]]) if e["prov"] is not None else None)))
    sigs = {name: layout_signature(enc) for name, enc in encs.items()}  # (one per encoding, not per row)
    for inst in doc["instructions"]:
        name = inst["name"]
        first_enc = inst["encodings"][0]["encoding"] if inst["encodings"] else ""
        cat = inst.get("category") or derive.category(name, first_enc)
        summary = _summary(name, cat)
        source_ids: list[int] = list(inst.get("sources", []))
        page_encs = []
        formats = set()
        for ie in inst["encodings"]:
            ops = []
            for oname, role, kind, fmt, size, implicit, note, pidx in ie["operands"]:
                ops.append({"name": oname, "role": role, "kind": kind, "format": fmt, "size": size,
                            "implicit": bool(implicit), "note": note or "",
                            "provenance": _prov_dict(provs[pidx]) if pidx is not None else None})
                if fmt:
                    formats.add(fmt)
                if pidx is not None and pidx not in source_ids:
                    source_ids.append(pidx)
            if ie["prov"] is not None and ie["prov"] not in source_ids:
                if "sources" in inst:
                    source_ids.append(ie["prov"])  # the document names its primary sources first
                else:
                    source_ids.insert(0, ie["prov"])
            if ie.get("confirmed") is not None and ie["confirmed"] not in source_ids:
                source_ids.append(ie["confirmed"])
            page_encs.append({"encoding": ie["encoding"], "opcode": ie["opcode"], "condition": ie["condition"],
                              "syntax": ie["syntax"], "operands": ops,
                              "provenance": _prov_dict(provs[ie["prov"]]) if ie["prov"] is not None else None})
        page = {"encodings": page_encs, "targets": list(arch.targets), "flags": inst.get("flags", {}),
                "sources": [_prov_dict(provs[s]) for s in source_ids]}
        for extra in ("aliases", "disagreements", "description_source"):
            if inst.get(extra):
                page[extra] = inst[extra]
        rows = [(ie["encoding"], ie["opcode"], sigs.get(ie["encoding"], "")) for ie in inst["encodings"]]
        insert_instruction(con, arch, name, cat, summary, page, inst.get("description"), inst.get("subgroup"), rows,
                           " ".join(ie["encoding"] for ie in inst["encodings"]), " ".join(sorted(formats)))
    insert_arch(con, arch, [_prov_dict(provs[s]) for s in doc["sources"]], len(doc["instructions"]))
    for hook in ("data_formats", "operand_types"):
        if doc.get(hook):
            con.execute("INSERT INTO meta VALUES (?, ?)", (f"{hook}:{arch.name}", json.dumps(doc[hook])))


def _load_document(con: sqlite3.Connection, doc: dict) -> None:
    """A non-AMD document from a loader: {arch, sources, instructions: [{name, category, summary,
    description, subgroup, page, search_encodings, search_formats}]}."""
    arch = archs.by_name(doc["arch"])
    for inst in doc["instructions"]:
        insert_instruction(con, arch, inst["name"], inst["category"], inst["summary"], inst["page"],
                           inst.get("description"), inst.get("subgroup"), (), inst.get("search_encodings", ""),
                           inst.get("search_formats", ""))
    insert_arch(con, arch, doc.get("sources", []), len(doc["instructions"]))


def _check_doc(doc, arch: str) -> None:
    """The shape _load_amd_doc relies on; ValueError (one line) where a file does not have it."""
    if not isinstance(doc, dict):
        raise ValueError(f"a JSON {type(doc).__name__}, not a facts document")
    if doc.get("arch") != arch:
        raise ValueError(f"it describes {echo(doc.get('arch'))}, not {arch}")
    for key in ("instructions", "encodings", "provenance", "sources"):
        if not isinstance(doc.get(key), list):
            raise ValueError(f"no list {key!r}")
    if not doc["instructions"]:
        raise ValueError("no instructions")


def _load_sources(con: sqlite3.Connection, arch: str, paths: list[Path], skipped: list[list[str]]) -> None:
    """The first of ``paths`` (import, then committed) that loads whole; an import that does not is skipped
    (rolled back) and noted; a committed file that does not is a packaging error and raises."""
    for p in paths:
        user_file = p.parent != AMD_DIR
        con.execute("SAVEPOINT doc")
        try:
            doc = json.loads(p.read_bytes())
            _check_doc(doc, arch)
            _load_amd_doc(con, doc)
            con.execute("RELEASE doc")
            return
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, sqlite3.IntegrityError) as exc:
            con.execute("ROLLBACK TO doc")
            con.execute("RELEASE doc")
            if not user_file:
                raise
            reason = f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc)
            skipped.append([p.name, one_line(reason, 120)])


def _fill(con: sqlite3.Connection, sources: dict[str, list[Path]], loaders: list,
          progress: Callable[[str, int, int], None] | None) -> None:
    con.executescript(SCHEMA)
    paths = [p for ps in sources.values() for p in ps]
    for loader in loaders:
        paths += list(loader.fact_paths())
    total = len(sources) + len(loaders)
    skipped: list[list[str]] = []
    con.execute("BEGIN")
    con.execute("INSERT INTO meta VALUES ('fingerprint', ?), ('schema', ?), ('files', ?)",
                (fingerprint(paths), SCHEMA_VERSION, json.dumps(sorted(_label(p) for p in paths))))
    for i, (arch, ps) in enumerate(sources.items()):
        if progress:
            progress(arch, i, total)
        _load_sources(con, arch, ps, skipped)
    for j, loader in enumerate(loaders):
        if progress:
            progress(loader.__name__, len(sources) + j, total)
        for doc in loader.store_documents():
            _load_document(con, doc)
    con.execute("INSERT INTO meta VALUES ('skipped', ?)", (json.dumps(skipped),))
    con.execute("COMMIT")


def build(path: Path, progress: Callable[[str, int, int], None] | None = None) -> Path:
    """Build the store from the committed facts (+ imports, + other ISAs) into ``path``, atomically.

    Runs under the folder's lock (concurrent builds queue); temporaries of killed builds are removed.
    """
    from .cachefile import atomic_path, clean_legacy, clean_stale, locked
    from .logs import info

    path = Path(path)
    info(__name__, "building the store %s from the committed facts", path)
    with locked(path.parent, "build the store"):
        clean_stale(path.parent)
        clean_stale(imports_dir())  # (killed imports' temporaries: their pid is gone)
        clean_stale(path.parent / "semantics")
        clean_legacy(path.parent, lambda n: n.startswith(".gpuisa-") and n.endswith((".sqlite", ".sqlite-journal")))
        sources = fact_sources()
        loaders = list(_loaders())
        with atomic_path(path) as tmp:
            con = sqlite3.connect(tmp, isolation_level=None)
            try:
                con.execute("PRAGMA journal_mode=OFF")  # a temporary file: a failed build is simply removed
                con.execute("PRAGMA synchronous=OFF")
                _fill(con, sources, loaders, progress)
            finally:
                con.close()
    if progress:
        progress("done", 1, 1)
    from .amdxml.imports import note_ignored

    note_ignored(path)
    return path


def cache_db() -> Path:
    return home_dir() / "cache" / "default.sqlite"


def temp_db(paths: list[Path]) -> Path:
    """Where a store is built when the data folder cannot be written: the system's temporary folder."""
    return Path(tempfile.gettempdir()) / f"gpuisa-{getattr(os, 'getuid', lambda: 'user')()}" / f"store-{fingerprint(paths)[:16]}.sqlite"


def default_db_path(progress: Callable[[str, int, int], None] | None = None) -> Path:
    """The store to open: packaged if current, else a cached build (made now if needed).

    Where the data folder cannot be written (read-only, not a folder, full), the store is built in the
    system's temporary folder instead, so reads still work.
    """
    from .amdxml.imports import note_ignored

    db = _current_or_build(progress)
    note_ignored(db)
    return db


def _current_or_build(progress) -> Path:
    from .cachefile import LockTimeout, locked, own_folder, writable_folder

    paths = all_fact_paths()
    for db in (PACKAGED_DB, cache_db()):
        if _is_current(db, paths):
            from .logs import debug

            debug(__name__, "store %s is current", db)
            return db
    target = cache_db()
    if writable_folder(target.parent) and not target.is_dir():
        try:
            with locked(target.parent, "build the store"):
                paths = all_fact_paths()  # (another process may have imported or built while we waited)
                if _is_current(target, paths):
                    return target
                return build(target, progress)
        except LockTimeout:
            raise
        except (OSError, sqlite3.OperationalError):
            pass  # (full, or made unwritable meanwhile): build where we can
    target = temp_db(paths)
    if own_folder(target.parent) and _is_current(target, paths):  # built by an earlier read-only command
        return target
    try:
        os.makedirs(target.parent, mode=0o700, exist_ok=True)
        if not own_folder(target.parent):
            raise PermissionError(f"{target.parent} belongs to another user")
        return build(target, progress)
    except (OSError, sqlite3.OperationalError):
        return build_in_memory(progress)  # (nothing writable at all: this process keeps its own store)


_memory: sqlite3.Connection | None = None


def build_in_memory(progress: Callable[[str, int, int], None] | None = None, fresh: bool = False) -> Path:
    """The store in this process's memory (kept alive here; every Store(MEMORY_DB) shares it)."""
    global _memory
    if fresh and _memory is not None:
        _memory.close()
        _memory = None
    if _memory is None:
        con = sqlite3.connect(str(MEMORY_DB), uri=True, isolation_level=None)
        _fill(con, fact_sources(), list(_loaders()), progress)
        _memory = con
    return MEMORY_DB


def _is_current(db: Path, paths: list[Path]) -> bool:
    """Same set of fact files, none newer than the store; else compare content fingerprints."""
    try:
        if not db.is_file():
            return False
        con = sqlite3.connect(db_uri(db), uri=True)
        try:
            rows = dict(con.execute("SELECT key, value FROM meta WHERE key IN ('files', 'fingerprint')").fetchall())
        finally:
            con.close()
        if rows.get("files") != json.dumps(sorted(_label(p) for p in paths)):
            return False
        mtime = db.stat().st_mtime_ns
        # a few seconds of slack for packaged facts (installers write the facts and the store in one go);
        # none for the user's imports (an import is installed, under the lock, before its store is built)
        if all(p.stat().st_mtime_ns < mtime if _is_import(p) else p.stat().st_mtime_ns <= mtime + 5 * 10**9
               for p in paths):
            return True
        return rows.get("fingerprint") == fingerprint(paths)
    except (sqlite3.Error, OSError):
        return False


SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26  # SQLite's primary result codes (sqlite3 names them from Python 3.11)


def _corrupt(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)  # (Python 3.11+)
    if code is not None:
        return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)
    return "malformed" in str(exc) or "not a database" in str(exc)


class _Rows(list):
    def fetchall(self) -> list:
        return list(self)

    def fetchone(self):
        return self[0] if self else None


class _Connection:
    """The store's connection as its users see it: ``execute`` returns the rows fetched, and a damaged
    store file (random bytes in it, a truncated copy) is rebuilt once, then the query is run again."""

    def __init__(self, store: "Store"):
        self._store = store

    def execute(self, sql: str, args=()) -> _Rows:
        try:
            return _Rows(self._store._con.execute(sql, args).fetchall())
        except UnicodeEncodeError:
            return _Rows()  # user text that is not Unicode (a lone surrogate from argv) matches nothing
        except sqlite3.DatabaseError as exc:
            if not _corrupt(exc):
                raise
            self._store._repair(exc)
            return _Rows(self._store._con.execute(sql, args).fetchall())

    def __getattr__(self, name):
        return getattr(self._store._con, name)


class Store:
    """Read-only queries over a built store."""

    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else default_db_path()
        self._repaired = False
        self._open()
        self.con = _Connection(self)

    def _open(self) -> None:
        try:
            self._con = sqlite3.connect(db_uri(self.path), uri=True)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store {self.path} ({exc})") from None
        self._con.row_factory = sqlite3.Row

    def _repair(self, exc: sqlite3.DatabaseError) -> None:
        """The store file is damaged: confirm (quick_check), rebuild the user's cached store, reopen."""
        import sys

        try:
            check = str(self._con.execute("PRAGMA quick_check(1)").fetchone()[0])
        except sqlite3.DatabaseError as again:
            check = str(again)
        if self._repaired:
            raise StoreError(f"the store {self.path} is damaged ({exc}) and rebuilding it did not help; "
                             f"remove it and run gpuisa build") from None
        self._repaired = True
        self._con.close()
        print(one_line(f"gpuisa: note: the store {self.path} is damaged ({exc}; quick_check: {check}); rebuilding it"),
              file=sys.stderr)
        if self.path == MEMORY_DB:
            self.path = build_in_memory(fresh=True)
        elif self.path == PACKAGED_DB:
            self.path = default_db_path()
            if self.path == PACKAGED_DB:
                self.path = build(cache_db())
        else:
            try:
                build(self.path)
            except (OSError, sqlite3.OperationalError):
                self.path = build(temp_db(all_fact_paths()))
        self._open()

    def archs(self) -> list[sqlite3.Row]:
        return self.con.execute("SELECT * FROM archs ORDER BY kind = 'virtual', ord").fetchall()

    def arch_row(self, name: str) -> sqlite3.Row | None:
        return self.con.execute("SELECT * FROM archs WHERE name=?", (name,)).fetchone()

    def instruction(self, name: str, arch: str) -> sqlite3.Row | None:
        return self.con.execute("SELECT * FROM instructions WHERE name=? AND arch=?", (name, arch)).fetchone()

    def instruction_archs(self, name: str) -> list[str]:
        rows = self.con.execute("SELECT arch FROM instructions WHERE name=?", (name,)).fetchall()
        return [r[0] for r in rows]

    def generations(self, name: str) -> dict[str, list[sqlite3.Row]]:
        out: dict[str, list[sqlite3.Row]] = {}
        for r in self.con.execute("SELECT arch, encoding, opcode, layout FROM inst_enc WHERE name=?", (name,)):
            out.setdefault(r["arch"], []).append(r)
        return out

    def encoding(self, arch: str, name: str) -> Encoding | None:
        r = self.con.execute("SELECT * FROM encodings WHERE arch=? AND name=?", (arch, name)).fetchone()
        if r is None:
            return None
        fields = tuple(Field(n, tuple(tuple(x) for x in rs), v) for n, rs, v in json.loads(r["fields"]))
        return Encoding(r["name"], r["width"], fields, r["op_field"])

    def encoding_names(self, arch: str | None = None) -> list[str]:
        if arch:
            rows = self.con.execute("SELECT name FROM encodings WHERE arch=? ORDER BY name", (arch,))
        else:
            rows = self.con.execute("SELECT DISTINCT name FROM encodings ORDER BY name")
        return [r[0] for r in rows]

    def all_names(self, arch: str | None = None) -> list[str]:
        if arch:
            rows = self.con.execute("SELECT name FROM instructions WHERE arch=?", (arch,))
        else:
            rows = self.con.execute("SELECT DISTINCT name FROM instructions")
        return [r[0] for r in rows]

    def list_arch(self, arch: str, encoding: str | None = None) -> list[sqlite3.Row]:
        sql = ("SELECT i.name, i.category, i.summary, e.encoding, e.opcode FROM instructions i "
               "JOIN inst_enc e ON e.inst_id = i.id WHERE i.arch=?")
        args: list = [arch]
        if encoding:
            sql += " AND upper(e.encoding)=?"
            args.append(encoding.upper())
        return self.con.execute(sql + " ORDER BY i.name, e.encoding", args).fetchall()

    def encodings_of(self, arch: str) -> dict[str, list[tuple[str, int | None, str]]]:
        out: dict[str, list[tuple[str, int | None, str]]] = {}
        for r in self.con.execute("SELECT name, encoding, opcode, layout FROM inst_enc WHERE arch=?", (arch,)):
            out.setdefault(r["name"], []).append((r["encoding"], r["opcode"], r["layout"]))
        return out

    def search(self, text: str, arch: str | None = None, limit: int = 50, isa: str | None = None) -> list[sqlite3.Row]:
        """Ranked: exact name, name prefix, name fragment, then full-text (bm25); within ``arch``/``isa`` if given.

        At most MAX_SEARCH_CHARS characters and MAX_SEARCH_WORDS words (UserError beyond: SQLite's LIKE
        refuses long patterns, and full-text time grows with the square of the words)."""
        if len(text) > MAX_SEARCH_CHARS:
            raise UserError(f"search text of {len(text)} characters {echo(text, 40)}: at most {MAX_SEARCH_CHARS} allowed")
        q = text.strip().lower()
        where_arch = (" AND i.arch=?" if arch else "") + (" AND i.isa=?" if isa else "")
        args_arch = [x for x in (arch, isa) if x]
        scored: dict[tuple[str, str], tuple[float, sqlite3.Row]] = {}

        def add(rows, base):
            name_rank: dict[str, int] = {}
            for r in rows:
                k = name_rank.setdefault(r["name"], len(name_rank))
                key = (r["name"], r["arch"])
                # rank by name first (bm25 or length), then newest architecture first
                score = base + k * 1e-3 - archs.by_name(r["arch"]).order * 1e-6
                if key not in scored or scored[key][0] > score:
                    scored[key] = (score, r)

        cols = "i.name, i.arch, i.isa, i.summary, i.category"
        add(self.con.execute(f"SELECT {cols} FROM instructions i WHERE i.name=?{where_arch}", [q, *args_arch]), 0)
        like = q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        add(self.con.execute(f"SELECT {cols} FROM instructions i WHERE i.name LIKE ? ESCAPE '\\'{where_arch} "
                             "ORDER BY length(i.name), i.name LIMIT 500", [like + "%", *args_arch]), 1)
        add(self.con.execute(f"SELECT {cols} FROM instructions i WHERE i.name LIKE ? ESCAPE '\\'{where_arch} "
                             "ORDER BY length(i.name), i.name LIMIT 500", ["%" + like + "%", *args_arch]), 2)
        words = [w for w in "".join(c if c.isalnum() or c == "_" else " " for c in q).replace("_", " ").split() if w]
        if len(words) > MAX_SEARCH_WORDS:
            raise UserError(f"search text of {len(words)} words {echo(text, 40)}: at most {MAX_SEARCH_WORDS} allowed")
        if words:
            match = " ".join(f'"{w}"*' for w in words)
            try:
                rows = self.con.execute(f"SELECT {cols} FROM inst_fts f JOIN instructions i ON i.id=f.rowid "
                                        f"WHERE inst_fts MATCH ?{where_arch} ORDER BY bm25(inst_fts, 10, 3, 2, 2, 2) LIMIT 500",
                                        [match, *args_arch]).fetchall()
                add(rows, 3)
            except sqlite3.OperationalError as exc:
                if _corrupt(exc):
                    raise
        ranked = sorted(scored.values(), key=lambda t: t[0])
        return [r for _, r in ranked][:limit]
