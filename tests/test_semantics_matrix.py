"""Matrix instructions (WMMA, SWMMAC, MFMA, SMFMAC) against numpy matmul over whole tiles.

The test packs each matrix into registers with its own element -> (register, lane)
equations, written here in the direction AMD's Matrix Instruction Calculator states
them (github.com/ROCm/amd_matrix_instruction_calculator: "A[i][k].block GPR / Lane",
"C or D[i][j] GPR / Lane"), the inverse of the (lane, element) -> entry mapping that
gpuisa implements, and compares D with ``A @ B + C`` from numpy.  Operand widths are
checked against the AMD XML operand sizes in the store (an independent source).
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuisa.semantics import evaluate, fidelity, matrix

# (arch, name) pairs this file checks against numpy; fidelity may claim "exact" only for these
CDNA_DENSE = ("v_mfma_f32_32x32x1_2b_f32", "v_mfma_f32_16x16x1_4b_f32", "v_mfma_f32_4x4x1_16b_f32",
              "v_mfma_f32_32x32x2_f32", "v_mfma_f32_16x16x4_f32", "v_mfma_f32_32x32x4_2b_f16",
              "v_mfma_f32_16x16x4_4b_f16", "v_mfma_f32_4x4x4_16b_f16", "v_mfma_f32_32x32x8_f16",
              "v_mfma_f32_16x16x16_f16", "v_mfma_f32_32x32x4_2b_bf16", "v_mfma_f32_16x16x4_4b_bf16",
              "v_mfma_f32_4x4x4_16b_bf16", "v_mfma_f32_32x32x8_bf16", "v_mfma_f32_16x16x16_bf16",
              "v_mfma_i32_32x32x4_2b_i8", "v_mfma_i32_16x16x4_4b_i8", "v_mfma_i32_4x4x4_16b_i8",
              "v_mfma_f64_16x16x4_f64", "v_mfma_f64_4x4x4_4b_f64")
RDNA3 = ("v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16", "v_wmma_f16_16x16x16_f16",
         "v_wmma_bf16_16x16x16_bf16", "v_wmma_i32_16x16x16_iu8", "v_wmma_i32_16x16x16_iu4")
CHECKED = {("cdna4", n) for n in CDNA_DENSE} | {("rdna3.5", n) for n in RDNA3}

RNG = np.random.default_rng(7)


def _codes(vals: np.ndarray, kind: str) -> np.ndarray:
    if kind == "f16":
        return vals.astype(np.float16).view(np.uint16).astype(np.int64)
    if kind == "bf16":  # small integers are exact in bf16: the top half of the f32 pattern
        return (vals.astype(np.float32).view(np.uint32) >> 16).astype(np.int64)
    if kind == "f32":
        return vals.astype(np.float32).view(np.uint32).astype(np.int64)
    if kind == "f64":
        return vals.astype(np.float64).view(np.uint64)
    if kind in ("fp8", "bf8"):  # exact small integers by table search
        from gpuisa.semantics.floats import MINI

        table = MINI[kind].table
        return np.array([int(np.flatnonzero(table == v)[0]) for v in vals.ravel()]).reshape(vals.shape)
    return vals.astype(np.int64) & 0xFF if kind in ("i8", "u8") else vals.astype(np.int64) & 0xF


def _values(shape, kind):
    if kind in ("u8",):
        return RNG.integers(0, 256, shape)
    if kind == "u4":
        return RNG.integers(0, 16, shape)
    if kind == "i8":
        return RNG.integers(-128, 128, shape)
    return RNG.integers(-4, 5, shape).astype(np.float64)  # exact in every float format


def _put(regs, lane, slot, bits, code):
    regs[lane] |= (int(code) & ((1 << bits) - 1)) << (slot * bits)


def _out_decode(code: int, out: str) -> float | int:
    if out == "f32":
        return float(np.array([code], dtype=np.uint32).view(np.float32)[0])
    if out == "f16":
        return float(np.array([code], dtype=np.uint16).view(np.float16)[0])
    if out == "bf16":
        return float(np.array([code << 16], dtype=np.uint32).view(np.float32)[0])
    if out == "f64":
        return float(np.array([code], dtype=np.uint64).view(np.float64)[0])
    return code - (1 << 32) if code >> 31 else code


def _cdna_in_pos(s, which, i, k, blk):
    """Calculator, gfx9: A[i][k].block / B[k][j].block -> (lane, element in the lane)."""
    outer = s.M if which == "a" else s.N
    bits = s.a[1]
    if bits == 64:
        return i + outer * blk + 16 * k, 0
    epl = outer * s.K * s.blocks // 64
    if s.blocks > 1:
        return i + outer * blk, k
    return i + outer * (k // epl), k % epl


def _cdna_out_pos(s, i, j, blk):
    """Calculator, gfx9: C or D[i][j].block -> (lane, element)."""
    M, N, B = s.M, s.N, s.blocks
    if s.out_bits == 64:
        return (j + 16 * (i % 4), i // 4) if B == 1 else (j + 4 * blk + 16 * i, 0)
    if M == 4:
        return j + 4 * blk, i
    per = M * N // 64
    lane = j + N * ((i // 4) % (64 // N))
    gpr = (i // 8) * 4 + i % 4 if M == 32 else i % 4
    return lane, gpr + per * blk


def _rdna3_in_pos(s, wave, i, k):
    return [i + 16 * c for c in range(wave // 16)], k


def _rdna3_out_pos(s, wave, i, j):
    rows = wave // 16
    lane = (16 * i + j) % wave
    return lane, (i // rows) * (2 if s.out_bits == 16 else 1)


def _rdna4_in_pos(s, wave, i, k):
    """Our reading of the RDNA4 guide (untested on hardware): lane half selects K in blocks of 8."""
    return [i + 16 * ((k // 8) % 2)], (k // 16) * 8 + k % 8


def _rdna4_out_pos(s, wave, i, j):
    return j + 16 * (i // 8), i % 8


RDNA4 = ("v_wmma_f32_16x16x16_f16", "v_wmma_f16_16x16x16_f16", "v_wmma_bf16_16x16x16_bf16",
         "v_wmma_i32_16x16x16_iu8", "v_wmma_i32_16x16x32_iu4", "v_wmma_f32_16x16x16_fp8_bf8")


def _out_pos(s, wave, i, j, blk):
    if s.gen == "cdna":
        return _cdna_out_pos(s, i, j, blk)
    return (_rdna3_out_pos if s.gen == "rdna3" else _rdna4_out_pos)(s, wave, i, j)


def _run_tile(arch, name, wave):
    s = matrix.parse(name, arch)
    lanes = 64 if s.gen == "cdna" else wave
    A = _values((s.blocks, s.M, s.K), s.a[0])
    B = _values((s.blocks, s.K, s.N), s.b[0])
    C = _values((s.blocks, s.M, s.N), "u8" if s.out == "i32" else "f")
    ra, rb, rc = [0] * lanes, [0] * lanes, [0] * lanes
    ca, cb = _codes(A, s.a[0]), _codes(B, s.b[0])
    out_kind = {"i32": "i32"}.get(s.out, s.out)
    cc = C.astype(np.int64) if out_kind == "i32" else _codes(C, out_kind)
    for blk in range(s.blocks):
        for i in range(s.M):
            for k in range(s.K):
                if s.gen == "cdna":
                    ln, e = _cdna_in_pos(s, "a", i, k, blk)
                    _put(ra, ln, e, s.a[1], ca[blk, i, k])
                    ln, e = _cdna_in_pos(s, "b", i, k, blk)
                    _put(rb, ln, e, s.b[1], cb[blk, k, i])
                else:
                    lns, e = (_rdna3_in_pos if s.gen == "rdna3" else _rdna4_in_pos)(s, wave, i, k)
                    for ln in lns:
                        _put(ra, ln, e, s.a[1], ca[blk, i, k])
                        _put(rb, ln, e, s.b[1], cb[blk, k, i])
        for i in range(s.M):
            for j in range(s.N):
                ln, e = _out_pos(s, wave, i, j, blk)
                _put(rc, ln, e, s.out_bits, cc[blk, i, j])
    res = evaluate(arch, name, wave=wave, lanes=lanes, S0=ra, S1=rb, S2=rc)
    d = res["outputs"]["D0"]
    want = np.einsum("bik,bkj->bij", A.astype(np.float64 if s.out != "i32" else np.int64),
                     B.astype(np.float64 if s.out != "i32" else np.int64)) + C
    for blk in range(s.blocks):
        for i in range(s.M):
            for j in range(s.N):
                ln, e = _out_pos(s, wave, i, j, blk)
                code = (d[ln] >> (e * s.out_bits)) & ((1 << s.out_bits) - 1)
                got = _out_decode(code, s.out)
                exp = want[blk, i, j]
                if s.out == "i32":
                    exp = ((int(exp) + (1 << 31)) % (1 << 32)) - (1 << 31)
                assert got == exp, (name, blk, i, j, got, exp)


@pytest.mark.parametrize("name", CDNA_DENSE)
def test_mfma_whole_tile_matches_numpy(name):
    _run_tile("cdna4", name, 64)


@pytest.mark.parametrize("wave", (32, 64))
@pytest.mark.parametrize("name", RDNA3)
def test_wmma_rdna3_whole_tile_matches_numpy(name, wave):
    _run_tile("rdna3.5", name, wave)


@pytest.mark.parametrize("name", RDNA4)
def test_wmma_rdna4_whole_tile_matches_numpy_under_our_layout_reading(name):
    _run_tile("rdna4", name, 32)


def test_mfma_hand_computed_4x4x1():
    # v_mfma_f32_4x4x1_16b_f32, block 0: lane l (< 4) holds A[l][0] and B[0][l]; D row i sits
    # in element (VGPR) i of lane j.  A = [1,2,3,4]^T, B = [10,20,30,40], C = 0:
    # D[2][3] = 3 * 40 = 120 in VGPR 2 of lane 3; D[0][1] = 1 * 20 = 20 in VGPR 0 of lane 1.
    f = lambda x: int(np.float32(x).view(np.uint32))  # noqa: E731
    a = [f(v) for v in (1, 2, 3, 4)] + [0] * 60
    b = [f(v) for v in (10, 20, 30, 40)] + [0] * 60
    d = evaluate("cdna4", "v_mfma_f32_4x4x1_16b_f32", S0=a, S1=b, S2=[0] * 64)["outputs"]["D0"]
    assert (d[3] >> 64) & 0xFFFFFFFF == f(120.0)
    assert d[1] & 0xFFFFFFFF == f(20.0)
    assert d[10] == 0  # block 2 had zero inputs


def test_smfmac_uses_index_to_place_compressed_values():
    # v_smfmac_f32_16x16x32_f16: lane 0 holds compressed A[0][0..3] = groups 0 and 1 of row 0.
    # Index bits (2 per value): value 0 -> column 3, value 1 -> column 1 (group 0),
    # value 2 -> column 4+2, value 3 -> column 4+0.  B = all ones, so D[0][j] = sum of row 0.
    # With A values 1, 2, 3, 4 the row sum is 10 whatever the places; a B with column k
    # equal to k in row k checks the places: D[0][j] = 1*3 + 2*1 + 3*6 + 4*4 = 39.
    h = lambda x: int(np.float16(x).view(np.uint16))  # noqa: E731
    a = [0] * 64
    a[0] = h(1) | h(2) << 16 | h(3) << 32 | h(4) << 48
    idx = [0] * 64
    idx[0] = 3 | 1 << 2 | 2 << 4 | 0 << 6
    # B[k][j] with k = 8 * (lane // 16) + e, j = lane % 16: value k everywhere
    b = [0] * 64
    for lane in range(64):
        for e in range(8):
            b[lane] |= h(8 * (lane // 16) + e) << (16 * e)
    d = evaluate("cdna4", "v_smfmac_f32_16x16x32_f16", S0=a, S1=b, S2=idx, D0=[0] * 64)["outputs"]["D0"]
    f = int(np.float32(39.0).view(np.uint32))
    assert d[0] & 0xFFFFFFFF == f and d[5] & 0xFFFFFFFF == f  # D[0][0], D[0][5]
    assert (d[0] >> 32) & 0xFFFFFFFF == 0  # D[1][0]: row 1 of A is zero


def test_rdna4_wmma_runs_in_wave32_and_refuses_wave64():
    r = evaluate("rdna4", "v_wmma_f32_16x16x16_f16", S0=[0] * 32, S1=[0] * 32, S2=[0] * 32)
    assert r["outputs"]["D0"] == [0] * 32
    with pytest.raises(Exception, match="wave64"):
        evaluate("rdna4", "v_wmma_f32_16x16x16_f16", wave=64, S0=0, S1=0, S2=0)


def test_operand_widths_match_amd_xml_operand_sizes(store):
    from gpuisa import pages

    seen = 0
    for arch in ("rdna3.5", "rdna4", "cdna4"):
        for row in store.list_arch(arch):
            s = matrix.parse(row["name"], arch)
            if s is None:
                continue
            ops = {o["name"]: o["size"] for o in pages.build_page(store, row["name"], arch)["operands"]}
            w = matrix.operand_bits(s, 64 if s.gen == "cdna" else 32)
            assert {"SRC0": ops.get("SRC0"), "SRC1": ops.get("SRC1"), "SRC2": ops.get("SRC2"),
                    "VDST": ops.get("VDST")} == {"SRC0": w["S0"], "SRC1": w["S1"], "SRC2": w["S2"],
                                                 "VDST": w["D0"]}, (arch, row["name"])
            seen += 1
    assert seen > 80


def test_matrix_fidelity_claims_only_what_is_tested():
    for arch in ("rdna3.5", "rdna4", "cdna4"):
        from gpuisa.semantics import sources

        for name in sources.default_source().entries(arch):
            if matrix.is_matrix(name) and fidelity.fidelity(arch, name)[0] == "exact":
                assert (arch, name) in CHECKED, (arch, name)
    assert fidelity.fidelity("cdna4", "v_mfma_f32_16x16x16_f16")[0] == "exact"
    assert fidelity.fidelity("rdna4", "v_wmma_f32_16x16x16_f16")[0] == "untested"
