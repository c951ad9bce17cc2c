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
