"""PTX video instructions (scalar, SIMD, vmad) and packed-integer forms against the document's rules.

Expected values are computed here from the PTX ISA document's semantics (part select with sign or
zero extension by the source type, saturation to the destination's (sub)word range, secondary
operation with c, merge into the selected part of c; SIMD lanes from the {b, a} pool with masks and
.add accumulation), with Python integers; only ``evaluate_ptx`` is under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuisa.ptx.semantics import evaluate_ptx

RNG = np.random.default_rng(99)
M32 = 0xFFFFFFFF
EDGE = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, M32, 0x807F80FF, 0x01FF7F80]


def words(n: int) -> list[int]:
    return EDGE + [int(x) for x in RNG.integers(0, 1 << 32, n)]


def d_of(text: str, **inputs) -> int:
    return evaluate_ptx(text, inputs)["outputs"]["d"]


def part(v: int, signed: bool, sel: str | None) -> int:
    """The selected byte/half (or the whole word), sign- or zero-extended."""
    if sel is None:
        bits, shift = 32, 0
    else:
        bits = 8 if sel[0] == "b" else 16
        shift = int(sel[1]) * bits
    x = (v >> shift) & ((1 << bits) - 1)
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def clamp(v: int, signed: bool, bits: int) -> int:
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return max(lo, min(hi, v))


def video_ref(op: str, dt: str, at: str, bt: str, a: int, b: int, c: int, asel, bsel, dsel, sat: bool,
              op2: str | None, mode: str | None = None, cmp: str | None = None) -> int:
    ta, tb = part(a, at == "s32", asel), part(b, bt == "s32", bsel)
    if op in ("vshl", "vshr"):
        tb = min(tb, 32) if mode == "clamp" else tb & 31
    t = {"vadd": lambda: ta + tb, "vsub": lambda: ta - tb, "vabsdiff": lambda: abs(ta - tb),
         "vmin": lambda: min(ta, tb), "vmax": lambda: max(ta, tb), "vshl": lambda: ta << tb,
         "vshr": lambda: ta >> tb,
         "vset": lambda: int({"eq": ta == tb, "ne": ta != tb, "lt": ta < tb, "le": ta <= tb, "gt": ta > tb,
                              "ge": ta >= tb}[cmp])}[op]()
    if op == "vshl" and not sat:
        t &= M32  # the shifted word
    dbits = 32 if dsel is None else (8 if dsel[0] == "b" else 16)
    if sat:
        t = clamp(t, dt == "s32", dbits)
    cv = part(c, dt == "s32", None)
    if op2 == "add":
        t = t + cv
    elif op2 == "min":
        t = min(t, cv)
    elif op2 == "max":
        t = max(t, cv)
    if dsel is not None:
        shift = int(dsel[1]) * dbits
        keep = c & ~(((1 << dbits) - 1) << shift)
        return (keep | (t & ((1 << dbits) - 1)) << shift) & M32
    return t & M32


SELS = [None, "b0", "b1", "b2", "b3", "h0", "h1"]


@pytest.mark.parametrize("op", ["vadd", "vsub", "vabsdiff", "vmin", "vmax"])
def test_video_scalar(op):
    types = ["u32", "s32"]
    ws = words(12)
    for i in range(400):
        dt, at, bt = (types[int(x)] for x in RNG.integers(0, 2, 3))
        a, b, c = (ws[int(x)] for x in RNG.integers(0, len(ws), 3))
        asel, bsel = SELS[i % 7], SELS[(i // 7) % 7]
        sat = bool(i % 2)
        shape = i % 3
        op2 = ["add", "min", "max"][(i // 3) % 3] if shape == 1 else None
        dsel = SELS[1 + (i // 5) % 6] if shape == 2 else None
        sfx = (".sat" if sat else "") + (f".{op2}" if op2 else "")
        dtext = f"d.{dsel}" if dsel else "d"
        asx, bsx = (f".{asel}" if asel else ""), (f".{bsel}" if bsel else "")
        tail = ", c" if shape else ""
        text = f"{op}.{dt}.{at}.{bt}{sfx} {dtext}, a{asx}, b{bsx}{tail}"
        want = video_ref(op, dt, at, bt, a, b, c if shape else 0, asel, bsel, dsel, sat, op2)
        assert d_of(text, a=a, b=b, c=c) == want, (text, hex(a), hex(b), hex(c))


@pytest.mark.parametrize("op", ["vshl", "vshr"])
def test_video_shifts(op):
    ws = words(8) + [31, 32, 33, 64, 0x100, 0x1F00]
    for i in range(300):
        dt, at = ("u32", "s32")[i % 2], ("u32", "s32")[(i // 2) % 2]
        a, b, c = (ws[int(x)] for x in RNG.integers(0, len(ws), 3))
        mode = ("clamp", "wrap")[(i // 4) % 2]
        sat = bool((i // 8) % 2)
        asel = SELS[i % 7]
        text = f"{op}.{dt}.{at}.u32{'.sat' if sat else ''}.{mode} d, a{'.' + asel if asel else ''}, b"
        want = video_ref(op, dt, at, "u32", a, b, 0, asel, None, None, sat, None, mode)
        assert d_of(text, a=a, b=b, c=c) == want, (text, hex(a), hex(b))


def test_video_vset():
    ws = words(10)
    for i in range(300):
        at, bt = ("u32", "s32")[i % 2], ("u32", "s32")[(i // 2) % 2]
        cmp = ("eq", "ne", "lt", "le", "gt", "ge")[i % 6]
        a, b, c = (ws[int(x)] for x in RNG.integers(0, len(ws), 3))
        asel, bsel = SELS[i % 7], SELS[(i // 3) % 7]
        op2 = (None, "add", "min", "max", "merge")[(i // 5) % 5]
        dsel = SELS[1 + i % 6] if op2 == "merge" else None
        op2 = None if op2 == "merge" else op2
        text = (f"vset.{at}.{bt}.{cmp}{'.' + op2 if op2 else ''} d{'.' + dsel if dsel else ''}, "
                f"a{'.' + asel if asel else ''}, b{'.' + bsel if bsel else ''}{', c' if op2 or dsel else ''}")
        want = video_ref("vset", "u32", at, bt, a, b, c if op2 or dsel else 0, asel, bsel, dsel, False, op2,
                         cmp=cmp)
        assert d_of(text, a=a, b=b, c=c) == want, (text, hex(a), hex(b), hex(c))


def simd_ref(op: str, n: int, dt: str, at: str, bt: str, a: int, b: int, c: int, asel: str, bsel: str,
             mask: str, sat: bool, add: bool, cmp: str | None) -> int:
    bits = 32 // n
    pool = b << 32 | a
    units = [(pool >> (k * bits)) & ((1 << bits) - 1) for k in range(64 // bits)]

    def lanes(sel: str, signed: bool) -> list[int]:
        digits = [int(ch) for ch in sel]  # most significant lane first
        vals = [units[dig] for dig in reversed(digits)]
        return [v - (1 << bits) if signed and v >> (bits - 1) else v for v in vals]

    va, vb = lanes(asel, at == "s32"), lanes(bsel, bt == "s32")
    ts = []
    for x, y in zip(va, vb):
        t = {"vadd": x + y, "vsub": x - y, "vavrg": (x + y + 1) >> 1 if x + y >= 0 else (x + y) >> 1,
             "vabsdiff": abs(x - y), "vmin": min(x, y), "vmax": max(x, y)}.get(op)
        if op == "vset":
            t = int({"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[cmp])
        elif sat:
            t = clamp(t, dt == "s32", bits)
        ts.append(t)
    on = {int(ch) for ch in mask}
    if add:
        return (c + sum(t for i, t in enumerate(ts) if i in on)) & M32
    d = 0
    for i, t in enumerate(ts):
        v = t if i in on else (c >> (i * bits))
        d |= (v & ((1 << bits) - 1)) << (i * bits)
    return d


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("op", ["vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"])
def test_video_simd(op, n):
    ws = words(10)
    digits = "0123" if n == 2 else "01234567"
    masks = ["10", "1", "0", ""] if n == 2 else ["3210", "0", "31", "2", "321", ""]
    for i in range(200):
        dt, at, bt = (("u32", "s32")[int(x)] for x in RNG.integers(0, 2, 3))
        a, b, c = (ws[int(x)] for x in RNG.integers(0, len(ws), 3))
        asel = "".join(digits[int(x)] for x in RNG.integers(0, len(digits), n))
        bsel = "".join(digits[int(x)] for x in RNG.integers(0, len(digits), n))
        mask = masks[i % len(masks)]
        add = bool((i // 3) % 2)
        sat = bool((i // 5) % 2) and op != "vset"
        cmp = ("eq", "ne", "lt", "le", "gt", "ge")[i % 6]
        pfx = "h" if n == 2 else "b"
        mtext = f".{pfx}{mask}" if mask else ""
        if op == "vset":
            head = f"vset{n}.{at}.{bt}.{cmp}{'.add' if add else ''}"
        else:
            head = f"{op}{n}.{dt}.{at}.{bt}{'.sat' if sat else ''}{'.add' if add else ''}"
        text = f"{head} d{mtext}, a.{pfx}{asel}, b.{pfx}{bsel}, c"
        if not mask:  # the mask "none" is not a form: use the default (all lanes)
            text = f"{head} d, a.{pfx}{asel}, b.{pfx}{bsel}, c"
            mask = "10" if n == 2 else "3210"
        want = simd_ref(op, n, dt if op != "vset" else "u32", at, bt, a, b, c, asel, bsel, mask, sat, add, cmp)
        assert d_of(text, a=a, b=b, c=c) == want, (text, hex(a), hex(b), hex(c))


def test_vmad():
    """(a*b) + c on selected parts in 128 bits, a negated product as ones' complement plus one (or a
    negated c), .po adding one, then .shr7/.shr15 and .sat to the final type's 32-bit range."""
    ws = words(12)
    for i in range(600):
        dt, at, bt = (("u32", "s32")[int(x)] for x in RNG.integers(0, 2, 3))
        a, b, c = (ws[int(x)] for x in RNG.integers(0, len(ws), 3))
        asel, bsel = SELS[i % 7], SELS[(i // 7) % 7]
        variant = i % 5
        na, nb, nc = (variant == 1, False, variant == 2)
        po = variant == 3
        if variant == 4:
            na, nb = True, True
        scale = ("", ".shr7", ".shr15")[(i // 5) % 3]
        sat = bool((i // 15) % 2)
        ta, tb = part(a, at == "s32", asel), part(b, bt == "s32", bsel)
        neg_p = na != nb
        signed = at == "s32" or bt == "s32" or neg_p or nc
        prod = ta * tb
        if po:
            total = prod + part(c, signed, None) + 1
        elif neg_p:
            total = -prod + part(c, signed, None)
        elif nc:
            total = prod - part(c, False, None) if not signed else prod - part(c, True, None)
        else:
            total = prod + part(c, signed, None)
        total &= (1 << 128) - 1
        r = (total >> {"": 0, ".shr7": 7, ".shr15": 15}[scale]) & ((1 << 64) - 1)
        if sat:
            r = clamp(r - (1 << 64) if signed and r >> 63 else r, signed, 32)
        text = (f"vmad.{dt}.{at}.{bt}{'.po' if po else ''}{'.sat' if sat else ''}{scale} d, "
                f"{'-' if na else ''}a{'.' + asel if asel else ''}, {'-' if nb else ''}b{'.' + bsel if bsel else ''}, "
                f"{'-' if nc else ''}c")
        assert d_of(text, a=a, b=b, c=c) == r & M32, (text, hex(a), hex(b), hex(c))
