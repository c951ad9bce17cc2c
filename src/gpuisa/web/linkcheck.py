"""Every ``href``/``src`` of a static export checked: the file exists, the ``#anchor`` is an id of it, and each
diagram a page names (``data-layout="ARCH/ENC"``) is in ``static/layouts-ARCH.js``.  Used by the export
test and ``benchmarks/bench_export.py``."""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINK = re.compile(r'(?:href|src)="([^"]*)"')
LAYOUT = re.compile(r'data-layout="([^"/]+)/([^"]+)"')
ID = re.compile(r'\bid="([^"]*)"')
# The vendors' documents: checked as addresses only (no network here).
EXTERNAL = ("https://gpuopen.com/", "https://llvm.org/docs/AMDGPU/", "https://docs.nvidia.com/cuda/parallel-thread-execution/")


def check_links(out: Path) -> tuple[int, list[tuple[str, str, str]]]:
    """(links checked, [(page, link, problem)]) over every HTML file under ``out``."""
    out = Path(out)
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    ids: dict[str, set[str]] = {}
    layouts: dict[str, str] = {}
    broken: list[tuple[str, str, str]] = []
    checked = 0
    for rel in sorted(f for f in files if f.endswith(".html")):
        here = posixpath.dirname(rel)
        text = (out / rel).read_text(encoding="utf-8")
        ids.setdefault(rel, set(ID.findall(text)))
        for arch, enc in set(LAYOUT.findall(text)):
            if arch not in layouts:
                js = out / "static" / f"layouts-{arch}.js"
                layouts[arch] = js.read_text() if js.is_file() else ""
            if f'"{enc}":' not in layouts[arch]:
                broken.append((rel, f"{arch}/{enc}", f"layout missing from static/layouts-{arch}.js"))
        for raw in set(LINK.findall(text)):
            url = html.unescape(raw)
            parts = urlsplit(url)
            if url.startswith(EXTERNAL):
                continue
            if parts.scheme or url.startswith("/"):
                broken.append((rel, url, "absolute link: breaks file:// and sub-folder hosting"))
                continue
            target = posixpath.normpath(posixpath.join(here, unquote(parts.path))) if parts.path else rel
            checked += 1
            if target not in files:
                broken.append((rel, url, "missing"))
            elif parts.fragment and target.endswith(".html"):
                if target not in ids:
                    ids[target] = set(ID.findall((out / target).read_text(encoding="utf-8")))
                if parts.fragment not in ids[target]:
                    broken.append((rel, url, "missing anchor"))
    return checked, broken
