"""Evaluate AMD's encoding-condition trees (kept from the XML as nested lists).

A tree is ``["op", type, arg...]``, ``["id", name]`` or ``["lit", value]``.
``INST.<ENC>.<FIELD>`` (two ``.fieldderef`` ops) reads a field value of the
instruction word, given as a mapping of field name -> integer.  This is what
decides whether an encoding variant applies (e.g. VOP2's native form requires
SRC0 not to select DPP/SDWA/literal: ``SRC0 .notwithin {250, 255, 249}``).
"""

from __future__ import annotations

from typing import Mapping


class ConditionError(ValueError):
    pass


_BINARY = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "&&": lambda a, b: bool(a) and bool(b),
    "||": lambda a, b: bool(a) or bool(b), "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
}


def evaluate(tree: list, fields: Mapping[str, int]):
    kind = tree[0]
    if kind == "lit":
        return int(tree[1], 0)
    if kind == "id":
        return tree[1]
    if kind != "op":
        raise ConditionError(f"unknown condition node {kind!r}")
    op, args = tree[1], tree[2:]
    if op == ".fieldderef":
        base, name = args[0], evaluate(args[1], fields)
        if base[0] == "id":
            return ("encoding", name)  # INST.<ENC>: the instruction viewed through one encoding
        if isinstance(evaluate(base, fields), tuple):
            return _field(name, fields)  # INST.<ENC>.<FIELD>
        raise ConditionError(f"cannot dereference {name!r}")
    if op == ".cons_array":
        return [evaluate(a, fields) for a in args]
    if op in (".within", ".notwithin"):
        value, items = evaluate(args[0], fields), evaluate(args[1], fields)
        inside = value in items
        return inside if op == ".within" else not inside
    if op == "!":
        return not evaluate(args[0], fields)
    if op in _BINARY:
        a, b = (evaluate(x, fields) for x in args[:2])
        return _BINARY[op](a, b)
    raise ConditionError(f"unsupported condition operator {op!r}")


def _field(name: str, fields: Mapping[str, int]) -> int:
    if name not in fields:
        raise ConditionError(f"condition reads field {name!r}, which the instruction word does not provide")
    return fields[name]
