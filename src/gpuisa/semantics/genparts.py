"""What the pseudocode compiler's mixins (``ExprGen``, ``CallGen``, ``StoreGen``) read from one another and
from the class they are mixed into (``compiler.Gen``): a Protocol they derive from for the type checker only
(at run time they derive from ``object``), so each mixin's use of the others' state and methods is checked."""

from __future__ import annotations

from typing import Any, Protocol

from .expressions import E
from .types import Ty


class GenParts(Protocol):
    # the state Gen.__init__ sets up
    lines: list[str]
    indent: int
    mask: str
    scopes: list[dict]
    lambdas: dict
    vars: dict[str, Ty]
    arrays: dict[str, tuple[Ty, int]]
    loopvars: dict[str, Ty]
    uniform_vars: set[str]
    regs: dict[str, int]
    read_regs: set[str]
    inputs: set[str]
    stored: set[str]
    cache: dict
    cache_lines: list[str]
    returns: list
    loops: list[str]
    resolver: Any
    scalar: bool
    counter: int
    wave_level: bool
    d0_type: Ty | None
    state_writes: set[str]
    formats: dict[str, Ty]
    written: set[str]
    lane_masks: set[str]
    hoisted: dict[str, str]
    whole_writes: dict[str, tuple]
    ubits: dict[str, int]
    sbits: dict[str, int]
    branch_depth: int
    lazy: set[str]
    mode_written: bool
    widths: dict[str, int]
    vgpr_file: bool
    vgpr_file_written: bool

    # Gen's methods
    def emit(self, line: str) -> None: ...
    def tmp(self) -> str: ...
    def reg_raw(self, n: str, read: bool = True) -> E: ...
    def cached_view(self, n: str, vt: Ty) -> E: ...
    def vgpr_read(self, lane_node, reg_node) -> E: ...
    def block(self, stmts) -> None: ...

    # ExprGen's methods the other mixins call
    def ex(self, node) -> E: ...
    def as_int(self, e: E) -> E: ...
    def as_bool(self, e: E) -> E: ...
    def convert(self, e: E, to: Ty, store: bool = False) -> E: ...
    def bits(self, e: E) -> E: ...
    def arr(self, e: E) -> str: ...
    def view(self, e: E, vt: Ty) -> E: ...
    def static_width(self, hi, lo) -> int | None: ...
    def unsigned_width(self, code: str) -> int: ...
