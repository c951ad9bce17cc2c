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

from itertools import accumulate, repeat

NL = "\n"
NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$%")
HEADER_PREFIXES = (".visible", ".weak", ".extern", ".common")
HEADER_WORDS = (".entry", ".func", ".section")
LINE_WORDS = (".version", ".target", ".address_size", ".file", ".loc")
RUN_MAX = 1024  # statements of a run at most (the front end checks a batch's statements pass by pass: cache-sized)


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
    ending in `;` (most of a file), where it may be where the text after the previous delimiter starts:
    the blanks before the statement are skipped only when a position is reported (``first_char``).
    """
    for off, stmt, end in chunks(code):
        if end == "run":
            texts, raws = stmt
            yield from zip(run_offsets(off, raws), texts, repeat(";"))
        else:
            yield off, stmt, end


def run_offsets(off: int, raws: list) -> list[int]:
    """The offsets of a run's statements (``chunks``): each after the `;` of the one before."""
    return [at + k for k, at in enumerate(accumulate(map(len, raws[:-1]), initial=off))]


class Offsets:
    """The offsets of a batch of statements (``frontend.Module.flush``), by index, worked out when asked
    for (errors, and every valid result with ``keep_valid``) from the batch's marks: [index of the
    first statement, its offset, the raw texts of a run (``chunks``) or None (one statement), the
    run's offsets once worked out]."""

    __slots__ = ("marks", "firsts")

    def __init__(self, marks: list[list]):
        self.marks = marks
        self.firsts = [m[0] for m in marks]

    def __getitem__(self, i: int) -> int:
        lo, hi = 0, len(self.firsts)  # the last mark at or before i (a binary search)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.firsts[mid] <= i:
                lo = mid
            else:
                hi = mid
        mark = self.marks[lo]
        if mark[2] is None:
            return mark[1]
        if mark[3] is None:
            mark[3] = run_offsets(mark[1], mark[2])
        return mark[3][i - mark[0]]

    def all(self) -> list[int]:
        out: list[int] = []
        for mark in self.marks:
            out += [mark[1]] if mark[2] is None else run_offsets(mark[1], mark[2])
        return out


def chunks(code: str):
    """``statements(code)``, except that each stretch of plain statements (text between two `;` with
    no brace, no `:` but in `::`, neither blank nor starting with `.`: most of a function body) comes
    as one item (offset of the first, (their texts, their raw texts), "run"): the text is split at
    `;` and stripped by C-level calls, the other pieces found by ``str.find`` (``_special``), so there
    is no Python-level step per plain statement; each statement's offset is worked out only when
    asked for (``run_offsets``).  The other statements (labels, directives, braces) are read one at
    a time (``_piece``), and from a `.section` on the rest of the text is (``_pieces``)."""
    segs = code.split(";")
    segs.pop()  # (the text after the last `;`: read by _pieces below)
    stripped = list(map(str.strip, segs))
    special = _special(code, segs, stripped)
    n, i, k, off = len(segs), 0, 0, 0
    while i < n:
        while special[k] < i:
            k += 1
        stop = min(special[k], i + RUN_MAX)
        if stop > i:  # plain statements i..stop-1
            raws = segs[i:stop]
            yield off, (stripped[i:stop], raws), "run"
            off += sum(map(len, raws)) + len(raws)
            i = stop
            if i >= n:
                break
        seg = segs[i]
        if ".section" in seg:  # (a section's body may hold `;`: the rest piece by piece)
            yield from _pieces(code, off)
            return
        yield from _pieces(code, off, off + len(seg) + 1)
        off += len(seg) + 1
        i += 1
    yield from _pieces(code, off)


def _special(code: str, segs: list, stripped: list) -> list[int]:
    """Indices of the `;`-ended pieces that are not plain statements, in order, then len(segs): with a
    brace, blank, starting with `.`, or with a `:` that is not part of a `::` (a label may start
    there; a `::` is never a label's colon).  Found by C-level scans (``list.index`` for the blank
    ones, ``str.find`` for the others, each piece's index: the separators before it, counted from the
    last one found)."""
    out: list[int] = []
    where(stripped, "", out)
    if "{" in code:
        _pieces_with(code, "{", ";", out)
    if "}" in code:
        _pieces_with(code, "}", ";", out)
    if ":" in code:
        _pieces_with(code.replace("::", "") if "::" in code else code, ":", ";", out)
    if "\0" in code:  # (pieces with NULs of their own: one test per piece)
        out += [i for i, s in enumerate(stripped) if s[:1] == "."]
    else:
        if stripped and stripped[0][:1] == ".":
            out.append(0)
        dots: list[int] = []  # (the others: the NUL before each is the piece's index - 1 of them)
        _pieces_with("\0".join(stripped), "\0.", "\0", dots)
        out += [k + 1 for k in dots]
    out = sorted(set(out))
    out.append(len(segs))
    return out


def _pieces_with(text: str, needle: str, sep: str, out: list[int]) -> None:
    """Append the indices of the ``sep``-separated pieces of ``text`` where ``needle`` starts (its
    piece: the separators before it)."""
    pos, idx, prev = text.find(needle), 0, 0
    while pos >= 0:
        idx += text.count(sep, prev, pos)
        out.append(idx)
        prev = pos
        pos = text.find(needle, pos + 1)


def where(items: list, value, out: list[int]) -> None:
    """Append the indices of ``value`` in ``items`` to ``out``."""
    i = -1
    try:
        while True:
            i = items.index(value, i + 1)
            out.append(i)
    except ValueError:
        pass


def _pieces(code: str, start: int, stop: int | None = None):
    """The statements of ``code[start:stop]`` (to the end: None), one piece at a time: the text cut
    at `;`, `{` and `}` (``_cut``), each piece read with its delimiter (``_piece``)."""
    parts = _cut(code[start:stop])
    last = parts.pop()  # the text after the last `;`, `{` or `}`
    pieces, delims = parts[0::2], parts[1::2]
    starts = list(accumulate(map(len, parts), initial=start))[0::2]  # each piece's offset
    n, i = len(pieces), 0
    state = [last]
    while i < n:
        i = yield from _piece(code, pieces, delims, starts, i, state)
    if state[0].strip():
        yield from _labels_then(starts[n], state[0], "")


def _piece(code: str, pieces: list, delims: list, starts: list, i: int, state: list):
    """The items of piece ``i`` (with its delimiter) as ``statements`` reads it; returns the index
    of the next piece to read (a `{` inside a statement reads on to its `;`, a `.section` to its
    `}`).  ``state[0]``: the text after the last delimiter, emptied when read here."""
    piece, delim, start = pieces[i], delims[i], starts[i]
    i += 1
    if delim == ";" and ":" not in piece:
        stripped = piece.strip()
        if stripped[:1] != "." or not line_directive_at(stripped):
            yield start, stripped, ";"  # (the piece's start: blanks before the statement not skipped)
            return i
    if delim == "{" and piece.strip() and _inner_brace(piece):
        # a brace inside a statement (initializer, vector operand): read on to its `;` at depth 0
        depth, parts, d = 1, [piece, "{"], ""
        n = len(pieces)
        while i < n:
            p, d = pieces[i], delims[i]
            i += 1
            parts.append(p)
            if d == "{":
                depth += 1
            elif d == "}" and depth:
                depth -= 1
            else:
                break  # `;` (a `;` inside braces ends it too, unbalanced), a scope's `}`
            parts.append(d)
        else:  # the end of the text
            parts.append(state[0])
            state[0], d = "", ""
        piece, delim = "".join(parts), d
    sect = None
    for item in _labels_then(start, piece, delim):
        if item[2] == "section":
            sect = item
        else:
            yield item
    if sect is not None:
        # read the section body whole: items a line, no `;`
        off = starts[i] if i < len(pieces) or state[0] else len(code)
        j = code.find("}", off)
        if j < 0:
            yield sect[0], code[sect[0]:], ""
            state[0] = ""
            return len(pieces)
        body = code[off:j]
        while i < len(pieces) and starts[i] <= j:  # the pieces up to the `}` at j
            i += 1
        yield sect[0], sect[1] + " {" + body + "}", "section"
    return i


def _cut(code: str) -> list[str]:
    """The text cut at `;`, `{` and `}`, the delimiters kept between the pieces (``re.split(r"([;{}])",
    code)``): each delimiter made NUL, itself, NUL (``str.replace``) and the text split at NUL, all in C
    (a text with a NUL of its own: ``_cut_pieces``)."""
    if "\0" in code:
        return _cut_pieces(code)
    return code.replace(";", "\0;\0").replace("{", "\0{\0").replace("}", "\0}\0").split("\0")


def _cut_pieces(code: str) -> list[str]:
    """``_cut`` by ``str.split`` at `;`, then at the braces of the pieces that have one."""
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
