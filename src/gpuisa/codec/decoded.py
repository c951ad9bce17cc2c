"""What the decoder hands out (``Decoded``) and the pure helpers its renderer (``decode_render.py``), the fast
path and the encoder share: source types from a mnemonic, literal types, immediates, modifier order, message
names (``s_sendmsg``: GFX9 and RDNA)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from . import operands as opd
from .tables import Entry

if TYPE_CHECKING:
    from .plans import OperandPlan, Plan, ReturnPlan

_TYPE = re.compile(r"_([fiubp]k?)(8|16|32|64|128)(?=_|$)")
MOD_ORDER = ["format", "idxen", "offen", "addr64", "offset", "offset0", "offset1", "scale_offset", "dmask", "dim",
             "unorm", "glc", "sc0", "slc", "nt", "sc1", "dlc", "scc", "th", "scope", "r128", "a16", "tfe", "lds",
             "lwe", "da", "d16", "gds", "nv", "bitop3", "op_sel", "op_sel_hi", "neg_lo", "neg_hi", "byte_sel", "clamp", "mul",
             "div", "wait_exp", "wait_va_vdst", "wait_vdst", "wait_vm_vsrc", "cbsz", "abid", "blgp"]
MOD_RANK = {m: i for i, m in enumerate(MOD_ORDER)}
_PACKED16 = re.compile(r"^v_(dot2(c|acc)?_|pk_)")
# VINTERP prints clamp before op_sel; VSAMPLE and VIMAGE print nv right after scope, before r128 (probed with
# llvm-mc-22 on gfx1100/gfx1200)
MOD_RANK_BY_ENCODING = {"VINTERP": {**MOD_RANK, "clamp": MOD_RANK["op_sel"] - 0.5},
                         "VSAMPLE": {**MOD_RANK, "nv": MOD_RANK["scope"] + 0.5},
                         "VIMAGE": {**MOD_RANK, "nv": MOD_RANK["scope"] + 0.5}}


_V = TypeVar("_V")


class _LazyMap(Generic[_V]):
    """A dataclass field computed on first read for instructions the fast path decoded."""

    def __set_name__(self, owner, name):
        self.key = "_" + name
        self.name = name

    @overload
    def __get__(self, obj: None, owner: Any = None) -> None: ...
    @overload
    def __get__(self, obj: object, owner: Any = None) -> _V: ...

    def __get__(self, obj, owner=None):
        if obj is None:
            return None  # the dataclass default
        v = obj.__dict__.get(self.key)
        if v is None:
            src = obj.__dict__.get("_src")
            v = obj.__dict__[self.key] = src[0]._lazy(self.name, src[1], src[2], obj) if src else {}
        return v

    def __set__(self, obj, value: _V) -> None:
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
    fields: _LazyMap[dict[str, int]] = _LazyMap()
    meanings: _LazyMap[dict[str, str]] = _LazyMap()  # field -> operand text it selects
    error: str | None = None
    target: int | None = None  # branch target offset

    def to_json(self) -> dict:
        return {"offset": self.offset, "bytes": self.data.hex(), "text": self.text, "encoding": self.encoding,
                "fields": dict(self.fields), "valid": self.valid, "error": self.error}


def operand_type(mnemonic: str) -> tuple[int, bool]:
    """(size in bits, is float) of the instruction's source type from its name."""
    found = _TYPE.findall(mnemonic.replace("_e32", "").replace("_e64", ""))
    if not found:
        return 32, False
    kind, bits = found[-1]
    if bits == "16" and _PACKED16.match(mnemonic):  # packed 16-bit sources (dot2, pk): 32-bit values
        return 32, kind == "f" or kind == "bf"
    return int(bits), kind == "f" or kind == "bf"


# (probed with llvm-mc-22 on every VOP3/VOP3P source of the 16-bit integer instructions, float inline constant
# 1.0, gfx1030/gfx1100/gfx1200/gfx1250: these sources print it by name, as a 32-bit source does, where the others
# print its 16-bit pattern in hex)
_NAMED_FLOAT16 = {"v_sad_u16": ("SRC0", "SRC1", "SRC2"), "v_sat_pk_u8_i16": ("SRC0",), "v_mad_i32_i16": ("SRC2",),
                  "v_mad_u32_u16": ("SRC2",)}


def inline_size(name: str, field: str, osize: int) -> int:
    """The size whose inline-constant text source ``field`` of instruction ``name`` prints (``osize`` but 32 for
    the 16-bit integer sources above and those of the ``pk16`` conversions and permutes)."""
    if osize == 16 and (field in _NAMED_FLOAT16.get(name, ()) or "_pk16_" in name):
        return 32
    return osize


def literal_type(name: str, osize: int, is_float: bool) -> str:
    """How a literal read by a source of instruction ``name`` prints by default (``operands.literal_token``);
    the types LLVM gives some sources differ and are learned (``regen/literals.py``, named ``literal_types``)."""
    found = _TYPE.findall(name)
    bits = found[-1][1] if found else "32"
    packed = bits == "16" and bool(_PACKED16.match(name))
    return opd.literal_type(osize, is_float, packed, name.startswith(("v_fma_mix", "v_mad_mix")), "bf16" in name)


def default_literal_type(name: str, spec: OperandPlan, mnemonic: str) -> str:
    """The default literal type of source ``spec`` of a plan (as the decoder computes it)."""
    tsize, is_float = operand_type(mnemonic)
    if spec.tables:
        return literal_type(name, 16, is_float)
    cnt = spec.count
    return literal_type(name, 64 if cnt == 2 and tsize != 16 else (16 if tsize == 16 else 32), is_float)


def merge_split_immediate(mods: list[str], name: str) -> list[str]:
    """One ``name:N`` for an immediate whose bits lie in several fields, each printing its own part
    (``v_bitop3``: NEG, ABS, OMOD hold bits 2:0, 5:3, 7:6); LLVM prints the sum, decimal up to 10 (probed)."""
    parts = [x for x in mods if x.startswith(name + ":")]
    total = sum(int(x.split(":", 1)[1], 0) for x in parts)
    rest = [x for x in mods if not x.startswith(name + ":")]
    return rest + [f"{name}:{total if total <= 10 else hex(total)}"]


def split_immediate_fields(plan: Plan, token: str) -> list[tuple[str, int]] | None:
    """The encoder's side of ``merge_split_immediate``: the value of each field that prints a part of
    ``name:N`` (each field's parts are disjoint bits); None if ``token`` is not such a modifier."""
    name, _, num = token.partition(":")
    try:
        n = int(num, 0)
    except ValueError:
        return None
    out, covered = [], 0
    for fname, mod in plan.modifiers.items():
        try:
            parts = {int(v): int(add[0].split(":", 1)[1], 0) for v, (add, _) in (mod.tokens or {}).items()
                     if len(add) == 1 and add[0].startswith(name + ":")}
        except ValueError:  # a modifier printed by name (scope:SCOPE_SE): not one of these
            continue
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


def is_acc(spec: OperandPlan | ReturnPlan, fields: dict[str, int]) -> bool:
    acc = spec.acc
    if not acc:
        return False
    return bool(fields.get(acc[0], 0) & acc[1])


def returning(plan: Plan, fields: dict[str, int]) -> bool:
    """An atomic whose return bit (GLC/SC0) is set: it prints VDST first."""
    ret = plan.returning
    return ret is not None and bool(fields.get(ret.field, 0) & (-1 if ret.bit is None else ret.bit))


def is_immediate(spec: OperandPlan, fields: dict[str, int]) -> bool:
    """A 9-bit source field selecting an inline constant or the literal (not a register); a true16 source
    (its text from a table of its SRCn field, no kind) too."""
    name = spec.field if spec.kind == "src" else None
    if spec.kind is None and len(spec.tables) == 1:
        name = next(iter(spec.tables))
        name = name if name in ("SRC0", "SRC1", "SRC2") else None
    if name is None or name not in fields:
        return False
    v = fields[name]
    return 128 <= v <= 208 or 240 <= v <= 248 or v == opd.LITERAL


def fmt_imm(v: int, width: int, hexa: bool | int, signed: bool) -> str:
    """``hexa``: True (hex), False (decimal) or a number N (decimal up to N, hex above; GFX9 plans)."""
    if signed and v >= 1 << (width - 1):
        v -= 1 << width
    if hexa is not True and hexa is not False and 0 <= v <= hexa:
        return str(v)
    if hexa:
        return f"-0x{-v:x}" if v < 0 else f"0x{v:x}"
    return str(v)


def sendmsg_text(table: dict, v: int) -> str:
    """s_sendmsg's operand from the probed table: the low 10 bits name a message (else the value prints in
    decimal); with higher bits set only the messages in ``keep`` still print by name."""
    low = v & 1023
    if v == low or low in table["keep"]:
        return table["low"].get(str(low), str(v))
    return str(v)


def quick_decoded(off: int, data: bytes, text: str, entry: Entry, src) -> Decoded:
    d = _new(Decoded)
    d.__dict__ = {"offset": off, "data": data, "text": text, "valid": True, "encoding": entry.encoding,
                  "name": entry.name, "error": None, "target": None, "_src": src}
    return d


_new = object.__new__


def invalid_line(data: bytes) -> str:
    """The listing line of bytes that are not an instruction: ``.long 0x...`` (a dword), or ``.byte 0x.., ...`` (a
    tail shorter than a dword), so that the listing assembles back to the same bytes."""
    if len(data) == 4:
        return ".long 0x%08x" % int.from_bytes(data, "little")
    return ".byte " + ", ".join("0x%02x" % b for b in data)
