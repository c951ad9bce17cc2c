"""The static export: the whole reference is written, every internal link and anchor resolves, it works from file://."""

from __future__ import annotations

import html
import posixpath
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conftest import ROOT, need

LINK = re.compile(r'(?:href|src)="([^"]*)"')
LAYOUT = re.compile(r'data-layout="([^"/]+)/([^"]+)"')
VENDOR_SITES = ("https://gpuopen.com/", "https://llvm.org/docs/AMDGPU/", "https://docs.nvidia.com/cuda/parallel-thread-execution/")
ID = re.compile(r'\bid="([^"]*)"')


@pytest.fixture(scope="module")
def exported(store, tmp_path_factory):
    from gpuisa.web.export import export_site
    from gpuisa.web.site import Site

    out = tmp_path_factory.mktemp("site")
    result = export_site(out, store.path)
    return out, result, Site(store.path).all_paths()


def test_every_page_is_written(exported, store):
    out, result, paths = exported
    assert result["pages"] == len(paths)
    # one page per instruction per architecture
    for a in store.archs():
        names = set(store.all_names(a["name"]))
        written = {p.stem for p in (out / "isa" / a["name"]).glob("*.html")}
        assert names <= written, sorted(names - written)[:5]
    assert (out / "index.html").is_file() and (out / "static" / "style.css").is_file()
    index = (out / "static" / "search-index.js").read_text()
    assert index.startswith("window.GPUISA_INDEX=") and re.search(r'\["v_msad_u8","amdgpu",\[[^\]]*"rdna4"', index)


def test_shared_assets_not_copied_into_every_page(exported, store):
    """Diagrams, architecture titles and the search index live once under static/, not in each page."""
    out, _, _ = exported
    page = (out / "isa" / "rdna4" / "v_msad_u8.html").read_text()
    assert "<svg" not in page and "data-archs" not in page and 'data-layout="rdna4/VOP3"' in page
    layouts = (out / "static" / "layouts-rdna4.js").read_text()
    assert '"VOP3":' in layouts and "@B@" in layouts
    for a in store.archs():
        if store.encoding_names(a["name"]):
            assert (out / "static" / f"layouts-{a['name']}.js").is_file()
    for name in ("site.js", "search.js", "search-index.js", "app.js", "style.css"):
        assert (out / "static" / name).is_file()
    assert "\n  " not in page.split("<pre")[0]  # indentation between tags dropped


def test_every_internal_link_resolves(exported):
    out, _, _ = exported
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    ids: dict[str, set[str]] = {}
    broken, checked, layouts = [], 0, {}
    for rel in sorted(f for f in files if f.endswith(".html")):
        here = posixpath.dirname(rel)
        text = (out / rel).read_text(encoding="utf-8")
        for arch, enc in set(LAYOUT.findall(text)):  # diagrams drawn from static/layouts-ARCH.js
            if arch not in layouts:
                js = out / "static" / f"layouts-{arch}.js"
                layouts[arch] = js.read_text() if js.is_file() else ""
            if f'"{enc}":' not in layouts[arch]:
                broken.append((rel, f"{arch}/{enc}", "layout missing from static/layouts-{arch}.js"))
        for raw in set(LINK.findall(text)):
            url = html.unescape(raw)
            parts = urlsplit(url)
            if url.startswith(VENDOR_SITES):  # the vendors' documents: addresses only
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
    assert checked > 50_000
    assert not broken, broken[:10]


def test_export_cli_refuses_a_folder_with_other_files(tmp_path, cli_env):
    from conftest import run_cli

    (tmp_path / "notes.txt").write_text("mine")
    r = run_cli(["export-site", str(tmp_path)], cli_env)
    assert r.returncode == 2 and "not empty" in r.stderr and "Traceback" not in r.stderr


def test_static_search_and_links_from_file_url(exported, store):
    exe = shutil.which("chromium")
    need(exe is not None, "Debian's chromium is not installed (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed (pip install playwright)")
    out, _, _ = exported
    shots = ROOT / "artifacts" / "web"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe,
                                     args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto((out / "index.html").as_uri())
        page.fill("#q", "msad")
        hit = page.locator("#suggest a.hit", has_text="v_msad_u8").first
        hit.wait_for(timeout=15_000)
        hit.click()
        page.wait_for_url("**/isa/*/v_msad_u8.html")  # the newest generation that has it
        page.locator('#gentable a[data-arch="rdna4"]').click()
        page.wait_for_url("**/isa/rdna4/v_msad_u8.html")
        op = page.locator('#enc-VOP3 g.field[data-field="OP"] text.bits')
        op.wait_for(timeout=15_000)  # drawn from the shared layouts-rdna4.js
        assert page.locator('#enc-VOP3 g.field').count() == 11 and op.text_content() == format(569, "010b")
        page.locator('#gentable a[data-arch="rdna2"]').click()
        page.wait_for_url("**/isa/rdna2/v_msad_u8.html")
        page.screenshot(path=str(shots / "08-static-export-rdna2.png"))
        # the exported search page answers as the server's /search: arch filter, formats, PTX spellings, typos
        from starlette.testclient import TestClient

        from gpuisa.web.app import create_app

        with TestClient(create_app(store.path)) as client:
            for q, arch in (("fma", "cdna3"), ("FMT_NUM_I24", ""), ("vsub.s32.s32.u32.sat", ""), ("msda", ""),
                            ("fma", "")):
                page.goto((out / "search.html").as_uri() + f"?q={q}&arch={arch}")
                page.locator("#results table.results, #results p").first.wait_for(timeout=15_000)
                got = page.locator("#results table.results tbody tr td:first-child code").all_inner_texts()
                served = client.get("/search", params={"q": q, "arch": arch}).text
                want = re.findall(r'<tr><td><a href="/isa/[^"]+"><code>([^<]+)</code>', served)
                assert got and got == want, (q, arch, got[:5], want[:5])
        page.goto((out / "search.html").as_uri() + "?q=fma&arch=cdna3")
        page.locator("#results table.results").wait_for(timeout=15_000)
        page.screenshot(path=str(shots / "09-static-search-fma-cdna3.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto((out / "isa" / "rdna4" / "v_msad_u8.html").as_uri())
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        browser.close()
