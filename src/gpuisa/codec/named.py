"""Named field values per architecture (hardware-register names, buffer formats, export targets, DPP, VOPD,
register counts, notes ...), learned from llvm-mc-22 at generation time (``python -m gpuisa.regen.named``,
``regen/named.py``) and loaded here for the decoder and encoder; the decoder (``special.py``) turns the
tables into operands.

``load_named`` reads an architecture's file once into ``NamedTables``: one attribute per table (an absent
table is empty), the tables whose entries are records in compact JSON (register counts, GFX12 address lists,
GFX9 loads into LDS, VOPD forms with a zero field) as typed records, and checks the file's shape: a damaged
file is one ``PlanFileError`` naming the table and the key.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .plan_types import EMPTY_TABLE, JsonRecord, PlanFileError, check_keys, read_record
from .plans import DATA_DIR, DONOR


def vaddr_list_text(regs: list[int], n: int) -> str:
    """An image address operand of ``n`` registers from the VADDR fields: each field one register, the last
    one used holding the rest (LLVM's spelling: a bare register when there is one)."""
    toks = [f"v{r}" for r in regs[:n]]
    if n > len(regs):
        last = regs[-1]
        toks[-1] = f"v[{last}:{last + n - len(regs)}]"
    return toks[0] if n == 1 else "[" + ", ".join(toks) + "]"


@dataclasses.dataclass(frozen=True, slots=True)
class RegisterCount(JsonRecord):
    """(``counts``) An operand whose register count depends on other fields (image data and addresses)."""

    operand: int  # (op) its position in the plan
    deps: Sequence[str]  # (deps) the fields it depends on, lowest bits of the index first
    widths: Sequence[int]  # (widths) their widths in bits
    regs: Sequence[int | None]  # (n) registers per combined value of ``deps`` (None: LLVM rejects it)

    JSON_KEYS: ClassVar[Mapping[str, str]] = {"op": "operand", "deps": "deps", "widths": "widths", "n": "regs"}

    def wanted(self, values: Mapping[str, int]) -> int | None:
        """The register count ``values`` of the dependency fields select."""
        idx = shift = 0
        for d, wd in zip(self.deps, self.widths, strict=False):
            idx |= values.get(d, 0) << shift
            shift += wd
        return self.regs[idx]


@dataclasses.dataclass(frozen=True, slots=True)
class AddressList(JsonRecord):
    """(``vaddr_lists``) A GFX12 image address operand spread over the VADDR0..4 fields."""

    operand: int  # (op) its position in the plan
    regs: Sequence[int | None]  # (n) address registers per DIM | A16 << 3 (None: LLVM rejects it)
    last_zero: Sequence[bool] | None = None  # (last_zero) per DIM | A16 << 3: the last VADDR field must be 0

    JSON_KEYS: ClassVar[Mapping[str, str]] = {"op": "operand", "n": "regs", "last_zero": "last_zero"}


@dataclasses.dataclass(frozen=True, slots=True)
class LdsForm(JsonRecord):
    """(``lds_forms``) A GFX9/GFX10 buffer load whose flag field sends the data to LDS (no data register)."""

    field: str  # (f) the flag field (LDS)
    zero: Sequence[str]  # (zero) fields that must be 0 in that form
    drop: int  # (drop) the operand position the text then leaves out

    JSON_KEYS: ClassVar[Mapping[str, str]] = {"f": "field", "zero": "zero", "drop": "drop"}


@dataclasses.dataclass(frozen=True, slots=True)
class VopdZeroForm(JsonRecord):
    """(``vopd_zero``) A VOPD pair one of whose halves takes fewer operands: its template, the fields left 0."""

    template: str  # (t) the text with ``{FIELD}`` slots
    zero: Sequence[str]  # (zero) fields that must be 0

    JSON_KEYS: ClassVar[Mapping[str, str]] = {"t": "template", "zero": "zero"}


_COUNT_TYPES = {"op": (int,), "deps": (list,), "widths": (list,), "n": (list,)}
_ADDRESS_TYPES = {"op": (int,), "n": (list,), "last_zero": (list,)}
_LDS_TYPES = {"f": (str,), "zero": (list,), "drop": (int,)}
_VOPD_ZERO_TYPES = {"t": (str,), "zero": (list,)}


@dataclasses.dataclass(frozen=True, slots=True, eq=False)
class NamedTables(JsonRecord):
    """One architecture's learned tables; keys are ``"name|ENCODING"`` unless said otherwise (compared and
    hashed by identity: one object per architecture, a key of the caches derived from it)."""

    arch: str = ""
    generated_by: str = ""
    aliases: Mapping[str, str] = EMPTY_TABLE  # mnemonic LLVM's assembler also accepts -> LLVM's own
    bad_values: Mapping[str, Mapping[str, Sequence[int]]] = EMPTY_TABLE  # key -> field -> every rejected value
    counters: Mapping[str, Mapping[str, Any]] = EMPTY_TABLE  # SOPP counter name -> {form, fields, hex_bits}
    counts: Mapping[str, tuple[RegisterCount, ...]] = EMPTY_TABLE  # key -> operands counted from other fields
    dpp16: Mapping[str, Any] = EMPTY_TABLE  # {ctrl: text per dpp_ctrl, mods, shown}
    dpp8: Mapping[str, str] = EMPTY_TABLE  # key -> the DPP8 mnemonic
    dpp_gfx9: Mapping[str, Any] = EMPTY_TABLE  # {ctrl, ctrl_of, mn, mods, tables}
    exp_mods: Sequence[str] = ()  # export modifier words
    exp_slots: Mapping[str, Sequence[int | None]] = EMPTY_TABLE  # "compr/en" -> source slot per position
    exp_target: Mapping[str, str] = EMPTY_TABLE  # TARGET value -> name
    format: Mapping[str, str] = EMPTY_TABLE  # buffer FORMAT value -> token
    gpr_idx: Sequence[str] = ()  # s_set_gpr_idx_on mode value -> token
    hwreg: Mapping[str, str] = EMPTY_TABLE  # hardware register id -> name
    hwreg_aliases: Mapping[str, str] = EMPTY_TABLE  # other name LLVM's assembler accepts (HW_REG_MODE on GFX12) -> id
    image_forms: Mapping[str, Any] = EMPTY_TABLE  # {plans: key -> [gather, table], tables}
    imm_hex_above_64: Mapping[str, Sequence[int]] = EMPTY_TABLE  # key -> operand positions printed in hex above 64
    interp_param: Mapping[str, str] = EMPTY_TABLE  # VSRC value -> p10/p20/p0
    lds_forms: Mapping[str, LdsForm] = EMPTY_TABLE
    literal_types: Mapping[str, str] = EMPTY_TABLE  # key -> the type a literal is printed as
    must_zero: Mapping[str, int] = EMPTY_TABLE  # encoding -> reserved bits
    no_literal: Mapping[str, Sequence[str]] = EMPTY_TABLE  # key -> fields that take no literal
    sdwa: Mapping[str, Any] = EMPTY_TABLE  # {bits, mn, mods, sels}
    sendmsg: Mapping[str, Mapping[str, Any]] = EMPTY_TABLE  # message instruction -> {keep, low}
    sendmsg_rtn: Mapping[str, Sequence[str]] = EMPTY_TABLE  # s_sendmsg_rtn_* -> message token per value
    src_note: Mapping[str, Mapping[str, str]] = EMPTY_TABLE  # key -> operand position -> note
    src_rejects: Mapping[str, Mapping[str, Sequence[str]]] = EMPTY_TABLE  # key -> position -> rejected source kinds
    src_tables: Mapping[str, Any] = EMPTY_TABLE  # {ops: key -> position -> table index, tables}
    th_scope: Mapping[str, Mapping[str, str]] = EMPTY_TABLE  # GFX12 th: token -> "TH/SCOPE" -> token
    vaddr_lists: Mapping[str, AddressList] = EMPTY_TABLE
    version_codes: Mapping[str, str] = EMPTY_TABLE  # s_version code -> name
    version_flags: Sequence[Sequence[Any]] = ()  # [bit, name] of s_version's flags
    vop3dpp: Mapping[str, Mapping[str, str]] = EMPTY_TABLE  # {dpp16, dpp8}: key -> mnemonic
    vopd: Mapping[str, str] = EMPTY_TABLE  # "OPX/OPY" -> template with {FIELD} slots
    vopd_zero: Mapping[str, VopdZeroForm] = EMPTY_TABLE  # "OPX/OPY" -> form with fields left 0

    JSON_KEYS: ClassVar[Mapping[str, str]] = {}  # (filled below: the same names)


NamedTables.JSON_KEYS = {f.name: f.name for f in dataclasses.fields(NamedTables)}
_TOP_TYPES: dict[str, tuple] = {
    f.name: (str,) if f.type == "str" else (list,) if f.type.startswith("Sequence") else (dict, type(None))
    for f in dataclasses.fields(NamedTables)}
_RECORDS: dict[str, tuple] = {"vaddr_lists": (AddressList, _ADDRESS_TYPES), "lds_forms": (LdsForm, _LDS_TYPES),
                              "vopd_zero": (VopdZeroForm, _VOPD_ZERO_TYPES)}


def named_from_json(name: str, raw: object) -> NamedTables:
    """The tables of one file's JSON object (``name`` names it in errors)."""
    tables = {k: v for k, v in check_keys(name, raw, _TOP_TYPES).items() if v is not None}
    for key, (cls, types) in _RECORDS.items():
        if key in tables:
            tables[key] = {k: read_record(cls, f"{name} {key}.{k}", x, types) for k, x in tables[key].items()}
    if "counts" in tables:
        tables["counts"] = {k: tuple(read_record(RegisterCount, f"{name} counts.{k}[{i}]", c, _COUNT_TYPES)
                                     for i, c in enumerate(lst)) for k, lst in tables["counts"].items()}
    return NamedTables(**tables)


@functools.lru_cache(maxsize=None)
def load_named(arch_name: str) -> NamedTables:
    path = DATA_DIR / f"named_{arch_name}.json"
    if not path.exists():
        donor = DONOR.get(arch_name)
        return load_named(donor) if donor else NamedTables()
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise PlanFileError(f"{path.name}: not a named-table file ({type(e).__name__}: {e})") from None
    return named_from_json(path.name, raw)
