"""Assembling a source of several lines (``gpuisa encode --file``): labels, comments, every error reported.

Two passes, as an assembler makes them: the first gives each label its offset (each instruction's size
from a trial encoding, a branch to a label counted as ``s_branch 0``), the second encodes every
instruction with its branch labels turned into SIMM16 offsets.  A line that does not assemble does not
stop either pass: each becomes an ``AsmError`` (line, column, reason), as llvm-mc reports
``<stdin>:3:18: error: ...`` for every bad line and then fails.  The column is that of what the reason
names (a quoted operand or modifier, the N-th operand, the mnemonic), else the instruction's start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_LABEL = re.compile(r"^[A-Za-z_.$][\w.$]*:")
_BRANCH = re.compile(r"^(s_(?:branch|cbranch_\w+))\s+([A-Za-z_.$][\w.$]*)$")
_QUOTED = re.compile(r"'([^']+)'")
_OPERAND = re.compile(r"\boperand (\d+)\b")


@dataclass
class AsmError:
    line: int
    column: int
    reason: str

    def format(self, source: str) -> str:
        return f"{source}:{self.line}:{self.column}: error: {self.reason}"


@dataclass
class _Stmt:
    lineno: int
    raw: str
    text: str  # the instruction, comments and labels removed
    start: int  # its column in the raw line (0-based)
    size: int = 0


def _code_part(raw: str) -> str:
    for mark in ("//", ";"):
        i = raw.find(mark)
        if i >= 0:
            raw = raw[:i]
    return raw


def _operand_column(text: str, k: int) -> int | None:
    """0-based column in ``text`` (an instruction) of its ``k``-th operand (1-based), commas in brackets aside."""
    sp = re.search(r"\s", text)
    if sp is None:
        return None
    at, depth, n = sp.end(), 0, 1
    while at < len(text) and text[at].isspace():
        at += 1
    if k == 1:
        return at
    for i in range(at, len(text)):
        c = text[i]
        if c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            n += 1
            if n == k:
                j = i + 1
                while j < len(text) and text[j].isspace():
                    j += 1
                return j
    return None


def column(stmt: _Stmt, reason: str) -> int:
    """1-based column of what ``reason`` is about in the statement's raw line."""
    text = stmt.text
    m = _OPERAND.search(reason)
    if m:
        at = _operand_column(text, int(m.group(1)))
        if at is not None:
            return stmt.start + at + 1
    for tok in _QUOTED.findall(reason):  # (not the whole statement, which reasons quote first)
        i = text.find(tok) if tok != text else -1
        if i >= 0:
            return stmt.start + i + 1
    return stmt.start + 1


def _statements(lines: list[tuple[int, str]], labels: dict[str, tuple[int, int]], errors: list[AsmError]):
    """The instructions of the source, labels taken out (``labels``: name -> (statement index, line))."""
    stmts: list[_Stmt] = []
    for lineno, raw in lines:
        code = _code_part(raw)
        pos = len(code) - len(code.lstrip())
        rest = code[pos:]
        while _LABEL.match(rest):
            name = rest.split(":", 1)[0]
            if name in labels:
                errors.append(AsmError(lineno, pos + 1, f"label {name!r} is already defined (line {labels[name][1]})"))
            else:
                labels[name] = (len(stmts), lineno)
            after = rest[len(name) + 1:]
            pos += len(name) + 1 + len(after) - len(after.lstrip())
            rest = after.lstrip()
        rest = rest.rstrip()
        if rest:
            stmts.append(_Stmt(lineno, raw, rest, pos))
    return stmts


def _error(st: _Stmt, branch, reason: str) -> AsmError:
    """The error of a statement that does not assemble: a branch to a name that is no label says so (a
    branch whose operand is a register, such as GFX9's ``s_cbranch_join s4``, assembles as it is)."""
    if branch is not None:
        return AsmError(st.lineno, st.start + branch.start(2) + 1, f"unknown label {branch.group(2)!r}")
    return AsmError(st.lineno, column(st, reason), reason)


def assemble(enc, lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str, object]], list[AsmError]]:
    """(offset, text, Encoded) per instruction and every error, in line order."""
    from .encoder import EncodeError

    errors: list[AsmError] = []
    labels: dict[str, tuple[int, int]] = {}
    stmts = _statements(lines, labels, errors)
    offsets, offset = [], 0
    for st in stmts:  # pass 1: sizes
        offsets.append(offset)
        m = _BRANCH.match(st.text)
        probe = f"{m.group(1)} 0" if m and m.group(2) in labels else st.text
        try:
            st.size = len(enc.encode_line(probe).data)
        except EncodeError as exc:
            errors.append(_error(st, m, str(exc)))
        offset += st.size
    out = []
    for st, off in zip(stmts, offsets):  # pass 2: the words
        if not st.size:
            continue
        line = st.text
        m = _BRANCH.match(line)
        if m and m.group(2) in labels:
            delta = (offsets[labels[m.group(2)][0]] - off - 4) // 4
            if not -0x8000 <= delta < 0x8000:
                errors.append(AsmError(st.lineno, st.start + m.start(2) + 1,
                                       f"branch to {m.group(2)!r} is out of range ({delta} dwords; SIMM16 holds "
                                       f"-32768..32767)"))
                continue
            line = f"{m.group(1)} {delta & 0xFFFF}"
        try:
            out.append((off, line, enc.encode_line(line)))
        except EncodeError as exc:
            errors.append(_error(st, m, str(exc)))
    errors.sort(key=lambda e: (e.line, e.column))
    return out, errors
