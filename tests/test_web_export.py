"""The static export: the whole reference is written, every internal link and anchor resolves, it works from file://."""

from __future__ import annotations

import html
import re
import shutil

import pytest
from conftest import ROOT, need

WORD = re.compile(r"[\w.]+")
MAIN = re.compile(r'<main id="main">(.*)</main>', re.S)


# The full export (~90 s on two cores) is shared by the browser test and the tests of its size, its every page,
# link and server URL: they are marked ``oracle`` with the browser test, so ``-m "not oracle"`` leaves them to
# CI (which runs them all).  The other checks read a subset export: every page of SAMPLE (each generation's) and
# the top pages, RDNA4's and PTX's lists, its links checked against the files the full export would have.
FULL = pytest.mark.oracle
SAMPLE = ("v_msad_u8", "v_add_f32", "s_mov_b32", "v_cndmask_b32", "global_load_b32")


@pytest.fixture(scope="module")
def exported(store, tmp_path_factory):
    from gpuisa.web.export import export_site
    from gpuisa.web.site import Site

    out = tmp_path_factory.mktemp("site")
    result = export_site(out, store.path)
    return out, result, Site(store.path).all_paths()


@pytest.fixture(scope="module")
def exported_sample(store, tmp_path_factory):
    """(folder, every file the full export would write): the top pages and SAMPLE's pages only."""
    from gpuisa.web.export import export_site, merge_plan, plan_units
    from gpuisa.web.site import Linker, Site

    site = Site(store.path)
    every = site.all_paths()
    paths = ["", "search", "playground", "diff", "isa/rdna4", "isa/rdna4/encoding/VOP3", "isa/ptx"]
    paths += [p for p in every if p.rsplit("/", 1)[-1] in SAMPLE]
    out = tmp_path_factory.mktemp("site-sample")
    export_site(out, store.path, paths=paths)
    merged, _ = merge_plan(site)
    full = {Linker.file_of(u) if isinstance(u, str) else f"isa/{u[0]}/{u[1]}.html"
            for u in plan_units(site, every, merged)}
    return out, full


def _native(store) -> list[str]:
    return [a["name"] for a in store.archs() if a["kind"] == "native"]


@FULL
def test_one_page_per_instruction_with_an_anchor_per_generation(exported, store):
    """Each AMD instruction is one page (isa/amdgpu/NAME.html) with an anchor for every generation that has it:
    the server's /isa/ARCH/NAME is NAME.html#ARCH in the export; PTX keeps its pages."""
    out, result, _ = exported
    for arch in _native(store):
        assert not list((out / "isa" / arch).glob("*.html")), arch  # no per-generation copies
        for name in store.all_names(arch):
            page = out / "isa" / "amdgpu" / f"{name}.html"
            assert page.is_file(), (arch, name)
    for name in store.all_names("ptx"):
        assert (out / "isa" / "ptx" / f"{name}.html").is_file(), name
    page = (out / "isa" / "amdgpu" / "v_msad_u8.html").read_text()
    for arch in _native(store):
        if "v_msad_u8" in store.all_names(arch):
            assert f'id="{arch}" href="#{arch}"' in page, arch
    assert (out / "index.html").is_file() and (out / "static" / "style.css").is_file()
    index = (out / "static" / "search-index.js").read_text()
    assert index.startswith("window.GPUISA_INDEX=") and re.search(r'\["v_msad_u8","amdgpu",\[[^\]]*"rdna4"', index)
    assert '"rdna4":"amdgpu"' in (out / "static" / "site.js").read_text()  # the static search links to anchors


def _words(page: str) -> set[str]:
    text = html.unescape(re.sub(r"<[^>]+>", " ", MAIN.search(page).group(1)))
    return {w.lower().rstrip(".") for w in WORD.findall(text)}


def test_merged_page_keeps_every_fact_of_each_generation(exported_sample, store):
    """Every word of each generation's own page (as the server draws it, main part) is on the merged page, and
    each generation's opcode of each encoding (from the store) is in the group of that generation."""
    from gpuisa.web.site import Site

    out, _ = exported_sample
    site = Site(store.path)
    for name in SAMPLE:
        merged = (out / "isa" / "amdgpu" / f"{name}.html").read_text(encoding="utf-8")
        have = _words(merged)
        for arch in _native(store):
            if name not in store.all_names(arch):
                continue
            # the generations table's "this page" tag is the one thing a merged page leaves out
            missing = _words(site.render(f"isa/{arch}/{name}", static=True)) - have - {"this", "page"}
            assert not missing, (name, arch, sorted(missing)[:10])
            for r in store.list_arch(arch):
                if r["name"] != name:
                    continue
                section = re.search(r'<section[^>]*\bid="enc-%s"[^>]*>(.*?)</section>' % re.escape(r["encoding"]), merged, re.S)
                assert section, (name, arch, r["encoding"])
                rows = re.findall(r"<tr><th>Opcode</th><td>(\d+) .*?</td><td>([^<]*)</td></tr>", section.group(1))
                if not rows:  # one facts table for every generation
                    assert re.search(r"<th>Opcode</th><td>%d " % r["opcode"], section.group(1)), (name, arch, r)
                    continue
                mine = [int(op) for op, label in rows if not label or arch in _expand(label)]
                assert mine == [r["opcode"]], (name, arch, r["encoding"], r["opcode"], rows)


def _expand(label: str) -> set[str]:
    """The generations a label names: "CDNA1–CDNA3, RDNA4" (a range runs through one family in generation order)."""
    from gpuisa import archs

    native = archs.generation_order([n for n in archs.arch_names() if archs.by_name(n).kind == "native"])
    title = {archs.by_name(n).title: n for n in native}
    out: set[str] = set()
    for part in label.split(", "):
        lo, _, hi = part.partition("–")
        a, b = title[lo], title[hi or lo]
        fam = archs.by_name(a).family
        run = [n for n in native if archs.by_name(n).family == fam]
        out |= set(run[run.index(a):run.index(b) + 1])
    return out


@FULL
def test_export_size_and_file_count(exported):
    """Issue 17: the export fits in 80 MB (bytes of every file) with shared assets and no per-generation copies."""
    out, _, _ = exported
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    assert size < 80_000_000, size
    assert len(files) < 10_000, len(files)


def test_shared_assets_not_copied_into_every_page(exported_sample, store):
    """Diagrams, architecture titles and the search index live once under static/, not in each page."""
    out, _ = exported_sample
    page = (out / "isa" / "amdgpu" / "v_msad_u8.html").read_text()
    assert "<svg" not in page and "data-archs=\"{" not in page and 'data-layout="cdna5/VOP3"' in page
    assert page.count("<header") == 1 and page.count('id="generations"') == 1
    layouts = (out / "static" / "layouts-cdna5.js").read_text()
    assert '"VOP3":' in layouts and "@B@" in layouts
    for a in store.archs():
        if store.encoding_names(a["name"]):
            assert (out / "static" / f"layouts-{a['name']}.js").is_file()
    for name in ("site.js", "search.js", "search-index.js", "app.js", "style.css"):
        assert (out / "static" / name).is_file()
    assert "\n  " not in page.split("<pre")[0]  # indentation between tags dropped


def test_sample_pages_links_resolve(exported_sample, store):
    """Every link of the sample export resolves (file, anchor, diagram), except to pages the full export writes
    and the sample leaves out; each of SAMPLE's generations is an anchor of its one page."""
    from gpuisa.web.linkcheck import check_links

    out, full = exported_sample
    checked, broken = check_links(out)
    left_out = [b for b in broken if b[2] == "missing" and _target(b[0], b[1]) in full
                and not (out / _target(b[0], b[1])).exists()]
    assert checked > 1000 and left_out
    assert [b for b in broken if b not in left_out] == []
    for name in SAMPLE:
        page = (out / "isa" / "amdgpu" / f"{name}.html").read_text()
        for arch in _native(store):
            if name in store.all_names(arch):
                assert f'id="{arch}" href="#{arch}"' in page, (name, arch)
    assert (out / "index.html").is_file() and (out / "static" / "style.css").is_file()
    index = (out / "static" / "search-index.js").read_text()
    assert index.startswith("window.GPUISA_INDEX=") and re.search(r'\["v_msad_u8","amdgpu",\[[^\]]*"rdna4"', index)


def _target(page: str, url: str) -> str:
    import posixpath
    from urllib.parse import unquote, urlsplit

    return posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(urlsplit(html.unescape(url)).path)))


@FULL
def test_every_internal_link_resolves(exported):
    from gpuisa.web.linkcheck import check_links

    out, _, _ = exported
    checked, broken = check_links(out)
    assert checked > 200_000
    assert not broken, broken[:10]


@FULL
def test_every_server_instruction_url_has_its_place(exported, store):
    """/isa/ARCH/NAME of the server, for every instruction, is a file and an anchor of the export."""
    from gpuisa.web.export_merge import relink
    from gpuisa.web.linkcheck import ID

    out, _, _ = exported
    merged = {a: "amdgpu" for a in _native(store)}
    ids: dict[str, set[str]] = {}
    for a in store.archs():
        for name in store.all_names(a["name"]):
            link = relink(f'<a href="isa/{a["name"]}/{name}.html">', "index.html", "index.html", merged)
            target, _, frag = link.split('"')[1].partition("#")
            assert (out / target).is_file(), (a["name"], name, target)
            if frag:
                if target not in ids:
                    ids[target] = set(ID.findall((out / target).read_text(encoding="utf-8")))
                assert frag in ids[target], (a["name"], name, link)


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
        page.wait_for_url("**/isa/amdgpu/v_msad_u8.html#*")  # one page, at the newest generation that has it
        page.locator('#gentable a[data-arch="rdna4"]').click()
        page.wait_for_url("**/isa/amdgpu/v_msad_u8.html#rdna4")
        rdna4 = page.locator("#enc-VOP3 .gg", has_text="RDNA4")
        op = rdna4.locator('g.field[data-field="OP"] text.bits')
        op.wait_for(timeout=15_000)  # drawn from the shared layouts-cdna5.js (the group's first)
        assert rdna4.locator("g.field").count() == 11 and op.text_content() == format(569, "010b")
        rdna2 = page.locator("#enc-VOP3 .gg", has_text="RDNA2")
        assert rdna2.locator('g.field[data-field="OP"] text.bits').text_content() == format(369, "010b")
        page.locator('#gentable a[data-arch="rdna2"]').click()
        page.wait_for_url("**/isa/amdgpu/v_msad_u8.html#rdna2")
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
        page.goto((out / "isa" / "amdgpu" / "v_msad_u8.html").as_uri() + "#rdna4")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        browser.close()
