"""Table-driven AMD GPU disassembler (LLVM's syntax).

Decoding one instruction: the first dword's top bits select candidate
decode classes (fixed encoding bits), the opcode field selects the entry
(instruction + encoding), the entry's print plan turns field values into
operands and modifiers.  Invalid bytes produce an invalid ``Decoded`` with
the reason and decoding resumes at the next dword, as LLVM does.

The renderer, one handler per extended form, whole-text form and operand kind, is ``decode_render.py``;
what it hands out and the helpers it shares with the encoder are in ``decoded.py``.
"""

from __future__ import annotations

import functools
import gc
from typing import TYPE_CHECKING

from .. import archs
from . import operands as opd
from . import rdna, special, tensor
from .decode_render import render
from .decoded import (  # noqa: F401
    MOD_ORDER,
    Decoded,
    default_literal_type,
    fmt_imm,
    inline_size,
    literal_type,
    operand_type,
    quick_decoded,
    split_immediate_fields,
)
from .fastpath import FastPath
from .named import load_named
from .plans import load_plans
from .tables import ArchTables, Entry, load_arch_tables

if TYPE_CHECKING:
    from .named import NamedTables
    from .plans import OperandPlan, Plan


class Decoder:
    """The scalar decoder of one architecture.  Its plans and named tables (JSON, ~25-35 ms to parse) are read
    on first use: a bulk decode whose every instruction the batch decoder's precomputed tables cover
    (``batch_data.py``) needs neither."""

    def __init__(self, arch: str, wave64: bool = False, syntax16: str | None = None):
        a = archs.resolve_arch(arch)
        self.arch = a.name
        self.tables: ArchTables = load_arch_tables(self.arch)
        self.wave64 = wave64
        # the 16-bit register syntax LLVM 22 does not default to (true16, fake16; ``archs.syntax16_mode``), or None:
        # the batch decoder's tables model the default, so such a decoder decodes on the scalar path
        self.syntax16 = archs.syntax16_mode(a, syntax16)
        self.gfx = self.tables.gfx.split(".")[0]
        self.features = archs.by_name(self.arch).features
        self.fast = FastPath(self)

    @functools.cached_property
    def plans(self) -> dict[str, Plan]:
        return load_plans(self.arch, self.wave64, self.syntax16)

    @functools.cached_property
    def named(self) -> NamedTables:
        return load_named(self.arch)

    @functools.cached_property
    def _literal_types(self) -> dict[str, str]:
        return {k: v for k, v in self.named.literal_types.items() if v in opd.LITERAL_TYPES}

    @functools.cached_property
    def dpp8(self) -> bool:
        return bool(self.named.dpp8)

    @functools.cached_property
    def vop3dpp(self) -> bool:
        return bool(self.named.vop3dpp.get("dpp16"))

    @functools.cached_property
    def sdwa(self) -> bool:
        return bool(self.named.sdwa.get("mn"))

    @functools.cached_property
    def dpp_gfx9(self) -> bool:
        return bool(self.named.dpp_gfx9.get("mn"))

    @functools.cached_property
    def vopd(self) -> tuple[int, int] | None:
        """(mask, value) of dual-issue (VOPD) words, or None: VOPD exists in wave32 only (in wave64 its words
        decode as nothing, as LLVM's do)."""
        vopd = self.tables.encodings.get("VOPD")
        if vopd is None or self.wave64 or not self.named.vopd:
            return None
        return vopd.fixed_mask, vopd.fixed_value

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
                    return quick_decoded(off, bytes(buf[off:off + size]), text, entry, (self, entry, word))
        return self._decode_slow(buf, off)

    def _lazy(self, what: str, entry: Entry, word: int, d: Decoded) -> dict:
        if what == "fields":
            enc = self.tables.encodings[entry.encoding]
            return {f.name: f.extract(word) for f in enc.fields if f.value is None}
        return self._render(entry, word, d.data + b"\0" * 8, 0).meanings

    def _operand_alone(self, entry: Entry, k: int, v: int):
        """Text of operand ``k`` (a register, plain source or immediate) for field value ``v``; False if it needs more."""
        plan = self.plans[f"{entry.name}|{entry.encoding}"]
        spec = plan.operands[k]
        kind = spec.kind
        enc = self.tables.encodings[entry.encoding]
        if kind == "vreg":
            if v + spec.count > 256:
                return False
            reg = opd.reg_text(spec.reg_class, v, spec.count)
            if v >= 128 and spec.note is not None:
                return reg + spec.note
            return reg + spec.align_note if v & 1 and spec.align_note is not None else reg  # (an odd start of an aligned tuple)
        if kind == "imm":
            f = enc.require_field(spec.field)
            if self._hex_above_64(entry, k):
                return False  # printed unlike other immediates with the same spec: not shared with their memo
            return fmt_imm(v, f.width, spec.hex, spec.signed)
        tsize, is_float = operand_type(entry.mnemonic)
        v *= spec.scale
        if (v == opd.LITERAL or (v == opd.LITERAL64 and self.features.literal64)) and spec.scale == 1:
            return False  # (its text comes from the dwords after the instruction)
        cnt = spec.count
        if kind == "ssrc" and entry.encoding == "SMEM" and rdna.smem_null(self, spec, v):
            return False  # printed with the offset's value (``rdna.smem_null_offset``)
        tab = self._src_table(entry, k) if kind in ("src", "ssrc") else None
        if tab is not None:
            return False if tab[v] is None or "{}" in tab[v] else tab[v]
        osize = inline_size(entry.name, spec.field, 64 if cnt == 2 and tsize != 16 else (16 if tsize == 16 else 32))
        t: str | None = opd.src_text(self.gfx, v, cnt, osize, is_float, 256 if kind == "src" else None)
        if kind == "src" and v - 256 + cnt > 256:
            return False
        if t is not None and v >= 256 and kind == "src":
            t += self._src_notes(entry, plan, k, spec, v)
        if t is None and kind == "ssrc" and v < 256:
            t = opd.src_text(self.gfx, v, cnt, osize, is_float, None)
        if v == 254 and kind == "ssrc" and cnt == 1:
            t = "src_lds_direct/*Invalid register, operand has 'SReg_32' register class*/"
        return False if t is None else t

    def _src_notes(self, entry: Entry, plan: Plan, k: int, spec: OperandPlan, v: int) -> str:
        """LLVM's note after a VGPR source: its class excludes v128 and up (``_src_note``), or the tuple must
        start on an even register (``anote``: VS_64_Align2)."""
        note = self._src_note(entry, plan, k) if v >= 384 else ""
        return note or (spec.align_note if v & 1 and spec.align_note is not None else "")

    def _hex_above_64(self, entry: Entry, k: int) -> bool:
        """Immediate ``k`` is printed in hex above 64 (probed, ``named.py``)."""
        return k in self.named.imm_hex_above_64.get(f"{entry.name}|{entry.encoding}", ())

    def _src_table(self, entry: Entry, k: int, acc: bool = False) -> list | None:
        """LLVM's token for each value of source ``k`` where its register class is restricted (``named.py``,
        ``gfx9.py``; with ``acc`` the table for the operand's AGPR bit set, GFX9); "{}" in a token stands for
        our own text.  Learned in wave32: in wave64 (RDNA) only for an operand as wide in both wave sizes, with
        a token naming vcc our own text instead (llvm-mc-22 gfx1100/gfx1200 wave64: the same classes)."""
        st = self.named.src_tables
        if not st:
            return None
        key = f"{entry.name}|{entry.encoding}"
        i = st["ops"].get(key, {}).get(str(k) + ("a" if acc else ""))
        if i is None or not (self.wave64 and self.gfx != "GFX9"):
            return None if i is None else st["tables"][i]
        plan64 = self.plans.get(key)
        if rdna.wave_sized(load_plans(self.arch).get(key), plan64, k):
            # a carry or mask operand (32-bit in wave32, 64-bit in wave64): no table; a WMMA accumulator
            # (half as wide in wave64): our text with the note of its wave64 VGPR class (llvm-mc-22)
            n = plan64.operands[k].count if plan64 is not None and k < len(plan64.operands) else 0
            table = st["tables"][i]
            if not n or not any(t is not None and _VREG_NOTE in t for t in table):
                return None
            note = f"{_VREG_NOTE}{32 * n}' register class*/"
            return [t if t is None else "{}" + (note if _VREG_NOTE in t else t[t.index("/*"):] if "/*" in t else "")
                    for t in table]
        tables = self.__dict__.setdefault("_wave64_tables", {})
        if i not in tables:
            tables[i] = [t if t is None or "vcc" not in t else "{}" for t in st["tables"][i]]
        return tables[i]

    def _src_note(self, entry: Entry, plan: Plan, k: int) -> str:
        """Comment after a source naming a VGPR >= 128: probed per operand where known, else the plan's.
        (For a source with a token table the value only tells operands apart, for the fast path's memos.)"""
        if self._src_table(entry, k) is not None:
            return f"/*table {self.named.src_tables['ops'][f'{entry.name}|{entry.encoding}'][str(k)]}*/"
        notes = self.named.src_note.get(f"{entry.name}|{entry.encoding}")
        if notes is not None and str(k) in notes:
            return notes[str(k)]
        return plan.lo128

    def _decode_slow(self, buf: bytes, off: int) -> Decoded:
        n = len(buf) - off
        if n >= 8 and self.vopd is not None and int.from_bytes(buf[off:off + 4], "little") & self.vopd[0] == self.vopd[1]:
            return self._vopd(int.from_bytes(buf[off:off + 8], "little"), buf, off)
        if n < 4:
            return Decoded(off, bytes(buf[off:]), None, False, error=f"truncated: {n} byte(s) left, an instruction needs 4")
        dw = int.from_bytes(buf[off:off + 4], "little")
        if tensor.is_tensor(dw) and self.arch in tensor.ARCHS:  # gfx1250's tensor movers (``tensor.py``)
            got = tensor.decode(buf, off)
            if got is not None:
                return got
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
        """``entry``'s text of ``word`` (``decode_render.py``: one handler per encoding and operand kind)."""
        mask = self.syntax16 == "true16" and self.opsel_fake16.get(f"{entry.name}|{entry.encoding}")
        if mask and self.tables.encodings[entry.encoding].require_field("OP_SEL").extract(word) & mask:
            return get_decoder(self.arch, self.wave64)._render(entry, word, buf, off, parts)  # (the fake16 default)
        return render(self, entry, word, buf, off, parts)

    @functools.cached_property
    def opsel_fake16(self) -> dict[str, int]:
        """In the true16 syntax where fake16 is LLVM 22's default: per VOP3 form, the OP_SEL bits with which
        llvm-mc-22 prints the word in fake16 syntax (``opsel16_<arch>.json``, measured by ``regen.plans``)."""
        if self.syntax16 != "true16":
            return {}
        import json

        from .plans import DATA_DIR

        path = DATA_DIR / f"opsel16_{self.arch}.json"
        return dict(json.loads(path.read_text())["masks"]) if path.exists() else {}

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


_DECODERS: dict[tuple[str, bool, str | None], Decoder] = {}


_VREG_NOTE = "/*Invalid register, operand has 'VReg_"


def get_decoder(arch: str, wave64: bool = False, syntax16: str | None = None) -> Decoder:
    """The shared decoder of ``arch`` (wave64; ``syntax16``: true16/fake16 or LLVM's +real-true16/-real-true16)."""
    key = (arch, wave64, syntax16)
    d = _DECODERS.get(key)
    if d is None:
        d = _DECODERS[key] = Decoder(arch, wave64, syntax16)
    return d


def decode(arch: str, data: bytes, wave64: bool = False, syntax16: str | None = None) -> list[Decoded]:
    """Decode ``data`` (little-endian AMD machine code) into instructions."""
    return get_decoder(arch, wave64, syntax16).decode(bytes(data))
