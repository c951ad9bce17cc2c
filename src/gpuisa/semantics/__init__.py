"""Executable semantics: AMD's ISA pseudocode, parsed, compiled to numpy and run on a simulated wave.

``evaluate(arch, name, lanes=..., **operands)`` runs one instruction (see :mod:`.wave`);
``run(arch, program, state)`` runs a sequence on one wave (:mod:`.program`, :mod:`.machine`),
``evaluate_encoded`` one assembled or decoded instruction with its modifiers (:mod:`.encoded`);
``coverage`` reports which instructions execute; ``pages.amd_semantics`` is the Semantics
section of reference pages.  The pseudocode text itself is loaded at run time from an
installed source (:mod:`.sources`), never stored in this repository.
"""

from __future__ import annotations


def __getattr__(name):
    if name == "evaluate":
        from .wave import evaluate

        return evaluate
    if name == "run":
        from .program import run

        return run
    if name == "evaluate_encoded":
        from .encoded import evaluate_encoded

        return evaluate_encoded
    raise AttributeError(name)


__all__ = ["evaluate", "evaluate_encoded", "run"]
