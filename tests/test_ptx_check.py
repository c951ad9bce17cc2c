"""`gpuisa ptx check` / `matrix`: verdicts and one-line errors (expectations from the PTX grammar)."""

from __future__ import annotations

import csv
import io
import json

from conftest import need, run_cli

from gpuisa.ptx.check import check_instruction
from gpuisa.ptx.frontend import check_file


def test_valid_video_instruction():
    r = check_instruction("vsub.s32.s32.u32.sat d, a.h1, b.h1;")
    assert r["valid"] and r["name"] == "vsub" and r["form"].startswith("vsub.dtype.atype.btype{.sat} d,")


def test_bad_type_names_the_set():
    r = check_instruction("vsub.u16.s32.u32 d, a, b;")
    assert not r["valid"]
    assert r["error"] == "`.u16` is not a valid .dtype for vsub; allowed: .u32, .s32"


def test_bad_selector_and_operand_count():
    r = check_instruction("vabsdiff.u32.u32.u32 d, a.b0, b.b9;")
    assert "`.b9` is not a valid .bsel" in r["error"] and ".h1" in r["error"]
    r = check_instruction("vadd.u32.u32.u32 d, a;")
    assert not r["valid"] and "missing operand" in r["error"]


def test_unknown_instruction_and_modifier():
    assert check_instruction("frobnicate.u32 r1;")["error"] == "unknown PTX instruction `frobnicate`"
    r = check_instruction("add.u32.bogus r1, r2, r3;")
    assert not r["valid"] and "`.bogus`" in r["error"]


def test_target_and_version():
    assert check_instruction("dp4a.u32.u32 r1, r2, r3, r4;", "sm_61", "5.0")["valid"]
    r = check_instruction("dp4a.u32.u32 r1, r2, r3, r4;", "sm_52", "5.0")
    assert not r["valid"] and "sm_52" in r["error"] and r["min_target"] == "sm_61"
    r = check_instruction("dp4a.u32.u32 r1, r2, r3, r4;", "sm_61", "4.3")
    assert not r["valid"] and "5.0" in r["error"]
    r = check_instruction("wgmma.fence.sync.aligned;", "sm_100a")
    assert not r["valid"] and "sm_90a" in r["error"]


def test_file_mode(tmp_path):
    ptx = tmp_path / "k.ptx"
    ptx.write_text(".version 8.0\n.target sm_90\n.entry k() {\n.reg .b32 r<4>;\n.reg .pred p<2>;\n"
                   "vadd.u32.u32.u32 r1, r2, r3;\n@p1 add.s32 r1, r2, r3; // ok\nvsub.u16.u32.u32 r1, r2, r3;\nL1: ret;\n}\n")
    res = check_file(ptx.read_text())
    assert [r["valid"] for r in res] == [True, True, False, True]
    assert (res[2]["line"], res[2]["col"]) == (8, 5)
    # a whole module (it starts with .version) resolves names: p1 undeclared is an error on its line
    res = check_file(ptx.read_text().replace(".reg .pred p<2>;", ""))
    bad = [r for r in res if not r["valid"]]
    assert [(r["line"], r["error"]) for r in bad][0] == (7, "`p1` is not declared (no variable, function, label "
                                                         "or parameter of that name)")


def test_cli_json_and_errors(cli_env, tmp_path):
    r = run_cli(["ptx", "check", "vsub.u16.s32.u32 d, a, b;", "--json"], cli_env)
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert set(out) >= {"valid", "form", "error", "min_target", "ptx_version"} and out["valid"] is False
    r = run_cli(["ptx", "check", "vadd.u32.u32.u32 d, a, b;", "--target", "sm90"], cli_env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "sm_NN" in r.stderr
    r = run_cli(["ptx", "check", "--file", str(tmp_path / "missing.ptx")], cli_env)
    assert r.returncode == 2 and "no such file" in r.stderr and "Traceback" not in r.stderr


def test_matrix_csv(cli_env):
    r = run_cli(["ptx", "matrix", "--csv"], cli_env)
    assert r.returncode == 0
    rows = list(csv.reader(io.StringIO(r.stdout)))
    head = rows[0]
    assert head[:4] == ["instruction", "form", "ptx_version", "min_target"] and "sm_90a" in head
    dp4a = next(row for row in rows if row[0] == "dp4a")
    assert dp4a[head.index("sm_61")] == "yes" and dp4a[head.index("sm_60")] == "no"


def test_measured_ptxas_behaviours_agree_with_ptxas():
    """Ignored tokens, free modifier order and pair rules learned at generation time match live ptxas."""
    from gpuisa.ptx import ptxas
    from gpuisa.ptx.check import check_instruction

    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13, or pip install nvidia-cuda-nvcc)")
    texts = ["add.rz.elemtype.sat.f32 r1, r2, r3;", "add.s32.sat r1, r2, r3;", "mul.s32.lo r1, r2, r3;",
             "cvt.f32.s32 r1, r2;", "cvt.rn.f32.s32 r1, r2;", "set.lt.s32.u32 r1, r2, r3;",
             "testp.notanumber.f32 p1, r1;", "setp.le.ftz.f32 p1, r1, r2;", "add.bogus.s32 r1, r2, r3;",
             "atom.global.sys.add.u32 r1, [rd1], r2;"]
    truth = ptxas.verdicts(tool, texts, "sm_90", "9.0")
    ours = [check_instruction(t, "sm_90", "9.0")["valid"] for t in texts]
    assert ours == [not errs for errs in truth], list(zip(texts, ours, truth))
