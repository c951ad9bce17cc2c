"""Optional trailing operands and tensor memory addresses, against ptxas 13.

The catalog's examples leave optional operands out, so the register classes measured on them
(data/ptx/measured/register_classes.json) said nothing of a cache-policy, ctaMask, byteMask or
zero-column-mask-desc operand; user-broken compiler output (a retyped .reg line) found the checker
taking a 64-bit ctaMask, a 64-bit byteMask and a .u32 tensor memory address that ptxas refuses.
Each template below is compiled with a register of every declared type in its slot, in one file,
and each line's verdict is ptxas's own (errors are reported per line); the operand counts (a
modifier without its operand, an operand without its modifier) likewise; and registers of instructions whose
classes were measured with the other signedness (.s32 for .u32).
"""

from __future__ import annotations

import subprocess

import pytest
from conftest import need
from ptx_lines import lines_disagreeing

from gpuisa.ptx import ptxas
from gpuisa.ptx.frontend import errors

TYPES = [".pred", ".b16", ".u16", ".f16", ".b32", ".u32", ".s32", ".f32", ".b64", ".u64", ".s64", ".f64"]
NAMES = {t: "%" + "abcdeghijklm"[i] + "z" for i, t in enumerate(TYPES)}
HEAD = (".version 9.0\n.target sm_100a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
        + "".join(f".reg {t} {NAMES[t]}<8>;\n" for t in TYPES)
        + ".reg .b64 %rd<4>;\n.reg .b32 %r<8>;\n.reg .b16 %rs<4>;\n.reg .pred %p<4>;\n")
BULK = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
TEMPLATES = [
    BULK + ".multicast::cluster [%r1], [%rd1], %r2, [%r3], {};",
    BULK + ".L2::cache_hint [%r1], [%rd1], %r2, [%r3], {};",
    BULK + ".multicast::cluster.L2::cache_hint [%r1], [%rd1], %r2, [%r3], {}, %rd2;",
    "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], %r2, {};",
    "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
    "[%r1], [%rd1, {{%r2}}], [%r3], {};",
    "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group.L2::cache_hint [%rd1, {{%r1}}], [%r2], {};",
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%r1], {};",
    "tcgen05.mma.ws.cta_group::1.kind::f16 [%r1], [%r2], %rd1, %r3, %p1, {};",
    "ld.global.L2::cache_hint.b32 %r1, [%rd1], {};",
    "mbarrier.arrive.shared.b64 %rd1, [%r1], {};",
    "bar.sync %r1, {};",
    # tensor memory addresses of the tcgen05 mma instructions: .b32 only
    "tcgen05.mma.ws.cta_group::1.kind::f16 [{}], [%r2], %rd1, %r3, %p1;",
    "tcgen05.mma.cta_group::1.kind::f16 [%r1], [{}], %rd2, %r2, %p1;",
    "tcgen05.mma.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, [{}], %r2, %p1;",
    "tcgen05.ld.sync.aligned.32x32b.x1.b32 {{%r1}}, [{}];",
    "tcgen05.st.sync.aligned.32x32b.x1.b32 [{}], {{%r1}};",
    # classes measured with one signedness stand for the other (a one-edit mutant: sad.s32 into a .f64), and
    # getctarank/mapa take .s32 as .u32
    "sad.s32 {}, %r1, %r2, %r3;", "sad.s64 %rd1, %rd2, {}, %rd3;",
    "getctarank.s32 {}, %r1;", "mapa.shared::cluster.s32 %r1, {}, %r2;",
    "getctarank.u64 %r1, {};", "mapa.shared::cluster.u64 {}, %rd1, %r1;", "mapa.s64 %rd1, {}, %r1;",  # (EXTRA_EXAMPLES)
    # setp's BoolOp operand c is a predicate (the checker had asked for a register of the type)
    "setp.eq.and.u32 %p1, %r1, %r2, {};", "setp.ne.xor.b16 %p1|%p2, %rs1, %rs2, !{};", "setp.gt.or.s64 %p1, %rd1, %rd2, {};",
]
LOWERED = [  # ptxas refuses these as it lowers them ("Arguments mismatch for instruction 'mov'"): one file a line
    "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{}], 32;",
    "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}}, [{}];",
]
COUNTS = [  # operands that come with a modifier: missing, or without it
    BULK + ".multicast::cluster [%r1], [%rd1], %r2, [%r3];",
    BULK + ".multicast::cluster.L2::cache_hint [%r1], [%rd1], %r2, [%r3], %rs1;",
    BULK + " [%r1], [%rd1], %r2, [%r3], %rs1;",
    "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%r1], %r2;",
    "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], %r2, %rs1;",
    "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [%rd1], [%r1], %r2, %rd2, %rs1;",
    "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2}], [%r3], %rd1;",
    "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint "
    "[%r1], [%rd1, {%r2}], [%r3], %rd1;",
    "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group.L2::cache_hint [%rd1, {%r1}], [%r2];",
    "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd1, {%r1}], [%r2];",
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%r1];",
    "tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r1], %rs1;",
]


def _compare(tmp_path, lines: list[str]) -> list:
    return [(lines[i], verdict) for i, verdict in lines_disagreeing(tmp_path, HEAD, lines)]


@pytest.mark.parametrize("template", TEMPLATES)
def test_optional_operand_classes_as_ptxas(tmp_path, template):
    assert not _compare(tmp_path, [template.format(NAMES[t] + "1") for t in TYPES])


@pytest.mark.parametrize("template", LOWERED)
def test_lowered_address_classes_as_ptxas(tmp_path, template):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed")
    wrong = []
    for t in TYPES:
        text = HEAD + template.format(NAMES[t] + "1") + "\nret;\n}\n"
        path = tmp_path / "a.ptx"
        path.write_text(text)
        proc = subprocess.run([tool, "-arch=sm_100a", str(path), "-o", str(tmp_path / "a.cubin")], capture_output=True)
        if (proc.returncode == 0) != (not errors(text)[1]):
            wrong.append((t, "ptxas takes" if proc.returncode == 0 else "ptxas refuses"))
    assert not wrong


def test_modifier_operand_counts_as_ptxas(tmp_path):
    assert not _compare(tmp_path, COUNTS)
