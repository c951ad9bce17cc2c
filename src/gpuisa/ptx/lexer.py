"""PTX lexer: a whole .ptx text cut into statements as ptxas reads it, with their positions.

Statements run from one `;`, `{` or `}` to the next, over any number of lines; `//` and `/* */`
comments are blanked first (strings kept), so an offset in the blanked text is an offset in the
file and every statement keeps its line and column for messages.  Braces inside a statement
(`= {1, 2}` initializers, `{%r1, %r2}` vector operands) are kept in it; a `{` after a function
header or where a statement may start opens a scope; `.section` bodies (debug data, one item a
line without `;`) are read whole.

Hand-written over ``str`` methods, without regular expressions (``re`` is not even imported: its
import and the patterns' compilation are a quarter of a small kernel's whole check, start-up
included), not a generated lexer (lark is a dependency): ``gpuisa ptx check --file`` must stay 10x
faster than ptxas as a whole process (benchmarks/bench_ptx_check.py), and compiler output is mostly
one short statement per line.  C-level splits cut the text at `;` (``str.split``), then at `{` and
`}` (only the pieces with a brace), and comments are found with ``str.find``, so the Python-level
work is a few operations per statement, not per character; a token-by-token lexer in Python costs
several times the whole check on a 20,000-instruction file.  What each helper matches is written
next to it as the regular expression it stands for; tests/test_ptx_lexer_fast.py compares them
with those expressions on random texts.
"""

from __future__ import annotations

NL = "\n"
NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$%")
HEADER_PREFIXES = (".visible", ".weak", ".extern", ".common")
HEADER_WORDS = (".entry", ".func", ".section")
LINE_WORDS = (".version", ".target", ".address_size", ".file", ".loc")


class LexError(Exception):
    """A lexical error at an offset of the text."""

    def __init__(self, offset: int, message: str):
        super().__init__(message)
        self.offset = offset
        self.message = message


def _comment_or_string(text: str, i: int) -> int:
    r"""The end of the comment or string at ``i`` (a `/` or a `"`), -1 where none starts there, and
    LexError for a `/*` without its `*/`: ``"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*[\s\S]*?\*/|/\*`` matched at ``i``."""
    if text[i] == '"':  # a string: ends at the next unescaped `"` on its line
        j, n = i + 1, len(text)
        while j < n:
            c = text[j]
            if c == '"':
                return j + 1
            if c == NL or (c == "\\" and (j + 1 == n or text[j + 1] == NL)):
                return -1
            j += 2 if c == "\\" else 1
        return -1
    nxt = text[i + 1:i + 2]
    if nxt == "/":
        j = text.find(NL, i)
        return len(text) if j < 0 else j
    if nxt == "*":
        j = text.find("*/", i + 2)
        if j < 0:
            raise LexError(i, "unterminated /* comment")
        return j + 2
    return -1


def _blanked(s: str) -> str:
    """A comment as blanks: its newlines kept."""
    return " " * len(s) if NL not in s else "".join(c if c == NL else " " for c in s)


def blank_comments(text: str) -> str:
    """The text with every comment replaced by spaces (newlines kept): offsets stay those of the file.

    Strings (`"..."` on one line) are kept whole, so a `//` inside one is not a comment; a `/*`
    without its `*/` is an error (LexError).  Only the places where a `/` or a `"` is are looked at
    (``str.find``)."""
    if "/" not in text:
        return text
    out: list[str] = []
    last, pos = 0, 0
    slash, quote = text.find("/"), text.find('"')
    while True:
        if 0 <= slash < pos:
            slash = text.find("/", pos)
        if 0 <= quote < pos:
            quote = text.find('"', pos)
        i = slash if quote < 0 or 0 <= slash < quote else quote
        if i < 0:
            break
        end = _comment_or_string(text, i)
        if end < 0:  # a `/` of an expression, a `"` not closed on its line: on from the next one
            pos = i + 1
            continue
        pos = end
        if text[i] != '"':
            out += (text[last:i], _blanked(text[i:end]))
            last = pos
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def first_char(code: str, off: int) -> int:
    r"""The offset of the first non-blank character at or after ``off`` (``off`` if none): ``\S``."""
    n = len(code)
    at = off
    while at < n:
        chunk = code[at:at + 256]
        rest = chunk.lstrip()
        if rest:
            return at + len(chunk) - len(rest)
        at += 256
    return off


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
            if stripped[:1] != "." or not line_directive_at(stripped):
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
    """The text cut at `;`, `{` and `}`, the delimiters kept between the pieces (``re.split(r"([;{}])",
    code)``): ``str.split`` at `;` (C, no character-set test per character), and only the pieces
    with a brace cut again at the braces (``str.split`` too: a long piece with a brace, a function's
    header after blanked comments, is not read a character at a time)."""
    out: list[str] = []
    for seg in code.split(";"):
        if "{" in seg or "}" in seg:
            for k, part in enumerate(seg.split("{")):
                if k:
                    out.append("{")
                if "}" in part:
                    closes = part.split("}")
                    out.append(closes[0])
                    for after in closes[1:]:
                        out += ("}", after)
                else:
                    out.append(part)
        else:
            out.append(seg)
        out.append(";")
    out.pop()
    return out


def _is_word(c: str) -> bool:
    r"""``\w`` or `$` (a name's characters)."""
    return c.isalnum() or c == "_" or c == "$"


def _ends_word(text: str, at: int) -> bool:
    r"""``\b`` after a word that ends at ``at``: the text ends there or a non-``\w`` character follows."""
    return at >= len(text) or not (text[at].isalnum() or text[at] == "_")


def label_at(piece: str) -> tuple[int, str, int] | None:
    r"""(name's start, name, end after the `:`) of a label at the start of a piece, else None:
    ``\s*([A-Za-z_$%][\w$]*)\s*:(?!:)``."""
    rest = piece.lstrip()
    start = len(piece) - len(rest)
    if not rest or rest[0] not in NAME_START:
        return None
    j, n = start + 1, len(piece)
    while j < n and _is_word(piece[j]):
        j += 1
    name = piece[start:j]
    after = piece[j:].lstrip()
    colon = n - len(after)
    if after[:1] != ":" or after[1:2] == ":":
        return None
    return start, name, colon + 1


def line_directive_at(piece: str) -> tuple[int, str, int] | None:
    r"""(start, text to the end of its line, end) of a line-ended directive at the start of a piece
    (`.version`, `.target`, `.address_size`, `.file`, `.loc`), else None:
    ``\s*(\.(?:version|target|address_size|file|loc)\b[^\n]*)``."""
    rest = piece.lstrip()
    if rest[:1] != ".":
        return None
    start = len(piece) - len(rest)
    for word in LINE_WORDS:
        if rest.startswith(word) and _ends_word(rest, len(word)):
            end = piece.find(NL, start)
            end = len(piece) if end < 0 else end
            return start, piece[start:end], end
    return None


def _is_header(piece: str) -> bool:
    r"""Whether a piece starts a function header or a `.section`:
    ``\s*(?:\.(?:visible|weak|extern|common)\s+)*\.(entry|func|section)\b``."""
    rest = piece.lstrip()
    while rest[:1] == ".":
        for word in HEADER_PREFIXES:
            if rest.startswith(word) and rest[len(word):len(word) + 1].isspace():
                rest = rest[len(word):].lstrip()
                break
        else:
            break
    return any(rest.startswith(w) and _ends_word(rest, len(w)) for w in HEADER_WORDS)


def _inner_brace(piece: str) -> bool:
    """Whether a `{` after this piece is inside a statement (not a scope after labels or a header)."""
    m = label_at(piece) or line_directive_at(piece)
    while m:
        piece = piece[m[2]:]
        m = label_at(piece) or line_directive_at(piece)
    return bool(piece.strip()) and not _is_header(piece)


def _labels_then(start: int, piece: str, delim: str):
    """Labels and line-ended directives (`.version`, `.target`, `.address_size`, `.file`, `.loc`)
    at the start of a piece, then the rest of it."""
    while True:
        m = label_at(piece) if ":" in piece else None
        if m:
            yield start + m[0], m[1], ":"
        else:
            m = line_directive_at(piece) if ".file" in piece or ".loc" in piece or start == 0 or (
                ".version" in piece or ".target" in piece or ".address_size" in piece) else None
            if not m:
                break
            yield start + m[0], m[1].strip(), "line"
        start += m[2]
        piece = piece[m[2]:]
    stripped = piece.strip()
    if stripped or delim:
        lead = len(piece) - len(piece.lstrip())
        yield start + lead, stripped, "section" if delim == "{" and stripped.startswith(".section") else delim
