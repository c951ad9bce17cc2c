"""PTX (as nvcc -ptx or llc -march=nvptx64 emit it): header, statements, declarations, problems.

The ``.version`` and ``.target`` directives of the file give the PTX ISA version and target
every statement is checked against (``gpuisa.ptx.check.check_instruction``); parameter lists of
``.entry``/``.func`` and other directives are structure, not statements.
"""

from __future__ import annotations

import re

from .model import Analysis, Inst, Label, Problem, Symbol, find_token

LABEL = re.compile(r"^\s*([A-Za-z_$][\w$]*):")
GUARD = re.compile(r"^@!?%?[\w$]+\s+")
FUNC = re.compile(r"^(?:\.visible\s+|\.extern\s+|\.weak\s+)*\.(entry|func)\b(?:\s*\([^)]*\))?\s*([A-Za-z_$][\w$]*)")
REG_DECL = re.compile(r"^\.reg\s+(\.\w+)(?:\s+\.\w+)*\s+(.+)$")
PARAM_DECL = re.compile(r"^\.param\b(.*?)([A-Za-z_$][\w$]*)(\[\d*\])?\s*,?\s*$")
BACKTICK = re.compile(r"`([^`]+)`")


def _header(an: Analysis, n: int, code: str) -> bool:
    parts = code.replace(",", " ").split()
    if parts[0] == ".version" and len(parts) > 1:
        an.ptx_version = parts[1]
        return True
    if parts[0] == ".target" and len(parts) > 1:
        an.ptx_target = parts[1]
        return True
    return False


def parse(lines: list[str]) -> Analysis:
    an = Analysis("ptx", lines)
    depth = 0  # parentheses of a parameter list
    func: Symbol | None = None
    for n, raw in enumerate(lines):
        code = raw.split("//", 1)[0]
        stripped = code.strip()
        if not stripped:
            continue
        if _header(an, n, stripped):
            continue
        m = FUNC.match(stripped)
        if m:
            col = raw.find(m.group(2))
            func = Symbol(m.group(2), "kernel" if m.group(1) == "entry" else "function", n, max(col, 0), n)
            an.symbols.append(func)
            an.labels.setdefault(m.group(2), Label(m.group(2), n, max(col, 0)))
        if depth or m:
            depth = max(0, depth + code.count("(") - code.count(")"))
            if m is None or depth or ")" in code:
                _param(an, stripped, n)
                continue
        if func is not None:
            func.end_line = n
        _statements(an, raw, code, n, func)
    return an


def _param(an: Analysis, text: str, n: int) -> None:
    m = PARAM_DECL.match(text.strip().rstrip(")").strip())
    if m:
        an.params[m.group(2)] = (text.strip().rstrip(",)").strip(), n)


def _statements(an: Analysis, raw: str, code: str, n: int, func: Symbol | None) -> None:
    pos = 0
    for piece in code.split(";"):
        start = pos
        pos += len(piece) + 1
        text = piece
        off = start
        while True:
            m = LABEL.match(text)
            if not m:
                break
            an.labels.setdefault(m.group(1), Label(m.group(1), n, off + m.start(1)))
            if func is not None:
                an.symbols.append(Symbol(m.group(1), "label", n, off + m.start(1), n))
            off += m.end()
            text = text[m.end():]
        body = text.strip()
        if not body or body[0] in "{}":
            body = body.strip("{} ")
            if not body:
                continue
        if body.startswith("."):
            _declaration(an, body, n)
            continue
        col = off + text.find(body)
        g = GUARD.match(body)
        op_col = col + (g.end() if g else 0)
        opcode = body[g.end() if g else 0:].split(None, 1)[0]
        an.insts.append(Inst(n, op_col, op_col + len(opcode), col + len(body), opcode, body + ";"))


def _declaration(an: Analysis, body: str, n: int) -> None:
    m = REG_DECL.match(body)
    if m:
        for item in m.group(2).split(","):
            name = item.strip().split("<", 1)[0]
            if name:
                an.registers[name] = (m.group(1), n)


def check(an: Analysis) -> None:
    """Every statement checked for the file's .version/.target; problems ranged on the bad token."""
    from ..ptx.check import check_instruction

    for inst in an.insts:
        try:
            r = check_instruction(inst.text, an.ptx_target, an.ptx_version)
        except Exception as exc:  # noqa: BLE001 - a checker bug must not stop the file's other diagnostics
            an.problems.append(Problem(inst.line, inst.start, inst.end, f"gpuisa's PTX checker failed on this "
                                       f"statement ({type(exc).__name__}: {exc})", "information"))
            continue
        if r["valid"]:
            continue
        an.problems.append(_problem(an, inst, r["error"] or "invalid PTX statement"))


def _problem(an: Analysis, inst: Inst, message: str) -> Problem:
    line = an.lines[inst.line]
    for tok in BACKTICK.findall(message):
        if tok == inst.mnemonic.split(".")[0]:
            return Problem(inst.line, inst.start, inst.start + len(tok), message)
        hit = find_token(line, tok, inst.start, inst.end)
        if hit:
            return Problem(inst.line, hit[0], hit[1], message)
    return Problem(inst.line, inst.start, inst.mn_end, message)


def analyse(lines: list[str], setting: str | None = None, cache: dict | None = None) -> Analysis:
    """The registry's lsp hook for PTX (the AMD analyser's ``setting``/``cache`` do not apply)."""
    an = parse(lines)
    check(an)
    return an


def register_doc(an: Analysis, word: str) -> str | None:
    """What a %register (declared with .reg, or special) or a parameter is."""
    from .words import PTX_SPECIAL

    base = word.split(".")[0]
    if base in PTX_SPECIAL:
        return f"`{word}`: special register, {PTX_SPECIAL[base]}"
    m = re.match(r"^(%?[A-Za-z_$][\w$]*?)(\d+)$", word)
    prefix = m.group(1) if m else word
    for name in (word, prefix):
        if name in an.registers:
            typ, line = an.registers[name]
            return f"`{word}`: virtual register of type `{typ}` (declared by `.reg` on line {line + 1})"
    if word in an.params:
        decl, line = an.params[word]
        return f"`{word}`: kernel/function parameter `{decl}` (line {line + 1})"
    return None
