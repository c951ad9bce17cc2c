"""The command line as a user runs it (subprocess, piped stdout)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli


@pytest.fixture(scope="module")
def env(cli_env):
    r = run_cli(["build"], cli_env)  # build once into this test's GPUISA_HOME
    assert r.returncode == 0, r.stderr
    return cli_env


def test_archs_json(env):
    r = run_cli(["archs", "--json"], env)
    assert r.returncode == 0
    rows = {a["name"]: a for a in json.loads(r.stdout)}
    amd = [name for name in rows if name != "ptx"]  # the PTX virtual ISA, when present, comes last
    assert amd == ["cdna1", "cdna2", "cdna3", "cdna4", "rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna5"]
    assert list(rows)[: len(amd)] == amd
    assert rows["cdna3"]["targets"] == ["gfx940", "gfx941", "gfx942"]
    assert rows["cdna5"]["targets"] == ["gfx1250", "gfx1251"]  # swept from llvm-mc-22, no import needed
    assert rows["rdna4"]["targets"] == ["gfx1200", "gfx1201"]
    assert rows["rdna3.5"]["family"] == "RDNA"
    assert all(rows[a]["instructions"] > 1000 for a in amd)


@pytest.mark.parametrize("arch", ["RDNA3.5", "gfx1150", "GFX1151", "rdna3_5"])
def test_arch_aliases(env, arch):
    r = run_cli(["show", "v_msad_u8", "--arch", arch, "--json"], env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["arch"] == "rdna3.5"


def test_show_json_contract(env):
    page = json.loads(run_cli(["show", "v_cndmask_b32", "--arch", "gfx942", "--json"], env).stdout)
    for key in ("name", "vendor", "isa", "arch", "category", "summary", "description", "encodings", "operands",
                "targets", "generations", "sources"):
        assert key in page
    assert page["arch"] == "cdna3" and page["name"] == "v_cndmask_b32"
    enc = page["encodings"][0]
    assert set(enc) >= {"name", "width", "opcode", "identifier", "fields"}
    assert {"name", "hi", "lo"} <= set(enc["fields"][0])
    assert set(page["generations"]) == {"cdna1", "cdna2", "cdna3", "cdna4", "rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4",
                                        "cdna5"}
    assert all(s["source"] for s in page["sources"])


def test_show_plain_text_when_piped(env):
    r = run_cli(["show", "v_msad_u8"], env)
    assert r.returncode == 0
    assert "\x1b[" not in r.stdout  # no colour codes in a pipe
    assert "0x00000000D6390000" in r.stdout and "110101" in r.stdout
    assert "Sources:" in r.stdout


@pytest.mark.parametrize("args,needle", [
    (["show", "v_msad_u9", "--arch", "rdna4"], "no instruction v_msad_u9 in rdna4; did you mean v_msad_u8?"),
    (["show", "v_msad_u8", "--arch", "rdna9"], "unknown architecture 'rdna9'"),
    (["show", "v_msad_u9"], "did you mean v_msad_u8"),
    (["list", "--arch", "rdna4", "--encoding", "VOP9"], "no encoding VOP9 in rdna4 (allowed:"),
    (["diff", "rdna2", "nope"], "unknown architecture 'nope'"),
    (["show"], "the following arguments are required: name"),
])
def test_bad_input_is_one_line_exit_2(env, args, needle):
    r = run_cli(args, env)
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr


def test_show_instruction_absent_from_arch_names_where_it_exists(env):
    r = run_cli(["show", "v_dot2_f32_bf16", "--arch", "rdna2"], env)
    assert r.returncode == 2 and "RDNA4" in r.stderr


def test_search_exact_name_first(env):
    rows = json.loads(run_cli(["search", "v_msad_u8", "--json"], env).stdout)
    assert rows[0]["name"] == "v_msad_u8"
    assert set(rows[0]) == {"name", "arch", "isa", "summary"}


@pytest.mark.parametrize("text,expect", [("msad", "v_msad_u8"), ("absolute differences", "v_msad_u8"),
                                         ("FMT_NUM_I24", "v_mad_i32_i24"), ("cndmask", "v_cndmask_b32")])
def test_search_by_fragment_words_and_format(env, text, expect):
    rows = json.loads(run_cli(["search", text, "--json", "--limit", "200"], env).stdout)
    assert expect in [r["name"] for r in rows]


def test_search_by_arch(env):
    rows = json.loads(run_cli(["search", "mfma", "--arch", "cdna3", "--json", "--limit", "500"], env).stdout)
    assert rows and all(r["arch"] == "cdna3" for r in rows)


def test_list_by_encoding(env):
    rows = json.loads(run_cli(["list", "--arch", "rdna4", "--encoding", "VOP2", "--json"], env).stdout)
    names = {r["name"]: r["opcode"] for r in rows}
    assert names["v_cndmask_b32"] == 1
    assert all(r["encoding"] == "VOP2" for r in rows)


def test_diff_rdna2_rdna3(env):
    d = json.loads(run_cli(["diff", "rdna2", "rdna3", "--json"], env).stdout)
    assert set(d) >= {"added", "removed", "renumbered", "reencoded", "layout_changed"}
    assert "v_msad_u8" in {r["name"] for r in d["renumbered"]}  # 369 -> 569
    assert "v_dot2_f32_bf16" in d["added"]
    text = run_cli(["diff", "rdna2", "rdna3"], env).stdout
    assert text.startswith("RDNA2 -> RDNA3:")
