"""`gpuisa import-amd PATH…` and `gpuisa fetch amd`: AMD's XML into the user's data folder."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from pathlib import Path

from ..cachefile import atomic_write
from ..errors import UserError
from . import importer, sources
from .parse import XmlImportError

_LEGACY_TMP = re.compile(r"^\.[a-z0-9.]+-[A-Za-z0-9_]{8}\.json$")  # mkstemp names of gpuisa <= 0.x


def import_paths(paths: list[str], report_file: str | None = None, force: bool = False, out=print) -> list[dict]:
    """Import every architecture found; one transaction per architecture, then one store rebuild.

    The whole import runs under the data folder's lock (concurrent imports and builds queue).  A file
    that fails validation is refused; one that is worse than what is imported is skipped unless
    ``force``.  If anything fails, every architecture written by this call is put back as it was.
    """
    inputs = list(sources.iter_inputs(paths))
    with contextlib.ExitStack() as stack:  # the lock is taken once the first file has parsed: a refused file
        results = _import_locked(inputs, force, lambda: stack.enter_context(_Lock()))  # touches nothing
    for r in results:
        out(f"{r['arch']}: {r['action']}; release {r['release']}, schema {r['schema']}: {r['encodings']} encodings, "
            f"{r['instructions']} instructions, {r['data_formats']} data formats, {r['operand_types']} operand types; "
            f"{len(r['disagreements'])} of {r['checked']} facts checked against the offline default disagree"
            + (f"; {len(r['identifier_problems'])} identifier problems" if r["identifier_problems"] else "")
            + (f"; unknown elements kept raw: {', '.join(r['unknown_elements'])}" if r["unknown_elements"] else ""))
    if report_file:
        try:
            atomic_write(report_file, (json.dumps(results, indent=2) + "\n").encode())
        except OSError as exc:
            raise UserError(f"cannot write the report {report_file} ({type(exc).__name__}: {exc.strerror or exc})") from None
    return results


def _clean_imports() -> None:
    from ..cachefile import clean_legacy, clean_stale

    clean_stale(importer.imports_dir())
    clean_legacy(importer.imports_dir(), _LEGACY_TMP.match)


class _Lock:
    """The data folder's lock, and the clean-up of temporaries that only its holder may do."""

    def __enter__(self):
        from .. import store
        from ..cachefile import locked

        self.lock = locked(store.cache_db().parent, "import")
        self.lock.__enter__()
        _clean_imports()
        return self

    def __exit__(self, *exc):
        self.lock.__exit__(*exc)


def _import_locked(inputs, force: bool, take_lock) -> list[dict]:
    from .. import store

    progress = _progress(sum(size or 0 for _, _, size in inputs))
    results: list[dict] = []
    written: list[tuple[str, bytes | None]] = []  # (arch, previous document bytes or None)
    try:
        for label, opener, size in inputs:
            isa = sources.parse_input(label, opener, size, progress.advance if progress else None)
            doc, report = importer.build_document(isa, label, isa.sha256)
            importer.validate(isa, doc, label)
            summary = _summary(isa, doc, report)
            if not written and not results:
                take_lock()
            prev = importer.existing(doc["arch"])
            summary["action"] = _action(doc, prev, force)
            if summary["action"] in ("imported", "replaced"):
                path = importer.imports_dir() / f"{doc['arch']}.json"
                written.append((doc["arch"], _read(path)))
                importer.install(doc)
                if prev:
                    summary["action"] = f"replaced release {prev.get('document', {}).get('ReleaseDate')}"
            results.append(summary)
            del isa, doc, prev  # (one architecture in memory at a time)
        if progress:
            progress.stop()
        if written:
            from .imports import skipped_files

            db = store.build(store.cache_db())
            bad = {n: why for n, why in skipped_files(db) if n in {f"{a}.json" for a, _ in written}}
            if bad:
                name, why = next(iter(bad.items()))
                raise XmlImportError(f"{name}: the imported facts do not load into the store ({why}); nothing imported")
    except BaseException:
        if progress:
            progress.stop()
        _rollback(written)  # (the store follows on its next use: its fingerprint no longer matches)
        raise
    return results


def _summary(isa, doc: dict, report: dict) -> dict:
    return {"arch": doc["arch"], "file": doc["source_file"], "release": isa.document.get("ReleaseDate"),
            "schema": isa.document.get("SchemaVersion"), "encodings": len(isa.encodings),
            "instructions": len(isa.instructions), "data_formats": len(isa.data_formats),
            "operand_types": len(isa.operand_types), "checked": report["checked"],
            "disagreements": report["disagreements"], "identifier_problems": importer.check_layouts(doc),
            "unknown_elements": sorted(isa.unknown), "action": "imported"}


def _action(doc: dict, prev: dict | None, force: bool) -> str:
    if not prev:
        return "imported"
    if prev.get("source_sha256") == doc["source_sha256"]:
        return "unchanged (same file already imported)"
    prev_release = (prev.get("document") or {}).get("ReleaseDate") or ""
    if not force and prev_release > (doc["document"].get("ReleaseDate") or ""):
        return f"skipped (release {prev_release} is already imported; --force replaces it)"
    worse = None if force else importer.is_worse(doc, prev)
    if worse:
        return f"skipped ({worse}; --force replaces it)"
    return "replaced"


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _rollback(written: list[tuple[str, bytes | None]]) -> None:
    for arch, previous in reversed(written):
        path = importer.imports_dir() / f"{arch}.json"
        try:
            if previous is None:
                path.unlink(missing_ok=True)
            else:
                atomic_write(path, previous, durable=True)
        except OSError:
            pass  # (the original error is the one to report)


class _Progress:
    def __init__(self, total: int):
        from rich.progress import Progress

        self.p = Progress(transient=True)
        self.p.start()
        self.task = self.p.add_task("importing AMD XML", total=total or None)

    def advance(self, n: int) -> None:
        self.p.advance(self.task, n)

    def stop(self) -> None:
        self.p.stop()


def _progress(total: int):
    return _Progress(total) if sys.stderr.isatty() else None


def cmd_import(args) -> int:
    try:
        import_paths(args.paths, args.report, args.force)
    except XmlImportError as exc:
        raise UserError(str(exc)) from None
    return 0


def cmd_fetch(args) -> int:
    if args.what != "amd":
        raise UserError(f"unknown source {args.what!r} (allowed: amd)")
    url = args.url or sources.PINNED_URL
    sha = args.sha256 or (sources.PINNED_SHA256 if url == sources.PINNED_URL else None)
    if not sha:
        raise UserError(f"no SHA-256 is pinned for {url}; pass --sha256 HEX (the hash AMD publishes for the zip)")
    try:
        path = sources.download(url, sha)
        try:
            import_paths([str(path)], args.report, args.force)
        finally:
            path.unlink(missing_ok=True)
    except XmlImportError as exc:
        raise UserError(str(exc)) from None
    return 0


def register(sub) -> None:
    s = sub.add_parser("import-amd", help="import AMD's machine-readable ISA XML (zip, folder or files)")
    s.add_argument("paths", nargs="+", metavar="PATH")
    s.add_argument("--report", metavar="FILE", help="write every disagreement with the offline default as JSON")
    s.add_argument("--force", action="store_true", help="replace a newer imported release")
    s.set_defaults(func=cmd_import)
    s = sub.add_parser("fetch", help="download a source and import it (fetch amd)")
    s.add_argument("what", choices=["amd"])
    s.add_argument("--url", help=f"another release zip (default {sources.PINNED_URL})")
    s.add_argument("--sha256", help="expected SHA-256 of the zip")
    s.add_argument("--report", metavar="FILE")
    s.add_argument("--force", action="store_true")
    s.set_defaults(func=cmd_fetch)
