"""The web issue's "what users touch first" items over HTTP: relation cards both ways, search (typos, LLVM
suffixes, gfx targets, grouping, paging, /isa/NAME), the playground reading input as the CLI does, compact
PTX forms, anchors, vendor links, gzip, and the static search (static/search.js run by node) answering as
the server does.

Expected facts come from the vendors' documents and llvm-mc-22: v_msad_u8 is VOP3 opcode 569 on RDNA3/4
(gfx1100 bytes 05 00 39 d6 01 05 0e 00 = dwords 0xd6390005 0x000e0501); PTX's scalar video form without a
secondary operation is ``vsub.dtype.atype.btype d, a, b;`` and its 4-operand forms add ``c``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from conftest import ROOT, need


@pytest.fixture(scope="module")
def client(store):
    from starlette.testclient import TestClient

    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        yield c


# -- relation cards ------------------------------------------------------------------------------------------

def test_relation_cards_link_both_ways_with_proof_figures(client):
    amd = client.get("/isa/rdna4/v_sub_nc_u32").text
    cards = re.search(r'<section id="relations">.*?</section>', amd, re.S).group(0)
    assert 'href="/isa/ptx/vsub#form-1"' in cards  # AMD page -> the PTX page, at the form's row
    assert "vsub.u32.u32.u32 d, a, b;" in cards and "d, a, b, 0;" not in cards
    assert re.search(r"Proof:</strong> [\d,]+ of [\d,]+ random inputs agree", cards)
    ptx = client.get("/isa/ptx/vsub").text
    assert re.search(r'<tr id="form-1"><td>1</td><td><code class="copyable">vsub\.dtype\.atype\.btype\{\.sat\} d, a', ptx)
    back = re.search(r'<section id="relations">.*?</section>', ptx, re.S).group(0)
    assert 'href="/isa/rdna4/v_sub_nc_u32#relations"' in back  # ... and back, to the newest generation
    assert "v_sub_nc_u32 d, a, b" in back


def test_restricted_relation_card_shows_its_restriction(client, store):
    from gpuisa.crossmap.relations import relations

    rel = next(r for r in relations() if r["kind"] == "equivalent with restrictions" and r["restriction"])
    arch = next(a for a in ("rdna4", "cdna4", "rdna3", "cdna3") if a in rel["amd"]["archs"])
    html = client.get(f"/isa/{arch}/{rel['amd']['name']}").text
    assert "Restriction:" in html and "counterexample" in html


def test_every_offered_vsub_form_passes_the_checker(client):
    from gpuisa.ptx.check import check_instruction

    html = client.get("/isa/ptx/vsub").text
    offered = re.findall(r'<code class="copyable">(vsub\.[^<]*;)</code>', html)
    assert offered
    for text in offered:
        if " d, a, b" in text:
            assert check_instruction(text)["valid"], text


# -- PTX forms, operands, anchors, vendor links ---------------------------------------------------------------

def test_ptx_forms_table_is_compact_and_lists_every_operand(client):
    html = client.get("/isa/ptx/vsub").text
    forms = re.search(r'<section id="forms">.*?</section>', html, re.S).group(0)
    assert "sm_20+" in forms and forms.count("sm_86") == 0  # a range, not 26 targets per form
    assert "2.0+" in forms
    ops = re.search(r'<section id="operands">.*?</section>', html, re.S).group(0)
    assert {"d", "a", "b", "c"} <= set(re.findall(r"<td><code>(\w+)</code></td>", ops))


def test_sections_have_anchors_and_vendor_links(client):
    html = client.get("/isa/rdna4/v_msad_u8").text
    for sid in re.findall(r'<section[^>]*\bid="([^"]+)"', html):
        sec = re.search(r'<section[^>]*\bid="%s".*?</h2>' % re.escape(sid), html, re.S).group(0)
        assert f'<a class="anchor" href="#{sid}"' in sec, sid
    docs = re.search(r'<section id="docs">.*?</section>', html, re.S).group(0)
    assert "https://gpuopen.com/" in docs and "https://llvm.org/docs/AMDGPU/AMDGPUAsmGFX12.html" in docs
    assert "https://docs.nvidia.com/cuda/parallel-thread-execution/" in client.get("/isa/ptx/vsub").text
    assert 'class="copyable"' in html


def test_generation_opcodes_per_encoding_with_changed_fields(client):
    html = client.get("/isa/rdna4/v_msad_u8").text
    gen = re.search(r'<table class="grid compact" id="gentable">.*?</table>', html, re.S).group(0)
    assert "VOP3 opcode" in gen
    # RDNA2: VOP3 opcode 0x171 = 369 (llvm-mc gfx1030: .. 71 d5), differs from RDNA4's 569
    row = re.search(r'data-arch="rdna2".*?</tr>', gen, re.S).group(0)
    assert '<span class="changed">369</span>' in row
    # CDNA3 VOP3 (gfx942: .. e4 d1): opcode 484; GFX9's VOP3 ENCODING is 110100, RDNA's 110101
    row = re.search(r'data-arch="cdna3".*?</tr>', gen, re.S).group(0)
    assert '<span class="changed">484</span> <span class="tag changed">ENCODING</span>' in row


def test_combobox_roles_and_compact_header(client):
    html = client.get("/").text
    assert 'role="combobox"' in html and 'aria-controls="suggest"' in html and 'aria-expanded="false"' in html
    assert 'id="suggest" class="suggest" role="listbox"' in html


def test_home_offers_diffs_within_a_family_only(client):
    html = client.get("/").text
    steps = re.findall(r'href="/diff/([a-z0-9.]+)/([a-z0-9.]+)"', html)
    assert ("cdna4", "rdna1") not in steps and ("rdna1", "rdna2") in steps and ("cdna3", "cdna4") in steps
    assert all(a[:4] == b[:4] for a, b in steps)


# -- search ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("q", ["v_msadu8", "msda", "v_msad_u8", "msad"])
def test_search_tolerates_typos(client, q):
    r = client.get("/search", params={"q": q})
    first = re.search(r'<table class="grid results">.*?<code>([^<]+)</code>', r.text, re.S).group(1)
    assert first == "v_msad_u8"


@pytest.mark.parametrize("q", ["v_cndmask_b32_e64", "v_cndmask_b32_e32", "v_cndmask_b32_dpp", "v_cndmask_b32_sdwa"])
def test_search_understands_llvm_variant_suffixes(client, q):
    rows = client.get("/api/search", params={"q": q}).json()
    assert rows and rows[0]["name"] == "v_cndmask_b32"


def test_search_understands_gfx_targets(client):
    rows = client.get("/api/search", params={"q": "v_msad_u8 gfx1100"}).json()
    assert [r["arch"] for r in rows] == ["rdna3"]
    html = client.get("/search", params={"q": "v_msad_u8 gfx942"}).text
    assert 'href="/isa/cdna3/v_msad_u8"' in html and 'href="/isa/rdna4/v_msad_u8"' not in html


def test_search_groups_by_instruction_and_pages(client):
    html = client.get("/search", params={"q": "fma"}).text
    names = re.findall(r'<tr><td><a href="/isa/[^"]+"><code>([^<]+)</code>', html)
    assert len(names) == len(set(names)) == 50  # one row per instruction, 50 a page
    row = re.search(r"<code>v_fma_f32</code>.*?</tr>", html, re.S).group(0)
    assert 'href="/isa/rdna4/v_fma_f32"' in row and 'href="/isa/cdna3/v_fma_f32"' in row  # generations listed
    total = int(re.search(r"(\d+) instructions for", html).group(1))
    assert total > 100 and 'aria-label="Result pages"' in html
    page2 = client.get("/search", params={"q": "fma", "page": 2}).text
    names2 = re.findall(r'<tr><td><a href="/isa/[^"]+"><code>([^<]+)</code>', page2)
    assert names2 and not set(names) & set(names2)


def test_search_finds_formats_and_ptx_spellings(client):
    assert "v_mad_i32_i24" in client.get("/search", params={"q": "FMT_NUM_I24"}).text
    assert 'href="/isa/ptx/vsub"' in client.get("/search", params={"q": "vsub.s32.s32.u32.sat"}).text
    only = client.get("/search", params={"q": "msad", "arch": "rdna2"}).text
    assert 'href="/isa/rdna2/v_msad_u8"' in only and 'href="/isa/rdna4/v_msad_u8"' not in only


def test_isa_name_redirects_to_the_newest_generation(client, store):
    from gpuisa import archs

    r = client.get("/isa/v_msad_u8", follow_redirects=False)
    newest = archs.newest_first([a["name"] for a in store.archs() if "v_msad_u8" in store.all_names(a["name"])])[0]
    assert r.status_code == 301 and r.headers["location"] == f"/isa/{newest}/v_msad_u8"
    assert client.get("/isa/vsub", follow_redirects=False).headers["location"] == "/isa/ptx/vsub"
    miss = client.get("/isa/rdna4/v_msda_u8")
    assert miss.status_code == 404 and 'id="didyoumean"' in miss.text
    assert '<a href="/isa/rdna4/v_msad_u8"><code>v_msad_u8</code></a>' in miss.text  # in the generation asked for


# -- playground ---------------------------------------------------------------------------------------------

def test_playground_reads_input_as_the_cli_does(client):
    from gpuisa.web import playground

    need(playground.resolve("decode") is not None, "gpuisa.codec is not installed")
    r = client.post("/api/decode", json={"arch": "rdna4", "hex": "0xd6390005 0x000e0501"})
    assert r.status_code == 200
    assert [i["text"] for i in r.json()["instructions"]] == ["v_msad_u8 v5, v1, v2, s3"]
    r = client.post("/api/decode", json={"arch": "rdna4", "hex": "zz"})
    assert r.status_code == 422 and r.json()["error"] == "token 1 'zz' is not hex bytes (an even number of hex digits)"
    page = client.get("/playground", params={"mode": "decode", "arch": "rdna4", "hex": "zz"})
    err = re.search(r'<form class="pg" id="pg-decode".*?</form>', page.text, re.S).group(0)
    assert 'id="pg-error" role="alert"' in err  # inline, in the form, not in a collapsed panel
    assert "<details" not in re.search(r'<section id="pg-out".*?</section>', page.text, re.S).group(0)


def test_playground_defaults_to_rdna4_with_ptx_tab_and_wave64(client):
    html = client.get("/playground").text
    assert re.search(r'<option value="rdna4" selected>', html)
    assert 'data-mode="ptx"' in html and 'id="pg-ptx"' in html and 'name="wave64"' in html


def test_playground_ptx_check_and_evaluate(client):
    r = client.post("/api/ptx/check", json={"text": "vsub.u32.u32.u32 d, a, b;"})
    assert r.status_code == 200 and r.json()["valid"] and r.json()["min_target"] == "sm_20"
    r = client.post("/api/ptx/eval", json={"text": "add.u32 d, a, b;", "operands": {"a": 7, "b": "0x10"}})
    assert r.status_code == 200 and r.json()["result"]["outputs"]["d"] == 23
    r = client.post("/api/ptx/check", json={"text": ""})
    assert r.status_code == 422 and "\n" not in r.json()["error"]


def test_playground_wave64_decode(client):
    from gpuisa.web import playground

    need(playground.resolve("decode") is not None, "gpuisa.codec is not installed")
    # v_cndmask_b32_e32 v0, v1, v2 reads vcc: wave64 writes vcc, wave32 vcc_lo (llvm-mc -mattr=+wavefrontsize64)
    w32 = client.post("/api/decode", json={"arch": "rdna3", "hex": "01 05 00 02"}).json()
    w64 = client.post("/api/decode", json={"arch": "rdna3", "hex": "01 05 00 02", "wave64": True}).json()
    assert "vcc_lo" in w32["instructions"][0]["text"] and "vcc_lo" not in w64["instructions"][0]["text"]


# -- transport -------------------------------------------------------------------------------------------------

def test_responses_are_compressed(client):
    for path in ("/isa/rdna4/v_msad_u8", "/search?q=fma", "/static/style.css", "/api/search?q=fma&limit=100"):
        r = client.get(path, headers={"accept-encoding": "gzip"})
        assert r.headers.get("content-encoding") == "gzip", path
    raw = client.get("/isa/rdna4/v_msad_u8", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in raw.headers and raw.text.startswith("<!doctype html>")


# -- the static search answers as the server does ----------------------------------------------------------------

PARITY_QUERIES = [("msad", None), ("msda", None), ("v_msadu8", None), ("v_cndmask_b32_e64", None), ("fma", None),
                  ("fma", "cdna3"), ("FMT_NUM_I24", None), ("vsub.s32.s32.u32.sat", None), ("v_add gfx1100", None),
                  ("add f32", "rdna2"), ("s_waitcnt", None), ("ld.global", None), ("mfma", None), ("vcmp", None),
                  ("zzqx", None), ("v_sub_nc_u32_e64 gfx1200", None), ("DS", None), ("bf16", "cdna5")]


def test_static_search_matches_the_server(store, tmp_path):
    node = shutil.which("node")
    need(node is not None, "node is not installed (apt-get install -y nodejs)")
    from gpuisa.web.search import gfx_map
    from gpuisa.web.site import Site

    site = Site(store.path)
    (tmp_path / "index.json").write_text(json.dumps(site.search.static_index()))
    script = f"""
      const fs = require('fs');
      global.window = {{GPUISA_GFX: {json.dumps(gfx_map(site.arch_names))}}};
      global.document = {{body: {{dataset: {{archs: {json.dumps(site.arch_titles_json)}}}}}}};
      eval(fs.readFileSync({json.dumps(str(ROOT / 'src/gpuisa/web/static/search.js'))}, 'utf8'));
      const index = JSON.parse(fs.readFileSync({json.dumps(str(tmp_path / 'index.json'))}, 'utf8'));
      const qs = {json.dumps(PARITY_QUERIES)};
      console.log(JSON.stringify(qs.map(([q, a]) => window.gpuisaSearch(index, q, a).groups.map(g => [g.name, g.archs]))));
    """
    out = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    for (q, a), js in zip(PARITY_QUERIES, got):
        py = [[g["name"], g["archs"]] for g in site.search.search(q, a)[0]]
        assert js == py, (q, a, js[:5], py[:5])
    assert got[0][0][0] == "v_msad_u8" and got[6]  # msad, FMT_NUM_I24 found

