"""gpuisa port / map / coverage map, and the Related section of AMD and PTX pages."""

from __future__ import annotations

import csv
import io
import json

from conftest import run_cli

from gpuisa.crossmap.relations import relations


def test_port_ptx_to_amd(cli_env):
    r = run_cli(["port", "mad24.lo.s32", "--arch", "rdna4"], cli_env)
    assert r.returncode == 0, r.stderr
    assert "v_mad_i32_i24" in r.stdout and "equivalent with restrictions" in r.stdout
    assert "signed 24 bits" in r.stdout and "checked on" in r.stdout
    r = run_cli(["port", "mad24.lo.s32 d, a, b, c;", "--arch", "gfx950", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["arch"] == "cdna4" and d["relations"][0]["amd"] == "v_mad_i32_i24"
    assert d["relations"][0]["checked"]["vectors"] >= 10_000


def test_port_sequence_and_reverse(cli_env):
    r = run_cli(["port", "div.u32"], cli_env)
    assert r.returncode == 0 and "no single AMD instruction" in r.stdout and "v_rcp_iflag_f32" in r.stdout
    r = run_cli(["port", "v_msad_u8", "--to", "ptx", "--arch", "rdna3.5"], cli_env)
    assert r.returncode == 0, r.stderr
    assert "sequence" in r.stdout and "vabsdiff4" in r.stdout
    r = run_cli(["port", "v_cndmask_b32", "--to", "ptx"], cli_env)
    assert "selp.b32" in r.stdout and "VCC" in r.stdout


def test_port_errors_are_one_line(cli_env):
    for args in (["port", "frobnicate.u32"], ["port", "mad24.lo.s32", "--arch", "rdna9"],
                 ["port", "v_nonexistent", "--to", "ptx"]):
        r = run_cli(args, cli_env)
        assert r.returncode == 2, args
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_map_csv_and_json(cli_env):
    r = run_cli(["map", "--csv"], cli_env)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == len(relations())
    seed = [x for x in rows if x["amd"] == "v_mad_i32_i24" and x["ptx_form"] == "mad24.lo.s32 d, a, b, c;"]
    assert seed and seed[0]["relation"] == "equivalent with restrictions" and int(seed[0]["vectors"]) >= 10_000
    r = run_cli(["map", "--json"], cli_env)
    d = json.loads(r.stdout)
    assert len(d["relations"]) == len(relations()) and d["ptx_without_single_counterpart"]
    kinds = {x["relation"] for x in d["relations"]}
    assert kinds == {"equivalent", "equivalent with restrictions", "approximate", "sequence"}


def test_coverage_map(cli_env):
    r = run_cli(["coverage", "map", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert set(d) >= {"amd_mapped", "ptx_mapped", "by_family", "unmapped"}
    assert d["amd_mapped"] >= 150
    assert set(d["unmapped"]) == {"amd", "ptx"}
    assert "mad24" not in d["unmapped"]["ptx"] and "v_mad_i32_i24" not in d["unmapped"]["amd"]
    assert "div" in d["unmapped"]["ptx"]  # integer division has no single AMD instruction
    for fam in ("integer", "logic", "compare", "float", "conversion", "video"):
        assert d["by_family"][fam]["ptx_mapped"] >= 1, fam
    r = run_cli(["coverage", "map"], cli_env)
    assert r.returncode == 0 and "PTX value instructions mapped" in r.stdout


def test_pages_related(cli_env):
    r = run_cli(["show", "v_mad_i32_i24", "--arch", "rdna3.5", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    rel = json.loads(r.stdout)["related"]
    hit = [e for e in rel if e["form"] == "mad24.lo.s32 d, a, b, c;"][0]
    assert hit["vendor"] == "NVIDIA" and hit["isa"] == "ptx" and hit["name"] == "mad24"
    assert hit["relation"] == "equivalent with restrictions" and "signed 24 bits" in hit["restriction"]
    assert set(hit["checked"]) >= {"vectors", "agreed", "counterexample"}
    r = run_cli(["show", "mad24", "--isa", "ptx", "--json"], cli_env)
    rel = json.loads(r.stdout)["related"]
    amd = [e for e in rel if e["name"] == "v_mad_i32_i24"][0]
    assert amd["vendor"] == "AMD" and "rdna3.5" in amd["archs"] and "cdna1" in amd["archs"]
    r = run_cli(["show", "v_mad_i32_i24", "--arch", "rdna3.5"], cli_env)
    assert "Related PTX concepts" in r.stdout and "mad24.lo.s32" in r.stdout and "checked on" in r.stdout
    r = run_cli(["show", "selp", "--isa", "ptx"], cli_env)
    assert "Related AMD instructions" in r.stdout and "v_cndmask_b32" in r.stdout
