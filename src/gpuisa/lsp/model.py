"""What the language server knows about one document: instructions, labels, symbols, problems.

Each ISA's analyser (its ``lsp`` hook: ``amd.py``, ``ptx.py``) fills an ``Analysis``; the LSP features
(``features.py``, with the ISA's ``dialect.Dialect``) only read it.  Positions are 0-based (line, UTF-16 column = str index for the
ASCII text of assembly files).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

WORD = re.compile(r"[%$A-Za-z0-9_.:@\[\]]+")
PTX_WORD = re.compile(r"[%$A-Za-z0-9_.]+")
LABEL_DEF = re.compile(r"^\s*([A-Za-z_.$][\w.$]*):")


@dataclass
class Inst:
    """One instruction: where its mnemonic (or PTX opcode) and its operands are."""

    line: int
    start: int  # column of the mnemonic (after any label or PTX guard)
    mn_end: int  # column after the mnemonic
    end: int  # column after the instruction text (before a comment or ';')
    mnemonic: str
    text: str  # the instruction as the assembler or checker sees it


@dataclass
class Label:
    name: str
    line: int
    col: int


@dataclass
class Symbol:
    name: str
    kind: str  # "kernel" | "function" | "label"
    line: int
    col: int
    end_line: int


@dataclass
class Problem:
    line: int
    start: int
    end: int
    message: str
    severity: str = "error"  # error | warning | information | hint


@dataclass
class Analysis:
    lang: str  # the ISA's key in gpuisa.isas ("amdgpu", "ptx", ...)
    lines: list[str]
    arch: str | None = None  # AMD architecture key
    arch_source: str = ""  # where the target came from (directive, comment, setting)
    wave64: bool = False
    ptx_target: str | None = None
    ptx_version: str | None = None
    insts: list[Inst] = field(default_factory=list)
    labels: dict[str, Label] = field(default_factory=dict)
    symbols: list[Symbol] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    encoded: dict[int, str] = field(default_factory=dict)  # AMD: line -> bytes as hex pairs
    registers: dict[str, tuple[str, int]] = field(default_factory=dict)  # PTX: prefix -> (type, line)
    params: dict[str, tuple[str, int]] = field(default_factory=dict)  # PTX: param name -> (decl, line)

    def insts_at(self, line: int) -> list[Inst]:
        return [i for i in self.insts if i.line == line]


def language_of(uri: str, language_id: str | None = None) -> str | None:
    """The ISA of a document (a key of ``gpuisa.isas`` with an ``lsp`` analyser): by its file name's ending,
    else by the editor's language id (amdgpu for .s/.asm/.amdgcn, ptx for .ptx)."""
    from .. import isas

    path = uri.split("?", 1)[0]
    known = [isas.get(k) for k in isas.keys("lsp")]
    for i in known:
        if i.suffixes and path.endswith(i.suffixes):
            return i.key
    return next((i.key for i in known if language_id in i.language_ids), None)


def word_at(line: str, col: int, word: re.Pattern = WORD) -> tuple[str, int, int]:
    """(word, start, end) under the cursor as ``word`` reads words (the dialect's: ``WORD`` takes names,
    registers (s[0:1]), .modifiers and label@rel; ``PTX_WORD`` names, %regs and dotted opcodes)."""
    for m in word.finditer(line):
        if m.start() <= col <= m.end() and m.end() > m.start():
            return m.group(0), m.start(), m.end()
    return "", col, col


def top_commas(text: str) -> int:
    """Commas outside brackets/braces/parentheses: the index of the operand being typed."""
    depth = n = 0
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            n += 1
    return n


def find_token(line: str, token: str, start: int, end: int) -> tuple[int, int] | None:
    """The columns of ``token`` as a whole word in line[start:end]."""
    if not token:
        return None
    for m in re.finditer(re.escape(token), line[start:end]):
        a, b = start + m.start(), start + m.end()
        before = line[a - 1] if a > 0 else " "
        after = line[b] if b < len(line) else " "
        if (not (before.isalnum() or before == "_") or token[0] in ".%") and not (after.isalnum() or after == "_"):
            return a, b
    return None
