"""Run one encoded instruction (assembly text or machine-code bytes) on a register-file state.

``evaluate_encoded(arch, text_or_bytes, registers, wave=..., lanes=...)`` assembles (or
decodes) the instruction with the codec, builds its step (every modifier of the encoding
applied, see :mod:`.valu`) and returns what it read and wrote: ``{"instruction", "encoding",
"hex", "reads": {reg: values}, "writes": {reg: values}, "formats": {reg: fmt}}`` where
values are per-lane lists for VGPRs/AGPRs (the first ``lanes`` lanes) and one int for
scalar registers.  Floats given for a register are read in the format the instruction
reads it with (f16, bf16, f32 or f64).
"""

from __future__ import annotations

import re

import numpy as np

from . import floats
from .machine import MachineError, WaveState, from_values, parse_register, set_value
from .program import Assembler, resolve, wave_size

_HEX = re.compile(r"^(0x)?[0-9a-fA-F\s_]+$")


def _float_bits(value: float, fmt) -> int:
    kind, width = fmt
    arr = floats.convert(np.array([value]), ("f", 64), (kind, width)) if kind == "f" else floats.to_bf16(np.array([value]))
    return int(floats.to_bits(arr, kind, width)[0]) & ((1 << width) - 1)


def _as_bits(values, fmt):
    """Values given for a register read as 16-bit floats: floats converted to that format's bits."""
    def one(v):
        if isinstance(v, str):
            t = v.strip().lower()
            if t.startswith(("0x", "-0x", "0b", "-0b")) or t.lstrip("+-").isdigit():
                return v
            try:
                return _float_bits(float(t), fmt)
            except ValueError:
                return v
        if isinstance(v, float):
            return _float_bits(v, fmt)
        return v
    return [one(v) for v in values] if isinstance(values, (list, tuple)) else one(values)


def _state(arch: str, wave: int, registers: dict, formats: dict) -> WaveState:
    ws = from_values(arch, wave, {})
    for key, val in registers.items():
        fmt = formats.get(key.strip().upper())
        if fmt is not None and fmt[1] == 16:
            val = _as_bits(val, fmt)
        set_value(ws, key, val)
    return ws


def _value(ws: WaveState, reg: str, lanes: int):
    key = reg.upper()
    if key in ("VCC", "EXEC", "SCC", "M0", "MEM", "LDS"):
        return {"VCC": ws.vcc, "EXEC": ws.exec, "SCC": ws.scc, "M0": ws.m0}.get(key)
    if key in ("VCC_LO", "VCC_HI", "EXEC_LO", "EXEC_HI"):
        return ws.s[{"VCC_LO": 106, "VCC_HI": 107, "EXEC_LO": 126, "EXEC_HI": 127}[key]]
    if key.startswith("TTMP"):
        return ws.s[108 + int(key[4:])]
    kind, first, count = parse_register(reg)
    val = ws[reg]
    if kind == "S":
        return val
    return [int(x) for x in list(val)[:lanes]]


def evaluate_encoded(arch: str, instruction, registers: dict | None = None, wave: int | None = None,
                     lanes: int | None = None, hex_input: bool = False) -> dict:
    key = resolve(arch)
    wave = wave_size(key, wave)
    registers = dict(registers or {})
    per_lane = [len(v) for v in registers.values() if isinstance(v, (list, tuple))]
    lanes = lanes or max(per_lane, default=1)
    if not 1 <= lanes <= wave:
        raise MachineError(f"--lanes {lanes} (allowed: 1..{wave} for wave{wave})")
    asm = Assembler(key, wave)
    if hex_input or isinstance(instruction, (bytes, bytearray)):
        data = instruction if isinstance(instruction, (bytes, bytearray)) else hex_bytes(instruction)
        decoded = asm.decode_stream(bytes(data))
        if len(decoded) != 1 or decoded[0][3] is None:
            raise MachineError(f"the bytes hold {len(decoded)} instructions; give exactly one")
        insn = decoded[0][3]
    else:
        insn = asm.insn(str(instruction).strip(), 0)
    step = asm.step(insn, 0)
    if "EXEC" not in {k.upper() for k in registers}:
        registers["EXEC"] = (1 << lanes) - 1
    formats = {r.upper(): (f.kind, f.width) for r, f in step.formats.items()}
    ws = _state(key, wave, registers, formats)
    before = ws.copy()
    with np.errstate(all="ignore"):
        step.run(ws)
    reads = {r: _value(before, r, lanes) for r in dict.fromkeys(step.reads)}
    writes = {r: _value(ws, r, lanes) for r in dict.fromkeys(step.writes) if r not in ("MEM", "LDS")}
    changed = [r for r in writes if _value(before, r, lanes) != writes[r]]
    return {"arch": key, "wave": wave, "lanes": lanes, "instruction": insn.text, "name": insn.name,
            "encoding": insn.encoding, "hex": insn.data.hex(), "reads": reads, "writes": writes,
            "changed": changed, "formats": {r: f"{k}{w}" for r, (k, w) in formats.items()}}


def hex_bytes(text: str) -> bytes:
    t = str(text).strip()
    if not _HEX.match(t):
        raise MachineError(f"{t[:40]!r} is not hex bytes (for example 0255067e)")
    t = re.sub(r"[\s_]", "", t)
    t = t[2:] if t.lower().startswith("0x") else t
    if len(t) % 2:
        raise MachineError("odd number of hex digits")
    return bytes.fromhex(t)


def interpret(bits: int, fmt: str | None):
    """Raw bits shown as a float of format fmt (f16, bf16, f32, f64), else None."""
    if not fmt or not isinstance(bits, int):
        return None
    kind, width = ("bf", 16) if fmt == "bf16" else ("f", int(fmt[1:]))
    return float(floats.from_bits(np.array([bits & ((1 << width) - 1)], dtype=np.uint64).astype(np.int64), kind, width)[0])
