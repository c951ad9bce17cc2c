"""V_MOVREL*: VGPRs chosen by a register operand's number plus M0, on hand-computed vectors.

The register file is given as operands V0..V255 (one value, or one per lane); SRC0 and DST
are the source and destination operands' VGPR numbers.  Expected values follow from the
definition: movrels reads v[SRC0 + M0], movreld writes v[DST + M0], movrelsd copies
v[SRC0 + M0] to v[DST + M0], and movrelsd_2 offsets the source by M0[9:0] and the
destination by M0[25:16]; lanes outside EXEC keep their old values.
"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from gpuisa.semantics import evaluate
from gpuisa.semantics.wave import EvalError

ARCHS = ("rdna3.5", "rdna4")


@pytest.mark.parametrize("arch", ARCHS)
def test_movrels_reads_register_plus_m0(arch):
    # v[2 + 3] = v5
    out = evaluate(arch, "v_movrels_b32", SRC0=2, M0=3, V5=[10, 11, 12, 13], V2=[1, 1, 1, 1])["outputs"]
    assert out == {"D0": [10, 11, 12, 13]}


@pytest.mark.parametrize("arch", ARCHS)
def test_movreld_writes_register_plus_m0_in_active_lanes(arch):
    # v[1 + 2] = v3 takes S0 in lanes 0, 1 and 3 (EXEC = 0b1011); lane 2 keeps 1
    res = evaluate(arch, "v_movreld_b32", DST=1, M0=2, S0=[7, 8, 9, 0xFFFFFFFF], V3=[1, 1, 1, 1], EXEC=0b1011)
    assert res["outputs"] == {"V3": [7, 8, 1, 0xFFFFFFFF]}
    assert res["state"]["changed"] == ["V3"]


@pytest.mark.parametrize("arch", ARCHS)
def test_movrelsd_offsets_both_sides_by_m0(arch):
    # v[4 + 2] = v6 takes v[1 + 2] = v3
    out = evaluate(arch, "v_movrelsd_b32", SRC0=1, DST=4, M0=2, V3=[0xDEADBEEF, 5], V6=[0, 0])["outputs"]
    assert out == {"V6": [0xDEADBEEF, 5]}


@pytest.mark.parametrize("arch", ARCHS)
def test_movrelsd_2_takes_separate_offsets_from_m0(arch):
    # M0 = 5 << 16 | 2 (bits 31:26 set too, ignored): v[4 + 5] = v9 takes v[1 + 2] = v3, lane 1 only
    m0 = 0xFC000000 | (5 << 16) | 2
    out = evaluate(arch, "v_movrelsd_2_b32", SRC0=1, DST=4, M0=m0, V3=[4, 5], V9=[100, 200], EXEC=0b10)["outputs"]
    assert out == {"V9": [100, 5]}


def test_address_outside_the_register_file_is_one_clear_error():
    with pytest.raises(EvalError, match=r"VGPR number 260 .* outside the register file \(allowed: 0\.\.255\)"):
        evaluate("rdna4", "v_movrels_b32", SRC0=250, M0=10)
    with pytest.raises(EvalError, match="needs SRC0"):
        evaluate("rdna4", "v_movrels_b32", M0=1)
    with pytest.raises(EvalError, match=r"no operand V256 .*V0\.\.V255"):
        evaluate("rdna4", "v_movrels_b32", SRC0=1, V256=3)
    with pytest.raises(EvalError, match="one value per wave"):
        evaluate("rdna4", "v_movrels_b32", SRC0=[1, 2])


def test_eval_cli_reports_the_written_vgpr(cli_env):
    r = run_cli(["eval", "--arch", "rdna4", "v_movreld_b32", "DST=10", "M0=6", "S0=3,4", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["outputs"] == {"V16": [3, 4]}
    r = run_cli(["eval", "--arch", "rdna4", "v_movrels_b32", "SRC0=300"], cli_env)
    assert r.returncode == 2 and "outside the register file" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("arch", ARCHS)
def test_swaprel_exchanges_the_two_registers(arch):
    # M0 = 6 << 16 | 2: v[1 + 2] = v3 and v[3 + 6] = v9 swap, in the active lane 0 only
    out = evaluate(arch, "v_swaprel_b32", SRC0=1, DST=3, M0=(6 << 16) | 2, V3=[1, 2], V9=[30, 40], EXEC=0b01)["outputs"]
    assert out == {"V3": [30, 2], "V9": [1, 40]}
