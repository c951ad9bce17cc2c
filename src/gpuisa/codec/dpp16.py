"""The encoder's side of 32-bit DPP16 forms (``X_dpp vdst, src0, src1 quad_perm:[...] row_mask:0xf ...``):
the e32 form with src0 = 0xFA, then the DPP dword (src0's VGPR, the dpp_ctrl value, fi, bound_ctrl, the
sources' neg/abs bits, bank and row masks).  The dpp_ctrl tokens are the ones learned from llvm-mc for the
decoder (``named.py``: ``dpp16.ctrl``; GFX9: ``dpp_gfx9.ctrl``), read backwards; the result is checked by
decoding it, so a bit the decoder (and LLVM) would not accept is refused here too."""

from __future__ import annotations

import re

from . import operands as opd
from .syntax import split_operands

_MASK = re.compile(r"^(row_mask|bank_mask):(0x[0-9a-fA-F]+|\d+)$")


def _forms(encoder, mnemonic: str) -> list[tuple[str, list[str | None]]]:
    """(plan key, dpp_ctrl token table) of each 32-bit form whose DPP16 mnemonic is ``mnemonic``."""
    named = encoder.named
    if bool(named.dpp_gfx9):
        d = named.dpp_gfx9
        return [(k, d["ctrl"][d["ctrl_of"][k]]) for k, mn in d["mn"].items() if mn == mnemonic]
    ctrl = named.dpp16.get("ctrl")
    if not ctrl:
        return []
    return [(k, ctrl) for k, mn in named.dpp8.items() if mn == mnemonic
            and k in named.dpp16.get("mods", {})]


def src0_lo128(encoder, key: str, plan, i0: int) -> bool:
    """Whether the 32-bit form ``key``'s source ``i0`` (SRC0) names only v0-v127: a 16-bit operand, as a true16
    half (bit 7 picks .h) or in fake16 syntax (the decoder's Lo128 register-class note)."""
    spec = plan.operands[i0]
    if any(str(x).endswith((".l", ".h")) for t in spec.tables.values() for x in t.values()):
        return True
    notes = encoder.named.src_note.get(key)
    return "Lo128" in (notes[str(i0)] if notes is not None and str(i0) in notes else plan.lo128)


def _source(tok: str) -> tuple[str, int, int]:
    """(bare operand text, neg, abs) of a DPP source written with LLVM's modifiers (``-|v1|``)."""
    t = tok.strip()
    neg = int(t.startswith("-") and not t[1:2].isdigit())
    t = t[1:] if neg else t
    ab = int(len(t) > 2 and t.startswith("|") and t.endswith("|"))
    return (t[1:-1] if ab else t), neg, ab


def encode_dpp16(encoder, text: str, mnemonic: str):
    """Bytes of a DPP16 line, or None where no 32-bit form has this DPP mnemonic (the caller goes on)."""
    from .encoded import EncodeError

    forms = _forms(encoder, mnemonic)
    if not forms:
        return None
    ops, mods = split_operands(text)
    ctrl_tok = [m for m in mods if m.startswith(("quad_perm:", "row_", "wave_")) and not _MASK.match(m)]
    masks = {m.split(":")[0]: int(m.split(":")[1], 0) for m in mods if _MASK.match(m)}
    family = encoder.tables.gfx.split(".")[0]
    bound = "bound_ctrl:1" in mods or ("bound_ctrl:0" in mods and family in ("GFX9", "GFX10"))
    fi = "fi:1" in mods
    rest = [m for m in mods if m not in ctrl_tok and not _MASK.match(m)
            and m not in ("bound_ctrl:0", "bound_ctrl:1", "fi:0", "fi:1")]
    if len(ctrl_tok) > 1 or any(not 0 <= v <= 15 for v in masks.values()):
        raise EncodeError(f"{text!r}: one dpp_ctrl (quad_perm:[..], row_shl:N, ...) and masks 0..15 expected")
    errors: list[str] = []
    for key, table in forms:
        got = _try(encoder, key, table, ops, rest, ctrl_tok[0] if ctrl_tok else "quad_perm:[0,1,2,3]",
                   masks, bound, fi, errors)
        if got is not None:
            return got
    raise EncodeError(f"{text!r} does not assemble for {encoder.arch}: " + "; ".join(errors[:2]))


def _try(encoder, key, table, ops, rest, ctrl_tok, masks, bound, fi, errors):
    from .encoded import Encoded, EncodeError

    plan = encoder.plans.get(key)
    if plan is None or ctrl_tok not in table:
        errors.append(f"{ctrl_tok} is not a dpp_ctrl of {key.split('|')[0]} here")
        return None
    i0 = next((k for k, sp in enumerate(plan.operands) if sp.field == "SRC0" or "SRC0" in sp.tables), None)
    i1 = next((k for k, sp in enumerate(plan.operands) if sp.field == "VSRC1" or "VSRC1" in sp.tables), None)
    if i0 is None or i0 >= len(ops):
        errors.append("no src0")
        return None
    bare = list(ops)
    src0, n0, a0 = _source(ops[i0])
    bits = n0 << 20 | a0 << 21
    if i1 is not None and i1 < len(ops):
        bare[i1], n1, a1 = _source(ops[i1])
        bits |= n1 << 22 | a1 << 23
    half = 128 if src0.endswith(".h") else 0
    r = opd.parse_reg(src0.split(".")[0])
    n = plan.operands[i0].count
    if r is None or r[0] != "v" or r[2] != n or r[1] + half > 255 or (half and r[1] > 127):
        errors.append(f"src0 {ops[i0]!r} must be {n} VGPR(s)")
        return None
    if r[1] > 127 and src0_lo128(encoder, key, plan, i0):
        errors.append(f"src0 {ops[i0]!r}: the 32-bit DPP form takes v0-v127 here")
        return None
    if n > 1 and not (encoder.tables.gfx == "GFX9" and encoder.features.accvgpr_memory
                      and ctrl_tok.startswith("row_newbcast:")):  # (llvm-mc-22: gfx90a, gfx942, gfx950 only)
        errors.append("a 64-bit DPP source takes row_newbcast only, on gfx90a and later")
        return None
    # (a 64-bit source keeps its register, so the e32 form checks its alignment; SRC0 is replaced below)
    bare[i0] = "v0.l" if src0.endswith((".l", ".h")) else opd.reg_text("v", r[1] if n > 1 else 0, n)
    try:
        got = encoder.encode_line(" ".join([plan.mnemonic, ", ".join(bare)] + rest))
    except EncodeError as exc:
        errors.append(str(exc))
        return None
    if len(got.data) != 4 or got.encoding != key.split("|")[1]:
        errors.append("no 32-bit form")
        return None
    f = encoder.tables.encodings[got.encoding].field("SRC0")
    word = f.insert(int.from_bytes(got.data, "little"), 0xFA)
    dpp = (r[1] | half) | table.index(ctrl_tok) << 8 | bits | fi << 18 | bound << 19 \
        | masks.get("bank_mask", 15) << 24 | masks.get("row_mask", 15) << 28
    data = word.to_bytes(4, "little") + dpp.to_bytes(4, "little")
    d = encoder.decoder(encoder.wave64).decode_at(data + b"\0" * 8, 0)
    if not d.valid or len(d.data) != 8:
        errors.append(f"not a valid DPP16 form ({d.error or 'the decoder rejects it'})")
        return None
    return Encoded(data, got.encoding, got.name, dict(got.fields, SRC0=0xFA), None)
