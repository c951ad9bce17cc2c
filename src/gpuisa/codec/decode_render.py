"""One instruction word to LLVM's text (``Decoder._render``), as per-encoding handlers.

``render`` tries the extended forms first (VOPD, DPP8/DPP16, VOP3 DPP, SDWA, GFX9 DPP: each its own word
layout, ``_EXTENDED``), then the entry's print plan: the plan a field value selects, the rejected values,
the whole-text forms (GFX9 scalar counters, SOPP names, exports: ``_WHOLE``), the operands (one handler
per operand kind, ``_Operands``) and the modifiers (``_modifiers``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import gfx9, image, rdna, sdwa, special, vop3dpp
from . import operands as opd
from .decoded import (
    MOD_RANK,
    MOD_RANK_BY_ENCODING,
    Decoded,
    fmt_imm,
    inline_size,
    is_acc,
    is_immediate,
    literal_type,
    merge_split_immediate,
    operand_type,
    returning,
)
from .syntax import join
from .tables import Entry

if TYPE_CHECKING:
    from .plans import OperandPlan, Plan

_VOP_32 = ("VOP1", "VOP2", "VOPC")


class _Bad(Exception):
    """The word is not a valid instruction: ``msg`` is the reason (``size``: the bytes the invalid
    result covers, where the reason was found past the first guess of the size)."""

    def __init__(self, msg: str, size: int | None = None):
        super().__init__(msg)
        self.msg, self.size = msg, size


def _fields(dec, entry: Entry, word: int) -> dict[str, int]:
    enc = dec.tables.encodings[entry.encoding]
    return {f.name: f.extract(word) for f in enc.fields if f.value is None}


def _text_form(dec, entry: Entry, word: int, buf, off: int, got) -> Decoded | None:
    text, size = got
    if text is None:
        return None
    return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, _fields(dec, entry, word))


# -- extended forms: each reads its own layout of the word (None: not this form) --------------------------
def _vopd_form(dec, entry, word, buf, off):
    if entry.encoding == "VOPD" and dec.vopd is not None:
        return dec._vopd(word, buf, off)
    return None


def _dpp8_form(dec, entry, word, buf, off):
    if dec.dpp8 and entry.width == 32 and (word & 0x1FF) in (0xE9, 0xEA, 0xFA) and entry.encoding in _VOP_32:
        dpp_text = special.dpp16_text if word & 0x1FF == 0xFA else special.dpp8_text
        return _text_form(dec, entry, word, buf, off, dpp_text(dec, entry, word, buf, off))
    return None


def _vop3dpp_form(dec, entry, word, buf, off):  # GFX11/GFX12 VOP3 DPP
    if dec.vop3dpp and entry.width == 64 and entry.encoding in vop3dpp.ENCODINGS and \
            (word >> 32) & 0x1FF in (0xE9, 0xEA, 0xFA):
        return _text_form(dec, entry, word, buf, off, vop3dpp.vop3dpp_text(dec, entry, word, buf, off))
    return None


def _sdwa_form(dec, entry, word, buf, off):  # GFX9/GFX10 SDWA
    if dec.sdwa and entry.width == 32 and word & 0x1FF == 0xF9 and entry.encoding in _VOP_32:
        return _text_form(dec, entry, word, buf, off, sdwa.sdwa_text(dec, entry, word, buf, off))
    return None


def _gfx9_dpp_form(dec, entry, word, buf, off):  # GFX9 DPP16
    if dec.dpp_gfx9 and entry.width == 32 and word & 0x1FF == 0xFA and entry.encoding in _VOP_32:
        return _text_form(dec, entry, word, buf, off, gfx9.dpp_text(dec, entry, word, buf, off))
    return None


_EXTENDED = (_vopd_form, _dpp8_form, _vop3dpp_form, _sdwa_form, _gfx9_dpp_form)
# (a cheap test first: the src0 values that announce a DPP8/DPP16/SDWA dword, in the first or second dword)
_MARKS = frozenset((0xE9, 0xEA, 0xF9, 0xFA))


# -- whole-text forms: the plan's operands do not apply (None: not this form) -----------------------------
def _gfx9_scalar(dec, entry, plan, fields, base):
    if dec.gfx == "GFX9" and entry.name in gfx9.SCALAR_TEXT:
        return gfx9.scalar_text(dec, entry.name, fields)  # counters and message names (``gfx9.py``)
    return None


def _sopp_scalar(dec, entry, plan, fields, base):
    if entry.encoding == "SOPP" and dec.gfx != "GFX9" and entry.name in rdna.SOPP_PRINTED:
        return rdna.scalar_text(dec, entry, fields)  # learned counters and messages (``rdna.py``)
    return None


def _export(dec, entry, plan, fields, base):
    if entry.encoding in ("EXP", "VEXPORT") and bool(dec.named.exp_target):
        text, base.error = special.export_text(dec, plan.mnemonic, fields)
        if text is None:
            raise _Bad(base.error)
        return text
    return None


_WHOLE = (_gfx9_scalar, _sopp_scalar, _export)
_WHOLE_ENCODINGS = frozenset(("SOPP", "EXP", "VEXPORT"))  # (and GFX9's SCALAR_TEXT names: the cheap test)


def _select_plan(dec, entry: Entry, plan: Plan, fields: dict[str, int], parts):
    """The operand list this word's fields select (``alt``; a GFX9 load into LDS: no data register)."""
    for fname, by_value in plan.alternatives.items():  # another operand list for this field's value
        plan = by_value.get(str(fields.get(fname)), plan)
    lds = dec.named.lds_forms.get(f"{entry.name}|{entry.encoding}") if dec.gfx in ("GFX9", "GFX10") else None
    if lds is not None and fields.get(lds.field):  # GFX9 load into LDS (``gfx9.py``)
        if any(fields.get(f) for f in lds.zero):
            raise _Bad(f"{entry.name}: {', '.join(lds.zero)} must be 0 in a load into LDS")
        plan, parts = gfx9.lds_plan(dec, f"{entry.name}|{entry.encoding}", plan, lds), None
    return plan, parts, lds


def _check_reserved(dec, entry: Entry, enc, plan: Plan, word: int, fields: dict[str, int]) -> None:
    """Reserved bits and field values LLVM rejects."""
    if word & dec.named.must_zero.get(entry.encoding, 0):
        raise _Bad(f"{entry.name}: reserved bits of {entry.encoding} are set")
    bad_values = dec.named.bad_values.get(f"{entry.name}|{entry.encoding}", {})
    for fname, b in plan.rejected.items():
        if fname == "NSA" and image.nsa_by_a16(entry):
            continue  # (the image register counts decide: ``image.py``)
        b = bad_values.get(fname, b)  # every rejected value, where probed
        v = fields.get(fname)
        if v is None:
            continue
        f = enc.field(fname)
        if (b == "nonzero" and v != f.extract(plan.word)) or (isinstance(b, list) and v in b) or \
                (isinstance(b, list) and f.width == 8 and b[-1] == 128 and v > 128):  # a Lo128 register field
            raise _Bad(f"reserved value {v} in field {fname} of {entry.name}")
    err = rdna.gfx12_buffer_offset_error(dec, entry, fields)  # gfx1200: buffer offsets below 2**23
    if err is not None:
        raise _Bad(err)


class _Operands:
    """The operand texts of one word, one handler per operand kind; the literal dwords it reads."""

    def __init__(self, dec, entry: Entry, enc, plan: Plan, fields: dict[str, int], buf, off: int, size: int, op_specs: list):
        self.dec, self.entry, self.enc, self.plan, self.fields = dec, entry, enc, plan, fields
        self.buf, self.off, self.size, self.op_specs = buf, off, size, op_specs
        self.tsize, self.is_float = operand_type(entry.mnemonic)
        self.texts: list[str] = []
        self.mods_extra: list[str] = []
        self.meanings: dict[str, str] = {}
        self.lit: int | None = None
        self.lit64: int | None = None

    def run(self, nsa_text, addr) -> None:
        texts, meanings = self.texts, self.meanings
        for spec in self.op_specs:
            if nsa_text is not None and spec.field == "VADDR":
                texts.append(nsa_text)
                meanings["VADDR"] = nsa_text
                continue
            if addr is not None and len(texts) == addr[0]:
                texts.append(addr[1])
                meanings["VADDR0"] = addr[1]
                continue
            t = self.operand(spec)
            if t is None and rdna.true16_literal(spec, self.fields):  # a true16 source reading the literal dword
                key = f"{self.entry.name}|{self.entry.encoding}"
                t = opd.literal_token(self.literal(), self.dec._literal_types.get(key)
                                      or literal_type(self.entry.name, 16, self.is_float))
                if rdna.vgpr_only_note(spec) is not None:  # (v_swap_b16: the whole dword, llvm-mc-22)
                    t = f"0x{self.literal():x}/*Invalid immediate*/"
            if t is None:
                t = special.fallback(self.dec, self.entry, spec, self.fields, self.plan)
            if t is None:
                raise _Bad(f"{self.entry.name}: operand {len(texts)} value not printable (field {spec.field})")
            if spec.field:
                meanings[spec.field] = t
            texts.append(t)

    def operand(self, spec: OperandPlan) -> str | None:
        kind = spec.kind
        fields = self.fields
        if spec.imm_if and "SOFFSET_EN" in fields:  # GFX9 scalar memory: four offset forms
            t, extra = special.smem_offset(self.dec, fields, self.enc.field(spec.field).width)
            if extra:
                self.mods_extra.append(extra)
            return t
        if spec.imm_if and fields.get(spec.imm_if):
            return fmt_imm(fields[spec.field], self.enc.field(spec.field).width, True, True)
        if kind == "src" or kind == "ssrc":
            return self.source(spec, kind)
        if kind == "vreg":
            return self.vreg(spec)
        if kind == "imm":
            f = self.enc.field(spec.field)
            v = fields[spec.field]
            hexa = spec.hex or (v > 64 and self.dec._hex_above_64(self.entry, len(self.texts)))
            return fmt_imm(v, f.width, hexa, spec.signed)
        if kind == "lit" and self.dec.features.literal64 and self.tsize == 64:  # gfx1250: a 64-bit constant
            return opd.k_literal64_token(self.literal64())
        if kind == "lit":
            return f"0x{self.literal():x}"
        if spec.address_fields:
            on = [a for a in spec.address_fields if fields.get(a)]
            va = "VADDR" if "VADDR" in fields else "ADDR"  # GFX11 scratch names its address field ADDR
            if not on:
                return "off"
            if va not in fields or fields[va] + len(on) > 256:
                return None
            pair_note = gfx9.address_pair_note(self.dec, self.entry, fields) if len(on) == 2 else ""
            return opd.reg_text("v", fields[va], len(on)) + pair_note
        if spec.tables:
            return special.operand(self.dec, self.entry, spec, fields)
        return "vcc" if self.dec.wave64 and spec.text == "vcc_lo" else spec.text

    def literal(self, resize: bool = False) -> int:
        """The literal dword after the instruction (read once)."""
        if self.lit is None:
            if len(self.buf) - self.off < self.size + 4:
                raise _Bad("truncated literal: 4 more bytes needed", self.size if resize else None)
            self.lit = int.from_bytes(self.buf[self.off + self.size:self.off + self.size + 4], "little")
        return self.lit

    def literal64(self) -> int:
        """gfx1250: the 64-bit literal after the instruction."""
        if len(self.buf) - self.off < self.size + 8:
            raise _Bad("truncated literal: 8 more bytes needed")
        self.lit64 = int.from_bytes(self.buf[self.off + self.size:self.off + self.size + 8], "little")
        return self.lit64

    def source(self, spec: OperandPlan, kind: str) -> str | None:
        dec, entry, fields = self.dec, self.entry, self.fields
        v = fields[spec.field] * spec.scale
        cnt = spec.count
        osize = 64 if cnt == 2 and self.tsize != 16 else (16 if self.tsize == 16 else 32)
        t: str | None
        if v == opd.LITERAL64 and dec.features.literal64 and entry.width == 32 and spec.scale == 1:
            # gfx1250: the 64-bit literal after a 32-bit instruction (not beside a 32-bit constant K: llvm-mc-22)
            if self.tsize != 64 and any(sp.kind == "lit" for sp in self.op_specs):
                raise _Bad(f"{entry.name}: a 64-bit literal beside a 32-bit constant is not valid")
            t = opd.literal64_token(self.literal64(), osize == 64 and self.is_float, osize)
        elif v == opd.LITERAL and spec.scale == 1:
            if spec.field in dec.named.no_literal.get(f"{entry.name}|{entry.encoding}", ()):
                raise _Bad(f"{entry.name}: a literal is not allowed in field {spec.field}")  # GFX9 (gfx9.py)
            t = opd.literal_token(self.literal(resize=True), dec._literal_types.get(f"{entry.name}|{entry.encoding}")
                                  or literal_type(entry.name, osize, self.is_float))
        else:
            t = self.source_register(spec, kind, v, cnt, osize)
        tab = dec._src_table(entry, len(self.texts), is_acc(spec, fields))
        if tab is not None and not (v == opd.LITERAL and gfx9.buffer_literal_soffset(dec, entry, spec)) \
                and not (v == opd.LITERAL64 and dec.features.literal64 and entry.width == 32):
            tv = tab[v]  # a source of a restricted register class: LLVM's token per value
            t = None if tv is None or (t is None and "{}" in tv) else tv.replace("{}", t or "")
        return t

    def source_register(self, spec: OperandPlan, kind: str, v: int, cnt: int, osize: int) -> str | None:
        dec = self.dec
        osize = inline_size(self.entry.name, spec.field, osize)
        t = opd.src_text(dec.gfx, v, cnt, osize, self.is_float, 256 if kind == "src" else None)
        if kind == "src" and v - 256 + cnt > 256:
            t = None  # a register tuple past the last VGPR
        if v >= 256 and is_acc(spec, self.fields) and t is not None:
            t = "a" + t[1:]
        if v >= 256 and kind == "src" and t is not None:
            t += dec._src_notes(self.entry, self.plan, self.op_specs.index(spec), spec, v)
        if t is None and kind == "ssrc" and v < 256:
            t = opd.src_text(dec.gfx, v, cnt, osize, self.is_float, None)
        if v == 254 and kind == "ssrc" and cnt == 1:
            t = "src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/"
        return t

    def vreg(self, spec: OperandPlan) -> str | None:
        dec, fields = self.dec, self.fields
        v = fields[spec.field]
        acc = is_acc(spec, fields)
        t = opd.reg_text("a" if acc else spec.reg_class, v, spec.count)
        if v + spec.count > 256 and not (dec.gfx == "GFX9" and not acc and spec.reg_class == "v") \
                and not spec.past_ok:  # (an image's data as first decoded: ``image.py``)
            return None  # a register tuple past the last VGPR: LLVM rejects the word (llvm-mc-22 prints
            # GFX9's VGPR tuples past v255, v[254:257]; AGPR ones it rejects)
        if v >= 128 and spec.note is not None:
            return t + spec.note
        if acc and gfx9.ds_agprs_unnoted(dec, self.entry, fields, self.op_specs):
            return t  # gfx90a+: a DS instruction's two AGPR data operands (and its result) print without notes
        if v & 1 and spec.align_note is not None and dec.gfx == "GFX9" and returning(self.plan, fields):
            # the data of a returning atomic (gfx90a+, llvm-mc-22): an AGPR tuple prints without a note,
            # a VGPR one with VReg_64_Align2 where the non-returning form says AV_64_Align2
            return t + ("" if acc else spec.align_note.replace("'AV_", "'VReg_"))
        if v & 1 and spec.align_note is not None:  # an odd first register of an even-aligned tuple (VReg_64_Align2;
            return t + (spec.align_note.replace("'VReg_", "'AReg_") if acc else spec.align_note)  # AReg_ for AGPRs)
        if acc and not dec.features.accvgpr_memory and not self.entry.encoding.startswith("VOP"):
            # gfx908: an AGPR in a memory instruction prints with llvm-mc-22's note of the VGPR class
            cls = "VGPR_32" if spec.count == 1 else f"VReg_{32 * spec.count}"
            return t + f"/*Invalid register, operand has '{cls}' register class*/"
        return t


def _apply_templates(plan: Plan, fields: dict[str, int], nsa: bool, texts: list[str], op_specs: list,
                     whole: int | None = None) -> None:
    """Token templates a field's value puts around operands: ``|x|`` (abs) first, then the others; none around
    operand ``whole``, a GFX12 image address list already printed in full from its fields (``image.py``)."""
    for plain in (False, True):
        for fname, by_v in plan.templates.items():
            v = fields.get(fname, 0) if not (fname == "NSA" and nsa) else 0
            if not v:
                continue
            for k, tp in by_v.get(str(v), []):
                if ("|" in tp) == plain or k == whole:
                    continue
                if plain and tp == "-{}" and not texts[k].startswith("|") and is_immediate(op_specs[k], fields):
                    tp = "neg({})"  # LLVM negates an inline constant or literal without abs so
                texts[k] = tp.replace("{}", texts[k])


def _returned_first(dec, entry: Entry, plan: Plan, fields: dict[str, int], texts: list[str], op_specs: list) -> bool:
    """An atomic returning the old value prints VDST first (True where it does)."""
    ret = plan.returning
    if not (ret is not None and fields.get(ret.field, 0) & (-1 if ret.bit is None else ret.bit) and texts):
        return False
    v = fields[ret.dst]
    acc = is_acc(ret, fields)
    if acc and not dec.features.accvgpr_memory:  # gfx908: an AGPR returned (llvm-mc-22)
        raise _Bad(f"{entry.name}: AGPR data of a returning atomic is not valid here")
    if v + ret.count > 256:
        raise _Bad(f"{entry.name}: register tuple past the last VGPR (field {ret.dst})")
    note = ""
    if v & 1 and ret.count > 1 and not acc and (dec.gfx == "GFX9" or dec.features.literal64) \
            and any(sp.align_note is not None for sp in op_specs):  # (gfx90a+, gfx1250)
        note = f"/*Invalid register, operand has 'VReg_{32 * ret.count}_Align2' register class*/"  # (llvm-mc-22)
    texts[0] = opd.reg_text("a" if acc else ret.reg_class, v, ret.count) + note + ", " + texts[0]
    return True


def _field_mods(dec, entry: Entry, enc, plan: Plan, fields: dict[str, int], mods: list[str], typed: bool) -> list[str]:
    """The modifiers each modifier field's value prints (values, named numbers, tables)."""
    sums: dict[str, list] = {}
    summed = {m.name for m in plan.modifiers.values() if m.mul is not None}
    swizzle = entry.name == "ds_swizzle_b32"
    for fname, m in plan.modifiers.items():
        if (typed and fname in ("FORMAT", "DFMT", "NFMT")) or (swizzle and fname in ("OFFSET0", "OFFSET1")):
            continue
        v = fields.get(fname, 0)
        f = enc.field(fname)
        if m.tokens is not None:
            if v != m.base:
                add, rem = m.tokens.get(str(v), ([], []))
                mods = [x for x in mods if x not in rem] + list(add)
        elif m.name is not None:
            if m.name in summed:
                acc = sums.setdefault(m.name, [0, 0, m])
                acc[0] += v * (1 if m.mul is None else m.mul)
                acc[1] += f.width
            elif v:
                mods = [x for x in mods if not x.startswith(m.name + ":")]
                mods.append(f"{m.name}:{fmt_imm(v, f.width, m.hex, m.signed)}")
        elif v:
            got = (m.table or {}).get(str(v))
            if got is None:
                got = special.modifier(dec, entry, fname, v, m)
            if got is None:
                raise _Bad(f"{entry.name}: field {fname}={v} not printable")
            mods += got
    for name, (v, width, m) in sums.items():
        mods = [x for x in mods if not x.startswith(name + ":")]
        if v:
            mods.append(f"{name}:{fmt_imm(v, width, m.hex, m.signed)}")
    if swizzle:
        offset = fields.get("OFFSET0", 0) | fields.get("OFFSET1", 0) << 8
        mods = [x for x in mods if not x.startswith("offset:")] + ([swizzle_text(offset)] if offset else [])
    return mods


def swizzle_text(offset: int) -> str:
    """``offset:`` of ds_swizzle_b32 as llvm-mc-22 prints its 16 bits (probed on GFX9..GFX12): bits 15:14 set
    the rotate (bit 13 clear: direction bit 10, size bits 9:5) or FFT (bits 4:0) modes; upper
    byte 0x80 four 2-bit lane selects; bit 15 clear the and/or/xor masks of bits 4:0, 9:5, 14:10, named as a
    swap, reverse or broadcast where they are one; any other value in decimal."""
    if offset >= 0xC000:
        if offset >= 0xE000:
            return f"offset:swizzle(FFT,{offset & 31})"
        return f"offset:swizzle(ROTATE,{offset >> 10 & 1},{offset >> 5 & 31})"
    if offset >> 8 == 0x80:
        return "offset:swizzle(QUAD_PERM," + ",".join(str(offset >> (2 * i) & 3) for i in range(4)) + ")"
    if offset & 0x8000:
        return f"offset:{offset}"
    and_m, or_m, xor_m = offset & 31, offset >> 5 & 31, offset >> 10 & 31
    if and_m == 31 and or_m == 0 and xor_m and not xor_m & (xor_m - 1):
        return f"offset:swizzle(SWAP,{xor_m})"
    if and_m == 31 and or_m == 0 and xor_m and not (xor_m + 1) & xor_m:
        return f"offset:swizzle(REVERSE,{xor_m + 1})"
    group = 32 - and_m
    if group > 1 and not group & (group - 1) and or_m < group and not xor_m:
        return f"offset:swizzle(BROADCAST,{group},{or_m})"
    lo, hi = or_m ^ xor_m, (31 & and_m | or_m) ^ xor_m  # each lane-id bit: kept, inverted or forced
    bits = "".join("01"[lo >> b & 1] if (lo ^ hi) >> b & 1 == 0 else "pi"[lo >> b & 1] for b in range(4, -1, -1))
    return f'offset:swizzle(BITMASK_PERM,"{bits}")'


def _modifiers(dec, entry: Entry, enc, plan: Plan, word: int, ops: _Operands) -> list[str]:
    fields = ops.fields
    mods = list(plan.base_mods) + ops.mods_extra + rdna.gfx12_scale_offset(dec, entry, word)
    typed = (entry.encoding == "MTBUF" or (entry.encoding == "VBUFFER" and entry.name.startswith("tbuffer_"))) \
        and bool(dec.named.format)
    if typed:
        ok, tok = special.buffer_format(dec, fields)
        if not ok:
            raise _Bad(f"{entry.name}: buffer format value not valid")
        mods = [x for x in mods if not x.startswith("format:")] + ([tok] if tok else [])
    mods = _field_mods(dec, entry, enc, plan, fields, mods, typed)
    if dec.gfx == "GFX12" and "TH" in fields:  # GFX12 cache-policy names that depend on the scope too
        th = rdna.th_token(dec, plan, fields)
        if th is not None:
            mods = [x for x in mods if not x.startswith("th:")] + ([th] if th else [])
    if entry.encoding == "SMEM" and dec.gfx in ("GFX10", "GFX11", "GFX12"):
        rdna.smem_null_offset(dec, ops.op_specs, ops.texts, mods, fields)  # ``s[0:1], 0x10`` for a null SOFFSET
    if sum(x.startswith("bitop3:") for x in mods) > 1:
        mods = merge_split_immediate(mods, "bitop3")
    rank = MOD_RANK_BY_ENCODING.get(entry.encoding, MOD_RANK)
    mods.sort(key=lambda x: rank.get(x.split(":")[0], 50))
    return mods


def render(dec, entry: Entry, word: int, buf: bytes, off: int, parts: list | None = None) -> Decoded:
    """``entry``'s text of ``word`` at ``buf[off:]`` (literals read after it); with ``parts``, the operand
    texts and modifiers are appended to it (the bulk decoder's templates)."""
    if entry.encoding == "VOPD" or (word & 0x1FF) in _MARKS or ((word >> 32) & 0x1FF) in _MARKS:
        for form in _EXTENDED:
            d = form(dec, entry, word, buf, off)
            if d is not None:
                return d
    enc = dec.tables.encodings[entry.encoding]
    size = entry.width // 8
    plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
    fields = {f.name: f.extract(word) for f in enc.fields if f.value is None}
    base = Decoded(off, bytes(buf[off:off + size]), None, False, entry.encoding, entry.name, fields)
    if plan is None:
        base.error = f"{entry.name} ({entry.encoding}): no operand syntax known for this architecture"
        return base
    try:
        return _render_plan(dec, entry, enc, plan, word, buf, off, size, fields, base, parts)
    except _Bad as bad:
        base.error = bad.msg
        if bad.size is not None:
            base.data = bytes(buf[off:off + bad.size])
        return base


def _render_plan(dec, entry, enc, plan, word, buf, off, size, fields, base, parts) -> Decoded:
    plan, parts, lds = _select_plan(dec, entry, plan, fields, parts)
    _check_reserved(dec, entry, enc, plan, word, fields)
    if entry.encoding in _WHOLE_ENCODINGS or (dec.gfx == "GFX9" and entry.name in gfx9.SCALAR_TEXT):
        for form in _WHOLE:
            text = form(dec, entry, plan, fields, base)
            if text is not None:
                return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields, {})
    err, op_specs, nsa_text, addr, size = image.operand_counts(dec, entry, enc, plan, fields, buf, off, size)
    if err is not None:  # register counts and address lists of image instructions (``image.py``)
        raise _Bad(err)
    ops = _Operands(dec, entry, enc, plan, fields, buf, off, size, op_specs)
    ops.run(nsa_text, addr)
    texts = ops.texts
    _apply_templates(plan, fields, nsa_text is not None, texts, op_specs, addr[0] if addr is not None else None)
    returned = _returned_first(dec, entry, plan, fields, texts, op_specs)
    mods = _modifiers(dec, entry, enc, plan, word, ops)
    total = size + (8 if ops.lit64 is not None else 4 if ops.lit is not None else 0)
    if parts is not None and not returned:
        parts.extend([texts, mods])  # (not for a returning atomic: its first text holds two registers)
    if lds is not None and fields.get(lds.field):
        texts = [x for x, sp in zip(texts, op_specs, strict=False) if not sp.omit]
    return Decoded(off, bytes(buf[off:off + total]), join(plan.mnemonic, texts, mods), True, entry.encoding,
                   entry.name, fields, ops.meanings)
