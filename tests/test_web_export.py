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
    assert index.startswith("window.GPUISA_INDEX=") and '["v_msad_u8","rdna4",' in index


def test_every_internal_link_resolves(exported):
    out, _, _ = exported
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    ids: dict[str, set[str]] = {}
    broken, checked = [], 0
    for rel in sorted(f for f in files if f.endswith(".html")):
        here = posixpath.dirname(rel)
        text = (out / rel).read_text(encoding="utf-8")
        for raw in set(LINK.findall(text)):
            url = html.unescape(raw)
            parts = urlsplit(url)
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


def test_static_search_and_links_from_file_url(exported):
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
        page.wait_for_url("**/isa/rdna4/v_msad_u8.html")
        assert page.locator('#enc-VOP3 g.field').count() == 11
        page.locator('#gentable a[data-arch="rdna2"]').click()
        page.wait_for_url("**/isa/rdna2/v_msad_u8.html")
        page.screenshot(path=str(shots / "08-static-export-rdna2.png"))
        browser.close()
