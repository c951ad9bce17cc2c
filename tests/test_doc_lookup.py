"""The opcode documentation look-up (Compiler Explorer style): `gpuisa doc`, /api/asm/..., the export.

Facts are hand-checked against llvm-mc: v_msad_u8 on gfx1200 assembles to `.. 39 d6` (VOP3 opcode
0x239 = 569); v_cndmask_b32_e32 on gfx1100 to `.. .. .. 02` (VOP2 opcode 1) and its _e64 form to
`.. .. 01 d5` (VOP3 opcode 0x101 = 257).  Operand syntax is never asserted (it follows the facts).
"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli


@pytest.fixture(scope="module")
def client(store):
    from starlette.testclient import TestClient

    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        yield c


def _lookup(store, *args):
    from gpuisa.doclookup import lookup

    return lookup(*args, store=store)


def test_llvm_variant_suffixes_pick_the_encoding(store):
    e32 = _lookup(store, "v_cndmask_b32_e32", "amdgpu", "rdna3")
    e64 = _lookup(store, "v_cndmask_b32_e64", "amdgpu", "gfx1100")
    assert (e32["instruction"], e32["encoding"], e32["opcode_number"]) == ("v_cndmask_b32", "VOP2", 1)
    assert (e64["instruction"], e64["encoding"], e64["opcode_number"]) == ("v_cndmask_b32", "VOP3", 257)
    dpp = _lookup(store, "v_cndmask_b32_dpp", "amdgpu", "rdna3")
    assert dpp["encoding"] == "VOP2" and "DPP" in dpp["tooltip"]
    assert _lookup(store, "v_cndmask_b32_e64_dpp", "amdgpu", "rdna3")["encoding"] == "VOP3"
    assert _lookup(store, "v_add_f32_sdwa", "amdgpu", "rdna2")["encoding"] == "VOP2"


def test_amd_facts_for_the_target(store):
    d = _lookup(store, "v_msad_u8", None, "rdna4")
    assert (d["isa"], d["arch"], d["encoding"], d["opcode_number"]) == ("amdgpu", "rdna4", "VOP3", 569)
    assert "opcode 569" in d["tooltip"] and d["url"] == "/isa/rdna4/v_msad_u8"
    assert d["fidelity"] in ("exact", "partial", "unsupported", "unknown")
    assert [o["name"] for o in d["operands"]][:1] == ["VDST"]


def test_ptx_dotted_opcodes_map_to_the_instruction_and_form(store):
    d = _lookup(store, "vsub.s32.s32.u32.sat")
    assert (d["isa"], d["instruction"]) == ("ptx", "vsub") and d["form"] is not None
    assert "vsub" in d["tooltip"] and d["url"] == "/isa/ptx/vsub"
    assert ".sat" in d["html"]
    d = _lookup(store, "ld.global.nc.v4.f32", "ptx")
    assert d["instruction"] == "ld.global.nc" and ".nc" in d["syntax"]
    assert _lookup(store, "ld.param.b32", "ptx")["instruction"] == "ld"


def test_unknown_opcodes_are_one_line_errors(store):
    from gpuisa.doclookup import DocNotFound

    for bad in ("v_frobnicate_f32_e64", "frobnicate.s32", "<script>", "v_msad_u8 v1"):
        with pytest.raises(DocNotFound) as exc:
            _lookup(store, bad)
        assert "\n" not in str(exc.value)
    with pytest.raises(DocNotFound):
        _lookup(store, "vsub", "ptx", "rdna3")


def test_html_is_escaped_fragment(store):
    d = _lookup(store, "v_cndmask_b32_e64")
    assert d["html"].startswith('<div class="gpuisa-doc">') and "<script" not in d["html"]


def test_web_route_answers_compiler_explorer_shape(client):
    r = client.get("/api/asm/amdgpu/v_cndmask_b32_e64")
    assert r.status_code == 200
    body = r.json()
    assert {"tooltip", "html", "url"} <= set(body) and body["url"].endswith("/v_cndmask_b32")
    assert "VOP3" in body["tooltip"]
    r = client.get("/api/asm/ptx/vsub.s32.s32.u32.sat")
    assert r.status_code == 200 and r.json()["url"] == "/isa/ptx/vsub"
    r = client.get("/api/asm/amdgpu/v_msad_u8", params={"arch": "gfx1200"})
    assert "opcode 569" in r.json()["tooltip"]


def test_web_route_errors(client):
    assert client.get("/api/asm/amdgpu/v_frobnicate").status_code == 404
    assert "error" in client.get("/api/asm/amdgpu/v_frobnicate").json()
    assert client.get("/api/asm/sass/IADD3").status_code == 404
    assert client.get("/api/asm/amdgpu/v_msad_u8", params={"arch": "gfx9999"}).status_code == 404


def test_cli_doc(cli_env):
    r = run_cli(["doc", "v_cndmask_b32_e64", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    body = json.loads(r.stdout)
    assert {"tooltip", "html", "url"} <= set(body)
    r = run_cli(["doc", "vsub.s32.s32.u32.sat"], cli_env)
    assert r.returncode == 0 and r.stdout.startswith("vsub ")
    r = run_cli(["doc", "v_frobnicate"], cli_env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("gpuisa: ")
    r = run_cli(["doc", "v_msad_u8", "--arch", "gfx9999"], cli_env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_export_writes_one_json_per_opcode(store, tmp_path):
    from gpuisa.doclookup.export import export_docs

    n = export_docs(tmp_path, store)
    index = json.loads((tmp_path / "api/asm/index.json").read_text())
    assert n == len(index["amdgpu"]) + len(index["ptx"]) and "vsub" in index["ptx"]
    doc = json.loads((tmp_path / "api/asm/amdgpu/v_cndmask_b32_e64.json").read_text())
    assert {"tooltip", "html", "url"} <= set(doc)
    page = (tmp_path / "api/asm/amdgpu" / doc["url"]).resolve()
    assert page == (tmp_path / "isa" / doc["arch"] / "v_cndmask_b32.html").resolve()
    assert f'href="{doc["url"]}"' in doc["html"]
    assert (tmp_path / "api/asm/ptx/vsub.json").is_file()
    assert (tmp_path / "api/asm/amdgpu/v_msad_u8.json").is_file()


def test_page_paths_are_the_sites():
    from gpuisa.doclookup import page_path
    from gpuisa.web.site import Linker, instruction_path

    assert page_path("rdna4", "v_msad_u8") == instruction_path("rdna4", "v_msad_u8")
    assert Linker.file_of(page_path("ptx", "ld.global.nc")) == "isa/ptx/ld.global.nc.html"
