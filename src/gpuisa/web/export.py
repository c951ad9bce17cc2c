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

from .. import archs
from .export_merge import merge_pages, relink
from .site import STATIC, Linker, Site, instruction_path

EXPORTED_DIRS = ("isa", "diff", "api", "static")
_worker_site: Site | None = None
_worker_merge: dict = {}


def merge_plan(site: Site) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """({native arch: its ISA folder}, {(arch, encoding): the first generation with the same field layout})."""
    native = archs.generation_order([r["name"] for r in site.native_archs()])
    merged = {a: archs.by_name(a).isa for a in native}
    clash = set(merged.values()) & set(site.arch_names)
    if clash:
        raise ValueError(f"ISA folder {sorted(clash)[0]} is also an architecture name")
    canon: dict[tuple[str, str], str] = {}
    first: dict[tuple, str] = {}
    for a in native:
        for enc in site.store.encoding_names(a):
            e = site.encoding_of(a, enc)
            if e is not None:
                canon[(a, enc)] = first.setdefault((merged[a], enc, e.layout_key()), a)
    return merged, canon


def _init_worker(store_path: str) -> None:
    global _worker_site, _worker_merge
    _worker_site = Site(Path(store_path))
    merged, canon = merge_plan(_worker_site)
    _worker_merge = {"merged": merged, "canon": canon}


def _site() -> Site:
    """The worker process's site (made by ``_init_worker``, which the pool runs first)."""
    assert _worker_site is not None, "export worker used before _init_worker"
    return _worker_site


_PRE = re.compile(r"(<pre\b.*?</pre>|<textarea\b.*?</textarea>)", re.S)
_GAPS = re.compile(r">\s*\n\s*<")
_LINES = re.compile(r"\n\s+")


def compact_html(html: str) -> str:
    """Line breaks and indentation between tags dropped (never inside pre or textarea): the same page, smaller."""
    parts = _PRE.split(html)
    for i in range(0, len(parts), 2):
        parts[i] = _LINES.sub("\n", _GAPS.sub("><", parts[i]))
    return "".join(parts)


def _write(out: Path, rel: str, html: str, made: set) -> None:
    target = out / rel
    if target.parent not in made:
        target.parent.mkdir(parents=True, exist_ok=True)
        made.add(target.parent)
    target.write_text(html, encoding="utf-8")


def _render_batch(args: tuple[str, list]) -> int:
    """Render a batch of units: a path (one page) or (isa, name, [archs]) (one merged instruction page)."""
    out_dir, units = args
    out, site, merged = Path(out_dir), _site(), _worker_merge["merged"]
    made: set[Path] = set()
    for unit in units:
        if isinstance(unit, str):
            rel = Linker.file_of(unit)
            _write(out, rel, relink(compact_html(site.render(unit, static=True)), rel, rel, merged), made)
            continue
        isa, name, arch_list = unit
        rel = f"isa/{isa}/{name}.html"
        pages = {}
        for a in arch_list:
            path = instruction_path(a, name)
            pages[a] = relink(compact_html(site.render(path, static=True)), Linker.file_of(path), rel, merged)
        _write(out, rel, merge_pages(name, pages, archs.by_name(arch_list[0]).vendor, _worker_merge["canon"]), made)
    return len(units)


def plan_units(site: Site, paths: list[str], merged: dict[str, str]) -> list:
    """The export's units: every page path, except instruction pages of merged archs, gathered per name."""
    units: list = []
    names: dict[tuple[str, str], list[str]] = {}
    for p in paths:
        parts = p.split("/")
        if len(parts) == 3 and parts[0] == "isa" and parts[1] in merged:
            names.setdefault((merged[parts[1]], parts[2]), []).append(parts[1])
        else:
            units.append(p)
    return units + [(isa, name, arch_list) for (isa, name), arch_list in sorted(names.items())]


def _asm_docs(out_dir: str) -> int:
    """/api/asm/{isa}/{opcode} as DIR/api/asm/{isa}/{opcode}.json (gpuisa.doclookup)."""
    from ..doclookup.export import export_docs

    return export_docs(Path(out_dir), _site().store)


def write_static(site: Site, out_dir: Path, merged: dict[str, str]) -> None:
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
                                        ";window.GPUISA_GFX=" + gfx +
                                        ";window.GPUISA_MERGED=" + json.dumps(merged, separators=(",", ":")) + ";\n")
    index = json.dumps(site.search.static_index(), ensure_ascii=True, separators=(",", ":"))
    # '</' cannot close a script element here (the file is loaded by src=), but keep it inert anyway.
    (static_out / "search-index.js").write_text("window.GPUISA_INDEX=" + index.replace("</", "<\\/") + ";\n")
    for arch in site.arch_names:
        if site.store.encoding_names(arch):
            (static_out / f"layouts-{arch}.js").write_text(site.layouts_js(arch))


def export_site(out_dir: Path, store_path: Path | None = None, jobs: int | None = None,
                progress=None, paths: list[str] | None = None) -> dict:
    """Write every page under ``out_dir`` (or only ``paths``, a subset of ``Site.all_paths()``: the tests'
    cheaper export; the shared assets are written whole either way); returns {"pages": n, "seconds": s,
    "dir": str}."""
    t0 = time.perf_counter()
    site = Site(store_path)
    out_dir = Path(out_dir)
    merged, _ = merge_plan(site)
    if (out_dir / "index.html").is_file():  # an earlier export: its pages go, so none is left stale
        for sub in EXPORTED_DIRS:
            shutil.rmtree(out_dir / sub, ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_static(site, out_dir, merged)
    units = plan_units(site, site.all_paths() if paths is None else paths, merged)
    jobs = jobs or max(1, min(os.cpu_count() or 1, 8))
    size = max(20, len(units) // (jobs * 16) + 1)
    batches = [(str(out_dir), units[i:i + size]) for i in range(0, len(units), size)]
    done = 0
    if jobs == 1:
        _init_worker(str(site.store_path))
        asm_docs = _asm_docs(str(out_dir))
        for b in batches:
            done += _render_batch(b)
            if progress:
                progress(done, len(units))
    else:
        with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(str(site.store_path),)) as pool:
            docs = pool.submit(_asm_docs, str(out_dir))  # alongside the pages, not after them
            for n in pool.map(_render_batch, batches):
                done += n
                if progress:
                    progress(done, len(units))
            asm_docs = docs.result()
    return {"pages": done, "asm_docs": asm_docs, "seconds": time.perf_counter() - t0, "dir": str(out_dir)}
