"""GFX9 (CDNA1-3) specifics of LLVM's syntax, learned from llvm-mc-22 at generation time and applied
when decoding.

    python -m gpuisa.regen.named cdna1 cdna2 cdna3   # calls ``regen/gfx9.probe_named`` for GFX9 architectures

* DPP16 (src0 = 0xFA, a DPP dword follows): the GFX9 word has the same layout as GFX10's (src0 VGPR,
  dpp_ctrl, bound_ctrl, source neg/abs bits, bank and row masks) but no DPP8 and no fetch-inactive bit;
  which dpp_ctrl values print as what (``row_bcast:15``, ``wave_shr:1``, a comment for values the target
  lacks; the f64 ops of gfx90a+ know row_newbcast only) is probed per group of instructions, and for
  each instruction with a DPP form its mnemonic and how each of the 16 source-modifier bit combinations
  prints (``-v1``, ``|v1|``, ``sext(v1)``, or rejected).
* Register classes: a source LLVM restricts (MFMA's A/B operands are ``AV_32``/``AV_64``, its C operand an
  AGPR or VGPR tuple; ``v_swap_b32``'s source a VGPR; SMEM atomics' data not m0/exec) prints other values
  with an ``Invalid register`` or ``Invalid immediate`` comment.  Each such operand gets a token table
  (one token per field value), probed on one operand per print signature (its tokens for a few trial
  values), separately for an operand's AGPR bit clear and set.  Values on which llvm-mc-22 itself
  crashes print our own text.
* Loads into LDS (the ``lds`` bit of MUBUF/GLOBAL/SCRATCH loads) print without their data register.
* Sources where LLVM rejects a literal (MUBUF/MTBUF SOFFSET, VOP3 sources); 16-bit integer literals.
* Scalar operands: s_waitcnt counters, s_sendmsg message names (a table over the 65536 values, stored
  compactly), s_set_gpr_idx_on / s_set_gpr_idx_mode modes, s_endpgm's immediate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .decoded import sendmsg_text
from .plans import OperandPlan
from .syntax import join

if TYPE_CHECKING:
    from .named import LdsForm
    from .plans import Plan


def dpp_text(dec, entry, word: int, buf, off: int) -> tuple[str | None, int]:
    """(text, size) of a GFX9 32-bit vector instruction whose src0 is 0xFA (DPP16); (None, 4) if LLVM rejects it."""
    from .special import dpp_parts

    d = dec.named.dpp_gfx9
    key = f"{entry.name}|{entry.encoding}"
    mn = d["mn"].get(key)
    if mn is None and len(buf) - off >= 8 and dec.features.accvgpr_memory:
        return _dp_alu_dpp_text(dec, entry, word, int.from_bytes(buf[off + 4:off + 8], "little"))
    if mn is None or len(buf) - off < 8:
        return None, 4
    dpp = int.from_bytes(buf[off + 4:off + 8], "little")
    tps = d["tables"][d["mods"][key]][(dpp >> 20) & 15]
    ctrl = d["ctrl"][d["ctrl_of"][key]][(dpp >> 8) & 0x1FF]
    got = dpp_parts(dec, entry, word, dpp & 0xFF) if tps is not None and ctrl is not None else None
    if got is None or len(got[0]) != len(tps):
        return None, 4
    texts = [tp.replace("{}", x) for tp, x in zip(tps, got[0])]
    mods = got[1] + [ctrl, f"row_mask:0x{dpp >> 28:x}", f"bank_mask:0x{(dpp >> 24) & 15:x}"]
    if dpp >> 19 & 1:
        mods.append("bound_ctrl:1")
    return join(mn, texts, mods), 8


def _dp_alu_dpp_text(dec, entry, word: int, dpp: int) -> tuple[str | None, int]:
    """gfx90a+: the DPP form of a VOP1/VOP2 instruction with a 64-bit source (v_fmac_f64, v_ceil_f64,
    v_cvt_i32_f64, v_mov_b64, ...), which the probed ``dpp_gfx9`` table lacks (its probe compares with the e32
    text, whose note on an odd tuple names VS_64_Align2).  As llvm-mc-22 prints them: ``<name>_dpp``, notes
    naming VReg_64_Align2, each source's neg/abs bits (20-23) as ``-|x|``, ``row_newbcast:N`` for dpp_ctrl
    0x150..0x15f and ``/* DP ALU dpp only supports row_newbcast */`` in place of any other dpp_ctrl."""
    from .special import dpp_parts

    plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
    ops = plan.operands if plan is not None else ()
    if entry.encoding not in ("VOP1", "VOP2") or not any(sp.field == "SRC0" and sp.count == 2 for sp in ops):
        return None, 4
    got = dpp_parts(dec, entry, word, dpp & 0xFF)
    if got is None or (got[3] is None and dpp >> 22 & 3) or ("_f" not in entry.name and dpp >> 20 & 15):
        return None, 4  # neg/abs bits of a missing src1, or of an integer move (v_mov_b64): rejected
    texts = [x.replace("'VS_64_Align2'", "'VReg_64_Align2'") for x in got[0]]
    for i, bit in ((got[2], 20), (got[3], 22)):
        if i is not None:
            neg, ab = dpp >> bit & 1, dpp >> (bit + 1) & 1
            texts[i] = ("-" if neg else "") + (f"|{texts[i]}|" if ab else texts[i])
    ctrl = (dpp >> 8) & 0x1FF
    mods = got[1] + [f"row_newbcast:{ctrl & 15}" if ctrl >> 4 == 0x15 else "/* DP ALU dpp only supports row_newbcast */",
                     f"row_mask:0x{dpp >> 28:x}", f"bank_mask:0x{(dpp >> 24) & 15:x}"]
    if dpp >> 19 & 1:
        mods.append("bound_ctrl:1")
    return join(entry.name + "_dpp", texts, mods), 8


def lds_plan(dec, key: str, plan: Plan, form: LdsForm) -> Plan:
    """``plan`` with the data operand left out (marked ``omit``: operand positions stay as in ``plan``)."""
    cache = dec.__dict__.setdefault("_lds_plans", {})
    got = cache.get(key)
    if got is None:
        ops = list(plan.operands)
        ops[form.drop] = OperandPlan(omit=True)
        got = cache[key] = plan._replace(operands=tuple(ops))
    return got


def int16_literal_text(lit: int) -> str:
    """A literal read by a 16-bit integer source: decimal when the whole dword is an inline integer
    (-16..64), else its low half in hex (probed with llvm-mc-22 on gfx908 and gfx942: 0x10006 prints 0x6)."""
    if lit <= 64 or lit >= 0xFFFFFFF0:
        return str(lit if lit <= 64 else lit - (1 << 32))
    return f"0x{lit & 0xFFFF:x}"


# -- s_waitcnt, s_sendmsg / s_sendmsghalt, s_set_gpr_idx_on -------------------------------------------
def waitcnt_text(v: int) -> str:
    """s_waitcnt's operand: the counters of the GFX9 SIMM16 layout (vmcnt in bits 3:0 and 15:14, expcnt in
    6:4, lgkmcnt in 11:8); LLVM names those below their maximum, or all three when none is (checked on all
    65536 values with llvm-mc-22 on gfx908 and gfx942)."""
    counters = [("vmcnt", (v & 15) | ((v >> 14) & 3) << 4, 63), ("expcnt", (v >> 4) & 7, 7), ("lgkmcnt", (v >> 8) & 15, 15)]
    shown = [(n, c) for n, c, top in counters if c != top] or [(n, c) for n, c, _ in counters]
    return " ".join(f"{n}({c})" for n, c in shown)


SCALAR_TEXT = ("s_waitcnt", "s_sendmsg", "s_sendmsghalt", "s_endpgm")


def scalar_text(dec, name: str, fields: dict[str, int]) -> str | None:
    """Whole text of the SCALAR_TEXT instructions (None where no table was learned); s_endpgm prints a
    nonzero SIMM16 in decimal (probed on gfx908 and gfx942)."""
    v = fields.get("SIMM16", 0)
    if name == "s_waitcnt":
        return f"{name} {waitcnt_text(v)}"
    if name == "s_endpgm":
        return f"{name} {v}" if v else name
    table = dec.named.sendmsg.get(name)
    return None if table is None else f"{name} {sendmsg_text(table, v)}"


# -- gfx90a+ alignment notes the plans' probes do not reach (llvm-mc-22) ------------------------------
VREG64_NOTE = "/*Invalid register, operand has 'VReg_64_Align2' register class*/"


def address_pair_note(dec, entry, fields: dict[str, int]) -> str:
    """An untyped buffer access's index-and-offset VGPR pair (idxen and offen) that starts on an odd register:
    gfx90a and later print VReg_64_Align2's note after it (gfx908 has no such class; MTBUF words no note)."""
    if dec.gfx == "GFX9" and dec.features.accvgpr_memory and entry.encoding == "MUBUF" \
            and fields.get("VADDR", 0) & 1:
        return VREG64_NOTE
    return ""


def ds_agprs_unnoted(dec, entry, fields: dict[str, int], op_specs: Sequence[OperandPlan]) -> bool:
    """A DS instruction with two data operands (write2, cmpst, wrxchg2, ...) and its ACC bit set: gfx90a and
    later print its AGPR tuples without alignment notes (a single data operand or a load keeps AV_*_Align2)."""
    if dec.gfx != "GFX9" or entry.encoding != "DS" or not fields.get("ACC"):
        return False
    return {"DATA0", "DATA1"} <= {s.field for s in op_specs if s.kind == "vreg"}


# gfx950 reads SOFFSET 255 of MUBUF/MTBUF as a 32-bit literal (probed with llvm-mc-22; gfx90a and gfx942 crash
# on such words, which the differential leaves out)
BUFFER_LITERAL_SOFFSET = frozenset({"cdna4"})


def buffer_literal_soffset(dec, entry, spec: OperandPlan) -> bool:
    return dec.arch in BUFFER_LITERAL_SOFFSET and entry.encoding in ("MUBUF", "MTBUF") and spec.field == "SOFFSET"
