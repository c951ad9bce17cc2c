"""PTX lexer: a whole .ptx text cut into statements as ptxas reads it, with their positions.

Statements run from one `;`, `{` or `}` to the next, over any number of lines; `//` and `/* */`
comments are blanked first (strings kept), so an offset in the blanked text is an offset in the
file and every statement keeps its line and column for messages.  Braces inside a statement
(`= {1, 2}` initializers, `{%r1, %r2}` vector operands) are kept in it; a `{` after a function
header or where a statement may start opens a scope; `.section` bodies (debug data, one item a
line without `;`) are read whole.

Hand-written over ``str`` methods and a few compiled regular expressions, not a generated lexer
(lark is a dependency): ``gpuisa ptx check --file`` must stay 10x faster than ptxas as a whole
process (benchmarks/bench_ptx_check.py), and compiler output is mostly one short statement per
line.  C-level splits cut the text at `;` (``str.split``), then at `{` and `}` (``re.split``, only the
pieces with a brace), and comments are found with ``str.find`` (a pattern search would test every
character against its first characters), so the Python-level work is a few operations per
statement, not per character; a token-by-token lexer in Python costs several
times the whole check on a 20,000-instruction file.
"""

from __future__ import annotations

import re

COMMENT_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*[\s\S]*?\*/|/\*')
CUT = re.compile(r"([;{}])")
LABEL = re.compile(r"\s*([A-Za-z_$%][\w$]*)\s*:(?!:)")
HEADER = re.compile(r"\s*(?:\.(?:visible|weak|extern|common)\s+)*\.(entry|func|section)\b")
NL = "\n"


class LexError(Exception):
    """A lexical error at an offset of the text."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


def _blank(m: re.Match) -> str:
    s = m.group()
    if s[0] == '"':
        return s
    if s[1] == "/":
        return " " * len(s)
    if len(s) == 2 or not s.endswith("*/"):
        raise LexError(m.start(), "unterminated /* comment")
    return "".join(c if c == NL else " " for c in s)


def blank_comments(text: str) -> str:
    """The text with every comment replaced by spaces (newlines kept): offsets stay those of the file.

    What ``COMMENT_OR_STRING.sub(_blank, text)`` gives, but the pattern is tried only where a `/` or
    a `"` is (found by ``str.find``): a search lets the matcher test every character of the file
    against the pattern's first characters (a tenth of a 2,500-instruction kernel's check)."""
    if "/" not in text:
        return text
    out, last, pos = [], 0, 0
    slash, quote = text.find("/"), text.find('"')
    match = COMMENT_OR_STRING.match
    while True:
        if 0 <= slash < pos:
            slash = text.find("/", pos)
        if 0 <= quote < pos:
            quote = text.find('"', pos)
        i = slash if quote < 0 or 0 <= slash < quote else quote
        if i < 0:
            break
        m = match(text, i)
        if m is None:  # a `/` of an expression, a `"` not closed on its line: as a search, on from the next one
            pos = i + 1
            continue
        pos = m.end()
        if text[i] != '"':
            out += (text[last:i], _blank(m))
            last = pos
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


NONBLANK = re.compile(r"\S")


def first_char(code: str, off: int) -> int:
    """The offset of the first non-blank character at or after ``off`` (``off`` if none)."""
    m = NONBLANK.search(code, off)
    return m.start() if m else off


def first_non_ascii(code: str) -> int:
    """Offset of the first non-ASCII character of a text, or -1."""
    if code.isascii():
        return -1
    return next(i for i, c in enumerate(code) if ord(c) > 127)


class Position:
    """Offset -> (line, column), both from 1; offsets asked for in increasing order are cheap."""

    __slots__ = ("text", "_off", "_line", "_bol")

    def __init__(self, text: str):
        self.text = text
        self._off = 0
        self._line = 1
        self._bol = 0  # offset of the start of the current line

    def line(self, offset: int) -> int:
        if offset < self._off:
            self._off, self._line, self._bol = 0, 1, 0
        text = self.text
        n = text.count(NL, self._off, offset)
        if n:
            self._line += n
            self._bol = text.rfind(NL, self._off, offset) + 1
        self._off = offset
        return self._line

    def line_col(self, offset: int) -> tuple[int, int]:
        line = self.line(offset)
        return line, offset - self._bol + 1


def statements(code: str):
    """(offset, text, end) for each statement of comment-blanked code.

    ``end`` is "line" (a directive ended by its line: .version, .target, .address_size, .file, .loc),
    ';' (a statement), '{' (a scope opens; text is a header or empty), '}' (a scope
    closes; text is empty or an unterminated statement), ':' (a label; text is its name),
    'section' (text is a whole `.section name { ... }`) or '' (text left at the end without `;`).
    ``offset`` is that of the statement's first non-blank character, except for plain statements
    ending in `;` (most of a file), where it is where the text after the previous delimiter starts:
    the blanks before the statement are skipped only when a position is reported (``first_char``).
    """
    parts = _cut(code)
    last = parts.pop()  # the text after the last `;`, `{` or `}`
    it = iter(parts)
    off = 0
    for piece, delim in zip(it, it):  # (text, delimiter) pairs; the inner loops below take pairs too
        start = off
        off += len(piece) + 1
        if delim == ";" and ":" not in piece:  # the common case: one statement, no label
            stripped = piece.strip()
            if stripped[:1] != "." or not LINE_DIRECTIVE.match(stripped):
                yield start, stripped, ";"  # (the piece's start: blanks before the statement not skipped)
                continue
        if delim == "{" and piece.strip() and _inner_brace(piece):
            # a brace inside a statement (initializer, vector operand): read on to its `;` at depth 0
            depth, chunks, d = 1, [piece, "{"], ""
            for p, d in zip(it, it):
                off += len(p) + 1
                chunks.append(p)
                if d == "{":
                    depth += 1
                elif d == "}" and depth:
                    depth -= 1
                else:
                    break  # `;` (a `;` inside braces ends it too, unbalanced), a scope's `}`
                chunks.append(d)
            else:  # the end of the text
                chunks.append(last)
                off += len(last)
                last, d = "", ""
            piece, delim = "".join(chunks), d
        sect = None
        for item in _labels_then(start, piece, delim):
            if item[2] == "section":
                sect = item
            else:
                yield item
        if sect is not None:
            # read the section body whole: items a line, no `;`
            j = code.find("}", off)
            if j < 0:
                yield sect[0], code[sect[0]:], ""
                return
            body = code[off:j]
            for p, _ in zip(it, it):
                off += len(p) + 1
                if off > j:
                    break
            yield sect[0], sect[1] + " {" + body + "}", "section"
    if last.strip():
        yield from _labels_then(off, last, "")


def _cut(code: str) -> list[str]:
    """``CUT.split(code)``: the text cut at `;` by ``str.split`` (C, no character-set test per
    character), and only the pieces with a brace cut again by the pattern."""
    out: list[str] = []
    for seg in code.split(";"):
        if "{" in seg or "}" in seg:
            out += CUT.split(seg)
        else:
            out.append(seg)
        out.append(";")
    out.pop()
    return out


def _inner_brace(piece: str) -> bool:
    """Whether a `{` after this piece is inside a statement (not a scope after labels or a header)."""
    m = LABEL.match(piece) or LINE_DIRECTIVE.match(piece)
    while m:
        piece = piece[m.end():]
        m = LABEL.match(piece) or LINE_DIRECTIVE.match(piece)
    return bool(piece.strip()) and not HEADER.match(piece)


LINE_DIRECTIVE = re.compile(r"\s*(\.(?:version|target|address_size|file|loc)\b[^\n]*)")


def _labels_then(start: int, piece: str, delim: str):
    """Labels and line-ended directives (`.version`, `.target`, `.address_size`, `.file`, `.loc`)
    at the start of a piece, then the rest of it."""
    while True:
        m = LABEL.match(piece) if ":" in piece else None
        if m:
            yield start + m.start(1), m.group(1), ":"
        else:
            m = LINE_DIRECTIVE.match(piece) if ".file" in piece or ".loc" in piece or start == 0 or (
                ".version" in piece or ".target" in piece or ".address_size" in piece) else None
            if not m:
                break
            yield start + m.start(1), m.group(1).strip(), "line"
        start += m.end()
        piece = piece[m.end():]
    stripped = piece.strip()
    if stripped or delim:
        lead = len(piece) - len(piece.lstrip())
        yield start + lead, stripped, "section" if delim == "{" and stripped.startswith(".section") else delim
