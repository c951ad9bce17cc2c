"""The typed records of print plans (``Plan``, ``OperandPlan``, ``ModifierPlan``, ``ReturnPlan``) and their reader
from a plan file's compact JSON, which checks every key and type (``PlanFileError``: one line naming the file,
the plan and the key).  ``plans.py`` loads them per architecture; ``named.py`` reuses the checks.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from ..errors import UserError


class _EmptyTable(dict):
    """The shared empty table of a record's absent JSON key (read-only; a plain dict's speed when read)."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return 0

    def _read_only(self, *args, **kw):
        raise TypeError("a plan's tables are read-only")

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _read_only  # type: ignore[assignment]


EMPTY_TABLE: Mapping[str, Any] = _EmptyTable()


class PlanFileError(UserError):
    """A plan or named table file of the package that is damaged (a key missing or of the wrong type)."""


class JsonRecord:
    """A record read from compact JSON: ``JSON_KEYS`` maps each JSON key to its field."""

    __slots__ = ()
    JSON_KEYS: ClassVar[Mapping[str, str]] = {}


@dataclasses.dataclass(frozen=True, slots=True)
class OperandPlan(JsonRecord):
    """One operand position of a plan."""

    text: str = ""  # (t) the probe's text of it; the operand itself where no field selects it (``off``, ``vcc_lo``)
    kind: str | None = None  # (k) src (9-bit source), ssrc (scalar source), vreg, imm (number), lit (literal dword)
    field: str = ""  # (f) the field holding its register or value ("": none)
    count: int = 1  # (n) registers in it (a tuple of n)
    reg_class: str = "v"  # (c) register file of a vreg/ssrc: v, s, a, ttmp ...
    scale: int = 1  # (s) the field holds the register number divided by this (SMEM base pairs: 2)
    tables: Mapping[str, Mapping[str, str]] = EMPTY_TABLE  # (table) field -> value (decimal) -> LLVM's token
    address_fields: Sequence[str] = ()  # (alt) fields saying whether a VGPR address is used (``off`` if none)
    hex: bool | int = False  # (hex) an imm printed in hex (True), decimal (False), decimal up to N (N)
    signed: bool = False  # (signed) an imm read as two's complement
    align_note: str | None = None  # (anote) LLVM's note after an odd first register of an even-aligned tuple
    note: str | None = None  # (note) LLVM's note after a register from v128 on (a Lo128 class)
    acc: Sequence[Any] | None = None  # (acc) [field, bit] whose bit makes the register an AGPR
    imm_if: str = ""  # (imm_if) the field whose bit makes this operand an immediate (GFX9 SMEM offset)
    omit: bool = False  # (runtime) a position the printed text leaves out (GFX9 loads into LDS: ``gfx9.py``)
    past_ok: bool = False  # (runtime) a tuple that prints even past v255 (an image's data as first decoded)

    JSON_KEYS: ClassVar[Mapping[str, str]] = {
        "t": "text", "k": "kind", "f": "field", "n": "count", "c": "reg_class", "s": "scale", "table": "tables",
        "alt": "address_fields", "hex": "hex", "signed": "signed", "anote": "align_note", "note": "note",
        "acc": "acc", "imm_if": "imm_if", "omit": "omit", "past_ok": "past_ok"}


@dataclasses.dataclass(frozen=True, slots=True)
class ModifierPlan(JsonRecord):
    """How one modifier field prints: token lists per value (``tokens``), ``name:N`` (``name``) or a table."""

    tokens: Mapping[str, Sequence[Sequence[str]]] | None = None  # (v) value -> [tokens added, tokens removed]
    base: int = 0  # (base) the value that prints the plan's base modifiers unchanged
    name: str | None = None  # (name) prints ``name:N``
    hex: bool = False  # (hex) N in hex
    signed: bool = False  # (signed) N read as two's complement
    mul: int | None = None  # (mul) this field holds N's part times ``mul`` (N summed over several fields)
    table: Mapping[str, Sequence[str]] | None = None  # (table) value -> tokens

    JSON_KEYS: ClassVar[Mapping[str, str]] = {
        "v": "tokens", "base": "base", "name": "name", "hex": "hex", "signed": "signed", "mul": "mul",
        "table": "table"}


@dataclasses.dataclass(frozen=True, slots=True)
class ReturnPlan(JsonRecord):
    """An atomic that returns the old value when a field's bit is set: VDST printed first."""

    field: str  # (f) the field holding the return bit (GLC, SC0, TH)
    dst: str  # (dst) the field of the returned register
    count: int  # (n) registers returned
    reg_class: str  # (c) their register file
    bit: int | None = None  # (bit) the return bit's value in ``field`` (any bit where absent)
    acc: Sequence[Any] | None = None  # (acc) [field, bit] whose bit makes the returned register an AGPR

    JSON_KEYS: ClassVar[Mapping[str, str]] = {
        "f": "field", "dst": "dst", "n": "count", "c": "reg_class", "bit": "bit", "acc": "acc"}


class Plan(NamedTuple):
    """The print plan of one (instruction, encoding); a NamedTuple, not a dataclass, as the one record made
    once per plan at load time (a tuple is built three times faster; operands and modifiers are shared)."""

    word: int  # (w) llvm-mc's encoding of the probe text (fields at their silent defaults)
    mnemonic: str  # (m) the mnemonic LLVM prints
    operands: tuple[OperandPlan, ...]  # (ops) one per operand position
    size: int  # (size) bytes of the encoding
    base_mods: Sequence[str] = ()  # (mods0) the modifiers the probe text printed
    modifiers: Mapping[str, ModifierPlan] = EMPTY_TABLE  # (mods) modifier field -> how its values print
    rejected: Mapping[str, str | Sequence[int]] = EMPTY_TABLE  # (bad) field -> values LLVM rejects ("nonzero": all but w's)
    templates: Mapping[str, Mapping[str, Sequence[Sequence[Any]]]] = EMPTY_TABLE  # (tmpl) field -> value -> [[op, tmpl]]
    encode_word: int = 0  # (e, else w) the word the encoder starts from: llvm-mc's don't-care bits
    alternatives: Mapping[str, Mapping[str, Plan]] = EMPTY_TABLE  # (alt) field -> value -> the plan then printed
    returning: ReturnPlan | None = None  # (ret) a returning atomic's return bit and register
    lo128: str = ""  # (lo128) LLVM's note on a Lo128 source register from v128 on


_PLAN_KEYS: Mapping[str, str] = {
    "w": "word", "m": "mnemonic", "ops": "operands", "size": "size", "mods0": "base_mods", "mods": "modifiers",
    "bad": "rejected", "tmpl": "templates", "e": "encode_word", "alt": "alternatives", "ret": "returning",
    "lo128": "lo128"}


# JSON key -> (expected type(s), conversion or None) per record; a key not listed is an error.
_SEQ = (list,)
_OPERAND_TYPES: dict[str, tuple] = {
    "t": (str,), "k": (str,), "f": (str,), "n": (int,), "c": (str,), "s": (int,), "table": (dict,),
    "alt": _SEQ, "hex": (bool, int), "signed": (bool,), "anote": (str,), "note": (str,), "acc": _SEQ,
    "imm_if": (str,)}
_MODIFIER_TYPES: dict[str, tuple] = {
    "v": (dict,), "base": (int,), "name": (str,), "hex": (bool,), "signed": (bool,), "mul": (int,), "table": (dict,)}
_RETURN_TYPES: dict[str, tuple] = {"f": (str,), "dst": (str,), "n": (int,), "c": (str,), "bit": (int,), "acc": _SEQ}
_PLAN_TYPES: dict[str, tuple] = {
    "w": (int,), "m": (str,), "ops": _SEQ, "size": (int,), "mods0": _SEQ, "mods": (dict,), "bad": (dict,),
    "tmpl": (dict,), "e": (int,), "alt": (dict,), "ret": (dict,), "lo128": (str,)}


def check_keys(where: str, raw: object, types: Mapping[str, tuple]) -> dict[str, Any]:
    """``raw`` itself, after checking that it is an object whose keys are known and of their types."""
    if not isinstance(raw, dict):
        raise PlanFileError(f"{where}: expected an object, found {type(raw).__name__}")
    for key, v in raw.items():
        want = types.get(key)
        if want is None:
            raise PlanFileError(f"{where}: unknown key {key!r}")
        if not isinstance(v, want):
            raise PlanFileError(f"{where}: key {key!r} should be {want[0].__name__}, found {type(v).__name__}")
    return raw


def read_record(cls, where: str, raw: object, types: Mapping[str, tuple]):
    names = cls.JSON_KEYS
    kw = {names[k]: v for k, v in check_keys(where, raw, types).items()}
    try:
        return cls(**kw)
    except TypeError:
        missing = [k for k, a in names.items() if a not in kw and k in types
                   and cls.__dataclass_fields__[a].default is dataclasses.MISSING]
        raise PlanFileError(f"{where}: key {missing[0] if missing else '?'!r} missing") from None


class _Reader:
    """One file's plans: equal operand and modifier objects are built (and checked) once and shared."""

    def __init__(self, name: str):
        self.name = name
        self.shared: dict[object, Any] = {}

    def shared_record(self, cls, where: str, raw, types: Mapping[str, tuple]):
        try:
            key: object = (cls, tuple(raw.items()))
            got = self.shared.get(key)
        except (TypeError, AttributeError):  # (a list or table inside; or not an object: checked below)
            key = (cls, repr(raw))
            got = self.shared.get(key)
        if got is None:
            got = self.shared[key] = read_record(cls, where, raw, types)
        return got

    def plan(self, key: str, raw: object) -> Plan:
        where = f"{self.name} {key}"
        get = check_keys(where, raw, _PLAN_TYPES).get
        try:
            w, m, ops, size = raw["w"], raw["m"], raw["ops"], raw["size"]  # type: ignore[index]
        except KeyError as e:
            raise PlanFileError(f"{where}: key {e.args[0]!r} missing") from None
        mods, ret, alt = get("mods"), get("ret"), get("alt")
        return Plan(
            w, m, tuple(self.shared_record(OperandPlan, f"{where} ops[{k}]", sp, _OPERAND_TYPES)
                        for k, sp in enumerate(ops)), size, get("mods0", ()),
            {f: self.shared_record(ModifierPlan, f"{where} mods.{f}", x, _MODIFIER_TYPES) for f, x in mods.items()}
            if mods else EMPTY_TABLE,
            get("bad", EMPTY_TABLE), get("tmpl", EMPTY_TABLE), get("e", w),
            {f: {v: self.plan(f"{key} alt.{f}.{v}", p) for v, p in by_v.items()} for f, by_v in alt.items()}
            if alt else EMPTY_TABLE,
            None if ret is None else read_record(ReturnPlan, f"{where} ret", ret, _RETURN_TYPES), get("lo128", ""))


def plan_from_json(where: str, raw: object) -> Plan:
    """One plan from its JSON object (``where`` names it in errors)."""
    return _Reader(where).plan("", raw)


def read_plan_file(name: str, data: bytes) -> dict[str, Plan | None]:
    """The plans of a plan file's bytes (None: a wave64 overlay's form LLVM rejects), every key checked."""
    try:
        raw = json.loads(data)["plans"]
    except (ValueError, KeyError, TypeError) as e:
        raise PlanFileError(f"{name}: not a plan file ({type(e).__name__}: {e})") from None
    if not isinstance(raw, dict):
        raise PlanFileError(f"{name}: 'plans' should be an object")
    reader = _Reader(name)
    return {key: None if p is None else reader.plan(key, p) for key, p in raw.items()}
