"""The lexer's hand-written helpers give what their plain definitions give: the regular expressions each
stands for (kept here, as the definitions), on hand-picked and random texts."""

import random
import re

import pytest

from gpuisa.ptx import lexer

COMMENT_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*[\s\S]*?\*/|/\*')
CUT = re.compile(r"([;{}])")
LABEL = re.compile(r"\s*([A-Za-z_$%][\w$]*)\s*:(?!:)")
HEADER = re.compile(r"\s*(?:\.(?:visible|weak|extern|common)\s+)*\.(entry|func|section)\b")
LINE_DIRECTIVE = re.compile(r"\s*(\.(?:version|target|address_size|file|loc)\b[^\n]*)")
NONBLANK = re.compile(r"\S")


def _blank(m: re.Match) -> str:
    s = m.group()
    if s[0] == '"':
        return s
    if s[1] == "/":
        return " " * len(s)
    if len(s) == 2 or not s.endswith("*/"):
        raise lexer.LexError(m.start(), "unterminated /* comment")
    return "".join(c if c == "\n" else " " for c in s)


def _by_pattern(text: str):
    try:
        return "ok", COMMENT_OR_STRING.sub(_blank, text) if "/" in text else text
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
        assert lexer._cut(text) == CUT.split(text), text


def _as_tuple(m):
    return None if m is None else (m.start(1), m.group(1), m.end())


def test_labels_directives_headers_same_as_the_patterns_on_random_texts():
    rng = random.Random(3)
    words = ["L1", "$L__BB0_2", "%r", "_", "a$", "x9", ".version", ".target", ".address_size", ".file", ".loc",
             ".files", ".loc$", ".visible", ".weak", ".extern", ".common", ".entry", ".func", ".section", ".funcs",
             ".entry_", ".func$", ":", "::", " ", "  ", "\n", "\t", "\u00e9", "\u00b2", "9", "(", "{", ".", "é1"]
    for _ in range(40000):
        text = "".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
        assert lexer.label_at(text) == _as_tuple(LABEL.match(text)), text
        assert lexer.line_directive_at(text) == _as_tuple(LINE_DIRECTIVE.match(text)), text
        assert lexer._is_header(text) == bool(HEADER.match(text)), text
        off = rng.randint(0, len(text))
        m = NONBLANK.search(text, off)
        assert lexer.first_char(text, off) == (m.start() if m else off), (text, off)
    long = " " * 700 + "\n" * 300 + "x"
    assert lexer.first_char(long, 3) == 1000 and lexer.first_char(long, 1001) == 1001


def test_lexer_does_not_import_re():
    import subprocess
    import sys

    code = "import sys; import gpuisa.ptx.lexer; print('re' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


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
