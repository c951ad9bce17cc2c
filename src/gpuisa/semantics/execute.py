"""One decoded instruction -> a step function that runs it on a ``WaveState``.

A step is built once per instruction of a program (operand decoding, constants, modifier
plans and the compiled pseudocode are resolved up front) and then called as ``step(ws)``.
Source fields in the 9-bit encoding (SRC0/SRC1/SRC2; VSRC1 is 256 + a VGPR number) map to
values: 0-105 SGPRs, 106/107 VCC, 108-123 TTMP, 124/125 NULL and M0, 126/127 EXEC,
128-208 inline integers, 240-248 inline floats in the operand's format, 251 VCCZ, 252
EXECZ, 253 SCC, 255 the literal dword, 256+ VGPRs.  Destinations come from the decoder's
operand text (``v1``, ``s[0:1]``, ``vcc_lo``, ``null``, ``a0``).  Encoding modifiers are
applied by :mod:`.modifiers`; memory instructions are built by :mod:`.memory`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import compiler, sources
from . import modifiers as mods
from .machine import EXEC_LO, M32, VCC_LO, MachineError, WaveState, lanes_of
from .wave import Context

_OPERAND = re.compile(r"^(v|s|a|ttmp)(?:(\d+)|\[(\d+):(\d+)\])(?:\.[lh])?$")
_NAMED = {"vcc_lo": (VCC_LO, 1), "vcc_hi": (VCC_LO + 1, 1), "vcc": (VCC_LO, 2), "exec_lo": (EXEC_LO, 1),
          "exec_hi": (EXEC_LO + 1, 1), "exec": (EXEC_LO, 2)}
VECTOR = ("VOP1", "VOP2", "VOPC", "VOP3", "VOP3SD", "VOP3_SDST_ENC", "VOP3P")
SCALAR = ("SOP1", "SOP2", "SOPC", "SOPK")
_I64 = np.int64


def i64(v: int) -> int:
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


@dataclass
class Insn:
    """What a step needs from the codec: the decoded fields and operand texts, and the bytes."""
    arch: str
    name: str
    encoding: str
    fields: dict
    meanings: dict
    data: bytes
    text: str = ""


@dataclass
class Step:
    run: Callable[[WaveState], None]
    insn: Insn
    reads: list = field(default_factory=list)  # register names read (for `gpuisa eval`)
    writes: list = field(default_factory=list)
    formats: dict = field(default_factory=dict)  # register text -> float Ty it is read or written as


def operand_register(text: str | None, ws_gfx9: bool):
    """Operand text -> ('v'|'a'|'s', first, count) or None (constants, 'off', unknown)."""
    if not text:
        return None
    t = text.strip().lower()
    if t in _NAMED:
        slot, n = _NAMED[t]
        return "s", slot, n
    if t == "m0":
        return "s", 124 if ws_gfx9 else 125, 1
    if t == "null":
        return "s", 125 if ws_gfx9 else 124, 1
    m = _OPERAND.match(t)
    if not m:
        return None
    first = int(m.group(2) if m.group(2) is not None else m.group(3))
    count = 1 if m.group(2) is not None else int(m.group(4)) - first + 1
    kind = m.group(1)
    if kind == "ttmp":
        return "s", 108 + first, count
    return kind, first, count


def reg_text(kind: str, first: int, count: int) -> str:
    k = kind.upper()
    return f"{k}{first}" if count == 1 else f"{k}[{first}:{first + count - 1}]"


def scalar_name(slot: int, gfx9: bool) -> str:
    if slot < 106:
        return f"S{slot}"
    names = {106: "VCC_LO", 107: "VCC_HI", 126: "EXEC_LO", 127: "EXEC_HI", (124 if gfx9 else 125): "M0"}
    return names.get(slot, f"TTMP{slot - 108}" if 108 <= slot < 124 else f"SRC{slot}")


class Builder:
    """Builds steps for one architecture and wave size (shares contexts and the exec-mask cache)."""

    def __init__(self, arch: str, wave: int, gfx9: bool):
        self.arch, self.wave, self.L, self.gfx9 = arch, wave, wave, gfx9
        self.ctx = Context(wave, wave, arch)
        self.sctx = Context(1, wave, arch)
        self.lane = np.arange(wave, dtype=np.int64)
        self.lane_bit = np.left_shift(np.int64(1), self.lane)  # (lane 63: the sign bit)
        self._masks: dict = {}
        self._wide: dict = {}
        self.assemble: Callable[[str], Insn] | None = None  # set by the program's assembler (VOPD halves)

    def broadcast(self, value: int) -> np.ndarray:
        """A wave-wide value as one int64 per lane (shared arrays: the compiled code never writes its inputs)."""
        hit = self._wide.get(value)
        if hit is None:
            if len(self._wide) > 512:
                self._wide.clear()
            hit = self._wide[value] = np.full(self.L, i64(value), dtype=np.int64)
        return hit

    def exec_mask(self, ws: WaveState):
        """(mask for the compiled code: None = every lane, active lanes as bools, each active lane's own
        bit as int64 with 0 for inactive lanes) for the current EXEC."""
        e = ws.s[EXEC_LO] | (ws.s[EXEC_LO + 1] << 32 if self.wave == 64 else 0)
        hit = self._masks.get(e)
        if hit is None:
            active = lanes_of(e, self.L)
            own = np.where(active, self.lane_bit, 0)
            hit = self._masks[e] = (None if active.all() else active, active, own)
        return hit

    def program(self, name: str) -> compiler.Program:
        if sources.lookup(self.arch, name) is None:
            raise MachineError(f"no pseudocode for {name} in {self.arch}")
        try:
            return compiler.program(self.arch, name)
        except compiler.NoSemantics as exc:
            raise MachineError(f"{name} cannot be executed: {exc}") from None

    # ------------------------------------------------------------------ sources

    def literal(self, insn: Insn) -> int:
        base = 8 if insn.encoding.startswith("VOP3") else 4
        if len(insn.data) < base + 4:
            raise MachineError(f"{insn.name}: literal operand missing from the encoding")
        return int.from_bytes(insn.data[base:base + 4], "little")

    def source(self, insn: Insn, code: int, width: int, fmt, scalar: bool, reads: list):
        """A getter ws -> raw bits (int64 array of L lanes, or 1 for scalar steps) of a ``width``-bit operand."""
        n_lanes = 1 if scalar else self.L
        is_float = fmt is not None and fmt.is_float
        cw = fmt.width if fmt is not None and fmt.width <= width else width  # (f16 constants for f16 operands)
        const = mods.constant_bits(code, min(cw, 64), is_float, fmt is not None and fmt.kind == "bf")
        if 128 <= code <= 208 or 240 <= code <= 248:
            assert const is not None  # every inline constant code has its bits
            arr = np.full(n_lanes, i64(const), dtype=_I64)
            return lambda ws: arr
        if code == mods.SRC_LITERAL:
            lit = self.literal(insn)
            if width == 64:
                lit = lit << 32 if is_float else (i64(lit | (~M32 if lit >> 31 and fmt is not None and fmt.kind == "i" else 0)))
            arr = np.full(n_lanes, i64(lit), dtype=_I64)
            return lambda ws: arr
        if code >= 256:
            if scalar:
                raise MachineError(f"{insn.name}: a scalar instruction cannot read VGPR v{code - 256}")
            return self.vgpr_source("v", code - 256, width, reads)
        if code in (mods.SRC_VCCZ, mods.SRC_EXECZ, mods.SRC_SCC):
            reads.append({251: "VCC", 252: "EXEC", 253: "SCC"}[code])
            get = {251: lambda ws: int(ws.vcc == 0), 252: lambda ws: int(ws.exec == 0), 253: lambda ws: ws.scc}[code]
            return lambda ws: np.full(n_lanes, get(ws), dtype=_I64)
        if code >= 128:
            raise MachineError(f"{insn.name}: source encoding {code} is not modelled")
        nregs = max(1, -(-width // 32))
        reads.append(scalar_name(code, self.gfx9) if nregs == 1 else reg_text("s", code, nregs))
        null = 125 if self.gfx9 else 124
        if code == null:
            arr = np.zeros(n_lanes, dtype=_I64)
            return lambda ws: arr
        if nregs == 1:
            return lambda ws: np.full(n_lanes, ws.s[code], dtype=_I64)
        if nregs == 2:
            return lambda ws: np.full(n_lanes, i64(ws.s[code] | (ws.s[code + 1] << 32)), dtype=_I64)
        return lambda ws: np.full(n_lanes, sum(ws.s[code + k] << (32 * k) for k in range(nregs)), dtype=object)

    def vgpr_source(self, kind: str, n: int, width: int, reads: list):
        nregs = max(1, -(-width // 32))
        reads.append(reg_text(kind, n, nregs))
        file = "v" if kind == "v" else "a"
        if nregs == 1:
            return lambda ws: getattr(ws, file)[n]
        if nregs == 2:
            return lambda ws: getattr(ws, file)[n] | (getattr(ws, file)[n + 1] << 32)

        def wide(ws):
            f = getattr(ws, file)
            return np.array([sum(int(f[n + k, lane]) << (32 * k) for k in range(nregs)) for lane in range(self.L)],
                            dtype=object)
        return wide

    # ------------------------------------------------------------------ destinations

    def dest(self, insn: Insn, fld: str, default_kind: str, width: int):
        """(kind, first, count) of destination field ``fld`` from its operand text, else from the field value."""
        nregs = max(1, -(-width // 32))
        r = operand_register(insn.meanings.get(fld), self.gfx9)
        if r is not None:
            return r[0], r[1], max(r[2], nregs) if r[0] != "s" else r[2]
        v = insn.fields.get(fld)
        if v is None:
            return None
        return default_kind, v, nregs


def writer_vgpr(kind: str, n: int, count: int, lo16: bool, hi16: bool, zero_hi: bool):
    """A function (ws, new bits, written-lanes mask or None) that stores a VALU result into VGPRs/AGPRs.
    (The compiled code already kept the old value in lanes outside its mask; half writes merge here.)"""
    file = "v" if kind == "v" else "a"
    if count == 1 and not (hi16 or zero_hi):
        if file == "v":
            def put_v(ws, new, wmask):
                ws.v[n] = new & M32
            return put_v

        def put_a(ws, new, wmask):
            ws.a[n] = new & M32
        return put_a

    def put(ws, new, wmask):
        f = getattr(ws, file)
        if count == 1:
            val = (f[n] & 0xFFFF) | ((new & 0xFFFF) << 16) if hi16 else new & 0xFFFF
            f[n] = val if wmask is None else np.where(wmask, val, f[n])
            return
        if new.dtype == object:
            for k in range(count):
                f[n + k] = np.array([(int(x) >> (32 * k)) & M32 for x in new], dtype=np.int64)
            return
        f[n] = new & M32
        f[n + 1] = (new >> 32) & M32
    return put


def lane_bits(vals: np.ndarray, own: np.ndarray) -> int:
    """A per-lane-bit result (bit laneId of each lane's value) as a wave mask; ``own`` holds each
    written lane's own bit and 0 elsewhere."""
    return int(np.bitwise_or.reduce(vals & own)) & 0xFFFFFFFFFFFFFFFF


def half_source(get, hi: bool):
    return (lambda ws: get(ws) >> 16) if hi else get


def abs_neg_source(get, width: int, use_abs: bool, neg: bool):
    if not (use_abs or neg):
        return get
    return lambda ws: mods.abs_neg(get(ws), width, use_abs, neg)


def float_kind(fmt) -> tuple[str, int] | None:
    if fmt is not None and fmt.is_float and fmt.kind in ("f", "bf"):
        return fmt.kind, fmt.width
    return None
