"""Lane exchanges across a wave against an independent numpy model: v_permlane16/x16 (SGPR and VGPR selects),
v_permlane64, CDNA4's v_permlane16_swap/v_permlane32_swap (both operands written), v_swap_b32/b16,
v_readlane/v_writelane (lane index modulo the wave size), v_readfirstlane, v_cndmask with VCC or an SGPR
(pair) in wave32 and wave64, DPP row rotate, broadcasts, wave shifts and row_newbcast, and the LDS-unit
exchanges ds_swizzle_b32 (quad and bitmask modes), ds_bpermute_b32 and ds_permute_b32 with EXEC masks.
The model is written from the instructions' documented lane rules with numpy index arithmetic; the
instructions run assembled (llvm-mc syntax) on the wave machine (``gpuisa.run``).
"""

from __future__ import annotations

import numpy as np
import pytest

import gpuisa
from gpuisa.semantics import sources

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

RNG = np.random.default_rng(20261202)


def vals(n: int) -> list[int]:
    return [int(x) for x in RNG.integers(0, 1 << 32, n, dtype=np.uint64)]


def v(st, reg: str) -> list[int]:
    return [int(x) for x in st[reg]]


def nibbles(lo: int, hi: int) -> np.ndarray:
    return np.array([(lo >> (4 * k)) & 15 for k in range(8)] + [(hi >> (4 * k)) & 15 for k in range(8)])


@pytest.mark.parametrize("arch,wave", [("rdna3.5", 32), ("rdna4", 32), ("rdna4", 64)])
def test_permlanes(arch, wave):
    lane = np.arange(wave)
    src, lo, hi = np.array(vals(wave)), *vals(2)
    sel = nibbles(lo, hi)[lane & 15]
    for name, row in (("v_permlane16_b32", lane & ~15), ("v_permlanex16_b32", (lane & ~15) ^ 16)):
        st = gpuisa.run(arch, f"{name} v1, v2, s4, s5", {"V2": list(src), "S4": lo, "S5": hi}, wave=wave)
        assert v(st, "V1") == list(src[row | sel]), (arch, wave, name)
    if wave == 64:
        st = gpuisa.run(arch, "v_permlane64_b32 v1, v2", {"V2": list(src)}, wave=wave)
        assert v(st, "V1") == list(src[lane ^ 32])
    if arch == "rdna4":
        sel_v = RNG.integers(0, 1 << 32, wave)
        for name, row in (("v_permlane16_var_b32", lane & ~15), ("v_permlanex16_var_b32", (lane & ~15) ^ 16)):
            st = gpuisa.run(arch, f"{name} v1, v2, v3", {"V2": list(src), "V3": [int(x) for x in sel_v]}, wave=wave)
            assert v(st, "V1") == list(src[row | (sel_v & 15)]), (arch, wave, name)


def test_cdna4_permlane_swaps_write_both_operands():
    a, b = np.array(vals(64)), np.array(vals(64))
    st = gpuisa.run("cdna4", "v_permlane16_swap_b32 v1, v2", {"V1": list(a), "V2": list(b)})
    odd = (np.arange(64) >> 4) & 1 == 1  # rows 1 and 3 of the destination trade with rows 0 and 2 of the source
    want1 = np.where(odd, np.roll(b, 16), a)
    want2 = np.where(odd, b, np.roll(a, -16))
    assert v(st, "V1") == list(want1) and v(st, "V2") == list(want2)
    st = gpuisa.run("cdna4", "v_permlane32_swap_b32 v1, v2", {"V1": list(a), "V2": list(b)})
    upper = np.arange(64) >= 32
    assert v(st, "V1") == list(np.where(upper, np.roll(b, 32), a))
    assert v(st, "V2") == list(np.where(upper, b, np.roll(a, -32)))


@pytest.mark.parametrize("arch,wave", [("rdna4", 32), ("rdna4", 64), ("cdna4", 64)])
def test_swap_and_lane_reads_and_writes(arch, wave):
    a, b = vals(wave), vals(wave)
    exec_mask = int(RNG.integers(1, 1 << 62)) & ((1 << wave) - 1) | 1
    act = [(exec_mask >> i) & 1 for i in range(wave)]
    st = gpuisa.run(arch, "v_swap_b32 v1, v2", {"V1": a, "V2": b, "EXEC": exec_mask}, wave=wave)
    assert v(st, "V1") == [y if e else x for x, y, e in zip(a, b, act)]
    assert v(st, "V2") == [x if e else y for x, y, e in zip(a, b, act)]
    for idx in (3, wave - 1, wave + 5, 100):
        # (GFX9 reads one SGPR per instruction: the lane select of CDNA4's v_writelane_b32 is M0 beside S7)
        text = "v_readlane_b32 s4, v2, s6\nv_writelane_b32 v1, s7, " + ("m0" if arch == "cdna4" else "s6")
        st = gpuisa.run(arch, text, {"V2": a, "V1": b, "S6": idx, "M0": idx, "S7": 0xC0FFEE}, wave=wave)
        assert st["S4"] == a[idx % wave], (arch, idx)
        assert v(st, "V1") == [0xC0FFEE if i == idx % wave else x for i, x in enumerate(b)], (arch, idx)
    some = (exec_mask & ~0b111) | (1 << 9)  # lanes 0-2 off: the first active lane is 3 or above
    st = gpuisa.run(arch, "v_readfirstlane_b32 s4, v2", {"V2": a, "EXEC": some}, wave=wave)
    assert st["S4"] == a[(some & -some).bit_length() - 1]


def test_swap_b16_halves_on_rdna35():
    a, b = vals(32), vals(32)
    st = gpuisa.run("rdna3.5", "v_swap_b16 v1.l, v2.h", {"V1": a, "V2": b})
    assert v(st, "V1") == [(x & 0xFFFF0000) | (y >> 16) for x, y in zip(a, b)]
    assert v(st, "V2") == [(y & 0xFFFF) | ((x & 0xFFFF) << 16) for x, y in zip(a, b)]


@pytest.mark.parametrize("arch,wave,text,mask_regs", [
    ("rdna4", 32, "v_cndmask_b32 v1, v2, v3, vcc_lo", ("VCC",)),
    ("rdna4", 64, "v_cndmask_b32 v1, v2, v3, vcc", ("VCC",)),
    ("rdna4", 64, "v_cndmask_b32_e64 v1, v2, v3, s[6:7]", ("S6", "S7")),
    ("rdna3.5", 32, "v_cndmask_b32_e64 v1, v2, v3, s6", ("S6",)),
    ("cdna4", 64, "v_cndmask_b32 v1, v2, v3, vcc", ("VCC",)),
    ("cdna4", 64, "v_cndmask_b32_e64 v1, v2, v3, s[6:7]", ("S6", "S7"))])
def test_cndmask_reads_one_mask_bit_per_lane(arch, wave, text, mask_regs):
    a, b = vals(wave), vals(wave)
    mask = int(RNG.integers(0, 1 << 63)) | (1 << 63)
    mask &= (1 << wave) - 1
    regs = {"V2": a, "V3": b}
    if mask_regs == ("VCC",):
        regs["VCC"] = mask
    else:
        regs.update({r: (mask >> (32 * k)) & 0xFFFFFFFF for k, r in enumerate(mask_regs)})
    st = gpuisa.run(arch, text, regs, wave=wave)
    assert v(st, "V1") == [y if (mask >> i) & 1 else x for i, (x, y) in enumerate(zip(a, b))], text


DPP = [  # (arch, wave, control text, lane read by lane i or -1 (not written: keeps its old value))
    ("rdna4", 64, "row_ror:5", lambda i: (i & ~15) | ((i - 5) & 15)),
    ("rdna4", 32, "row_shl:3", lambda i: i + 3 if (i & 15) + 3 < 16 else -1),
    ("cdna4", 64, "row_bcast:15 row_mask:0xa", lambda i: ((i & ~15) - 1) if (i >> 4) & 1 else -1),
    ("cdna4", 64, "row_bcast:31 row_mask:0xc", lambda i: 31 if i >= 32 else -1),
    ("cdna4", 64, "wave_shl:1", lambda i: i + 1 if i < 63 else -1),
    ("cdna4", 64, "wave_rol:1", lambda i: (i + 1) % 64),
    ("cdna4", 64, "wave_shr:1", lambda i: i - 1 if i else -1),
    ("cdna4", 64, "wave_ror:1", lambda i: (i - 1) % 64),
    ("cdna4", 64, "row_newbcast:5", lambda i: (i & ~15) | 5),
    ("cdna4", 64, "row_ror:15", lambda i: (i & ~15) | ((i + 1) & 15)),
]


@pytest.mark.parametrize("arch,wave,ctrl,rule", DPP)
def test_dpp_row_and_wave_moves(arch, wave, ctrl, rule):
    src, old = vals(wave), vals(wave)
    st = gpuisa.run(arch, f"v_mov_b32_dpp v1, v2 {ctrl}", {"V2": src, "V1": old}, wave=wave)
    assert v(st, "V1") == [src[rule(i)] if rule(i) >= 0 else old[i] for i in range(wave)], ctrl


@pytest.mark.parametrize("arch,wave", [("rdna3.5", 32), ("rdna4", 32), ("rdna4", 64), ("cdna4", 64)])
def test_lds_unit_lane_exchanges(arch, wave):
    lane = np.arange(wave)
    data, old = np.array(vals(wave)), np.array(vals(wave))
    exec_mask = int(RNG.integers(0, 1 << 62)) & ((1 << wave) - 1) | 0b101
    act = (exec_mask >> lane) & 1 == 1
    addr = RNG.integers(0, 1 << 16, wave)
    for off in (0, 12):
        regs = {"V2": list(data), "V3": [int(x) for x in addr], "V1": list(old), "EXEC": exec_mask}
        st = gpuisa.run(arch, f"ds_bpermute_b32 v1, v3, v2 offset:{off}", regs, wave=wave)
        src = (addr + off) // 4 % wave
        assert v(st, "V1") == list(np.where(act, np.where(act[src], data[src], 0), old)), (arch, "bpermute", off)
        st = gpuisa.run(arch, f"ds_permute_b32 v1, v3, v2 offset:{off}", regs, wave=wave)
        sent = np.zeros(wave, dtype=np.int64)
        for i in lane[act]:
            sent[(addr[i] + off) // 4 % wave] = data[i]
        assert v(st, "V1") == list(np.where(act, sent, old)), (arch, "permute", off)
    for offset in [0x8000 | int(RNG.integers(0, 256)) for _ in range(3)] + [int(RNG.integers(0, 0x8000)) for _ in range(5)]:
        if offset & 0x8000:
            src = (lane & ~3) | ((offset >> (2 * (lane & 3))) & 3)
        else:
            src = (lane & ~31) | ((((lane & 31) & (offset & 31)) | ((offset >> 5) & 31)) ^ ((offset >> 10) & 31))
        regs = {"V2": list(data), "V1": list(old), "EXEC": exec_mask}
        st = gpuisa.run(arch, f"ds_swizzle_b32 v1, v2 offset:{offset}", regs, wave=wave)
        assert v(st, "V1") == list(np.where(act, np.where(act[src], data[src], 0), old)), (arch, hex(offset))


@pytest.mark.parametrize("arch,wave", [("rdna4", 32), ("rdna4", 64), ("cdna4", 64)])
def test_compare_masks_exec_and_vcc_by_wave_size(arch, wave):
    a = [int(x) for x in RNG.integers(0, 100, wave)]
    want = sum(1 << i for i, x in enumerate(a) if x < 50)
    pair = "s[4:5]" if wave == 64 else "s4"
    st = gpuisa.run(arch, f"v_cmp_lt_u32_e64 {pair}, v0, 50", {"V0": a, "S5": 0x1234}, wave=wave)
    assert st["S4"] == want & 0xFFFFFFFF and st["S5"] == (want >> 32 if wave == 64 else 0x1234)  # wave32: one SGPR
    st = gpuisa.run(arch, "v_cmp_lt_u32 vcc, v0, 50" if wave == 64 else "v_cmp_lt_u32 vcc_lo, v0, 50", {"V0": a}, wave=wave)
    assert st["VCC"] == want
    cmpx = "v_cmpx_lt_u32 vcc, v0, 50" if arch == "cdna4" else "v_cmpx_lt_u32 v0, 50"  # GFX9: also writes VCC
    st = gpuisa.run(arch, cmpx + "\nv_mov_b32 v1, 9", {"V0": a, "V1": [0] * wave}, wave=wave)
    assert st["EXEC"] == want and v(st, "V1") == [9 if (want >> i) & 1 else 0 for i in range(wave)]
    if arch == "cdna4":
        assert st["VCC"] == want
    sx = "s_and_saveexec_b64 s[4:5], s[6:7]" if wave == 64 else "s_and_saveexec_b32 s4, s6"
    st = gpuisa.run(arch, sx, {"S6": want & 0xFFFFFFFF, "S7": want >> 32, "EXEC": (1 << wave) - 2}, wave=wave)
    assert st["EXEC"] == want & ((1 << wave) - 2) and st["S4"] == ((1 << wave) - 2) & 0xFFFFFFFF
    if wave == 64:  # EXEC_LO zero with lanes active above: not "exec zero"
        st = gpuisa.run(arch, "s_mov_b32 exec_lo, 0\ns_cbranch_execz L\nv_mov_b32 v1, 9\nL:\ns_endpgm",
                        {"V1": [0] * 64}, wave=64)
        assert v(st, "V1") == [0] * 32 + [9] * 32


@pytest.mark.parametrize("arch,wave", [("gfx942", 64), ("cdna2", 64), ("rdna3", 32), ("rdna2", 32), ("gfx1250", 32)])
def test_generations_without_own_pseudocode_run_sequences(arch, wave):
    """The wave machine runs every generation (semantics carried from the nearest one with pseudocode): an f32
    add, a clamped integer add and a backward permute, against Python values."""
    a, b = vals(wave), vals(wave)
    fa = [float(np.float32(x)) for x in RNG.uniform(-8, 8, wave)]
    add_u = "v_add_u32_e64" if arch in ("gfx942", "cdna2") else "v_add_nc_u32"
    text = f"v_add_f32 v1, v2, v3\n{add_u} v4, v5, v6 clamp\nds_bpermute_b32 v7, v8, v5"
    st = gpuisa.run(arch, text, {"V2": [int(np.float32(x).view(np.uint32)) for x in fa], "V3": [0x3F800000] * wave,
                                 "V5": a, "V6": b, "V8": [4 * ((i + 3) % wave) for i in range(wave)]}, wave=wave)
    assert v(st, "V1") == [int(np.float32(x + 1.0).view(np.uint32)) for x in fa]
    assert v(st, "V4") == [min(x + y, 0xFFFFFFFF) for x, y in zip(a, b)]
    assert v(st, "V7") == [a[(i + 3) % wave] for i in range(wave)]


def test_wave_size_of_a_generation_is_checked():
    with pytest.raises(gpuisa.semantics.machine.MachineError, match="allowed: 32"):
        gpuisa.run("gfx1250", "v_add_f32 v1, v2, v3", wave=64)
    with pytest.raises(gpuisa.semantics.machine.MachineError, match="allowed: 64"):
        gpuisa.run("gfx942", "v_add_f32 v1, v2, v3", wave=32)


@pytest.mark.parametrize("arch,wave", [("rdna3.5", 32), ("rdna4", 64)])
def test_permlane_source_lanes_outside_exec(arch, wave):
    """A select naming a lane outside EXEC: its value with FI (op_sel[0]); else 0 with BOUND_CTRL (op_sel[1]) or the
    destination kept (the DPP rule the instructions' fi/bound_ctrl operands select)."""
    lane = np.arange(wave)
    src, old, lo, hi = np.array(vals(wave)), np.array(vals(wave)), *vals(2)
    mask = int(RNG.integers(0, 1 << 62)) & ((1 << wave) - 1) | 1
    act = (mask >> lane) & 1 == 1
    for name, row in (("v_permlane16_b32", lane & ~15), ("v_permlanex16_b32", (lane & ~15) ^ 16)):
        from_lane = row | nibbles(lo, hi)[lane & 15]
        for fi, bc in ((0, 0), (1, 0), (0, 1)):
            st = gpuisa.run(arch, f"{name} v1, v2, s4, s5 op_sel:[{fi},{bc}]",
                            {"V2": list(src), "V1": list(old), "S4": lo, "S5": hi, "EXEC": mask}, wave=wave)
            got = np.where(act[from_lane] | bool(fi), src[from_lane], 0 if bc else old)
            assert v(st, "V1") == list(np.where(act, got, old)), (arch, name, fi, bc)


# checked above against the lane model, all lanes' sources active (fidelity.REFERENCE_FAMILIES)
CHECKED = ("v_readlane_b32", "v_writelane_b32", "v_readfirstlane_b32", "v_swap_b32", "v_swap_b16",
           "v_permlane16_swap_b32", "v_permlane32_swap_b32")
