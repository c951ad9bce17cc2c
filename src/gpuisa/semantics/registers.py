"""Run-time helpers for indexed register access in compiled pseudocode: elements of declared
arrays (``declare in : 8'B[8]``) chosen per lane, another lane's VGPR, and the VGPR file
indexed by a computed register number (V_MOVREL*).  ``runtime`` re-exports them, so
generated code calls them as ``rt.*``.
"""

from __future__ import annotations

import numpy as np


def gather(arr, idx):
    """arr[idx[lane]][lane] for a list of per-lane arrays."""
    idx = np.asarray(idx)
    if idx.ndim and len(idx) and idx.min() == idx.max() and 0 <= idx[0] < len(arr):
        return np.broadcast_to(arr[int(idx[0])], np.shape(idx))
    st = np.stack([np.broadcast_to(a, np.shape(idx)) for a in arr])
    i = np.minimum(np.maximum(np.asarray(idx).astype(np.int64), 0), len(arr) - 1)
    return st[i, np.arange(len(i))]


def scatter(arr, idx, v, m):
    idx = np.asarray(idx)
    for k in range(len(arr)):
        sel = idx == k
        if m is not None and m is not False:
            sel = sel & m
        elif m is False:
            continue
        if np.count_nonzero(sel):
            arr[k] = np.where(sel, v, arr[k])


def lane_get(reg, lane):
    """VGPR[lane][reg] for a lane index that is uniform or per lane."""
    if isinstance(lane, np.ndarray):
        return reg[np.minimum(np.maximum(lane.astype(np.int64), 0), len(reg) - 1)]
    return np.full(len(reg), reg[min(max(int(lane), 0), len(reg) - 1)], dtype=reg.dtype)


# ------------------------------------------------------------------ the VGPR file (V_MOVREL*)

VGPR_FILE_SIZE = 256  # v0..v255: the registers an instruction can name


class VgprAddressError(ValueError):
    """A computed VGPR number outside the register file."""


def _vgpr_rows(addr, m, C, rows: int):
    """Per-lane register numbers, checked on the active lanes (inactive lanes read row 0)."""
    a = np.broadcast_to(np.asarray(addr).astype(np.int64), (C.L,))
    active = np.ones(C.L, dtype=bool) if m is None else (np.zeros(C.L, dtype=bool) if m is False else m)
    bad = active & ((a < 0) | (a >= rows))
    if np.count_nonzero(bad):
        raise VgprAddressError(f"VGPR number {int(a[bad][0])} (a register operand plus M0) is outside "
                               f"the register file (allowed: 0..{rows - 1})")
    return np.where(active, a, 0), active


def vgpr_file_get(file, addr, m, C):
    """``VGPR[laneId][addr]``: file is (registers, lanes), addr one register number per lane."""
    rows, active = _vgpr_rows(addr, m, C, file.shape[0])
    return file[rows, C.lane]


def vgpr_file_put(file, addr, v, m, C):
    """A copy of the file with ``VGPR[laneId][addr] = v`` in the active lanes (written rows noted in C)."""
    rows, active = _vgpr_rows(addr, m, C, file.shape[0])
    new = file.copy()
    vals = np.broadcast_to(np.asarray(v).astype(np.int64) & 0xFFFFFFFF, (C.L,))
    new[rows[active], C.lane[active]] = vals[active]
    C.vgpr_written.update(int(r) for r in np.unique(rows[active]))
    return new
