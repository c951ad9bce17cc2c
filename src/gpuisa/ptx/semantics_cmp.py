"""Executable semantics of PTX comparison, selection and extended-precision integer instructions.

setp/set compare two integers or floats with any comparison operator (unsigned lo/ls/hi/hs;
ordered eq..ge which are false on NaN, unordered equ..geu which are true on NaN, num, nan),
optionally combine with a predicate c (.and/.or/.xor, ``!c`` negates).  setp writes p = cmp OP c
and, for ``p|q``, q = !cmp OP c; set writes all ones (integer destination) or 1.0 in the float
destination's format (f32, f16, bf16) for true.  On .f16x2/.bf16x2 each half is compared on its
own: setp writes the low half's result to p and the high half's to q, set one result per half.  selp picks a
when the predicate c is 1; slct picks a when c >= 0 (signed integer or float).  Predicates are 0/1.

Extended precision: add.cc/addc/sub.cc/subc/mad.cc/madc read and write the carry flag as the
pseudo-operand ``CC.CF`` (0/1): for subtraction it is the borrow.
"""

from __future__ import annotations

from . import floatfmt as ff
from .semantics_float import float_operand
from .unsupported import UnsupportedInstruction

INT_CMP = {".eq": lambda x, y: x == y, ".ne": lambda x, y: x != y, ".lt": lambda x, y: x < y,
           ".le": lambda x, y: x <= y, ".gt": lambda x, y: x > y, ".ge": lambda x, y: x >= y,
           ".lo": lambda x, y: x < y, ".ls": lambda x, y: x <= y, ".hi": lambda x, y: x > y,
           ".hs": lambda x, y: x >= y}
UNSIGNED_CMP = (".lo", ".ls", ".hi", ".hs")
FLOAT_CMP = (".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu",
             ".num", ".nan")
BOOL = {".and": lambda x, y: x & y, ".or": lambda x, y: x | y, ".xor": lambda x, y: x ^ y}
INT_TYPE = {f".{k}{n}": (k == "s", n) for k in "usb" for n in (8, 16, 32, 64)}
CARRY = "CC.CF"
# what set writes for true: 1.0 in a float destination's format, all ones in an integer one
SET_TRUE = {".f32": 0x3F800000, ".f16": 0x3C00, ".bf16": 0x3F80, ".u16": 0xFFFF, ".s16": 0xFFFF,
            ".u32": 0xFFFFFFFF, ".s32": 0xFFFFFFFF}


def _mask(bits: int) -> int:
    return (1 << bits) - 1


def _int(v: int, signed: bool, bits: int) -> int:
    v &= _mask(bits)
    return v - (1 << bits) if signed and v >> (bits - 1) & 1 else v


def compare(cmp: str, a: int, b: int, typ: str, ftz: bool) -> int:
    if typ in INT_TYPE:
        signed, bits = INT_TYPE[typ]
        signed = signed and cmp not in UNSIGNED_CMP
        return int(INT_CMP[cmp](_int(a, signed, bits), _int(b, signed, bits)))
    x, y = ff.decode(a, typ, ftz), ff.decode(b, typ, ftz)
    unordered = x[0] == "nan" or y[0] == "nan"
    if cmp == ".num":
        return int(not unordered)
    if cmp == ".nan":
        return int(unordered)
    if unordered:
        return int(cmp.endswith("u"))  # ordered comparisons are false on NaN, unordered true
    fx = ff.to_float(x) if x[0] == "inf" else ff.signed(x)
    fy = ff.to_float(y) if y[0] == "inf" else ff.signed(y)
    return int(INT_CMP[cmp[:3]](fx, fy))


def _pred(item: dict, inputs: dict, read) -> int:
    v = read({**item, "prefix": None}) & 1
    return v ^ 1 if item.get("prefix") == "!" else v


def setp_set(op: str, toks: list[str], items: list[dict], inputs: dict, read) -> dict:
    cmp = next(t for t in toks[1:] if t in INT_CMP or t in FLOAT_CMP)
    boolop = next((t for t in toks if t in BOOL), None)
    ftz = ".ftz" in toks
    types = [t for t in toks if t in INT_TYPE or t in ff.FORMATS or t in (".f16x2", ".bf16x2")]
    stype = types[-1]
    if stype.endswith("x2"):
        return _packed(op, cmp, boolop, ftz, types, items, inputs, read)
    width = INT_TYPE[stype][1] if stype in INT_TYPE else ff.FORMATS[stype][2]
    first = 1
    a = float_operand(items[first], inputs, stype, width)
    b = float_operand(items[first + 1], inputs, stype, width)
    t = compare(cmp, a, b, stype, ftz)
    c = _pred(items[first + 2], inputs, read) if boolop else None
    out = {}
    if op == "setp":
        dest = items[0]["text"].split("|")
        out[dest[0].strip()] = BOOL[boolop](t, c) if boolop else t
        if len(dest) > 1:
            out[dest[1].strip()] = BOOL[boolop](t ^ 1, c) if boolop else t ^ 1
    else:
        r = BOOL[boolop](t, c) if boolop else t
        out[items[0]["name"]] = SET_TRUE[types[0]] if r else 0
    return {"outputs": out, "fidelity": "exact"}


def _packed(op: str, cmp: str, boolop: str | None, ftz: bool, types: list[str], items: list[dict], inputs: dict,
            read) -> dict:
    """setp/set on .f16x2/.bf16x2: each half compared on its own (lane 0 low); setp writes lane 0's
    result to p and lane 1's to q, set writes each lane's result into its half of d (1.0 in a packed
    float destination, 0xffff in an integer one)."""
    lane_fmt = types[-1][:-2]
    a, b = float_operand(items[1], inputs, lane_fmt, 32), float_operand(items[2], inputs, lane_fmt, 32)
    c = _pred(items[3], inputs, read) if boolop else None
    res = []
    for lane in range(2):
        t = compare(cmp, a >> (16 * lane) & 0xFFFF, b >> (16 * lane) & 0xFFFF, lane_fmt, ftz)
        res.append(BOOL[boolop](t, c) if boolop else t)
    if op == "setp":
        dest = [x.strip() for x in items[0]["text"].split("|")]
        if len(dest) != 2:
            raise UnsupportedInstruction(f"setp on {types[-1]} writes two predicates p|q")
        out = {name: r for name, r in zip(dest, res) if name != "_"}
        return {"outputs": out, "fidelity": "exact"}
    true = SET_TRUE[types[0][:-2]] if types[0].endswith("x2") else 0xFFFF
    if types[0] not in (".f16x2", ".bf16x2", ".u32", ".s32"):
        raise UnsupportedInstruction(f"set.{types[0][1:]}.{types[-1][1:]} is not a form of set")
    return {"outputs": {items[0]["name"]: (true if res[0] else 0) | (true if res[1] else 0) << 16},
            "fidelity": "exact"}


def select(op: str, toks: list[str], items: list[dict], inputs: dict, read) -> dict:
    typ = next(t for t in reversed(toks) if t in INT_TYPE or t in ff.FORMATS)
    a, b = read(items[1]), read(items[2])
    if op == "selp":
        pick = _pred(items[3], inputs, read)
    else:  # slct: the last type is the type of c
        c = read(items[3])
        if typ == ".s32":
            pick = int(_int(c, True, 32) >= 0)
        else:
            v = ff.decode(c, ".f32", ".ftz" in toks)
            pick = int(v[0] != "nan" and (not v[1] or (v[0] == "num" and v[2] == 0)))
    dtype = [t for t in toks if t in INT_TYPE or t in ff.FORMATS][0]
    width = INT_TYPE[dtype][1] if dtype in INT_TYPE else ff.FORMATS[dtype][2]
    return {"outputs": {items[0]["name"]: (a if pick else b) & _mask(width)}, "fidelity": "exact"}


def carry(op: str, toks: list[str], items: list[dict], inputs: dict, read) -> dict:
    """add.cc addc sub.cc subc mad.cc madc (mad{c}.lo/.hi{.cc})."""
    typ = next(t for t in reversed(toks) if t in INT_TYPE)
    signed, bits = INT_TYPE[typ]
    writes_cf = ".cc" in toks
    cf_in = int(inputs.get(CARRY, 0)) & 1 if op in ("addc", "subc", "madc") else 0
    vals = [read(it) & _mask(bits) for it in items[1:]]
    if op in ("add", "addc"):
        t = vals[0] + vals[1] + cf_in
        cf = t >> bits & 1
    elif op in ("sub", "subc"):
        t = vals[0] - vals[1] - cf_in
        cf = int(t < 0)
    else:
        p = _int(vals[0], signed, bits) * _int(vals[1], signed, bits)
        part = (p >> bits) & _mask(bits) if ".hi" in toks else p & _mask(bits)
        t = part + vals[2] + cf_in
        cf = t >> bits & 1
    out = {items[0]["name"]: t & _mask(bits)}
    if writes_cf:
        out[CARRY] = cf
    return {"outputs": out, "fidelity": "exact"}
