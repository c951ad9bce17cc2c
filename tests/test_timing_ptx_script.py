"""The prepared sm_90 latency script (tools/ptx_latency_sm90.py; it needs the GPU and never runs in CI): every
case's kernel assembles with ptxas, its timed chain survives compilation, and without a GPU it skips cleanly."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, need

from gpuisa.ptx import ptxas

sys.path.insert(0, str(ROOT / "tools"))
import ptx_latency_sm90 as lat  # noqa: E402


@pytest.mark.parametrize("label", list(lat.CASES))
def test_chain_survives_ptxas(label, tmp_path):
    need(ptxas.find_ptxas() is not None and shutil.which("ptxas") is not None, "ptxas not installed (on PATH)")
    per = lat.sass_per_ptx(label, tmp_path)
    assert per is not None and per > 0, f"ptxas folded the {label} chain away"


def test_kernels_pass_the_ptx_checker(tmp_path):
    from gpuisa.ptx.__main__ import main as ptx_main

    for label in lat.CASES:
        src = tmp_path / f"{label}.ptx"
        src.write_text(lat.kernel_ptx(label, 4))
        assert ptx_main(["check", "--file", str(src), "--target", "sm_90"]) == 0, label


def test_runs_or_skips_cleanly(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "ptx_latency_sm90.py"), "--out", str(tmp_path / "l.json"),
                        "--only", "add.f32"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-500:]
    assert "skipped" in r.stdout or (tmp_path / "l.json").exists()
    assert "Traceback" not in r.stderr
