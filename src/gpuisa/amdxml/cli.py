"""`gpuisa import-amd PATH…` and `gpuisa fetch amd`: AMD's XML into the user's data folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import UserError
from . import importer, sources
from .parse import XmlImportError


def import_paths(paths: list[str], report_file: str | None = None, force: bool = False, out=print) -> list[dict]:
    """Import every architecture found; one transaction per architecture, then one store rebuild.

    If the rebuild fails, every architecture written by this call is put back as it was.
    """
    from .. import store

    inputs = list(sources.iter_inputs(paths))
    progress = _progress(sum(size or 0 for _, _, size in inputs))
    results, written = [], []  # written: (arch, previous document text or None)
    try:
        for label, opener, size in inputs:
            isa = sources.parse_input(label, opener, size, progress.advance if progress else None)
            doc, report = importer.build_document(isa, label, isa.sha256)
            problems = importer.check_layouts(doc)
            arch = doc["arch"]
            prev = importer.existing(arch)
            summary = {"arch": arch, "file": label, "release": isa.document.get("ReleaseDate"),
                       "schema": isa.document.get("SchemaVersion"), "encodings": len(isa.encodings),
                       "instructions": len(isa.instructions), "data_formats": len(isa.data_formats),
                       "operand_types": len(isa.operand_types), "checked": report["checked"],
                       "disagreements": report["disagreements"], "identifier_problems": problems,
                       "unknown_elements": sorted(isa.unknown), "action": "imported"}
            if prev and prev.get("source_sha256") == isa.sha256:
                summary["action"] = "unchanged (same file already imported)"
            elif prev and not force and (prev.get("document", {}).get("ReleaseDate") or "") > (summary["release"] or ""):
                summary["action"] = f"skipped (release {prev['document']['ReleaseDate']} is already imported; --force replaces it)"
            else:
                path = importer.imports_dir() / f"{arch}.json"
                written.append((arch, path.read_text() if path.exists() else None))
                importer.install(doc)
                if prev:
                    summary["action"] = f"replaced release {prev.get('document', {}).get('ReleaseDate')}"
            results.append(summary)
        if progress:
            progress.stop()
        if written:
            store.build(store.cache_db())
    except BaseException:
        if progress:
            progress.stop()
        _rollback(written)
        raise
    for r in results:
        out(f"{r['arch']}: {r['action']}; release {r['release']}, schema {r['schema']}: {r['encodings']} encodings, "
            f"{r['instructions']} instructions, {r['data_formats']} data formats, {r['operand_types']} operand types; "
            f"{len(r['disagreements'])} of {r['checked']} facts checked against the offline default disagree"
            + (f"; {len(r['identifier_problems'])} identifier problems" if r["identifier_problems"] else "")
            + (f"; unknown elements kept raw: {', '.join(r['unknown_elements'])}" if r["unknown_elements"] else ""))
    if report_file:
        Path(report_file).write_text(json.dumps(results, indent=2) + "\n")
    return results


def _rollback(written: list[tuple[str, str | None]]) -> None:
    for arch, previous in reversed(written):
        path = importer.imports_dir() / f"{arch}.json"
        if previous is None:
            path.unlink(missing_ok=True)
        else:
            path.write_text(previous)


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
