"""gpuisa.run / gpuisa run: sequences on one wave (branches, EXEC, memory, LDS) and LLVM's f32 division.

Expected values are computed here independently (numpy float32 arithmetic, Python integers,
hand-written lane rules), never by the code under test.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest
from conftest import run_cli

import gpuisa
from gpuisa.semantics import compiler, seqfast, wave
from gpuisa.semantics.machine import MachineError
from gpuisa.semantics.program import parse

# What `llc-22 -mtriple=amdgcn -mcpu=gfx1200` emits for `fdiv float %a, %b` (a in v0, b in v1,
# the quotient in v0), written out once from its output; s_delay_alu lines are scheduling hints.
FDIV_GFX1200 = """
    v_div_scale_f32 v2, null, v1, v1, v0
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(TRANS32_DEP_1)
    v_rcp_f32_e32 v3, v2
    v_fma_f32 v4, -v2, v3, 1.0
    s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)
    v_fmac_f32_e32 v3, v4, v3
    v_div_scale_f32 v4, vcc_lo, v0, v1, v0
    v_mul_f32_e32 v5, v4, v3
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f32 v6, -v2, v5, v4
    v_fmac_f32_e32 v5, v6, v3
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f32 v2, -v2, v5, v4
    v_div_fmas_f32 v2, v2, v3, v5
    s_delay_alu instid0(VALU_DEP_1)
    v_div_fixup_f32 v0, v2, v1, v0
"""
_FDIV_IR = "define amdgpu_ps float @f(float %a, float %b) {\n  %q = fdiv float %a, %b\n  ret float %q\n}\n"

# The same for `fdiv double` (a in v[0:1], b in v[2:3], the quotient in v[0:1]; the
# v_readfirstlane lines that follow, which return it in SGPRs, left out).
FDIV64_GFX1200 = """
    v_div_scale_f64 v[4:5], null, v[2:3], v[2:3], v[0:1]
    v_div_scale_f64 v[10:11], vcc_lo, v[0:1], v[2:3], v[0:1]
    s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(TRANS32_DEP_1)
    v_rcp_f64_e32 v[6:7], v[4:5]
    v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
    v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
    v_mul_f64_e32 v[8:9], v[10:11], v[6:7]
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f64 v[4:5], -v[4:5], v[8:9], v[10:11]
    v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[8:9]
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_div_fixup_f64 v[0:1], v[4:5], v[2:3], v[0:1]
"""
_FDIV64_IR = "define amdgpu_ps double @f(double %a, double %b) {\n  %q = fdiv double %a, %b\n  ret double %q\n}\n"


def _division_operands(n: int = 10_000, w: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Random binary-w pairs: a third random bit patterns (NaN, inf, denormals included), a third with
    denormal numerators or denominators, a third with huge/tiny magnitudes (overflowing and
    underflowing quotients)."""
    rng = np.random.default_rng(2026 if w == 32 else 2064)
    ut, ft, mant = (np.uint32, np.float32, 23) if w == 32 else (np.uint64, np.float64, 52)
    k, m = n // 3, n - 2 * (n // 3)
    sign = ut(w - 1)
    raw = rng.integers(0, 2**w, size=(2, k), dtype=np.uint64).astype(ut)
    den = rng.integers(1, 1 << mant, size=(2, k), dtype=ut) | (rng.integers(0, 2, (2, k), dtype=ut) << sign)
    mix = rng.integers(0, 2**w, size=(2, k), dtype=np.uint64).astype(ut)
    den[0, : k // 2] = mix[0, : k // 2]  # denormal denominators over normal numerators, and the reverse
    den[1, k // 2:] = mix[1, k // 2:]
    exps = [1, 2, 3, 20, 40, 200, 230, 250, 253, 254] if w == 32 else [1, 2, 3, 40, 60, 300, 700, 1600, 1900,
                                                                      2000, 2040, 2045, 2046]
    exps = rng.choice(exps, size=(2, m)).astype(ut)
    big = (exps << ut(mant)) | rng.integers(0, 1 << mant, size=(2, m), dtype=ut) \
        | (rng.integers(0, 2, (2, m), dtype=ut) << sign)
    bits = np.concatenate([raw, den, big], axis=1)
    return bits[0].view(ft), bits[1].view(ft)


def _run_division(program: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    prog = parse("rdna4", program, 32)  # (llc's default wave size for gfx1200: vcc_lo)
    w = a.dtype.itemsize * 8
    out = np.empty(len(a), dtype=np.uint32 if w == 32 else np.uint64)
    for i in range(0, len(a), 32):
        aa, bb = a[i:i + 32].view(out.dtype), b[i:i + 32].view(out.dtype)
        if w == 32:
            regs = {"V0": aa.astype(np.int64), "V1": bb.astype(np.int64)}
        else:  # one 32-bit half per register
            lo, hi = np.uint64(0xFFFFFFFF), np.uint64(32)
            regs = {"V0": (aa & lo).astype(np.int64), "V1": (aa >> hi).astype(np.int64),
                    "V2": (bb & lo).astype(np.int64), "V3": (bb >> hi).astype(np.int64)}
        st = gpuisa.run("rdna4", prog, {**regs, "EXEC": (1 << len(aa)) - 1})
        got = np.asarray(st["V0"][:len(aa)], dtype=np.uint64) & np.uint64(0xFFFFFFFF)
        if w == 64:
            got |= (np.asarray(st["V1"][:len(aa)], dtype=np.uint64) & np.uint64(0xFFFFFFFF)) << np.uint64(32)
        out[i:i + len(aa)] = got
    return out


def _division_mismatches(got: np.ndarray, a: np.ndarray, b: np.ndarray) -> list:
    with np.errstate(all="ignore"):
        want = (a / b).astype(a.dtype)
    g = got.view(a.dtype)
    wb = want.view(got.dtype)
    same = (got == wb) | (np.isnan(g) & np.isnan(want))
    return [(float(a[i]), float(b[i]), hex(int(got[i])), hex(int(wb[i]))) for i in np.flatnonzero(~same)]


def test_llvm_f32_division_is_correctly_rounded():
    a, b = _division_operands()
    bad = _division_mismatches(_run_division(FDIV_GFX1200, a, b), a, b)
    assert not bad, f"{len(bad)} of {len(a)} quotients differ, e.g. {bad[:3]}"


def test_llvm_f32_division_ordinary_operands():
    """Quotients of normal operands whose quotient is normal: no scaling path is taken."""
    rng = np.random.default_rng(7)
    a = (rng.uniform(1, 2, 3000) * 2.0 ** rng.integers(-40, 40, 3000)).astype(np.float32)
    b = (rng.uniform(1, 2, 3000) * 2.0 ** rng.integers(-40, 40, 3000) * rng.choice([-1, 1], 3000)).astype(np.float32)
    bad = _division_mismatches(_run_division(FDIV_GFX1200, a, b), a, b)
    assert not bad, f"{len(bad)} quotients differ, e.g. {bad[:3]}"


def test_llvm_f64_division_is_correctly_rounded():
    a, b = _division_operands(w=64)
    with np.errstate(all="ignore"):
        assert np.count_nonzero(np.isinf(a / b) & np.isfinite(a) & np.isfinite(b)) > 100  # overflowing quotients
    bad = _division_mismatches(_run_division(FDIV64_GFX1200, a, b), a, b)
    assert not bad, f"{len(bad)} of {len(a)} quotients differ, e.g. {bad[:3]}"


def test_llvm_division_denormal_quotients():
    """Quotients in and just above the denormal range, where div_fmas must scale and round once."""
    rng = np.random.default_rng(11)
    for ft, lo, prog in ((np.float32, -152, FDIV_GFX1200), (np.float64, -1077, FDIV64_GFX1200)):
        q = 2.0 ** rng.integers(lo, lo + 40, 2000) * rng.uniform(1, 2, 2000)
        b = (rng.uniform(1, 2, 2000) * 2.0 ** rng.integers(-20, 20, 2000)).astype(ft)
        a = (q * b).astype(ft)
        bad = _division_mismatches(_run_division(prog, a, b), a, b)
        assert not bad, f"{ft.__name__}: {len(bad)} quotients differ, e.g. {bad[:3]}"


@pytest.mark.parametrize("ft", [np.float32, np.float64])
def test_llvm_division_on_special_values(ft):
    """Every pair of format edges (zeros, denormal and normal limits, the largest values, infinities,
    NaN) and their neighbours."""
    fi = np.finfo(ft)
    edges = [0.0, fi.smallest_subnormal, 3 * fi.smallest_subnormal, fi.tiny / 2, fi.tiny, 1.5 * fi.tiny, 1.0, 1.5, 3.0,
             fi.eps, fi.max / 2, fi.max, 2.0 ** (fi.maxexp - 2), 1.5 * 2.0 ** (fi.maxexp - 1), np.inf, np.nan]
    with np.errstate(all="ignore"):
        v = np.array(edges, dtype=ft)
        v = np.concatenate([v, -v, np.nextafter(v, ft(np.inf)), np.nextafter(v, ft(0))])
    a, b = np.repeat(v, len(v)), np.tile(v, len(v))
    bad = _division_mismatches(_run_division(FDIV_GFX1200 if ft == np.float32 else FDIV64_GFX1200, a, b), a, b)
    assert not bad, f"{len(bad)} of {len(a)} quotients differ, e.g. {bad[:3]}"


@pytest.mark.skipif(shutil.which("llc-22") is None, reason="llc-22 not installed")
@pytest.mark.parametrize("ir,kept", [(_FDIV_IR, FDIV_GFX1200), (_FDIV64_IR, FDIV64_GFX1200)], ids=["f32", "f64"])
def test_llc_still_emits_the_kept_division(tmp_path, ir, kept):
    ll = tmp_path / "fdiv.ll"
    ll.write_text(ir)
    asm = subprocess.run(["llc-22", "-mtriple=amdgcn", "-mcpu=gfx1200", str(ll), "-o", "-"], capture_output=True,
                         text=True, check=True).stdout
    body = asm.split("f:", 1)[1].split(".Lfunc_end0", 1)[0]
    got = [ln.split(";")[0].strip() for ln in body.splitlines() if ln.strip().startswith("v_div_fixup")
           or (ln.strip().startswith("v_") and not ln.strip().startswith("v_readfirstlane"))]
    assert got == [ln.strip() for ln in kept.splitlines() if ln.strip().startswith("v_")]


# ------------------------------------------------------------------ control flow, EXEC, scalar state

LOOP = """
    s_mov_b32 s0, 0          ; sum
    s_mov_b32 s1, 1          ; i
.Lloop:
    s_add_co_u32 s0, s0, s1
    s_add_co_u32 s1, s1, 1
    s_cmp_le_u32 s1, 10
    s_cbranch_scc1 .Lloop
    v_mov_b32 v0, s0
    s_endpgm
    v_mov_b32 v0, 99         ; not reached
"""


def test_loop_with_labels_and_scc_branch():
    st = gpuisa.run("rdna4", LOOP)
    assert st["S0"] == 55 and st["S1"] == 11 and list(st["V0"][:4]) == [55] * 4


def test_exec_masking_with_saveexec_and_divergent_branch():
    prog = """
        v_cmp_gt_u32 vcc_lo, 4, v0            ; lanes 0..3
        s_and_saveexec_b32 s10, vcc_lo
        s_cbranch_execz .Lskip
        v_add_nc_u32 v1, v0, 100
    .Lskip:
        s_mov_b32 exec_lo, s10
        v_add_nc_u32 v2, v0, 1
    """
    st = gpuisa.run("rdna4", prog, {"V0": list(range(8)), "V1": 7, "EXEC": 0xFF})
    assert list(st["V1"][:8]) == [100, 101, 102, 103, 7, 7, 7, 7]
    assert list(st["V2"][:8]) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert st["EXEC"] == 0xFF and st["S10"] == 0xFF


def test_vcc_carry_chain_64_bit_add():
    a = [(1 << 32) - 1, 5, (1 << 64) - 1, 123456789 << 20]
    b = [1, 7, 2, 987654321 << 10]
    prog = """
        v_add_co_u32 v4, vcc_lo, v0, v2
        v_add_co_ci_u32_e32 v5, vcc_lo, v1, v3, vcc_lo
    """
    state = {"V0": [x & 0xFFFFFFFF for x in a], "V1": [x >> 32 for x in a],
             "V2": [x & 0xFFFFFFFF for x in b], "V3": [x >> 32 for x in b], "EXEC": 0xF}
    st = gpuisa.run("rdna4", prog, state)
    got = [int(lo) | (int(hi) << 32) for lo, hi in zip(st["V4"][:4], st["V5"][:4])]
    assert got == [(x + y) & ((1 << 64) - 1) for x, y in zip(a, b)]
    assert st["VCC"] == 0b0100  # only lane 2 carries out of 64 bits


def test_wave64_compare_writes_a_vcc_pair():
    st = gpuisa.run("rdna4", "v_cmp_lt_u32 vcc, v0, 40", {"V0": list(range(64))}, wave=64)
    assert st["VCC"] == (1 << 40) - 1 and st["S[0:1]"] == 0


# ------------------------------------------------------------------ memory


def test_global_scalar_and_atomic_memory():
    prog = """
        s_load_b64 s[4:5], s[0:1], 0x8
        s_wait_kmcnt 0
        v_lshlrev_b32 v1, 2, v0
        global_load_b32 v2, v1, s[4:5]
        s_wait_loadcnt 0
        v_mul_lo_u32 v3, v2, 3
        global_store_b32 v1, v3, s[4:5] offset:64
        v_mov_b32 v5, 1
        global_atomic_add_u32 v4, v6, v5, s[4:5] th:TH_ATOMIC_RETURN
    """
    state = {"S[0:1]": 0x1000, "MEM:0x1008": [0x2000, 0], "MEM:0x2000": [10, 20, 30, 40], "V0": [0, 1, 2, 3],
             "V6": 0x100, "MEM:0x2100": 500, "EXEC": 0xF}
    st = gpuisa.run("rdna4", prog, state)
    assert st["S[4:5]"] == 0x2000
    assert list(st["V2"][:4]) == [10, 20, 30, 40]
    assert st.mem.read_u32(0x2040, 4) == [30, 60, 90, 120]
    assert st.mem.read_u32(0x2100) == [504]
    assert sorted(int(x) for x in st["V4"][:4]) == [500, 501, 502, 503]


def test_buffer_descriptor_offsets_and_range_check():
    # base 0x3000, stride 0, num_records 12 bytes: the fourth dword is out of range (reads 0)
    desc = {"S4": 0x3000, "S5": 0, "S6": 12, "S7": 0}
    prog = """
        v_lshlrev_b32 v1, 2, v0
        buffer_load_b32 v2, v1, s[4:7], s3 offen offset:4
        buffer_store_b32 v0, v1, s[4:7], null offen offset:32
    """
    st = gpuisa.run("rdna4", prog, {**desc, "S3": 0, "V0": [0, 1, 2, 3], "MEM:0x3004": [7, 8, 9, 10], "EXEC": 0xF})
    assert list(st["V2"][:4]) == [7, 8, 0, 0]  # offsets 4, 8 fit; 12 and 16 + 4 bytes exceed 12
    assert st.mem.read_u32(0x3020, 4) == [0, 0, 0, 0]  # offset 32 + 4 > 12: every store dropped


def test_lds_store_load_and_atomic():
    prog = """
        v_lshlrev_b32 v1, 2, v0
        ds_store_b32 v1, v0 offset:16
        s_wait_dscnt 0
        ds_load_b32 v2, v1 offset:16
        v_mov_b32 v3, 0
        v_mov_b32 v4, 5
        ds_add_u32 v3, v4
        ds_load_b32 v5, v3
    """
    st = gpuisa.run("rdna4", prog, {"V0": [3, 1, 4, 1, 5], "EXEC": 0x1F})
    assert list(st["V2"][:5]) == [3, 1, 4, 1, 5]  # lanes 1 and 3 store to the same address: last lane wins
    assert list(st["V5"][:5]) == [25] * 5


# ------------------------------------------------------------------ kernels, errors, CLI


@pytest.mark.parametrize("name", ["v_fma_f32", "v_fmac_f32", "v_max_num_f32", "v_min_num_f32"])
def test_kernels_give_the_pseudocode_bits(name):
    prog = compiler.program("rdna4", name)
    kern = seqfast.kernel(prog)
    assert kern is not None
    rng = np.random.default_rng(3)
    special = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 1, 0x807FFFFF, 0x3F800000,
                        0x7F7FFFFF, 0x00800000, 0x33800000, 0x3F800001, 0xBF7FFFFF], dtype=np.int64)
    ctx = wave.Context(64, 64, "rdna4")
    for trial in range(60):
        regs = {}
        for r in ("S0", "S1", "S2", "D0"):
            bits = rng.integers(0, 2**32, 64, dtype=np.int64)
            if trial % 2:
                bits = np.where(rng.random(64) < 0.5, rng.choice(special, 64), bits)
            if trial % 3 == 0:  # nearby magnitudes: cancellation and ties
                bits = (0x3F800000 + rng.integers(-40, 40, 64)) | (rng.integers(0, 2, 64) << 31)
            regs[r] = bits
        mask = None if trial % 4 else rng.random(64) < 0.7
        with np.errstate(all="ignore"):
            ctx.state.clear()
            want = prog.fn(dict(regs), mask, ctx)["D0"] & 0xFFFFFFFF
            want_state = dict(ctx.state)
            ctx.state.clear()
            got = kern(dict(regs), mask, ctx)["D0"] & 0xFFFFFFFF
        assert np.array_equal(want, got), (name, trial)
        assert ctx.state == want_state


def test_fma_kernel_rounds_once():
    """A case where rounding a*b+c to binary64 first would round twice (checked with integers)."""
    a, b = np.float32(1 + 2.0 ** -12), np.float32(1 + 2.0 ** -12)  # a*b = 1 + 2^-11 + 2^-24 exactly
    c = np.float32(2.0 ** -60)  # binary64 would round the sum to a binary32 halfway point, then to even
    st = gpuisa.run("rdna4", "v_fma_f32 v3, v0, v1, v2", {"V0": float(a), "V1": float(b), "V2": float(c)})
    exact = (1 << 60) + (1 << 49) + (1 << 36) + 1  # (a*b + c) * 2^60
    mant, rest = exact >> 37, exact & ((1 << 37) - 1)  # 24-bit significand (units of 2^-23) and the rest
    mant += rest > (1 << 36) or (rest == (1 << 36) and mant & 1)
    assert float(st.f32("V3")[0]) == mant * 2.0 ** -23 == 1 + 2.0 ** -11 + 2.0 ** -23


def test_errors_are_one_line():
    with pytest.raises(MachineError, match="line 2: .*unknown instruction"):
        gpuisa.run("rdna4", "v_mov_b32 v0, 1\nv_frobnicate v1, v2")
    with pytest.raises(MachineError, match="unknown label"):
        gpuisa.run("rdna4", "s_branch .Lnowhere")
    with pytest.raises(MachineError, match="did not finish"):
        gpuisa.run("rdna4", ".L0:\n s_branch .L0", max_steps=1000)
    with pytest.raises(MachineError, match="wave size 32"):
        gpuisa.run("cdna4", "v_mov_b32 v0, 1", wave=32)


def test_cli_run_text_json_and_errors(tmp_path, cli_env):
    src = tmp_path / "loop.s"
    src.write_text(LOOP)
    r = run_cli(["run", "--arch", "rdna4", str(src), "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)["changed"]
    assert d["S0"] == 55 and d["V0"][:2] == [55, 55]
    r = run_cli(["run", "--arch", "rdna4", str(src), "V3=1.5", "EXEC=0x3"], cli_env)
    assert r.returncode == 0, r.stderr and "S0" in r.stdout and "0x37" in r.stdout
    bad = tmp_path / "bad.s"
    bad.write_text("v_mov_b32 v0, 1\ns_branch .Lx\n")
    r = run_cli(["run", "--arch", "rdna4", str(bad)], cli_env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "unknown label" in r.stderr
    r = run_cli(["run", "--arch", "rdna4", str(src), "V999=1"], cli_env)
    assert r.returncode == 2 and "out of range" in r.stderr


def test_dual_issue_reads_before_writes():
    st = gpuisa.run("rdna4", "v_dual_add_f32 v1, v2, v3 :: v_dual_mul_f32 v4, v1, v6",
                    {"V1": 10.0, "V2": 1.0, "V3": 2.0, "V6": 3.0})
    assert float(st.f32("V1")[0]) == 3.0 and float(st.f32("V4")[0]) == 30.0  # Y saw v1 = 10
    st = gpuisa.run("rdna4", "v_dual_fmac_f32 v1, v2, v3 :: v_dual_cndmask_b32 v4, v5, v6",
                    {"V1": 1.0, "V2": 2.0, "V3": 3.0, "V5": 5, "V6": 6, "VCC": 1})
    assert float(st.f32("V1")[0]) == 7.0 and list(st["V4"][:2]) == [6, 5]


def test_true16_halves_on_rdna35():
    one, two, three = 0x3C00, 0x4000, 0x4200  # f16 1.0, 2.0, 3.0
    st = gpuisa.run("rdna3.5", "v_add_f16 v1.h, v2.l, v3.h", {"V1": 0x1234, "V2": one, "V3": two << 16})
    assert int(st["V1"][0]) == three << 16 | 0x1234
    st = gpuisa.run("rdna3.5", "v_add_f16 v1.l, v2.h, v3.l", {"V1": 0x1234 << 16, "V2": one << 16, "V3": two})
    assert int(st["V1"][0]) == 0x1234 << 16 | three


def test_movrel_indexes_the_vgpr_file_by_m0():
    st = gpuisa.run("rdna4", "s_mov_b32 m0, 2\nv_movrels_b32 v1, v3\nv_movreld_b32 v10, v1", {"V5": [7, 8]})
    assert list(st["V1"][:2]) == [7, 8] and list(st["V12"][:2]) == [7, 8] and int(st["V10"][0]) == 0


CDNA_MEMORY = """
    s_load_dwordx2 s[4:5], s[0:1], 0x8
    s_waitcnt lgkmcnt(0)
    v_lshlrev_b32 v1, 2, v0
    v_mov_b32 v3, s5
    v_add_co_u32_e32 v2, vcc, s4, v1
    v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
    global_load_dword v4, v[2:3], off offset:4
    s_waitcnt vmcnt(0)
    v_cmp_lt_u32_e64 s[8:9], v4, 25
    v_cndmask_b32_e64 v5, 64, v4, s[8:9]
    s_and_saveexec_b64 s[10:11], s[8:9]
    ds_write_b32 v1, v4
    ds_read_b32 v6, v1
    s_mov_b64 exec, s[10:11]
    buffer_load_dword v7, v1, s[12:15], 0 offen
    v_mov_b32 v9, 5
    global_atomic_add v[2:3], v9, off
"""


def test_cdna_wave64_memory_and_masks():
    state = {"S[0:1]": 0x1000, "MEM:0x1008": [0x2000, 0], "MEM:0x2004": [10, 20, 30, 40], "V0": [0, 1, 2, 3],
             "EXEC": 0xF, "S12": 0x2004, "S13": 0, "S14": 8, "S15": 0}  # buffer: base 0x2004, 8 bytes
    st = gpuisa.run("cdna4", CDNA_MEMORY, state)
    assert st.wave == 64 and st["S[4:5]"] == 0x2000
    assert list(st["V4"][:4]) == [10, 20, 30, 40]
    assert st["S[8:9]"] == 0b0011 and list(st["V5"][:4]) == [10, 20, 64, 64]  # (GFX9: no literal in VOP3, llvm-mc-22)
    assert list(st["V6"][:4]) == [10, 20, 0, 0]  # LDS only under the saved EXEC
    assert list(st["V7"][:4]) == [10, 20, 0, 0]  # offsets 8 and 12 are past num_records
    assert st.mem.read_u32(0x2000, 5) == [5, 15, 25, 35, 40] and st["EXEC"] == 0xF


def test_machine_code_with_a_backward_branch(tmp_path, cli_env):
    lines = ["s_mov_b32 s0, 0", "s_mov_b32 s1, 1", "s_add_co_u32 s0, s0, s1", "s_add_co_u32 s1, s1, 1",
             "s_cmp_le_u32 s1, 10", "s_cbranch_scc1 0xfffc", "v_mov_b32 v0, s0", "s_endpgm"]
    code = b"".join(gpuisa.encode("rdna4", line) for line in lines)
    assert len(code) == 32  # eight 4-byte instructions: the branch goes back 4 words to the add
    st = gpuisa.run("rdna4", code)
    assert st["S0"] == 55 and int(st["V0"][0]) == 55
    src = tmp_path / "loop.hex"
    src.write_text(code.hex())
    r = run_cli(["run", "--arch", "rdna4", "--hex", str(src), "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["changed"]["S0"] == 55


def test_sopk_immediates_and_cross_lane_moves():
    st = gpuisa.run("rdna4", "s_movk_i32 s2, 0x1234\ns_addk_co_i32 s2, 0xfff0\ns_mulk_i32 s2, 3")
    assert st["S2"] == 3 * (0x1234 - 16)  # the immediate is sign-extended
    assert gpuisa.run("cdna4", "s_movk_i32 s2, 0x1234\ns_cmpk_eq_u32 s2, 0x1234")["SCC"] == 1
    st = gpuisa.run("rdna4", "v_readfirstlane_b32 s1, v2\nv_readlane_b32 s3, v2, 0\nv_writelane_b32 v4, s1, 5",
                    {"V2": [5, 6, 7], "EXEC": 0b110})
    assert st["S1"] == 6 and st["S3"] == 5 and int(st["V4"][5]) == 6 and int(st["V4"][1]) == 0
    with pytest.raises(MachineError, match="reads PC"):
        gpuisa.run("rdna4", "s_getpc_b64 s[0:1]")


def test_structured_buffer_index_and_stride():
    # stride 16 bytes (descriptor dword 1, bits 16-29), num_records 3 elements: index 3 reads 0
    desc = {"S4": 0x4000, "S5": 16 << 16, "S6": 3, "S7": 0}
    st = gpuisa.run("rdna4", "buffer_load_b32 v2, v0, s[4:7], null idxen offset:4",
                    {**desc, "V0": [0, 1, 2, 3], "EXEC": 0xF, "MEM:0x4000": list(range(100, 116))})
    assert list(st["V2"][:4]) == [101, 105, 109, 0]  # words at 0x4000 + 16 * index + 4


# llc-22 -mtriple=amdgcn -mcpu=gfx1200 for: s = 0; for (i = 0; i < n; i++) s += a * (float)i; (n uniform in s0)
LLC_LOOP = """
g:                                      ; @g
    v_dual_mov_b32 v1, v0 :: v_dual_mov_b32 v0, 0
    s_mov_b32 s1, 0
.LBB0_1:                                ; %loop
    s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_1) | instid1(SALU_CYCLE_1)
    s_cvt_f32_i32 s2, s1
    s_add_co_i32 s1, s1, 1
    s_cmp_lt_i32 s1, s0
    s_wait_alu depctr_sa_sdst(0)
    v_mul_f32_e32 v2, s2, v1
    s_delay_alu instid0(VALU_DEP_1)
    v_add_f32_e32 v0, v0, v2
    s_cbranch_scc1 .LBB0_1
.Lfunc_end0:
    .size g, .Lfunc_end0-g
"""


def test_llc_loop_listing_runs_as_is():
    a = np.array([1.5, -2.25, 1e-3, 3e30], dtype=np.float32)
    st = gpuisa.run("rdna4", LLC_LOOP, {"V0": [float(x) for x in a], "S0": 37, "EXEC": 0xF})
    want = np.zeros(4, dtype=np.float32)
    for i in range(37):
        want = want + a * np.float32(i)  # float32 rounding at each step, as the loop does
    assert st.f32("V0")[:4].tolist() == want.tolist() and st["S1"] == 37


# llc-22 -mtriple=amdgcn -mcpu=gfx1200 for a kernel: out[id] = in[id] < 0 ? 1 / in[id] : in[id]
# (kernel arguments through s[4:5], the lane id in v0; a divergent branch around the division)
LLC_KERNEL = """
k:
    s_load_b128 s[0:3], s[4:5], 0x24
    v_and_b32_e32 v0, 0x3ff, v0
    s_delay_alu instid0(VALU_DEP_1)
    v_lshlrev_b32_e32 v0, 2, v0
    s_wait_kmcnt 0x0
    global_load_b32 v1, v0, s[2:3]
    s_mov_b32 s2, exec_lo
    s_wait_loadcnt 0x0
    v_cmpx_gt_f32_e32 0, v1
    s_cbranch_execz .LBB0_2
    v_div_scale_f32 v2, null, v1, v1, 1.0
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(TRANS32_DEP_1)
    v_rcp_f32_e32 v3, v2
    v_fma_f32 v4, -v2, v3, 1.0
    s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)
    v_fmac_f32_e32 v3, v4, v3
    v_div_scale_f32 v4, vcc_lo, 1.0, v1, 1.0
    v_mul_f32_e32 v5, v4, v3
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f32 v6, -v2, v5, v4
    v_fmac_f32_e32 v5, v6, v3
    s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)
    v_fma_f32 v2, -v2, v5, v4
    v_div_fmas_f32 v2, v2, v3, v5
    s_delay_alu instid0(VALU_DEP_1)
    v_div_fixup_f32 v1, v2, v1, 1.0
.LBB0_2:
    s_or_b32 exec_lo, exec_lo, s2
    global_store_b32 v0, v1, s[0:1]
    s_endpgm
"""


def test_llc_kernel_with_divergent_branch_and_memory():
    vals = np.array([1.5, -2.0, -0.25, 3.0, -8.0, 0.0, -1e-3, 7.0], dtype=np.float32)
    state = {"S[4:5]": 0x100, "MEM:0x124": [0x1000, 0, 0x2000, 0], "V0": list(range(8)), "EXEC": 0xFF,
             "MEM:0x2000": vals.view(np.uint32).astype(np.int64).tolist()}
    st = gpuisa.run("rdna4", LLC_KERNEL, state)
    out = np.array(st.mem.read_u32(0x1000, 8), dtype=np.uint32).view(np.float32)
    with np.errstate(divide="ignore"):
        want = np.where(vals < 0, np.float32(1) / vals, vals)
    assert out.tolist() == want.tolist() and st["EXEC"] == 0xFF


def test_scratch_is_private_per_lane():
    prog = """
        v_mov_b32 v2, 16
        scratch_store_b32 v2, v0, off offset:8
        scratch_load_b32 v1, v2, off offset:8
        s_mov_b32 s3, 20
        scratch_load_b32 v3, off, s3 offset:4
    """
    st = gpuisa.run("rdna4", prog, {"V0": [5, 6, 7], "EXEC": 0b111})
    assert list(st["V1"][:3]) == [5, 6, 7] and list(st["V3"][:3]) == [5, 6, 7]  # same address, own values
    assert st.mem.nonzero_words() == {}
