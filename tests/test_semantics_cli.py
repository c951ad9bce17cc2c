"""The eval and coverage commands, the Semantics page section, parser errors and bad input."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from gpuisa.semantics import parser
from gpuisa.semantics.wave import EvalError, evaluate


def test_eval_text_and_json(cli_env):
    r = run_cli(["eval", "--arch", "rdna3.5", "v_msad_u8", "S0=0x10203040", "S1=0x05000a00", "S2=7"], cli_env)
    assert r.returncode == 0, r.stderr
    assert "0x38" in r.stdout and "D0" in r.stdout
    r = run_cli(["eval", "--arch", "rdna4", "v_cndmask_b32", "S0=1", "S1=2", "VCC=0b0110", "--lanes", "4", "--json"],
                cli_env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["outputs"]["D0"] == [1, 2, 2, 1] and d["lanes"] == 4 and d["arch"] == "rdna4"


def test_eval_float_lists(cli_env):
    r = run_cli(["eval", "--arch", "gfx1150", "v_add_f32", "S0=1.5,-0.0,inf", "S1=0.25", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outputs"]["D0"] == [0x3FE00000, 0x3E800000, 0x7F800000]


@pytest.mark.parametrize("args,fragment", [
    (["eval", "--arch", "rdna4", "v_no_such_op", "S0=1"], "no pseudocode for v_no_such_op"),
    (["eval", "--arch", "rdna4", "v_add_f32", "S0=1"], "needs S1"),
    (["eval", "--arch", "rdna4", "v_add_f32", "S0=1", "S1=2", "S7=3"], "no operand S7"),
    (["eval", "--arch", "rdna4", "v_add_nc_u32", "S0=0x1ffffffff", "S1=1"], "does not fit"),
    (["eval", "--arch", "rdna4", "v_add_nc_u32", "S0=1.5", "S1=1"], "integer operand"),
    (["eval", "--arch", "rdna4", "v_add_nc_u32", "S0", "S1=1"], "NAME=VALUE"),
    (["eval", "--arch", "rdna1", "v_interp_p1_f32", "S0=1"], "no pseudocode for v_interp_p1_f32 in RDNA1"),
    (["eval", "--arch", "cdna5", "v_add_f32", "S0=1", "S1=1", "--wave", "64"], "CDNA5: it runs wave32 only"),
    (["eval", "--arch", "rdna4", "v_add_nc_u32", "S0=1,2", "S1=1", "--lanes", "3"], "2 values for 3 lanes"),
    (["eval", "--arch", "rdna3.5", "s_add_u32", "S0=1,2", "S1=1"], "scalar instruction"),
    (["coverage", "semantics", "--arch", "gfx9000"], "unknown architecture"),
])
def test_bad_input_is_one_line_exit_2(cli_env, args, fragment):
    r = run_cli(args, cli_env)
    assert r.returncode == 2
    assert fragment in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_eval_ptx_dispatch(cli_env):
    r = run_cli(["eval", "--isa", "ptx", "add.s32 %r1, %r2, %r3;", "%r2=5", "%r3=7", "--json"], cli_env)
    try:
        import gpuisa.ptx.semantics  # noqa: F401
    except ImportError:
        assert r.returncode == 2 and "not available" in r.stderr
        return
    assert r.returncode in (0, 2), r.stderr
    assert "Traceback" not in r.stderr


def test_coverage_json_lists_failures_with_reasons(cli_env):
    r = run_cli(["coverage", "semantics", "--arch", "rdna3.5", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)["rdna3.5"]
    assert d["total"] > 600 and d["executable"] / d["total"] >= 0.95
    assert all(f["name"] and f["reason"] for f in d["failed"])
    assert d["total"] - d["executable"] == len(d["failed"])
    # matrix instructions (a formula in the manual) run natively; v_movrel* runs on the VGPR
    # file, s_movrel* on the SGPR file, counter waits as waits with nothing in flight (formulations)
    assert not [f for f in d["failed"] if f["name"].startswith(("v_wmma", "v_movrel", "s_movrel", "s_waitcnt"))]
    assert any(f["name"] == "v_illegal" and "no entry" in f["reason"] for f in d["failed"])


def test_page_carries_semantics(cli_env):
    r = run_cli(["show", "v_msad_u8", "--arch", "rdna4", "--json"], cli_env)
    sem = json.loads(r.stdout)["semantics"]
    assert sem["fidelity"] == "exact" and "tinygrad==0.14.0" in sem["source"]
    assert "ABSDIFF" in sem["pseudocode"]  # loaded from the installed wheel at run time
    r = run_cli(["show", "v_add_f32", "--arch", "rdna3", "--json"], cli_env)
    sem = json.loads(r.stdout)["semantics"]
    assert sem["fidelity"] == "exact" and sem["inferred_from"] == "rdna3.5"  # RDNA3 carries RDNA3.5's
    assert sem["reason"].startswith("inferred from RDNA3.5") and "inferred from RDNA3.5" in sem["source"]
    r = run_cli(["show", "v_msad_u8", "--arch", "rdna4"], cli_env)
    assert "Semantics (exact)" in r.stdout


def test_generations_with_different_pseudocode_show_a_diff():
    from gpuisa.semantics.pages import amd_semantics

    gens = amd_semantics("rdna3.5", "v_min_f32")["generations"]
    assert gens and any(g["same"] is False and g["diff"].startswith("---") for g in gens.values())


def test_parse_errors_carry_line_and_column():
    with pytest.raises(parser.PcodeSyntaxError) as exc:
        parser.parse("tmp = S0.u32;\nD0.u32 = (tmp +\n")
    assert "line" in str(exc.value) and exc.value.line >= 2
    with pytest.raises(parser.PcodeSyntaxError) as exc:
        parser.parse("D0.u32 = 1;\nD = A (16x16) * B")
    assert exc.value.line == 2


def test_language_features_compile_and_run():
    from gpuisa.semantics.compiler import compile_text
    from gpuisa.semantics.wave import run

    prog = compile_text("SAT = lambda(n) (\nif n > 10 then\nreturn 10\nelse\nreturn n\nendif);\n"
                        "tmp = 0U;\nfor i in 0 : 3 do\nif S0.u32[i] == 1'1U then\ntmp += 1U;\nbreak\nendif\nendfor;\n"
                        "D0.u32 = SAT(S1.u32) + tmp * 100U", scalar=False, name="test", arch="rdna4")
    # lanes: S0 bits 0..3 have a one -> tmp = 1 (break after the first); S1 saturates at 10
    res = run(prog, 3, 32, True, {"S0": [0, 4, 1], "S1": [3, 50, 10]})
    assert res["outputs"]["D0"] == [3, 110, 110]


def test_api_errors_are_value_errors():
    with pytest.raises(EvalError):
        evaluate("rdna4", "v_add_f32", S0=1)
    with pytest.raises(EvalError):
        evaluate("rdna4", "v_add_f32", S0=1, S1=2, lanes=65)
