"""Steps for vector (VOP1/VOP2/VOPC/VOP3/VOP3SD/VOP3P, DPP, SDWA) and scalar (SOP*) instructions.

``build(builder, insn)`` resolves once: the compiled pseudocode, a getter per source with
its modifiers (inline constants, literal, op_sel halves, abs/neg, DPP/SDWA lane moves and
selects), the destination registers (VGPR/AGPR, SGPR, or a lane mask into VCC, an SGPR
pair or EXEC) and the output modifiers (omod, clamp, 16-bit halves).  The returned step
reads the wave's registers, runs the compiled function on all lanes under EXEC, and
writes back.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

from . import lanexchange, seqfast
from . import modifiers as mods
from .execute import (
    SCALAR,
    VECTOR,
    Builder,
    Insn,
    Step,
    abs_neg_source,
    float_kind,
    half_source,
    i64,
    lane_bits,
    reg_text,
    writer_vgpr,
)
from .intclamp import saturate
from .machine import EXEC_LO, VCC_LO, MachineError

_I64 = np.int64
_MODFIELD = {"OPSEL": "OP_SEL", "OPSEL_HI": "OP_SEL_HI", "NEG": "NEG", "NEG_HI": "NEG_HI", "ABS": "ABS",
             "OMOD": "OMOD", "CLAMP": "CLAMP"}


_TRUE16 = re.compile(r"\bv\d+\.[lh]\b")


def build(b: Builder, insn: Insn) -> Step:
    if insn.encoding in SCALAR:
        return _build_scalar(b, insn)
    if insn.encoding in VECTOR:
        return _build_vector(b, insn)
    if insn.encoding == "VOPD":
        return _build_dual(b, insn)
    raise MachineError(f"{insn.name}: encoding {insn.encoding} is not modelled by the wave machine")


# ------------------------------------------------------------------ vector


class _Plan:
    """What a vector step reads and writes (filled by the helpers below, then frozen into a closure)."""

    def __init__(self, b: Builder, insn: Insn, prog):
        self.b, self.insn, self.prog = b, insn, prog
        self.f = insn.fields
        self.getters: list = []  # (register, getter)
        self.reads: list = []
        self.writes: list = []
        self.lane_move: Callable | None = None  # fn(S0 bits, active) -> (S0 bits, write mask or None)
        self.dpp_word: tuple[int, int] | None = None  # (source code, DPP dword)
        self.sdwa: int | None = None  # the SDWA dword
        self.post: list = []  # fn(ws, R, wmask, own): own = each active lane's bit (see exec_mask)
        self.formats: dict = {}
        # true16 VOP1/VOP2/VOPC (v1.h, v2.l): bit 7 of a VGPR field selects the high half
        self.t16 = insn.encoding in ("VOP1", "VOP2", "VOPC") and bool(_TRUE16.search(insn.text or ""))
        self.t16_hi: set = set()


def _extra_word(insn: Insn) -> int:
    base = 8 if insn.encoding.startswith("VOP3") else 4
    if len(insn.data) < base + 4:
        raise MachineError(f"{insn.name}: DPP/SDWA dword missing from the encoding")
    return int.from_bytes(insn.data[base:base + 4], "little")


def _src_code(p: _Plan, reg: str) -> int | None:
    f = p.f
    slot = {"S0": "SRC0", "S1": "SRC1", "S2": "SRC2"}[reg]
    if slot in f:
        code = f[slot]
    elif reg == "S1" and "VSRC1" in f:
        code = 256 + f["VSRC1"]
    else:
        return None
    if reg == "S0" and code in (mods.SRC_DPP16, mods.SRC_DPP8, mods.SRC_DPP8FI, mods.SRC_SDWA):
        word = _extra_word(p.insn)
        if code == mods.SRC_SDWA:
            p.sdwa = word
            return (word & 0xFF) + (0 if (word >> 23) & 1 else 256)
        p.dpp_word = (code, word)
        return 256 + (word & 0xFF)
    if reg == "S1" and p.sdwa is not None and "VSRC1" in f and (p.sdwa >> 31) & 1:
        return f["VSRC1"]
    fmt = p.prog.formats.get(reg)
    if p.t16 and code >= 256 and fmt is not None and fmt.width == 16:
        if (code - 256) & 0x80:
            p.t16_hi.add(reg)
        return 256 + ((code - 256) & 0x7F)
    return code


def _mixed_abs_neg(get, f: dict, i: int):
    """neg (NEG bit i) and abs (NEG_HI bit i) of a mixed-precision source, on the sign bit of what it is read as:
    bit 31 for an f32 source (OP_SEL_HI bit i clear) or an f16 high half (OP_SEL bit i set), else bit 15."""
    neg, use_abs = bool((f.get("NEG", 0) >> i) & 1), bool((f.get("NEG_HI", 0) >> i) & 1)
    if not (neg or use_abs):
        return get
    hi = not (f.get("OP_SEL_HI", 0) >> i) & 1 or bool((f.get("OP_SEL", 0) >> i) & 1)
    sign = np.int64(1 << (31 if hi else 15))

    def read(ws):
        v = np.asarray(get(ws)).astype(_I64)
        v = v & ~sign if use_abs else v
        return v ^ sign if neg else v
    return read


def _sources(p: _Plan) -> None:
    prog, f, enc = p.prog, p.f, p.insn.encoding
    packed = enc == "VOP3P" and "OPSEL" not in prog.widths
    mixed = enc == "VOP3P" and not packed and "NEG" not in prog.widths  # v_fma_mix*: neg_lo is neg, neg_hi abs
    acc_src = p.insn.name in ("v_accvgpr_read_b32", "v_accvgpr_mov_b32")
    for i, reg in enumerate(("S0", "S1", "S2")):
        if reg not in prog.widths:
            continue
        code = _src_code(p, reg)
        width, fmt = prog.widths[reg], prog.formats.get(reg)
        if code is None:
            zeros = np.zeros(p.b.L, dtype=_I64)
            p.getters.append((reg, lambda ws, z=zeros: z))
            continue
        cw = fmt.width if fmt is not None and fmt.width <= width else width
        seen = len(p.reads)
        if acc_src and i == 0:
            get = p.b.vgpr_source("a", code - 256, 32, p.reads)
        else:
            get = p.b.source(p.insn, code, width, fmt, False, p.reads)
        if fmt is not None and fmt.is_float and fmt.kind in ("f", "bf") and not packed:
            p.formats.update({r: fmt for r in p.reads[seen:]})
        if p.sdwa is not None and i < 2:
            sel, sext = (p.sdwa >> (16 + 8 * i)) & 7, bool((p.sdwa >> (19 + 8 * i)) & 1)
            get = (lambda g, s, x: (lambda ws: mods.sdwa_select(g(ws), s, x)))(get, sel, sext)
            neg, use_abs = bool((p.sdwa >> (20 + 8 * i)) & 1), bool((p.sdwa >> (21 + 8 * i)) & 1)
            get = abs_neg_source(get, cw, use_abs, neg)
        elif mixed:
            get = _mixed_abs_neg(get, f, i)
        elif packed:
            def bit(name: str, i: int = i) -> bool:
                return bool((f.get(name, 0) >> i) & 1)

            half = max(width // 2, 16)
            if 128 <= code <= 208 or 240 <= code <= 248:
                get = _packed_constant(p.insn.name, code, half, p.b.L)
            sl, sh = bit("OP_SEL"), bit("OP_SEL_HI")  # NEG/NEG_HI read by the pseudocode (v_dot*_iu*: signedness)
            nl, nh = "NEG" not in prog.widths and bit("NEG"), "NEG_HI" not in prog.widths and bit("NEG_HI")  # are no negation
            if sl or not sh or nl or nh:
                get = (lambda g, h, *a: (lambda ws: mods.packed_source(g(ws), h, *a)))(get, half, sl, sh, nl, nh)
        else:
            if "OPSEL" not in prog.widths and cw == 16 and ((f.get("OP_SEL", 0) >> i) & 1 or reg in p.t16_hi):
                get = half_source(get, True)
            use_abs = "ABS" not in prog.widths and bool((f.get("ABS", 0) >> i) & 1)
            neg = "NEG" not in prog.widths and bool((f.get("NEG", 0) >> i) & 1)
            if p.dpp_word is not None and p.dpp_word[0] == mods.SRC_DPP16 and not enc.startswith("VOP3") and i < 2:
                neg, use_abs = mods.dpp_word_mods(p.dpp_word[1], i)
            get = abs_neg_source(get, min(cw, 64), use_abs, neg)
        p.getters.append((reg, get))
    if p.dpp_word is not None:
        _lane_move(p)


def _packed_constant(name: str, code: int, half: int, L: int):
    """An inline constant of a packed operand: the half-width value in both halves (f16, bf16 or f32
    by the instruction's element type; integers sign-extended to the half)."""
    bf16 = "bf16" in name
    bits = mods.constant_bits(code, half, "f16" in name or "f32" in name or bf16, bf16 and half == 16)
    assert bits is not None  # the caller passes an inline-constant code
    arr = np.full(L, i64(bits | (bits << half)), dtype=_I64)
    return lambda ws: arr


def _lane_move(p: _Plan) -> None:
    assert p.dpp_word is not None  # called only for a DPP instruction
    code, word = p.dpp_word
    gfx9 = p.b.gfx9
    if code == mods.SRC_DPP16:
        if mods.dpp16_sources((word >> 8) & 0x1FF, p.b.L, gfx9) is None:
            raise MachineError(f"{p.insn.name}: DPP control {(word >> 8) & 0x1FF:#x} is not valid here")
        p.lane_move = lambda s0, active: mods.dpp16(s0, word, active, gfx9)
    else:
        fi = code == mods.SRC_DPP8FI
        p.lane_move = lambda s0, active: (mods.dpp8(s0, word, active, fi), None)


def _wave_mask_dest(p: _Plan, fld: str | None):
    """(slot, count) for a lane-mask result: the field's SGPR(s), else VCC."""
    count = 2 if p.b.wave == 64 else 1
    if fld is not None and (fld in p.insn.meanings or fld in p.f):
        r = p.b.dest(p.insn, fld, "s", 32 * count)
        if r is not None and r[0] == "s":
            return r[1], count
    return VCC_LO, count


def _mask_writer(p: _Plan, reg: str, slot: int, count: int):
    lane_bit = p.b.lane_bit
    p.writes.append("EXEC" if slot == EXEC_LO else ("VCC" if slot == VCC_LO else reg_text("s", slot, count)))

    def put(ws, R, wmask, own):
        bits = lane_bits(np.asarray(R[reg]), own if wmask is None else np.where(wmask, lane_bit, 0))
        ws.set_sgpr(slot, bits, count)
    return put


def _scalar_inputs(p: _Plan) -> None:
    prog, f, b = p.prog, p.f, p.b
    L = b.L
    for reg in ("VCC", "EXEC", "SCC", "M0"):
        if reg not in prog.widths:
            continue
        if reg == "VCC" and "S2" not in prog.widths and "SRC2" in f and p.insn.encoding.startswith("VOP3") \
                and reg in prog.inputs:
            g = b.source(p.insn, f["SRC2"], b.wave, None, False, p.reads)
            p.getters.append((reg, g))
            continue
        if reg in prog.inputs:
            p.reads.append(reg)
        wide = b.broadcast
        read = {"VCC": lambda ws, wide=wide: wide(ws.vcc), "EXEC": lambda ws, wide=wide: wide(ws.exec),
                "SCC": lambda ws, wide=wide: wide(ws.scc), "M0": lambda ws, wide=wide: wide(ws.m0)}[reg]
        p.getters.append((reg, read))
    for reg, fld in _MODFIELD.items():
        if reg in prog.widths:
            arr = np.full(L, f.get(fld, 0), dtype=_I64)
            p.getters.append((reg, lambda ws, a=arr: a))
    for reg in ("SDWA_SRC0_SEL", "SDWA_SRC1_SEL"):  # GFX9 fp8 conversions' byte/word select: the whole dword (6),
        if reg in prog.widths:  # read as byte/word 0 (in SDWA the source select already moved it to the bottom)
            arr = np.full(L, 6, dtype=_I64)
            p.getters.append((reg, lambda ws, a=arr: a))
    for reg in ("SIMM32", "SIMM16"):
        if reg in prog.widths:
            val = b.literal(p.insn) if reg == "SIMM32" else f.get("SIMM16", 0)
            arr = np.full(L, val, dtype=_I64)
            p.getters.append((reg, lambda ws, a=arr: a))


def _outputs(p: _Plan) -> None:
    prog, f, b = p.prog, p.f, p.b
    if "D0" in prog.widths:
        _d0(p)
        fix = lanexchange.permlane_inactive(p.insn.name, f)
        if fix is not None:
            p.post.insert(0, fix)
    if "S0" in prog.writes:
        _source_writeback(p)
    if "VCC" in prog.writes:
        slot, count = _wave_mask_dest(p, "SDST" if "SDST" in f else None)
        p.post.append(_mask_writer(p, "VCC", slot, count))
    if "EXEC" in prog.writes:
        p.post.append(_mask_writer(p, "EXEC", EXEC_LO, 2 if b.wave == 64 else 1))
    if "SCC" in prog.writes:
        p.writes.append("SCC")
        p.post.append(lambda ws, R, wmask, active: setattr(ws, "scc", int(np.asarray(R["SCC"]).ravel()[0]) & 1))


def _source_writeback(p: _Plan) -> None:
    """v_swap_b32/b16, v_permlane16_swap_b32, v_permlane32_swap_b32: the pseudocode also writes its source
    register, a VGPR (its R["S0"] keeps the value read in lanes the instruction does not write)."""
    code = _src_code(p, "S0")
    if code is None or not 256 <= code < 512 or p.dpp_word is not None or p.sdwa is not None:
        raise MachineError(f"{p.insn.name} writes its source operand, which the wave machine models for a VGPR only")
    n = code - 256
    fmt = p.prog.formats.get("S0")
    lo16 = fmt is not None and fmt.width == 16
    hi16 = lo16 and ("S0" in p.t16_hi or (p.insn.encoding.startswith("VOP3") and bool(p.f.get("OP_SEL", 0) & 1)))
    store = writer_vgpr("v", n, 1, lo16, hi16, False)
    p.writes.append(reg_text("v", n, 1))
    p.post.append(lambda ws, R, wmask, active: store(ws, np.asarray(R["S0"]).astype(_I64), wmask))


def _d0(p: _Plan) -> None:
    prog, f, b, insn = p.prog, p.f, p.b, p.insn
    fmt = prog.formats.get("D0")
    dw = max(prog.widths["D0"], fmt.width if fmt is not None else 0)
    if "D0" in prog.lane_masks:
        if insn.encoding == "VOPC":
            slot, count = VCC_LO, 2 if b.wave == 64 else 1
            if p.sdwa is not None and (p.sdwa >> 15) & 1:
                slot = (p.sdwa >> 8) & 0x7F
        else:
            slot, count = _wave_mask_dest(p, "VDST")
        zeros = np.zeros(b.L, dtype=_I64)
        p.getters.append(("D0", lambda ws: zeros))
        if "D0" in prog.writes:
            p.post.append(_mask_writer(p, "D0", slot, count))
        return
    default = "a" if insn.name in ("v_accvgpr_write_b32", "v_accvgpr_mov_b32") else "v"
    fw = fmt.width if fmt is not None else dw
    t16_hi = p.t16 and fw == 16 and bool(f.get("VDST", 0) & 0x80)
    if p.t16 and fw == 16:
        dest = ("v", f.get("VDST", 0) & 0x7F, 1)
    else:
        dest = b.dest(insn, "VDST", default, dw)
    if dest is None:
        zeros = np.zeros(b.L, dtype=_I64)
        p.getters.append(("D0", lambda ws: zeros))
        return
    kind, n, count = dest
    if kind == "s":
        p.getters.append(("D0", b.source(insn, n, dw, None, False, [])))
        if "D0" in prog.writes:
            p.writes.append(reg_text("s", n, count))
            p.post.append(lambda ws, R, wmask, active: ws.set_sgpr(n, int(np.asarray(R["D0"]).ravel()[0]), count))
        return
    hi16 = t16_hi or (fw == 16 and "OPSEL" not in prog.widths and insn.encoding.startswith("VOP3")
                      and insn.encoding != "VOP3P" and bool((f.get("OP_SEL", 0) >> 3) & 1))
    old = b.vgpr_source(kind, n, 32 * count, [])
    p.getters.append(("D0", half_source(old, True) if hi16 else old))
    if "D0" not in prog.writes:
        return
    p.writes.append(reg_text(kind, n, count))
    if fmt is not None and fmt.is_float and fmt.kind in ("f", "bf") and insn.encoding != "VOP3P":
        p.formats[reg_text(kind, n, count)] = fmt
    out = _output_modifiers(p, fmt)
    store = writer_vgpr(kind, n, count, fw == 16, hi16, b.gfx9 and fw == 16 and insn.encoding != "VOP3P")
    if p.sdwa is not None and insn.encoding in ("VOP1", "VOP2") and (count == 1 or (p.sdwa >> 8) & 7 != 6):
        sel, unused = (p.sdwa >> 8) & 7, (p.sdwa >> 11) & 3  # (a 64-bit result with dst_sel DWORD: stored whole)
        file = kind

        def put_sdwa(ws, R, wmask, active):
            f_ = ws.v if file == "v" else ws.a
            new = mods.sdwa_dest(R["D0"] if out is None else out(R["D0"], R), f_[n], sel, unused)
            f_[n] = new if wmask is None else np.where(wmask, new, f_[n])
        p.post.append(put_sdwa)
        return
    if out is None:
        p.post.append(lambda ws, R, wmask, active: store(ws, R["D0"], wmask))
        return

    def put_modified(ws, R, wmask, active):  # omod/clamp only where the instruction wrote
        d = R["D0"]
        store(ws, out(d, R) if wmask is None else np.where(wmask, out(d, R), d), wmask)
    p.post.append(put_modified)


def _output_modifiers(p: _Plan, fmt):
    prog, f = p.prog, p.f
    clamp = "CLAMP" not in prog.widths and bool(f.get("CLAMP", 0))
    omod = 0 if "OMOD" in prog.widths else f.get("OMOD", 0)
    if p.sdwa is not None and p.insn.encoding in ("VOP1", "VOP2"):
        clamp, omod = bool((p.sdwa >> 13) & 1), (p.sdwa >> 14) & 3
    if not (clamp or omod):
        return None
    fk = float_kind(fmt)
    sat = saturate(p.insn.name, f) if clamp and not omod else None
    if sat is not None and (fk is None or fk[0] != "f"):
        return sat  # integer add/sub/mad/dot/sad, packed 16-bit: the exact result saturated (intclamp)
    packed = mods.packed_float_clamp(p.insn.name) if p.insn.encoding == "VOP3P" and not omod else None
    if packed is not None:
        return lambda x, R: packed(x)  # each float element of a VOP3P result clamped to [0, 1]
    if fk is None or fk[0] != "f" or p.insn.encoding == "VOP3P":
        what = "clamp" if clamp else "omod"
        raise MachineError(f"{p.insn.name}: {what} on a non-float (or packed) result is not modelled")
    kind, width = fk
    return lambda x, R: mods.omod_clamp(x, kind, width, omod, clamp)


def _check_inputs(insn: Insn, prog, getters: list, n_lanes: int) -> None:
    """Every register the compiled code reads must come from the plan (else a one-line error);
    registers it only writes start as zeros."""
    have = {reg for reg, _ in getters}
    missing = sorted(r for r in prog.widths if r not in have and (r in prog.inputs or r in prog.reads))
    if missing:
        raise MachineError(f"{insn.name} reads {', '.join(missing)}, which the wave machine does not model")
    for r in prog.widths:
        if r not in have:
            zeros = np.zeros(n_lanes, dtype=object if prog.widths[r] > 64 else _I64)
            getters.append((r, lambda ws, z=zeros: z))


def _vgpr_file(p: _Plan) -> None:
    """V_MOVREL*: the compiled code indexes the whole VGPR file by register number plus M0."""
    f, L = p.f, p.b.L
    numbers = {"SRC0": f.get("SRC0", 256) - 256, "DST": f.get("VDST", 0)}
    for reg, num in numbers.items():
        if reg in p.prog.widths:
            arr = np.full(L, num, dtype=_I64)
            p.getters.append((reg, lambda ws, a=arr: a))
    p.getters.append(("VGPR", lambda ws: ws.v))
    p.reads.append("M0")

    def put(ws, R, wmask, active):
        if R["VGPR"] is not ws.v:
            ws.v[:] = R["VGPR"]
    p.post.append(put)


def _build_dual(b: Builder, insn: Insn) -> Step:
    """VOPD: two VOP2/VOP1 operations that read their sources before either writes."""
    halves = (insn.text or "").split("::")
    if len(halves) != 2 or b.assemble is None:
        raise MachineError(f"{insn.name}: dual-issue operands not readable from {insn.text!r}")
    steps: list[Step] = []
    for half in halves:
        text = re.sub(r"^\s*v_dual_", "v_", half.strip())
        if text.startswith("v_cndmask_b32"):
            text += ", vcc_lo" if b.wave == 32 else ", vcc"
        steps.append(build(b, b.assemble(text)))
    x, y = steps
    rows = [int(w[1:]) for w in x.writes if w[:1] == "V" and w[1:].isdigit()]
    nx = rows[0] if rows else None

    def run(ws):
        if nx is None:
            x.run(ws)
            y.run(ws)
            return
        old = ws.v[nx].copy()
        x.run(ws)
        new = ws.v[nx].copy()
        ws.v[nx] = old  # Y reads X's destination as it was
        y.run(ws)
        ws.v[nx] = new
    return Step(run, insn, x.reads + y.reads, x.writes + y.writes, {**x.formats, **y.formats})


def _build_vector(b: Builder, insn: Insn) -> Step:
    prog = b.program(insn.name)
    if prog.scalar:
        raise MachineError(f"{insn.name}: scalar pseudocode in a vector encoding")
    p = _Plan(b, insn, prog)
    _sources(p)
    _scalar_inputs(p)
    _outputs(p)
    if prog.vgpr_file:
        _vgpr_file(p)
    _check_inputs(insn, prog, p.getters, b.L)
    fn = seqfast.kernel(prog) or prog.fn
    getters, post, ctx, move = tuple(p.getters), tuple(p.post), b.ctx, p.lane_move
    wave_level, exec_mask = prog.wave_level, b.exec_mask

    def run(ws):
        m, active, own = exec_mask(ws)
        R = {reg: g(ws) for reg, g in getters}
        wmask = m
        if move is not None:
            R["S0"], w = move(R["S0"], active)
            if w is not None:
                wmask = None if w.all() else w
        fn(R, None if wave_level else wmask, ctx)
        for put in post:
            put(ws, R, wmask, own)
    return Step(run, insn, p.reads, p.writes, p.formats)


# ------------------------------------------------------------------ scalar


def _build_scalar(b: Builder, insn: Insn) -> Step:
    prog = b.program(insn.name)
    f, enc = insn.fields, insn.encoding
    reads: list[str] = []
    writes: list = []
    getters: list[tuple[str, Callable[..., Any]]] = []
    post: list = []
    slots = {"S0": "SSRC0", "S1": "SSRC1"}
    for reg in ("S0", "S1"):
        if reg not in prog.widths:
            continue
        width, fmt = prog.widths[reg], prog.formats.get(reg)
        code = f.get(slots[reg])
        if enc == "SOPK":  # S0 is the immediate; s_cmpk_*: S0 the SDST register, S1 the immediate
            if reg == "S1" or "S1" not in prog.widths:
                arr = np.full(1, f.get("SIMM16", 0), dtype=_I64)
                getters.append((reg, lambda ws, a=arr: a))
                continue
            code = f.get("SDST")
        if code is None:
            getters.append((reg, lambda ws: np.zeros(1, dtype=_I64)))
            continue
        getters.append((reg, b.source(insn, code, width, fmt, True, reads)))
    for reg in ("SCC", "EXEC", "VCC", "M0"):
        if reg in prog.widths:
            if reg in prog.inputs:
                reads.append(reg)
            read = {"VCC": lambda ws: ws.vcc, "EXEC": lambda ws: ws.exec, "SCC": lambda ws: ws.scc,
                    "M0": lambda ws: ws.m0}[reg]
            getters.append((reg, lambda ws, r=read: np.full(1, i64(r(ws)), dtype=_I64)))
    if "SIMM16" in prog.widths:
        arr = np.full(1, f.get("SIMM16", 0), dtype=_I64)
        getters.append(("SIMM16", lambda ws: arr))
    if "SIMM32" in prog.widths:
        arr = np.full(1, b.literal(insn), dtype=_I64)
        getters.append(("SIMM32", lambda ws: arr))
    if "D0" in prog.widths:
        dw = prog.widths["D0"]
        count = max(1, -(-dw // 32))
        n = f.get("SDST")
        if n is None:
            getters.append(("D0", lambda ws: np.zeros(1, dtype=_I64)))
        else:
            getters.append(("D0", b.source(insn, n, dw, None, True, [])))
            if "D0" in prog.writes:
                writes.append(reg_text("s", n, count) if n < 106 else f"S{n}")
                post.append(lambda ws, R: ws.set_sgpr(n, int(np.asarray(R["D0"]).ravel()[0]), count))
    if "SCC" in prog.writes:
        writes.append("SCC")
        post.append(lambda ws, R: setattr(ws, "scc", int(np.asarray(R["SCC"]).ravel()[0]) & 1))
    if "EXEC" in prog.writes:
        writes.append("EXEC")
        post.append(lambda ws, R: setattr(ws, "exec", int(np.asarray(R["EXEC"]).ravel()[0]) & ((1 << b.wave) - 1)))
    if "VCC" in prog.writes:
        writes.append("VCC")
        post.append(lambda ws, R: setattr(ws, "vcc", int(np.asarray(R["VCC"]).ravel()[0]) & ((1 << b.wave) - 1)))
    _check_inputs(insn, prog, getters, 1)
    getters_t, post_t, fn, ctx = tuple(getters), tuple(post), prog.fn, b.sctx

    def run(ws):
        R = {reg: g(ws) for reg, g in getters_t}
        fn(R, None, ctx)
        for put in post_t:
            put(ws, R)
    return Step(run, insn, reads, writes)
