"""The PTX front end (lexer, statements, directives, names, operand types) against ptxas 13.

The verdicts recorded here were measured with ptxas 13.0 (`ptxas -arch=sm_90`); with ptxas on
PATH (always in CI) they are measured again.  The compiler-made corpus (tests/data/ptx_corpus,
tools/make_ptx_corpus.py) must get ptxas's file verdicts; one-edit mutants of it (tools/ptx_mutants.py)
at least 98% of them, with the error on the edited line.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, need, run_cli

from gpuisa.ptx import ptxas
from gpuisa.ptx.check import check_instruction
from gpuisa.ptx.frontend import check_file, errors

CORPUS = ROOT / "tests" / "data" / "ptx_corpus"
REJECTED = {"intrinsics.sm_75.ptx64.ptx", "intrinsics.sm_80.ptx70.ptx",  # label differences in .section need 7.5
            "dbg.sm_52.ptx64.ptx",  # labels in .section need 7.0
            "inline_asm.sm_75.ptx"}  # inline assembly of sm_80 instructions (cvt.rn.f16x2.f32, .bf16)

HEAD = ".version 9.0\n.target sm_90\n.address_size 64\n"
K = ".visible .entry k(\n\t.param .u64 k_p0\n)\n{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<3>;\n\t.reg .b16 %h<5>;\n\t.reg .v4 .b16 %v;\n"
E = "\tret;\n}\n"
MODULES = {  # name -> module text
 "multiline_instruction": HEAD + K + "\tadd.s32\n\t\t%r1,\n\t\t%r2, %r3;\n" + E,
 "block_comment": HEAD + K + "\tadd.s32 %r1, /* a comment\n over lines */ %r2, %r3;\n" + E,
 "one_line_block_ok": HEAD + K + "\t{ add.s32 %r1, %r2, %r3; }\n" + E,
 "one_line_block_bad": HEAD + K + "\t{ add.s33 %r1, %r2, %r3; }\n" + E,
 "label_space_colon": HEAD + K + "\tbra L1;\nL1 :\n\tadd.s32 %r1, %r2, %r3;\n" + E,
 "vector_register": HEAD + K + "\tmov.v4.u16 %v, {%h1, %h2, %h3, %h4};\n\tmov.u16 %h1, %v.x;\n" + E,
 "initializer_over_lines": HEAD + ".global .align 4 .u32 tab[4] = {1,\n 2,\n 3, 4};\n" + K + "\tmov.u64 %rd1, tab;\n" + E,
 "initializer_in_shared": HEAD + ".shared .align 4 .u32 tab[2] = {1, 2};\n" + K + E,
 "callprototype_and_call": HEAD + ".func (.param .b32 r) f(.param .b32 a)\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n" + K + "\t{\n\t.param .b32 p0;\n\t.param .b32 r0;\n\tst.param.b32 [p0], %r1;\n\tmov.u64 %rd1, f;\n\tproto : .callprototype (.param .b32 _) _ (.param .b32 _);\n\tcall (r0),\n\t\t%rd1,\n\t\t(\n\t\tp0\n\t\t)\n\t\t, proto;\n\tld.param.b32 %r2, [r0];\n\t}\n" + E,
 "extern_weak": HEAD + ".extern .func (.param .b32 r) g\n(\n\t.param .b32 a\n)\n;\n.weak .global .u32 w;\n" + K + E,
 "reg_range_overrun": HEAD + K + "\tadd.s32 %r8, %r2, %r3;\n" + E,
 "undeclared_label": HEAD + K + "\tbra L9;\n" + E,
 "pragma_and_loc": HEAD + ".file 1 \"k.cu\"\n" + K + "\t.pragma \"nounroll\";\n\t.loc 1 3 5\n\tadd.s32 %r1, %r2, %r3;\n" + E,
 "address_size_32": ".version 9.0\n.target sm_90\n.address_size 32\n" + K.replace(".u64", ".u32").replace(".b64 %rd<4>", ".b32 %rd<4>") + E,
 "version_too_new": ".version 9.1\n.target sm_90\n.address_size 64\n" + K + E,
 "target_unknown": ".version 9.0\n.target sm_999\n.address_size 64\n" + K + E,
 "non_ascii_code": HEAD + K + "\tadd.s32 %r1, %r2, %r3; \u00e9\n" + E,
 "non_ascii_comment": HEAD + K + "\tadd.s32 %r1, %r2, %r3; // caf\u00e9\n" + E,
 "unknown_special_register": HEAD + K + "\tmov.u32 %r1, %warpid_x;\n" + E,
 "sreg_vector_field": HEAD + K + "\tmov.u32 %r1, %tid.y;\n\tmov.u32 %r2, %laneid;\n" + E,
 "sreg_scalar_field": HEAD + K + "\tmov.u32 %r1, %laneid.x;\n" + E,
 "missing_semicolon": HEAD + K + "\tadd.s32 %r1, %r2, %r3\n\tadd.s32 %r1, %r2, %r3;\n" + E,
 "unclosed_comment": HEAD + K + "\t/* no end\n" + E,
 "constant_expression": HEAD + ".global .align 8 .b8 buf[16];\n" + K + "\tmov.u64 %rd1, buf+8;\n\tadd.s32 %r1, %r2, (4*2+1);\n" + E,
 "param_without_param_space": HEAD + K + "\tld.u64 %rd1, [k_p0];\n" + E,
 "register_type_mismatch": HEAD + K + "\tadd.s64 %rd1, %r2, %r3;\n" + E,
 "section_debug": ".version 9.0\n.target sm_90, debug\n.address_size 64\n" + K + "$L__end:\n" + E + ".section .debug_info\n{\n.b32 $L__end-$L__end\n.b8 1, 2\n}\n",
 "target_needs_version": ".version 7.0\n.target sm_90\n.address_size 64\n" + K + E,
 "empty_statement": HEAD + K + "\t;\n" + E,
 "instruction_outside_function": HEAD + "add.s32 %r1, %r2, %r3;\n" + K + E,
 "block_register_used_outside": HEAD + K + "\t{\n\t.reg .b32 %t;\n\tmov.u32 %t, 1;\n\t}\n\tmov.u32 %r1, %t;\n" + E,
 "register_used_before_declaration": HEAD + K + "\tmov.u32 %q, 1;\n\t.reg .b32 %q;\n" + E,
 "register_declared_after_instructions": HEAD + K + "\tmov.u32 %r1, %r2;\n\t.reg .b32 %q;\n\tmov.u32 %q, 1;\n" + E,
 "block_register_shadows_range": HEAD + K + "\t{\n\t.reg .b32 %r1;\n\tmov.u32 %r1, 1;\n\t}\n\tmov.u32 %r2, %r1;\n" + E,
# constructs compilers and hand-written PTX use, all accepted by ptxas 13
 "globals_multi": HEAD + ".global .u32 a, b;\n.const .f32 c = 1.0;\n.global .u64 p = generic(a);\n.extern .shared .align 16 .b8 smem[];\n.visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\nld.global.u32 %r1, [a];\nmov.u64 %rd1, smem;\nret;\n}\n",
 "reg_params": HEAD + ".visible .func (.reg .b32 r) f(.reg .b32 x)\n{\nadd.s32 r, x, 1;\nret;\n}\n.visible .entry k()\n{\n.reg .b32 %r<3>;\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], 1;\ncall.uni (r0), f, (p0);\nret;\n}\n",
 "entry_struct_param": HEAD + ".visible .entry k(.param .align 8 .b8 s[16])\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [s+8];\nexit;\n}\n",
 "call_no_return": HEAD + ".func g(.param .b32 x)\n{\nret.uni;\n}\n.visible .entry k()\n{\n{\n.param .b32 p0;\nst.param.b32 [p0], 3;\ncall.uni g, (p0);\n}\nret;\n}\n",
 "warp_sz": HEAD + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, WARP_SZ;\nret;\n}\n",
 "brx_idx": HEAD + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.u32 %r1, 0;\nts: .branchtargets L0, L1;\nbrx.idx %r1, ts;\nL0:\nret;\nL1:\nret;\n}\n",
 "calltargets": HEAD + ".func f()\n{\nret;\n}\n.visible .entry k()\n{\n.reg .b64 %rd<3>;\nmov.u64 %rd1, f;\nct: .calltargets f;\ncall %rd1, ct;\nret;\n}\n",
 "crlf": (HEAD + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nadd.s32 %r1, %r2, 3;\nret;\n}\n").replace("\n", "\r\n"),
 "file_loc_inlined": ".version 9.0\n.target sm_90\n.address_size 64\n.file 1 \"a.cu\", 1700000000, 1234\n.visible .entry k()\n{\n.reg .b32 %r<3>;\n.loc 1 10 3\nadd.s32 %r1, %r2, 3;\nret;\n}\n",
 "maxntid_etc": HEAD + ".visible .entry k()\n.maxntid 256, 1, 1\n.minnctapersm 2\n{\nret;\n}\n",
 "noreturn_func": HEAD + ".func f() .noreturn\n{\ntrap;\n}\n.visible .entry k()\n{\nret;\n}\n",
 "texref": HEAD + ".global .texref t;\n.visible .entry k()\n{\n.reg .f32 %f<6>;\n.reg .s32 %r<3>;\ntex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [t, {%r1}];\nret;\n}\n",
 "pred_not_guard": HEAD + ".visible .entry k()\n{\n.reg .pred %p<3>;\n.reg .b32 %r<3>;\nsetp.eq.s32 %p1, %r1, 0;\n@!%p1 bra L1;\nL1:\nret;\n}\n",
 "mul_wide_imm": HEAD + ".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\nmul.wide.s32 %rd1, %r1, 4;\nret;\n}\n",
 "weak_func": HEAD + ".weak .func f()\n{\nret;\n}\n.visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n",
 "neg_immediate_float": HEAD + ".visible .entry k()\n{\n.reg .f32 %f<3>;\nadd.f32 %f1, %f2, 0fBF800000;\nmov.f32 %f1, 0f3F800000;\nret;\n}\n",
 "label_then_brace": HEAD + ".visible .entry k()\n{\nL1: {\nret;\n}\n}\n",
}

PTXAS_ACCEPTS = {  # name -> ptxas 13 accepts the module (measured)
    "multiline_instruction": True,
    "block_comment": True,
    "one_line_block_ok": True,
    "one_line_block_bad": False,
    "label_space_colon": True,
    "vector_register": True,
    "initializer_over_lines": True,
    "initializer_in_shared": False,
    "callprototype_and_call": True,
    "extern_weak": True,
    "reg_range_overrun": False,
    "undeclared_label": False,
    "pragma_and_loc": True,
    "address_size_32": False,
    "version_too_new": False,
    "target_unknown": False,
    "non_ascii_code": False,
    "non_ascii_comment": False,
    "unknown_special_register": False,
    "sreg_vector_field": True,
    "sreg_scalar_field": False,
    "missing_semicolon": False,
    "unclosed_comment": False,
    "constant_expression": True,
    "param_without_param_space": False,
    "register_type_mismatch": False,
    "section_debug": True,
    "target_needs_version": False,
    "empty_statement": False,
    "instruction_outside_function": False,
    "block_register_used_outside": False,
    "register_used_before_declaration": False,
    "register_declared_after_instructions": True,
    "block_register_shadows_range": True,
    "globals_multi": True,
    "reg_params": True,
    "entry_struct_param": True,
    "call_no_return": True,
    "warp_sz": True,
    "brx_idx": True,
    "calltargets": True,
    "crlf": True,
    "file_loc_inlined": True,
    "maxntid_etc": True,
    "noreturn_func": True,
    "texref": True,
    "pred_not_guard": True,
    "mul_wide_imm": True,
    "weak_func": True,
    "neg_immediate_float": True,
    "label_then_brace": True,
}


def _ptxas_file(path: Path, text: str | None = None) -> tuple[bool, str]:
    text = path.read_text() if text is None else text
    m = re.search(r"^\.target\s+(\w+)", text, re.M)
    arch = ptxas.arch_for(m.group(1)) if m and m.group(1) in ptxas_targets() else "sm_90"
    proc = subprocess.run([ptxas.find_ptxas(), f"-arch={arch}", str(path), "-o", "/dev/null"],
                          capture_output=True, text=True)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def ptxas_targets() -> set:
    from gpuisa.ptx.directives import TARGET_MIN_VERSION

    return set(TARGET_MIN_VERSION)


def corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.ptx"))


def test_corpus_is_compiler_output_of_several_targets():
    files = corpus()
    assert len(files) >= 60
    assert all(f.read_text().startswith("// made by: ") for f in files)
    made_by = {f.read_text().split("\n", 1)[0].split()[3] for f in files}
    assert made_by == {"nvcc", "llc-22"}
    assert sum(f.stat().st_size for f in files) < 4_000_000


def test_corpus_verdicts_recorded():
    """gpuisa accepts every corpus file ptxas accepts and rejects the four it rejects."""
    rejected = {f.name for f in corpus() if errors(f.read_text())[1]}
    assert rejected == REJECTED


def test_corpus_verdicts_agree_with_ptxas():
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    files = corpus()  # all of it, the speed files too (ptxas takes about 2 s on them)
    with ThreadPoolExecutor(2) as pool:
        theirs = dict(zip(files, pool.map(_ptxas_file, files)))
    for f in files:
        ours = errors(f.read_text())[1]
        assert (not ours) == theirs[f][0], (f.name, ours[:1], theirs[f][1][:300])


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_verdicts_recorded(name):
    n, bad = errors(MODULES[name])
    assert (not bad) == PTXAS_ACCEPTS[name], (name, bad[:1])
    for r in bad:
        assert "\n" not in r["error"] and r["line"] >= 1 and r["col"] >= 1


def test_module_verdicts_agree_with_ptxas(tmp_path):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    for name, text in MODULES.items():
        path = tmp_path / f"{name}.ptx"
        path.write_text(text)
        ok, out = _ptxas_file(path, text)
        assert ok == PTXAS_ACCEPTS[name], (name, out[:200])


def test_positions_name_the_wrong_part():
    _, bad = errors(MODULES["one_line_block_bad"])
    assert [(r["line"], r["col"]) for r in bad] == [(13, 7)]  # `.s33` inside `{ add.s33 ... }`
    assert "`.s33`" in bad[0]["error"] and bad[0]["form"].startswith("add")
    _, bad = errors(MODULES["missing_semicolon"])
    assert (bad[0]["line"], bad[0]["col"]) == (13, 22) and "missing `;`" in bad[0]["error"]  # after `%r3`
    _, bad = errors(MODULES["unknown_special_register"])
    assert (bad[0]["line"], bad[0]["col"]) == (13, 15) and "%warpid_x" in bad[0]["error"]


def test_closest_form_is_of_the_same_instruction():
    r = check_instruction("st.shhared.u32 [%r1], %r2;")
    assert not r["valid"] and r["form"].startswith("st{") and "st.async" not in r["error"]
    assert "closest: `.shared`" in r["error"]


# instruction -> ptxas 13 accepts it (sm_90, PTX ISA 9.0; measured)
RULES = {
    "add.s32 r1, r2.q, r3;": False,
    "vadd.u32.u32.u32.sat r1, r2.b7, r3.h1;": False,
    "vadd.u32.u32.u32 r1.b3, r2, r3.b2, r4;": True,
    "vadd.u32.u32.u32.add r1.b3, r2, r3.b2, r4;": False,
    "cp.async.ca.shared.global [r1], [rd1], 0x4, r2;": True,
    "cp.async.ca.shared.global.L2::cache_hint [r1], [rd1], 4, rd2;": True,
    "cp.async.ca.shared.global.L2::cache_hint [r1], [rd1], 4;": False,
    "cp.async.ca.shared.global [r1], [rd1], 4, 4, rd2;": False,
    "ld.global.L2::cache_hint.u32 r1, [rd1];": False,
    "ld.global.u32 r1, [rd1], rd2;": False,
    "ld.global.L2::cache_hint.u32 r1, [rd1], rd2;": True,
    "wmma.mma.sync.aligned.row.row.m8n8k4.f64.f64.f64.f64.rn {fd1,fd2}, {fd3}, {fd4}, {fd5,fd6};": True,
    "wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32 {f1,f2,f3,f4,f5,f6,f7,f8}, {r1,r2,r3,r4}, "
    "{r5,r6,r7,r8}, {f1,f2,f3,f4,f5,f6,f7,f8};": True,
    "cvt.rzi.f64.f64 fd1, fd2;": True,
    "cvt.rn.f64.f64 fd1, fd2;": False,
    "mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster.b64 _, [r1], 1;": True,
    "mad.f32 f1, f2, f3, f4;": False,
    "mad.rn.f32 f1, f2, f3, f4;": True,
    "mad.wide.u16 r1, h1, h2, r3;": True,
    "mapa.u64 rd1, rd2, r1;": True,
    "shfl.down.b32 r1, r2, 1, 31;": False,
    "vote.any.pred p1, p2;": False,
    "mov.u32 r1, %warpid_x;": False,
    "mov.u32 r1, %tid.x;": True,
    "mov.u32 r1, %laneid.x;": False,
    "st.shhared.u32 [r1], r2;": False,
}


@pytest.mark.parametrize("text", sorted(RULES))
def test_rules_recorded(text):
    r = check_instruction(text, "sm_90", "9.0")
    assert r["valid"] == RULES[text], r["error"]


def test_rules_agree_with_ptxas():
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    lines = sorted(RULES)
    for text, errs in zip(lines, ptxas.verdicts(tool, lines, "sm_90", "9.0")):
        assert (not errs) == RULES[text], (text, errs)


def test_target_directive():
    _, bad = errors(MODULES["target_unknown"])
    assert bad[0]["error"].startswith("unsupported .target `sm_999`")


def test_fragments_keep_line_by_line_semantics():
    # a text without .version is a list of instructions: names are not resolved
    res = check_file("add.s32 r1, r2, r3;\nmov.u32 r1, %tid.x; mov.u32 r2, %ntid.y;\n")
    assert [(r["valid"], r["line"]) for r in res] == [(True, 1), (True, 2), (True, 2)]


def test_one_edit_mutants_agree_with_ptxas():
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import ptx_mutants
    finally:
        sys.path.pop(0)
    results = ptx_mutants.run(160, seed=7, jobs=2)
    agree, on_line = ptx_mutants.summary(results)
    wrong = [(r["file"], r["line"], r["kind"], r["text"]) for r in results if r["ptxas"] != r["gpuisa"]]
    assert agree >= 0.98, wrong
    assert on_line >= 0.95


def test_cli_file_errors_have_line_and_column(tmp_path, cli_env):
    path = tmp_path / "k.ptx"
    path.write_text(MODULES["one_line_block_bad"])
    r = run_cli(["ptx", "check", "--file", str(path)], cli_env)
    assert r.returncode == 1
    assert r.stdout.splitlines()[0].startswith("k.ptx:13:7: `.s33` is not a valid .type for add")
    path.write_text(MODULES["callprototype_and_call"])
    r = run_cli(["ptx", "check", "--file", str(path), "--target", "sm_90"], cli_env)
    assert r.returncode == 0 and r.stdout.strip().endswith("0 invalid")
    r = run_cli(["ptx", "check", "--file", str(path), "--target"], cli_env)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) <= 2
