"""VOP3 / VOP3SD / VOP3P with DPP (GFX11, GFX12): src0 = 0xFA (DPP16) or 0xE9/0xEA (DPP8) and a DPP dword
after the two VOP3 dwords; LLVM prints the e64 text with the mnemonic ``<name>_e64_dpp`` (VOP3P: ``<name>``),
src0 = the DPP dword's VGPR, then the DPP modifiers.

Learned from llvm-mc-22 at generation time (``python -m gpuisa.regen.vop3dpp``, ``regen/vop3dpp.py``; key ``vop3dpp`` of
``named_<arch>.json``): per instruction the DPP16 and DPP8 mnemonics LLVM accepts.  The dpp_ctrl texts are
the DPP16 table already learned for the 32-bit forms (``regen/named.py``: ``dpp16.ctrl``).
"""
from __future__ import annotations

import re

ENCODINGS = ("VOP3", "VOP3SD", "VOP3P")


def vop3dpp_text(dec, entry, word: int, buf, off: int) -> tuple[str | None, int]:
    """(text, size) of a VOP3/VOP3SD/VOP3P word whose src0 is 0xFA/0xE9/0xEA (a DPP dword follows)."""
    from .syntax import join

    table = dec.named.vop3dpp
    key = f"{entry.name}|{entry.encoding}"
    enc = dec.tables.encodings[entry.encoding]
    f = enc.field("SRC0")
    s0 = f.extract(word)
    kind = "dpp16" if s0 == 0xFA else "dpp8"
    mn = table.get(kind, {}).get(key)
    if mn is None or len(buf) - off < 12:
        return None, 8
    dpp = int.from_bytes(buf[off + 8:off + 12], "little")
    plain = f.insert(word, 256 + (dpp & 0xFF))
    # a literal source (SRC1/SRC2 = 255): LLVM 22 reads it from the dword after the DPP one (its assembler
    # takes no literal with DPP, its disassembler does; the listing follows the disassembler)
    lit = any(g is not None and g.extract(plain) == 255 for g in (enc.field("SRC1"), enc.field("SRC2")))
    if dec.features.literal64 and any(g is not None and g.extract(plain) == 254
                                      for g in (enc.field("SRC1"), enc.field("SRC2"))):
        return None, 8  # (gfx1250: the 64-bit literal's value; llvm-mc-22 refuses nearly every such DPP word)
    if lit and len(buf) - off < 16:
        return None, 8
    tail = bytes(buf[off + 12:off + 16]) if lit else b""

    def render(w: int, parts=None):
        return dec._render(entry, w, w.to_bytes(8, "little") + tail + b"\0" * 8, 0, parts)

    fake16 = _fake16(dec, key, enc, plain)
    if fake16:
        if _fake16_refused(dec, key, enc, plain):
            return None, 8
        plain &= ~enc.field("OP_SEL").mask
    parts: list = []
    d = render(plain, parts)
    ignored = _byte_sel(dec, entry, enc, plain) if not d.valid else 0
    if ignored:
        # (the DPP forms of the byte_sel instructions: LLVM 22 ignores the op_sel bits beside byte_sel,
        # where the plain VOP3 form calls them reserved)
        plain &= ~enc.field("OP_SEL").place(ignored)
        parts = []
        d = render(plain, parts)
    if not d.valid or len(d.data) != 8 + len(tail) or not parts:
        return None, 8
    texts, mods = list(parts[0]), list(parts[1])
    if fake16:
        texts = [_HALF.sub(r"\1", t) for t in texts]
    if entry.name.startswith("v_cmp"):  # (llvm-mc-22: a compare's DPP form lists op_sel of its two sources only)
        mods = [m[:-3] + "]" if m.startswith("op_sel:[") and m.count(",") == 2 else m for m in mods]
    _vgpr_notes(dec, key, enc, plain, texts)
    _mac_constant(dec, key, enc, plain, texts)
    # (an integer instruction ignores NEG in plain VOP3, and with DPP too: llvm-mc-22 prints no sext() there,
    # where LLVM 19 did; probed on 3,000 random words of gfx1100 and gfx1200)
    text = join(mn, texts, mods)
    if kind == "dpp8":
        text += " dpp8:[" + ",".join(str((dpp >> (8 + 3 * i)) & 7) for i in range(8)) + "]"
        if s0 == 0xEA:
            text += " fi:1"
        return text, 12 + len(tail)
    ctrl = dec.named.dpp16.get("ctrl", [None] * 512)[_ctrl_index(key, dpp)]
    if ctrl is None:
        return None, 8
    text += f" {ctrl} row_mask:0x{dpp >> 28:x} bank_mask:0x{(dpp >> 24) & 15:x}"
    if dpp >> 19 & 1:
        text += " bound_ctrl:1"
    if dpp >> 18 & 1:
        text += " fi:1"
    return text, 12 + len(tail)


_HALF = re.compile(r"\b(v\d+)\.[lh]\b")


def _vgpr_notes(dec, key: str, enc, plain: int, texts: list) -> None:
    """Sources a DPP form reads from VGPRs only (learned: ``vop3dpp.vgpr``) holding something else get
    llvm-mc-22's notes (``rdna.not_a_vgpr``)."""
    from .rdna import not_a_vgpr

    notes = dec.named.vop3dpp.get("vgpr", {})
    for k, sp in enumerate(dec.plans[key].operands):
        note = notes.get(f"{key}|{k}")
        if note is None or k >= len(texts) or not sp.field:
            continue
        v = enc.field(sp.field).extract(plain)
        t = not_a_vgpr(dec, v, note) if v < 256 else None
        if t == "src_lds_direct":
            t += note  # (llvm-mc-22, gfx1100/gfx1200: noted here, where v_swap_b32 prints it plain)
        if t is not None:  # (with the source's neg/abs around it, as llvm-mc-22 prints them)
            pre, post = _modifiers(texts[k])
            texts[k] = pre + t + post


# (probed with llvm-mc-22 on every learned VOP3 DPP form of gfx1100, gfx1200 and gfx1250, dpp_ctrl 0x80 / 0xC1:
# the forms that keep part of their destination read a dpp_ctrl of 0x80-0xFF as LLVM 22's disassembler reads
# a source field there: an inline integer 0..64 (0x80-0xC0) is the quad_perm of ctrl - 0x80, a negative or float
# inline constant or the literal (0xC1-0xD0, 0xF0-0xF8, 0xFF) no valid value, the others the value itself)
_CTRL_AS_SOURCE = ("v_fma_mixlo_f16", "v_fma_mixhi_f16", "v_fma_mixlo_bf16", "v_fma_mixhi_bf16", "v_cvt_pk_fp8_f32",
                   "v_cvt_pk_bf8_f32")


def _ctrl_index(key: str, dpp: int) -> int:
    """The learned dpp_ctrl entry LLVM prints for the DPP dword ``dpp`` of form ``key`` (0x100: an invalid one)."""
    c = (dpp >> 8) & 0x1FF
    if 0x80 <= c <= 0xFF and key.split("|")[0] in _CTRL_AS_SOURCE:
        if c <= 0xC0:
            return c - 0x80
        return 0x100 if c <= 0xD0 or 0xF0 <= c <= 0xF8 or c == 0xFF else c
    return c


# (probed with llvm-mc-22 on every learned VOP3 DPP form of gfx1100, gfx1200 and gfx1250, src1 = 0x81 / 0xF2:
# only these print an inline constant there as its field value in hex, 0x81 for 1, neg(0xf2) for -1.0)
_MAC_HEX = ("v_fmac_f16", "v_fmac_f32")


def _mac_constant(dec, key: str, enc, plain: int, texts: list) -> None:
    """v_fmac_f16/f32 with DPP: an inline-constant src1 prints as ``0x<field value>`` (inside its neg/abs)."""
    if key.split("|")[0] not in _MAC_HEX:
        return
    v = enc.field("SRC1").extract(plain)
    k = next((k for k, sp in enumerate(dec.plans[key].operands) if sp.field == "SRC1" or "SRC1" in sp.tables), None)
    if k is not None and k < len(texts) and (128 <= v <= 208 or 240 <= v <= 248):
        pre, post = _modifiers(texts[k])
        texts[k] = f"{pre}0x{v:x}{post}"


def _modifiers(tok: str) -> tuple[str, str]:
    """The neg/abs text around a source token: ``-|``/``|`` and ``|``, ``neg(`` and ``)``, ``-`` before a register."""
    if tok.startswith("neg(") and tok.endswith(")"):
        return "neg(", ")"
    if tok.startswith(("|", "-|")) and tok.endswith("|"):
        return tok[:tok.index("|") + 1], "|"
    return ("-", "") if tok.startswith("-") and not tok[1:2].isdigit() else ("", "")


def _vgpr(tok: str) -> bool:
    """Whether a source token (with its ``-``/``|x|`` modifiers, a true16 half) names one VGPR."""
    from . import operands as opd

    bare = tok.lstrip("-").strip("|")
    r = opd.parse_reg(bare.split(".")[0] if bare.endswith((".l", ".h")) else bare)
    return r is not None and r[0] == "v" and r[2] == 1
_OP_SEL_FIELDS = ("SRC0", "SRC1", "SRC2", "VDST")


def _fake16(dec, key: str, enc, word: int) -> bool:
    """GFX11 (llvm-mc-22, probed): an OP_SEL bit of an operand the instruction lacks (src1 of a one-source
    instruction, the SGPR destination of a compare...) makes LLVM print the DPP form in fake16: whole VGPRs,
    no ``.l``/``.h`` and no op_sel."""
    op = enc.field("OP_SEL")
    if dec.gfx != "GFX11" or op is None or enc.name == "VOP3P" or not op.extract(word):
        return False
    plan = dec.plans[key]
    # (a source without neg/abs where others have them, v_cndmask_b16's mask, has no op_sel bit either)
    moded = {k for t in plan.templates.values() for v in t.values() for k, _ in v}
    present = 0
    for i, name in enumerate(_OP_SEL_FIELDS):
        for k, sp in enumerate(plan.operands):
            if name in sp.tables or (sp.field == name and (name == "VDST" or not moded or k in moded)):
                if name != "VDST" or str(sp.text).startswith("v"):
                    present |= 1 << i
    return bool(op.extract(word) & ~present & 15)


# (GFX11, probed with llvm-mc-22 on every learned VOP3 DPP16 form with an OP_SEL bit of a missing operand: these
# print no fake16 form, the word is refused)
_NO_FAKE16 = ("v_add_nc_i16", "v_add_nc_u16", "v_sub_nc_i16", "v_sub_nc_u16", "v_cvt_pk_norm_i16_f16",
              "v_cvt_pk_norm_u16_f16", "v_mov_b16", "v_pack_b32_f16")


def _fake16_refused(dec, key: str, enc, word: int) -> bool:
    """GFX11 (llvm-mc-22, probed): the fake16 form of the instructions above is refused, and that of an
    instruction without neg/abs (an integer one, which ignores the bits otherwise) where the word sets a NEG
    or ABS bit."""
    if key.split("|")[0] in _NO_FAKE16:
        return True
    if dec.plans[key].templates:
        return False
    return any(f is not None and f.extract(word) for f in (enc.field("NEG"), enc.field("ABS")))


def _byte_sel(dec, entry, enc, plain: int) -> int:
    """The OP_SEL bits beside ``byte_sel`` the word sets, where the instruction prints OP_SEL bits 0-1
    (v_cvt_f32_fp8...) or 2-3 (v_cvt_sr_fp8_f32...) as ``byte_sel``; 0 otherwise."""
    op = enc.field("OP_SEL")
    if op is None or op.width < 3:
        return 0
    for sel, other in ((0b10, 0b1100), (0b1000, 0b0011)):
        probe = op.insert(plain, sel)
        text = dec._render(entry, probe, probe.to_bytes(8, "little") + b"\0" * 8, 0).text or ""
        if "byte_sel:" in text:
            return op.extract(plain) & other
    return 0


def random_vop3dpp_words(arch_name: str, n: int, seed: int = 1) -> list[bytes]:
    """``n`` 12-byte VOP3-DPP words: a learned instruction, random fields other than the opcode and src0,
    and a random DPP16 or DPP8 dword (DPP16 neg/abs bits clear one time in two)."""
    import random

    from .named import load_named
    from .plans import load_plans
    from .tables import load_arch_tables

    rng = random.Random(seed)
    table = load_named(arch_name).vop3dpp
    keys = sorted(set(table.get("dpp16", {})) | set(table.get("dpp8", {})))
    t, plans = load_arch_tables(arch_name), load_plans(arch_name)
    words = []
    for _ in range(n if keys else 0):
        key = rng.choice(keys)
        enc = t.encodings[key.split("|")[1]]
        w = plans[key].word
        for f in enc.fields:
            if f.value is None and f.name not in ("OP", "SRC0", enc.op_field) and rng.randrange(2):
                w = f.insert(w, rng.randrange(1 << f.width))
        src0 = enc.field("SRC0")
        assert src0 is not None  # every DPP form has a SRC0 field (it selects DPP: 0xFA / 0xE9 / 0xEA)
        w = src0.insert(w, rng.choice((0xFA, 0xFA, 0xE9, 0xEA)))
        d = rng.getrandbits(32)
        if rng.randrange(2):
            d &= ~(15 << 20)
        words.append(w.to_bytes(8, "little") + d.to_bytes(4, "little"))
    return words


def _dpp_dword(encoder, text: str, mods: list[str], kind: str) -> tuple[int, list[str], bool]:
    """(DPP dword without src0, the other modifiers, fi:1 given) of a VOP3 DPP text's modifiers: dpp_ctrl or
    dpp8 lanes, row/bank masks (0xf unless given), bound_ctrl, fi."""
    from .encoded import EncodeError

    ctrl_texts = encoder.named.dpp16.get("ctrl", [])
    dpp, rest, fi, ctrl = 0xFF << 24, [], False, None
    row = bank = None
    for m in mods:
        if m.startswith("dpp8:["):
            try:
                lanes = [int(x) for x in m[6:-1].split(",")]
            except ValueError:
                lanes = []
            if len(lanes) != 8 or any(not 0 <= x < 8 for x in lanes):
                raise EncodeError(f"{text!r}: dpp8 takes eight lane numbers 0..7")
            ctrl = sum(x << (8 + 3 * i) for i, x in enumerate(lanes))
        elif m in ctrl_texts:
            ctrl = ctrl_texts.index(m) << 8
        elif m.startswith("row_mask:") or m.startswith("bank_mask:"):
            try:
                v = int(m.split(":")[1], 0)
            except ValueError:
                v = -1
            if not 0 <= v < 16:
                raise EncodeError(f"{text!r}: {m.split(':')[0]} takes 0..0xf")
            row, bank = (v, bank) if m.startswith("row") else (row, v)
        elif m == "bound_ctrl:1" or (m == "bound_ctrl:0" and encoder.features.encoding_family in ("GFX9", "GFX10")):
            dpp |= 1 << 19  # (GFX11+: LLVM reads bound_ctrl:0 as the bit clear)
        elif m == "bound_ctrl:0":
            pass
        elif m == "fi:1":
            fi = True
        elif m != "fi:0":
            rest.append(m)
    if ctrl is None:
        raise EncodeError(f"{text!r}: expected a dpp_ctrl modifier (quad_perm:[...], row_shl:n, ...) or dpp8:[...]")
    if kind == "dpp8":
        dpp = ctrl
    else:
        dpp = (dpp & ~(0xFF << 24)) | ctrl | (0xF if bank is None else bank) << 24 | (0xF if row is None else row) << 28
        dpp |= (1 << 18) if fi else 0
    return dpp, rest, fi


def encode_vop3dpp(encoder, text: str, mnemonic: str):
    """Bytes of a VOP3 DPP text (``X_e64_dpp ...`` and DPP16/DPP8 modifiers): the e64 form with src0 =
    0xFA / 0xE9 (0xEA with DPP8 ``fi:1``), then the DPP dword; row/bank masks default to 0xf.  None when
    ``mnemonic`` names no learned VOP3 DPP form (another encoder path may know it)."""
    from . import operands as opd
    from .encoded import Encoded, EncodeError
    from .syntax import split_operands

    table = encoder.named.vop3dpp
    ops, mods = split_operands(text)
    kind = "dpp8" if any(m.startswith("dpp8:[") for m in mods) else "dpp16"
    keys = [k for k, mn in table.get(kind, {}).items() if mn == mnemonic]
    if not keys:
        return None
    dpp, rest, fi = _dpp_dword(encoder, text, mods, kind)
    errors = []
    for key in keys:
        plan = encoder.plans[key]
        enc = encoder.tables.encodings[key.split("|")[1]]
        idx = {sp.field or next(iter(sp.tables), None): k for k, sp in enumerate(plan.operands)}
        e64_ops, neg = list(ops), 0
        for i, name in enumerate(("SRC0", "SRC1", "SRC2")):
            k = idx.get(name)
            if k is not None and k < len(ops) and ops[k].startswith("sext(") and ops[k].endswith(")"):
                e64_ops[k], neg = ops[k][5:-1], neg | 1 << i
        k0 = idx.get("SRC0")
        if k0 is None or k0 >= len(ops):
            errors.append("no src0")
            continue
        bare = e64_ops[k0].lstrip("-").strip("|")
        r = opd.parse_reg(bare.split(".")[0] if bare.endswith((".l", ".h")) else bare)  # a true16 half: its VGPR
        if r is None or r[0] != "v" or r[2] != 1 or r[1] > 255:
            errors.append(f"src0 {bare!r} is not a VGPR")
            continue
        k1 = idx.get("SRC1")
        if not encoder.features.dpp_src1_sgpr and k1 is not None and k1 < len(ops) and not _vgpr(e64_ops[k1]):
            errors.append(f"src1 {e64_ops[k1]!r} is not a VGPR ({encoder.arch} takes none else with DPP)")
            continue
        notes = table.get("vgpr", {})
        bad = [tok for k, tok in enumerate(e64_ops) if f"{key}|{k}" in notes and not _vgpr(tok)]
        if bad:
            errors.append(f"{bad[0]!r} is not a VGPR (the DPP form reads VGPRs only there)")
            continue
        e64_mods = [m[:-1] + ",0]" if plan.mnemonic.startswith("v_cmp_") and m.startswith("op_sel:[")
                    and m.count(",") == 1 else m for m in rest]  # (the decoder's two-entry op_sel of a compare)
        got = encoder.plain_form(" ".join([plan.mnemonic, ", ".join(e64_ops)] + e64_mods), 8, key.split("|")[1],
                                 errors)
        if got is None:
            continue
        word = int.from_bytes(got.data, "little")
        f, nf = enc.field("SRC0"), enc.field("NEG")
        s0 = 0xFA if kind == "dpp16" else (0xEA if fi else 0xE9)
        word = f.insert(word, s0)
        if neg and nf is not None:
            word |= nf.place(neg)
        data = word.to_bytes(8, "little") + (dpp | r[1]).to_bytes(4, "little")
        back = encoder.decoder().decode_at(data + b"\0" * 8, 0)
        if not back.valid or len(back.data) != 12 or back.text.split()[0] != mnemonic:
            errors.append("not an accepted DPP combination")
            continue
        return Encoded(data, got.encoding, got.name, dict(got.fields, SRC0=s0), None)
    raise EncodeError(f"{text!r} does not assemble for {encoder.arch}: " + "; ".join(errors[:2]))
