"""Vector operands `{a, b}` whose registers have different declared types, against ptxas 13.

ptxas gives a vector one element type (a `.pred` goes with a `.b32` only; `.bN` with any type of
size N; `.uN` with `.sN`) and checks it against the instruction's type (red/atom/st.async and texture
coordinates: of its size exactly; packed halves in `.bN` registers); one-edit mutants of real
files (a vector element renamed to a predicate) found the checker refusing what ptxas takes.  Every
pair of element types below is compiled in one file per instruction and each line's verdict is
ptxas's own (errors are reported per line).
"""

from __future__ import annotations

import pytest
from ptx_lines import lines_disagreeing

TYPES = [".pred", ".b16", ".u16", ".f16", ".b32", ".u32", ".s32", ".f32", ".b64", ".u64", ".f64"]
NAMES = {t: "%" + "abcdeghijkl"[i] + "z" for i, t in enumerate(TYPES)}
HEAD = (".version 8.7\n.target sm_100a\n.address_size 64\n.global .texref t1;\n.global .surfref s1;\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        + "".join(f".reg {t} {NAMES[t]}<8>;\n" for t in TYPES) + ".reg .b64 %rd<4>;\n.reg .f32 %f<8>;\n.reg .b32 %r<8>;\n")
INSTRUCTIONS = [
    "ld.shared.v2.b32 {{{}, {}}}, [%rd1];", "ld.shared.v2.u32 {{{}, {}}}, [%rd1];", "ld.shared.v2.f32 {{{}, {}}}, [%rd1];",
    "ld.shared.v2.u16 {{{}, {}}}, [%rd1];", "ld.shared.v2.f64 {{{}, {}}}, [%rd1];", "st.shared.v2.f32 [%rd1], {{{}, {}}};",
    "st.shared.v2.s32 [%rd1], {{{}, {}}};", "ld.shared.v4.f32 {{%hz1, %hz2, {}, {}}}, [%rd1];",
    "mov.b64 {{{}, {}}}, %rd1;", "mov.b64 %rd1, {{{}, {}}};", "mov.b32 {{{}, {}}}, %r1;",
    "tex.level.2d.v4.f32.f32 {{%f1, %f2, {}, {}}}, [t1, {{%f4, %f5}}], %f6;",
    "tex.level.2d.v4.s32.f32 {{%r1, %r2, {}, {}}}, [t1, {{%f4, %f5}}], %f6;",
    # the other instructions with vector operands: elements as above, and the vector's type against the
    # instruction's (red/atom/st.async and texture coordinates: its size exactly; packed halves in .bN)
    "ldu.global.v2.f32 {{{}, {}}}, [%rd1];", "ld.global.nc.v2.u32 {{{}, {}}}, [%rd1];",
    "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.s32 [%rd1], {{{}, {}}}, [%rd2];",
    "red.global.add.v2.f32 [%rd1], {{{}, {}}};", "red.global.add.noftz.v2.f16x2 [%rd1], {{{}, {}}};",
    "atom.global.add.v2.f32 {{%f1, %f2}}, [%rd1], {{{}, {}}};",
    "tld4.r.2d.v4.f32.f32 {{%f1, %f2, {}, {}}}, [t1, {{%f4, %f5}}];",
    "tex.2d.v4.f32.s32 {{%f1, %f2, %f3, %f4}}, [t1, {{{}, {}}}];",
    "suld.b.1d.v2.b32.trap {{{}, {}}}, [s1, {{%r1}}];", "sust.b.1d.v2.b16.trap [s1, {{%r1}}], {{{}, {}}};",
]


@pytest.mark.parametrize("template", INSTRUCTIONS)
def test_vector_element_types_as_ptxas(tmp_path, template):
    pairs = [(a, b) for a in TYPES for b in TYPES]
    lines = [template.format(NAMES[a] + "1", NAMES[b] + "2") for a, b in pairs]
    wrong = [(pairs[i], verdict) for i, verdict in lines_disagreeing(tmp_path, HEAD, lines)]
    assert not wrong, wrong


PAIRS = ["shfl.sync.up.b32 %r1|{}, %r2, 2, 0, -1;", "setp.eq.s32 %az1|{}, %r1, %r2;",
         "tex.2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}|{}, [t1, {{%f4, %f5}}];", "elect.sync %r1|{}, -1;"]


@pytest.mark.parametrize("template", PAIRS)
def test_register_after_bar_as_ptxas(tmp_path, template):
    """`d|p`: the register after `|` of each declared type (a one-edit mutant renamed it to a .b32 one)."""
    lines = [template.format(NAMES[t] + "1") for t in TYPES]
    assert not lines_disagreeing(tmp_path, HEAD.replace("sm_100a", "sm_90"), lines, "sm_90")
