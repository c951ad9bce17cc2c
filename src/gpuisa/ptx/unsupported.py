"""The PTX evaluator's one error: an instruction (or form) it has no semantics for.

Its own module so that the evaluator (``semantics``) and its parts (``semantics_cmp``, ``semantics_cvt``,
``semantics_float``) all import it at module level without importing each other in a circle.
"""

from __future__ import annotations


class UnsupportedInstruction(ValueError):
    """An instruction (or form) the evaluator has no semantics for."""
