"""Operands whose spelling is not a register or a plain number: hwreg(...), buffer formats,
export targets and sources, interpolation attributes (LLVM's custom printers).

Each is written from the ISA's field definitions plus the named-value tables learned from
llvm-mc at generation time (``named.py``); values the probe tables already cover are looked
up there first.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .named import NamedTables
    from .plans import OperandPlan

_ATTR = re.compile(r"^attr\d+\.[xyzw]$")
EXP_MOD_FIELDS = {"done": "DONE", "compr": "COMPR", "vm": "VM", "row_en": "ROW"}


def hwreg_text(named: NamedTables, v: int) -> str:
    ident, off, size = v & 63, (v >> 6) & 31, (v >> 11) + 1
    name = named.hwreg.get(str(ident), str(ident))
    return f"hwreg({name})" if off == 0 and size == 32 else f"hwreg({name}, {off}, {size})"


def version_text(named: NamedTables, v: int) -> str:
    """s_version's operand: a code (named where known) or'ed with named flag bits; hex when other bits are set."""
    flags = {1 << b: n for b, n in named.version_flags}
    if v & ~(0xFF | sum(flags)):
        return f"0x{v:x}"
    text = named.version_codes.get(str(v & 0xFF), str(v & 0xFF))
    for bit in sorted(flags):
        if v & bit:
            text = f"({text})|{flags[bit]}" if "|" in text else f"{text}|{flags[bit]}"
    return text


def operand(dec, entry, spec, fields) -> str | None:
    t = spec.text
    if t.startswith("hwreg(") and "SIMM16" in fields and dec.named.hwreg:
        return hwreg_text(dec.named, fields["SIMM16"])
    if t.startswith("UC_VERSION") and "SIMM16" in fields and bool(dec.named.version_codes):
        return version_text(dec.named, fields["SIMM16"])
    if t == "p10" and "VSRC" in fields and bool(dec.named.interp_param):
        return dec.named.interp_param.get(str(fields["VSRC"]))
    if _ATTR.match(t) and "ATTR" in fields:
        chan = next((v for k, v in fields.items() if "CHAN" in k), 0)
        return f"attr{fields['ATTR']}.{'xyzw'[chan & 3]}"
    if dec.gfx in ("GFX11", "GFX12"):
        from . import rdna

        half = rdna.true16_opsel(dec, entry, spec, fields)
        if half is not None:
            return half
    for fname, table in spec.tables.items():
        v = fields.get(fname)
        if v is None:
            continue
        enc = dec.tables.encodings[entry.encoding]
        if v == enc.field(fname).extract(dec.plans[f"{entry.name}|{entry.encoding}"].word):
            return spec.text
        got = table.get(str(v))
        if got is not None:
            return got
    return None


def export_text(dec, mnemonic: str, fields: dict[str, int]) -> tuple[str | None, str | None]:
    """(text, error) of an export instruction from the learned target names and source slots."""
    named = dec.named
    target = named.exp_target.get(str(fields.get("TARGET", 0)))
    slots = named.exp_slots.get(f"{fields.get('COMPR', 0)}/{fields.get('EN', 0)}")
    if target is None or slots is None:
        return None, f"export target {fields.get('TARGET')} is not valid here"
    srcs = ["off" if j is None else f"v{fields[f'VSRC{j}']}" for j in slots]
    mods = [m for m in named.exp_mods if fields.get(EXP_MOD_FIELDS.get(m, ""), 0)]
    return f"{mnemonic} {target} {', '.join(srcs)}" + "".join(" " + m for m in mods), None


def buffer_format(dec, fields: dict[str, int]) -> tuple[bool, str]:
    """(valid, 'format:...' or '') of a typed buffer instruction's format fields."""
    if "FORMAT" in fields:
        v = fields["FORMAT"]
    else:
        v = (fields.get("NFMT", 0) << 4) | fields.get("DFMT", 0)
    tok = dec.named.format.get(str(v))
    return tok is not None, tok or ""


def fallback(dec, entry, spec, fields, plan) -> str | None:
    if dec.gfx in ("GFX10", "GFX11", "GFX12"):
        from . import rdna

        return rdna.fallback(dec, entry, spec, fields)
    if dec.gfx == "GFX9" and spec.text == "gpr_idx()" and bool(dec.named.gpr_idx):
        v = fields.get("SSRC1", fields.get("SIMM16", 0))  # s_set_gpr_idx_on / _mode's mode, probed (gfx9.py)
        return dec.named.gpr_idx[v] if v < 256 else f"0x{v:x}"
    if dec.gfx == "GFX9" and spec.kind == "ssrc" and spec.count > 2 and spec.field in fields:
        # GFX9: a 4/8/16-dword scalar operand on a 64-bit special register (flat_scratch, xnack_mask, vcc,
        # exec): llvm-mc-22 rejects the word (LLVM 19 printed the name with an ``Invalid register`` note);
        # null still prints (probed: s_load_dwordx4/x8/x16, s_buffer_load_dwordx8, s_atomic_cmpswap_x2)
        v = fields[spec.field] * spec.scale
        if v == 125:
            return "null"
    return None


def modifier(dec, entry, fname, value, m) -> list[str] | None:
    if dec.gfx in ("GFX10", "GFX11", "GFX12"):
        from . import rdna

        return rdna.modifier(dec, fname, value, m)
    return None


# -- the inverse direction, for the encoder -----------------------------------------------
_HWREG_TEXT = re.compile(r"^hwreg\(([A-Za-z_0-9]+)(?:,\s*(\d+),\s*(\d+))?\)$")
_ATTR_TEXT = re.compile(r"^attr(\d+)\.([xyzw])$")


def parse_special(named: NamedTables, spec: OperandPlan, tok: str, fields: dict[str, int]) -> dict[str, int] | None:
    """Field values for an hwreg(...), sendmsg(...) (s_sendmsg_rtn) or attrN.c operand token; None if ``tok``
    is none of them."""
    t = spec.text
    if tok.startswith("sendmsg(") and "SSRC0" in spec.tables:  # s_sendmsg_rtn's learned message names
        hit = next((toks.index(tok) for toks in named.sendmsg_rtn.values() if tok in toks), None)
        if hit is not None:
            return {"SSRC0": hit}
    m = _HWREG_TEXT.match(tok)
    if t.startswith("hwreg(") and m and "SIMM16" in fields and named.hwreg:
        names = {**{k: int(v) for k, v in named.hwreg_aliases.items()}, **{v: int(k) for k, v in named.hwreg.items()}}
        ident = names.get(m.group(1))
        if ident is None:
            if not m.group(1).isdigit():
                return None
            ident = int(m.group(1))
        off, size = (int(m.group(2)), int(m.group(3))) if m.group(2) else (0, 32)
        if not (0 <= ident < 64 and 0 <= off < 32 and 1 <= size <= 32):
            return None
        return {"SIMM16": ident | (off << 6) | ((size - 1) << 11)}
    if t.startswith("UC_VERSION") and "SIMM16" in fields and bool(named.version_codes):
        parts = tok.replace("(", "").replace(")", "").split("|")
        codes = {n: int(v) for v, n in named.version_codes.items()}
        flags = {n: 1 << b for b, n in named.version_flags}
        try:
            v = codes[parts[0]] if parts[0] in codes else int(parts[0], 0)
            for p in parts[1:]:
                v |= flags[p]
        except (KeyError, ValueError):
            return None
        return {"SIMM16": v} if 0 <= v < 65536 else None
    if t == "p10" and "VSRC" in fields and bool(named.interp_param):
        return next(({"VSRC": int(v)} for v, n in named.interp_param.items() if n == tok), None)
    m = _ATTR_TEXT.match(tok)
    if _ATTR.match(t) and m and "ATTR" in fields:
        chan = next((k for k in fields if "CHAN" in k), None)
        out = {"ATTR": int(m.group(1))}
        if chan:
            out[chan] = "xyzw".index(m.group(2))
        return out
    return None


def export_fields(named: NamedTables, ops: list[str], mods: list[str], fields: list[str]) -> dict[str, int] | None:
    """Field values of an export from its text (inverse of ``export_text``); None if it does not fit."""
    if len(ops) != 4 or len(ops[0].split()) != 2:
        return None
    target, first = ops[0].split()
    srcs = [first] + ops[1:]
    tv = next((int(v) for v, n in named.exp_target.items() if n == target), None)
    if tv is None:
        return None
    for key, slots in sorted(named.exp_slots.items()):
        compr, en = (int(x) for x in key.split("/"))
        if [s is None for s in slots] != [x == "off" for x in srcs]:
            continue
        out = {"TARGET": tv, "EN": en, **({"COMPR": compr} if "COMPR" in fields else {})}
        for j, s in zip(slots, srcs):
            if j is not None:
                if not (s.startswith("v") and s[1:].isdigit()):
                    return None
                if out.setdefault(f"VSRC{j}", int(s[1:])) != int(s[1:]):
                    break
        else:
            want = {m for m in mods}
            for m, f in EXP_MOD_FIELDS.items():
                if f in fields and f != "COMPR":
                    out[f] = 1 if m in want else 0
            if out.get("COMPR", 0) != (1 if "compr" in want else 0) and "COMPR" in fields:
                continue
            if want - set(named.exp_mods):
                return None
            return out
    return None


def format_value(named: NamedTables, token: str | None) -> int | None:
    """The format field value printed as ``token`` ('' when none is printed), or spelled otherwise as
    llvm-mc-22 takes it: a number the field holds (``format:2``), a unified format as its data and number
    formats (``format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_SNORM]``), the default's name (8 UNORM: printed as
    nothing)."""
    by_text = {t: int(v) for v, t in named.format.items()}
    if (token or "") in by_text:
        return by_text[token or ""]
    body = (token or "")[len("format:"):]
    if body.isdigit():
        return int(body) if body in named.format else None
    unified = any("BUF_FMT_" in t for t in by_text)  # (GFX10+: one format field; GFX9: DFMT and NFMT)
    if body == "[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UNORM]" or (unified and body == "[BUF_FMT_8_UNORM]"):
        return by_text.get("")
    m = _SPLIT_FORMAT.fullmatch(body)
    if m is None:
        return None
    if unified:
        return by_text.get(f"format:[BUF_FMT_{m.group(1)}_{m.group(2)}]")
    d = 1 if m.group(1) == "8" else by_text.get(f"format:[BUF_DATA_FORMAT_{m.group(1)}]")
    n = 1 if m.group(2) == "UNORM" else by_text.get(f"format:[BUF_NUM_FORMAT_{m.group(2)}]")
    return None if d is None or n is None else (n >> 4) << 4 | (d & 15)


_SPLIT_FORMAT = re.compile(r"\[BUF_DATA_FORMAT_(\w+?),BUF_NUM_FORMAT_(\w+)\]")


_VOPD_SLOT = re.compile(r"\{([A-Z0-9]+)\}")


def vopd_text(dec, word: int, buf, off: int) -> tuple[str | None, int, str | None]:
    """(text, size, error) of a dual-issue (VOPD) word from the learned (OPX, OPY) templates."""
    from . import operands as opd

    enc = dec.tables.encodings["VOPD"]
    f = {x.name: x.extract(word) for x in enc.fields if x.value is None}
    tp = dec.named.vopd.get(f"{f['OPX']}/{f['OPY']}")
    z = dec.named.vopd_zero.get(f"{f['OPX']}/{f['OPY']}")
    if tp is None and z is not None and not any(f[x] for x in z.zero):
        tp = z.template  # a half without a second source: LLVM wants its VSRC1 field zero
    if tp is None:
        return None, 4, f"VOPD opcode pair {f['OPX']}/{f['OPY']} is not valid"
    halves = tp.split(" :: ")
    lit = None
    size = 8
    vals = {"VDSTX": f"v{f['VDSTX']}", "VSRCX1": f"v{f['VSRCX1']}", "VSRCY1": f"v{f['VSRCY1']}",
            "VDSTY": f"v{(f['VDSTY'] << 1) | ((f['VDSTX'] & 1) ^ 1)}"}
    uses_lit = "{LIT}" in tp or f["SRCX0"] == opd.LITERAL or f["SRCY0"] == opd.LITERAL
    if uses_lit:
        if len(buf) - off < 12:
            return None, 4, "truncated literal: 4 more bytes needed"
        lit = int.from_bytes(buf[off + 8:off + 12], "little")
        size = 12
    for name, half in (("SRCX0", halves[0]), ("SRCY0", halves[-1])):
        from .decoded import operand_type

        tsize, is_float = operand_type(half.split()[0])
        v = f[name]
        t: str | None
        if v == opd.LITERAL:
            assert lit is not None  # (uses_lit holds for a literal source)
            t = opd.literal_token(lit, "b32")
        else:
            t = opd.src_text(dec.gfx, v, 1, 32, is_float)
        if t is None:
            return None, 4, f"VOPD source value {v} is not valid"
        vals[name] = t
    if lit is not None:
        vals["LIT"] = f"0x{lit:x}"
    return _VOPD_SLOT.sub(lambda m: vals[m.group(1)], tp), size, None


@functools.lru_cache(maxsize=None)
def _vopd_patterns(named: NamedTables) -> list[tuple[re.Pattern, int, int]]:
    pats = []
    zero = [(k, z.template) for k, z in named.vopd_zero.items()]
    for key, tp in list(named.vopd.items()) + zero:
        opx, opy = (int(x) for x in key.split("/"))
        rx = re.escape(tp)
        for slot in ("VDSTX", "VDSTY", "SRCX0", "VSRCX1", "SRCY0", "VSRCY1", "LIT"):
            rx = rx.replace(re.escape("{%s}" % slot), f"(?P<{slot}>[^,: ]+)", 1)
        rx = rx.replace(re.escape("{LIT}"), "(?P<LIT2>[^,: ]+)")  # (both halves' constant K: one literal, twice)
        pats.append((re.compile("^" + rx + "$"), opx, opy))
    return pats


def vopd_fields(enc, gfx: str, named: NamedTables, text: str,
                same_ok: bool = False) -> tuple[dict[str, int], int | None] | None:
    """(field values, literal) of a VOPD text (inverse of ``vopd_text``); None if no template matches or the
    halves may not pair (``_vopd_pairable``; ``same_ok``: gfx1250, where one VGPR may feed both halves)."""
    from . import operands as opd

    for rx, opx, opy in _vopd_patterns(named):
        m = rx.match(text)
        if not m:
            continue
        g = m.groupdict()
        regs = {}
        given = {k for k in ("VSRCX1", "VSRCY1") if g.get(k) is not None}
        for k in ("VDSTX", "VDSTY", "VSRCX1", "VSRCY1"):
            if g.get(k) is None and k.startswith("VSRC"):  # a half without a second source: the field stays zero
                g[k] = "v0"
            r = opd.parse_reg(g[k])
            if r is None or r[0] != "v" or r[2] != 1:
                return None
            regs[k] = r[1]
        if (regs["VDSTY"] & 1) != ((regs["VDSTX"] & 1) ^ 1):
            return None
        vals = {"OPX": opx, "OPY": opy, "VDSTX": regs["VDSTX"], "VDSTY": regs["VDSTY"] >> 1,
                "VSRCX1": regs["VSRCX1"], "VSRCY1": regs["VSRCY1"]}
        lit = None
        if g.get("LIT") is not None:
            try:
                lit = int(g["LIT"], 0) & 0xFFFFFFFF
                if g.get("LIT2") is not None and int(g["LIT2"], 0) & 0xFFFFFFFF != lit:
                    return None
            except ValueError:
                return None
        for k in ("SRCX0", "SRCY0"):
            got = opd.parse_src(gfx, g[k], 1)
            if got is None:
                return None
            vals[k], lv = got
            if lv is not None:
                if lit is not None and lit != lv:
                    return None
                lit = lv
        if not _vopd_pairable(text, vals, regs, given, lit, same_ok):
            return None
        return vals, lit
    return None


def _vopd_pairable(text: str, vals: dict[str, int], regs: dict[str, int], given: set[str], lit: int | None,
                   same_ok: bool) -> bool:
    """llvm-mc-22's pairing rules beyond one literal and the even/odd destinations (probed on gfx1100, gfx1200,
    gfx1250): at most two scalar values (SGPR-file registers but null, the literal, and the VCC v_dual_cndmask_b32
    reads, which is not vcc_lo), and the halves' VGPR sources in different banks: src0 and src1 by register
    number mod 4, src2 (the destination of fmac/dot2acc, the VGPR operand of fmamk) mod 2 -- on gfx1250
    (``same_ok``) one register in both halves' slot passes."""
    names = [h.split()[0] for h in text.split("::")]
    scalars: set = {v for v in (vals["SRCX0"], vals["SRCY0"]) if v < 128 and v != 124}
    scalars |= {"literal"} if lit is not None else set()
    scalars |= {"vcc"} if "v_dual_cndmask_b32" in names else set()
    if len(scalars) > 2:
        return False
    def clash(regs2: list[int], banks: int) -> bool:
        return len(regs2) == 2 and regs2[0] % banks == regs2[1] % banks and not (same_ok and regs2[0] == regs2[1])

    if clash([v - 256 for v in (vals["SRCX0"], vals["SRCY0"]) if v >= 256], 4):
        return False
    src1, src2 = [], []
    for name, dst, vsrc in zip(names, ("VDSTX", "VDSTY"), ("VSRCX1", "VSRCY1")):
        if "fmac" in name or "dot2acc" in name:
            src2.append(regs[dst])
        if "fmamk" in name and vsrc in given:
            src2.append(regs[vsrc])
        elif vsrc in given:
            src1.append(regs[vsrc])
    return not (clash(src1, 4) or clash(src2, 2))


def smem_offset(dec, fields: dict[str, int], width: int) -> tuple[str | None, str | None]:
    """GFX9 scalar-memory offset operand and ``offset:`` modifier from IMM / SOFFSET_EN (probed forms):
    an SGPR from the offset field's low 7 bits, the SOFFSET SGPR, a signed immediate, or both."""
    from . import operands as opd

    off = fields["OFFSET"]
    if off >= 1 << (width - 1):
        off -= 1 << width
    imm = f"-0x{-off:x}" if off < 0 else f"0x{off:x}"
    soe, is_imm = fields.get("SOFFSET_EN", 0), fields.get("IMM", 0)
    if not soe:
        return (imm, None) if is_imm else (opd.sgpr_name(dec.gfx, fields["OFFSET"] & 0x7F, 1), None)
    reg = opd.sgpr_name(dec.gfx, fields["SOFFSET"], 1)
    return (reg, f"offset:{imm}") if is_imm else (reg, None)


def dpp_parts(dec, entry, word: int, vgpr: int):
    """(operand texts, modifiers, src0 index, src1 index) of the 32-bit form with src0 = v<vgpr>; None if invalid.

    A DPP source is a VGPR whatever the e32 form's class: LLVM names its class VGPR_32_Lo128 in the note."""
    enc = dec.tables.encodings[entry.encoding]
    f = enc.field("SRC0")
    plain = f.insert(word, 256 + vgpr)
    parts: list = []
    d = dec._render(entry, plain, plain.to_bytes(4, "little") + b"\0" * 8, 0, parts)
    if not d.valid or len(d.data) != 4 or not parts:
        return None
    texts, mods = list(parts[0]), list(parts[1])
    ops = dec.plans[f"{entry.name}|{entry.encoding}"].operands
    # (a true16 source of GFX11 is a per-value table of its field, ``.l``/``.h``: it takes neg/abs too)
    i0 = next((k for k, sp in enumerate(ops) if sp.field == "SRC0" or "SRC0" in sp.tables), None)
    i1 = next((k for k, sp in enumerate(ops) if sp.field == "VSRC1" or "VSRC1" in sp.tables), None)
    if i0 is not None:
        texts[i0] = texts[i0].replace("'VS_32_Lo128'", "'VGPR_32_Lo128'")
    return texts, mods, i0, i1


def dpp8_text(dec, entry, word: int, buf, off: int) -> tuple[str | None, int]:
    """(text, size) of a 32-bit vector instruction whose src0 is 0xE9/0xEA (a DPP8 dword follows)."""
    from .syntax import join

    mn = dec.named.dpp8.get(f"{entry.name}|{entry.encoding}")
    if mn is None or len(buf) - off < 8:
        return None, 4
    dpp = int.from_bytes(buf[off + 4:off + 8], "little")
    got = dpp_parts(dec, entry, word, dpp & 0xFF)
    if got is None:
        return None, 4
    texts, mods = got[0], got[1]
    lanes = ",".join(str((dpp >> (8 + 3 * i)) & 7) for i in range(8))
    mods.append(f"dpp8:[{lanes}]")
    if word & 0x1FF == 0xEA:
        mods.append("fi:1")
    return join(mn, texts, mods), 8


def dpp16_text(dec, entry, word: int, buf, off: int) -> tuple[str | None, int]:
    """(text, size) of a 32-bit vector instruction whose src0 is 0xFA (a DPP16 dword follows): the
    dpp_ctrl text and the accepted source neg/abs bits are learned per architecture (``named.py``)."""
    from .syntax import join

    key = f"{entry.name}|{entry.encoding}"
    table = dec.named.dpp16
    mn = dec.named.dpp8.get(key)
    allowed = table.get("mods", {}).get(key)
    if mn is None or allowed is None or len(buf) - off < 8:
        return None, 4
    dpp = int.from_bytes(buf[off + 4:off + 8], "little")
    bits = (dpp >> 20) & 15
    if bits & ~allowed:
        return None, 4
    ctrl = table["ctrl"][(dpp >> 8) & 0x1FF]
    got = dpp_parts(dec, entry, word, dpp & 0xFF)
    if got is None or ctrl is None:
        return None, 4
    texts, mods, i0, i1 = got
    bits &= table.get("shown", {}).get(key, allowed)  # accepted bits LLVM leaves unprinted (``named.py``)
    for k, neg, ab in ((i0, bits & 1, bits & 2), (i1, bits & 4, bits & 8)):
        if k is not None:
            t = texts[k]
            if ab and k == i1 and dec.gfx == "GFX12" and entry.name == "v_cndmask_b32" and k + 1 < len(texts):
                # gfx1200, gfx1250 (llvm-mc-22): src1's closing bar comes after the carry-in, ``|v143, vcc_lo|``
                t = f"|{t}, {texts.pop(k + 1)}|"
            else:
                t = f"|{t}|" if ab else t
            texts[k] = "-" + t if neg else t
    mods += [ctrl, f"row_mask:0x{dpp >> 28:x}", f"bank_mask:0x{(dpp >> 24) & 15:x}"]
    if dpp >> 19 & 1:
        mods.append("bound_ctrl:1")
    if dpp >> 18 & 1:
        mods.append("fi:1")
    return join(mn, texts, mods), 8
