"""TMA `cp.async.bulk.tensor ... .tile::gather4` by destination space and target, against ptxas 13.

Into `.shared::cluster` (with or without `.multicast::cluster` and its ctaMask operand) ptxas takes it
on the sm_100a family only; into `.shared::cta`, on sm_100 and newer (a multicast there is refused).
The verdict of each (destination, multicast, target) is ptxas's own, compiled here.
"""

from __future__ import annotations

import subprocess

import pytest
from conftest import need

from gpuisa.ptx import ptxas
from gpuisa.ptx.frontend import errors

TARGETS = ["sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_103a", "sm_110a", "sm_120", "sm_120a"]


def _kernel(target: str, dst: str, multicast: bool) -> str:
    mc = ".multicast::cluster" if multicast else ""
    mask = ", %rs1" if multicast else ""
    return (f".version 9.0\n.target {target}\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n"
            ".reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .b16 %rs<2>;\n"
            f"cp.async.bulk.tensor.2d.{dst}.global.tile::gather4.mbarrier::complete_tx::bytes{mc} "
            f"[%r1], [%rd1, {{%r2, %r3, %r4, %r5, %r6}}], [%r7]{mask};\nret;\n}}\n")


@pytest.mark.parametrize("dst", ["shared::cluster", "shared::cta"])
@pytest.mark.parametrize("multicast", [False, True])
def test_gather4_destination_and_target_as_ptxas(tmp_path, dst, multicast):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed")
    for target in TARGETS:
        text = _kernel(target, dst, multicast)
        path = tmp_path / f"{target}.ptx"
        path.write_text(text)
        proc = subprocess.run([tool, f"-arch={target}", str(path), "-o", "/dev/null"], capture_output=True,
                              text=True)
        theirs = proc.returncode == 0
        _, bad = errors(text)
        assert (not bad) == theirs, (target, dst, multicast, proc.stderr[-300:], bad)
        if bad:
            assert {r["line"] for r in bad} == {9}, bad
