"""Table-driven AMD GPU disassembler (LLVM's syntax).

Decoding one instruction: the first dword's top bits select candidate
decode classes (fixed encoding bits), the opcode field selects the entry
(instruction + encoding), the entry's print plan turns field values into
operands and modifiers.  Invalid bytes produce an invalid ``Decoded`` with
the reason and decoding resumes at the next dword, as LLVM does.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass

from .. import archs
from . import operands as opd
from . import gfx9, image, rdna, sdwa, special, vop3dpp
from .named import load_named
from .plans import load_plans
from .syntax import join
from .fastpath import FastPath, dwords
from .tables import ArchTables, Entry, load_arch_tables

_TYPE = re.compile(r"_([fiubp]k?)(8|16|32|64|128)(?=_|$)")
MOD_ORDER = ["format", "idxen", "offen", "addr64", "offset", "offset0", "offset1", "scale_offset", "dmask", "dim", "unorm", "glc", "sc0", "slc",
             "nt", "sc1", "dlc", "scc", "th", "scope", "r128", "a16", "tfe", "lds", "lwe", "da", "d16", "gds", "nv",
             "op_sel", "op_sel_hi", "neg_lo", "neg_hi", "clamp", "mul", "div", "byte_sel", "wait_exp", "wait_va_vdst",
             "wait_vdst", "wait_vm_vsrc", "cbsz", "abid", "blgp"]
_MOD_RANK = {m: i for i, m in enumerate(MOD_ORDER)}
_PACKED16 = re.compile(r"^v_(dot2(c|acc)?_|pk_)")
# VINTERP prints clamp before op_sel; VSAMPLE prints nv right after scope, before r128 (probed with llvm-mc-22 on
# gfx1100/gfx1200)
_MOD_RANK_BY_ENCODING = {"VINTERP": {**_MOD_RANK, "clamp": _MOD_RANK["op_sel"] - 0.5},
                         "VSAMPLE": {**_MOD_RANK, "nv": _MOD_RANK["scope"] + 0.5}}


class _LazyMap:
    """A dataclass field computed on first read for instructions the fast path decoded."""

    def __set_name__(self, owner, name):
        self.key = "_" + name
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return None  # the dataclass default
        v = obj.__dict__.get(self.key)
        if v is None:
            src = obj.__dict__.get("_src")
            v = obj.__dict__[self.key] = src[0]._lazy(self.name, src[1], src[2], obj) if src else {}
        return v

    def __set__(self, obj, value):
        obj.__dict__[self.key] = value


@dataclass
class Decoded:
    """One decoded instruction (or invalid dword) at ``offset``."""

    offset: int
    data: bytes
    text: str | None
    valid: bool
    encoding: str | None = None
    name: str | None = None
    fields: dict[str, int] = _LazyMap()
    meanings: dict[str, str] = _LazyMap()  # field -> operand text it selects
    error: str | None = None
    target: int | None = None  # branch target offset

    def to_json(self) -> dict:
        return {"offset": self.offset, "bytes": self.data.hex(), "text": self.text, "encoding": self.encoding,
                "fields": dict(self.fields), "valid": self.valid, "error": self.error}


class DecodeError(ValueError):
    pass


def operand_type(mnemonic: str) -> tuple[int, bool]:
    """(size in bits, is float) of the instruction's source type from its name."""
    found = _TYPE.findall(mnemonic.replace("_e32", "").replace("_e64", ""))
    if not found:
        return 32, False
    kind, bits = found[-1]
    if bits == "16" and _PACKED16.match(mnemonic):  # packed 16-bit sources (dot2, pk): 32-bit values
        return 32, kind == "f" or kind == "bf"
    return int(bits), kind == "f" or kind == "bf"


def literal_type(name: str, osize: int, is_float: bool) -> str:
    """How a literal read by a source of instruction ``name`` prints by default (``operands.literal_token``);
    the types LLVM gives some sources differ and are learned (``regen/literals.py``, named ``literal_types``)."""
    found = _TYPE.findall(name)
    bits = found[-1][1] if found else "32"
    packed = bits == "16" and bool(_PACKED16.match(name))
    return opd.literal_type(osize, is_float, packed, name.startswith(("v_fma_mix", "v_mad_mix")), "bf16" in name)


def default_literal_type(name: str, spec: dict, mnemonic: str) -> str:
    """The default literal type of source ``spec`` of a plan (as the decoder computes it)."""
    tsize, is_float = operand_type(mnemonic)
    if "table" in spec:
        return literal_type(name, 16, is_float)
    cnt = spec.get("n", 1)
    return literal_type(name, 64 if cnt == 2 and tsize != 16 else (16 if tsize == 16 else 32), is_float)


def _merge_split_immediate(mods: list[str], name: str) -> list[str]:
    """One ``name:N`` for an immediate whose bits lie in several fields, each printing its own part
    (``v_bitop3``: NEG, ABS, OMOD hold bits 2:0, 5:3, 7:6); LLVM prints the sum, decimal up to 10 (probed)."""
    parts = [x for x in mods if x.startswith(name + ":")]
    total = sum(int(x.split(":", 1)[1], 0) for x in parts)
    rest = [x for x in mods if not x.startswith(name + ":")]
    return rest + [f"{name}:{total if total <= 10 else hex(total)}"]


def split_immediate_fields(plan: dict, token: str) -> list[tuple[str, int]] | None:
    """The encoder's side of ``_merge_split_immediate``: the value of each field that prints a part of
    ``name:N`` (each field's parts are disjoint bits); None if ``token`` is not such a modifier."""
    name, _, num = token.partition(":")
    try:
        n = int(num, 0)
    except ValueError:
        return None
    out, covered = [], 0
    for fname, mod in plan.get("mods", {}).items():
        parts = {int(v): int(add[0].split(":", 1)[1], 0) for v, (add, _) in mod.get("v", {}).items()
                 if len(add) == 1 and add[0].startswith(name + ":")}
        if not parts:
            continue
        mask = 0
        for x in parts.values():
            mask |= x
        want = n & mask
        v = next((v for v, x in parts.items() if x == want), 0 if want == 0 else None)
        if v is None:
            return None
        out.append((fname, v))
        covered |= mask
    return out if out and n & ~covered == 0 else None


def _acc(spec: dict, fields: dict[str, int]) -> bool:
    acc = spec.get("acc")
    return bool(acc) and bool(fields.get(acc[0], 0) & acc[1])


def _returning(plan: dict, fields: dict[str, int]) -> bool:
    """An atomic whose return bit (GLC/SC0) is set: it prints VDST first."""
    ret = plan.get("ret")
    return ret is not None and bool(fields.get(ret["f"], 0) & ret.get("bit", -1))


def _is_immediate(spec: dict, fields: dict[str, int]) -> bool:
    """A 9-bit source field selecting an inline constant or the literal (not a register)."""
    if spec.get("k") != "src" or spec.get("f") not in fields:
        return False
    v = fields[spec["f"]]
    return 128 <= v <= 208 or 240 <= v <= 248 or v == opd.LITERAL


def _fmt_imm(v: int, width: int, hexa: bool | int, signed: bool) -> str:
    """``hexa``: True (hex), False (decimal) or a number N (decimal up to N, hex above; GFX9 plans)."""
    if signed and v >= 1 << (width - 1):
        v -= 1 << width
    if hexa is not True and hexa is not False and 0 <= v <= hexa:
        return str(v)
    if hexa:
        return f"-0x{-v:x}" if v < 0 else f"0x{v:x}"
    return str(v)


class Decoder:
    def __init__(self, arch: str, wave64: bool = False):
        self.arch = archs.resolve_arch(arch).name
        self.tables: ArchTables = load_arch_tables(self.arch)
        self.plans = load_plans(self.arch, wave64)
        self.gfx = self.tables.gfx.split(".")[0]
        self.features = archs.by_name(self.arch).features
        self.named = load_named(self.arch)
        self._literal_types = {k: v for k, v in self.named.get("literal_types", {}).items() if v in opd.LITERAL_TYPES}
        self.fast = FastPath(self)
        self.dpp8 = bool(self.named.get("dpp8"))
        self.vop3dpp = bool(self.named.get("vop3dpp", {}).get("dpp16"))
        self.sdwa = bool(self.named.get("sdwa", {}).get("mn"))
        self.dpp_gfx9 = bool(self.named.get("dpp_gfx9", {}).get("mn"))
        vopd = self.tables.encodings.get("VOPD")
        # dual issue (VOPD) exists in wave32 only: in wave64 its words decode as nothing, as LLVM's do
        self.vopd = (vopd.fixed_mask, vopd.fixed_value) if vopd is not None and "vopd" in self.named and not wave64 \
            else None
        self.wave64 = wave64

    # -- one instruction -------------------------------------------------
    def decode_at(self, buf: bytes, off: int) -> Decoded:
        if len(buf) - off >= 8:
            dw = int.from_bytes(buf[off:off + 4], "little")
            c = self.fast.pick.get(dw) or self.fast.choose(dw)
            if c and c[1] <= 64:
                entry, width = c
                word = dw if width == 32 else int.from_bytes(buf[off:off + 8], "little")
                r = self.fast.done.get(word)
                if r is None or r[0] is None:
                    r = self.fast.text_of(entry, width, word, buf, off)
                text, size = r[0], r[1]
                if text is not None:
                    return _quick(off, bytes(buf[off:off + size]), text, entry, (self, entry, word))
        return self._decode_slow(buf, off)

    def _lazy(self, what: str, entry: Entry, word: int, d: Decoded) -> dict:
        if what == "fields":
            enc = self.tables.encodings[entry.encoding]
            return {f.name: f.extract(word) for f in enc.fields if f.value is None}
        return self._render(entry, word, d.data + b"\0" * 8, 0).meanings

    def _operand_alone(self, entry: Entry, k: int, v: int):
        """Text of operand ``k`` (a register, plain source or immediate) for field value ``v``; False if it needs more."""
        plan = self.plans[f"{entry.name}|{entry.encoding}"]
        spec = plan["ops"][k]
        kind = spec["k"]
        enc = self.tables.encodings[entry.encoding]
        if kind == "vreg":
            if v + spec["n"] > 256:
                return False
            t = opd.reg_text(spec.get("c", "v"), v, spec["n"])
            if v >= 128 and "note" in spec:
                return t + spec["note"]
            return t + spec["anote"] if v & 1 and "anote" in spec else t  # (an odd start of an aligned tuple)
        if kind == "imm":
            f = enc.field(spec["f"])
            if self._hex_above_64(entry, k):
                return False  # printed unlike other immediates with the same spec: not shared with their memo
            return _fmt_imm(v, f.width, spec["hex"], spec["signed"])
        tsize, is_float = operand_type(entry.mnemonic)
        v *= spec.get("s", 1)
        if (v == opd.LITERAL or (v == opd.LITERAL64 and self.features.literal64)) and spec.get("s", 1) == 1:
            return False  # (its text comes from the dwords after the instruction)
        cnt = spec["n"]
        if kind == "ssrc" and entry.encoding == "SMEM" and rdna.smem_null(self, spec, v):
            return False  # printed with the offset's value (``rdna.smem_null_offset``)
        tab = self._src_table(entry, k) if kind in ("src", "ssrc") else None
        if tab is not None:
            return False if tab[v] is None or "{}" in tab[v] else tab[v]
        osize = 64 if cnt == 2 and tsize != 16 else (16 if tsize == 16 else 32)
        t = opd.src_text(self.gfx, v, cnt, osize, is_float, 256 if kind == "src" else None)
        if kind == "src" and v - 256 + cnt > 256:
            return False
        if t is not None and v >= 256 and kind == "src":
            t += self._src_notes(entry, plan, k, spec, v)
        if t is None and kind == "ssrc" and v < 256:
            t = opd.src_text(self.gfx, v, cnt, osize, is_float, None)
        if v == 254 and kind == "ssrc" and cnt == 1:
            t = f"src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/"
        return False if t is None else t

    def _src_notes(self, entry: Entry, plan: dict, k: int, spec: dict, v: int) -> str:
        """LLVM's note after a VGPR source: its class excludes v128 and up (``_src_note``), or the tuple must
        start on an even register (``anote``: VS_64_Align2)."""
        note = self._src_note(entry, plan, k) if v >= 384 else ""
        return note or (spec["anote"] if v & 1 and "anote" in spec else "")

    def _hex_above_64(self, entry: Entry, k: int) -> bool:
        """Immediate ``k`` is printed in hex above 64 (probed, ``named.py``)."""
        return k in self.named.get("imm_hex_above_64", {}).get(f"{entry.name}|{entry.encoding}", ())

    def _src_table(self, entry: Entry, k: int, acc: bool = False) -> list | None:
        """LLVM's token for each value of source ``k`` where its register class is restricted (``named.py``,
        ``gfx9.py``; with ``acc`` the table for the operand's AGPR bit set, GFX9); "{}" in a token stands for
        our own text.  Learned in wave32, so not used for wave64 (GFX9 has wave64 only)."""
        st = self.named.get("src_tables")
        if not st or (self.wave64 and self.gfx != "GFX9"):
            return None
        i = st["ops"].get(f"{entry.name}|{entry.encoding}", {}).get(str(k) + ("a" if acc else ""))
        return None if i is None else st["tables"][i]

    def _src_note(self, entry: Entry, plan: dict, k: int) -> str:
        """Comment after a source naming a VGPR >= 128: probed per operand where known, else the plan's.
        (For a source with a token table the value only tells operands apart, for the fast path's memos.)"""
        if self._src_table(entry, k) is not None:
            return f"/*table {self.named['src_tables']['ops'][f'{entry.name}|{entry.encoding}'][str(k)]}*/"
        notes = self.named.get("src_note", {}).get(f"{entry.name}|{entry.encoding}")
        if notes is not None and str(k) in notes:
            return notes[str(k)]
        return plan.get("lo128", "")

    def _decode_slow(self, buf: bytes, off: int) -> Decoded:
        n = len(buf) - off
        if n >= 8 and self.vopd is not None and int.from_bytes(buf[off:off + 4], "little") & self.vopd[0] == self.vopd[1]:
            return self._vopd(int.from_bytes(buf[off:off + 8], "little"), buf, off)
        if n < 4:
            return Decoded(off, bytes(buf[off:]), None, False, error=f"truncated: {n} byte(s) left, an instruction needs 4")
        dw = int.from_bytes(buf[off:off + 4], "little")
        reason = None
        for dc in self.tables.prefix_index[dw >> 23]:
            if dc.width > 32:
                nb = dc.width // 8
                if n < nb:
                    if dw & dc.mask & 0xFFFFFFFF == dc.value & 0xFFFFFFFF:
                        reason = f"truncated: {dc.name} needs {nb} bytes, {n} left"
                    continue
                word = int.from_bytes(buf[off:off + nb], "little")
            else:
                word = dw
            if word & dc.mask != dc.value:
                continue
            opcode = dc.op.extract(word) if dc.op is not None else -1
            entry = dc.entries.get(opcode)
            if entry is None:
                reason = reason or f"unknown opcode {opcode} in {'/'.join(dc.encodings)}"
                continue
            d = self._render(entry, word, buf, off)
            if not d.valid:
                d.data = bytes(buf[off:off + 4])  # resynchronise at the next dword, as LLVM does
            return d
        return Decoded(off, bytes(buf[off:off + 4]), None, False, error=reason or "no encoding matches these bits")

    def _vopd(self, word: int, buf: bytes, off: int) -> Decoded:
        text, size, error = special.vopd_text(self, word, buf, off)
        enc = self.tables.encodings["VOPD"]
        fields = {f.name: f.extract(word) for f in enc.fields if f.value is None}
        name = text.split()[0] if text else None
        return Decoded(off, bytes(buf[off:off + size]), text, text is not None, "VOPD", name, fields, {}, error)

    def _render(self, entry: Entry, word: int, buf: bytes, off: int, parts: list | None = None) -> Decoded:
        if entry.encoding == "VOPD" and self.vopd is not None:
            return self._vopd(word, buf, off)
        if self.dpp8 and entry.width == 32 and (word & 0x1FF) in (0xE9, 0xEA, 0xFA) and entry.encoding in ("VOP1", "VOP2", "VOPC"):
            dpp_text = special.dpp16_text if word & 0x1FF == 0xFA else special.dpp8_text
            text, size = dpp_text(self, entry, word, buf, off)
            if text is not None:
                enc = self.tables.encodings[entry.encoding]
                fields = {f.name: f.extract(word) for f in enc.fields if f.value is None}
                return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields)
        text = None
        if self.vop3dpp and entry.width == 64 and entry.encoding in vop3dpp.ENCODINGS and (word >> 32) & 0x1FF in (0xE9, 0xEA, 0xFA):
            text, size = vop3dpp.vop3dpp_text(self, entry, word, buf, off)  # GFX11/GFX12 VOP3 DPP
        elif self.sdwa and entry.width == 32 and word & 0x1FF == 0xF9 and entry.encoding in ("VOP1", "VOP2", "VOPC"):
            text, size = sdwa.sdwa_text(self, entry, word, buf, off)  # GFX9/GFX10 SDWA
        if text is not None:
            enc = self.tables.encodings[entry.encoding]
            fields = {f.name: f.extract(word) for f in enc.fields if f.value is None}
            return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields)
        if self.dpp_gfx9 and entry.width == 32 and word & 0x1FF == 0xFA and entry.encoding in ("VOP1", "VOP2", "VOPC"):
            text, size = gfx9.dpp_text(self, entry, word, buf, off)  # GFX9 DPP16
            if text is not None:
                enc = self.tables.encodings[entry.encoding]
                fields = {f.name: f.extract(word) for f in enc.fields if f.value is None}
                return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields)
        enc = self.tables.encodings[entry.encoding]
        size = entry.width // 8
        plan = self.plans.get(f"{entry.name}|{entry.encoding}")
        fields = {f.name: f.extract(word) for f in enc.fields if f.value is None}
        base = Decoded(off, bytes(buf[off:off + size]), None, False, entry.encoding, entry.name, fields)
        if plan is None:
            base.error = f"{entry.name} ({entry.encoding}): no operand syntax known for this architecture"
            return base
        for fname, by_value in plan.get("alt", {}).items():  # another operand list for this field's value
            plan = by_value.get(str(fields.get(fname)), plan)
        lds = self.named.get("lds_forms", {}).get(f"{entry.name}|{entry.encoding}") if self.gfx in ("GFX9", "GFX10") else None
        if lds is not None and fields.get(lds["f"]):  # GFX9 load into LDS: no data register (``gfx9.py``)
            if any(fields.get(f) for f in lds["zero"]):
                base.error = f"{entry.name}: {', '.join(lds['zero'])} must be 0 in a load into LDS"
                return base
            plan, parts = gfx9.lds_plan(self, f"{entry.name}|{entry.encoding}", plan, lds), None
        if word & self.named.get("must_zero", {}).get(entry.encoding, 0):
            base.error = f"{entry.name}: reserved bits of {entry.encoding} are set"
            return base
        bad_values = self.named.get("bad_values", {}).get(f"{entry.name}|{entry.encoding}", {})
        for fname, b in plan.get("bad", {}).items():
            b = bad_values.get(fname, b)  # every rejected value, where probed
            v = fields.get(fname)
            if v is None:
                continue
            f = enc.field(fname)
            if (b == "nonzero" and v != f.extract(plan["w"])) or (isinstance(b, list) and v in b) or \
                    (isinstance(b, list) and f.width == 8 and b[-1] == 128 and v > 128):  # a Lo128 register field
                base.error = f"reserved value {v} in field {fname} of {entry.name}"
                return base
        err = rdna.gfx12_buffer_offset_error(self, entry, fields)  # gfx1200: buffer offsets below 2**23
        if err is not None:
            base.error = err
            return base
        if self.gfx == "GFX9" and entry.name in gfx9.SCALAR_TEXT:
            text = gfx9.scalar_text(self, entry.name, fields)  # counters and message names (``gfx9.py``)
            if text is not None:
                return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields, {})
        if entry.encoding == "SOPP" and self.gfx != "GFX9" and entry.name in rdna.SOPP_PRINTED:
            text = rdna.scalar_text(self, entry, fields)  # learned counters and messages (``rdna.py``)
            if text is not None:
                return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields, {})
        if entry.encoding in ("EXP", "VEXPORT") and "exp_target" in self.named:
            text, base.error = special.export_text(self, plan["m"], fields)
            if text is None:
                return base
            return Decoded(off, bytes(buf[off:off + size]), text, True, entry.encoding, entry.name, fields, {})
        tsize, is_float = operand_type(entry.mnemonic)
        err, op_specs, nsa_text, addr, size = image.operand_counts(self, entry, enc, plan, fields, buf, off, size)
        if err is not None:  # register counts and address lists of image instructions (``image.py``)
            base.error = err
            return base
        texts: list[str] = []
        mods_extra: list[str] = []
        lit: int | None = None
        lit64: int | None = None
        meanings: dict[str, str] = {}
        for spec in op_specs:
            kind = spec.get("k")
            t = None
            if nsa_text is not None and spec.get("f") == "VADDR":
                t = nsa_text
                texts.append(t)
                meanings["VADDR"] = t
                continue
            if addr is not None and len(texts) == addr[0]:
                texts.append(addr[1])
                meanings["VADDR0"] = addr[1]
                continue
            if "imm_if" in spec and "SOFFSET_EN" in fields:  # GFX9 scalar memory: four offset forms
                t, extra = special.smem_offset(self, fields, enc.field(spec["f"]).width)
                if extra:
                    mods_extra.append(extra)
            elif "imm_if" in spec and fields.get(spec["imm_if"]):
                f = enc.field(spec["f"])
                t = _fmt_imm(fields[spec["f"]], f.width, True, True)
            elif kind == "src" or kind == "ssrc":
                v = fields[spec["f"]] * spec.get("s", 1)
                cnt = spec["n"]
                osize = 64 if cnt == 2 and tsize != 16 else (16 if tsize == 16 else 32)
                if v == opd.LITERAL64 and self.features.literal64 and entry.width == 32 and spec.get("s", 1) == 1:
                    if len(buf) - off < size + 8:  # gfx1250: the 64-bit literal after a 32-bit instruction
                        base.error = "truncated literal: 8 more bytes needed"
                        return base
                    lit64 = int.from_bytes(buf[off + size:off + size + 8], "little")
                    t = opd.literal64_token(lit64, osize == 64 and is_float, osize)
                elif v == opd.LITERAL and spec.get("s", 1) == 1:
                    if spec["f"] in self.named.get("no_literal", {}).get(f"{entry.name}|{entry.encoding}", ()):
                        base.error = f"{entry.name}: a literal is not allowed in field {spec['f']}"  # GFX9 (gfx9.py)
                        return base
                    if lit is None:
                        if len(buf) - off < size + 4:
                            base.error = "truncated literal: 4 more bytes needed"
                            base.data = bytes(buf[off:off + size])
                            return base
                        lit = int.from_bytes(buf[off + size:off + size + 4], "little")
                    t = opd.literal_token(lit, self._literal_types.get(f"{entry.name}|{entry.encoding}")
                                          or literal_type(entry.name, osize, is_float))
                else:
                    t = opd.src_text(self.gfx, v, cnt, osize, is_float, 256 if kind == "src" else None)
                    if kind == "src" and v - 256 + cnt > 256:
                        t = None  # a register tuple past the last VGPR
                    if v >= 256 and _acc(spec, fields) and t is not None:
                        t = "a" + t[1:]
                    if v >= 256 and kind == "src" and t is not None:
                        t += self._src_notes(entry, plan, op_specs.index(spec), spec, v)
                    if t is None and kind == "ssrc" and v < 256:
                        t = opd.src_text(self.gfx, v, cnt, osize, is_float, None)
                    if v == 254 and kind == "ssrc" and cnt == 1:
                        t = f"src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/"
                tab = self._src_table(entry, len(texts), _acc(spec, fields)) if kind in ("src", "ssrc") else None
                if tab is not None:  # a source of a restricted register class: LLVM's token per value
                    tv = tab[v]
                    t = None if tv is None or (t is None and "{}" in tv) else tv.replace("{}", t or "")
            elif kind == "vreg":
                v = fields[spec["f"]]
                acc = _acc(spec, fields)
                t = opd.reg_text("a" if acc else spec.get("c", "v"), v, spec["n"])
                if v + spec["n"] > 256 and not (self.gfx == "GFX9" and not acc and spec.get("c", "v") == "v") \
                        and not spec.get("past_ok"):  # (an image's data as first decoded: ``image.py``)
                    t = None  # a register tuple past the last VGPR: LLVM rejects the word (llvm-mc-22 prints
                    # GFX9's VGPR tuples past v255, v[254:257]; AGPR ones it rejects)
                if t is None:
                    pass
                elif v >= 128 and "note" in spec:
                    t += spec["note"]
                elif v & 1 and "anote" in spec and self.gfx == "GFX9" and _returning(plan, fields):
                    # the data of a returning atomic (gfx90a+, llvm-mc-22): an AGPR tuple prints without a note,
                    # a VGPR one with VReg_64_Align2 where the non-returning form says AV_64_Align2
                    t += "" if acc else spec["anote"].replace("'AV_", "'VReg_")
                elif v & 1 and "anote" in spec:  # an odd first register of an even-aligned tuple (VReg_64_Align2;
                    t += spec["anote"].replace("'VReg_", "'AReg_") if acc else spec["anote"]  # AReg_ for AGPRs)
                elif acc and not self.features.accvgpr_memory and not entry.encoding.startswith("VOP"):
                    # gfx908: an AGPR in a memory instruction prints with llvm-mc-22's note of the VGPR class
                    t += f"/*Invalid register, operand has '{'VGPR_32' if spec['n'] == 1 else 'VReg_%d' % (32 * spec['n'])}' register class*/"
            elif kind == "imm":
                f = enc.field(spec["f"])
                v = fields[spec["f"]]
                t = _fmt_imm(v, f.width, spec["hex"] or (v > 64 and self._hex_above_64(entry, len(texts))), spec["signed"])
            elif kind == "lit" and self.features.literal64 and tsize == 64:  # gfx1250: a 64-bit constant (fmamk_f64)
                if len(buf) - off < size + 8:
                    base.error = "truncated literal: 8 more bytes needed"
                    return base
                lit64 = int.from_bytes(buf[off + size:off + size + 8], "little")
                t = f"0x{lit64:x}"
            elif kind == "lit":
                if lit is None:
                    if len(buf) - off < size + 4:
                        base.error = "truncated literal: 4 more bytes needed"
                        return base
                    lit = int.from_bytes(buf[off + size:off + size + 4], "little")
                t = f"0x{lit:x}"
            elif "alt" in spec:
                on = [a for a in spec["alt"] if fields.get(a)]
                va = "VADDR" if "VADDR" in fields else "ADDR"  # GFX11 scratch names its address field ADDR
                t = "off" if not on else (opd.reg_text("v", fields[va], len(on)) if va in fields and fields[va] + len(on) <= 256 else None)
            elif "table" in spec:
                t = special.operand(self, entry, spec, fields)
            else:
                t = spec["t"]
                if self.wave64 and t == "vcc_lo":
                    t = "vcc"
            if t is None and rdna.true16_literal(spec, fields):  # a true16 source reading the literal dword
                if lit is None:
                    if len(buf) - off < size + 4:
                        base.error = "truncated literal: 4 more bytes needed"
                        return base
                    lit = int.from_bytes(buf[off + size:off + size + 4], "little")
                t = opd.literal_token(lit, self._literal_types.get(f"{entry.name}|{entry.encoding}")
                                      or literal_type(entry.name, 16, is_float))
            if t is None:
                t = special.fallback(self, entry, spec, fields, plan)
            if t is None:
                base.error = f"{entry.name}: operand {len(texts)} value not printable (field {spec.get('f')})"
                return base
            if "f" in spec:
                meanings[spec["f"]] = t
            texts.append(t)
        for fname, by_v in plan.get("tmpl", {}).items():
            v = fields.get(fname, 0) if not (fname == "NSA" and nsa_text is not None) else 0
            if v:
                for k, tp in by_v.get(str(v), []):
                    texts[k] = tp.replace("{}", texts[k]) if "|" in tp else texts[k]
        for fname, by_v in plan.get("tmpl", {}).items():
            v = fields.get(fname, 0) if not (fname == "NSA" and nsa_text is not None) else 0
            if v:
                for k, tp in by_v.get(str(v), []):
                    if "|" not in tp:
                        if tp == "-{}" and not texts[k].startswith("|") and _is_immediate(op_specs[k], fields):
                            tp = "neg({})"  # LLVM negates an inline constant or literal without abs so
                        texts[k] = tp.replace("{}", texts[k])
        ret = plan.get("ret")
        if ret is not None and fields.get(ret["f"], 0) & ret.get("bit", -1) and texts:  # an atomic returning the old value: VDST first
            v = fields[ret["dst"]]
            if _acc(ret, fields) and not self.features.accvgpr_memory:  # gfx908: an AGPR returned (llvm-mc-22)
                base.error = f"{entry.name}: AGPR data of a returning atomic is not valid here"
                return base
            if v + ret["n"] > 256:
                base.error = f"{entry.name}: register tuple past the last VGPR (field {ret['dst']})"
                return base
            note = ""
            if v & 1 and ret["n"] > 1 and not _acc(ret, fields) and self.gfx == "GFX9" and any("anote" in sp for sp in op_specs):
                note = f"/*Invalid register, operand has 'VReg_{32 * ret['n']}_Align2' register class*/"  # (llvm-mc-22)
            texts[0] = opd.reg_text("a" if _acc(ret, fields) else ret["c"], v, ret["n"]) + note + ", " + texts[0]
        mods = list(plan.get("mods0", [])) + mods_extra + rdna.gfx12_scale_offset(self, entry, word)
        typed = (entry.encoding == "MTBUF" or (entry.encoding == "VBUFFER" and entry.name.startswith("tbuffer_"))) and "format" in self.named
        if typed:
            ok, tok = special.buffer_format(self, fields)
            if not ok:
                base.error = f"{entry.name}: buffer format value not valid"
                return base
            mods = [x for x in mods if not x.startswith("format:")] + ([tok] if tok else [])
        sums: dict[str, list] = {}
        summed = {m["name"] for m in plan.get("mods", {}).values() if "mul" in m}
        for fname, m in plan.get("mods", {}).items():
            if typed and fname in ("FORMAT", "DFMT", "NFMT"):
                continue
            v = fields.get(fname, 0)
            f = enc.field(fname)
            if "v" in m:
                if v != m["base"]:
                    add, rem = m["v"].get(str(v), ([], []))
                    mods = [x for x in mods if x not in rem] + list(add)
            elif "name" in m:
                if m["name"] in summed:
                    acc = sums.setdefault(m["name"], [0, 0, m])
                    acc[0] += v * m.get("mul", 1)
                    acc[1] += f.width
                elif v:
                    mods = [x for x in mods if not x.startswith(m["name"] + ":")]
                    mods.append(f"{m['name']}:{_fmt_imm(v, f.width, m['hex'], m['signed'])}")
            elif v:
                got = m["table"].get(str(v))
                if got is None:
                    got = special.modifier(self, entry, fname, v, m)
                if got is None:
                    base.error = f"{entry.name}: field {fname}={v} not printable"
                    return base
                mods += got
        for name, (v, width, m) in sums.items():
            mods = [x for x in mods if not x.startswith(name + ":")]
            if v:
                mods.append(f"{name}:{_fmt_imm(v, width, m['hex'], m['signed'])}")
        if self.gfx == "GFX12" and "TH" in fields:  # GFX12 cache-policy names that depend on the scope too
            tok = rdna.th_token(self, plan, fields)
            if tok is not None:
                mods = [x for x in mods if not x.startswith("th:")] + ([tok] if tok else [])
        if entry.encoding == "SMEM" and self.gfx in ("GFX10", "GFX11", "GFX12"):
            rdna.smem_null_offset(self, op_specs, texts, mods, fields)  # ``s[0:1], 0x10`` for a null SOFFSET
        if sum(x.startswith("bitop3:") for x in mods) > 1:
            mods = _merge_split_immediate(mods, "bitop3")
        rank = _MOD_RANK_BY_ENCODING.get(entry.encoding, _MOD_RANK)
        mods.sort(key=lambda x: rank.get(x.split(":")[0], 50))
        total = size + (8 if lit64 is not None else 4 if lit is not None else 0)
        if parts is not None and not (ret is not None and texts and fields.get(ret["f"], 0) & ret.get("bit", -1)):
            parts.extend([texts, mods])  # (not for a returning atomic: its first text holds two registers)
        if lds is not None and fields.get(lds["f"]):
            texts = [x for x, sp in zip(texts, op_specs) if not sp.get("omit")]
        return Decoded(off, bytes(buf[off:off + total]), join(plan["m"], texts, mods), True, entry.encoding,
                       entry.name, fields, meanings)

    # -- a stream --------------------------------------------------------
    def decode(self, data: bytes, base_offset: int = 0) -> list[Decoded]:
        was = gc.isenabled()
        gc.disable()  # the loop makes one object per instruction and no cycles: collections only cost time
        try:
            from .batch import decode_objects

            return decode_objects(self, bytes(data), base_offset)
        finally:
            if was:
                gc.enable()

    def _decode_stream(self, data: bytes, base_offset: int, listing: bool = False) -> list:
        dws = dwords(data)
        n4 = len(dws)
        fast = self.fast
        pick, choose, done, text_of = fast.pick, fast.choose, fast.done, fast.text_of
        out: list = []
        add = out.append
        i = 0
        while i + 1 < n4:  # the fast path wants 8 bytes in view, as decode_at does
            dw = dws[i]
            c = pick.get(dw)
            if c is None:
                c = choose(dw)
            if c and c[1] <= 64:
                entry, width = c
                word = dw if width == 32 else dw | (dws[i + 1] << 32)
                r = done.get(word)
                if r is None or r[0] is None:
                    r = text_of(entry, width, word, data, 4 * i)
                if r[0] is not None:
                    off = 4 * i
                    size = r[1]
                    if listing:
                        add((off + base_offset, r[0], size))
                    else:
                        add(_quick(off + base_offset, data[off:off + size], r[0], entry, (self, entry, word)))
                    i += size >> 2
                    continue
            d = self._decode_slow(data, 4 * i)
            d.offset += base_offset
            add((d.offset, d.text, len(d.data)) if listing else d)
            if d.valid and len(d.data) & 3:  # cut short by the end of the buffer
                i = (4 * i + len(d.data)) / 4
                break
            i += len(d.data) >> 2 if d.valid else 1
        off = int(4 * i)
        while off < len(data):
            d = self.decode_at(data, off)
            d.offset += base_offset
            add((d.offset, d.text if d.valid else None, len(d.data)) if listing else d)
            off += len(d.data) if d.valid else min(4, len(data) - off)
        return out

    def decode_listing(self, data: bytes, base_offset: int = 0) -> list[tuple[int, str | None, int]]:
        """(offset, text or None if invalid, size) per instruction: the bulk path, without per-instruction objects."""
        was = gc.isenabled()
        gc.disable()
        try:
            from .batch import decode_listing

            return decode_listing(self, bytes(data), base_offset)
        finally:
            if was:
                gc.enable()

    def decode_text(self, data: bytes) -> str:
        """The listing as one string, one line per instruction (its text, as ``decode_at`` at each start gives;
        bytes that are no instruction as ``.long 0x...``/``.byte ...``, so the listing assembles back to them)."""
        was = gc.isenabled()
        gc.disable()
        try:
            from .batch_text import decode_text

            return decode_text(self, bytes(data))
        finally:
            if was:
                gc.enable()


def _quick(off: int, data: bytes, text: str, entry: Entry, src) -> Decoded:
    d = _new(Decoded)
    d.__dict__ = {"offset": off, "data": data, "text": text, "valid": True, "encoding": entry.encoding,
                  "name": entry.name, "error": None, "target": None, "_src": src}
    return d


_new = object.__new__


_DECODERS: dict[tuple[str, bool], Decoder] = {}


def get_decoder(arch: str, wave64: bool = False) -> Decoder:
    key = (arch, wave64)
    d = _DECODERS.get(key)
    if d is None:
        d = _DECODERS[key] = Decoder(arch, wave64)
    return d


def decode(arch: str, data: bytes, wave64: bool = False) -> list[Decoded]:
    """Decode ``data`` (little-endian AMD machine code) into instructions."""
    return get_decoder(arch, wave64).decode(bytes(data))
