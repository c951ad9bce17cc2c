"""PTX's LSP dialect (the ``lsp_features`` hook of ``ptx`` in ``gpuisa.isas``): statements split at ';', guards,
dotted opcodes whose modifiers have hovers and completions (for the file's ``.version``/``.target``),
%registers and parameters declared in the file."""

from __future__ import annotations

import re
from functools import lru_cache

from lsprotocol import types as t

from . import words
from .dialect import Dialect, items, typing_first
from .model import PTX_WORD, Analysis, Inst
from .ptx import register_doc


class PtxDialect(Dialect):
    word = PTX_WORD
    statement_separator = ";"

    def strip_guard(self, head: str) -> str:
        if head.startswith("@"):
            return head.split(None, 1)[1] if " " in head else ""
        return head

    def hover_lead(self, an: Analysis, inst: Inst, col: int) -> list[str]:
        piece = _dotted_piece(inst.mnemonic, col - inst.start)
        if piece and piece in words.PTX_MODIFIERS:
            return [f"`{piece}`: {words.PTX_MODIFIERS[piece]}\n\n---\n"]
        return []

    def hover_file_facts(self, an: Analysis) -> list[str]:
        if an.ptx_version or an.ptx_target:
            return [f"- file: PTX ISA {an.ptx_version or '?'}, target {an.ptx_target or '?'}"]
        return []

    def word_hover(self, an: Analysis, word: str) -> str | None:
        if word.startswith("."):
            return f"`{word}`: {words.PTX_MODIFIERS[word]}" if word in words.PTX_MODIFIERS else None
        return register_doc(an, word)

    def complete(self, an: Analysis, head: str, line: int, col: int) -> list[t.CompletionItem]:
        word = head.split()[-1] if head.split() else ""
        first = typing_first(head)
        if first and "." in head:
            return _modifier_items(head, an, line, col)
        if first:
            return items(ptx_heads(an.ptx_version, an.ptx_target), t.CompletionItemKind.Function)
        if word.startswith("%"):
            regs = list(words.PTX_SPECIAL.items())
            regs += [(k, f"virtual register {typ}") for k, (typ, _) in an.registers.items()]
            return items(tuple(regs), t.CompletionItemKind.Variable)
        return []

    def declaration_line(self, an: Analysis, word: str) -> int | None:
        m = re.match(r"^(%?[A-Za-z_$][\w$]*?)\d*$", word)
        for key in (word, m.group(1) if m else word):
            if key in an.registers:
                return an.registers[key][1]
        if word in an.params:
            return an.params[word][1]
        return None


def _dotted_piece(opcode: str, offset: int) -> str | None:
    """The '.modifier' of a dotted PTX opcode at ``offset`` (None on the head)."""
    pos = 0
    for i, part in enumerate(opcode.split(".")):
        if pos <= offset <= pos + len(part):
            return None if i == 0 else "." + part
        pos += len(part) + 1
    return None


@lru_cache(maxsize=1)
def _ptx_instructions() -> tuple:
    """(name, summary, PTX ISA version, minimum target) of every PTX instruction."""
    import json

    from ..doclookup import default_store

    rows = default_store().con.execute("SELECT name, summary, page FROM instructions WHERE arch = 'ptx' ORDER BY name")
    out = []
    for name, summary, page in rows:
        p = json.loads(page)
        out.append((name, summary or "", p.get("ptx_version"), p.get("min_target")))
    return tuple(out)


def ptx_heads(version: str | None = None, target: str | None = None) -> tuple:
    """(name, summary) of the PTX instructions available in ``version`` on ``target`` (when known)."""
    from ..ptx.catalog import target_key

    want = target_key(target)[0] if target else -1
    return tuple((name, f"{summary} (PTX ISA {v or '?'}+, {mt or '?'}+)") for name, summary, v, mt in _ptx_instructions()
                 if not (version and v and _vkey(v) > _vkey(version))
                 and not (want >= 0 and mt and target_key(mt)[0] > want))


def _vkey(v: str | None) -> tuple:
    try:
        return tuple(int(x) for x in (v or "").split("."))
    except ValueError:
        return (99,)


def _modifier_items(opcode: str, an: Analysis, line: int, col: int) -> list[t.CompletionItem]:
    """Value-set values and literal modifiers of the forms of this head (for the file's .version)."""
    from ..ptx import catalog

    head = opcode.split(".")[0]
    seen: dict[str, str] = {}
    for name, form in catalog.forms_for_head(head):
        if an.ptx_version and _vkey(form.get("ptx_version")) > _vkey(an.ptx_version):
            continue
        for set_name, values in (form.get("value_sets") or {}).items():
            for v in values:
                seen.setdefault(v, f"{set_name} of {name}")
        for lit in re.findall(r"\.[A-Za-z_][\w:]*", form["syntax"].split()[0]):
            if lit not in (form.get("value_sets") or {}):
                seen.setdefault(lit, f"modifier of {name}")
    start = col - (len(opcode) - opcode.rfind("."))
    out = []
    for value, detail in sorted(seen.items()):
        doc = words.PTX_MODIFIERS.get(value)
        out.append(t.CompletionItem(label=value, kind=t.CompletionItemKind.EnumMember, detail=detail,
                                    documentation=doc, filter_text=value,
                                    text_edit=t.TextEdit(t.Range(t.Position(line, start), t.Position(line, col)),
                                                         value)))
    return out


PTX = PtxDialect()


def dialect() -> Dialect:
    return PTX
