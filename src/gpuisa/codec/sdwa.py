"""SDWA forms (GFX9, GFX10): a 32-bit VOP1/VOP2/VOPC word with src0 = 0xF9 followed by an SDWA dword.

The SDWA dword (bit positions from AMD's ISA manuals): SRC0 (0..7), DST_SEL (8..10), DST_UNUSED (11..12),
CLAMP (13), OMOD (14..15), SRC0_SEL (16..18), SRC0_SEXT (19), SRC0_NEG (20), SRC0_ABS (21), S0 (23: src0
is a scalar source), SRC1_SEL (24..26), SRC1_SEXT (27), SRC1_NEG (28), SRC1_ABS (29), S1 (31).  The VOPC
form puts SDST (8..14) and SD (15) where DST_SEL/DST_UNUSED/CLAMP/OMOD are.

What is learned from llvm-mc-22 at generation time (``python -m gpuisa.regen.sdwa``, ``regen/sdwa.py``; stored under the key
``sdwa`` of ``named_<arch>.json``): per instruction the SDWA mnemonic, which modifier words LLVM prints
(``dst_sel``/``dst_unused``/``src0_sel``/``src1_sel``) and which single bits and field values it accepts.
The text is then composed from the e32 operand texts (``special.dpp_parts``) here.
"""
from __future__ import annotations

import re

SELS = ("BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD")
UNUSED = ("UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD")  # LLVM prints the reserved 3 as PAD
OMOD = (None, "mul:2", "mul:4", "div:2")
_INT_TEXT = re.compile(r"^-?(\d+|0x[0-9a-f]+)$")  # a negated integer constant prints as neg(...)
FLAG_BITS = (13, 14, 15, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31)
FIELDS = {"dst_sel": (8, 7), "dst_unused": (11, 3), "src0_sel": (16, 7), "src1_sel": (24, 7)}


def _selectors_accepted(sels: dict, vals: dict[str, int], vopc: bool) -> bool:
    """Every selector value of the SDWA dword is one LLVM accepts for the instruction (learned ``sels``)."""
    for name, v in vals.items():
        if vopc and name in ("dst_sel", "dst_unused"):
            continue
        if name == "dst_unused" and v == 3:
            v = 0  # the reserved value: accepted where UNUSED_PAD is
        if v == 7 or not sels[name] >> v & 1:  # LLVM 22 crashes on a selector of 7
            return False
    return True


def _source_modifiers(t: str, d: int, base: int) -> str:
    """A source's text with the SDWA dword's abs, neg and sext bits (from bit ``base``) applied."""
    if d >> (base + 2) & 1:
        t = f"|{t}|"
    if d >> (base + 1) & 1:
        t = f"neg({t})" if _INT_TEXT.match(t) or t.startswith("-") else "-" + t
    if d >> base & 1:
        t = f"sext({t})"
    return t


def sdwa_text(dec, entry, word: int, buf, off: int) -> tuple[str | None, int]:
    """(text, size) of a 32-bit VOP1/VOP2/VOPC word whose src0 is 0xF9 (an SDWA dword follows)."""
    from . import operands as opd
    from .special import dpp_parts
    from .syntax import join

    table = dec.named.sdwa
    key = f"{entry.name}|{entry.encoding}"
    mn = table["mn"].get(key) if table else None
    if mn is None or len(buf) - off < 8:
        return None, 4
    d = int.from_bytes(buf[off + 4:off + 8], "little")
    vopc = entry.encoding == "VOPC"
    flags = sum(1 << b for b in FLAG_BITS if d >> b & 1)
    if vopc:
        flags &= ~((1 << 13) | (1 << 14) | (1 << 15))
    if flags & ~table["bits"][key]:
        return None, 4
    vals = {name: (d >> lo) & n for name, (lo, n) in FIELDS.items()}
    if not _selectors_accepted(table["sels"][key], vals, vopc):
        return None, 4
    got = dpp_parts(dec, entry, word, d & 0xFF)
    if got is None:
        return None, 4
    texts, mods, i0, i1 = got
    mods = []
    from .decoded import operand_type

    size, is_float = operand_type(mn)
    if i0 is not None and d >> 23 & 1:
        t = opd.src_text(dec.gfx, d & 0xFF, 1, size, is_float)
        if t is None:
            return None, 4
        texts[i0] = t
    if i1 is not None and d >> 31 & 1:
        t = opd.src_text(dec.gfx, (word >> 9) & 0xFF, 1, size, is_float)
        if t is None:
            return None, 4
        texts[i1] = t
    for k, base in ((i0, 19), (i1, 27)):
        if k is not None:
            texts[k] = _source_modifiers(texts[k], d, base)
    if vopc:
        if d >> 15 & 1:
            if dec.gfx.startswith("GFX10") and mn.startswith("v_cmpx"):
                return None, 4  # GFX10 v_cmpx writes EXEC only: LLVM rejects an SGPR destination
            wave = 1 if dec.gfx.startswith("GFX1") and not getattr(dec, "wave64", False) else 2
            t = opd.sgpr_name(dec.gfx, (d >> 8) & 0x7F, wave)
            if t is None:
                return None, 4
            texts[0] = t
    else:
        if d >> 13 & 1:
            mods.append("clamp")
        if OMOD[(d >> 14) & 3]:
            mods.append(OMOD[(d >> 14) & 3])
    for name in table["mods"][key]:
        v = vals[name]
        mods.append(f"{name}:{UNUSED[v] if name == 'dst_unused' else SELS[v]}")
    # GFX10: a float inline constant read by a 16-bit integer source makes LLVM take a literal dword too
    wide = dec.gfx.startswith("GFX10") and size == 16 and not is_float and any(
        d >> bit & 1 and 240 <= v <= 248 for bit, v in ((23, d & 0xFF), (31, (word >> 9) & 0xFF)))
    if wide and len(buf) - off < 12:
        return None, 4
    return join(mn, texts, mods), 12 if wide else 8


def random_sdwa_words(arch_name: str, n: int, seed: int = 1) -> list[bytes]:
    """``n`` 8-byte SDWA words: a learned SDWA instruction with random VDST/VSRC1 and a random SDWA dword
    (selector value 7 avoided: llvm-mc-22 crashes on it)."""
    import random

    from .named import load_named
    from .plans import load_plans
    from .tables import load_arch_tables

    rng = random.Random(seed)
    keys = sorted(load_named(arch_name).sdwa.get("mn", {}))
    t, plans = load_arch_tables(arch_name), load_plans(arch_name)
    words = []
    for _ in range(n if keys else 0):
        key = rng.choice(keys)
        enc = t.encodings[key.split("|")[1]]
        f = enc.require_field("SRC0")
        w = f.insert(plans[key].word, 0xF9)
        for name in ("VDST", "VSRC1"):
            g = enc.field(name)
            if g is not None:
                w = g.insert(w, rng.randrange(1 << g.width))
        d = rng.randrange(256) | rng.randrange(7) << 8 | rng.randrange(4) << 11 | rng.randrange(7) << 16
        d |= 0 if key.endswith("|VOP1") else rng.randrange(7) << 24
        for b in FLAG_BITS:  # each modifier bit set one time in six
            if rng.randrange(6) == 0:
                d |= 1 << b
        words.append(w.to_bytes(4, "little") + d.to_bytes(4, "little"))
    return words


def _strip_source(tok: str) -> tuple[str, int]:
    """(bare operand, bits: 1 sext, 2 neg, 4 abs) of an SDWA source text such as ``sext(-|v2|)``."""
    bits = 0
    if tok.startswith("sext(") and tok.endswith(")"):
        tok, bits = tok[5:-1], bits | 1
    if tok.startswith("neg(") and tok.endswith(")"):
        tok, bits = tok[4:-1], bits | 2
    elif tok.startswith("-") and not tok[1:2].isdigit():
        tok, bits = tok[1:], bits | 2
    if tok.startswith("|") and tok.endswith("|"):
        tok, bits = tok[1:-1], bits | 4
    return tok, bits


def _sdwa_modifiers(text: str, mods: list[str]) -> tuple[int, dict[str, int]]:
    """The SDWA dword's clamp/omod bits and the selector values the modifiers name (LLVM's defaults else)."""
    from .encoded import EncodeError

    dword = 0
    values = {"dst_sel": 6, "dst_unused": 2, "src0_sel": 6, "src1_sel": 6}
    for m in mods:
        name, _, v = m.partition(":")
        if name in values:
            names = UNUSED if name == "dst_unused" else SELS
            if v not in names:
                raise EncodeError(f"{text!r}: {name} must be one of {', '.join(names[:3 if name == 'dst_unused' else 7])}")
            values[name] = names.index(v)
        elif m == "clamp":
            dword |= 1 << 13
        elif m in OMOD[1:]:
            dword |= OMOD.index(m) << 14
        else:
            raise EncodeError(f"{text!r}: unknown SDWA modifier {m!r}")
    return dword, values


def _sdwa_sources(gfx: str, ops: list[str], i0: int, i1: int | None, dword: int) -> tuple[list[str], int, str | None]:
    """(e32 operands, SDWA dword with the sources' bits; src1's scalar value above bit 32, reason or None):
    a VGPR source stays in the e32 word, a scalar one moves into the SDWA dword (src0) or VSRC1 (src1)."""
    from . import operands as opd

    e32_ops, d = list(ops), dword
    for k, base, sbit in ((i0, 19, 23), (i1, 27, 31)):
        if k is None:
            continue
        bare, bits = _strip_source(ops[k])
        d |= (bits & 1) << base | (bits >> 1 & 1) << (base + 1) | (bits >> 2 & 1) << (base + 2)
        r = opd.parse_reg(bare)
        if r is not None and r[0] == "v" and r[2] == 1:
            e32_ops[k] = bare
            d |= r[1] if k == i0 else 0
            continue
        got = opd.parse_src(gfx, bare, 1)
        if got is None or got[1] is not None:
            return e32_ops, d, f"source {bare!r}"
        d |= 1 << sbit
        e32_ops[k] = "v0"
        d |= (got[0] & 0xFF) if k == i0 else (got[0] & 0xFF) << 32  # src1: moved into VSRC1 below
    return e32_ops, d, None


def encode_sdwa(encoder, text: str, mnemonic: str):
    """Bytes of ``X_sdwa ...``: the e32 form with src0 = 0xF9, then the SDWA dword built from the modifiers
    (selectors default to DWORD, dst_unused to UNUSED_PRESERVE, as LLVM's assembler does); the result must
    decode to a learned SDWA form or it is refused."""
    from . import operands as opd
    from .encoded import Encoded, EncodeError
    from .syntax import split_operands

    table = encoder.named.sdwa
    keys = [k for k, mn in table.get("mn", {}).items() if mn == mnemonic]
    if not keys:
        raise EncodeError(f"{text!r}: {mnemonic} has no SDWA form on {encoder.arch}")
    ops, mods = split_operands(text)
    if mnemonic.startswith("v_pk_"):  # (llvm-mc-22 takes sext(vN) on v_pk_fmac_f16's sources and sets no bit for it)
        ops = [o[5:-1] if o.startswith("sext(") and o.endswith(")") and o[5:6] not in "-|an" else o for o in ops]
    dword, values = _sdwa_modifiers(text, mods)
    errors = []
    for key in keys:
        plan = encoder.plans[key]
        enc = encoder.tables.encodings[key.split("|")[1]]
        vopc = key.endswith("|VOPC")
        # which operands are sources: the e32 plan's SRC0 / VSRC1 slots
        i0 = next((k for k, sp in enumerate(plan.operands) if sp.field == "SRC0"), None)
        i1 = next((k for k, sp in enumerate(plan.operands) if sp.field == "VSRC1"), None)
        if i0 is None or len(ops) != len(plan.operands):
            errors.append("operand count")
            continue
        e32_ops, d, bad = _sdwa_sources(encoder.gfx, ops, i0, i1, dword)
        bad = bad or _gfx9_bus_error(encoder.gfx, plan, ops, (i0, i1))
        if bad:
            errors.append(bad)
            continue
        if vopc:
            dst = ops[0]
            if dst not in ("vcc", "vcc_lo") and i0 != 0:
                wave32 = encoder.gfx.startswith("GFX1") and not encoder.wave64  # (GFX10 wave64: an SGPR pair)
                got = opd.parse_src(encoder.gfx, dst, 1 if wave32 else 2)
                if got is None or got[0] >= 128:
                    errors.append(f"destination {dst!r}")
                    continue
                d |= 1 << 15 | got[0] << 8
                e32_ops[0] = "vcc_lo" if wave32 else "vcc"
        else:
            d |= values["dst_sel"] << 8 | values["dst_unused"] << 11
        d |= values["src0_sel"] << 16 | (0 if key.endswith("|VOP1") else values["src1_sel"] << 24)
        got = encoder.plain_form(" ".join([plan.mnemonic, ", ".join(e32_ops)]), 4, key.split("|")[1], errors)
        if got is None:
            continue
        word = int.from_bytes(got.data, "little")
        f = enc.field("SRC0")
        word = f.insert(word, 0xF9)
        if d >> 32:
            g = enc.field("VSRC1")
            word = g.insert(word, d >> 32)
        data = word.to_bytes(4, "little") + (d & 0xFFFFFFFF).to_bytes(4, "little")
        back = encoder.decoder().decode_at(data + b"\0" * 8, 0)
        if not back.valid or back.name != key.split("|")[0] or not (back.text or "").startswith(mnemonic):
            errors.append("not an accepted SDWA combination")
            continue
        fields = dict(got.fields, SRC0=0xF9, **({"VSRC1": d >> 32} if d >> 32 else {}))
        return Encoded(data, got.encoding, got.name, fields, None)
    raise EncodeError(f"{text!r} does not assemble for {encoder.arch}: " + "; ".join(errors[:2]))


def _gfx9_bus_error(gfx: str, plan, ops: list[str], slots: tuple[int | None, ...]) -> str:
    """GFX9 reads one scalar value per SDWA instruction (llvm-mc-22: "violates constant bus restrictions"): distinct
    SGPRs among the two sources, and the VCC v_cndmask_b32/v_addc_co_u32 read after them."""
    from . import operands as opd

    if gfx not in ("GFX9", "GFX940"):
        return ""
    used: set[tuple[int, int]] = set()
    for k in slots:
        if k is None:
            continue
        tok = ops[k].strip().lstrip("-").strip("|")
        tok = tok[5:-1] if tok.startswith("sext(") and tok.endswith(")") else tok
        got = opd.parse_src(gfx, tok, plan.operands[k].count)
        if got is not None and (got[0] < 128 or 235 <= got[0] <= 239 or 251 <= got[0] <= 253):  # (src_scc too)
            used.add((got[0], plan.operands[k].count))
    first = min(k for k in slots if k is not None)
    if any(sp.text == "vcc" and not sp.field and k > first for k, sp in enumerate(plan.operands)):
        used.add((106, 2))
    return "more than one scalar value (GFX9's constant bus carries one)" if len(used) > 1 else ""
