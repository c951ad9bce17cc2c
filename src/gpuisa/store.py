"""SQLite + FTS5 store: built from the committed facts, then opened read-only.

Layout: one row per (instruction, architecture) holding the page data as JSON
(so ``show`` is two indexed look-ups), a normalised ``inst_enc`` table for
``list``/``diff``, an ``encodings`` table, and an FTS5 index over names,
summaries, categories, encodings and operand formats for ``search``.

Where it lives: the wheel ships ``gpuisa/data/gpuisa.sqlite`` built at install
time; when that is missing or older than the committed facts (an editable
checkout after a regenerate), the store is built once into the user's cache
folder (``$GPUISA_HOME/cache`` or the platform's user cache) and reused.
Builds happen in a temporary file that is renamed into place, so a failed
build never leaves a broken store behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Callable, Iterable

from . import archs
from .model import Encoding, Field

DATA_DIR = Path(__file__).parent / "data"
AMD_DIR = DATA_DIR / "amd"
PACKAGED_DB = DATA_DIR / "gpuisa.sqlite"
SCHEMA_VERSION = "2"

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


def home_dir() -> Path:
    env = os.environ.get("GPUISA_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("gpuisa", appauthor=False))


def imports_dir() -> Path:
    """Where ``gpuisa import-amd`` keeps the user's imported architectures (normalised facts)."""
    return home_dir() / "imports" / "amd"


# Feature packages that contribute instructions of other ISAs: module with
# store_documents() -> list[doc] and fact_paths() -> list[Path] (see build()).
STORE_LOADERS = ("gpuisa.ptx.catalog",)


def _loaders():
    from .features import optional_module

    for mod in STORE_LOADERS:
        module = optional_module(mod)
        if module is not None:
            yield module


def fact_files() -> list[Path]:
    """Committed AMD facts, each replaced by the user's import of the same architecture."""
    files = {p.stem: p for p in AMD_DIR.glob("*.json") if p.name != "llvm_sweep.json"}
    imp = imports_dir()
    if imp.is_dir():
        for p in imp.glob("*.json"):
            files[p.stem] = p
    return [files[k] for k in sorted(files)]


def all_fact_paths() -> list[Path]:
    paths = fact_files()
    for loader in _loaders():
        paths += list(loader.fact_paths())
    return paths


def fingerprint(files: Iterable[Path] | None = None) -> str:
    h = hashlib.sha1(SCHEMA_VERSION.encode())
    for p in files if files is not None else all_fact_paths():
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def _encoding_from_json(d: dict) -> Encoding:
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


def _load_amd_doc(con: sqlite3.Connection, doc: dict) -> None:
    from . import summaries
    from .sources import derive

    arch = archs.by_name(doc["arch"])
    provs = doc["provenance"]
    encs = {}
    for e in doc["encodings"]:
        enc = _encoding_from_json(e)
        encs[enc.name] = enc
        con.execute("INSERT INTO encodings VALUES (?,?,?,?,?,?)",
                    (arch.name, enc.name, enc.width, enc.op_field, layout_signature(enc),
                     json.dumps(_prov_dict(provs[e["prov"]]) if e["prov"] is not None else None)))
    for inst in doc["instructions"]:
        name = inst["name"]
        first_enc = inst["encodings"][0]["encoding"] if inst["encodings"] else ""
        cat = inst.get("category") or derive.category(name, first_enc)
        summary = summaries.summarize(name, cat)
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
        rows = [(ie["encoding"], ie["opcode"], layout_signature(encs[ie["encoding"]]) if ie["encoding"] in encs else "")
                for ie in inst["encodings"]]
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


def build(path: Path, progress: Callable[[str, int, int], None] | None = None) -> Path:
    """Build the store from the committed facts (+ imports, + other ISAs) into ``path``, atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    files = fact_files()
    loaders = list(_loaders())
    total = len(files) + len(loaders)
    fd, tmp = tempfile.mkstemp(prefix=".gpuisa-", suffix=".sqlite", dir=path.parent)
    os.close(fd)
    try:
        con = sqlite3.connect(tmp)
        con.executescript(SCHEMA)
        paths = all_fact_paths()
        con.execute("INSERT INTO meta VALUES ('fingerprint', ?), ('schema', ?), ('files', ?)",
                    (fingerprint(paths), SCHEMA_VERSION, json.dumps(sorted(str(p.name) for p in paths))))
        for i, f in enumerate(files):
            if progress:
                progress(f.stem, i, total)
            _load_amd_doc(con, json.loads(f.read_text()))
        for j, loader in enumerate(loaders):
            if progress:
                progress(loader.__name__, len(files) + j, total)
            for doc in loader.store_documents():
                _load_document(con, doc)
        con.commit()
        con.close()
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if progress:
        progress("done", total, total)
    return path


def cache_db() -> Path:
    return home_dir() / "cache" / "default.sqlite"


def default_db_path(progress: Callable[[str, int, int], None] | None = None) -> Path:
    """The store to open: packaged if current, else a cached build (made now if needed)."""
    paths = all_fact_paths()
    for db in (PACKAGED_DB, cache_db()):
        if db.exists() and _is_current(db, paths):
            return db
    return build(cache_db(), progress)


def _is_current(db: Path, paths: list[Path]) -> bool:
    """Same set of fact files, none newer than the store; else compare content fingerprints."""
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            rows = dict(con.execute("SELECT key, value FROM meta WHERE key IN ('files', 'fingerprint')").fetchall())
        finally:
            con.close()
    except sqlite3.Error:
        return False
    if rows.get("files") != json.dumps(sorted(str(p.name) for p in paths)):
        return False
    mtime = db.stat().st_mtime
    # a few seconds of slack: installers write the facts and the store in one go
    if all(p.stat().st_mtime <= mtime + 5 for p in paths):
        return True
    return rows.get("fingerprint") == fingerprint(paths)


class Store:
    """Read-only queries over a built store."""

    def __init__(self, path: Path | None = None):
        self.path = path or default_db_path()
        self.con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        self.con.row_factory = sqlite3.Row

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

    def search(self, text: str, arch: str | None = None, limit: int = 50) -> list[sqlite3.Row]:
        """Ranked: exact name, name prefix, name fragment, then full-text (bm25)."""
        q = text.strip().lower()
        where_arch = " AND i.arch=?" if arch else ""
        args_arch = [arch] if arch else []
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
        if words:
            match = " ".join(f'"{w}"*' for w in words)
            try:
                rows = self.con.execute(f"SELECT {cols} FROM inst_fts f JOIN instructions i ON i.id=f.rowid "
                                        f"WHERE inst_fts MATCH ?{where_arch} ORDER BY bm25(inst_fts, 10, 3, 2, 2, 2) LIMIT 500",
                                        [match, *args_arch]).fetchall()
                add(rows, 3)
            except sqlite3.OperationalError:
                pass
        ranked = sorted(scored.values(), key=lambda t: t[0])
        return [r for _, r in ranked][:limit]
