"""The AMD GPU ISA's LSP dialect (the ``lsp_features`` hook of ``amdgpu`` in ``gpuisa.isas``): mnemonics of the
file's target, registers and modifiers (``words.py``), the encoded bytes of a line in its hover."""

from __future__ import annotations

from functools import lru_cache

from lsprotocol import types as t

from . import words
from .dialect import Dialect, items, typing_first
from .model import Analysis, Inst


class AmdDialect(Dialect):
    def doc_arch(self, an: Analysis) -> str | None:
        return an.arch

    def hover_line_facts(self, an: Analysis, inst: Inst) -> list[str]:
        return [f"- this line encodes as: `{an.encoded[inst.line]}`"] if inst.line in an.encoded else []

    def word_hover(self, an: Analysis, word: str) -> str | None:
        return words.amd_register(word) or words.amd_modifier(word)

    def complete(self, an: Analysis, head: str, line: int, col: int) -> list[t.CompletionItem]:
        if typing_first(head):
            return items(amd_mnemonics(an.arch), t.CompletionItemKind.Function)
        mods = list(words.AMD_MODIFIERS.items()) + list(words.AMD_REGISTERS.items())
        return items(tuple(mods), t.CompletionItemKind.Keyword)


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


AMD = AmdDialect()


def dialect() -> Dialect:
    return AMD
