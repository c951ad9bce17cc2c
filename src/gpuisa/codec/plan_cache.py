"""The data folder's cache of typed plans: one plan file's records as plain tuples (``marshal``, sealed with a CRC
by ``cachefile.seal``), each distinct operand and modifier once.

Building the records from the JSON (parse, check every key, make the objects) takes about three times as long
as parsing it; from this cache they are made in less than the parse alone.  A cache entry is keyed by the plan
file's CRC-32 and length and by the records' field names (a damaged, stale or foreign file is made again);
where the data folder cannot be written the process keeps what it built.
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Any

from .plan_types import EMPTY_TABLE, ModifierPlan, OperandPlan, Plan, ReturnPlan

_OPERAND = tuple(f.name for f in dataclasses.fields(OperandPlan))
_MODIFIER = tuple(f.name for f in dataclasses.fields(ModifierPlan))
_RETURN = tuple(f.name for f in dataclasses.fields(ReturnPlan))
_FORMAT = ("typed-plans", 1, _OPERAND, _MODIFIER, _RETURN, Plan._fields)
_TABLES = _OPERAND.index("tables")  # (the one operand field whose empty value is the shared EMPTY_TABLE)


def _flat(obj, names: tuple[str, ...]) -> tuple:
    return tuple(None if (v := getattr(obj, n)) is EMPTY_TABLE else v for n in names)


def _pack(plans: dict[str, Plan | None]) -> tuple:
    index: dict[int, int] = {}
    ops: list[tuple] = []
    mods: list[tuple] = []

    def ref(obj, rows: list[tuple], names: tuple[str, ...]) -> int:
        i = index.get(id(obj))
        if i is None:
            i = index[id(obj)] = len(rows)
            rows.append(_flat(obj, names))
        return i

    def row(p: Plan) -> tuple:
        return (p.word, p.mnemonic, tuple(ref(o, ops, _OPERAND) for o in p.operands), p.size, p.base_mods,
                {f: ref(m, mods, _MODIFIER) for f, m in p.modifiers.items()}, dict(p.rejected), dict(p.templates),
                p.encode_word, {f: {v: row(a) for v, a in by_v.items()} for f, by_v in p.alternatives.items()},
                None if p.returning is None else _flat(p.returning, _RETURN), p.lo128)

    return ops, mods, {key: None if p is None else row(p) for key, p in plans.items()}


def _unpack(packed: Any) -> dict[str, Plan | None]:
    op_rows, mod_rows, rows = packed
    ops = []
    for r in op_rows:
        vals = list(r)
        vals[_TABLES] = vals[_TABLES] or EMPTY_TABLE
        ops.append(OperandPlan(*vals))
    mods = [ModifierPlan(*r) for r in mod_rows]

    def plan(r: tuple) -> Plan:
        w, m, oi, size, base, mi, bad, tmpl, e, alt, ret, lo = r
        return Plan(w, m, tuple([ops[i] for i in oi]), size, base,
                    {f: mods[i] for f, i in mi.items()} if mi else EMPTY_TABLE, bad or EMPTY_TABLE,
                    tmpl or EMPTY_TABLE, e,
                    {f: {v: plan(a) for v, a in by_v.items()} for f, by_v in alt.items()} if alt else EMPTY_TABLE,
                    None if ret is None else ReturnPlan(*ret), lo)

    return {key: None if r is None else plan(r) for key, r in rows.items()}


def _where(name: str) -> str:
    from ..cachefile import cache_path

    return cache_path(f"typed-{name.removesuffix('.json')}.marshal")


def load(name: str, data: bytes) -> dict[str, Plan | None] | None:
    """The records of plan file ``name`` whose bytes are ``data``, if the cache holds them; else None."""
    from ..cachefile import read_stamped

    got = read_stamped(_where(name), (_FORMAT, zlib.crc32(data), len(data)))
    if got is None:
        return None
    try:
        return _unpack(got)
    except (ValueError, TypeError, IndexError, KeyError):
        return None  # (rows of another shape under the same stamp: made again)


def store(name: str, data: bytes, plans: dict[str, Plan | None]) -> None:
    from ..cachefile import write_stamped

    write_stamped(_where(name), (_FORMAT, zlib.crc32(data), len(data)), _pack(plans))  # (not writable: made again)
