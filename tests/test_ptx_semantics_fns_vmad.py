"""fns and vmad: hand-computed vectors (incl. the PTX ISA's own fns examples) and references written
another way (numpy bit positions for fns; exact integer arithmetic for vmad) on random and edge inputs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gpuisa.ptx.semantics import UnsupportedInstruction, evaluate_ptx

EDGE = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF]


def ev(text, **inputs):
    return evaluate_ptx(text, inputs)["outputs"]["d"]


def test_fns_hand_vectors():
    # the four examples of the PTX ISA (mask 0xaaaaaaaa has the odd bits set)
    assert ev("fns.b32 d, m, 3, 1", m=0xAAAAAAAA) == 3
    assert ev("fns.b32 d, m, 3, o", m=0xAAAAAAAA, o=0xFFFFFFFF) == 3  # offset -1
    assert ev("fns.b32 d, m, 2, 1", m=0xAAAAAAAA) == 3
    assert ev("fns.b32 d, m, 2, o", m=0xAAAAAAAA, o=0xFFFFFFFF) == 1
    assert ev("fns.b32 d, m, 0, 2", m=0x80000001) == 31  # second set bit upwards from bit 0
    assert ev("fns.b32 d, m, 31, o", m=0x80000001, o=0xFFFFFFFE) == 0  # second set bit downwards from 31
    assert ev("fns.b32 d, m, 0, 3", m=0x80000001) == 0xFFFFFFFF  # only two set bits
    assert ev("fns.b32 d, m, 5, 0", m=0x20) == 5  # offset 0: is bit 5 set
    assert ev("fns.b32 d, m, 4, 0", m=0x20) == 0xFFFFFFFF
    assert ev("fns.b32 d, m, 7, 1", m=0) == 0xFFFFFFFF
    with pytest.raises(UnsupportedInstruction):
        ev("fns.b32 d, m, b, 1", m=1, b=32)  # base above 31 is undefined


def _fns_reference(mask: int, base: int, offset: int) -> int:
    set_bits = np.nonzero((np.uint64(mask) >> np.arange(32, dtype=np.uint64)) & np.uint64(1))[0]
    if offset == 0:
        return base if base in set_bits else 0xFFFFFFFF
    pool = sorted(p for p in set_bits if p >= base) if offset > 0 else sorted((p for p in set_bits if p <= base),
                                                                             reverse=True)
    return int(pool[abs(offset) - 1]) if len(pool) >= abs(offset) else 0xFFFFFFFF


def test_fns_against_reference():
    rng = random.Random(3)
    masks = EDGE + [0xAAAAAAAA, 0x55555555] + [rng.getrandbits(32) for _ in range(150)]
    for mask in masks:
        for base in (0, 1, 15, 16, 30, 31, rng.randrange(32)):
            for offset in (0, 1, 2, 5, 32, 33, -1, -2, -7, -32, -33, 0x7FFFFFFF, -0x80000000, rng.randrange(-40, 40)):
                got = ev("fns.b32 d, m, b, o", m=mask, b=base, o=offset & 0xFFFFFFFF)
                assert got == _fns_reference(mask, base, offset), (hex(mask), base, offset)


def test_vmad_hand_vectors():
    assert ev("vmad.u32.u32.u32 d, a, b, c", a=3, b=5, c=7) == 22
    assert ev("vmad.s32.s32.s32 d, -a, b, c", a=3, b=5, c=7) == 0xFFFFFFF8  # -15 + 7
    assert ev("vmad.u32.u32.u32 d, a, b, -c", a=3, b=5, c=7) == 8  # 15 - 7
    assert ev("vmad.u32.u32.u32.po d, a, b, c", a=3, b=5, c=7) == 23  # plus one
    # byte 1 of a is 0xFE (-2 signed), half 1 of b is 5: -10 + 100
    assert ev("vmad.s32.s32.s32 d, a.b1, b.h1, c", a=0x0000FE00, b=0x00050000, c=100) == 90
    assert ev("vmad.u32.u32.u32.shr7 d, a, b, c", a=1000, b=1000, c=0) == 7812  # 1,000,000 / 128, rounded down
    assert ev("vmad.u32.u32.u32.shr15 d, a.h0, b.h0, c", a=0x8000, b=0x8000, c=0) == 0x8000
    # -3 * 65536 = -196608 = -6 * 32768; one less rounds down to -7
    assert ev("vmad.s32.s32.s32.shr15 d, a, b, c", a=0xFFFFFFFD, b=0x10000, c=0) == 0xFFFFFFFA
    assert ev("vmad.s32.s32.s32.shr15 d, a, b, c", a=0xFFFFFFFD, b=0x10000, c=0xFFFFFFFF) == 0xFFFFFFF9
    # saturation: 2^32 to the unsigned maximum, -2^32 to the signed minimum
    assert ev("vmad.u32.u32.u32.sat d, a, b, c", a=0x10000, b=0x10000, c=0) == 0xFFFFFFFF
    assert ev("vmad.u32.u32.u32 d, a, b, c", a=0x10000, b=0x10000, c=0) == 0
    assert ev("vmad.s32.s32.s32.sat d, -a, b, c", a=0x10000, b=0x10000, c=0) == 0x80000000
    with pytest.raises(UnsupportedInstruction):  # ptxas: negate the product or c, not both
        ev("vmad.s32.s32.s32 d, -a, b, -c", a=1, b=2, c=3)
    assert ev("vmad.s32.s32.s32 d, -a, -b, -c", a=3, b=5, c=7) == 8  # -a * -b is a*b: 15 - 7


def _part(v: int, signed: bool, sel: str) -> int:
    if not sel:
        bits, shift = 32, 0
    else:
        bits = 8 if sel[1] == "b" else 16
        shift = int(sel[2]) * bits
    x = (v >> shift) & ((1 << bits) - 1)
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def _vmad_reference(a_s, b_s, neg, sel, po, shift, sat, a, b, c) -> int:
    """The same operation as plain integer arithmetic: value, floor-shift, the 64-bit wrap, clamp."""
    ta, tb = _part(a, a_s, sel[0]), _part(b, b_s, sel[1])
    neg_product, neg_c = neg[0] != neg[1], neg[2]
    signed_final = a_s or b_s or neg_product or neg_c
    cv = c - (1 << 32) if signed_final and c >> 31 else c
    value = (-(ta * tb) if neg_product else ta * tb) + (-cv if neg_c else cv) + (1 if po else 0)
    value = value // (1 << shift)  # floor, as an arithmetic right shift
    value &= (1 << 64) - 1  # the documented 64-bit intermediate
    if sat:
        if signed_final:
            value = value - (1 << 64) if value >> 63 else value
            value = max(-(1 << 31), min((1 << 31) - 1, value))
        else:
            value = min(value, 0xFFFFFFFF)
    return value & 0xFFFFFFFF


def test_vmad_against_reference():
    rng = random.Random(5)
    values = EDGE + [rng.getrandbits(32) for _ in range(12)]
    sels = ["", ".b0", ".b3", ".h0", ".h1"]
    negs = [(False, False, False), (True, False, False), (False, True, False), (True, True, False),
            (False, False, True), (True, True, True)]
    for _ in range(1500):
        a_s, b_s = rng.random() < 0.5, rng.random() < 0.5
        po = rng.random() < 0.2
        neg = (False, False, False) if po else rng.choice(negs)
        sel = (rng.choice(sels), rng.choice(sels))
        shift = rng.choice([0, 7, 15])
        sat = rng.random() < 0.5
        a, b, c = rng.choice(values), rng.choice(values), rng.choice(values)
        t = lambda s: ".s32" if s else ".u32"  # noqa: E731
        text = (f"vmad{t(a_s or b_s)}{t(a_s)}{t(b_s)}{'.po' if po else ''}{'.sat' if sat else ''}"
                f"{({7: '.shr7', 15: '.shr15'}).get(shift, '')} d, {'-' if neg[0] else ''}a{sel[0]}, "
                f"{'-' if neg[1] else ''}b{sel[1]}, {'-' if neg[2] else ''}c")
        want = _vmad_reference(a_s, b_s, neg, sel, po, shift, sat, a, b, c)
        assert ev(text, a=a, b=b, c=c) == want, (text, hex(a), hex(b), hex(c))


def test_lop3_with_predicate_output():
    # immLut 0x80 is a & b & c; p = (d != 0) BoolOp q
    out = evaluate_ptx("lop3.and.b32 d|p, a, b, c, 0x80, q;", {"a": 0xF0, "b": 0x3C, "c": 0xFF, "q": 1})["outputs"]
    assert out == {"d": 0x30, "p": 1}
    out = evaluate_ptx("lop3.and.b32 d|p, a, b, c, 0x80, q;", {"a": 0xF0, "b": 0x0F, "c": 0xFF, "q": 1})["outputs"]
    assert out == {"d": 0, "p": 0}
    out = evaluate_ptx("lop3.or.b32 _|p, a, b, c, 0x80, q;", {"a": 0xF0, "b": 0x0F, "c": 0xFF, "q": 1})["outputs"]
    assert out == {"p": 1}
