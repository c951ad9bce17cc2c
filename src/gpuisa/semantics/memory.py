"""Memory instructions on the wave machine: global/flat, buffer (with a descriptor), LDS (ds_*)
and scalar loads (s_load*, s_buffer_load*), including atomics.

Addresses are computed per active lane as the hardware does (scratch: SGPR + VGPR + offset in
each lane's own private space): global = SGPR-pair base plus a
32-bit VGPR offset (or a 64-bit VGPR address when SADDR is off) plus the signed immediate;
buffer = descriptor base (bits 0-47) + SOFFSET + immediate + VGPR offset (offen) + index *
stride (idxen; stride in bits 48-61, num_records in dword 2: raw buffers bound offset +
size by num_records, structured ones the index, out-of-range loads read 0 and stores are
dropped); LDS = VGPR address + offset (64 KiB); scalar = SGPR-pair base + immediate (+
SOFFSET).  Atomics are applied lane by lane in lane order and return the old value when
the encoding asks for it (TH_ATOMIC_RETURN, GLC/SC0, or a ``_rtn`` name).
"""

from __future__ import annotations

import re

import numpy as np

from . import lanexchange
from .execute import Builder, Insn, Step, operand_register, reg_text
from .machine import M32, MachineError

_SIZES = {"b32": (4, False), "dword": (4, False), "b64": (8, False), "dwordx2": (8, False), "b96": (12, False),
          "dwordx3": (12, False), "b128": (16, False), "dwordx4": (16, False), "b256": (32, False),
          "dwordx8": (32, False), "b512": (64, False), "dwordx16": (64, False), "u8": (1, False),
          "ubyte": (1, False), "i8": (1, True), "sbyte": (1, True), "u16": (2, False), "ushort": (2, False),
          "i16": (2, True), "sshort": (2, True), "b8": (1, False), "byte": (1, False), "b16": (2, False),
          "short": (2, False)}
_PREFIX = re.compile(r"^(global|flat|scratch|buffer|s)_(load|store|buffer_load|atomic)_?(.*)$|^(ds)_([a-z]+?)(2)?(?:st64)?_(.*)$")
_ATOMIC_OPS = {"add": lambda o, d, c: o + d, "sub": lambda o, d, c: o - d, "swap": lambda o, d, c: d,
               "wrxchg": lambda o, d, c: d, "and": lambda o, d, c: o & d, "or": lambda o, d, c: o | d,
               "xor": lambda o, d, c: o ^ d, "cmpswap": lambda o, d, c: d if o == c else o,
               "cmpst": lambda o, d, c: d if o == c else o}


def is_memory(insn: Insn) -> bool:
    n = insn.name
    return n.startswith(("global_", "flat_", "scratch_", "buffer_", "ds_", "s_load", "s_buffer_load"))


def _size(suffix: str, name: str) -> tuple[int, bool]:
    for part in reversed(suffix.split("_")):
        if part in _SIZES:
            return _SIZES[part]
    raise MachineError(f"{name}: data size not recognised")


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _sreg(b: Builder, insn: Insn, fld: str, reads: list):
    """An SGPR operand's first slot from its text (None when absent, 'off' or a constant)."""
    r = operand_register(insn.meanings.get(fld), b.gfx9)
    if r is None or r[0] != "s":
        return None
    reads.append(reg_text("s", r[1], r[2]))
    return r[1]


def _const(insn: Insn, fld: str) -> int:
    t = (insn.meanings.get(fld) or "0").strip().lower()
    try:
        return int(t, 0)
    except ValueError:
        return 0


def _vreg(insn: Insn, fld: str, b: Builder):
    r = operand_register(insn.meanings.get(fld), b.gfx9)
    if r is not None and r[0] in "va":
        return r
    if fld in insn.fields:
        return "v", insn.fields[fld], 1
    return None


def _load_words(raw: bytes, size: int, signed: bool) -> list[int]:
    if size < 4:
        v = int.from_bytes(raw, "little", signed=signed)
        return [v & M32]
    return [int.from_bytes(raw[i:i + 4], "little") for i in range(0, size, 4)]


def _atomic(mem, addr: int, size: int, op: str, data: int, cmp: int, signed: bool) -> int:
    bits = 8 * size
    old = int.from_bytes(mem.read(addr, size), "little")
    mask = (1 << bits) - 1
    if op in _ATOMIC_OPS:
        new = _ATOMIC_OPS[op](old, data, cmp)
    elif op in ("min", "max", "smin", "smax", "umin", "umax"):
        sgn = op.startswith("s") or (op in ("min", "max") and signed)
        a, d = (_signed(old, bits), _signed(data, bits)) if sgn else (old, data)
        new = min(a, d) if op.endswith("min") else max(a, d)
    elif op == "inc":
        new = 0 if old >= data else old + 1
    elif op == "dec":
        new = data if old == 0 or old > data else old - 1
    else:
        raise MachineError(f"atomic {op} is not modelled")
    mem.write(addr, (new & mask).to_bytes(size, "little"))
    return old


def build(b: Builder, insn: Insn) -> Step:
    if insn.name in lanexchange.NAMES:  # through the LDS unit, but a lane exchange: no memory
        return lanexchange.build(b, insn)
    m = _PREFIX.match(insn.name)
    if not m:
        raise MachineError(f"{insn.name} is not modelled by the wave machine")
    if m.group(4):
        space, kind, two, rest = m.group(4), m.group(5), m.group(6), m.group(7)
    else:
        space, kind, two, rest = m.group(1), m.group(2), None, m.group(3)
    if rest.startswith("d16") or "lds" in rest.split("_") or "format" in insn.name:
        raise MachineError(f"{insn.name}: d16, format and LDS-direct variants are not modelled")
    if space == "s" or kind == "buffer_load":
        return _scalar_load(b, insn, rest)
    op = None
    if kind == "atomic" or (space == "ds" and kind not in ("load", "store", "read", "write")):
        op_text = rest if kind == "atomic" else f"{kind}_{rest}"
        parts = [p for p in op_text.split("_") if p not in ("rtn", "x2", "u32", "i32", "b32", "u64", "i64", "b64", "f32", "f64")]
        op = parts[0] if parts else ""
        wide = any(p in op_text.split("_") for p in ("x2", "u64", "i64", "b64"))
        size, signed = (8 if wide else 4), ("i32" in op_text or "i64" in op_text)
    else:
        size, signed = _size(rest, insn.name)
    store = kind in ("store", "write")
    if space == "ds":
        return _ds(b, insn, size, signed, store, op,
                   bool(two) or "2addr" in rest or "read2" in insn.name or "write2" in insn.name, rest)
    return _vector_mem(b, insn, space, size, signed, store, op)


def _address_fn(b: Builder, insn: Insn, space: str, reads: list):
    """A function ws -> per-lane addresses (Python ints) and per-lane in-range flags for global/buffer."""
    f = insn.fields
    if space == "scratch":  # each lane's own private space: lane * 2**32 + a 32-bit address
        off = _signed(f.get("IOFFSET", f.get("OFFSET", 0)), 24 if "IOFFSET" in f else 13)
        vn, sve = f.get("VADDR", f.get("ADDR", 0)), f.get("SVE", 1)
        saddr = _sreg(b, insn, "SADDR", reads)
        if sve:
            reads.append(reg_text("v", vn, 1))

        def scratch_addr(ws, lane):
            a = (ws.s[saddr] if saddr is not None else 0) + (int(ws.v[vn, lane]) if sve else 0) + off
            return (int(lane) << 32) + (a & M32), True
        return scratch_addr
    if space in ("global", "flat"):
        off = _signed(f.get("IOFFSET", f.get("OFFSET", 0)), 24 if "IOFFSET" in f else 13)
        vaddr = _vreg(insn, "VADDR" if "VADDR" in f else "ADDR", b)
        saddr = _sreg(b, insn, "SADDR", reads) if space == "global" else None
        vn = vaddr[1]
        reads.append(reg_text("v", vn, 1 if saddr is not None else 2))

        def global_addr(ws, lane):
            if saddr is not None:
                return ws.sgpr64(saddr) + int(ws.v[vn, lane]) + off, True
            return (int(ws.v[vn, lane]) | (int(ws.v[vn + 1, lane]) << 32)) + off, True
        return global_addr
    rsrc = _sreg(b, insn, "RSRC" if "RSRC" in f else "SRSRC", reads)
    if rsrc is None:
        raise MachineError(f"{insn.name}: buffer descriptor operand not found")
    soff_reg = _sreg(b, insn, "SOFFSET", reads)
    soff_const = _const(insn, "SOFFSET") if soff_reg is None else 0
    ioff = f.get("IOFFSET", f.get("OFFSET", 0))
    offen, idxen = f.get("OFFEN", 0), f.get("IDXEN", 0)
    vn = f.get("VADDR", 0)
    if offen or idxen:
        reads.append(reg_text("v", vn, 2 if offen and idxen else 1))

    def addr(ws, lane, size=4):
        base = ws.s[rsrc] | ((ws.s[rsrc + 1] & 0xFFFF) << 32)
        stride, records = (ws.s[rsrc + 1] >> 16) & 0x3FFF, ws.s[rsrc + 2]
        index = int(ws.v[vn, lane]) if idxen else 0
        voff = int(ws.v[vn + (1 if idxen else 0), lane]) if offen else 0
        soff = ws.s[soff_reg] if soff_reg is not None else soff_const
        ok = (index < records) if stride else (voff + ioff + size <= records)
        return base + soff + ioff + voff + index * stride, ok
    return addr


def _vector_mem(b: Builder, insn: Insn, space: str, size: int, signed: bool, store: bool, op) -> Step:
    f = insn.fields
    reads: list[str] = []
    writes: list[str] = []
    addr = _address_fn(b, insn, space, reads)
    buffer = space == "buffer"
    data_fld = "VDATA" if buffer else ("VSRC" if "VSRC" in f else "DATA")
    dst_fld = "VDATA" if buffer else "VDST"
    nwords = max(1, size // 4)
    returns = op is not None and bool(f.get("TH", 0) & 1 if "TH" in f else f.get("SC0", f.get("GLC", 0)))
    data = _vreg(insn, data_fld, b) if (store or op is not None) else None
    dst = _vreg(insn, dst_fld, b) if (not store and op is None) or returns else None
    if data is not None:
        reads.append(reg_text(data[0], data[1], nwords * (2 if op in ("cmpswap", "cmpst") else 1)))
    if dst is not None:
        writes.append(reg_text(dst[0], dst[1], nwords))
    if op is not None:
        writes.append("MEM")
    private = space == "scratch"
    data_at = data if data is not None else ("", 0)  # (register file, first register): read only
    dst_at = dst if dst is not None else ("", 0)  # where the instruction has one

    def run(ws):
        m, active, _ = b.exec_mask(ws)
        mem = ws.scratch if private else ws.mem
        for lane in np.flatnonzero(active):
            a, ok = addr(ws, lane, size) if buffer else addr(ws, lane)
            if op is not None:
                df = getattr(ws, data_at[0])
                d = sum(int(df[data_at[1] + k, lane]) << (32 * k) for k in range(nwords))
                c = sum(int(df[data_at[1] + nwords + k, lane]) << (32 * k) for k in range(nwords))
                old = _atomic(mem, a, size, op, d, c, signed) if ok else 0
                if dst is not None:
                    for k in range(nwords):
                        getattr(ws, dst_at[0])[dst_at[1] + k, lane] = (old >> (32 * k)) & M32
            elif store:
                df = getattr(ws, data_at[0])
                raw = b"".join(int(df[data_at[1] + k, lane]).to_bytes(4, "little") for k in range(nwords))
                if ok:
                    mem.write(a, raw[:size])
            else:
                words = _load_words(mem.read(a, size), size, signed) if ok else [0] * nwords
                for k, w in enumerate(words):
                    getattr(ws, dst_at[0])[dst_at[1] + k, lane] = w
    return Step(run, insn, reads, writes)


def _ds(b: Builder, insn: Insn, size: int, signed: bool, store: bool, op, two: bool, rest: str) -> Step:
    f = insn.fields
    reads, writes = [], []
    an = f.get("ADDR", 0)
    reads.append(reg_text("v", an, 1))
    o0, o1 = f.get("OFFSET0", 0), f.get("OFFSET1", 0)
    scale = size * (64 if "st64" in insn.name or "stride64" in insn.name else 1)  # GFX9 read2st64, GFX11+ stride64
    offsets = [o0 * scale, o1 * scale] if two else [o0 | (o1 << 8)]
    nwords = max(1, size // 4)
    d0 = _vreg(insn, "DATA0", b)
    d1 = _vreg(insn, "DATA1", b)
    dst = _vreg(insn, "VDST", b) if (not store and op is None) or "rtn" in insn.name else None
    if dst is not None:
        writes.append(reg_text(dst[0], dst[1], nwords * len(offsets)))
    if store or op is not None:
        reads.append(reg_text("v", d0[1], nwords))
    if op is not None or store:
        writes.append("LDS")
    dst_at = dst if dst is not None else ("v", 0)  # (register file, first register): read only where there is one

    def run(ws):
        m, active, _ = b.exec_mask(ws)
        for lane in np.flatnonzero(active):
            base = int(ws.v[an, lane])
            for j, off in enumerate(offsets):
                a = base + off
                src = d0 if j == 0 else d1
                if op is not None:
                    d = sum(int(ws.v[d0[1] + k, lane]) << (32 * k) for k in range(nwords))
                    c = sum(int(ws.v[d1[1] + k, lane]) << (32 * k) for k in range(nwords)) if d1 else 0
                    if op in ("cmpst", "cmpswap"):
                        d, c = c, d  # ds_cmpst: DATA0 is the compare value, DATA1 the new one
                    old = _atomic(ws.lds, a, size, op, d, c, signed)
                    if dst is not None:
                        for k in range(nwords):
                            ws.v[dst_at[1] + k, lane] = (old >> (32 * k)) & M32
                elif store:
                    raw = b"".join(int(ws.v[src[1] + k, lane]).to_bytes(4, "little") for k in range(nwords))
                    ws.lds.write(a, raw[:size])
                else:
                    for k, w in enumerate(_load_words(ws.lds.read(a, size), size, signed)):
                        ws.v[dst_at[1] + j * nwords + k, lane] = w
    return Step(run, insn, reads, writes)


def _scalar_load(b: Builder, insn: Insn, rest: str) -> Step:
    f = insn.fields
    size, signed = _size(rest, insn.name)
    reads: list[str] = []
    writes: list[str] = []
    base = _sreg(b, insn, "SBASE", reads)
    sdata = operand_register(insn.meanings.get("SDATA"), b.gfx9)
    if base is None or sdata is None:
        raise MachineError(f"{insn.name}: SBASE/SDATA operands not found")
    if "IOFFSET" in f:
        imm = _signed(f["IOFFSET"], 24)
        soff = _sreg(b, insn, "SOFFSET", reads)
    elif f.get("IMM", 1):
        imm = _signed(f.get("OFFSET", 0), 21)
        soff = f.get("SOFFSET") if f.get("SOFFSET_EN") else None
    else:
        imm, soff = 0, f.get("OFFSET")
    buffer = insn.name.startswith("s_buffer")
    nwords = max(1, size // 4)
    writes.append(reg_text("s", sdata[1], nwords))

    def run(ws):
        a = (ws.s[base] | ((ws.s[base + 1] & 0xFFFF) << 32)) if buffer else ws.sgpr64(base)
        a += imm + (ws.s[soff] if soff is not None else 0)
        words = _load_words(ws.mem.read(a & ~3 if size >= 4 else a, size), size, signed)
        for k, w in enumerate(words):
            ws.set_sgpr(sdata[1] + k, w)
    return Step(run, insn, reads, writes)
