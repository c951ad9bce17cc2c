"""LDS-unit lane exchanges on the wave machine: ds_permute_b32, ds_bpermute_b32 and ds_swizzle_b32.

They go through the LDS hardware but touch no LDS memory; each moves one dword per lane between lanes.

* ds_bpermute_b32 vdst, vaddr, vdata offset:o - each active lane reads vdata of lane ((vaddr + o) / 4) mod
  the wave size, 0 where that lane is inactive;
* ds_permute_b32 vdst, vaddr, vdata offset:o - each active lane sends its vdata to lane ((vaddr + o) / 4) mod
  the wave size (the highest sending lane wins); active lanes nothing was sent to get 0;
* ds_swizzle_b32 vdst, vdata offset:o - quad mode (offset[15:14] = 10: lane reads lane (i & ~3) | sel of its
  quad, sel = offset[2k+1:2k] for position k) or bitmask mode (offset[15] = 0: within each group of 32 lanes,
  lane ((i & and) | or) ^ xor, masks in offset[4:0], [9:5], [14:10]); an inactive source lane gives 0.  Its
  rotate and FFT modes (offset >= 0xC000) are not modelled.

Inactive lanes keep their destination.  RDNA1-3.5 in wave64 are not modelled (their permutes select lanes
modulo 32: the lane halves' exchange is not described).
"""

from __future__ import annotations

import re

import numpy as np

from .execute import Builder, Insn, Step, operand_register, reg_text
from .machine import M32, MachineError

NAMES = ("ds_permute_b32", "ds_bpermute_b32", "ds_swizzle_b32")
_PERMLANE = re.compile(r"^v_permlane(x?)16(_var)?_b32$")


def permlane_inactive(name: str, fields: dict):
    """v_permlane16/x16(_var)_b32 read a lane by its select as DPP does: a source lane outside EXEC gives its
    value only with FI (op_sel[0]); else the lane gets 0 with BOUND_CTRL (op_sel[1]) or keeps its destination
    (the pseudocode reads every lane).  A step fn(ws, R, wmask, active) fixing R["D0"] before it is stored;
    None for other instructions."""
    m = _PERMLANE.match(name)
    if m is None or fields.get("OP_SEL", 0) & 1:
        return None
    cross, var, bc, dst = bool(m.group(1)), bool(m.group(2)), bool(fields.get("OP_SEL", 0) & 2), fields["VDST"]

    def fix(ws, R, wmask, own):
        active = np.asarray(own) != 0  # (each active lane's own EXEC bit, 0 elsewhere)
        lane = np.arange(len(active))
        if var:
            sel = np.asarray(R["S1"]).astype(np.int64) & 15
        else:
            both = (int(np.asarray(R["S1"]).ravel()[0]) & M32) | (int(np.asarray(R["S2"]).ravel()[0]) & M32) << 32
            sel = np.array([(both >> (4 * (i & 15))) & 15 for i in range(len(active))], dtype=np.int64)
        src = ((lane & ~15) ^ (16 if cross else 0)) | sel
        dead = active & ~active[np.minimum(src, len(active) - 1)]
        if dead.any():
            keep = np.zeros(len(active), dtype=np.int64) if bc else ws.v[dst].astype(np.int64)
            R["D0"] = np.where(dead, keep, np.asarray(R["D0"]).astype(np.int64))
    return fix


def _vgpr(insn: Insn, fld: str, b: Builder) -> int:
    r = operand_register(insn.meanings.get(fld), b.gfx9)
    if r is not None and r[0] == "v":
        return r[1]
    if fld in insn.fields:
        return insn.fields[fld]
    raise MachineError(f"{insn.name}: operand {fld} is not a VGPR")


def swizzle_sources(offset: int, L: int) -> np.ndarray:
    """The lane each lane reads for a ds_swizzle_b32 offset (quad or bitmask mode)."""
    lane = np.arange(L, dtype=np.int64)
    if offset & 0x8000:
        if offset & 0x4000:
            raise MachineError(f"ds_swizzle_b32: offset {offset:#x} (rotate/FFT mode) is not modelled")
        return (lane & ~3) | ((offset >> (2 * (lane & 3))) & 3)
    and_m, or_m, xor_m = offset & 31, (offset >> 5) & 31, (offset >> 10) & 31
    return (lane & ~31) | ((((lane & 31) & and_m) | or_m) ^ xor_m)


def _offset(insn: Insn) -> int:
    f = insn.fields
    return (f.get("OFFSET0", 0) | (f.get("OFFSET1", 0) << 8)) & 0xFFFF


def build(b: Builder, insn: Insn) -> Step:
    if b.wave == 64 and not b.gfx9 and b.arch != "rdna4":
        raise MachineError(f"{insn.name} in wave64 before RDNA4 is not modelled (lanes are selected modulo 32)")
    name, L = insn.name, b.L
    off = _offset(insn)
    dst = _vgpr(insn, "VDST", b)
    if name == "ds_swizzle_b32":
        data, addr = _vgpr(insn, "ADDR", b), None
        src_lanes = swizzle_sources(off, L)
    else:
        data, addr = _vgpr(insn, "DATA0", b), _vgpr(insn, "ADDR", b)
    reads = [reg_text("v", r, 1) for r in (addr, data) if r is not None]

    def run(ws):
        _, active, _ = b.exec_mask(ws)
        vals = ws.v[data].astype(np.int64) & M32
        if name == "ds_swizzle_b32":
            new = np.where(active[src_lanes], vals[src_lanes], 0)
        else:
            target = ((ws.v[addr].astype(np.int64) + off) & M32) // 4 % L
            if name == "ds_bpermute_b32":
                new = np.where(active[target], vals[target], 0)
            else:
                new = np.zeros(L, dtype=np.int64)
                for lane in np.flatnonzero(active):  # in lane order: the highest sender wins
                    new[target[lane]] = vals[lane]
        ws.v[dst] = np.where(active, new, ws.v[dst])
    return Step(run, insn, reads, [reg_text("v", dst, 1)])
