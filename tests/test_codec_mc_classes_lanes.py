"""Operand classes of lane and scalar-operand instructions, checked against llvm-mc-22 on lines of our own writing
(the classes tools/lane_class_sweep.py found): the encoder must give llvm-mc-22's bytes for the lines it assembles
and refuse the lines it rejects, on every generation."""

from __future__ import annotations

import pytest

from gpuisa.codec import oracle
from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.processor_codec import encoder_for

CPUS = ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1200", "gfx1250"]

# v_writelane_b32: an SGPR, M0 or an inline constant as value and lane select; GFX9 reads one SGPR (the same one
# twice is one read; M0 as lane select does not count); no VGPR, no literal
_WRITELANE = [
    "v_writelane_b32 v1, s6, s6", "v_writelane_b32 v1, s7, m0", "v_writelane_b32 v1, s6, s7",
    "v_writelane_b32 v1, m0, s6", "v_writelane_b32 v1, 5, s101", "v_writelane_b32 v1, -4.0, m0",
    "v_writelane_b32 v1, s6, 63", "v_writelane_b32 v1, vcc_hi, m0", "v_writelane_b32 v1, ttmp15, m0",
    "v_writelane_b32 v1, exec_lo, exec_lo", "v_writelane_b32 v1, v6, s1", "v_writelane_b32 v1, s6, v1",
    "v_writelane_b32 v1, 0x1234, s7", "v_writelane_b32 v1, s6, 0x1234", "v_writelane_b32 v255, s5, 3",
]
# v_readlane_b32: a VGPR source, an SGPR/M0/inline lane select; v_permlane16/x16: a VGPR source, scalar selects
_READLANE = [
    "v_readlane_b32 s4, v2, s6", "v_readlane_b32 s4, v2, m0", "v_readlane_b32 s4, v2, 7", "v_readlane_b32 s4, s2, s6",
    "v_readlane_b32 s4, 1, s6", "v_readlane_b32 s4, 0x1234, s6", "v_readlane_b32 s4, v2, v3",
    "v_readlane_b32 s4, v2, 0x1234", "v_readlane_b32 vcc_lo, v255, s6", "v_readlane_b32 s4, exec_hi, s6",
    "v_permlane16_b32 v1, v2, s6, s7", "v_permlane16_b32 v1, s2, s6, s7", "v_permlane16_b32 v1, 1, s6, s7",
    "v_permlane16_b32 v1, v2, v3, s7", "v_permlane16_b32 v1, v2, s6, v3", "v_permlane16_b32 v1, v2, m0, 5",
    "v_permlanex16_b32 v1, v2, v3, s7", "v_permlanex16_b32 v1, v2, 0x1234, s7", "v_permlanex16_b32 v1, v2, s6, v4",
]


def _disagreements(cpu: str, lines: list[str]) -> list[str]:
    ref = oracle.assemble(cpu, lines)
    enc = encoder_for(cpu)
    bad = []
    for line, (want, msg) in zip(lines, ref):
        try:
            got: bytes | None = enc.encode_line(line).data
        except EncodeError:
            got = None
        if got != want:
            bad.append(f"{cpu}: {line!r}: llvm {want.hex() if want else msg!r}, ours {got.hex() if got else None}")
    return bad


@pytest.mark.parametrize("cpu", CPUS)
def test_writelane_scalar_sources(llvm_mc, cpu):
    bad = _disagreements(cpu, _WRITELANE)
    assert not bad, bad[:5]


@pytest.mark.parametrize("cpu", CPUS)
def test_readlane_and_permlane_sources(llvm_mc, cpu):
    bad = _disagreements(cpu, _READLANE)
    assert not bad, bad[:5]
