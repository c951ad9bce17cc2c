"""Hand-computed vectors for the executable semantics (values worked out by hand from
the instructions' definitions, not produced by gpuisa)."""

from __future__ import annotations

import pytest

from gpuisa.semantics import evaluate

ARCHS = ("rdna3.5", "rdna4", "cdna4")


@pytest.mark.parametrize("arch", ARCHS)
def test_msad_skips_bytes_whose_reference_is_zero(arch):
    # |0x10-0x05| + |0x30-0x0a| + 7 = 11 + 38 + 7 = 56 (bytes 0 and 2 of S1 are zero)
    assert evaluate(arch, "v_msad_u8", S0=0x10203040, S1=0x05000A00, S2=7)["outputs"]["D0"] == [56]
    # v_sad_u8 counts every byte: 11 + 32 + 38 + 64 + 7 = 152
    assert evaluate(arch, "v_sad_u8", S0=0x10203040, S1=0x05000A00, S2=7)["outputs"]["D0"] == [152]


@pytest.mark.parametrize("arch", ARCHS)
def test_mad_i32_i24_sign_extends_and_ignores_top_byte(arch):
    # low 24 bits 0xFFFFFE = -2; -2 * 3 + 10 = 4
    assert evaluate(arch, "v_mad_i32_i24", S0=0xABFFFFFE, S1=3, S2=10)["outputs"]["D0"] == [4]


@pytest.mark.parametrize("arch", ARCHS)
def test_cndmask_selects_per_lane_by_vcc(arch):
    r = evaluate(arch, "v_cndmask_b32", S0=1, S1=2, VCC=0b0110, lanes=4)
    assert r["outputs"]["D0"] == [1, 2, 2, 1]


def test_only_active_lanes_write():
    r = evaluate("rdna3.5", "v_add_nc_u32", S0=[1, 2, 3, 4], S1=10, D0=[7, 7, 7, 7], EXEC=0b1010)
    assert r["outputs"]["D0"] == [7, 12, 7, 14]


def test_compare_writes_one_bit_per_active_lane_and_zero_for_inactive():
    r = evaluate("rdna4", "v_cmp_lt_u32", S0=[1, 5, 1, 1], S1=3, EXEC=0b0111, lanes=4)
    assert r["outputs"]["D0"] == [0b0101]


def test_carry_out_and_scc():
    assert evaluate("rdna3.5", "s_add_u32", S0=0xFFFFFFFF, S1=2)["outputs"] == {"D0": [1], "SCC": [1]}
    r = evaluate("rdna3.5", "v_mad_u64_u32", S0=0xFFFFFFFF, S1=0xFFFFFFFF, S2=0xFFFFFFFFFFFFFFFF)
    # 0xFFFFFFFE00000001 + 0xFFFFFFFFFFFFFFFF = 0x1_FFFFFFFE_00000000
    assert r["outputs"]["D0"] == [0xFFFFFFFE00000000]
    assert r["outputs"]["D1"] == [1]


def test_float_operands_are_read_in_the_operands_format():
    r = evaluate("rdna3.5", "v_add_f32", S0=[1.5, -0.0], S1=[-0.25, -0.0])
    assert r["outputs"]["D0"] == [0x3FA00000, 0x80000000]  # 1.25 and -0.0


def test_cross_lane_permlane64_swaps_halves():
    r = evaluate("rdna4", "v_permlane64_b32", S0=list(range(64)), wave=64)
    assert r["outputs"]["D0"] == list(range(32, 64)) + list(range(32))


def test_readlane_reads_another_lane():
    assert evaluate("rdna4", "v_readlane_b32", S0=[5, 6, 7, 8], S1=2)["outputs"]["D0"] == [7]


def test_perm_b32_byte_select():
    # bytes of {S0,S1} = 08 07 06 05 04 03 02 01 (index 0 first); selectors 3,2,1,0 -> 05 06 07 08
    r = evaluate("rdna3.5", "v_perm_b32", S0=0x01020304, S1=0x05060708, S2=0x00010203)
    assert r["outputs"]["D0"] == [0x08070605]


def test_cvt_pk_rtz_rounds_toward_zero():
    # 1 + 2**-11 + 2**-12 is between two f16 values; RTZ gives 1.0 (0x3c00), RNE would round up
    x = 1 + 2**-11 + 2**-12
    r = evaluate("rdna3.5", "v_cvt_pk_rtz_f16_f32", S0=x, S1=-x)
    assert r["outputs"]["D0"] == [0xBC003C00]


@pytest.mark.parametrize("name,big,ninf,want", [("v_fma_f64", 0x7FEFFFFFFFFFFFFF, 0xFFF0000000000000, 0xFFF0000000000000),
                                                ("v_fma_f32", 0x7F7FFFFF, 0xFF800000, 0xFF800000)])
def test_fma_of_overflowing_product_and_infinity_is_that_infinity(name, big, ninf, want):
    # max * max is finite when exact (a single rounding happens after the add), so max * max + -inf = -inf,
    # whereas an unfused multiply would overflow to +inf and give NaN
    assert evaluate("rdna4", name, S0=big, S1=big, S2=ninf)["outputs"]["D0"] == [want]
