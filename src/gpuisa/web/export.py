"""``gpuisa export-site DIR``: the whole reference as static HTML, CSS and JS with relative links.

Pages are rendered by ``Site`` in static mode (links to ``.html`` files relative to each page, so
the export works from ``file://`` and from any static host).  Search runs in the browser from
``static/search-index.js`` (a script, not JSON: ``fetch`` is not allowed on ``file://``).
Rendering is spread over worker processes, one read-only store connection each.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .site import STATIC, Linker, Site

_worker_site: Site | None = None


def _init_worker(store_path: str) -> None:
    global _worker_site
    _worker_site = Site(Path(store_path))


_PRE = re.compile(r"(<pre\b.*?</pre>|<textarea\b.*?</textarea>)", re.S)
_GAPS = re.compile(r">\s*\n\s*<")
_LINES = re.compile(r"\n\s+")


def compact_html(html: str) -> str:
    """Line breaks and indentation between tags dropped (never inside pre or textarea): the same page, smaller."""
    parts = _PRE.split(html)
    for i in range(0, len(parts), 2):
        parts[i] = _LINES.sub("\n", _GAPS.sub("><", parts[i]))
    return "".join(parts)


def _render_batch(args: tuple[str, list[str]]) -> int:
    out_dir, paths = args
    out = Path(out_dir)
    made: set[Path] = set()
    for path in paths:
        target = out / Linker.file_of(path)
        if target.parent not in made:
            target.parent.mkdir(parents=True, exist_ok=True)
            made.add(target.parent)
        target.write_text(compact_html(_worker_site.render(path, static=True)), encoding="utf-8")
    return len(paths)


def _asm_docs(out_dir: str) -> int:
    """/api/asm/{isa}/{opcode} as DIR/api/asm/{isa}/{opcode}.json (gpuisa.doclookup)."""
    from ..doclookup.export import export_docs

    return export_docs(Path(out_dir), _worker_site.store)


def write_static(site: Site, out_dir: Path) -> None:
    """The shared assets: CSS, scripts, the search index and each architecture's encoding diagrams once."""
    from .search import gfx_map

    static_out = out_dir / "static"
    static_out.mkdir(exist_ok=True)
    for f in STATIC.iterdir():
        if f.is_file():
            shutil.copyfile(f, static_out / f.name)
    titles = json.loads(site.arch_titles_json)
    gfx = json.dumps(gfx_map(site.arch_names), separators=(",", ":"))
    (static_out / "site.js").write_text("window.GPUISA_ARCHS=" + json.dumps(titles, separators=(",", ":")) +
                                        ";window.GPUISA_GFX=" + gfx + ";\n")
    index = json.dumps(site.search.static_index(), ensure_ascii=True, separators=(",", ":"))
    # '</' cannot close a script element here (the file is loaded by src=), but keep it inert anyway.
    (static_out / "search-index.js").write_text("window.GPUISA_INDEX=" + index.replace("</", "<\\/") + ";\n")
    for arch in site.arch_names:
        if site.store.encoding_names(arch):
            (static_out / f"layouts-{arch}.js").write_text(site.layouts_js(arch))


def export_site(out_dir: Path, store_path: Path | None = None, jobs: int | None = None,
                progress=None) -> dict:
    """Write every page under ``out_dir``; returns {"pages": n, "seconds": s, "dir": str}."""
    t0 = time.perf_counter()
    site = Site(store_path)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_static(site, out_dir)
    paths = site.all_paths()
    jobs = jobs or max(1, min(os.cpu_count() or 1, 8))
    size = max(50, len(paths) // (jobs * 16) + 1)
    batches = [(str(out_dir), paths[i:i + size]) for i in range(0, len(paths), size)]
    done = 0
    if jobs == 1:
        _init_worker(str(site.store_path))
        asm_docs = _asm_docs(str(out_dir))
        for b in batches:
            done += _render_batch(b)
            if progress:
                progress(done, len(paths))
    else:
        with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(str(site.store_path),)) as pool:
            docs = pool.submit(_asm_docs, str(out_dir))  # alongside the pages, not after them
            for n in pool.map(_render_batch, batches):
                done += n
                if progress:
                    progress(done, len(paths))
            asm_docs = docs.result()
    return {"pages": done, "asm_docs": asm_docs, "seconds": time.perf_counter() - t0, "dir": str(out_dir)}
