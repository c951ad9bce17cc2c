"""The PTX front end on constructs of compiler output beyond the committed corpus (issue 15: nvcc -G,
--use_fast_math, -rdc=true, CUB's inline assembly, llc-22 with old PTX ISA versions and debug info,
small-float conversions), against ptxas 13.

Each module records ptxas's verdict as the lines it reports an error on (measured with ptxas 13.0;
with ptxas on PATH, always in CI, measured again); gpuisa must report its first error on one of
them and accept what ptxas accepts.  The scalar ``cvt`` grid (every pair of the twelve scalar types
with every rounding and ``.ftz``/``.sat``) is compared line by line.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from conftest import need

from gpuisa.ptx import ptxas
from gpuisa.ptx.check import check_instruction
from gpuisa.ptx.frontend import errors

LINE_RE = re.compile(r"line (\d+);")


def head(version: str = "8.6", target: str = "sm_100") -> str:
    return f".version {version}\n.target {target}\n.address_size 64\n"


REGS = ("\t.reg .b8 %b<3>;\n\t.reg .b16 %h<3>;\n\t.reg .b32 %r<4>;\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<3>;\n"
        "\t.reg .f64 %fd<3>;\n\t.reg .pred %p<3>;\n")
K = ".visible .entry k()\n{\n" + REGS  # the kernel's first instruction is on line 13 after head()
E = "\tret;\n}\n"
FUNC = ".func (.param .b32 r) f (.param .b32 a)\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n"
CALL = "\t{\n\t.param .b32 a;\n\t.param .b32 r;\n\tst.param.b32 [a], %r1;\n\tcall.uni (r), {fn}, {args};\n\tld.param.b32 %r2, [r];\n\t}\n"
SECTION = "$L__end:\n" + E + ".section .debug_info\n{\n$L__info:\n.b32 $L__end-$L__info\n.b8 1, 2\n}\n"
EXTERN = ".extern .func (.param .b32 r) ext (.param .b32 a);\n"

TMA_LINES = ("\tcp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
             " [%r1], [%rd1, {%r2}], [%r3], %h1;\n"
             "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], %r2,"
             " [%r3], %h1;\n"
             "\tcp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"
             " [%r1], [%rd1, {%r1, %r2, %r3, %r1, %r2}], [%r3];\n"
             "\tcp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r2], %r3, %h1;\n"
             "\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64 [%rd1], [%r2], %r3;\n"
             "\tmultimem.red.release.gpu.global.add.u32 [%rd1], %r2;\n"
             "\ttcgen05.ld.sync.aligned.16x128b.x1.pack::16b.b32 {%r1, %r2}, [%r3];\n")

WGMMA_LINES = ("\tcvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r1;\n\tcvt.pack.sat.s8.s32.b32 %r1, %r2, %r3, %r1;\n"
               "\tcvt.pack.u8.s32.b32 %r1, %r2, %r3, %r1;\n"
               "\twgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite {%r1, %r2, %r3, %r0}, %rd1, %rd2, 1;\n"
               "\twgmma.mma_async.sync.aligned.m64n8k32.s32.satfinite.s8.u8 {%r1, %r2, %r3, %r0}, %rd1, %rd2, 1;\n"
               "\twgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.popc.and {%r1, %r2, %r3, %r0}, %rd1, %rd2, 1;\n")

R2, R4 = "{%r1, %r2}", "{%r0, %r1, %r2, %r3}"  # mma fragments

# name -> (module text, the lines ptxas 13 reports errors on (empty: accepted), relocatable (ptxas -c))
MODULES = {
    # mixed-precision add/sub/fma (sm_100): d and c are .f32, a and b the 16-bit type
    "mixed_precision": (head() + K + "\tadd.rn.f32.f16 %f1, %h1, %f2;\n\tsub.rn.f32.bf16 %r1, %h1, %r2;\n"
                        "\tfma.rn.f32.f16 %f1, %h1, %h2, %f2;\n\tadd.rn.f32.f16 %f1, %f1, %f2;\n" + E, {16}, False),
    # nvcc -G writes a call's empty argument list over two lines; a parameter may be named `a`
    "call_empty_and_hex_named_args": (head() + FUNC + ".func (.param .b32 r) g ()\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n"
                                      + K + CALL.replace("{fn}, {args}", "g, (\n\t)") + CALL.replace(
                                          "{fn}, {args}", "f, (a)") + E, set(), False),
    # CUB's warp scan: vote's modifiers in another order
    "vote_order": (head() + K + "\tvote.ballot.sync.b32 %r1, %p1, 0xffffffff;\n\tvote.sync.b32.ballot %r1, %p1, -1;\n"
                   "\tvote.ballot.b32.sync %r1, %p1;\n" + E, {15}, False),
    # an inline-asm block's `lo` register, and `mul.lo` after the block
    "inline_asm_lo": (head() + K + "\t{ .reg .b32 lo; .reg .b32 hi; mov.b64 {lo, hi}, %rd1; add.s32 %r1, lo, hi; }\n"
                      "\tmul.lo.s32 %r2, %r1, 7;\n\tadd.s32 %r3, lo, 1;\n" + E, {15}, False),
    # llc-22 -g with an old PTX ISA: a label in .section needs 7.0, a label difference 7.5
    "section_label_64": (head("6.4", "sm_75") + K + SECTION, {18, 19}, False),
    "section_label_71": (head("7.1", "sm_75") + K + SECTION, {19}, False),
    "section_label_75": (head("7.5", "sm_75") + K + SECTION, set(), False),
    # nvcc -rdc=true: an .extern function used but not defined is refused by ptxas, accepted by ptxas -c
    "extern_call": (head() + EXTERN + K + CALL.replace("{fn}, {args}", "ext, (a)") + E, {"fatal"}, False),
    "extern_call_relocatable": (head() + EXTERN + K + CALL.replace("{fn}, {args}", "ext, (a)") + E, set(), True),
    "extern_unused": (head() + EXTERN + K + E, set(), False),
    "declared_not_defined": (head() + EXTERN.replace(".extern ", "") + K + CALL.replace("{fn}, {args}", "ext, (a)")
                             + E, {"fatal"}, True),
    "system_functions": (head() + EXTERN.replace(" ext ", " vprintf ") + K + CALL.replace("{fn}, {args}", "vprintf, (a)")
                         + E, set(), False),
    # PTX ISA versions of pragmas and of 256-bit loads (an old .version on newer compiler output)
    "pragma_versions": (head("8.0", "sm_75") + K + '\t.pragma "used_bytes_mask 15";\n\t.pragma "nounroll";\n'
                        '\t.pragma "not_a_pragma";\n\t.pragma "enable_smem_spilling";\n' + E, {13, 16}, False),
    "wide_access_86": (head("8.6") + K + "\tld.global.v4.u64 {%rd1, %rd2, %rd1, %rd2}, [%rd1];\n" + E, {13}, False),
    "wide_access_88": (head("8.8") + K + "\tld.global.v4.u64 {%rd1, %rd2, %rd1, %rd2}, [%rd1];\n" + E, set(), False),
    # instructions as CCCL's cuda::ptx wrappers write them (TMA multicast and gather4, bulk copies with a
    # byte mask, 64-bit bulk reductions, multimem with semantics and scope, tcgen05.ld with .pack::16b)
    "cccl_sm100a": (head("8.8", "sm_100a") + K + TMA_LINES + E, set(), False),
    "cccl_sm90a": (head("8.6", "sm_90a") + K + TMA_LINES + E, {15, 16, 19}, False),
    # mov packs and unpacks with .bN types only; shf's registers are 32-bit
    "mov_pack_types": (head() + K + "\tmov.b64 {%r1, %r2}, %rd1;\n\tmov.u32 {%r1, %r2}, %rd1;\n"
                       "\tmov.u64 %rd1, {%r1, %r2};\n\tmov.b32 {%h1, %h2}, %r1;\n" + E, {14, 15}, False),
    "shf_types": (head() + K + "\tshf.l.wrap.b32 %r1, %r2, %r3, 10;\n\tshf.l.wrap.b32 %rd1, %r2, %r3, 10;\n" + E,
                  {14}, False),
    "redux_types": (head("8.8", "sm_100a") + K + "\tredux.sync.max.abs.NaN.f32 %f1, %f2, 0xffffffff;\n"
                    "\tredux.sync.max.abs.NaN.f32 %h1, %f2, 0xffffffff;\n\tredux.sync.add.u32 %rd1, %r2, -1;\n"
                    "\tredux.sync.and.b32 %r1, %r2, %r3;\n" + E, {14, 15}, False),
    # prmt's and vote.sync's registers; a 32- or 16-bit .global/generic address: a ptxas warning only
    "prmt_vote_types": (head() + K + "\tprmt.b32 %r3, %r2, %h1, 0x3340U;\n\tprmt.b32 %r3, %r2, %r1, 0x3340U;\n"
                        "\tvote.sync.all.pred %p1, %p2, %p1;\n\tvote.sync.all.pred %p1, !%p2, %r1;\n"
                        "\tvote.sync.ballot.b32 %r1, %p2, %r1;\n\tvote.sync.ballot.b32 %p1, %p2, %r1;\n" + E,
                        {13, 15, 18}, False),
    "short_addresses": (head() + K + "\tld.global.b32 %r1, [%h2];\n\tst.b32 [%h2+8], %r1;\n"
                        "\tatom.global.add.u32 %r1, [%h2], 1;\n\tld.global.v2.b32 {%r1, %r3}, [%h1];\n"
                        "\tld.shared.b32 %r1, [%r2];\n\tld.global.b32 %r1, [%f1];\n" + E, {18}, False),
    # a generic or .global address in a 32-bit register: ptxas 13's fatal error (no line; 16-bit: a warning)
    "address_32": (head() + K + "\tld.shared.b32 %r1, [%r2];\n\tst.b32 [%r2+8], %r1;\n" + E, {"fatal"}, False),
    "address_32_global": (head("8.6", "sm_80") + K + "\tatom.global.add.u32 %r1, [%r2], 1;\n" + E, {"fatal"}, False),
    # packed small floats: the registers have exactly the packed size
    "packed_cvt": (head("8.8", "sm_100a") + K + "\tcvt.rn.satfinite.e2m1x2.f32 %b1, %f1, %f2;\n"
                   "\tcvt.rn.satfinite.e2m1x2.f32 %h1, %f1, %f2;\n\tcvt.rn.f16x2.e4m3x2 %r1, %h1;\n"
                   "\tcvt.rn.f16x2.e4m3x2 %r1, %r2;\n\tcvt.rn.satfinite.e4m3x2.f32 %b1, %f1, %f2;\n"
                   "\tcvt.rn.satfinite.e4m3x2.f16x2 %h1, %r1;\n" + E, {14, 16, 17}, False),
    # operands with one immediate value (CCCL's cuda::ptx wrappers given another constant, or a register)
    "immediate_values": (head("8.6", "sm_100") + K + "\tst.bulk [%rd1], %rd2, 0;\n\tst.bulk [%rd1], %rd2, 1;\n"
                         "\tst.bulk [%rd1], %rd2, %rd1;\n\tfence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;\n"
                         "\tfence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;\n"
                         "\ttensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
                         " [%rd1], [%r1], 0x80;\n"
                         "\ttensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
                         " [%rd1], [%r1], %r2;\n\tcp.async.ca.shared.global [%r1], [%rd1], %r2;\n" + E,
                         {14, 15, 17, 19, 20}, False),
    # set with a .bf16 result of .bf16 sources (cuda_bf16.h's comparisons, sm_90)
    "set_bf16": (head("7.8", "sm_90") + K + "\tset.nan.bf16.bf16 %h1, %h2, %h1;\n"
                 "\tset.lt.and.bf16.bf16 %h1, %h2, %h1, %p1;\n\tset.lo.bf16.bf16 %h1, %h2, %h1;\n"
                 "\tset.lt.ftz.bf16.bf16 %h1, %h2, %h1;\n\tset.lt.f16.bf16 %h1, %h2, %h1;\n" + E, {15, 16, 17}, False),
    # cvt.pack to 8-bit values; wgmma's .satfinite where nvcc's inline asm puts it, mixed s8/u8 from PTX ISA 8.4
    "cvt_pack_wgmma_80": (head("8.0", "sm_90a") + K + WGMMA_LINES + E, {15, 16, 17, 18}, False),
    "cvt_pack_wgmma_84": (head("8.4", "sm_90a") + K + WGMMA_LINES + E, {15, 18}, False),
    # a multimem scope needs a memory order; bar.red's c is a predicate, its barrier a 32-bit value
    "multimem_scope_bar_red": (head("8.6", "sm_90") + K + "\tmultimem.ld_reduce.relaxed.sys.global.add.f32 %f1, [%rd1];\n"
                               "\tmultimem.ld_reduce.acquire.cluster.global.min.f16x2 %r1, [%rd1];\n"
                               "\tmultimem.ld_reduce.sys.global.add.f32 %f1, [%rd1];\n"
                               "\tmultimem.ld_reduce.gpu.global.add.f16 %h1, [%rd1];\n\tbar.red.popc.u32 %r1, 3, %p1;\n"
                               "\tbarrier.red.or.pred %p1, 3, 64, !%p2;\n\tbar.red.popc.u32 %r1, 3, %r2;\n"
                               "\tbar.red.and.pred %p1, 3, 32, %r2;\n\tbar.red.and.pred %p1, %rd1, 32, %p2;\n" + E,
                               {15, 16, 19, 20, 21}, False),
    # an address in a .b128, floating-point or predicate register, in any instruction (a tensor map with
    # coordinates takes any register); special registers and .L2::cache_hint newer than the target or version
    "address_types": (head("8.6", "sm_90") + K + "\t.reg .b128 %q<2>;\n\tmbarrier.init.shared.b64 [%q1], %r1;\n"
                      "\tmbarrier.init.shared.b64 [%f1], %r1;\n"
                      "\tcp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%p1];\n"
                      "\tcp.async.bulk.prefetch.tensor.2d.L2.global.tile [%f1, {%r2, %r3}];\n\tprefetch.tensormap [%q1];\n"
                      "\tmbarrier.init.shared.b64 [%rd1+8], %r1;\n" + E, {14, 15, 16, 18}, False),
    "sreg_targets": (head("9.0", "sm_75") + K + "\tmov.u32 %r1, %clusterid.x;\n\tmov.u32 %r1, %reserved_smem_offset_0;\n"
                     "\tmov.u32 %r1, %dynamic_smem_size;\n\tmov.pred %p1, %is_explicit_cluster;\n\tmov.u32 %r1, %laneid;\n" + E,
                     {13, 14, 16}, False),
    "sreg_versions": (head("7.5", "sm_86") + K + "\tmov.u32 %r1, %cluster_ctarank;\n\tmov.u32 %r1, %aggr_smem_size;\n"
                      "\tmov.u32 %r1, %reserved_smem_offset_end;\n\tmov.u32 %r1, %total_smem_size;\n" + E, {13, 14, 15}, False),
    "cache_hint_targets": (head("9.0", "sm_75") + K + "\tst.global.L2::cache_hint.b32 [%rd1], %r1, %rd2;\n"
                           "\tld.global.L1::evict_last.b32 %r1, [%rd1];\n\tred.global.L2::cache_hint.add.u32 [%rd1], %r2, %rd2;\n"
                           + E, {13, 15}, False),
    "cache_hint_versions": (head("7.3", "sm_80") + K + "\tld.global.nc.L2::cache_hint.b32 %r1, [%rd1], %rd2;\n"
                            "\tld.global.b32 %r1, [%rd1];\n" + E, {13}, False),
    # mma.sp's sparsity selector: its range by shape and type
    "sparsity_selector": (head("8.6", "sm_90") + K + "".join(
        f"\tmma.sp::ordered_metadata.sync.aligned.{shape}.row.col.{types} {d}, {ab}, {ab}, {d}, %r3, {sel};\n"
        for shape, types, d, ab, sel in (
            ("m16n8k16", "f16.f16.f16.f16", R2, R2, "3"), ("m16n8k32", "f16.f16.f16.f16", R2, R4, "2"),
            ("m16n8k32", "s32.u8.u8.s32", R4, R2, "1"), ("m16n8k64", "s32.u8.u8.s32", R4, R4, "0x1"))) + E,
        {14, 16}, False),
    # mma/mma.sp modifiers in any order, but the layouts in theirs and not in the .b1 forms (`.popc.and`)
    "mma_order": (head("8.6", "sm_90") + K + "".join(f"\t{op} {R4}, {R4}, {R2}, {R4};\n" for op in (
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.satfinite", "mma.aligned.sync.row.col.m16n8k32.s32.s8.s8.s32",
        "mma.sync.aligned.m16n8k32.col.row.s32.s8.s8.s32", "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.popc.and"))
        + f"\tmma.sp::ordered_metadata.sync.aligned.row.col.m16n8k32.s32.u8.s8.s32 {R4}, {R2}, {R2}, {R4}, %r3, 0x0;\n" + E,
        {15, 16}, False),
    # registers of a class ptxas refuses at that place (measured per form: data/ptx/measured/register_classes.json)
    "register_classes": (head("8.8", "sm_100a") + K + "\tbmsk.wrap.b32 %r1, %rd2, %r3;\n\tactivemask.b32 %rd1;\n"
                         "\tactivemask.b32 %f1;\n\ttcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, %rd2;\n"
                         "\tszext.wrap.s32 %r1, %r2, %r3;\n\tgetctarank.shared::cluster.u32 %rd1, %r2;\n"
                         "\tmatch.any.sync.b64 %r1, %rd2, %r3;\n\tdp4a.u32.u32 %r1, %rd2, %r3, %r1;\n"
                         "\ttestp.finite.f32 %p1, %fd1;\n\ttanh.approx.f32 %f1, %r2;\n"
                         "\tmovmatrix.sync.aligned.m8n8.trans.b16 %h1, %r2;\n"
                         "\tcreatepolicy.fractional.L2::evict_last.b64 %rd1, 1.0;\n\tmad.wide.u32 %rd1, %r2, %r3, %rd2;\n"
                         "\tmul.wide.s16 %r1, %h1, %h2;\n\tmul.wide.s16 %h1, %h1, %h2;\n" + E,
                         {13, 14, 16, 18, 20, 21, 23, 27}, False),
}


def _ptxas(text: str, target: str, relocatable: bool, tmp_path) -> set:
    path = tmp_path / "m.ptx"
    path.write_text(text)
    cmd = [ptxas.find_ptxas(), *(["-c"] if relocatable else []), f"-arch={target}", str(path), "-o", "/dev/null"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    lines = {int(m) for m in LINE_RE.findall(out)}
    return set() if proc.returncode == 0 else (lines or {"fatal"})


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_verdicts_recorded(name):
    text, bad_lines, relocatable = MODULES[name]
    _, bad = errors(text, relocatable=relocatable)
    if not bad_lines:
        assert not bad, bad[:1]
        return
    assert bad, "accepted; ptxas refuses it"
    if "fatal" not in bad_lines:  # (ptxas names no line for an unresolved function; gpuisa names the call)
        assert bad[0]["line"] in bad_lines, bad[:2]
        assert {b["line"] for b in bad} <= bad_lines, bad


def test_module_verdicts_agree_with_ptxas(tmp_path):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    for name, (text, bad_lines, relocatable) in MODULES.items():
        target = re.search(r"^\.target (\w+)", text, re.M).group(1)
        assert _ptxas(text, target, relocatable, tmp_path) == bad_lines, name


def test_cli_relocatable_flag(tmp_path, cli_env):
    from conftest import run_cli

    path = tmp_path / "rdc.ptx"
    path.write_text(MODULES["extern_call"][0])
    r = run_cli(["ptx", "check", "--file", str(path)], cli_env)
    assert r.returncode == 1 and "function `ext` is used but not defined" in r.stdout
    r = run_cli(["ptx", "check", "--file", str(path), "--relocatable"], cli_env)
    assert r.returncode == 0, r.stdout


# ------------------------------------------------------------------ scalar cvt
TYPES = [".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64", ".bf16", ".f16", ".f32", ".f64"]
REG = {".u8": "%h", ".s8": "%h", ".u16": "%h", ".s16": "%h", ".bf16": "%h", ".f16": "%h", ".u32": "%r",
       ".s32": "%r", ".f32": "%f", ".u64": "%rd", ".s64": "%rd", ".f64": "%fd"}
ROUNDINGS = ["", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi"]
MODS = ["", ".ftz", ".sat", ".ftz.sat"]
GRID_TARGETS = [("sm_80", "8.3"), ("sm_90", "7.8")]
KNOWN_SM80: set = set()  # (none left)


def cvt_grid(target: str, version: str) -> tuple[str, list[str]]:
    body = [f"cvt{r}{m}{d}{a}" for d in TYPES for a in TYPES for r in ROUNDINGS for m in MODS]
    text = head(version, target) + ".visible .entry k()\n{\n" + (
        "\t.reg .b16 %h<3>;\n\t.reg .b32 %r<3>;\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<3>;\n\t.reg .f64 %fd<3>;\n")
    lines = [f"\t{op} {REG['.' + op.split('.')[-2]]}1, {REG['.' + op.split('.')[-1]]}2;" for op in body]
    return text + "\n".join(lines) + "\n" + E, body


GRID_FIRST_LINE = 11  # the grid's first instruction


# (instruction, target) -> accepted by ptxas 13 (measured; PTX ISA 8.3)
CVT_RECORDED = {
    ("cvt.ftz.f64.f32 fd1, f1;", "sm_90"): True,  # nvcc --use_fast_math
    ("cvt.ftz.f32.f16 f1, h1;", "sm_90"): True,
    ("cvt.rn.ftz.f16.f32 h1, f1;", "sm_90"): True,
    ("cvt.rn.sat.f16.f32 h1, f1;", "sm_90"): True,
    ("cvt.sat.u32.u16 r1, h1;", "sm_90"): False,
    ("cvt.sat.s8.u8 h1, h2;", "sm_90"): True,
    ("cvt.sat.s16.u8 h1, h2;", "sm_90"): False,
    ("cvt.rn.f32.f16 f1, h1;", "sm_90"): False,
    ("cvt.rzi.ftz.f64.f64 fd1, fd2;", "sm_90"): False,
    ("cvt.rzi.u16.bf16 h1, h2;", "sm_90"): True,
    ("cvt.rzi.u16.bf16 h1, h2;", "sm_80"): False,
    ("cvt.rn.bf16.f64 h1, fd1;", "sm_90"): True,
    ("cvt.rni.bf16.bf16 h1, h2;", "sm_90"): True,
    ("cvt.rn.bf16.bf16 h1, h2;", "sm_90"): False,
    ("cvt.u8.bf16 h1, h2;", "sm_90"): False,
    ("cvt.rn.bf16.f32 h1, f1;", "sm_80"): True,
    ("cvt.rm.ftz.bf16.f32 h1, f1;", "sm_80"): True,
    ("cvt.rn.bf16.s32 h1, r1;", "sm_80"): False,
    ("cvt.ftz.f32.bf16 f1, h1;", "sm_80"): False,
    ("cvt.ftz.f32.bf16 f1, h1;", "sm_90"): True,
}


@pytest.mark.parametrize("text,target", sorted(CVT_RECORDED))
def test_cvt_recorded(text, target):
    r = check_instruction(text, target, "8.3")
    assert r["valid"] == CVT_RECORDED[(text, target)], r["error"]


def test_cvt_grid_agrees_with_ptxas(tmp_path):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    for target, version in GRID_TARGETS:
        text, ops = cvt_grid(target, version)
        theirs = _ptxas(text, target, False, tmp_path)
        ours = {b["line"] for b in errors(text)[1]}
        known = {GRID_FIRST_LINE + i for i, op in enumerate(ops) if target == "sm_80" and op in KNOWN_SM80}
        wrong = sorted((ours ^ theirs) - known)
        assert not wrong, [(ops[n - GRID_FIRST_LINE], n in theirs) for n in wrong[:10]]


# ------------------------------------------------------------------ real files made invalid
CORPUS = Path(__file__).resolve().parent / "data" / "ptx_corpus"
RETARGETED = ["hopper.sm_90a.ptx", "mma_asm.sm_90.ptx", "fp8.sm_89.ptx", "halfbf.sm_100.ptx88.ptx",
              "atomics2.sm_90.ptx83.ptx", "cub_block.sm_80.ptx", "vec.sm_90.ptx83.ptx", "coop.sm_90.ptx",
              "blackwell.sm_100a.ptx", "printf2.sm_90.ptx", "warpintr.sm_90.lineinfo.ptx", "globals.sm_90.ptx"]


def broken_variants(text: str) -> list[tuple[str, str]]:
    """(what, text): the file with a lower .target, a lower .version, its first .reg line dropped."""
    out = [(".target sm_75", re.sub(r"^\.target \w+", ".target sm_75", text, count=1, flags=re.M)),
           (".version 7.0", re.sub(r"^\.version [\d.]+", ".version 7.0", text, count=1, flags=re.M))]
    lines = text.split("\n")
    i = next(i for i, s in enumerate(lines) if re.match(r"\s*\.reg \.(b32|b64|f32)\s+%\w+<\d+>;", s))
    return out + [("no " + lines[i].strip(), "\n".join(lines[:i] + lines[i + 1:]))]


def _ptxas_lines(text: str, tmp_path) -> tuple[bool, set]:
    """ptxas's verdict and the lines of the file it names (a .target the .version does not support is
    reported on its '<macro util>' line: the .target line)."""
    path = tmp_path / "v.ptx"
    path.write_text(text)
    arch = ptxas.arch_for(re.search(r"^\.target (\w+)", text, re.M).group(1))
    proc = subprocess.run([ptxas.find_ptxas(), f"-arch={arch}", str(path), "-o", "/dev/null"], capture_output=True,
                          text=True)
    out = proc.stdout + proc.stderr
    lines = {int(m) for m in re.findall(re.escape(str(path)) + r", line (\d+);", out)}
    if "does not support .target" in out:
        lines.add(text[:text.index("\n.target")].count("\n") + 2)
    return proc.returncode == 0, lines


def test_broken_real_files_agree_with_ptxas(tmp_path):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    wrong, checked = [], []
    for name in RETARGETED:
        for what, text in broken_variants((CORPUS / name).read_text()):
            ok, lines = _ptxas_lines(text, tmp_path)
            checked.append(bool(lines))
            bad = errors(text)[1]
            if ok != (not bad) or (bad and lines and bad[0]["line"] not in lines):
                wrong.append((name, what, ok, sorted(lines)[:3], bad[:1]))
    assert not wrong, wrong
    assert len(checked) == 3 * len(RETARGETED) and sum(checked) >= 2 * len(RETARGETED)  # (ptxas named lines)


# ------------------------------------------------------------------ targets the catalog was not measured on
MXF4 = ("mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0"
        " {v1, v2, v3, v4}, {v5, v6, v7, v8}, {v9, v10, v11, v12}, {v13, v14, v15, v16}, r1, 0, r2, {0, 0}, r3, {0, 0};")
# (target, instruction, whether ptxas 13 accepts it there, PTX ISA 9.0): the family-specific (f) targets and
# the newer numbers are judged as check.SAME_AS / check.FAMILY_F say (measured on every catalog example)
TARGET_LINES = [
    ("sm_120f", "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f16.e4m3.e4m3.f16 {v1, v2}, {v3, v4, v5, v6}, {v7, v8},"
                " {v9, v10};", True),
    ("sm_120f", MXF4, False), ("sm_121f", MXF4, False), ("sm_121a", MXF4, True),
    ("sm_103f", "tcgen05.ld.red.sync.aligned.16x32bx2.x2.min.f32 {v1, v2}, r1, [r2], 1;", True),
    ("sm_103f", "cvt.rs.bf16x2.f32 r1, r2, r3, r4;", False),
    ("sm_110f", "tcgen05.mma.cta_group::1.kind::i8 [r1], [r2], rd1, r3, p1;", False),
    ("sm_110f", "tcgen05.alloc.cta_group::1.sync.aligned.b32 [rd1], r1;", True),
    ("sm_110f", "redux.sync.max.f32 r1, r2, r3;", False),
    ("sm_103", "st.bulk [rd1], rd2, 0;", True),
    ("sm_103", "tcgen05.alloc.cta_group::1.sync.aligned.b32 [rd1], r1;", False),
    ("sm_121", "add.bf16 h1, h2, h3;", True),
    ("sm_88", "cvt.rn.satfinite.e4m3x2.f32 h1, f1, f2;", False),
]


@pytest.mark.parametrize("target,line,accepted", TARGET_LINES)
def test_unmeasured_target_recorded(target, line, accepted):
    _, bad = errors(ptxas.wrap([line], target, "9.0"))
    assert (not bad) == accepted, bad[:1]


def test_unmeasured_targets_agree_with_ptxas():
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13)")
    got = [(t, line, not ptxas.compile_lines(tool, [line], t, "9.0")[0]) for t, line, _ in TARGET_LINES]
    assert got == TARGET_LINES


def test_measured_register_classes_are_checked():
    """Every instruction with measured register classes reaches the front end's operand typing."""
    import json

    from gpuisa.ptx import operand_types
    from gpuisa.ptx.catalog import DATA_PATH

    with open(Path(DATA_PATH) / "measured" / "register_classes.json") as fh:
        data = json.load(fh)
    assert data["generated_by"] == "python -m gpuisa.data.ptx.measure_classes"
    assert set(data["classes"]) <= operand_types.TYPED
    assert set(data["tails"]) <= operand_types.TYPED
