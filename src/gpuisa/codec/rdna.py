"""GFX10+ (RDNA) printing rules learned from llvm-mc-22 at generation time, and their use by the decoder.

    python -m gpuisa.regen.named rdna1 rdna2 rdna3 rdna3.5 rdna4   # (re)writes the tables (``regen/rdna.py``)

Each probe disassembles words built from a plan's base word with a few fields set and records what
LLVM prints; nothing is copied from LLVM's sources.  Tables (in ``named_<arch>.json``):

* ``th_scope``: GFX12 cache-policy tokens that depend on the scope too (``th:TH_LOAD_BYPASS`` is
  ``TH_LOAD_LU`` at system scope; atomics name ``TH_ATOMIC_CASCADE_*`` at device and system scope):
  per TH table (the plan's token for TH=1), ``"TH/SCOPE"`` -> the token LLVM prints instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import operands as opd

if TYPE_CHECKING:
    from .named import NamedTables
    from .plans import ModifierPlan, OperandPlan, Plan


def th_class(plan: Plan) -> str | None:
    m = plan.modifiers
    if "TH" not in m or "SCOPE" not in m or m["TH"].tokens is None:
        return None
    first = m["TH"].tokens.get("1")
    return first[0][0] if first and first[0] else None


def th_token(dec, plan: Plan, fields: dict[str, int]) -> str | None:
    """The ``th:`` token LLVM prints instead of the TH table's, where the scope changes it; None if not."""
    table = dec.named.th_scope
    if not table or "SCOPE" not in fields:
        return None
    cls = th_class(plan)
    return table.get(cls, {}).get(f"{fields.get('TH', 0)}/{fields['SCOPE']}") if cls else None


def th_plain_mods(named: NamedTables, plan: Plan, mods: list[str]) -> list[str]:
    """The encoder's side of ``th_token``: a scope-dependent ``th:`` token becomes the plan's token for
    the same TH value (the lowest such value; a returning atomic's low bit comes from its data operand)."""
    table = named.th_scope
    cls = th_class(plan) if table else None
    if not table or not cls or cls not in table:
        return mods
    out: list[str] = []
    for m in mods:
        hits = sorted(int(k.split("/")[0]) for k, tok in table[cls].items() if tok == m and m)
        if m.startswith("th:") and hits:
            add = (plan.modifiers["TH"].tokens or {}).get(str(hits[0]), [[]])[0]
            out += add if add else []
        else:
            out.append(m)
    return out


def wave_sized(plan32, plan64, k):
    """Whether operand ``k`` of a form is as wide as the wave (a carry or lane mask: one SGPR in wave32, a pair
    in wave64), read from the wave32 and wave64 plans; True where either plan lacks it."""
    if plan32 is None or plan64 is None or k >= len(plan64.operands) or k >= len(plan32.operands):
        return True
    return plan32.operands[k].count != plan64.operands[k].count


# -- 16-bit scalar operands printed as named counters or messages (SOPP) -------------------------------
COUNTER_OPS = ("s_waitcnt", "s_waitcnt_depctr", "s_wait_alu", "s_delay_alu")
MESSAGE_OPS = ("s_sendmsg", "s_sendmsghalt")
SOPP_PRINTED = frozenset(COUNTER_OPS + MESSAGE_OPS)


CALL = re.compile(r"([a-z_0-9]+)\(([^)]*)\)")


def counters_text(spec: Mapping[str, Any], v: int) -> str:
    """The operand of a counter instruction from its learned layout (``probe_counters``).

    ``list`` form (waitcnt, depctr): each counter's value from its bits; the counters not at their
    default (all ones) are named, or all of them when every one is; a value with a bit of ``hex_bits``
    set prints in hex.  ``alu`` form (s_delay_alu): the non-zero fields joined by `` | ``, ``0`` if none."""
    if spec["form"] == "list":
        if v & spec["hex_bits"]:
            return f"0x{v:x}"
        vals = [(name, sum(1 << j for j, b in enumerate(bits) if v >> b & 1), (1 << len(bits)) - 1)
                for name, bits in spec["fields"]]
        shown = [(n, x) for n, x, top in vals if x != top] or [(n, x) for n, x, _ in vals]
        return " ".join(f"{n}({x})" for n, x in shown)
    parts = []
    for name, bits, names in spec["fields"]:
        x = sum(1 << j for j, b in enumerate(bits) if v >> b & 1)
        if x:
            parts.append(f"{name}({names[x]})")
    return " | ".join(parts) if parts else "0"


def scalar_text(dec, entry, fields: dict[str, int]) -> str | None:
    """Whole text of a counter or message instruction where a table was learned; None otherwise."""
    name = entry.name
    spec = dec.named.counters.get(name)
    if spec is not None:
        return f"{name} {counters_text(spec, fields.get('SIMM16', 0))}"
    table = dec.named.sendmsg.get(name)
    if table is not None:
        from .decoded import sendmsg_text

        return f"{name} {sendmsg_text(table, fields.get('SIMM16', 0))}"
    return None


def fallback(dec, entry, spec: OperandPlan, fields: dict[str, int]) -> str | None:
    """An operand the plan's few probed values do not cover: s_sendmsg_rtn's message (its learned token), a
    true16 register (``v_mov_b16_e32 v112.h, v28.l``: bit 7 of a VGPR field picks the high half)."""
    past = past_last_vgpr(dec, spec, fields)
    if past is not None:
        return past
    toks = dec.named.sendmsg_rtn.get(entry.name)
    if toks is not None and "SSRC0" in spec.tables and "SSRC0" in fields:
        return toks[fields["SSRC0"]]
    if _true16(spec):
        fname = next(iter(spec.tables))
        f = dec.tables.encodings[entry.encoding].field(fname)
        v = fields.get(fname)
        if f is None or v is None:
            return None
        if f.width == 9 and v < 256:  # a 16-bit source: SGPRs, constants (an integer source's floats as bits)
            from .decoded import operand_type

            is_float = operand_type(entry.mnemonic)[1] or "bf16" in entry.mnemonic  # (bf16: float names, llvm-mc-22)
            note = vgpr_only_note(spec)
            if note is not None and v != opd.LITERAL:
                return not_a_vgpr(dec, v, note)
            return None if v == opd.LITERAL else opd.src_text(dec.gfx, v, 1, 16, is_float, 256)
        r = v - 256 if f.width == 9 else v
        return f"v{r & 127}.{'h' if r & 128 else 'l'}"
    return None


def vgpr_only_note(spec: OperandPlan) -> str | None:
    """The note LLVM prints after an SGPR in a true16 source whose register class holds VGPRs only (its plan's
    probed table shows it: ``v_swap_b16`` on GFX11), or None."""
    for table in spec.tables.values():
        for tok in table.values():
            if "/*Invalid register" in tok:
                return tok[tok.index("/*"):]
    return None


def not_a_vgpr(dec, v: int, note: str) -> str | None:
    """A value other than a VGPR in a VGPR-only source as llvm-mc-22 prints it (as on ``v_swap_b32``'s probed
    512 values; VOP3P DPP sources too, ``vop3dpp.py``): an inline constant by its 32-bit name with an
    invalid-immediate note, a register of the scalar file with the class's note, ``null`` and the ``src_*``
    registers plain."""
    if 128 <= v <= 208 or 240 <= v <= 248:
        return f"{opd.inline_constant(v, 32)}/*Invalid immediate*/"
    t = opd.src_text(dec.gfx, v, 1, 32, False, 256)
    return t if t is None or t == "null" or t.startswith("src_") else t + note


def past_last_vgpr(dec, spec: OperandPlan, fields: dict[str, int]) -> str | None:
    """GFX10-GFX12: a VGPR tuple that runs past v255 prints as such (``v[255:256]``), with the operand's
    even-alignment note where it has one (gfx1250) and starts on an odd register (llvm-mc-22, gfx1030,
    gfx1100, gfx1200, gfx1250; GFX9 prints VGPR tuples past v255 from the plan's own rule)."""
    if spec.kind not in ("src", "vreg") or spec.field not in fields:
        return None
    n = spec.count
    v = fields[spec.field] * spec.scale
    r = v - 256 if spec.kind == "src" else v
    if n < 2 or r < 0 or r + n <= 256 or spec.reg_class != "v" or spec.acc:
        return None
    return f"v[{r}:{r + n - 1}]" + (spec.align_note or "" if r & 1 else "")


# VOP3-style true16 (LLVM 22, GFX11+): an 8-bit register field names the whole VGPR and the op_sel bit of the
# operand picks its half (``v_add_f16_e64 v200.h, v2.l, v3.h op_sel:[0,1,1]``); op_sel is printed as well.
OPSEL_BIT = {"SRC0": 0, "SRC1": 1, "SRC2": 2, "VDST": 3}


def true16_opsel(dec, entry, spec: OperandPlan, fields: dict[str, int]) -> str | None:
    """The register half of a true16 operand of an encoding with OP_SEL; None where that rule does not apply."""
    if "OP_SEL" not in fields or not _true16(spec):
        return None
    fname = next(iter(spec.tables))
    f = dec.tables.encodings[entry.encoding].field(fname)
    v = fields.get(fname)
    if fname not in OPSEL_BIT or f is None or v is None or (f.width == 9 and v < 256):
        return None
    r = v - 256 if f.width == 9 else v
    return f"v{r}.{'h' if fields['OP_SEL'] >> OPSEL_BIT[fname] & 1 else 'l'}"


def true16_literal(spec: OperandPlan, fields: dict[str, int]) -> bool:
    """A true16 source field (``fallback``) holding the literal marker."""
    return _true16(spec) and fields.get(next(iter(spec.tables))) == opd.LITERAL and bool(spec.tables) and \
        next(iter(spec.tables)).startswith("SRC")


def _true16(spec: OperandPlan) -> bool:
    """A one-field operand LLVM prints as a 16-bit register half (``v0.l``) for some value."""
    table = spec.tables
    return len(table) == 1 and any(x.endswith((".l", ".h")) for tbl in table.values() for x in tbl.values())


def parse_true16(gfx: str, spec: OperandPlan, tok: str, enc=None) -> dict[str, int] | None:
    """The encoder's side of ``fallback``'s and ``true16_opsel``'s true16 registers and sources (the op_sel bit
    as key ``OP_SEL``, to be or-ed into that field); None if ``tok`` is not one."""
    if not _true16(spec):
        return None
    fname = next(iter(spec.tables))
    m = re.match(r"^v(\d+)(?:\.([lh]))?$", tok)  # a plain vN is its low half (LLVM's assembler reads it so)
    # ("T16": whether the register was written as a half; LLVM refuses an instruction that mixes the two)
    if m and enc is not None and enc.field("OP_SEL") is not None and fname in OPSEL_BIT and int(m.group(1)) < 256:
        r = int(m.group(1)) + (256 if enc.field(fname).width == 9 else 0)
        return {fname: r, "OP_SEL": (1 << OPSEL_BIT[fname]) if m.group(2) == "h" else 0, "T16": int(bool(m.group(2)))}
    if m and int(m.group(1)) < 128:
        r = int(m.group(1)) | (128 if m.group(2) == "h" else 0)
        return {fname: r + (256 if fname.startswith("SRC") else 0), "T16": int(bool(m.group(2)))}
    if not fname.startswith("SRC"):
        return None
    got = opd.parse_src(gfx, tok, 1)  # (a float constant's bits, 0x3c00, are a literal to llvm-mc's assembler)
    if got is not None and got[1] is not None:
        return {fname: opd.LITERAL, "LIT": got[1]}  # the literal dword (the encoder's to place)
    return {fname: got[0]} if got is not None and got[0] < 256 else None


def modifier(dec, fname: str, value: int, m: ModifierPlan) -> list[str] | None:
    """A modifier word whose probed values all printed as the value itself (``s_endpgm 10927``): the value."""
    table = m.table or {}
    if table and all(v == [k] for k, v in table.items()):
        return [str(value)]
    return None


# -- scalar memory with a null SOFFSET ---------------------------------------------------------------
def smem_null(dec, spec: OperandPlan, v: int) -> bool:
    """Operand ``spec`` with value ``v`` is a GFX10+ scalar-memory SOFFSET naming ``null``."""
    return spec.field == "SOFFSET" and dec.gfx in ("GFX10", "GFX11", "GFX12") and opd.SPECIAL[dec.gfx].get(v) == "null"


def smem_null_offset(dec, op_specs: list, texts: list[str], mods: list[str], fields: dict[str, int]) -> None:
    """With SOFFSET = null LLVM prints the immediate offset in its place (probed on gfx1010-gfx1200):
    ``s_load_b32 s0, s[0:1], 0x123``; a zero offset stays ``null`` before GFX12 and prints ``0x0`` on GFX12."""
    k = next((i for i, sp in enumerate(op_specs) if sp.field == "SOFFSET" and sp.kind == "ssrc"), None)
    if k is None or k >= len(texts) or not smem_null(dec, op_specs[k], fields.get("SOFFSET", -1)):
        return
    fname = "IOFFSET" if "IOFFSET" in fields else "OFFSET"
    enc_field = next((f for f in dec.tables.encodings["SMEM"].fields if f.name == fname), None)
    if enc_field is None:
        return
    off = fields[fname]
    if off >= 1 << (enc_field.width - 1):
        off -= 1 << enc_field.width
    if off == 0 and dec.gfx != "GFX12":
        texts[k] = "null"
        return
    texts[k] = f"-0x{-off:x}" if off < 0 else f"0x{off:x}"
    mods[:] = [m for m in mods if not m.startswith("offset:")]


def smem_null_offset_ops(gfx: str, ops: list[str], specs: Sequence[OperandPlan], mods: list[str]) -> tuple[list[str], list[str]]:
    """The encoder's side of ``smem_null_offset``: a number in SOFFSET's place is the offset, SOFFSET null."""
    k = next((i for i, sp in enumerate(specs) if sp.field == "SOFFSET" and sp.kind == "ssrc"), None)
    if k is None or k >= len(ops) or any(m.startswith("offset:") for m in mods):
        return ops, mods
    try:
        int(ops[k].strip(), 0)
    except ValueError:
        return ops, mods
    return ops[:k] + ["null"] + ops[k + 1:], mods + [f"offset:{ops[k].strip()}"]


# GFX12 (gfx1200 and gfx1250, llvm-mc-22, probed): a buffer offset (VBUFFER IOFFSET, s_buffer_* and s_atc_probe_buffer IOFFSET) is
# 24-bit unsigned below 2**23: with bit 23 set the word does not decode; GFX12 flat/global/scratch words print
# bit 48 as ``scale_offset`` (a field the layout tables do not name).
GFX12_SCALE_OFFSET_BIT = {"VFLAT": 48, "VGLOBAL": 48, "VSCRATCH": 48}


def gfx12_buffer_offset_error(dec, entry, fields: dict[str, int]) -> str | None:
    if dec.features.encoding_family != "GFX12" or not (entry.encoding == "VBUFFER" or
                                   (entry.encoding == "SMEM" and "buffer" in entry.name)):
        return None
    if fields.get("IOFFSET", 0) & 0x800000:
        return f"{entry.name}: buffer offset past 2**23"
    return None


def gfx12_scale_offset(dec, entry, word: int) -> list[str]:
    bit = GFX12_SCALE_OFFSET_BIT.get(entry.encoding)
    if dec.features.encoding_family != "GFX12" or bit is None or not (word >> bit) & 1:
        return []
    return ["scale_offset"]
