"""Executable semantics of value-computing PTX instructions (the project's own formulation).

``evaluate_ptx("vsub.s32.s32.u32.sat d, a.h1, b.h1", {"a": ..., "b": ...})`` returns
``{"outputs": {"d": raw_int}}``: operands are raw bit patterns of their register
width; immediates may appear in place of registers.

Covered: video scalar (vadd vsub vabsdiff vmin vmax vshl vshr vset, with byte/half
selects, .sat, secondary .add/.min/.max and merge into a selected byte/half of c;
vmad with operand negation, .po, .shr7/.shr15 and .sat), fns,
video SIMD (vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4 with lane
selects, masks and .add), integer/logic instructions (add sub mul mad mul24 mad24
sad min max abs neg popc clz brev bfe bfi and or xor not cnot shl shr lop3 prmt
(generic and .f4e .b4e .rc8 .ecl .ecr .rc16) dp4a dp2a div rem bfind bmsk szext shf;
.pred logic; add/min/max on s16x2/u16x2, .relu on min/max.s32 and .s16x2),
floating point (semantics_float: add sub mul fma mad div min max abs neg rcp sqrt
rsqrt copysign, approximate sin cos lg2 ex2 tanh; testp here), comparison/selection and carry arithmetic (semantics_cmp: setp set selp
slct, add.cc addc sub.cc subc mad.cc madc) and conversions (semantics_cvt: cvt).
Anything else raises ``UnsupportedInstruction``.

The result is ``{"outputs": {...}, "fidelity": "exact" | "approximate"}`` plus
``error_bound`` (the documented bound, in our words) for approximate instructions.
Predicates are 0/1; the carry flag is the pseudo-operand ``CC.CF``; floats are raw bits.
"""

from __future__ import annotations

import re

from . import semantics_cmp, semantics_cvt, semantics_float
from .match import classify, dot_tokens, split_instruction, split_top
from .unsupported import UnsupportedInstruction

COVERED = ("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset", "vadd2", "vsub2", "vavrg2",
           "vabsdiff2", "vmin2", "vmax2", "vset2", "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4",
           "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "min", "max", "abs", "neg", "popc", "clz", "brev",
           "bfe", "bfi", "and", "or", "xor", "not", "cnot", "shl", "shr", "lop3", "prmt", "dp4a", "dp2a",
           "div", "rem", "bfind", "bmsk", "szext", "shf", "fns", "vmad", "testp",
           "fma", "rcp", "sqrt", "rsqrt", "copysign", "sin", "cos", "lg2", "ex2", "tanh",
           "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64",
           "setp", "set", "selp", "slct", "add.cc", "addc", "sub.cc", "subc", "mad.cc", "madc", "cvt")
TYPE_RE = re.compile(r"^\.([usb])(8|16|32|64)$")
CMP = {".eq": lambda x, y: x == y, ".ne": lambda x, y: x != y, ".lt": lambda x, y: x < y,
       ".le": lambda x, y: x <= y, ".gt": lambda x, y: x > y, ".ge": lambda x, y: x >= y}


def _mask(bits: int) -> int:
    return (1 << bits) - 1


def _signed(v: int, bits: int) -> int:
    v &= _mask(bits)
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def _as(v: int, signed: bool, bits: int) -> int:
    return _signed(v, bits) if signed else v & _mask(bits)


def _clamp(v: int, signed: bool, bits: int) -> int:
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, _mask(bits))
    return max(lo, min(hi, v))


def _value(item: dict, inputs: dict[str, int]) -> int:
    name = item.get("name", item["text"])
    if name in inputs:
        v = int(inputs[name])
    else:
        try:
            v = int(name, 0)
        except ValueError:
            raise UnsupportedInstruction(f"no input value for operand {name!r}") from None
    return -v if item.get("prefix") == "-" else v


def _select(v: int, signed: bool, sel: str | None) -> int:
    if sel is None:
        return _as(v, signed, 32)
    n = int(sel[2:])
    bits = 8 if sel[1] == "b" else 16
    return _as(v >> (n * bits), signed, bits)


def _video_scalar(op: str, toks: list[str], items: list[dict], inputs) -> tuple[str, int]:
    types = [t for t in toks if t in (".u32", ".s32")]
    mods = set(toks)
    d_signed = types[0] == ".s32"
    if op == "vset":  # the comparison's result, d and c are unsigned whatever the source types
        d_signed, a_s, b_s = False, types[0] == ".s32", types[1] == ".s32"
    else:
        a_s, b_s = types[1] == ".s32", types[2] == ".s32"
    a = _select(_value(items[1], inputs), a_s, (items[1]["suffixes"] or [None])[0])
    braw = _value(items[2], inputs)
    b = _select(braw, b_s, (items[2]["suffixes"] or [None])[0])
    if op == "vadd":
        t = a + b
    elif op == "vsub":
        t = a - b
    elif op == "vabsdiff":
        t = abs(a - b)
    elif op == "vmin":
        t = min(a, b)
    elif op == "vmax":
        t = max(a, b)
    elif op in ("vshl", "vshr"):
        n = b & _mask(32)
        n = min(n, 32) if ".clamp" in mods else n & 31
        t = a << n if op == "vshl" else a >> n
        if op == "vshl":
            t = _as(t, a_s, 32) if ".sat" not in mods else t
    else:
        cmp = next(t for t in toks if t in CMP)
        t = int(CMP[cmp](a, b))
    dsel = (items[0]["suffixes"] or [None])[0]
    width = 32 if dsel is None else (8 if dsel[1] == "b" else 16)
    if ".sat" in mods:
        t = _clamp(t, d_signed, width)
    c = _value(items[3], inputs) if len(items) > 3 else 0
    if ".add" in mods:
        t = t + _as(c, d_signed, 32)
    elif ".min" in mods:
        t = min(t, _as(c, d_signed, 32))
    elif ".max" in mods:
        t = max(t, _as(c, d_signed, 32))
    if dsel is not None:
        shift = int(dsel[2:]) * width
        return items[0]["name"], (c & ~(_mask(width) << shift) | ((t & _mask(width)) << shift)) & _mask(32)
    return items[0]["name"], t & _mask(32)


def _lanes(a: int, b: int, sel: str, n: int) -> list[int]:
    bits = 32 // n
    pool = (b << 32 | a) & _mask(64)
    digits = [int(ch) for ch in sel[2:] if ch.isdigit()] if sel[1] == "h" else [int(ch) for ch in sel[2:]]
    return [(pool >> (d * bits)) & _mask(bits) for d in reversed(digits)]  # lane 0 first


def _video_simd(op: str, n: int, toks: list[str], items: list[dict], inputs) -> tuple[str, int]:
    bits = 32 // n
    types = [t for t in toks if t in (".u32", ".s32")]
    mods = set(toks)
    base = op[:-1]
    if base == "vset":
        d_s, a_s, b_s = False, types[0] == ".s32", types[1] == ".s32"
    else:
        d_s, a_s, b_s = types[0] == ".s32", types[1] == ".s32", types[2] == ".s32"
    a, b = _value(items[1], inputs) & _mask(32), _value(items[2], inputs) & _mask(32)
    c = _value(items[3], inputs) & _mask(32)
    dflt_a = ".h10" if n == 2 else ".b3210"
    dflt_b = ".h32" if n == 2 else ".b7654"
    va = [_as(x, a_s, bits) for x in _lanes(a, b, (items[1]["suffixes"] or [dflt_a])[0], n)]
    vb = [_as(x, b_s, bits) for x in _lanes(a, b, (items[2]["suffixes"] or [dflt_b])[0], n)]
    vc = [(c >> (i * bits)) & _mask(bits) for i in range(n)]
    mask_sel = (items[0]["suffixes"] or [".h10" if n == 2 else ".b3210"])[0]
    on = {int(ch) for ch in mask_sel[2:]}
    out = []
    for i in range(n):
        x, y = va[i], vb[i]
        if base == "vadd":
            t = x + y
        elif base == "vsub":
            t = x - y
        elif base == "vavrg":
            s = x + y
            t = (s + 1) >> 1 if s >= 0 else s >> 1
        elif base == "vabsdiff":
            t = abs(x - y)
        elif base == "vmin":
            t = min(x, y)
        elif base == "vmax":
            t = max(x, y)
        else:
            t = int(CMP[next(t for t in toks if t in CMP)](x, y))
        if ".sat" in mods:
            t = _clamp(t, d_s, bits)
        out.append(t)
    if ".add" in mods:
        d = _as(c, d_s, 32)
        for i in range(n):
            if i in on:
                d += out[i]
        return items[0]["name"], d & _mask(32)
    d = 0
    for i in range(n):
        d |= ((out[i] if i in on else vc[i]) & _mask(bits)) << (i * bits)
    return items[0]["name"], d


def _int_type(toks: list[str]) -> tuple[bool, int]:
    if ".pred" in toks:
        return False, 1
    for t in reversed(toks):
        m = TYPE_RE.match(t)
        if m:
            return m.group(1) == "s", int(m.group(2))
    raise UnsupportedInstruction(f"no integer type in {''.join(toks)}")


def _packed_minmax(op: str, toks: list[str], items: list[dict], inputs) -> tuple[str, int]:
    """add/min/max on .s16x2/.u16x2 lane by lane (lane 0 low; add wraps); .relu clamps negative results to 0."""
    signed = ".s16x2" in toks
    a, b = _value(items[1], inputs), _value(items[2], inputs)
    d = 0
    for lane in range(2):
        x, y = _as(a >> (16 * lane), signed, 16), _as(b >> (16 * lane), signed, 16)
        t = x + y if op == "add" else min(x, y) if op == "min" else max(x, y)
        if ".relu" in toks:
            t = max(t, 0)
        d |= (t & 0xFFFF) << (16 * lane)
    return items[0]["name"], d


def _integer(op: str, toks: list[str], items: list[dict], inputs) -> tuple[str, int]:
    if op in ("add", "min", "max") and (".s16x2" in toks or ".u16x2" in toks):
        return _packed_minmax(op, toks, items, inputs)
    signed, bits = _int_type(toks)
    mods = set(toks)
    vals = [_value(it, inputs) for it in items[1:]]
    src = [_as(v, signed, bits) for v in vals]
    dname = items[0]["name"]
    if op == "fns":
        return dname, _fns(vals[0], vals[1], vals[2])
    if op == "prmt":
        mode = next((m for m in PRMT_MODES if m in mods), None)
        return dname, _prmt(vals[0], vals[1], vals[2], mode)
    if op in ("dp4a", "dp2a"):
        return dname, _dot(op, toks, vals)
    result = (_arith(op, mods, vals, src, signed, bits) or _bits(op, mods, vals, src, signed, bits)
              or _logic(op, mods, vals, src, signed, bits))
    if result is None:
        raise UnsupportedInstruction(op)
    t, out_bits = result
    return dname, t & _mask(out_bits)


def _arith(op: str, mods: set[str], vals: list[int], src: list[int], signed: bool,
           bits: int) -> tuple[int, int] | None:
    """(value, result bits) of add/sub/mul/mad (and 24-bit forms), sad, min/max, abs/neg, div/rem."""
    # None for another op
    out_bits = bits
    if op in ("add", "sub"):
        t = src[0] + src[1] if op == "add" else src[0] - src[1]
        if ".sat" in mods:
            t = _clamp(t, True, 32)
    elif op in ("mul", "mad"):
        p = src[0] * src[1]
        if ".wide" in mods:
            out_bits = 2 * bits
            t = p
        elif ".hi" in mods:
            t = p >> bits
        else:
            t = p
        if op == "mad":
            t += _as(vals[2], signed, out_bits)
            if ".sat" in mods:
                t = _clamp(t, True, 32)
    elif op in ("mul24", "mad24"):
        a24, b24 = _as(vals[0], signed, 24), _as(vals[1], signed, 24)
        p = a24 * b24
        t = (p >> 16) if ".hi" in mods else p
        if op == "mad24":  # the 32-bit part read in the instruction's type, plus c
            t = _as(t, signed, 32) + src[2]
            if ".sat" in mods:
                t = _clamp(t, True, 32)
    elif op == "sad":
        t = abs(src[0] - src[1]) + src[2]
    elif op in ("min", "max"):
        t = min(src[:2]) if op == "min" else max(src[:2])
        if ".relu" in mods:  # a negative result becomes 0
            t = max(t, 0)
    elif op == "abs":
        t = abs(_signed(vals[0], bits))
    elif op == "neg":
        t = -_signed(vals[0], bits)
    elif op in ("div", "rem"):
        if src[1] == 0:
            raise UnsupportedInstruction(f"{op} by zero gives an unspecified value in PTX")
        q = abs(src[0]) // abs(src[1]) * (-1 if (src[0] < 0) != (src[1] < 0) else 1)
        t = q if op == "div" else src[0] - q * src[1]
    else:
        return None
    return t, out_bits


def _bits(op: str, mods: set[str], vals: list[int], src: list[int], signed: bool,
          bits: int) -> tuple[int, int] | None:
    """(value, result bits) of bit counts and fields: popc, clz, brev, bfe, bfi, bfind."""
    # None for another op
    out_bits = bits
    if op == "popc":
        t, out_bits = bin(vals[0] & _mask(bits)).count("1"), 32
    elif op == "clz":
        v = vals[0] & _mask(bits)
        t, out_bits = bits - v.bit_length(), 32
    elif op == "brev":
        t = int(format(vals[0] & _mask(bits), f"0{bits}b")[::-1], 2)
    elif op == "bfe":
        a, pos, ln = vals[0] & _mask(bits), vals[1] & 0xFF, min(vals[2] & 0xFF, bits)
        if ln == 0:
            t = 0
        else:
            width = min(ln, bits - pos) if pos < bits else 0
            t = (a >> pos) & _mask(width) if width else 0
            if signed and (a >> min(pos + ln - 1, bits - 1)) & 1:
                t |= _mask(bits) & ~_mask(width)
    elif op == "bfi":
        a, b, pos, ln = vals[0], vals[1], vals[2] & 0xFF, vals[3] & 0xFF
        m = (_mask(ln) << pos) & _mask(bits) if pos < bits else 0
        t = (b & ~m) | ((a << pos) & m)
    elif op == "bfind":
        v = vals[0] & _mask(bits)
        if signed and v >> (bits - 1) & 1:
            v = ~v & _mask(bits)
        pos = v.bit_length() - 1
        t, out_bits = (_mask(32) if pos < 0 else (bits - 1 - pos if ".shiftamt" in mods else pos)), 32
    else:
        return None
    return t, out_bits


def _logic(op: str, mods: set[str], vals: list[int], src: list[int], signed: bool,
           bits: int) -> tuple[int, int] | None:
    """(value, result bits) of and/or/xor/not/cnot, shifts, lop3, bmsk, szext, shf."""
    # None for another op
    out_bits = bits
    if op in ("and", "or", "xor"):
        a, b = vals[0] & _mask(bits), vals[1] & _mask(bits)
        t = a & b if op == "and" else a | b if op == "or" else a ^ b
    elif op == "not":
        t = ~vals[0]
    elif op == "cnot":
        t = int((vals[0] & _mask(bits)) == 0)
    elif op == "shl":
        n = vals[1] & _mask(32)
        t = (vals[0] << n) if n < bits else 0
    elif op == "shr":
        n = min(vals[1] & _mask(32), bits)
        t = (src[0] >> n) if signed else ((vals[0] & _mask(bits)) >> n)
    elif op == "lop3":
        a, b, c, lut = vals[0], vals[1], vals[2], vals[3] & 0xFF
        t = 0
        for i in range(bits):
            idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
            t |= ((lut >> idx) & 1) << i
    elif op == "bmsk":
        a, b = vals[0] & _mask(32), vals[1] & _mask(32)
        a, b = (min(a, 32), min(b, 32)) if ".clamp" in mods else (a & 31, b & 31)
        t = (_mask(b) << a) if a < 32 else 0
    elif op == "szext":
        b = vals[1] & _mask(32)
        b = min(b, 32) if ".clamp" in mods else b & 31
        t = _as(vals[0], signed, b) if b else 0
    elif op == "shf":
        n = vals[2] & _mask(32)
        n = min(n, 32) if ".clamp" in mods else n & 31
        pair = (vals[1] & _mask(32)) << 32 | (vals[0] & _mask(32))
        t = ((pair << n) >> 32) if ".l" in mods else (pair >> n)
    else:
        return None
    return t, out_bits


def _fns(mask: int, base: int, offset: int) -> int:
    """Position of the |offset|-th set bit of mask counting from bit base upwards (offset > 0) or
    downwards (offset < 0), base itself included; offset 0 asks whether bit base is set.  No such
    bit: all ones.  A base above 31 is undefined in PTX."""
    mask, base, offset = mask & _mask(32), base & _mask(32), _signed(offset, 32)
    if base > 31:
        raise UnsupportedInstruction("fns with a base above 31 gives an undefined value in PTX")
    if offset == 0:
        return base if mask >> base & 1 else _mask(32)
    step = 1 if offset > 0 else -1
    left = abs(offset)
    pos = base
    while 0 <= pos < 32:
        if mask >> pos & 1:
            left -= 1
            if left == 0:
                return pos
        pos += step
    return _mask(32)


def _vmad(toks: list[str], items: list[dict], inputs) -> tuple[str, int]:
    """(a*b) + c on selected bytes/halves, in 128-bit two's complement: a product negated when exactly
    one of a and b carries `-`, else c negated when it does (ones' complement plus one, as the
    hardware forms it); .po adds one instead; the sum is signed when a type is signed or anything
    is negated; then .shr7/.shr15 and .sat (to the signed or unsigned 32-bit range)."""
    types = [t for t in toks if t in (".u32", ".s32")]
    a_s, b_s = types[1] == ".s32", types[2] == ".s32"
    neg = [it.get("prefix") == "-" for it in items[1:4]]
    raw = [_value({**it, "prefix": None}, inputs) for it in items[1:4]]
    if neg[0] != neg[1] and neg[2]:
        raise UnsupportedInstruction("vmad negates either the product or c, not both")
    ta = _select(raw[0], a_s, (items[1]["suffixes"] or [None])[0])
    tb = _select(raw[1], b_s, (items[2]["suffixes"] or [None])[0])
    c = raw[2] & _mask(32)
    neg_product = neg[0] != neg[1]
    signed_final = a_s or b_s or neg_product or neg[2]
    tmp, lsb = (ta * tb) & _mask(128), 0
    if ".po" in toks:
        lsb = 1
    elif neg_product:
        tmp, lsb = ~tmp & _mask(128), 1
    elif neg[2]:
        c, lsb = ~c & _mask(32), 1
    c_wide = (_signed(c, 32) if signed_final else c) & _mask(128)
    tmp = (tmp + c_wide + lsb) & _mask(128)
    shift = 7 if ".shr7" in toks else 15 if ".shr15" in toks else 0
    result = (tmp >> shift) & _mask(64)
    if ".sat" in toks:
        result = _clamp(_signed(result, 64), True, 32) if signed_final else _clamp(result, False, 32)
    return items[0]["name"], result & _mask(32)


def _lop3_pred(toks: list[str], items: list[dict], inputs) -> dict:
    """lop3.BoolOp.b32 d|p, a, b, c, immLut, q: d as plain lop3, p = (d != 0) BoolOp q; d may be the sink _."""
    dname, pname = (x.strip() for x in items[0]["text"].split("|", 1))
    _, d = _integer("lop3", toks, [{"name": dname}] + items[1:5], inputs)
    q = _value({**items[5], "prefix": None}, inputs) & 1
    if items[5].get("prefix") == "!":
        q ^= 1
    nonzero = int(d != 0)
    p = nonzero | q if ".or" in toks else nonzero & q
    outputs = {pname: p} if dname == "_" else {dname: d, pname: p}
    return {"outputs": outputs, "fidelity": "exact"}


# prmt's special modes: the source byte (0..7 of {b, a}) that destination byte ``i`` takes when the two
# low bits of c are ``s`` (the PTX ISA's mode table, written as the rule each row follows).
PRMT_MODES = {
    ".f4e": lambda s, i: s + i,  # forward 4 extract: bytes s+3 .. s
    ".b4e": lambda s, i: (s - i) & 7,  # backward 4 extract: s, s-1, ... wrapping around the 8 bytes
    ".rc8": lambda s, i: s,  # replicate byte s
    ".ecl": lambda s, i: max(s, i),  # edge clamp left
    ".ecr": lambda s, i: min(s, i),  # edge clamp right
    ".rc16": lambda s, i: 2 * (s & 1) + (i & 1),  # replicate half-word s & 1
}


def _prmt(a: int, b: int, sel: int, mode: str | None = None) -> int:
    pool = [((b << 32 | a & _mask(32)) >> (8 * i)) & 0xFF for i in range(8)]
    d = 0
    for lane in range(4):
        if mode is not None:  # the two low bits of c pick one row of the mode's table; no sign replication
            byte = pool[PRMT_MODES[mode](sel & 3, lane)]
        else:
            s = (sel >> (4 * lane)) & 0xF
            byte = pool[s & 7]
            if s & 8:  # replicate the sign bit
                byte = 0xFF if byte & 0x80 else 0
        d |= byte << (8 * lane)
    return d


def _dot(op: str, toks: list[str], vals: list[int]) -> int:
    types = [t for t in toks if t in (".u32", ".s32")]
    a_s, b_s = types[0] == ".s32", types[1] == ".s32"
    a, b, c = vals[0], vals[1], vals[2]
    acc = _as(c, a_s or b_s, 32)
    if op == "dp4a":
        for i in range(4):
            acc += _as(a >> (8 * i), a_s, 8) * _as(b >> (8 * i), b_s, 8)
    else:
        half = 2 if ".hi" in toks else 0
        for i in range(2):
            acc += _as(a >> (16 * i), a_s, 16) * _as(b >> (8 * (i + half)), b_s, 8)
    return acc & _mask(32)


def _testp(toks: list[str], items: list[dict], inputs) -> dict:
    from fractions import Fraction

    from . import floatfmt as ff

    fmt = next(t for t in toks if t in (".f32", ".f64"))
    kind, _, mag = ff.decode(_value(items[1], inputs), fmt)
    zero = kind == "num" and mag == 0
    sub = kind == "num" and not zero and mag < Fraction(2) ** ff.emin(fmt)
    tests = {".finite": kind == "num", ".infinite": kind == "inf", ".number": kind != "nan",
             ".notanumber": kind == "nan", ".normal": kind == "num" and not sub, ".subnormal": sub}  # +-0 is normal
    test = next(t for t in toks if t in tests)
    return {"outputs": {items[0]["name"]: int(tests[test])}, "fidelity": "exact"}


def _float_in(toks: list[str]) -> bool:
    return any(t in (".f16", ".bf16", ".f32", ".f64", ".f16x2", ".bf16x2", ".f32x2") for t in toks)


def evaluate_ptx(text: str, inputs: dict[str, int]) -> dict:
    """{"outputs": {destination name: raw integer}, "fidelity": ...} for one instruction."""
    _, opcode, operand_text = split_instruction(text)
    toks = dot_tokens(opcode)
    head = toks[0] if toks else ""
    items = [classify(x) for x in split_top(operand_text)]
    if head not in COVERED:
        raise UnsupportedInstruction(f"no executable semantics for {head or text!r}; covered: {', '.join(COVERED)}")
    try:
        return _dispatch(head, toks, items, inputs)
    except (StopIteration, IndexError, KeyError) as exc:
        raise UnsupportedInstruction(f"{opcode} is not a form the evaluator covers ({type(exc).__name__})") from None


def _dispatch(head: str, toks: list[str], items: list[dict], inputs) -> dict:
    def read(item):
        return _value(item, inputs)

    if head in ("setp", "set"):
        return semantics_cmp.setp_set(head, toks, items, inputs, read)
    if head in ("selp", "slct"):
        return semantics_cmp.select(head, toks, items, inputs, read)
    if head in ("addc", "subc", "madc") or (head in ("add", "sub", "mad") and ".cc" in toks):
        return semantics_cmp.carry(head, toks, items, inputs, read)
    if head == "cvt":
        return semantics_cvt.evaluate(toks, items, inputs, read)
    if head == "testp":
        return _testp(toks, items, inputs)
    if _float_in(toks) and head not in ("mul24", "mad24"):
        if head not in semantics_float.COVERED_FLOAT:
            raise UnsupportedInstruction(f"no executable semantics for {head} on floating-point types")
        return semantics_float.evaluate(head, toks, items, inputs)
    if head == "lop3" and items and items[0]["kind"] == "pred2":
        return _lop3_pred(toks, items, inputs)
    if head == "vmad":
        name, value = _vmad(toks, items, inputs)
    elif head in ("vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset"):
        name, value = _video_scalar(head, toks, items, inputs)
    elif head[:-1] in ("vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset") and head[-1] in "24":
        name, value = _video_simd(head, 4 if head.endswith("4") else 2, toks, items, inputs)
    else:
        name, value = _integer(head, toks, items, inputs)
    return {"outputs": {name: value}, "fidelity": "exact"}


# Categories of the catalog whose instructions compute values (the ones semantics can cover).
VALUE_CATEGORIES = ("integer", "extended", "logic", "compare", "float", "video")
VALUE_INSTRUCTIONS = {"cvt": "conversion"}  # value-computing instructions filed under another category


def coverage() -> dict:
    """Which value-computing PTX instructions of the catalog have executable semantics."""
    from .catalog import families

    by_category: dict[str, dict] = {}
    failed = []
    for fam in families():
        for inst in fam["instructions"]:
            cat = VALUE_INSTRUCTIONS.get(inst["name"], inst.get("category"))
            if cat not in VALUE_CATEGORIES and inst["name"] not in VALUE_INSTRUCTIONS:
                continue
            row = by_category.setdefault(cat, {"total": 0, "executable": 0})
            row["total"] += 1
            if inst["name"] in COVERED:
                row["executable"] += 1
            else:
                failed.append({"name": inst["name"], "category": cat, "reason": "no executable semantics yet"})
    total = sum(r["total"] for r in by_category.values())
    done = sum(r["executable"] for r in by_category.values())
    return {"ptx": {"total": total, "executable": done, "categories": by_category, "failed": failed}}
