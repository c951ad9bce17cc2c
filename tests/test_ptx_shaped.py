"""Shaped operands (matrix fragments, texture coordinates, call symbols) and the rules that came with
them: fragment lengths hand-computed from the PTX ISA 9.0 fragment layouts, verdicts checked by ptxas."""

from __future__ import annotations

import random

from conftest import need

from gpuisa.ptx import catalog, instances, ptxas
from gpuisa.ptx.check import check_instruction
from gpuisa.ptx.instances_shaped import fragments
from gpuisa.ptx.match import dot_tokens


def _counts(opcode: str) -> dict:
    return {k: n for k, (n, _) in fragments(dot_tokens(opcode)).items()}


def test_fragment_lengths_by_hand():
    # m16n8k16 .f16 inputs, warp of 32: A 16*16/32 = 8 halves = 4 regs; B 16*8/32 = 4 halves = 2;
    # C/D 16*8/32 = 4 floats
    assert _counts("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") == {"d": 4, "a": 4, "b": 2, "c": 4}
    # m8n8k4 .f16 runs on quad-pairs (8 threads): A 4 halves = 2 regs; C .f16 8 halves = 4 regs
    assert _counts("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16") == {"d": 4, "a": 2, "b": 2, "c": 4}
    # sparse A holds half of K: m16n8k32 .f16 sparse: A 16*16/32 = 8 halves = 4 regs; B 32*8/32 = 8 = 4 regs
    assert _counts("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32")["a"] == 4
    # f64: one element per 64-bit register, m8n8k4: A 1, C 2
    assert fragments(dot_tokens("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"))["c"] == (2, "vd")
    # warpgroup of 128: D of m64n256 .f32 is 64*256/128 = 128 registers; .f16 D half of that
    assert _counts("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16")["d"] == 128
    assert _counts("wgmma.mma_async.sync.aligned.m64n256k16.f16.f16.f16")["d"] == 64
    # wmma .f16 A/B fragments are 8 registers; .s8 m16n16k16 A is 256/32 bytes = 2 registers
    assert _counts("wmma.load.a.sync.aligned.row.m32n8k16.f16") == {"r": 8}
    assert _counts("wmma.load.a.sync.aligned.row.m16n16k16.s8") == {"r": 2}


def test_verified_forms_cover_the_catalog():
    forms = [f for fam in catalog.families() for inst in fam["instructions"] for f in inst["forms"]]
    verified = [f for f in forms if f.get("verified")]
    assert len(forms) == 592 and len(verified) >= 540


def test_shaped_examples_compile_with_ptxas():
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13, or pip install nvidia-cuda-nvcc)")
    picks = {"mma", "wgmma.mma_async", "wmma.load", "tcgen05.ld", "tcgen05.mma", "tex", "call", "brx.idx", "sust"}
    by_target: dict[str, list[str]] = {}
    for fam in catalog.families():
        if fam["family"] not in picks:
            continue
        for inst in fam["instructions"]:
            for f in inst["forms"]:
                if f.get("operand_strategy") == "shaped":
                    opcode = f["examples"][-1].partition(" ")[0]  # a combination ptxas took; operands afresh
                    text = opcode + " " + instances.operand_text(f, opcode, "shaped", random.Random(3)) + ";"
                    target = max(catalog.expand_targets(f["targets"]), key=catalog.target_key)
                    by_target.setdefault(target, []).append(text)
    assert sum(map(len, by_target.values())) >= 30
    for target, lines in by_target.items():
        errs = ptxas.compile_lines(tool, lines, target, "9.0")
        bad = [(ln, e) for ln, e in zip(lines, errs) if e]
        assert not bad, bad[:3]
        for ln in lines:
            assert check_instruction(ln, target, "9.0")["valid"], ln


def test_fragment_operand_must_be_a_vector():
    # ptxas: the register-A wgmma form needs A as a register vector (a scalar there is a mismatch)
    r = check_instruction("wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {v1, v2}, rd1, rd2, p1, 1, 1, 0;",
                          "sm_90a", "9.0")
    assert not r["valid"]
    r = check_instruction("wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {v1, v2}, r1, rd2, p1, 1, 1, 0;",
                          "sm_90a", "9.0")
    assert not r["valid"]
    ok = "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {v1, v2}, {v3, v4, v5, v6}, rd2, p1, 1, 1, 0;"
    assert check_instruction(ok, "sm_90a", "9.0")["valid"]


def test_texture_destination_vector_and_predicate():
    assert check_instruction("tex.2d.v4.f32.f32 {f1, f2, f3, f4}, [rd1, {f5, f6}];", "sm_90", "9.0")["valid"]
    assert check_instruction("tex.2d.v4.f32.f32 {f1, f2, f3, f4}|p1, [rd1, {f5, f6}];", "sm_90", "9.0")["valid"]


def test_256_bit_access_needs_sm100_and_global():
    wide = "ld.global.v4.b64 {rd1, rd2, rd3, rd4}, [rd1];"
    r = check_instruction(wide, "sm_90", "9.0")
    assert not r["valid"] and r["error"].startswith("ld with a 256-bit vector is not available on sm_90")
    assert check_instruction(wide, "sm_100", "9.0")["valid"]
    assert check_instruction("ld.global.v4.b32 {r1, r2, r3, r4}, [rd1];", "sm_90", "9.0")["valid"]
    r = check_instruction("ld.shared.v8.b32 {r1, r2, r3, r4, r5, r6, r7, r8}, [rd1];", "sm_100", "9.0")
    assert not r["valid"] and ".global" in r["error"] and ".shared" in r["error"]
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13, or pip install nvidia-cuda-nvcc)")
    lines = [wide, "ld.shared.v8.b32 {r1, r2, r3, r4, r5, r6, r7, r8}, [rd1];", "st.v8.f32 [rd1], "
             "{r1, r2, r3, r4, r5, r6, r7, r8};"]
    for target in ("sm_90", "sm_100"):
        for ln, errs in zip(lines, ptxas.compile_lines(tool, lines, target, "9.0")):
            assert check_instruction(ln, target, "9.0")["valid"] == (not errs), (ln, target, errs)
