"""What the pseudocode compiler makes: one ``Program`` per instruction, and ``NoSemantics`` when there is
none.  Its own module so that the native implementations (``matrix``) build programs without importing the
compiler, which imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .types import Ty


@dataclass
class Program:
    arch: str
    name: str
    op_class: str
    text: str
    fn: Callable[..., Any]
    source: str
    scalar: bool  # SALU: one value per wave
    reads: set[str]
    writes: set[str]
    widths: dict[str, int]
    formats: dict[str, Ty]  # first typed view of each register
    lane_masks: set[str]  # registers written one bit per lane (VCC, EXEC, compare results)
    wave_level: bool  # reads or writes other lanes' registers
    d0_type: Ty | None
    inputs: set[str] = field(default_factory=set)
    state_writes: set[str] = field(default_factory=set)
    code: str = ""
    reference_fn: object = None  # the compiled pseudocode where ``fn`` is a vectorised fast path
    vgpr_file: bool = False  # reads or writes VGPRs by a computed register number (R['VGPR'])


class NoSemantics(LookupError):
    """No executable pseudocode for an instruction (message says why)."""


class EvalError(ValueError):
    """Bad input to evaluate (message is one line: what was wrong and what is allowed).  Here, below the wave
    machine (``wave`` re-exports it), so that the formulations raise it without importing ``wave``."""
