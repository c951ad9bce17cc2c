"""The LSP features computed from an ``Analysis`` (pure functions returning lsprotocol types).

What is the same for every ISA is here: labels, symbols, diagnostics, the mnemonic's documentation and
signatures from ``gpuisa.doclookup.lookup`` (the same look-up as ``gpuisa doc`` and ``/api/asm``), inlay
hints of encoded bytes.  What differs by language is asked of the ISA's ``Dialect`` (``dialect.py``), the
``lsp_features`` hook the ISA registry (``gpuisa.isas``) holds for it: ``amd_features.py``,
``ptx_features.py``; an ISA without one gets the base dialect.
"""

from __future__ import annotations

from lsprotocol import types as t

from .. import isas
from ..doclookup import DocNotFound, lookup
from .dialect import DEFAULT, Dialect
from .model import LABEL_DEF, Analysis, Inst, top_commas, word_at

SEVERITY = {"error": t.DiagnosticSeverity.Error, "warning": t.DiagnosticSeverity.Warning,
            "information": t.DiagnosticSeverity.Information, "hint": t.DiagnosticSeverity.Hint}


def dialect(an: Analysis) -> Dialect:
    """The dialect of the analysed document's ISA (its ``lsp_features`` hook, else the base one)."""
    if an.lang in isas.keys("lsp_features"):
        return isas.get(an.lang).hook("lsp_features")()
    return DEFAULT


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


def _doc(opcode: str, an: Analysis, d: Dialect) -> dict | None:
    try:
        return lookup(opcode, an.lang, d.doc_arch(an))
    except DocNotFound:
        return None


def _link(doc: dict, docs_url: str) -> str:
    return f"[gpuisa reference: {doc['instruction']}]({docs_url.rstrip('/')}{doc['url']})"


def hover(an: Analysis, line: int, col: int, docs_url: str) -> t.Hover | None:
    if line >= len(an.lines):
        return None
    d = dialect(an)
    text = an.lines[line]
    inst = _inst_under(an, line, col)
    if inst is not None and inst.start <= col <= inst.mn_end:
        md = _mnemonic_hover(an, d, inst, col, docs_url)
        if md:
            return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, md), _range(line, inst.start, inst.mn_end))
    word, a, b = word_at(text, col, d.word)
    if not word:
        return None
    if word in an.labels:
        md = f"`{word}`: label defined on line {an.labels[word].line + 1}"
    else:
        md = d.word_hover(an, word)
    if md is None:
        return None
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, md), _range(line, a, b))


def _mnemonic_hover(an: Analysis, d: Dialect, inst: Inst, col: int, docs_url: str) -> str | None:
    doc = _doc(inst.mnemonic, an, d)
    if doc is None:
        return None
    parts = d.hover_lead(an, inst, col)
    parts.append(doc.get("markdown") or doc.get("tooltip") or "")
    parts += d.hover_line_facts(an, inst)
    if an.arch_source:
        parts.append(f"- target from {an.arch_source}")
    else:
        parts += d.hover_file_facts(an)
    parts.append("\n" + _link(doc, docs_url))
    return "\n".join(parts)


# -- completion ------------------------------------------------------------------------------------

def completion(an: Analysis, line: int, col: int) -> list[t.CompletionItem]:
    d = dialect(an)
    text = an.lines[line][:col] if line < len(an.lines) else ""
    head = text.split(d.statement_separator)[-1] if d.statement_separator else text
    while label := LABEL_DEF.match(head):  # leading labels
        head = head[label.end():]
    return d.complete(an, d.strip_guard(head.lstrip()), line, col)


# -- signature help, definition, symbols, inlay hints ------------------------------------------------

def signature_help(an: Analysis, line: int, col: int) -> t.SignatureHelp | None:
    inst = next((i for i in an.insts_at(line) if i.mn_end <= col <= i.end + 1), None)
    if inst is None:
        return None
    doc = _doc(inst.mnemonic, an, dialect(an))
    if doc is None:
        return None
    sigs = doc.get("signatures") or ([doc["signature"]] if doc.get("signature") else [])
    if not sigs:
        return None
    active = top_commas(an.lines[line][inst.mn_end:col])
    out = [t.SignatureInformation(label=s["label"], documentation=doc["summary"],
                                  parameters=[t.ParameterInformation(label=p, documentation=d)
                                              for p, d in zip(s["parameters"], s["documentation"])])
           for s in sigs]
    return t.SignatureHelp(signatures=out, active_signature=0, active_parameter=active)


def definition(an: Analysis, uri: str, line: int, col: int) -> t.Location | None:
    d = dialect(an)
    word, _, _ = word_at(an.lines[line], col, d.word) if line < len(an.lines) else ("", 0, 0)
    if word.endswith(":"):
        word = word[:-1]
    lab = an.labels.get(word)
    if lab is not None:
        return t.Location(uri, _range(lab.line, lab.col, lab.col + len(lab.name)))
    n = d.declaration_line(an, word)
    return t.Location(uri, _range(n, 0, len(an.lines[n]))) if n is not None else None


def document_symbols(an: Analysis) -> list[t.DocumentSymbol]:
    tops: list[t.DocumentSymbol] = []
    labels: list[t.DocumentSymbol] | None = None  # the children of the current function's symbol
    for s in an.symbols:
        rng = _range(s.line, s.col, s.col + len(s.name))
        if s.kind == "label" and labels is not None:
            labels.append(t.DocumentSymbol(name=s.name, kind=t.SymbolKind.Key, range=rng, selection_range=rng,
                                           detail="label"))
            continue
        full = t.Range(t.Position(s.line, 0), t.Position(max(s.end_line, s.line), len(an.lines[max(s.end_line, s.line)])))
        labels = []
        tops.append(t.DocumentSymbol(name=s.name, kind=t.SymbolKind.Function, range=full, selection_range=rng,
                                     detail=s.kind, children=labels))
    return tops


def inlay_hints(an: Analysis, first: int, last: int) -> list[t.InlayHint]:
    hints = []
    for line, data in sorted(an.encoded.items()):
        if first <= line <= last:
            hints.append(t.InlayHint(position=t.Position(line, len(an.lines[line].rstrip())), label=data,
                                     kind=None, padding_left=True, tooltip=f"encoded bytes for {an.arch}"))
    return hints
