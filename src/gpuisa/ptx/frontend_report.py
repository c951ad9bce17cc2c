"""Where the front end reports an error (frontend.py), imported when one is found: the part of an
invalid instruction its message names, a missing `;` between two statements spread over lines, and
a name's first use."""

from __future__ import annotations

import re

from . import catalog
from .lexer import first_char

LABEL_START = re.compile(r"\s*([A-Za-z_$][\w$]*)\s*:(?!:)")
QUOTED = re.compile(r"`([^`]+)`")


def place(code: str, text: str, off: int, stmt: str, error: str, func_names: set) -> tuple[int, bool]:
    """(offset, whether it is a missing `;`) of an invalid instruction at ``off`` (comment-blanked
    ``code`` and the file's ``text``): where a statement spread over lines is two statements, the end
    of the first; else the part its error names."""
    off = first_char(code, off)
    if " " in stmt and "\n" in code[off:off + len(stmt) + 200]:
        split_at = split_point(code, off, func_names)
        if split_at is not None:
            return split_at, True
    return locate(code, text, off, stmt, error), False


def split_point(code: str, off: int, func_names: set) -> int | None:
    """Where a statement that failed, spread over lines, is two statements with the `;` missing:
    the end of the line before one that starts an instruction, a directive, a label or a block (a `{`
    alone on its line, as nvcc's call sequences open; labels swallowed
    by the merged statement still name their place: added to ``func_names``)."""
    end = code.find(";", off)
    raw = code[off:end if end >= 0 else len(code)]
    if "\n" not in raw:
        return None
    for line in raw.split("\n")[1:]:
        m = LABEL_START.match(line)
        if m:
            func_names.add(m.group(1))
    pos = 0
    for line in raw.split("\n")[:-1]:
        pos += len(line) + 1
        nxt = raw[pos:].lstrip()
        word = nxt.split(None, 1)[0] if nxt else ""
        if word.startswith("@") and len(nxt.split(None, 2)) > 1:
            word = nxt.split(None, 2)[1]
        if word[:1] == "." or (word.endswith(":") and not word.endswith("::")) or nxt.split("\n", 1)[0].strip() == "{" or (
                word[:1].isalpha() and catalog.head_forms(word.split(".", 1)[0])):
            return off + pos - 2 - (len(line) - len(line.rstrip()))  # its last character
    return None


def _find(code: str, text: str, off: int, stmt: str, token: str) -> int:
    """Offset of a token of the statement at ``off`` in the file, or -1."""
    end = code.find(";", off)
    return text.find(token, off, end if end >= 0 else off + 2 * len(stmt) + 200)


def locate(code: str, text: str, off: int, stmt: str, error: str) -> int:
    """Offset of the part an instruction error names (its first `quoted` token that is in the
    statement), else of the end of the opcode (where a missing part goes)."""
    for token in QUOTED.findall(error):
        p = _find(code, text, off, stmt, token)
        if p >= 0:
            return p
    head = stmt.split(None, 2)
    skip = len(head[0]) + 1 if stmt[0] == "@" and len(head) > 1 else 0
    p = _find(code, text, off, stmt, head[1] if skip else head[0])
    return (p + len(head[1] if skip else head[0])) if p >= 0 else off


def first_use(code: str, start: int, token: str) -> int:
    """Offset of a name's first use in a function's code (from ``start``)."""
    m = re.compile(r"(?<![\w$%.])" + re.escape(token) + r"(?![\w$])").search(code, start)
    return m.start() if m else start
