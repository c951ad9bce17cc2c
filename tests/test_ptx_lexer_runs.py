"""The lexer's fast path (``chunks``: stretches of plain statements as one item, found by C-level scans)
gives the statements its piece-by-piece reader (``_pieces`` over the whole text: every `;`, `{`, `}`
read one at a time) gives: same texts, kinds and places (an offset may differ only by the blanks before
a statement, which ``first_char`` skips wherever a position is reported)."""

import random
from pathlib import Path

from gpuisa.ptx import lexer

CORPUS = Path(__file__).resolve().parent / "data" / "ptx_corpus"


def _placed(code: str, items) -> list:
    return [(lexer.first_char(code, off), text, end) for off, text, end in items]


def _same(code: str) -> None:
    fast = _placed(code, lexer.statements(code))
    plain = _placed(code, lexer._pieces(code, 0))
    assert fast == plain, code[:300]


def test_runs_as_the_piece_reader_on_the_corpus():
    files = sorted(CORPUS.glob("*.ptx"))
    assert len(files) >= 60
    for f in files:
        try:
            code = lexer.blank_comments(f.read_text())
        except lexer.LexError:
            continue
        _same(code)
        runs = [item for item in lexer.chunks(code) if item[2] == "run"]
        assert runs, f.name  # (compiler output: most statements come in runs)


def test_runs_as_the_piece_reader_on_random_texts():
    rng = random.Random(5)
    words = ["a", " ", "\n", "\t", ";", "{", "}", ":", "::", ".section .debug_info", ".reg .b32 %r<2>", ".version 8.0",
             ".loc 1 2 3", "L1:", "x = {1, 2}", ".file 1 \"a.cu\"", "\0", "add.s32 %r1", ".visible .entry k()",
             ".func f", "$L:", "{%r1, %r2}", "ld.shared::cta.u32", "@%p1 bra L1", "ret"]
    for _ in range(30000):
        _same("".join(rng.choice(words) for _ in range(rng.randint(0, 14))))


def test_offsets_of_runs_and_single_statements():
    code = "a;\n  bb ;c;{d;e;}f;"
    items = list(lexer.statements(code))
    marks, texts = [], []
    for off, stmt, end in lexer.chunks(code):
        if end == "run":
            marks.append([len(texts), off, stmt[1], None])
            texts += stmt[0]
        elif end == ";":
            marks.append([len(texts), off, None, None])
            texts.append(stmt)
    offsets = lexer.Offsets(marks)
    wanted = [off for off, _, end in items if end == ";"]
    assert [offsets[i] for i in range(len(texts))] == wanted == offsets.all()
    assert [code[lexer.first_char(code, o)] for o in wanted] == ["a", "b", "c", "d", "e", "f"]
