"""Executable semantics: AMD's ISA pseudocode, parsed, compiled to numpy and run on a simulated wave.

``evaluate(arch, name, lanes=..., **operands)`` runs one instruction (see :mod:`.wave`);
``coverage`` reports which instructions execute; ``pages.extend`` adds the Semantics
section to reference pages.  The pseudocode text itself is loaded at run time from an
installed source (:mod:`.sources`), never stored in this repository.
"""

from __future__ import annotations


def __getattr__(name):
    if name == "evaluate":
        from .wave import evaluate

        return evaluate
    raise AttributeError(name)


__all__ = ["evaluate"]
