"""`gpuisa coverage semantics --isa ptx`: counts agree with what actually evaluates."""

from __future__ import annotations

import json

from conftest import run_cli


def test_ptx_coverage_lists_executable_and_missing(cli_env):
    r = run_cli(["coverage", "semantics", "--isa", "ptx", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    cov = json.loads(r.stdout)["ptx"]
    failed = {f["name"] for f in cov["failed"]}
    assert cov["executable"] + len(failed) == cov["total"]
    assert "vadd" not in failed and "vabsdiff" not in failed
    # a listed-as-executable instruction really runs: hand-computed, 0xFFFFFFFF + 1 saturates
    from gpuisa import evaluate_ptx

    out = evaluate_ptx("vadd.s32.u32.u32.sat d, a, b;", {"a": 0xFFFFFFFF, "b": 1})
    assert out["outputs"]["d"] == 0x7FFFFFFF
