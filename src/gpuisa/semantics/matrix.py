"""Matrix instructions (WMMA/SWMMAC on RDNA, MFMA/SMFMAC on CDNA) run natively with numpy.

The manuals give these instructions a formula (``D = A (16x16) * B (16x16) + C (16x16)``)
rather than code, so gpuisa implements them itself from facts in the name: the tile
M x N x K, the number of blocks (``_4b``), the input and accumulator formats and
sparsity (``swmmac``/``smfmac``: A holds K/2 values per row, 2 of every 4, and the index
operand says which).  What is gpuisa's own formulation is how the tile is spread over
the lanes and registers of a wave; that layout is stated below with its sources.

Operands: ``S0`` = A, ``S1`` = B, ``S2`` = C (dense) or the sparse index (sparse forms,
which accumulate into ``D0``), ``D0`` = D.  Each is one wide value per lane: VGPR ``v`` of
the operand is bits ``[32v, 32v+32)``, and element ``e`` of a lane (in the order the
layout numbers them) is bits ``[e*w, (e+1)*w)`` for a ``w``-bit format, so 16-bit values
pack two per VGPR, low half first.

Register layouts (lane ``l``, element ``e`` of that lane):

* CDNA MFMA (wave64), from the equations printed by AMD's Matrix Instruction Calculator
  (github.com/ROCm/amd_matrix_instruction_calculator, ``--detail-instruction``) for gfx9
  MFMA, which are facts about the hardware restated here in our own terms:
  A row ``i = l % M`` (B column ``j = l % N``); with several blocks the block is
  ``(l // M) % blocks`` and the lane holds all of K, else ``k = epl * (l // M) + e``
  (``epl`` = elements per lane); f64 inputs hold ``k = l // 16``.
  C/D column ``j = l % N``; 32-bit outputs: 4x4 tiles (16 blocks) keep block ``l // 4``
  and row ``i = e % 4``; otherwise block ``e // (regs per block)`` and
  ``i = 8 * (e' // 4) % 32 (M = 32 only) + 4 * (l // N) + e' % 4``.  f64 outputs:
  ``i = 4 * e + l // 16`` (one block) or ``i = l // 16``, block ``(l // 4) % 4`` (4x4x4_4b).
* RDNA3/RDNA3.5 WMMA (wave32 and wave64), from the same calculator's gfx11 equations:
  lane ``l`` holds row ``l % 16`` of A (column of B) with all 16 K values; lanes 16-31
  (and 32-63 in wave64) hold copies, and the lowest copy is read.  C/D: VGPR ``v``,
  ``rows = wave / 16``: row ``i = v * rows + l // 16``, column ``l % 16``; 16-bit results
  use the low half of each VGPR (OP_SEL = 0) and keep the high half.
* RDNA4 WMMA/SWMMAC (wave32): the calculator version we read predates RDNA4, so this is
  our reading of AMD's RDNA4 material (the RDNA4 ISA guide's matrix chapter and AMD
  GPUOpen's "Using the Matrix Cores of AMD RDNA 4 architecture GPUs"), not re-checked
  against either here: the lane half ``h = l // 16`` selects K (A/B) or rows (C/D):
  A/B element ``e`` is ``k = 16 * (e // 8) + 8 * h + e % 8``; C/D element ``e`` is row
  ``e + 8 * h``, 16-bit results packed two per VGPR.  8-bit and 4-bit inputs may be
  grouped differently on hardware.  Marked ``untested``; wave64 is refused.
* Sparse forms: A element ``e`` of a lane is compressed column ``kc`` by the dense rule
  for K/2; it belongs to group ``kc // 2`` of 4 columns, and bits ``[2e, 2e+2)`` of the
  index operand (index set 0) give its place in the group.

Arithmetic: float tiles are multiplied and summed in float64 (exact for the small values
the tests use, one float64 rounding per step otherwise), then rounded once to the
accumulator format (RNE); integer tiles are exact in int64 and wrap to 32 bits.  Hardware accumulation order
and intermediate rounding are not modelled; modifiers (NEG, CBSZ/ABID/BLGP, OP_SEL,
format selection of f8f6f4, scale operands) take their default values: ``iu8``/``iu4``
inputs are unsigned and f8f6f4 inputs are FP8 (E4M3).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from . import floats
from . import runtime as rt
from .compiled import NoSemantics, Program

NAME = re.compile(r"^v_(wmma|swmmac|mfma|smfmac)_(f32|f16|bf16|i32|f64)_(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_([a-z0-9_]+)$")
# input format names in the mnemonic -> (kind, bits) of A and B
_INPUTS = {
    "f16": (("f16", 16),) * 2, "bf16": (("bf16", 16),) * 2, "f32": (("f32", 32),) * 2, "f64": (("f64", 64),) * 2,
    "i8": (("i8", 8),) * 2, "iu8": (("u8", 8),) * 2, "iu4": (("u4", 4),) * 2, "f8f6f4": (("fp8", 8),) * 2,
    "fp8_fp8": (("fp8", 8), ("fp8", 8)), "fp8_bf8": (("fp8", 8), ("bf8", 8)),
    "bf8_fp8": (("bf8", 8), ("fp8", 8)), "bf8_bf8": (("bf8", 8), ("bf8", 8)),
}
_OUT_BITS = {"f32": 32, "f16": 16, "bf16": 16, "i32": 32, "f64": 64}


class MatrixLayoutError(ValueError):
    """A wave size or form whose register layout is not modelled."""


@dataclass(frozen=True)
class Shape:
    family: str  # wmma swmmac mfma smfmac
    gen: str  # cdna, rdna3, rdna4
    out: str
    M: int
    N: int
    K: int
    blocks: int
    a: tuple[str, int]
    b: tuple[str, int]

    @property
    def sparse(self) -> bool:
        return self.family in ("swmmac", "smfmac")

    @property
    def out_bits(self) -> int:
        return _OUT_BITS[self.out]


def parse(name: str, arch: str) -> Shape | None:
    m = NAME.match(name)
    if not m or m.group(7) not in _INPUTS:
        return None
    fam, out, M, N, K, blocks, ins = m.groups()
    gen = "cdna" if fam in ("mfma", "smfmac") else ("rdna4" if arch.startswith("rdna4") else "rdna3")
    a, b = _INPUTS[ins]
    return Shape(fam, gen, out, int(M), int(N), int(K), int(blocks or 1), a, b)


def is_matrix(name: str) -> bool:
    return NAME.match(name) is not None


# ---------------------------------------------------------------- layouts

@functools.lru_cache(maxsize=None)
def _input_map(s: Shape, which: str, wave: int, k_total: int):
    """(lane, element) -> (block, outer index, k) for A (outer = row) or B (outer = column)."""
    outer = s.M if which == "a" else s.N
    bits = (s.a if which == "a" else s.b)[1]
    if s.gen == "cdna":
        epl = outer * k_total * s.blocks // 64
        L = np.arange(64)[:, None]
        e = np.arange(max(epl, 1))[None, :]
        o = np.broadcast_to(L % outer, (64, e.shape[1]))
        if bits == 64:
            blk = (L // outer) % s.blocks if s.blocks > 1 else L * 0
            k = L // 16
        elif s.blocks > 1:
            blk, k = L // outer, e
        else:
            blk, k = L * 0, epl * (L // outer) + e
        return np.broadcast_to(blk, o.shape), o, np.broadcast_to(k, o.shape), epl
    if s.gen == "rdna3":
        L = np.arange(16)[:, None]  # the lowest copy; other lanes repeat it
        e = np.arange(k_total)[None, :]
        o = np.broadcast_to(L % 16, (16, k_total))
        return np.zeros_like(o), o, np.broadcast_to(e, o.shape), k_total
    if wave != 32:
        raise MatrixLayoutError("the wave64 register layout of RDNA4 matrix instructions is not modelled (use wave32)")
    epl = outer * k_total // 32
    L = np.arange(32)[:, None]
    e = np.arange(epl)[None, :]
    k = 16 * (e // 8) + 8 * (L // 16) + e % 8
    o = np.broadcast_to(L % 16, k.shape)
    return np.zeros_like(o), o, k, epl


@functools.lru_cache(maxsize=None)
def _output_map(s: Shape, wave: int):
    """(lane, element) -> (block, row, column) of C/D; element e is bits [e*w, (e+1)*w)."""
    M, N, B = s.M, s.N, s.blocks
    if s.gen == "cdna":
        L = np.arange(64)[:, None]
        n = M * N * B // 64
        e = np.arange(n)[None, :]
        j = np.broadcast_to(L % N, (64, n))
        if s.out_bits == 64:
            if B > 1:
                return np.broadcast_to((L // 4) % 4, j.shape), np.broadcast_to(L // 16, j.shape), j
            return np.zeros_like(j), np.broadcast_to(4 * e + L // 16, j.shape), j
        if M == 4:
            return np.broadcast_to(L // 4, j.shape), np.broadcast_to(e % 4, j.shape), j
        per = n // B
        blk, ee = e // per, e % per
        i = (8 * (ee // 4) % 32 if M > 16 else 0) + 4 * (L // M) + ee % 4
        return np.broadcast_to(blk, j.shape), np.broadcast_to(i, j.shape), j
    if s.gen == "rdna3":
        rows = wave // 16
        L = np.arange(wave)[:, None]
        v = np.arange(16 // rows)[None, :]
        i = v * rows + L // 16
        j = np.broadcast_to(L % 16, i.shape)
        step = 2 if s.out_bits == 16 else 1  # 16-bit results: the low half of each VGPR
        return np.zeros_like(i), i, j, step
    if wave != 32:
        raise MatrixLayoutError("the wave64 register layout of RDNA4 matrix instructions is not modelled (use wave32)")
    L = np.arange(32)[:, None]
    e = np.arange(8)[None, :]
    i = e + 8 * (L // 16)
    j = np.broadcast_to(L % 16, i.shape)
    return np.zeros_like(i), i, j


def operand_bits(s: Shape, wave: int) -> dict[str, int]:
    """Width per lane of each operand (a multiple of 32 bits)."""
    lanes = 64 if s.gen == "cdna" else wave
    ka = s.K // 2 if s.sparse else s.K

    def regs(elems_bits):
        return max(32, -(-elems_bits // 32) * 32)

    if s.gen == "rdna3":
        a = regs(s.K * s.a[1])
        b = regs(s.K * s.b[1])
        d = (16 // (wave // 16)) * 32
    else:
        a = regs(s.M * ka * s.blocks * s.a[1] // lanes)
        b = regs(s.N * s.K * s.blocks * s.b[1] // lanes)
        d = regs(s.M * s.N * s.blocks * s.out_bits // lanes)
    out = {"S0": a, "S1": b, "D0": d}
    out["S2"] = 32 if s.sparse else d
    return out


# ---------------------------------------------------------------- element codecs

def _unpack(wide, bits: int, count: int) -> np.ndarray:
    """Per-lane wide integers -> (lanes, count) array of unsigned element codes."""
    nbytes = max(1, -(-count * bits // 8))
    wide = np.asarray(wide)
    if wide.dtype == np.int64 and nbytes <= 8:
        u8 = wide.view(np.uint8).reshape(len(wide), 8)[:, :nbytes]
    else:
        raw = rt.wide_bytes(wide, nbytes)
        u8 = np.frombuffer(raw, dtype=np.uint8).reshape(len(wide), nbytes)
    if bits == 4:
        return np.stack([u8 & 0xF, u8 >> 4], axis=-1).reshape(len(wide), -1)[:, :count].astype(np.int64)
    dt = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    return u8.view(dt)[:, :count].astype(np.uint64 if bits == 64 else np.int64)


def _pack(codes: np.ndarray, bits: int) -> list[int]:
    """(lanes, count) element codes (16, 32 or 64 bits, low bits kept) -> one wide integer per lane."""
    dt = {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    lanes = codes.shape[0]
    raw = np.ascontiguousarray(np.asarray(codes).astype(np.uint64).astype(dt)).tobytes()
    n = len(raw) // lanes if lanes else 0
    return [int.from_bytes(raw[i * n:(i + 1) * n], "little") for i in range(lanes)]


def _decode(codes: np.ndarray, kind: str) -> np.ndarray:
    if kind == "f16":
        return codes.astype(np.uint16).view(np.float16).astype(np.float64)
    if kind == "bf16":
        return (codes.astype(np.uint32) << np.uint32(16)).view(np.float32).astype(np.float64)
    if kind == "f32":
        return codes.astype(np.uint32).view(np.float32).astype(np.float64)
    if kind == "f64":
        return codes.astype(np.uint64).view(np.float64)
    if kind in ("fp8", "bf8"):
        return floats.MINI[kind].decode(codes).astype(np.float64)
    if kind == "i8":
        return ((codes & 0xFF) ^ 0x80) - 0x80
    return codes  # u8, u4, i32 handled by caller


def _encode(x: np.ndarray, out: str) -> np.ndarray:
    if out == "f32":
        return x.astype(np.float32).view(np.uint32).astype(np.int64)
    if out == "f16":
        return x.astype(np.float16).view(np.uint16).astype(np.int64)
    if out == "bf16":
        return floats.to_bits(floats.to_bf16(x), "bf", 16).astype(np.int64) & 0xFFFF
    if out == "f64":
        return x.astype(np.float64).view(np.uint64)
    return np.asarray(x, dtype=np.int64) & 0xFFFFFFFF  # i32 wraps


# ---------------------------------------------------------------- the operation

@functools.lru_cache(maxsize=None)
def _input_flat(s: Shape, which: str, wave: int, k_total: int) -> tuple[np.ndarray, int, int]:
    """The input map as flat indices into a (blocks, outer, k_total) array, with (lanes, elements)."""
    blk, o, k, _ = _input_map(s, which, wave, k_total)
    outer = s.M if which == "a" else s.N
    flat = np.ravel_multi_index((blk, o, k), (s.blocks, outer, k_total)).ravel()
    return flat, o.shape[0], o.shape[1]


@functools.lru_cache(maxsize=None)
def _output_flat(s: Shape, wave: int) -> tuple[np.ndarray, int, int, int]:
    """The C/D map as flat indices into a (blocks, M, N) array, with (lanes, elements, step)."""
    omap = _output_map(s, wave)
    blk, i, j = omap[:3]
    step = omap[3] if len(omap) > 3 else 1
    flat = np.ravel_multi_index((blk, i, j), (s.blocks, s.M, s.N))
    return flat, i.shape[0], i.shape[1], step


@functools.lru_cache(maxsize=None)
def _sparse_flat(s: Shape, wave: int) -> tuple[np.ndarray, tuple, int, int]:
    """Sparse A: flat index of each compressed element in (blocks, M, K/2), and (block, row,
    first column of its group of 4) in the dense (blocks, M, K), per (lane, element); with
    (lanes, elements)."""
    bl, o, kc, _ = _input_map(s, "a", wave, s.K // 2)
    src = np.ravel_multi_index((bl, o, kc), (s.blocks, s.M, s.K // 2))
    return src, (bl, o, 4 * (kc // 2)), o.shape[0], o.shape[1]


def _read_input(s: Shape, which: str, wide, wave: int) -> np.ndarray:
    """Dense (blocks, rows, cols) matrix for A (M x K) or B (K x N); sparse A decompressed later."""
    kind, bits = s.a if which == "a" else s.b
    k_total = s.K // 2 if (which == "a" and s.sparse) else s.K
    flat, lanes, elems = _input_flat(s, which, wave, k_total)
    codes = _unpack(wide[:lanes], bits, elems)
    vals = _decode(codes, kind)
    dt = np.int64 if kind in ("i8", "u8", "u4") else np.float64
    outer = s.M if which == "a" else s.N
    m = np.zeros(s.blocks * outer * k_total, dtype=dt)
    m[flat] = vals.ravel()
    return m.reshape(s.blocks, outer, k_total)


def execute(s: Shape, regs: dict, wave: int) -> None:
    A = _read_input(s, "a", regs["S0"], wave)
    B = np.transpose(_read_input(s, "b", regs["S1"], wave), (0, 2, 1))  # blocks x K x N
    flat, lanes, n, step = _output_flat(s, wave)
    obits = s.out_bits
    if s.sparse:
        src, group, nl, ne = _sparse_flat(s, wave)
        idx = _index_bits(regs["S2"][:nl], ne)
        # each compressed element lands at its group's first column + its 2-bit index; two
        # elements naming the same place add up
        bl, o, base = group
        dense = np.zeros((s.blocks, s.M, s.K), dtype=A.dtype)
        np.add.at(dense, (bl, o, base + idx), A.reshape(-1)[src])
        A = dense
    acc_reg = regs["D0"] if s.sparse else regs["S2"]
    slots = n * step
    c_codes = _unpack(acc_reg[:lanes], obits, slots)
    sel = c_codes[:, ::step]
    integer = s.out == "i32"
    size = s.blocks * s.M * s.N
    if integer:
        C = np.zeros(size, dtype=np.int64)
        C[flat] = ((sel & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000
        D = np.einsum("bik,bkj->bij", A.astype(np.int64), B.astype(np.int64)) + C.reshape(s.blocks, s.M, s.N)
    else:
        ck = {"f32": "f32", "f16": "f16", "bf16": "bf16", "f64": "f64"}[s.out]
        C = np.zeros(size, dtype=np.float64)
        C[flat] = _decode(sel, ck)
        with np.errstate(all="ignore"):
            D = np.einsum("bik,bkj->bij", A.astype(np.float64), B.astype(np.float64)) + C.reshape(s.blocks, s.M, s.N)
    out_codes = c_codes.copy()
    out_codes[:, ::step] = _encode(D.reshape(-1)[flat], s.out)
    regs["D0"] = np.array(_pack(out_codes, obits), dtype=object)


def _index_bits(wide, count: int) -> np.ndarray:
    """2-bit sparse indices: element e of a lane is bits [2e, 2e+2) of its index operand (set 0)."""
    if count <= 32:
        v = np.asarray(wide)
        if v.dtype != np.int64:
            v = np.array([int(x) & 0xFFFFFFFFFFFFFFFF for x in v], dtype=np.uint64)
        return ((v[:, None] >> (2 * np.arange(count)).astype(v.dtype)[None, :]) & 3).astype(np.int64)
    return np.array([[(int(v) >> (2 * e)) & 3 for e in range(count)] for v in wide], dtype=np.int64)


def program(arch: str, name: str, entry):
    """A Program running the instruction natively (None when the name is no matrix form)."""
    s = parse(name, arch)
    if s is None:
        raise NoSemantics(f"matrix input format of {name} is not modelled")
    default_wave = 64 if s.gen == "cdna" else 32
    widths = operand_bits(s, default_wave)

    def fn(R, _m, C):
        regs = dict(R)
        for r, _w in widths.items():
            if r not in regs:
                regs[r] = np.zeros(C.L, dtype=object)
        execute(s, regs, C.wave)
        new = regs["D0"]
        if _m is not None and _m is not False:
            new = np.where(_m, new, np.asarray(R.get("D0", np.zeros(C.L)), dtype=object))
        R["D0"] = new
        return R

    reads = {"S0", "S1", "S2"} | ({"D0"} if s.sparse else set())
    return Program(arch, name, entry.op_class, entry.text, fn, entry.source, False, reads, {"D0"},
                            dict(widths), {}, set(), False, None, set(reads), set(),
                            f"# native matrix implementation: {describe(name, arch)}")


# Shapes whose register layout the Matrix Instruction Calculator states (CDNA1/2 MFMA shapes,
# gfx11 WMMA); tests/test_semantics_matrix.py checks each against numpy over whole tiles.
_CALCULATOR_CDNA = {
    (32, 32, 1, 2, "f32"), (16, 16, 1, 4, "f32"), (4, 4, 1, 16, "f32"), (32, 32, 2, 1, "f32"), (16, 16, 4, 1, "f32"),
    (32, 32, 4, 2, "f16"), (16, 16, 4, 4, "f16"), (4, 4, 4, 16, "f16"), (32, 32, 8, 1, "f16"), (16, 16, 16, 1, "f16"),
    (32, 32, 4, 2, "bf16"), (16, 16, 4, 4, "bf16"), (4, 4, 4, 16, "bf16"), (32, 32, 8, 1, "bf16"),
    (16, 16, 16, 1, "bf16"), (32, 32, 4, 2, "i8"), (16, 16, 4, 4, "i8"), (4, 4, 4, 16, "i8"),
    (16, 16, 4, 1, "f64"), (4, 4, 4, 4, "f64")}


def fidelity(arch: str, name: str) -> tuple[str, str]:
    s = parse(name, arch)
    if s is None:
        raise ValueError(f"{name} is not a matrix instruction of {arch}")
    what = f"runs natively ({describe(name, arch)}); "
    if s.gen == "rdna3" or (s.gen == "cdna" and not s.sparse and (s.M, s.N, s.K, s.blocks, s.a[0]) in _CALCULATOR_CDNA):
        return "exact", what + ("register layout from AMD's Matrix Instruction Calculator, checked against numpy "
                                "over whole tiles; modifiers at their defaults, accumulation rounded once")
    if s.gen == "rdna4":
        why = "register layout taken from the RDNA4 ISA guide's description, not checked against hardware"
    elif s.sparse:
        why = "sparse index placement (index set 0) checked by hand on one lane only"
    else:
        why = "register layout extrapolated from the calculator's MFMA rule to this newer shape; not checked"
    return "untested", what + why


@functools.lru_cache(maxsize=None)
def describe(name: str, arch: str) -> str:
    s = parse(name, arch)
    if s is None:
        return ""
    kind = "sparse " if s.sparse else ""
    return (f"{kind}{s.M}x{s.N}x{s.K} tile, {s.blocks} block(s), A {s.a[0]}, B {s.b[0]}, accumulator {s.out}")
