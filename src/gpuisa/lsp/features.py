"""The LSP features computed from an ``Analysis`` (pure functions returning lsprotocol types).

Hover, signature help and mnemonic completion details come from ``gpuisa.doclookup.lookup`` (the
same look-up as ``gpuisa doc`` and ``/api/asm``); registers and modifiers from ``words.py``.
"""

from __future__ import annotations

from functools import lru_cache

from lsprotocol import types as t

from ..doclookup import DocNotFound, lookup
from . import words
from .model import LABEL_DEF, Analysis, Inst, top_commas, word_at
from .ptx import register_doc

SEVERITY = {"error": t.DiagnosticSeverity.Error, "warning": t.DiagnosticSeverity.Warning,
            "information": t.DiagnosticSeverity.Information, "hint": t.DiagnosticSeverity.Hint}


def _range(line: int, a: int, b: int) -> t.Range:
    return t.Range(t.Position(line, a), t.Position(line, b))


def diagnostics(an: Analysis) -> list[t.Diagnostic]:
    return [t.Diagnostic(range=_range(p.line, p.start, p.end), message=p.message, severity=SEVERITY[p.severity],
                         source="gpuisa") for p in an.problems]


def _inst_under(an: Analysis, line: int, col: int) -> Inst | None:
    for inst in an.insts_at(line):
        if inst.start <= col <= inst.end:
            return inst
    return None


def _doc(opcode: str, an: Analysis) -> dict | None:
    try:
        return lookup(opcode, an.lang, an.arch if an.lang == "amdgpu" else None)
    except DocNotFound:
        return None


def _link(doc: dict, docs_url: str) -> str:
    return f"[gpuisa reference: {doc['instruction']}]({docs_url.rstrip('/')}{doc['url']})"


def hover(an: Analysis, line: int, col: int, docs_url: str) -> t.Hover | None:
    if line >= len(an.lines):
        return None
    text = an.lines[line]
    inst = _inst_under(an, line, col)
    if inst is not None and inst.start <= col <= inst.mn_end:
        md = _mnemonic_hover(an, inst, col, docs_url)
        if md:
            return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, md), _range(line, inst.start, inst.mn_end))
    word, a, b = word_at(text, col, an.lang)
    if not word:
        return None
    md = _word_hover(an, word)
    if md is None:
        return None
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, md), _range(line, a, b))


def _mnemonic_hover(an: Analysis, inst: Inst, col: int, docs_url: str) -> str | None:
    doc = _doc(inst.mnemonic, an)
    if doc is None:
        return None
    parts = []
    if an.lang == "ptx":
        piece = _dotted_piece(inst.mnemonic, col - inst.start)
        if piece and piece in words.PTX_MODIFIERS:
            parts.append(f"`{piece}`: {words.PTX_MODIFIERS[piece]}\n\n---\n")
    parts.append(doc["markdown"])
    if an.lang == "amdgpu" and inst.line in an.encoded:
        parts.append(f"- this line encodes as: `{an.encoded[inst.line]}`")
    if an.arch_source:
        parts.append(f"- target from {an.arch_source}")
    elif an.lang == "ptx" and (an.ptx_version or an.ptx_target):
        parts.append(f"- file: PTX ISA {an.ptx_version or '?'}, target {an.ptx_target or '?'}")
    parts.append("\n" + _link(doc, docs_url))
    return "\n".join(parts)


def _dotted_piece(opcode: str, offset: int) -> str | None:
    """The '.modifier' of a dotted PTX opcode at ``offset`` (None on the head)."""
    pos = 0
    for i, part in enumerate(opcode.split(".")):
        if pos <= offset <= pos + len(part):
            return None if i == 0 else "." + part
        pos += len(part) + 1
    return None


def _word_hover(an: Analysis, word: str) -> str | None:
    if word in an.labels:
        lab = an.labels[word]
        return f"`{word}`: label defined on line {lab.line + 1}"
    if an.lang == "amdgpu":
        return words.amd_register(word) or words.amd_modifier(word)
    if word.startswith("."):
        return f"`{word}`: {words.PTX_MODIFIERS[word]}" if word in words.PTX_MODIFIERS else None
    return register_doc(an, word)


# -- completion ------------------------------------------------------------------------------------

def completion(an: Analysis, line: int, col: int) -> list[t.CompletionItem]:
    text = an.lines[line][:col] if line < len(an.lines) else ""
    stmt = text.split(";")[-1] if an.lang == "ptx" else text
    head = stmt
    while LABEL_DEF.match(head):  # leading labels
        head = head[LABEL_DEF.match(head).end():]
    head = head.lstrip()
    if an.lang == "ptx" and head.startswith("@"):
        head = head.split(None, 1)[1] if " " in head else ""
    typing_first = " " not in head and "\t" not in head
    if an.lang == "amdgpu":
        if typing_first:
            return _items(amd_mnemonics(an.arch), t.CompletionItemKind.Function)
        mods = [(k, v) for k, v in words.AMD_MODIFIERS.items()] + list(words.AMD_REGISTERS.items())
        return _items(tuple(mods), t.CompletionItemKind.Keyword)
    word = head.split()[-1] if head.split() else ""
    if typing_first and "." in head:
        return _ptx_modifier_items(head, an, line, col)
    if typing_first:
        return _items(ptx_heads(an.ptx_version, an.ptx_target), t.CompletionItemKind.Function)
    if word.startswith("%"):
        regs = [(k, v) for k, v in words.PTX_SPECIAL.items()]
        regs += [(k, f"virtual register {typ}") for k, (typ, _) in an.registers.items()]
        return _items(tuple(regs), t.CompletionItemKind.Variable)
    return []


def _items(pairs, kind) -> list[t.CompletionItem]:
    return [t.CompletionItem(label=name, kind=kind, detail=detail) for name, detail in pairs]


@lru_cache(maxsize=16)
def amd_mnemonics(arch: str | None) -> tuple:
    """(mnemonic, summary) of the target (every AMD architecture without one), with LLVM's
    _e32/_e64 spellings of instructions that have a 32-bit VOP1/VOP2/VOPC encoding."""
    from .. import archs
    from ..doclookup import default_store

    st = default_store()
    keys = [arch] if arch else [a for a in archs.arch_names() if st.arch_row(a) is not None]
    out: dict[str, str] = {}
    for a in keys:
        for r in st.list_arch(a, None):
            out.setdefault(r["name"], r["summary"] or "")
            if r["encoding"] in ("VOP1", "VOP2", "VOPC"):
                out.setdefault(r["name"] + "_e32", r["summary"] or "")
                out.setdefault(r["name"] + "_e64", r["summary"] or "")
    return tuple(sorted(out.items()))


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


def _ptx_modifier_items(opcode: str, an: Analysis, line: int, col: int) -> list[t.CompletionItem]:
    """Value-set values and literal modifiers of the forms of this head (for the file's .version)."""
    import re

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
    items = []
    for value, detail in sorted(seen.items()):
        doc = words.PTX_MODIFIERS.get(value)
        items.append(t.CompletionItem(label=value, kind=t.CompletionItemKind.EnumMember, detail=detail,
                                      documentation=doc, filter_text=value,
                                      text_edit=t.TextEdit(_range(line, start, col), value)))
    return items


# -- signature help, definition, symbols, inlay hints ------------------------------------------------

def signature_help(an: Analysis, line: int, col: int) -> t.SignatureHelp | None:
    inst = next((i for i in an.insts_at(line) if i.mn_end <= col <= i.end + 1), None)
    if inst is None:
        return None
    doc = _doc(inst.mnemonic, an)
    if doc is None:
        return None
    sigs = [doc["signature"]] if an.lang == "amdgpu" else doc["signatures"]
    if not sigs:
        return None
    active = top_commas(an.lines[line][inst.mn_end:col])
    out = [t.SignatureInformation(label=s["label"], documentation=doc["summary"],
                                  parameters=[t.ParameterInformation(label=p, documentation=d)
                                              for p, d in zip(s["parameters"], s["documentation"])])
           for s in sigs]
    return t.SignatureHelp(signatures=out, active_signature=0, active_parameter=active)


def definition(an: Analysis, uri: str, line: int, col: int) -> t.Location | None:
    word, _, _ = word_at(an.lines[line], col, an.lang) if line < len(an.lines) else ("", 0, 0)
    if word.endswith(":"):
        word = word[:-1]
    lab = an.labels.get(word)
    if lab is not None:
        return t.Location(uri, _range(lab.line, lab.col, lab.col + len(lab.name)))
    if an.lang == "ptx":
        import re

        m = re.match(r"^(%?[A-Za-z_$][\w$]*?)\d*$", word)
        for key in (word, m.group(1) if m else word):
            if key in an.registers:
                n = an.registers[key][1]
                return t.Location(uri, _range(n, 0, len(an.lines[n])))
        if word in an.params:
            n = an.params[word][1]
            return t.Location(uri, _range(n, 0, len(an.lines[n])))
    return None


def document_symbols(an: Analysis) -> list[t.DocumentSymbol]:
    tops, current = [], None
    for s in an.symbols:
        rng = _range(s.line, s.col, s.col + len(s.name))
        if s.kind == "label" and current is not None:
            current.children.append(t.DocumentSymbol(name=s.name, kind=t.SymbolKind.Key, range=rng,
                                                     selection_range=rng, detail="label"))
            continue
        full = t.Range(t.Position(s.line, 0), t.Position(max(s.end_line, s.line), len(an.lines[max(s.end_line, s.line)])))
        current = t.DocumentSymbol(name=s.name, kind=t.SymbolKind.Function, range=full, selection_range=rng,
                                   detail=s.kind, children=[])
        tops.append(current)
    return tops


def inlay_hints(an: Analysis, first: int, last: int) -> list[t.InlayHint]:
    hints = []
    for line, data in sorted(an.encoded.items()):
        if first <= line <= last:
            hints.append(t.InlayHint(position=t.Position(line, len(an.lines[line].rstrip())), label=data,
                                     kind=None, padding_left=True, tooltip=f"encoded bytes for {an.arch}"))
    return hints
