"""What the LSP features ask of one ISA's assembly language: the ``Dialect`` an ISA registers under its
``lsp_features`` hook (``gpuisa.isas``), next to its ``lsp`` analyser.

``features.py`` does everything that is the same for every ISA (labels, symbols, diagnostics, the
mnemonic's documentation from ``gpuisa.doclookup``, signatures, inlay hints) and asks the dialect only for
what differs.  An ISA without the hook gets this base class: hover on labels and documented mnemonics,
go-to-definition of labels, diagnostics from its analyser, no completions.
"""

from __future__ import annotations

import re

from lsprotocol import types as t

from .model import WORD, Analysis, Inst


class Dialect:
    """The defaults: one statement per line, no guards, words as ``model.WORD`` reads them."""

    word: re.Pattern = WORD  # what hover and go-to-definition take as the word under the cursor
    statement_separator: str | None = None  # ';' where a line holds several statements

    def doc_arch(self, an: Analysis) -> str | None:
        """The architecture the documentation look-up is for (None: the ISA's own)."""
        return None

    def strip_guard(self, head: str) -> str:
        """The statement being typed without a leading predicate guard (``@%p bra``: ``bra``)."""
        return head

    def hover_lead(self, an: Analysis, inst: Inst, col: int) -> list[str]:
        """Markdown put before the mnemonic's documentation (the part of the mnemonic under the cursor)."""
        return []

    def hover_line_facts(self, an: Analysis, inst: Inst) -> list[str]:
        """Facts of this line after the documentation (what it encodes as)."""
        return []

    def hover_file_facts(self, an: Analysis) -> list[str]:
        """Facts of the file where no target was named (its version and target directives)."""
        return []

    def word_hover(self, an: Analysis, word: str) -> str | None:
        """Markdown for a word that is not a label (a register, a modifier), or None."""
        return None

    def complete(self, an: Analysis, head: str, line: int, col: int) -> list[t.CompletionItem]:
        """Completions for ``head``, the statement typed so far (labels and guard removed)."""
        return []

    def declaration_line(self, an: Analysis, word: str) -> int | None:
        """The line declaring ``word`` (a register, a parameter) where it is not a label."""
        return None


def items(pairs, kind: t.CompletionItemKind) -> list[t.CompletionItem]:
    return [t.CompletionItem(label=name, kind=kind, detail=detail) for name, detail in pairs]


def typing_first(head: str) -> bool:
    """Whether the first word of the statement (its mnemonic) is being typed."""
    return " " not in head and "\t" not in head


DEFAULT = Dialect()
