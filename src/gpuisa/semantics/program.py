"""Programs for the wave machine: assembly text or bytes -> basic blocks of prepared steps -> run.

``parse(arch, text, wave)`` reads one instruction per line (``;`` and ``//`` comments,
``label:`` lines, assembler directives starting with ``.`` are skipped) through the codec's
encoder and decoder; branches name a label or give the SIMM16 word offset.  ``from_bytes``
decodes machine code instead.  Each instruction becomes a step (:mod:`.valu`,
:mod:`.memory`); straight-line runs of steps are basic blocks ending at a branch, a label
or ``s_endpgm``.  ``run(arch, program, state)`` executes on one wave and returns the new
state; ``s_waitcnt``/``s_wait_*``, ``s_nop``, ``s_delay_alu``, ``s_clause`` and other
scheduling hints are no-ops.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import numpy as np

from .. import archs
from . import memory, sources, valu
from .execute import Builder, Insn
from .machine import MachineError, WaveState, from_values, is_gfx9

NOOPS = re.compile(r"^s_(waitcnt\w*|wait_\w+|nop|delay_alu|clause|sleep|set_inst_prefetch_distance|inst_prefetch|"
                   r"barrier\w*|sendmsg\w*|ttracedata\w*|icache_inv|dcache_\w+|gl1_inv|setprio|version|"
                   r"singleuse_vdst|trap|code_end)$")
BRANCHES = {"s_branch": None, "s_cbranch_scc0": lambda ws: ws.scc == 0, "s_cbranch_scc1": lambda ws: ws.scc == 1,
            "s_cbranch_vccz": lambda ws: ws.vcc == 0, "s_cbranch_vccnz": lambda ws: ws.vcc != 0,
            "s_cbranch_execz": lambda ws: ws.exec == 0, "s_cbranch_execnz": lambda ws: ws.exec != 0}
ENDS = {"s_endpgm", "s_endpgm_saved", "s_endpgm_ordered_ps_done"}
_LABEL = re.compile(r"^([A-Za-z_.$][\w.$]*):\s*(.*)$")
MAX_STEPS = 10_000_000


@dataclass
class Block:
    steps: tuple
    end: str = "fall"  # fall | branch | cbranch | endpgm
    cond: object = None
    target: int | str | None = None  # the branch's label while parsing, then its target block's index
    line: int = 0


@dataclass
class Program:
    arch: str
    wave: int
    blocks: list
    lines: list = field(default_factory=list)  # (line number, Step or None) for listings
    instructions: int = 0


def _name(text: str) -> str:
    return text.split(None, 1)[0].lower() if text.split() else ""


def _strip(line: str) -> str:
    for mark in (";", "//"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip()


class Assembler:
    def __init__(self, arch: str, wave: int):
        from ..codec.decoder import get_decoder
        from ..codec.encoder import get_encoder

        self.arch, self.wave = arch, wave
        self.enc = get_encoder(arch, wave64=wave == 64)
        self.dec = get_decoder(arch, wave64=wave == 64)
        self.builder = Builder(arch, wave, is_gfx9(arch))
        self.builder.assemble = lambda text: self.insn(text, 0)

    def insn(self, text: str, lineno: int) -> Insn:
        try:
            data = self.enc.encode_line(text).data
        except ValueError as exc:
            msg = str(exc).splitlines()[0] if str(exc) else "does not assemble"
            raise MachineError(f"line {lineno}: {msg}" if lineno else msg) from None
        return self.decoded(self.dec.decode(data)[0], lineno, text)

    def decoded(self, d, lineno: int, text: str = "", extra: bytes = b"") -> Insn:
        if not d.name or not (d.valid or extra):
            raise MachineError(f"cannot decode {d.data.hex()} ({d.error or 'unknown encoding'})")
        return Insn(self.arch, d.name, d.encoding or "", dict(d.fields), dict(d.meanings), bytes(d.data) + extra,
                    d.text or text)

    def decode_stream(self, data: bytes) -> list:
        """[(offset, decoded, Insn or None)]: one per instruction; a DPP/SDWA dword the decoder left out
        of a 32-bit encoding (SRC0 = 249/250/233/234) is taken from the stream."""
        out, off = [], 0
        while off < len(data):
            d = self.dec.decode_at(data, off)
            extra = b""
            if (d.name and d.encoding in ("VOP1", "VOP2", "VOPC") and len(d.data) == 4
                    and d.fields.get("SRC0") in (233, 234, 249, 250) and off + 8 <= len(data)):
                extra = data[off + 4:off + 8]
            size = len(d.data) + len(extra)
            if size == 0:
                raise MachineError(f"cannot decode the bytes at offset {off:#x}")
            out.append((off, d, size, self.decoded(d, off, extra=extra) if d.name else None))
            off += size
        return out

    def step(self, insn: Insn, lineno: int):
        try:
            if memory.is_memory(insn):
                return memory.build(self.builder, insn)
            return valu.build(self.builder, insn)
        except MachineError as exc:
            raise MachineError(f"line {lineno}: {exc}" if lineno else str(exc)) from None


def _blocks(items: list, labels: dict, arch: str) -> list:
    """items: (lineno, kind, payload) with kind 'label' | 'step' | 'branch' | 'end' -> basic blocks."""
    blocks: list[Block] = []
    label_block: dict[str, int] = {}
    cur: list = []
    pending: list = []

    def close(end="fall", **kw):
        blocks.append(Block(tuple(cur), end, **kw))
        cur.clear()

    for lineno, kind, payload in items:
        if kind == "label":
            if cur or pending:
                close()
            pending.append(payload)
            continue
        for lab in pending:
            label_block[lab] = len(blocks)
        pending.clear()
        if kind == "step":
            cur.append(payload.run)
        elif kind == "end":
            close("endpgm", line=lineno)
        else:
            name, target = payload
            close("branch" if BRANCHES[name] is None else "cbranch", cond=BRANCHES[name], target=target, line=lineno)
    if cur or pending:
        for lab in pending:
            label_block[lab] = len(blocks)
        close()
    for blk in blocks:
        if isinstance(blk.target, str):  # (every branch names a label until here)
            if blk.target not in label_block:
                raise MachineError(f"line {blk.line}: branch to unknown label {blk.target!r}")
            blk.target = label_block[blk.target]
    return blocks


def parse(arch: str, text: str, wave: int) -> Program:
    """Assembly text -> Program (errors: MachineError naming the line)."""
    asm = Assembler(arch, wave)
    items, steps, count = [], [], 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _strip(raw)
        while line:
            m = _LABEL.match(line)
            if not m:
                break
            items.append((lineno, "label", m.group(1)))
            line = m.group(2).strip()
        if not line or line.startswith("."):
            continue
        name = _name(line)
        count += 1
        if name in BRANCHES:
            parts = line.split(None, 1)
            if len(parts) < 2:
                raise MachineError(f"line {lineno}: {name} needs a label")
            items.append((lineno, "branch", (name, parts[1].strip())))
        elif name in ENDS:
            items.append((lineno, "end", None))
        elif NOOPS.match(name):
            continue
        else:
            step = asm.step(asm.insn(line, lineno), lineno)
            items.append((lineno, "step", step))
            steps.append((lineno, step))
    return Program(arch, wave, _blocks(items, {}, arch), steps, count)


def from_bytes(arch: str, data: bytes, wave: int) -> Program:
    """Machine code -> Program (branch targets from SIMM16: the next instruction plus 4 * SIMM16 bytes)."""
    asm = Assembler(arch, wave)
    decoded = asm.decode_stream(data)
    offsets = {off for off, *_ in decoded}
    items: list[tuple[int, str, object]] = []  # (offset, kind, payload): see _blocks
    steps: list = []
    targets: dict[int, int] = {}
    for off, d, size, _insn in decoded:
        if d.name in BRANCHES:
            simm = d.fields.get("SIMM16", 0)
            tgt = off + size + 4 * (simm - 0x10000 if simm >= 0x8000 else simm)
            if tgt not in offsets and tgt != len(data):
                raise MachineError(f"offset {off:#x}: {d.name} targets {tgt:#x}, not an instruction")
            targets[off] = tgt
    for off, d, _size, insn in decoded:
        if off in targets.values():
            items.append((off, "label", f"@{off}"))
        if insn is None:
            raise MachineError(f"offset {off:#x}: cannot decode {d.data.hex()}")
        if d.name in BRANCHES:
            items.append((off, "branch", (d.name, f"@{targets[off]}")))
        elif d.name in ENDS:
            items.append((off, "end", None))
        elif not NOOPS.match(d.name):
            step = asm.step(insn, off)
            items.append((off, "step", step))
            steps.append((off, step))
    if len(data) in targets.values():
        items.append((len(data), "label", f"@{len(data)}"))
    return Program(arch, wave, _blocks(items, {}, arch), steps, len(decoded))


def execute(prog: Program, ws: WaveState, max_steps: int = MAX_STEPS) -> WaveState:
    """Run ``prog`` on ``ws`` (modified in place and returned)."""
    blocks, i, n = prog.blocks, 0, ws.steps
    with np.errstate(all="ignore"):
        while i < len(blocks):
            blk = blocks[i]
            for run in blk.steps:
                run(ws)
            n += len(blk.steps) + (blk.end != "fall")
            if n > max_steps:
                raise MachineError(f"the program did not finish within {max_steps:,} instructions")
            if blk.end == "endpgm":
                break
            if blk.end == "branch" or (blk.end == "cbranch" and blk.cond(ws)):
                i = blk.target
            else:
                i += 1
    ws.steps = n
    return ws


def resolve(arch: str) -> str:
    try:
        key = archs.resolve_arch(arch).name
    except archs.UnknownArch as exc:
        raise MachineError(str(exc)) from None
    have = sources.generations()  # the source's own and those that carry a donor's semantics
    if key not in have:
        raise MachineError(f"no executable pseudocode for {archs.by_name(key).title} "
                           f"(available: {', '.join(archs.by_name(a).title for a in have)})")
    return key


def wave_size(arch: str, wave: int | None) -> int:
    allowed = archs.by_name(arch).features.waves or (32, 64)  # CDNA1-4 wave64 only, CDNA5 wave32 only
    wave = wave or allowed[0]
    if wave not in allowed:
        raise MachineError(f"wave size {wave} (allowed: {', '.join(map(str, allowed))})")
    return wave


@functools.lru_cache(maxsize=64)
def _cached(arch: str, text: str, wave: int) -> Program:
    return parse(arch, text, wave)


def run(arch: str, program, state=None, wave: int | None = None, max_steps: int = MAX_STEPS) -> WaveState:
    """Run ``program`` (assembly text, bytes, or a parsed Program) on one wave; returns the final state.

    ``state`` is a WaveState (copied, not modified) or a dict of register names to values
    (``V1``, ``V[2:3]``, ``S0``, ``VCC``, ``EXEC``, ``SCC``, ``M0``, ``MEM:0x1000``, ``LDS:0x0``).
    """
    key = resolve(arch)
    if isinstance(state, WaveState):
        ws = state.copy()
        wave = ws.wave
    else:
        wave = wave_size(key, wave)
        ws = from_values(key, wave, state)
    if isinstance(program, Program):
        prog = program
    elif isinstance(program, (bytes, bytearray)):
        prog = from_bytes(key, bytes(program), wave)
    else:
        prog = _cached(key, str(program), wave)
    if prog.wave != ws.wave:
        raise MachineError(f"the program was prepared for wave{prog.wave}, the state is wave{ws.wave}")
    return execute(prog, ws, max_steps)
