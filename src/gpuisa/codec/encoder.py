"""Table-driven AMD GPU assembler (LLVM's syntax) - the inverse of the decoder.

An instruction line is split into mnemonic, operands and modifiers
(``syntax.py``); the candidate entries are those with that LLVM mnemonic (or,
for a bare name such as ``v_add_f32``, every encoding of the instruction,
32-bit forms first, as LLVM prefers).  Each operand is parsed back through
the entry's print plan: register fields, source values with literals, token
templates (``-x``, ``|x|``), modifier words; unspecified fields keep the
plan's silent defaults.  The first candidate that accepts every operand wins.

One candidate against one plan, one handler per operand and modifier kind, is ``encode_plan.py``; what the
encoder hands out and its pure helpers are in ``encoded.py``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .. import archs
from . import asm_rules, dpp16, sdwa, simm16, special, tensor, vop3dpp
from . import operands as opd
from .encode_plan import encode_form
from .encoded import MEMORY_ENCODINGS, Encoded, EncodeError, float_bits  # noqa: F401
from .plans import load_plans
from .syntax import split_operands
from .tables import ArchTables, Entry, load_arch_tables

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .decoder import Decoder
    from .plans import OperandPlan, Plan

_COMMENT = re.compile(r"/\*.*?\*/")


class Encoder:
    def __init__(self, arch: str, wave64: bool = False, syntax16: str | None = None):
        a = archs.resolve_arch(arch)
        self.arch = a.name
        self.syntax16 = archs.syntax16_mode(a, syntax16)  # None: LLVM 22's default 16-bit syntax
        self.tables: ArchTables = load_arch_tables(self.arch)
        self.plans = load_plans(self.arch, wave64, self.syntax16)
        self.features = archs.by_name(self.arch).features
        self.gfx = self.tables.gfx.split(".")[0]
        self.wave64 = wave64
        from .named import load_named

        self.named = load_named(self.arch)

    def decoder(self, wave64: bool = False) -> Decoder:
        """The scalar decoder of this architecture (wave32 unless asked): the rule modules (``dpp16``, ``sdwa``,
        ``vop3dpp``) decode a word they built to check it; they get it here, never by importing the decoder."""
        from .decoder import get_decoder

        return get_decoder(self.arch, wave64, self.syntax16)

    def candidates(self, mnemonic: str) -> list[Entry]:
        t = self.tables
        found = list(t.by_mnemonic.get(mnemonic, []))
        base = mnemonic
        for suf in ("_e32", "_e64"):
            if base.endswith(suf):
                base = base[: -len(suf)]
        for e in t.by_name.get(base, []):
            plan = self.plans.get(f"{e.name}|{e.encoding}")
            # an explicit size suffix LLVM does not print (v_nop_e32) names the 32- or 64-bit form
            suffixed = mnemonic == base + ("_e32" if e.width == 32 else "_e64")
            if e not in found and (base == mnemonic or suffixed or (plan and plan.mnemonic == mnemonic)):
                found.append(e)
        found.sort(key=lambda e: e.width)
        return found

    def encode_line(self, text: str) -> Encoded:
        text = " ".join(_COMMENT.sub("", text).strip().split())  # /* ... */ comments (LLVM's notes) are blanks
        text = _DIM.sub(r"dim:SQ_RSRC_IMG_\1", text)  # dim:2D is LLVM's short spelling of dim:SQ_RSRC_IMG_2D
        text = _MOD_LIST.sub(lambda m: m.group(1) + "[" + ",".join(x.strip() for x in m.group(2).split(",")) + "]", text)
        text = _SWIZZLE_ARGS.sub(lambda m: "swizzle(" + "".join(m.group(1).split()) + ")", text)  # (ds_swizzle_b32)
        if "acc" in text:
            text = _ACC_NAME.sub("a", text)
        if "abs(" in text:
            text = _ABS.sub(r"|\1|", text)  # abs(x) is LLVM's other spelling of |x| (abs(-x) it refuses)
        if not text:
            raise EncodeError("empty instruction")
        mnemonic = text.split()[0].lower()
        if self.wave64 and 64 not in self.features.waves:
            raise EncodeError(f"{self.arch} runs wave32 only; drop --wave64")
        asm_rules.check_text(self, text)  # (``asm_rules.py``: gfx90a+ lds_direct)
        alias = _alias(self.named.aliases, mnemonic)
        if alias is not None and not self.candidates(mnemonic):  # a name LLVM's assembler also accepts
            text, mnemonic = alias + text[len(mnemonic):], alias
        if " :: " in text and bool(self.named.vopd):
            if self.wave64:
                raise EncodeError("dual-issue (VOPD) instructions exist in wave32 only; drop --wave64")
            return self._encode_vopd(text)
        if self.tables.gfx != "GFX9" and not mnemonic.endswith(_SUFFIXES) and (_DPP_CTRL.search(text) or "dpp8:[" in text):
            got = self._inferred_dpp(text, mnemonic)  # (LLVM picks a DPP form for a bare name with DPP modifiers)
            if got is not None:
                return got
        if self.named.vop3dpp and ("_dpp" in mnemonic or "dpp8:[" in text or "row_mask:" in text):
            got = vop3dpp.encode_vop3dpp(self, text, mnemonic)  # GFX11/GFX12 VOP3 DPP (``vop3dpp.py``)
            if got is not None:
                return got
        if mnemonic.endswith("_dpp") and "dpp8:[" in text and self.named.dpp8:
            return self._encode_dpp8(text, mnemonic)
        if self.tables.gfx == "GFX9" and not mnemonic.endswith(("_dpp", "_sdwa")) and _DPP_CTRL.search(text):
            text, mnemonic = mnemonic + "_dpp" + text[len(mnemonic):], mnemonic + "_dpp"  # (LLVM infers DPP)
        if mnemonic.endswith("_dpp"):
            got = dpp16.encode_dpp16(self, text, mnemonic)  # 32-bit DPP16 forms (``dpp16.py``)
            if got is not None:
                return got
        if mnemonic.endswith("_sdwa") and self.named.sdwa:
            return sdwa.encode_sdwa(self, text, mnemonic)  # GFX9/GFX10 SDWA (``sdwa.py``)
        cands = self.candidates(mnemonic)
        if not cands and mnemonic in tensor.MNEMONICS and self.arch in tensor.ARCHS:
            return tensor.encode(text, mnemonic)  # gfx1250's tensor movers (``tensor.py``: no image encoding)
        if not cands:
            raise EncodeError(self._unknown(mnemonic))
        ops, mods = split_operands(text)
        errors = []
        for e in cands:
            plan = self.plans.get(f"{e.name}|{e.encoding}")
            if plan is None:
                errors.append(f"{e.encoding}: no operand syntax known")
                continue
            if e.encoding in ("SOPP", "SOPK") and simm16.special_form(plan):  # named SIMM16 fields (``simm16.py``)
                try:
                    return simm16.encode(self, e, plan, text)
                except EncodeError as exc:
                    errors.append(f"{e.encoding}: {exc}")
                    continue
            forms = [plan] + [alt for by_value in plan.alternatives.values() for alt in by_value.values()]
            for form in forms:  # the base operand list, then those a field value selects (SADDR off)
                try:
                    return self._encode(e, form, ops, mods)
                except EncodeError as exc:
                    errors.append(f"{e.encoding}: {exc}")
        raise EncodeError(f"{text!r} does not assemble for {self.arch}: " + "; ".join(errors[:3]))

    def plain_form(self, text: str, size: int, encoding: str, errors: list) -> Encoded | None:
        """``text`` assembled in ``encoding`` as ``size`` bytes (the plain form a DPP or SDWA form is made from);
        None, with the reason added to ``errors``, where it does not assemble so."""
        try:
            got = self.encode_line(text)
        except EncodeError as exc:
            errors.append(str(exc))
            return None
        if len(got.data) != size or got.encoding != encoding:
            errors.append(f"no {8 * size}-bit {encoding} form" + (" without a literal" if size == 8 else ""))
            return None
        return got

    def _encode_dpp8(self, text: str, mnemonic: str) -> Encoded:
        """``X_dpp ... dpp8:[l0..l7] [fi:1]``: the e32 form with src0 = 0xE9 (0xEA with fi:1), then the DPP8 dword."""
        ops, mods = split_operands(text)
        lanes = next((m for m in mods if m.startswith("dpp8:[")), "")
        fi = "fi:1" in mods
        rest = [m for m in mods if m not in (lanes, "fi:1", "fi:0")]
        try:
            sel = [int(x) for x in lanes[6:-1].split(",")]
        except ValueError:
            sel = []
        src0 = ops[1] if len(ops) > 1 else ""
        half = src0.endswith((".l", ".h"))  # a true16 half: bit 7 of the DPP8 dword's source picks .h
        r = opd.parse_reg(src0[:-2] if half else src0)
        if len(sel) != 8 or any(not 0 <= x < 8 for x in sel) or r is None or r[0] != "v" or r[2] != 1 or r[1] > 255 \
                or (half and r[1] > 127):
            raise EncodeError(f"{text!r}: expected src0 a VGPR and dpp8:[eight lane numbers 0..7]")
        for key, mn in self.named.dpp8.items():
            if mn != mnemonic:
                continue
            plan = self.plans[key]
            if r[1] > 127 and dpp16.src0_lo128(self, key, plan, 1):  # (a 16-bit source: the VOP3 DPP8 form)
                continue
            e32 = " ".join([plan.mnemonic, ", ".join([ops[0], "v0.l" if half else "v0", *ops[2:]])] + rest)
            try:
                got = self.encode_line(e32)
            except EncodeError:
                continue
            if len(got.data) != 4 or got.encoding != key.split("|")[1]:
                continue
            f = self.tables.encodings[got.encoding].require_field("SRC0")
            word = f.insert(int.from_bytes(got.data, "little"), 0xEA if fi else 0xE9)
            dpp = r[1] | (128 if src0.endswith(".h") else 0)
            for i, lane in enumerate(sel):
                dpp |= lane << (8 + 3 * i)
            return Encoded(word.to_bytes(4, "little") + dpp.to_bytes(4, "little"), got.encoding, got.name,
                           dict(got.fields, SRC0=0xEA if fi else 0xE9), None)
        raise EncodeError(f"{text!r} does not assemble for {self.arch}: no DPP8 form of {mnemonic}")

    def _inferred_dpp(self, text: str, mnemonic: str) -> Encoded | None:
        """A bare name with DPP modifiers (GFX10+), as llvm-mc-22 reads it: the 32-bit DPP form (``X_dpp``, or a
        VOPC's DPP mnemonic without the suffix), else the VOP3 one (``X_e64_dpp``; VOP3P: ``X``); None where no
        form has such a name (an ``_e32``/``_e64`` name with DPP modifiers is refused: the caller goes on)."""
        rest = text[len(mnemonic):]
        dpp8 = "dpp8:[" in text
        tries: list = []
        for mn in (mnemonic, mnemonic + "_dpp"):
            if dpp8 and mn in self.named.dpp8.values():
                tries.append(lambda mn=mn: self._encode_dpp8(mn + rest, mn))
            elif not dpp8:
                tries.append(lambda mn=mn: dpp16.encode_dpp16(self, mn + rest, mn))
        if self.named.vop3dpp:
            for mn in (mnemonic + "_e64_dpp", mnemonic):
                tries.append(lambda mn=mn: vop3dpp.encode_vop3dpp(self, mn + rest, mn))
        errors: list[str] = []
        for attempt in tries:
            try:
                got = attempt()
            except EncodeError as exc:
                errors.append(str(exc))
                continue
            if got is not None:
                return got
        if errors:
            raise EncodeError(errors[0])
        return None

    def _encode_vopd(self, text: str) -> Encoded:
        enc = self.tables.encodings["VOPD"]
        got = special.vopd_fields(enc, self.gfx, self.named, text, self.tables.gfx == "GFX12.5")
        if got is None:
            raise EncodeError(f"{text!r} does not assemble for {self.arch}: no dual-issue (VOPD) pair matches")
        values, lit = got
        word = enc.fixed_value
        for fname, v in values.items():
            f = enc.require_field(fname)
            if not 0 <= v < (1 << f.width):  # (v300 in an 8-bit register field: LLVM's "register index is out of range")
                raise EncodeError(f"a register or value does not fit the {f.width}-bit field {fname} ({v})")
            word |= f.place(v)
        data = word.to_bytes(8, "little") + (b"" if lit is None else lit.to_bytes(4, "little"))
        return Encoded(data, "VOPD", text.split()[0], values, lit)

    def _unknown(self, mnemonic: str) -> str:
        from .tables import codec_store

        st = codec_store()
        base = mnemonic
        for suf in ("_e32", "_e64", "_sdwa", "_dpp"):
            if base.endswith(suf):
                base = base[: -len(suf)]
        from .processors import only_on

        procs = only_on(self.arch, base)
        if procs:  # (a processor of this generation has it: gfx1011's dot instructions)
            return f"{base} is not on {self.arch}'s default target; {', '.join(procs)} only (--arch {procs[0]})"
        have = st.instruction_archs(base)
        if have:
            return (f"{base} is not in {self.arch}; it exists in "
                    f"{', '.join(archs.generation_order([a for a in have if a != self.arch]))}")
        return f"unknown instruction {mnemonic} for {self.arch}"

    # -- one candidate ---------------------------------------------------
    def _encode(self, e: Entry, plan: Plan, ops: list[str], mods: list[str]) -> Encoded:
        """``e`` assembled with ``plan`` (``encode_plan.py``: one handler per operand kind and modifier kind)."""
        return encode_form(self, e, plan, ops, mods)

    def _finish(self, e: Entry, enc, values: dict[str, int], lit: int | None, specs: list) -> Encoded:
        word = enc.fixed_value
        if enc.op_field and e.opcode is not None:
            word |= enc.field(enc.op_field).place(e.opcode)
        for fname, v in values.items():
            f = enc.require_field(fname)
            if not 0 <= v < (1 << f.width):  # (v300 in an 8-bit register field: LLVM's "register index is out of range")
                raise EncodeError(f"a register or value does not fit the {f.width}-bit field {fname} ({v})")
            word |= f.place(v)
        data = word.to_bytes(enc.width // 8, "little")
        if self.features.literal64 and any(v == opd.LITERAL64 for f, v in values.items() if f.startswith(("SRC", "SSRC"))):
            data += (lit or 0).to_bytes(8, "little")  # gfx1250: a 64-bit literal
        elif lit is not None or any(s.kind == "lit" for s in specs):
            data += (lit or 0).to_bytes(4, "little")
        return Encoded(data, e.encoding, e.name, values, lit)

    def _smem_soffset(self, ops, mods, specs, values):
        """GFX9 scalar memory ``sN offset:X``: SOFFSET=N, SOFFSET_EN=1, IMM=1, OFFSET=X (the decoder's forms)."""
        given = [m for m in mods if m.startswith("offset:")]
        if not given:
            return ops, mods
        k = next(i for i, s in enumerate(specs) if s.imm_if)
        if k >= len(ops):
            return ops, mods
        reg = opd.parse_src(self.gfx, ops[k], 1)
        if reg is None or reg[1] is not None or reg[0] >= 128:
            raise EncodeError(f"{ops[k]!r}: expected an SGPR before {given[0]}")
        try:
            off = int(given[0].split(":", 1)[1], 0)
        except ValueError:
            raise EncodeError(f"modifier {given[0]!r}: expected an integer") from None
        if not -(1 << 20) <= off < (1 << 20):
            raise EncodeError(f"modifier {given[0]} is out of range for the 21-bit offset")
        values.update(SOFFSET=reg[0], SOFFSET_EN=1)
        return ops[:k] + [hex(off) if off >= 0 else f"-0x{-off:x}"] + ops[k + 1:], [m for m in mods if m not in given]

    def _kind_text(self, spec: OperandPlan) -> str:
        n = spec.count
        what = {"src": "source operand", "ssrc": "scalar operand", "vreg": "vector register"}.get(spec.kind or "", "operand")
        return f"{32 * n}-bit {what}" + (f" like {spec.text}" if spec.text else "")

    def _check_source_kind(self, e: Entry, k: int, tok: str, v: int, agpr: bool) -> None:
        """Refuse a kind of source value LLVM's assembler refuses in this operand (learned: named
        ``src_rejects``, ``regen/accepts.py``): WMMA's VGPR-only A and B, GFX9 VOP3 literals, ..."""
        rej = self.named.src_rejects.get(f"{e.name}|{e.encoding}", {}).get(str(k))
        if not rej or agpr:
            return
        kind = "l" if v in (opd.LITERAL, opd.LITERAL64) else "v" if v >= 256 else \
            "i" if 128 <= v <= 208 or 240 <= v <= 248 else "s"  # (src_shared_base and its kin are no constants)
        plan = self.plans.get(f"{e.name}|{e.encoding}")
        if kind == "l" and plan is not None and any(s.kind == "lit" for s in plan.operands):
            return  # (beside a constant K: the same value, one literal -- ``encode_plan``'s literal check, llvm-mc-22)
        if kind in rej:
            what = {"s": "SGPR", "v": "VGPR", "i": "inline constant", "l": "literal"}[kind]
            raise EncodeError(f"operand {k + 1} {tok!r}: {e.mnemonic} takes no {what} there")

    def _literal64(self, tok: str, size: int, is_float: bool) -> tuple[int, int] | None:
        """gfx1250 (probed with llvm-mc-22): a 64-bit operand takes a 64-bit literal (source 254) for
        ``lit(X)``/``lit64(X)``, an f64 value past 32 bits (a 32-bit literal is its high dword) or an integer
        outside 0..2^31-1 (a 32-bit literal would not extend to it); ``lit64(X)`` elsewhere is a plain literal."""
        wrapped = tok.startswith(("lit(", "lit64(")) and tok.endswith(")")
        try:
            n = int(tok[tok.index("(") + 1:-1] if wrapped else tok, 0)
        except ValueError:
            return None
        if size != 64:
            return (opd.LITERAL, n & 0xFFFFFFFF) if tok.startswith("lit64(") else None
        fits = 0 <= n < (1 << 32) if is_float else 0 <= n < (1 << 31)
        if wrapped or (not fits and -(1 << 63) <= n < (1 << 64) and not -16 <= n <= 64):  # (-16..-1: inline, f64 too)
            return opd.LITERAL64, n & ((1 << 64) - 1)
        return None

    def _parse_src(self, tok: str, n: int, size: int, is_float: bool, allow_vgpr: bool):
        if self.features.literal64:
            got64 = self._literal64(tok, size, is_float)
            if got64 is not None:
                return got64
        got = opd.parse_src(self.gfx, tok, n)
        if got is not None and got[0] in (251, 252) and got[1] is None and not self.features.src_vccz_execz:
            return None  # (src_vccz, src_execz: llvm-mc-22 says not available on GFX11 and later)
        if got is not None and tok.startswith("lit("):
            return got  # a literal LLVM keeps even where an inline constant would do
        if got is not None:
            v, litv = got
            if v >= 256 and not allow_vgpr:
                return None
            if litv is not None:
                if is_float:
                    bits = litv & (0xFFFF if size == 16 else 0xFFFFFFFF)
                    name = opd.FLOAT_BITS.get(size, {}).get(bits)
                    if size in (16, 32) and bits == opd.INV_2PI_BITS[size]:
                        name = "0.15915494"  # (1/(2*pi) written in hex is the inline constant too: llvm-mc-22)
                    if name is not None:
                        return opd.parse_src(self.gfx, name, n)
                return v, litv
            return got
        b = float_bits(tok, size)
        if b is not None:
            return opd.LITERAL, b
        return None


_ENCODERS: dict[tuple[str, bool, str | None], Encoder] = {}


_DPP_CTRL = re.compile(r"\b(?:quad_perm|row_(?:shl|shr|ror|mirror|half_mirror|bcast|newbcast|share|xmask)"
                       r"|wave_(?:shl|shr|rol|ror)|row_mask|bank_mask)\b")
_SUFFIXES = ("_dpp", "_sdwa", "_e32", "_e64")
_SWIZZLE_ARGS = re.compile(r"swizzle\(([^)]*)\)")
_ACC_NAME = re.compile(r"\bacc(?=\d|\[)")  # acc0, acc[0:3]: LLVM's other spelling of the AGPRs a0, a[0:3]
_ABS = re.compile(r"\babs\(\s*([^()\s|-][^()]*?)\s*\)")
_DIM = re.compile(r"\bdim:(?!SQ_)([123]D\w*|CUBE\w*)")
_MOD_LIST = re.compile(r"\b(\w+:)\[([^\]]*)\]")  # a modifier's list written with spaces: op_sel:[1, 0]
def get_encoder(arch: str, wave64: bool = False, syntax16: str | None = None) -> Encoder:
    """The shared encoder of ``arch`` (wave64; ``syntax16``: true16/fake16 or LLVM's +real-true16/-real-true16)."""
    key = (arch, wave64, syntax16)
    if key not in _ENCODERS:
        _ENCODERS[key] = Encoder(arch, wave64, syntax16)
    return _ENCODERS[key]


def strip_comment(line: str) -> str:
    for mark in ("//", ";"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip()


def _alias(aliases: Mapping[str, str], mnemonic: str) -> str | None:
    """LLVM's mnemonic for an alias; one recorded with its _e32/_e64 suffix also stands without it
    (``v_ffbh_i32`` is ``v_cls_i32`` on GFX11+, llvm-mc-22)."""
    if mnemonic in aliases:
        return aliases[mnemonic]
    for suffix in ("_e32", "_e64"):
        got = aliases.get(mnemonic + suffix)
        if got is not None and got.endswith(suffix):
            return got[: -len(suffix)]
    return None


def encode(arch: str, text: str, wave64: bool = False, syntax16: str | None = None) -> bytes:
    """Assemble one or more instructions (one per line; ``;``/``//`` comments) into bytes."""
    return encode_lines(get_encoder(arch, wave64, syntax16), text)


def encode_lines(enc, text: str) -> bytes:
    """``text``'s instructions (one per line; comments and labels skipped) through the encoder ``enc``; an error
    names the line."""
    out = bytearray()
    for lineno, line in enumerate(text.splitlines(), 1):
        line = strip_comment(line)
        if not line or line.endswith(":"):
            continue
        try:
            out += enc.encode_line(line).data
        except EncodeError as exc:
            raise EncodeError(f"line {lineno}: {exc}") from None
    return bytes(out)
