"""The lexer's fast paths give what their plain definitions give (a regular expression's substitution)."""

import random

import pytest

from gpuisa.ptx import lexer


def _by_pattern(text: str):
    try:
        return "ok", lexer.COMMENT_OR_STRING.sub(lexer._blank, text) if "/" in text else text
    except lexer.LexError as exc:
        return "error", exc.offset, exc.message


def _fast(text: str):
    try:
        return "ok", lexer.blank_comments(text)
    except lexer.LexError as exc:
        return "error", exc.offset, exc.message


@pytest.mark.parametrize("text, expected", [
    ("add.s32 %r1, %r2, 4; // c\nret;", "add.s32 %r1, %r2, 4;     \nret;"),
    ("a /* x\ny */ b", "a     \n     b"),
    ('.file 1 "/a//b.cu"\n// x', '.file 1 "/a//b.cu"\n    '),
    ("mov.u32 %r1, (8 / 2);", "mov.u32 %r1, (8 / 2);"),
    ("a /*/ b", None),
])
def test_blank_comments_cases(text, expected):
    got = _fast(text)
    if expected is None:
        assert got == ("error", 2, "unterminated /* comment")
    else:
        assert got == ("ok", expected)
        assert len(got[1]) == len(text)


def test_blank_comments_same_as_the_pattern_on_random_texts():
    rng = random.Random(1)
    alphabet = '/*"\\\na b;'
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert _fast(text) == _by_pattern(text), text


def test_cut_same_as_the_pattern_on_random_texts():
    rng = random.Random(2)
    alphabet = ";{}a \n"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        assert lexer._cut(text) == lexer.CUT.split(text), text


GUARDED = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_p)
{{
\t.reg .pred %p<2>;
\t.reg .b32 %r<4>;
\tmov.u32 %r1, %tid.x;
\tsetp.gt.s32 %p1, %r1, 3;
\t@{guard} bra.uni $L1;
\tadd.s32 %r2, %r1, {operand};
$L1:
\tret;
}}
"""


@pytest.mark.parametrize("guard, operand", [("%p1", "%r3"), ("%p9", "%r3"), ("!%p1", "%r9"), ("%p1", "%r1")])
def test_names_of_guarded_functions_agree_with_ptxas(tmp_path, guard, operand):
    """A function whose instructions are all valid, some guarded: its names (the guards' predicates,
    the operands; not the guarded opcodes) are resolved as ptxas resolves them."""
    import subprocess

    from conftest import need
    from gpuisa.ptx import ptxas
    from gpuisa.ptx.frontend import errors

    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas is not installed")
    text = GUARDED.format(guard=guard, operand=operand)
    path = tmp_path / "k.ptx"
    path.write_text(text)
    accepted = subprocess.run([tool, "-arch=sm_90", str(path), "-o", "/dev/null"], capture_output=True).returncode == 0
    _, bad = errors(text)
    assert (not bad) == accepted, bad
    assert all(b["line"] in (10, 11) for b in bad)
