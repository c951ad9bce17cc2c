"""The page model's JSON schema: the committed file is what the generator writes now, and real
``gpuisa show --json`` outputs (AMD generations, CDNA5, PTX) conform to it under an independent
validator (jsonschema, draft 2020-12), which also rejects pages that break it."""

from __future__ import annotations

import copy
import json
import random

import pytest
from conftest import run_cli

jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed (pip install -e .[test])")

from gpuisa.page import schema as page_schema  # noqa: E402

SHOWN = [("v_msad_u8", "rdna3"), ("v_msad_u8", "cdna5"), ("v_msad_u8", "cdna3"), ("v_mad_legacy_f32", "cdna1"),
         ("v_add_co_ci_u32", "rdna1"), ("s_endpgm", "rdna4"), ("buffer_load_d16_b16", "rdna3"),
         ("add", "ptx"), ("cvt", "ptx"), ("ld", "ptx"), ("fma", "ptx")]


@pytest.fixture(scope="module")
def validator():
    schema = page_schema.page_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_committed_schema_is_current():
    assert page_schema.SCHEMA_FILE.read_text() == page_schema.schema_text(), \
        f"schema/instruction-page.schema.json is out of date: run {page_schema.COMMAND}"
    assert json.loads(page_schema.SCHEMA_FILE.read_text())["$comment"].find(page_schema.COMMAND) > 0


@pytest.mark.parametrize("name,arch", SHOWN)
def test_show_json_conforms(validator, cli_env, name, arch):
    r = run_cli(["show", name, "--arch", arch, "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    page = json.loads(r.stdout)
    assert (page["name"], page["arch"]) == (name, arch)
    errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(page)]
    assert not errors, errors[:5]


def test_sampled_pages_conform_and_round_trip(validator, store):
    from gpuisa.page.codec import from_json
    from gpuisa.page.model import InstructionPage
    from gpuisa.pages import build_page

    rng = random.Random(19)
    seen = set()
    for arch in ("rdna2", "rdna3.5", "rdna4", "cdna2", "cdna4", "cdna5", "ptx"):
        for name in rng.sample(sorted(store.all_names(arch)), 25):
            page = build_page(store, name, arch)
            errors = [e.message for e in validator.iter_errors(page)]
            assert not errors, (name, arch, errors[:3])
            assert from_json(InstructionPage, page).to_json() == page
            seen |= {k for k in ("semantics", "examples", "related", "timing", "forms") if k in page}
    assert seen == {"semantics", "examples", "related", "timing", "forms"}  # every section was checked


def test_schema_rejects_pages_that_break_it(validator, store):
    from gpuisa.pages import build_page

    page = build_page(store, "v_msad_u8", "rdna3")
    assert validator.is_valid(page)
    for broken in ({"extra_key": 1}, {"encodings": [{"name": "VOP3"}]}, {"isa_kind": "hybrid"},
                   {"generations": {"rdna3": {"encoding": "VOP3", "opcode": "569", "layout_same": True}}}):
        assert not validator.is_valid({**copy.deepcopy(page), **broken}), broken
    missing = copy.deepcopy(page)
    del missing["sources"]
    assert not validator.is_valid(missing)


def test_model_refuses_keys_it_does_not_know():
    from gpuisa.page.codec import ModelError, from_json
    from gpuisa.page.model import Timing

    with pytest.raises(ModelError, match="not in the page model"):
        from_json(Timing, {"source": "x", "surprise": 1})


def test_schema_is_published_by_the_web_api(store):
    from starlette.testclient import TestClient

    from gpuisa.web.app import create_app

    with TestClient(create_app(store.path)) as c:
        published = c.get("/api/schema/page.json").json()
        components = c.get("/api/openapi.json").json()["components"]["schemas"]
        shown = c.get("/api/show", params={"name": "v_msad_u8", "arch": "cdna5"}).json()
        assert c.post("/api/schema/page.json").status_code == 405
    assert published == json.loads(page_schema.SCHEMA_FILE.read_text())
    assert set(components) == {"InstructionPage", *published["$defs"]}
    assert components["InstructionPage"]["required"] == published["required"]
    shown.pop("url")
    assert not list(jsonschema.Draft202012Validator(published).iter_errors(shown))


def test_pages_of_an_imported_xml_conform(validator, cli_env, shared_dir, tmp_path):
    """Pages from AMD's XML (user import): vendor description, its source, flags, and a disagreement with the
    committed facts (an opcode changed in the file) are part of the model too."""
    env = {**cli_env, "GPUISA_HOME": str(tmp_path / "home")}
    xml = (shared_dir / "fixtures" / "amd-mrisa" / "amdgpu_isa_rdna3_5.excerpt.xml").read_text()
    tampered = tmp_path / "rdna3_5.xml"
    tampered.write_text(xml.replace('<Opcode Radix="10">569</Opcode>', '<Opcode Radix="10">570</Opcode>', 1))
    assert run_cli(["import-amd", str(tampered)], env).returncode == 0
    seen = set()
    for name in ("v_msad_u8", "s_mov_b32", "v_cndmask_b32", "v_mad_i32_i24"):
        r = run_cli(["show", name, "--arch", "rdna3.5", "--json"], env)
        assert r.returncode == 0, r.stderr
        page = json.loads(r.stdout)
        assert not [e.message for e in validator.iter_errors(page)], name
        seen |= {k for k in ("description", "description_source", "disagreements") if page.get(k)}
    assert seen == {"description", "description_source", "disagreements"}
