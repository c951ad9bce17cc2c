"""prmt's special modes, min/max .xorsign.abs and integer min/max .relu, each checked against
values worked out here by hand from the PTX ISA's rules (byte tables, IEEE magnitudes and signs)."""

from __future__ import annotations

import struct

import pytest

from gpuisa.ptx.semantics import evaluate_ptx

A, B = 0x33221100, 0x77665544  # {b, a}: byte k of the 8-byte pool is 0x11 * k

# The PTX ISA's mode table: for each mode and c[1:0], the pool bytes that go to d.b3, d.b2, d.b1, d.b0.
TABLE = {
    "f4e": ("3210", "4321", "5432", "6543"),
    "b4e": ("5670", "6701", "7012", "0123"),
    "rc8": ("0000", "1111", "2222", "3333"),
    "ecl": ("3210", "3211", "3222", "3333"),
    "ecr": ("0000", "1110", "2210", "3210"),
    "rc16": ("1010", "3232", "1010", "3232"),
}


def _from_row(row: str, a: int, b: int) -> int:
    pool = (b << 32 | a).to_bytes(8, "little")
    return int.from_bytes(bytes(pool[int(k)] for k in reversed(row)), "little")


def _prmt(mode: str, a: int, b: int, c: int) -> int:
    return evaluate_ptx(f"prmt.b32.{mode} d, a, b, c;", {"a": a, "b": b, "c": c})["outputs"]["d"]


def test_prmt_f4e_example():
    assert _prmt("f4e", A, B, 1) == 0x44332211
    assert _prmt("rc8", A, B, 1) == 0x11111111


@pytest.mark.parametrize("mode", sorted(TABLE))
def test_prmt_modes_follow_the_table(mode):
    a, b = 0x8C1B2A39, 0xF4E5D6C7  # distinct bytes with the sign bit set in some (modes never sign-extend)
    for c in range(4):
        for high in (0, 0xFFFC):  # only c's two low bits matter
            assert _prmt(mode, a, b, c | high << 2) == _from_row(TABLE[mode][c], a, b), (mode, c, high)


def test_prmt_generic_form_unchanged():
    # selector 0x3210 copies a; 0x8 in a nibble replicates the picked byte's sign
    assert evaluate_ptx("prmt.b32 d, a, b, c;", {"a": A, "b": B, "c": 0x3210})["outputs"]["d"] == A
    assert evaluate_ptx("prmt.b32 d, a, b, c;", {"a": 0x80, "b": 0, "c": 0x4448})["outputs"]["d"] == 0xFF


def _f32(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _xorsign(op: str, x: float, y: float) -> int:
    mag = max(abs(x), abs(y)) if op == "max" else min(abs(x), abs(y))
    neg = (struct.pack("<f", x)[3] ^ struct.pack("<f", y)[3]) & 0x80
    return _f32(-mag if neg else mag)


@pytest.mark.parametrize("op", ["max", "min"])
def test_xorsign_abs_f32(op):
    assert evaluate_ptx(f"{op}.xorsign.abs.f32 d, a, b;", {"a": 0xC0000000, "b": 0x3F800000})["outputs"]["d"] \
        == {"max": 0xC0000000, "min": 0xBF800000}[op]
    for x, y in [(-2.0, 1.0), (2.0, -1.0), (-3.5, -0.25), (0.5, 0.75), (-0.0, 1.5), (6.0, -6.0)]:
        got = evaluate_ptx(f"{op}.xorsign.abs.f32 d, a, b;", {"a": _f32(x), "b": _f32(y)})["outputs"]["d"]
        assert got == _xorsign(op, x, y), (op, x, y)


def test_xorsign_abs_f16x2_lane_by_lane():
    # lane 0: -2.0 vs 1.0 -> -2.0; lane 1: 0.5 vs -4.0 -> -4.0 (f16: 2.0 = 0x4000, 1.0 = 0x3c00, 0.5 = 0x3800, 4.0 = 0x4400)
    a, b = 0x3800 << 16 | 0xC000, 0xC400 << 16 | 0x3C00
    assert evaluate_ptx("max.xorsign.abs.f16x2 d, a, b;", {"a": a, "b": b})["outputs"]["d"] == 0xC400 << 16 | 0xC000


@pytest.mark.parametrize("op", ["max", "min"])
def test_relu_s32_clamps_negative_results(op):
    cases = [(-16, -2), (-16, 5), (7, -3), (0, -1), (100, 200)]
    for x, y in cases:
        want = max((max if op == "max" else min)(x, y), 0)
        got = evaluate_ptx(f"{op}.relu.s32 d, a, b;", {"a": x & 0xFFFFFFFF, "b": y & 0xFFFFFFFF})["outputs"]["d"]
        assert got == want, (op, x, y)
    assert evaluate_ptx(f"{op}.relu.s32 d, a, b;", {"a": 0xFFFFFFF0, "b": 0xFFFFFFFE})["outputs"]["d"] == 0
