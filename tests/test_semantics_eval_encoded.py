"""gpuisa eval of an encoded instruction: every modifier of its encoding applied.

Expected values come from numpy float arithmetic and lane rules written out here; the
machine-code bytes of forms the assembler does not take were produced once by llvm-mc-22.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import run_cli

from gpuisa.semantics.encoded import evaluate_encoded
from gpuisa.semantics.machine import MachineError

RNG = np.random.default_rng(11)


def _f32(n: int, lo: float = -8, hi: float = 8) -> np.ndarray:
    return RNG.uniform(lo, hi, n).astype(np.float32)


def _bits(x: np.ndarray) -> list[int]:
    return [int(v) for v in np.asarray(x).view(np.uint32 if x.dtype == np.float32 else np.uint16)]


def _run(arch, text, regs, **kw):
    return evaluate_encoded(arch, text, regs, **kw)


def _out(res, reg="V1"):
    return np.array(res["writes"][reg], dtype=np.uint64).astype(np.uint32)


def test_abs_neg_clamp_f32():
    a, b = _f32(32), _f32(32, -1, 2)
    res = _run("rdna4", "v_add_f32 v1, -|v2|, v3 clamp", {"V2": _bits(a), "V3": _bits(b)})
    want = np.clip(-np.abs(a) + b, np.float32(0), np.float32(1)).astype(np.float32)
    assert res["encoding"] == "VOP3" and _out(res).view(np.float32).tolist() == want.tolist()
    assert set(res["reads"]) == {"V2", "V3"} and res["changed"] == ["V1"]


@pytest.mark.parametrize("mod,scale", [("mul:2", 2), ("mul:4", 4), ("div:2", 0.5)])
def test_output_modifier(mod, scale):
    a, b = _f32(32, -1e3, 1e3), _f32(32, -1e-3, 1e-3)
    res = _run("rdna4", f"v_add_f32_e64 v1, v2, v3 {mod}", {"V2": _bits(a), "V3": _bits(b)})
    assert _out(res).view(np.float32).tolist() == ((a + b) * np.float32(scale)).tolist()


def test_clamp_of_nan_is_zero():
    res = _run("rdna4", "v_mul_f32_e64 v1, v2, v3 clamp", {"V2": ["inf", "2.0", "-3.0"], "V3": ["0.0", "0.25", "1.0"]})
    assert _out(res).view(np.float32).tolist() == [0.0, 0.5, 0.0]  # inf * 0 = NaN clamps to 0


def test_op_sel_halves_of_16_bit_operands():
    a, b, c = (RNG.uniform(0.5, 4, 32).astype(np.float16) for _ in range(3))
    lo_junk = RNG.integers(0, 0xFFFF, 32)
    v3 = [int(x) << 16 | int(j) for x, j in zip(_bits(b), lo_junk)]  # b in the high half of v3
    old = [0xABCD] * 32
    res = _run("rdna4", "v_fma_f16 v1, v2, v3, v4 op_sel:[0,1,0,1]", {"V2": _bits(a), "V3": v3, "V4": _bits(c), "V1": old})
    want = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float16)  # exact, one rounding
    got = _out(res)
    assert (got & 0xFFFF).tolist() == [0xABCD] * 32  # the low half is kept
    assert (got >> 16).astype(np.uint16).view(np.float16).tolist() == want.tolist()


def test_packed_op_sel_and_neg():
    x, y = (RNG.uniform(-4, 4, (2, 32)).astype(np.float16) for _ in range(2))
    v2 = [int(h) << 16 | int(lo) for lo, h in zip(_bits(x[0]), _bits(x[1]))]
    v3 = [int(h) << 16 | int(lo) for lo, h in zip(_bits(y[0]), _bits(y[1]))]
    res = _run("rdna4", "v_pk_add_f16 v1, v2, v3 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1]", {"V2": v2, "V3": v3})
    got = _out(res)
    lo = (got & 0xFFFF).astype(np.uint16).view(np.float16)
    hi = (got >> 16).astype(np.uint16).view(np.float16)
    assert lo.tolist() == (x[1] + -y[0]).tolist()  # low result: src0's high half, src1's low half negated
    assert hi.tolist() == (x[0] + y[1]).tolist()  # high result: src0's low half (op_sel_hi 0), src1's high half


def test_inline_constants_by_operand_format():
    r = _run("rdna4", "v_add_f16_e64 v1, v2, 0.5", {"V2": _bits(np.array([1.0], np.float16))})
    assert r["writes"]["V1"] == [0x3E00]  # 1.5 in f16: the constant is read as f16
    r = _run("rdna4", "v_add_f64 v[2:3], v[4:5], 1.0", {"V[4:5]": 2.25})
    assert r["writes"]["V[2:3]"] == [int(np.float64(3.25).view(np.uint64))]
    r = _run("rdna4", "v_mul_f32 v1, 0.15915494, v2", {"V2": 2.0})
    assert r["writes"]["V1"] == [0x3E22F983 + (1 << 23)]  # 1/(2*pi) as f32, doubled
    r = _run("rdna4", "v_add_nc_u32 v1, -16, v2", {"V2": 20})
    assert r["writes"]["V1"] == [4]
    r = _run("rdna4", "v_add_f32 v1, 0x40400000, v2", {"V2": 0.5})
    assert r["writes"]["V1"] == [int(np.float32(3.5).view(np.uint32))]
    r = _run("rdna4", "v_fmamk_f32 v1, v2, 0x40000000, v3", {"V2": 3.0, "V3": 1.0})
    assert r["writes"]["V1"] == [int(np.float32(7.0).view(np.uint32))]


def test_scalar_sources_and_lane_mask_destinations():
    a, b = _f32(32), _f32(32)
    r = _run("rdna4", "v_cmp_lt_f32_e64 s4, v1, v2", {"V1": _bits(a), "V2": _bits(b)}, lanes=32)
    assert r["writes"]["S4"] == sum(1 << i for i in range(32) if a[i] < b[i])
    r = _run("rdna4", "v_add_f32_e64 v1, s2, v3", {"S2": 1.5, "V3": [0.25, 1.0]})
    assert r["writes"]["V1"] == _bits(np.array([1.75, 2.5], np.float32)) and "S2" in r["reads"]


def _lanes(n):
    return [int(x) for x in RNG.integers(0, 1 << 31, n)]


def _dpp(hexcode, regs, lanes, arch="rdna4", wave=None):
    return _run(arch, hexcode, regs, hex_input=True, lanes=lanes, wave=wave)["writes"]["V1"]


def test_dpp16_quad_perm_with_word_modifiers():
    a, b = _f32(32), _f32(32)
    got = _dpp("fa06020602b190ff", {"V2": _bits(a), "V3": _bits(b)}, 32)  # -v2, |v3|, quad_perm:[1,0,3,2]
    perm = [(lane & ~3) | [1, 0, 3, 2][lane & 3] for lane in range(32)]
    assert got == _bits(np.array([-a[perm[i]] + abs(b[i]) for i in range(32)], np.float32))


def test_dpp16_row_shr_bound_ctrl_and_masks():
    v2, v3 = _f32(32), _f32(32)
    got = _dpp("fa06020602110 9ff".replace(" ", ""), {"V2": _bits(v2), "V3": _bits(v3)}, 32)  # row_shr:1 bound_ctrl:1
    want = [(v2[i - 1] if i % 16 else np.float32(0)) + v3[i] for i in range(32)]  # out of row: reads 0
    assert got == _bits(np.array(want, np.float32))
    src, old = _lanes(32), _lanes(32)
    got = _dpp("fa02027e0202015f", {"V2": src, "V1": old}, 32)  # v_mov row_shl:2 row_mask:0x5
    want = [src[i + 2] if (i % 16) + 2 < 16 and (i // 16) in (0, 2) else old[i] for i in range(32)]
    assert got == want  # out of row without bound_ctrl, or a masked row: not written


@pytest.mark.parametrize("hexcode,rule", [
    ("fa02027e025301ff", lambda i: (i & ~15) | 3),  # row_share:3
    ("fa02027e026101ff", lambda i: (i & ~15) | ((i & 15) ^ 1)),  # row_xmask:1
    ("fa02027e024001ff", lambda i: (i & ~15) | (15 - (i & 15))),  # row_mirror
    ("e902027e02773905", lambda i: (i & ~7) | (7 - (i & 7))),  # dpp8:[7,6,5,4,3,2,1,0]
])
def test_dpp_lane_moves_wave64(hexcode, rule):
    src = _lanes(64)
    assert _dpp(hexcode, {"V2": src}, 64, wave=64) == [src[rule(i)] for i in range(64)]


def test_dpp_reading_an_inactive_lane():
    src, old = _lanes(8), _lanes(8)
    exec_mask = 0b11111011  # lane 2 inactive
    got = _run("rdna4", "fa02027e021b00ff", {"V2": src, "V1": old, "EXEC": exec_mask}, hex_input=True,
               lanes=8)["writes"]["V1"]  # quad_perm:[3,2,1,0], no bound_ctrl: a lane reading lane 2 is not written
    want = [old[i] if i == 2 or ((i & ~3) | (3 - (i & 3))) == 2 else src[(i & ~3) | (3 - (i & 3))] for i in range(8)]
    assert got == want
    got = _run("rdna4", "e902027e02773905", {"V2": src, "V1": old, "EXEC": exec_mask}, hex_input=True,
               lanes=8)["writes"]["V1"]  # dpp8 reverse: lane 5 reads inactive lane 2 and gets 0
    assert got == [0 if i == 5 else (old[i] if i == 2 else src[7 - i]) for i in range(8)]


def test_vop3_dpp_takes_vop3_modifiers():
    a, b = _f32(32), _f32(32)
    got = _dpp("010003d5fa06022002 1b00ff".replace(" ", ""), {"V2": _bits(a), "V3": _bits(b)}, 32)
    assert got == _bits(np.array([-a[(i & ~3) | (3 - (i & 3))] + b[i] for i in range(32)], np.float32))


def test_sdwa_selects_on_gfx9():
    r = _run("cdna4", "f906020202150005", {"V2": 0x12345678, "V3": 0x3F800000, "V1": 0xDEADBEEF}, hex_input=True)
    # src0 BYTE_0 (0x78) and src1 WORD_1 (0x3f80) are denormal f32 bit patterns: they add as integers
    assert r["writes"]["V1"] == [(0x78 + 0x3F80) << 16 | 0xBEEF]  # dst WORD_1, the rest preserved
    r = _run("cdna4", "f906026802010204", {"V2": 0x00AB0000, "V3": 0x00010002, "V1": 0xFFFFFFFF}, hex_input=True)
    assert r["writes"]["V1"] == [((0xAB + 0x0002) & 0xFF) << 8]  # BYTE_2 + WORD_0 into BYTE_1, the rest zero


def test_errors():
    with pytest.raises(MachineError, match="does not assemble|unknown"):
        _run("rdna4", "v_add_f32 v1, v2", {})
    with pytest.raises(MachineError, match="not hex"):
        _run("rdna4", "zz", {}, hex_input=True)
    with pytest.raises(MachineError, match="out of range"):
        _run("rdna4", "v_mov_b32 v1, v2", {"V300": 1})


def test_cli_eval_encoded(cli_env):
    r = run_cli(["eval", "--arch", "rdna4", "v_add_f32 v1, -|v2|, v3 clamp", "V2=0.25,-0.5", "V3=0.5,0.25"], cli_env)
    assert r.returncode == 0, r.stderr
    assert "read:" in r.stdout and "wrote:" in r.stdout and "= 0.25 (f32)" in r.stdout and "changed: V1" in r.stdout
    r = run_cli(["eval", "--arch", "rdna4", "--hex", "fa02027e021101ff", "V2=1,2,3,4", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["writes"]["V1"] == [0, 1, 2, 3]
    r = run_cli(["eval", "--arch", "rdna4", "v_add_f32 v1, v2"], cli_env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


def test_output_modifiers_leave_inactive_lanes_alone():
    old = _bits(np.array([5.0, -3.0, 7.0, 9.0], np.float32))
    r = _run("rdna4", "v_add_f32_e64 v1, v2, v3 mul:2 clamp", {"V1": old, "V2": [0.25] * 4, "V3": [0.5, -1.0, 0.0, 0.1],
                                                              "EXEC": 0b0101}, lanes=4)
    assert r["writes"]["V1"] == [_bits(np.array([1.0], np.float32))[0], old[1],
                                 _bits(np.array([0.5], np.float32))[0], old[3]]


def test_packed_inline_constants_fill_both_halves():
    r = _run("rdna4", "v_pk_add_f16 v1, v2, 1.0", {"V2": 0x4000_3C00})  # (1.0, 2.0) + 1.0
    assert r["writes"]["V1"] == [0x4200_4000]
    r = _run("rdna4", "v_pk_add_u16 v1, v2, -1", {"V2": 0x0005_0003})
    assert r["writes"]["V1"] == [0x0004_0002]
