"""Vectorised kernels for a few hot VALU instructions, used by the wave machine's steps.

Run as compiled pseudocode, ``v_fma_f32`` and the NaN-aware maximum/minimum cost several
times a plain add.  The kernels here compute the same bits with a handful of numpy
operations on the lanes' raw values: fma as an exact binary64 product plus a round-to-odd
sum (then one rounding to binary32), max/min as a compare with the manuals' signed-zero
rule and the pseudocode's NaN cases (the other operand; S0 quieted when both are NaN; the
invalid-operation flag for a signalling NaN); fma's NaN lanes come out of the same binary64
operations as ``floats.fma`` and so carry the same bits.  tests/test_semantics_run.py checks every kernel against the
compiled program on random and special bit patterns.
"""

from __future__ import annotations

import numpy as np

from . import floats

_U32, _F32, _I64 = np.dtype(np.uint32), np.dtype(np.float32), np.dtype(np.int64)


def _f32(x):
    return x.astype(_U32).view(_F32)


def _bits(y):
    return y.view(_U32).astype(_I64)


def _put(R, _m, new):
    old = R["D0"]
    R["D0"] = new if _m is None else np.where(_m, new, old)
    return R


_TINY = 2.0 ** -126


def _fma(accumulate: bool, reference):
    def run(R, _m, C):
        a, b = _f32(R["S0"]), _f32(R["S1"])
        c = _f32(R["D0"] if accumulate else R["S2"]).astype(np.float64)
        p = a.astype(np.float64) * b.astype(np.float64)  # exact
        s = p + c  # (NaN lanes: the same binary64 operations as floats.fma, so the same NaN bits)
        # binary64 rounding then binary32 rounding is one correct rounding unless the binary64 sum
        # lies on a binary32 halfway point or in binary32's denormal range: there, round to odd
        if np.count_nonzero(((s.view(_I64) & 0x1FFFFFFF) == 0x10000000) | (np.abs(s) < _TINY)):
            s = floats._two_sum_odd(p, c)
        return _put(R, _m, _bits(s.astype(_F32)))
    return run


def _minmax(is_max: bool, reference):
    def run(R, _m, C):
        s0, s1 = R["S0"], R["S1"]
        a, b = _f32(s0), _f32(s1)
        pick_a = a > b if is_max else a < b
        zeros = (a == 0) & (b == 0)
        if np.count_nonzero(zeros):  # +0 counts as greater than -0
            pick_a |= zeros & (np.signbit(b) if is_max else np.signbit(a))
        out = np.where(pick_a, s0, s1) & 0xFFFFFFFF
        na, nb = a != a, b != b
        if np.count_nonzero(na) or np.count_nonzero(nb):  # a NaN gives the other operand; two: S0 quieted
            snan = (na & ((s0 & 0x400000) == 0)) | (nb & ((s1 & 0x400000) == 0))
            if _m is not None:
                snan &= _m
            if np.count_nonzero(snan):
                C.state["TRAPSTS.INVALID"] = 1
            out = np.where(na & nb, (s0 | 0x400000) & 0xFFFFFFFF, np.where(na, s1 & 0xFFFFFFFF,
                                                                          np.where(nb, s0 & 0xFFFFFFFF, out)))
        return _put(R, _m, out)
    return run


_KERNELS = {"v_fma_f32": lambda ref: _fma(False, ref), "v_fmac_f32": lambda ref: _fma(True, ref),
            "v_max_num_f32": lambda ref: _minmax(True, ref), "v_min_num_f32": lambda ref: _minmax(False, ref)}


def kernel(prog):
    """A kernel for ``prog`` (same calling convention as ``prog.fn``), or None."""
    make = _KERNELS.get(prog.name)
    if make is None or prog.reference_fn is not None:
        return None
    marker = {"v_max_num_f32": "+0>-0", "v_min_num_f32": "-0<+0"}.get(prog.name)
    if marker is not None and marker not in prog.text.replace(" ", ""):
        return None  # (a generation whose signed-zero rule differs: run the pseudocode)
    return make(prog.fn)
