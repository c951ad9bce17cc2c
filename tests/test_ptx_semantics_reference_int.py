"""PTX integer, bit, logic, selection and carry semantics against values computed independently.

Every expected value here comes from the PTX ISA document's rule for the instruction, computed with
numpy in the instruction's own dtype (wrap-around), Python integers where numpy has no type wide
enough (128-bit products), and tables written from the document (prmt's modes).  Nothing here calls
the evaluator's helpers: only ``evaluate_ptx`` is under test.  Inputs are edge values plus a fixed
random sample (seeded, so a failure reproduces).
"""

from __future__ import annotations

import numpy as np
import pytest

from gpuisa.ptx.semantics import evaluate_ptx

RNG = np.random.default_rng(20261202)
DT = {"u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64}
EDGES = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF,
         0x10000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF,
         0x8000000000000000, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFFF00000000, 0x00000000FFFF0000]


def bits_of(t: str) -> int:
    return int(t[1:])


def values(bits: int, n: int = 60) -> list[int]:
    """Edge values cut to the width, plus n random ones (uniform bits and small magnitudes)."""
    m = (1 << bits) - 1
    out = sorted({v & m for v in EDGES} | {(-v) & m for v in (1, 2, 3, 31, 32, 33)})
    out += [int(x) & m for x in RNG.integers(0, 1 << 63, n, dtype=np.int64, endpoint=False)]
    out += [int(x) & m for x in RNG.integers(-300, 300, n // 3)]
    return out


def pairs(bits: int, n: int = 60) -> list[tuple[int, int]]:
    vs = values(bits, n)
    idx = RNG.integers(0, len(vs), (3 * len(vs), 2))
    return [(vs[i], vs[j]) for i, j in idx] + [(v, v) for v in vs[:10]]


def triples(bits: int, n: int = 40) -> list[tuple[int, int, int]]:
    vs = values(bits, n)
    idx = RNG.integers(0, len(vs), (3 * len(vs), 3))
    return [(vs[i], vs[j], vs[k]) for i, j, k in idx]


def np_val(raw: int, t: str):
    """raw bits as a numpy scalar of type t (two's complement view for signed types)."""
    u = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits_of(t)]
    return u(raw).view(DT[t])


def raw(x, bits: int) -> int:
    return int(x) & ((1 << bits) - 1)


def out(text: str, **inputs) -> dict:
    return evaluate_ptx(text, inputs)["outputs"]


def d_of(text: str, **inputs) -> int:
    return out(text, **inputs)["d"]


INT6 = ["u16", "u32", "u64", "s16", "s32", "s64"]


@pytest.mark.parametrize("t", INT6)
@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_sub_wrap(op, t):
    bits = bits_of(t)
    with np.errstate(over="ignore"):
        for a, b in pairs(bits):
            x, y = np_val(a, t), np_val(b, t)
            want = raw(x + y if op == "add" else x - y, bits)
            assert d_of(f"{op}.{t} d, a, b", a=a, b=b) == want, (op, t, hex(a), hex(b))


@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_sub_sat_s32(op):
    for a, b in pairs(32):
        x, y = int(np_val(a, "s32").astype(np.int64)), int(np_val(b, "s32").astype(np.int64))
        want = raw(np.clip(np.int64(x + y if op == "add" else x - y), -2**31, 2**31 - 1), 32)
        assert d_of(f"{op}.sat.s32 d, a, b", a=a, b=b) == want, (op, hex(a), hex(b))


@pytest.mark.parametrize("t", INT6)
@pytest.mark.parametrize("mode", ["lo", "hi", "wide"])
def test_mul_modes(mode, t):
    bits = bits_of(t)
    if mode == "wide" and bits == 64:
        return
    for a, b in pairs(bits):
        p = int(np_val(a, t)) * int(np_val(b, t))  # exact product of the typed values
        want = raw(p, 2 * bits) if mode == "wide" else raw(p >> bits, bits) if mode == "hi" else raw(p, bits)
        assert d_of(f"mul.{mode}.{t} d, a, b", a=a, b=b) == want, (mode, t, hex(a), hex(b))


@pytest.mark.parametrize("t", INT6)
@pytest.mark.parametrize("mode", ["lo", "hi", "wide"])
def test_mad_modes(mode, t):
    bits = bits_of(t)
    if mode == "wide" and bits == 64:
        return
    cbits = 2 * bits if mode == "wide" else bits
    cs = values(cbits, 20)
    for i, (a, b) in enumerate(pairs(bits)):
        c = cs[i % len(cs)]
        p = int(np_val(a, t)) * int(np_val(b, t))
        part = p if mode == "wide" else (p >> bits) if mode == "hi" else p
        ctype = t[0] + str(cbits)
        want = raw(part + int(np_val(c, ctype)), cbits)
        assert d_of(f"mad.{mode}.{t} d, a, b, c", a=a, b=b, c=c) == want, (mode, t, hex(a), hex(b), hex(c))


def test_mad_hi_sat_s32():
    for a, b, c in triples(32):
        p = int(np_val(a, "s32")) * int(np_val(b, "s32"))
        s = (p >> 32) + int(np_val(c, "s32"))
        want = raw(min(max(s, -2**31), 2**31 - 1), 32)
        assert d_of("mad.hi.sat.s32 d, a, b, c", a=a, b=b, c=c) == want, (hex(a), hex(b), hex(c))


def s24(v: int, signed: bool) -> int:
    v &= 0xFFFFFF
    return v - (1 << 24) if signed and v >> 23 else v


@pytest.mark.parametrize("t", ["u32", "s32"])
@pytest.mark.parametrize("mode", ["lo", "hi"])
def test_mul24_mad24(mode, t):
    signed = t == "s32"
    for a, b, c in triples(32):
        p = s24(a, signed) * s24(b, signed)  # the 48-bit product
        part = raw(p >> 16 if mode == "hi" else p, 32)
        assert d_of(f"mul24.{mode}.{t} d, a, b", a=a, b=b) == part, (mode, t, hex(a), hex(b))
        want = raw(int(np_val(part, t)) + int(np_val(c, t)), 32)
        assert d_of(f"mad24.{mode}.{t} d, a, b, c", a=a, b=b, c=c) == want, (mode, t, hex(a), hex(b), hex(c))


def test_mad24_hi_sat_s32():
    """The .hi part (bits 47..16 of the product, a signed 32-bit value) plus c, clamped to s32."""
    cases = triples(32) + [(0xFFFFFF, 0x1, 0xFFFFFFFF), (0x800000, 0x7FFFFF, 0x80000000),
                           (0x7FFFFF, 0x7FFFFF, 0x7FFFFFFF), (0xFFFFFF, 0xFFFFFF, 0xFFFFFFFF)]
    for a, b, c in cases:
        hi = int(np_val(raw((s24(a, True) * s24(b, True)) >> 16, 32), "s32"))
        want = raw(min(max(hi + int(np_val(c, "s32")), -2**31), 2**31 - 1), 32)
        assert d_of("mad24.hi.sat.s32 d, a, b, c", a=a, b=b, c=c) == want, (hex(a), hex(b), hex(c))


@pytest.mark.parametrize("t", INT6)
def test_sad(t):
    bits = bits_of(t)
    for a, b, c in triples(bits):
        x, y = int(np_val(a, t)), int(np_val(b, t))
        want = raw(int(np_val(c, t)) + abs(x - y), bits)
        assert d_of(f"sad.{t} d, a, b, c", a=a, b=b, c=c) == want, (t, hex(a), hex(b), hex(c))


@pytest.mark.parametrize("t", INT6)
@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max(op, t):
    bits = bits_of(t)
    fn = np.minimum if op == "min" else np.maximum
    for a, b in pairs(bits):
        want = raw(fn(np_val(a, t), np_val(b, t)), bits)
        assert d_of(f"{op}.{t} d, a, b", a=a, b=b) == want, (op, t, hex(a), hex(b))
        if t == "s32":
            relu = raw(max(int(fn(np_val(a, t), np_val(b, t))), 0), 32)
            assert d_of(f"{op}.relu.s32 d, a, b", a=a, b=b) == relu, (op, "relu", hex(a), hex(b))


def test_relu_issue_values():
    """Issue 15's worked values: both sources negative, so .relu gives 0."""
    assert d_of("max.relu.s32 d, a, b", a=0xFFFFFFF0, b=0xFFFFFFFE) == 0
    assert d_of("min.relu.s32 d, a, b", a=0xFFFFFFF0, b=0xFFFFFFFE) == 0


@pytest.mark.parametrize("t", ["u16x2", "s16x2"])
@pytest.mark.parametrize("op", ["min", "max", "add"])
def test_min_max_add_packed(op, t):
    fn = np.minimum if op == "min" else np.maximum if op == "max" else np.add
    lane_t = t[:3]
    for a, b in pairs(32):
        la = np.array([a & 0xFFFF, a >> 16], dtype=np.uint16).view(DT[lane_t])
        lb = np.array([b & 0xFFFF, b >> 16], dtype=np.uint16).view(DT[lane_t])
        with np.errstate(over="ignore"):
            r = fn(la, lb)  # numpy wraps in the lane's dtype
        want = int(r.view(np.uint16)[0]) | int(r.view(np.uint16)[1]) << 16
        assert d_of(f"{op}.{t} d, a, b", a=a, b=b) == want, (op, t, hex(a), hex(b))
        if t == "s16x2" and op != "add":
            r = np.maximum(r, np.int16(0))
            want = int(r.view(np.uint16)[0]) | int(r.view(np.uint16)[1]) << 16
            assert d_of(f"{op}.relu.{t} d, a, b", a=a, b=b) == want, (op, "relu", hex(a), hex(b))


@pytest.mark.parametrize("t", ["s16", "s32", "s64"])
def test_abs_neg(t):
    bits = bits_of(t)
    with np.errstate(over="ignore"):
        for a in values(bits):
            x = np_val(a, t)
            assert d_of(f"abs.{t} d, a", a=a) == raw(np.abs(x), bits), (t, hex(a))
            assert d_of(f"neg.{t} d, a", a=a) == raw(-x, bits), (t, hex(a))


@pytest.mark.parametrize("t", INT6)
def test_div_rem(t):
    """Quotient rounded toward zero; the remainder takes the dividend's sign (C semantics)."""
    bits = bits_of(t)
    for a, b in pairs(bits):
        x, y = int(np_val(a, t)), int(np_val(b, t))
        if y == 0 or (t[0] == "s" and x == -(1 << (bits - 1)) and y == -1):
            continue  # unspecified by PTX
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
        assert d_of(f"div.{t} d, a, b", a=a, b=b) == raw(q, bits), (t, hex(a), hex(b))
        assert d_of(f"rem.{t} d, a, b", a=a, b=b) == raw(x - q * y, bits), (t, hex(a), hex(b))
        assert raw(np.fmod(np_val(a, t), np_val(b, t)), bits) == raw(x - q * y, bits)  # numpy agrees


@pytest.mark.parametrize("bits", [32, 64])
def test_popc_clz_brev(bits):
    for a in values(bits):
        s = format(a, f"0{bits}b")
        assert d_of(f"popc.b{bits} d, a", a=a) == s.count("1")
        assert d_of(f"clz.b{bits} d, a", a=a) == len(s) - len(s.lstrip("0"))
        assert d_of(f"brev.b{bits} d, a", a=a) == int(s[::-1], 2)


def bfe_ref(a: int, pos: int, ln: int, signed: bool, bits: int) -> int:
    """bit by bit, as the document states it: bits past the field (or past msb) take the sign bit."""
    msb = bits - 1
    pos, ln = pos & 0xFF, ln & 0xFF
    sbit = 0 if (not signed or ln == 0) else (a >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(bits):
        bit = (a >> (pos + i)) & 1 if (i < ln and pos + i <= msb) else sbit
        d |= bit << i
    return d


@pytest.mark.parametrize("t", ["u32", "s32", "u64", "s64"])
def test_bfe(t):
    bits = bits_of(t)
    positions = [0, 1, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 200, 255, 256, 257, 0x1F07]
    for a in values(bits, 12):
        for pos in positions:
            for ln in positions:
                want = bfe_ref(a, pos, ln, t[0] == "s", bits)
                assert d_of(f"bfe.{t} d, a, b, c", a=a, b=pos, c=ln) == want, (t, hex(a), pos, ln)


@pytest.mark.parametrize("bits", [32, 64])
def test_bfi(bits):
    positions = [0, 1, 7, 8, 31, 32, 33, 63, 64, 200, 255, 256, 0x1F07]
    for a, b in pairs(bits, 8):
        for pos in positions:
            for ln in positions:
                f = b
                p, n = pos & 0xFF, ln & 0xFF
                i = 0
                while i < n and p + i <= bits - 1:
                    f = (f & ~(1 << (p + i))) | (((a >> i) & 1) << (p + i))
                    i += 1
                got = d_of(f"bfi.b{bits} d, a, b, c, n", a=a, b=b, c=pos, n=ln)
                assert got == f, (bits, hex(a), hex(b), pos, ln)


@pytest.mark.parametrize("t", ["u32", "s32", "u64", "s64"])
def test_bfind(t):
    bits = bits_of(t)
    for a in values(bits):
        v = a
        if t[0] == "s" and a >> (bits - 1):
            v = ~a & ((1 << bits) - 1)  # a negative value: the most significant 0
        pos = next((i for i in range(bits - 1, -1, -1) if v >> i & 1), None)
        want = 0xFFFFFFFF if pos is None else pos
        assert d_of(f"bfind.{t} d, a", a=a) == want, (t, hex(a))
        want = 0xFFFFFFFF if pos is None else bits - 1 - pos
        assert d_of(f"bfind.shiftamt.{t} d, a", a=a) == want, (t, hex(a))


@pytest.mark.parametrize("bits", [16, 32, 64])
def test_logic(bits):
    t = f"u{bits}"
    for a, b in pairs(bits):
        x, y = np_val(a, t), np_val(b, t)
        assert d_of(f"and.b{bits} d, a, b", a=a, b=b) == raw(x & y, bits)
        assert d_of(f"or.b{bits} d, a, b", a=a, b=b) == raw(x | y, bits)
        assert d_of(f"xor.b{bits} d, a, b", a=a, b=b) == raw(x ^ y, bits)
        assert d_of(f"not.b{bits} d, a", a=a) == raw(~x, bits)
        assert d_of(f"cnot.b{bits} d, a", a=a) == int(x == 0)
    for p in (0, 1):
        for q in (0, 1):
            assert d_of("and.pred d, a, b", a=p, b=q) == p & q
            assert d_of("or.pred d, a, b", a=p, b=q) == p | q
            assert d_of("xor.pred d, a, b", a=p, b=q) == p ^ q
        assert d_of("not.pred d, a", a=p) == 1 - p


@pytest.mark.parametrize("t", ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"])
def test_shifts_clamp(t):
    """Shift amounts are unsigned 32-bit; amounts past the width clamp to the width."""
    bits = bits_of(t)
    amounts = [0, 1, 5, bits - 1, bits, bits + 1, 100, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]
    for a in values(bits, 10):
        for n in amounts:
            k = min(n, bits)
            shl = raw(a << k, bits)
            if t[0] == "s":
                shr = raw(int(np_val(a, t)) >> k, bits)
            else:
                shr = a >> k
            if t[0] == "b":
                assert d_of(f"shl.b{bits} d, a, b", a=a, b=n) == shl, (t, hex(a), n)
            assert d_of(f"shr.{t} d, a, b", a=a, b=n) == shr, (t, hex(a), n)


def test_lop3_every_lut():
    """The LUT's bit (a<<2 | b<<1 | c) for each bit position; checked against the document's way of
    building an immediate: the function applied to 0xF0, 0xCC, 0xAA."""
    ta, tb, tc = 0xF0, 0xCC, 0xAA
    triples_ = triples(32, 4)[:6]
    for lut in range(256):
        for a, b, c in triples_:
            want = 0
            for i in range(32):
                idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
                want |= ((lut >> idx) & 1) << i
            assert d_of(f"lop3.b32 d, a, b, c, {lut}", a=a, b=b, c=c) == want, (lut, hex(a))
        # the function's own value on the three constants reproduces the LUT
        assert d_of(f"lop3.b32 d, a, b, c, {lut}", a=ta, b=tb, c=tc) & 0xFF == lut


# prmt's special modes, as the document's table lists them: per value of c[1:0], the source byte
# index for destination bytes 3, 2, 1, 0.
PRMT_TABLE = {
    "f4e": [(3, 2, 1, 0), (4, 3, 2, 1), (5, 4, 3, 2), (6, 5, 4, 3)],
    "b4e": [(5, 6, 7, 0), (6, 7, 0, 1), (7, 0, 1, 2), (0, 1, 2, 3)],
    "rc8": [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)],
    "ecl": [(3, 2, 1, 0), (3, 2, 1, 1), (3, 2, 2, 2), (3, 3, 3, 3)],
    "ecr": [(0, 0, 0, 0), (1, 1, 1, 0), (2, 2, 1, 0), (3, 2, 1, 0)],
    "rc16": [(1, 0, 1, 0), (3, 2, 3, 2), (1, 0, 1, 0), (3, 2, 3, 2)],
}


def test_prmt_modes_table():
    for mode, rows in PRMT_TABLE.items():
        for a, b in pairs(32, 6):
            src = (b << 32 | a).to_bytes(8, "little")
            for c in (0, 1, 2, 3, 0xFFFFFFFC, 0x7, 0x12345679):
                sel = rows[c & 3]
                want = int.from_bytes(bytes(src[sel[3 - i]] for i in range(4)), "little")
                assert d_of(f"prmt.b32.{mode} d, a, b, c", a=a, b=b, c=c) == want, (mode, hex(a), hex(b), c)
    # the issue's worked values
    assert d_of("prmt.b32.f4e d, a, b, c", a=0x33221100, b=0x77665544, c=1) == 0x44332211
    assert d_of("prmt.b32.rc8 d, a, b, c", a=0x33221100, b=0x77665544, c=1) == 0x11111111


def test_prmt_generic():
    for a, b in pairs(32, 10):
        src = (b << 32 | a).to_bytes(8, "little")
        for c in values(32, 20):
            bs = []
            for i in range(4):
                nib = (c >> (4 * i)) & 0xF
                byte = src[nib & 7]
                bs.append((0xFF if byte & 0x80 else 0) if nib & 8 else byte)
            assert d_of("prmt.b32 d, a, b, c", a=a, b=b, c=c) == int.from_bytes(bytes(bs), "little")


@pytest.mark.parametrize("at", ["u32", "s32"])
@pytest.mark.parametrize("bt", ["u32", "s32"])
def test_dp4a_dp2a(at, bt):
    for a, b, c in triples(32):
        va = np.array([a], dtype=np.uint32).view(np.uint8 if at == "u32" else np.int8).astype(np.int64)
        vb = np.array([b], dtype=np.uint32).view(np.uint8 if bt == "u32" else np.int8).astype(np.int64)
        ct = "u32" if at == bt == "u32" else "s32"
        want = raw(int(np.dot(va, vb)) + int(np_val(c, ct)), 32)
        assert d_of(f"dp4a.{at}.{bt} d, a, b, c", a=a, b=b, c=c) == want, (at, bt, hex(a), hex(b), hex(c))
        ha = np.array([a], dtype=np.uint32).view(np.uint16 if at == "u32" else np.int16).astype(np.int64)
        for half, mode in ((0, "lo"), (2, "hi")):
            want = raw(int(np.dot(ha, vb[half:half + 2])) + int(np_val(c, ct)), 32)
            got = d_of(f"dp2a.{mode}.{at}.{bt} d, a, b, c", a=a, b=b, c=c)
            assert got == want, (mode, at, bt, hex(a), hex(b), hex(c))


def bmsk_ref(a: int, b: int, clamp: bool) -> int:
    """Bits a .. a+b-1 set (cut at bit 31); with .clamp a >= 32 gives 0 and b >= 32 a full width,
    with .wrap both are taken modulo 32."""
    if clamp:
        if a >= 32:
            return 0
        b = min(b, 32)
    else:
        a, b = a % 32, b % 32
    return sum(1 << i for i in range(a, min(a + b, 32)))


def szext_ref(a: int, b: int, clamp: bool, signed: bool) -> int:
    n = min(b, 32) if clamp else b % 32
    if n == 0:
        return 0
    field = a & ((1 << n) - 1)
    if signed and field >> (n - 1) & 1:
        field |= 0xFFFFFFFF ^ ((1 << n) - 1)
    return field


def test_bmsk_szext_shf():
    amounts = [0, 1, 4, 15, 16, 31, 32, 33, 40, 63, 64, 65, 0x80000000, 0xFFFFFFFF]
    for a in values(32, 10):
        for n in amounts:
            for mode in ("clamp", "wrap"):
                for m in amounts[:9]:
                    assert d_of(f"bmsk.{mode}.b32 d, a, b", a=m, b=n) == bmsk_ref(m, n, mode == "clamp"), \
                        (mode, m, n)
                for t in ("u32", "s32"):
                    want = szext_ref(a, n, mode == "clamp", t == "s32")
                    assert d_of(f"szext.{mode}.{t} d, a, b", a=a, b=n) == want, (mode, t, hex(a), n)
    for a, b in pairs(32, 10):
        for n in amounts:
            for mode in ("clamp", "wrap"):
                k = min(n, 32) if mode == "clamp" else n % 32
                both = b << 32 | a
                assert d_of(f"shf.l.{mode}.b32 d, a, b, c", a=a, b=b, c=n) == raw((both << k) >> 32, 32)
                assert d_of(f"shf.r.{mode}.b32 d, a, b, c", a=a, b=b, c=n) == raw(both >> k, 32)


def test_fns():
    """The position of the n-th set bit from base (upwards for n > 0, downwards for n < 0)."""
    for mask in values(32, 15):
        ones = [i for i in range(32) if mask >> i & 1]
        for base in (0, 1, 5, 16, 31):
            for off in (0, 1, 2, 3, 7, 31, 32, -1, -2, -5, -32):
                if off == 0:
                    want = base if mask >> base & 1 else 0xFFFFFFFF
                elif off > 0:
                    up = [i for i in ones if i >= base]
                    want = up[off - 1] if len(up) >= off else 0xFFFFFFFF
                else:
                    down = [i for i in reversed(ones) if i <= base]
                    want = down[-off - 1] if len(down) >= -off else 0xFFFFFFFF
                got = d_of("fns.b32 d, a, b, c", a=mask, b=base, c=off & 0xFFFFFFFF)
                assert got == want, (hex(mask), base, off)


@pytest.mark.parametrize("bits", [32, 64])
def test_carry_chains(bits):
    """Multi-word add/sub/mad through CC.CF agree with one wide Python operation."""
    m = (1 << bits) - 1
    for a, b, c in triples(2 * bits, 15):
        s_lo = out(f"add.cc.u{bits} d, a, b", a=a & m, b=b & m)
        s_hi = out(f"addc.u{bits} d, a, b", a=a >> bits, b=b >> bits, **{"CC.CF": s_lo["CC.CF"]})
        assert s_hi["d"] << bits | s_lo["d"] == (a + b) & ((1 << 2 * bits) - 1)
        carry_hi = out(f"addc.cc.u{bits} d, a, b", a=a >> bits, b=b >> bits, **{"CC.CF": s_lo["CC.CF"]})
        assert carry_hi["CC.CF"] == int(a + b >= 1 << 2 * bits)
        d_lo = out(f"sub.cc.u{bits} d, a, b", a=a & m, b=b & m)
        d_hi = out(f"subc.cc.u{bits} d, a, b", a=a >> bits, b=b >> bits, **{"CC.CF": d_lo["CC.CF"]})
        assert d_hi["d"] << bits | d_lo["d"] == (a - b) & ((1 << 2 * bits) - 1)
        assert d_hi["CC.CF"] == int(a < b)  # the borrow out of the whole subtraction
        x, y, z = a & m, b & m, c & m
        lo = out(f"mad.lo.cc.u{bits} d, a, b, c", a=x, b=y, c=z)
        hi = out(f"madc.hi.u{bits} d, a, b, c", a=x, b=y, c=c >> bits, **{"CC.CF": lo["CC.CF"]})
        assert hi["d"] << bits | lo["d"] == (x * y + (c >> bits << bits | z)) & ((1 << 2 * bits) - 1)


INT_CMP = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
           "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y,
           "lo": lambda x, y: x < y, "ls": lambda x, y: x <= y, "hi": lambda x, y: x > y,
           "hs": lambda x, y: x >= y}


@pytest.mark.parametrize("t", ["u16", "u32", "u64", "s16", "s32", "s64", "b32"])
def test_setp_set_integer(t):
    bits = bits_of(t)
    for a, b in pairs(bits, 12):
        for cmp, fn in INT_CMP.items():
            if t[0] == "b" and cmp not in ("eq", "ne"):
                continue
            kind = "u" + t[1:] if (cmp in ("lo", "ls", "hi", "hs") or t[0] == "b") else t
            r = int(fn(np_val(a, kind), np_val(b, kind)))
            o = out(f"setp.{cmp}.{t} p|q, a, b", a=a, b=b)
            assert (o["p"], o["q"]) == (r, 1 - r), (cmp, t, hex(a), hex(b))
            for c in (0, 1):
                for bop, f in (("and", int.__and__), ("or", int.__or__), ("xor", int.__xor__)):
                    o = out(f"setp.{cmp}.{bop}.{t} p|q, a, b, c", a=a, b=b, c=c)
                    assert (o["p"], o["q"]) == (f(r, c), f(1 - r, c)), (cmp, bop, t, c)
                    o = out(f"setp.{cmp}.{bop}.{t} p, a, b, !c", a=a, b=b, c=c)
                    assert o["p"] == f(r, 1 - c)
            assert d_of(f"set.{cmp}.u32.{t} d, a, b", a=a, b=b) == (0xFFFFFFFF if r else 0)
            assert d_of(f"set.{cmp}.s32.{t} d, a, b", a=a, b=b) == (0xFFFFFFFF if r else 0)
            assert d_of(f"set.{cmp}.f32.{t} d, a, b", a=a, b=b) == (0x3F800000 if r else 0)


@pytest.mark.parametrize("t", ["b16", "u32", "s64", "f32", "f64"])
def test_selp_slct_integer_c(t):
    bits = bits_of(t)
    for a, b in pairs(bits, 6):
        for c in (0, 1):
            assert d_of(f"selp.{t} d, a, b, c", a=a, b=b, c=c) == (a if c else b)
        for c in values(32, 10):
            want = a if int(np_val(c, "s32")) >= 0 else b
            assert d_of(f"slct.{t}.s32 d, a, b, c", a=a, b=b, c=c) == want, (t, hex(c))
