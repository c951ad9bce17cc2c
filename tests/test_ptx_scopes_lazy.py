"""Where a register may be used (ptx/scopes.py), now that a function's record starts only at its first
late or nested declaration: uses outside a nested block, before a late declaration and inside nested
blocks of two levels, judged by ptxas."""

from __future__ import annotations

import subprocess

import pytest
from conftest import need

from gpuisa.ptx.frontend import errors

HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n"
BODIES = {
    "nested, used outside": "add.s32 %r1, %r2, %r3;\n{\n.reg .pred %q;\nsetp.eq.s32 %q, %r1, 0;\n}\n@%q add.s32 %r1, %r1, 1;\n",
    "nested, used inside": "add.s32 %r1, %r2, %r3;\n{\n.reg .pred %q;\nsetp.eq.s32 %q, %r1, 0;\n@%q add.s32 %r1, %r1, 1;\n}\n",
    "late, used after": "add.s32 %r1, %r2, %r3;\n.reg .b32 %late<3>;\nadd.s32 %late1, %r1, 1;\n",
    "late, used before": "add.s32 %late2, %r1, 1;\nadd.s32 %r1, %r2, %r3;\n.reg .b32 %late<3>;\nadd.s32 %late1, %r1, 1;\n",
    "two levels, used in the outer block": "{\nadd.s32 %r1, %r2, %r3;\n{\n.reg .pred %q;\nsetp.eq.s32 %q, %r1, 0;\n}\n"
                                           "@%q add.s32 %r1, %r1, 1;\n}\n",
    "two levels, used in the inner block": "{\nadd.s32 %r1, %r2, %r3;\n{\n.reg .pred %q;\nsetp.eq.s32 %q, %r1, 0;\n"
                                           "@%q add.s32 %r1, %r1, 1;\n}\n}\n",
    "top-level range, then nested": "{\n.reg .b32 %t;\nadd.s32 %t, %r2, %r3;\n}\nadd.s32 %r3, %r2, %r1;\n",
}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_register_scopes_agree_with_ptxas(name, tmp_path):
    from gpuisa.ptx import ptxas

    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13, or pip install nvidia-cuda-nvcc)")
    text = HEAD + BODIES[name] + "ret;\n}\n"
    path = tmp_path / "k.ptx"
    path.write_text(text)
    accepted = subprocess.run([tool, "-arch", "sm_90", "-o", str(tmp_path / "k.cubin"), str(path)],
                              capture_output=True, text=True).returncode == 0
    _, bad = errors(text)
    assert (not bad) == accepted, (name, bad)
    if not accepted:
        assert any("outside the block that declares it" in e["error"] for e in bad), bad
