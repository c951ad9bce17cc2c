"""AMD instruction semantics against LLVM's constant folding of the matching AMDGPU intrinsics.

``opt-22 -passes=instcombine`` folds calls of llvm.amdgcn.* intrinsics with constant operands to the
value the instruction gives (LLVM's own implementation, written from AMD's documentation and hardware
tests, independent of this project); each folded value is compared with ``evaluate`` on the same bits.
Calls LLVM leaves unfolded (it declines some inputs, e.g. denormals where the mode matters) are not
compared.  Inputs: edge values (signed zeros, denormals, infinities, NaN where LLVM folds them, halves,
integers) plus a seeded random sample.
"""

from __future__ import annotations

import math
import os
import random
import re
import shutil
import struct
import subprocess

import pytest

from gpuisa.semantics import sources
from gpuisa.semantics.wave import evaluate

OPT = "opt-22"
pytestmark = [pytest.mark.oracle,
              pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")]

F32_EDGE = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF,
            0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000, 0x3EFFFFFF, 0x4B000001, 0xCB7FFFFF, 0x3F7FFFFF,
            0xB3800000, 0x33800000, 0x40490FDB, 0x4F000000, 0xC0400000]


def need_opt():
    if shutil.which(OPT) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{OPT} is not installed (needed here in CI)")
        pytest.skip(f"{OPT} not installed")


def f32_values(seed: int, n: int = 48, nan: bool = True) -> list[int]:
    rng = random.Random(seed)
    out = [b for b in F32_EDGE if nan or b != 0x7FC00000]
    for _ in range(n):
        kind = rng.random()
        if kind < 0.4:
            out.append(rng.getrandbits(32) & 0xFFFFFFFF)
        else:  # a moderate magnitude with a random mantissa
            out.append(rng.getrandbits(1) << 31 | rng.randrange(100, 160) << 23 | rng.getrandbits(23))
    return [b for b in out if nan or not is_nan32(b)]


def is_nan32(b):
    return (b >> 23) & 0xFF == 0xFF and b & 0x7FFFFF


def is_nan(b, w):
    m, e = {16: (10, 5), 32: (23, 8), 64: (52, 11)}[w]
    return (b >> m) & ((1 << e) - 1) == (1 << e) - 1 and b & ((1 << m) - 1)


def llvm_float(bits: int) -> str:
    """An f32 constant as LLVM IR spells it: the double of the same value, in hex (NaN: its quiet f64 bits)."""
    x = struct.unpack("<f", struct.pack("<I", bits))[0]
    if math.isnan(x):
        return "0x7FF8000000000000" if not bits >> 31 else "0xFFF8000000000000"
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", x))[0]


def llvm_double(bits: int) -> str:
    return "0x%016X" % bits


def to_i32(v: int) -> str:
    return str(v - (1 << 32) if v >> 31 else v)


def parse(text: str, ty: str):
    """A folded constant of type ``ty`` as raw bits (f32 from LLVM's double spelling), or None if not folded."""
    if ty == "float":
        if text.startswith("0x"):
            d = struct.unpack("<d", struct.pack("<Q", int(text, 16)))[0]
        else:
            d = float(text)
        return struct.unpack("<I", struct.pack("<f", d))[0] if not math.isnan(d) else "nan"
    if ty == "double":
        b = int(text, 16) if text.startswith("0x") else struct.unpack("<Q", struct.pack("<d", float(text)))[0]
        return "nan" if (b >> 52) & 0x7FF == 0x7FF and b & ((1 << 52) - 1) else b
    if ty in ("i32", "i16"):
        return int(text) & (0xFFFFFFFF if ty == "i32" else 0xFFFF)
    if ty == "half":
        b = int(text[3:], 16) if text.startswith("0xH") else struct.unpack("<H", struct.pack("<e", float(text)))[0]
        return "nan" if (b >> 10) & 0x1F == 0x1F and b & 0x3FF else b
    if ty == "<2 x half>":
        if text == "zeroinitializer":
            return 0
        h = re.findall(r"0xH([0-9A-F]{4})", text)
        return int(h[0], 16) | int(h[1], 16) << 16 if len(h) == 2 else None
    raise ValueError(ty)


def fold(calls: list[tuple[str, str, str]]) -> list:
    """[(return type, intrinsic, argument list)] folded by opt-22: each call's value (None: not folded)."""
    need_opt()
    decls = {}
    body = []
    for i, (ret, fn, args) in enumerate(calls):
        types = ", ".join(a.split()[0] if not a.startswith("<") else a.rsplit(" ", 1)[0] for a in args.split(", "))
        decls[fn] = f"declare {ret} @{fn}({types})"
        body.append(f"  %v{i} = call {ret} @{fn}({args})\n  store volatile {ret} %v{i}, ptr %p")
    ir = "\n".join(decls.values()) + "\ndefine void @f(ptr %p) {\n" + "\n".join(body) + "\n  ret void\n}\n"
    out = subprocess.run([OPT, "-mtriple=amdgcn--", "-mcpu=gfx1100", "-passes=instcombine", "-S", "-"],
                         input=ir, capture_output=True, text=True, check=True).stdout
    stores = re.findall(r"store volatile (<[^>]*>|\w+) (%v\d+|<[^>]*>|[^,]+), ptr %p", out)
    assert len(stores) == len(calls), out[:2000]
    return [None if val.startswith("%") else parse(val, ty) for ty, val in stores]


def compare(arch, name, operands, calls, w=32, lanes_of=None):
    """evaluate ``name`` on the operand lists and compare with LLVM's folded values; returns how many folded."""
    want = fold(calls)
    wave = 64 if arch == "cdna4" else 32
    n = len(want)
    got = []
    for i in range(0, n, wave):
        chunk = {k: v[i:i + wave] for k, v in operands.items()}
        got += evaluate(arch, name, lanes=len(chunk["S0"]), **chunk)["outputs"]["D0"]
    mask = (1 << w) - 1
    bad = []
    for i, (g, wv) in enumerate(zip(got, want)):
        if wv is None:
            continue
        if wv == "nan":  # any NaN (LLVM folds to its canonical one; which NaN the hardware gives is not compared)
            if not is_nan(g & mask, w):
                bad.append((i, {k: hex(v[i]) for k, v in operands.items()}, hex(g & mask), "nan"))
        elif g & mask != wv:
            bad.append((i, {k: hex(v[i]) for k, v in operands.items()}, hex(g & mask), hex(wv)))
    assert not bad, (arch, name, len(bad), bad[:4])
    return sum(w is not None for w in want)


def archs_with(*names):
    return [(a, n) for a in ("rdna3.5", "rdna4", "cdna4") for n in names[:1] + names[1:] if sources.lookup(a, n)]


UNARY_F32 = {  # instruction -> (intrinsic, return type)
    "v_fract_f32": ("llvm.amdgcn.fract.f32", "float"),
    "v_frexp_mant_f32": ("llvm.amdgcn.frexp.mant.f32", "float"),
    "v_frexp_exp_i32_f32": ("llvm.amdgcn.frexp.exp.i32.f32", "i32"),
    "v_rcp_f32": ("llvm.amdgcn.rcp.f32", "float"),
    "v_cvt_off_f32_i4": ("llvm.amdgcn.cvt.off.f32.i4", "float"),
}


@pytest.mark.parametrize("name", sorted(UNARY_F32))
def test_unary_against_llvm_fold(name):
    fn, ret = UNARY_F32[name]
    if name == "v_cvt_off_f32_i4":
        vals = list(range(16)) + [0x12345678, 0xFFFFFFF7]
        calls = [(ret, fn, f"i32 {to_i32(v)}") for v in vals]
    else:
        vals = f32_values(sum(map(ord, name)))
        calls = [(ret, fn, f"float {llvm_float(v)}") for v in vals]
    folded = 0
    for arch, n in archs_with(name):
        folded = compare(arch, n, {"S0": vals}, calls)
    assert folded >= len(vals) // 2, folded  # LLVM folds most of them


def test_bitfield_and_perm_against_llvm_fold():
    rng = random.Random(3)
    a = [rng.getrandbits(32) for _ in range(64)]
    b = [rng.choice([0, 1, 7, 16, 31, 32, 33, rng.getrandbits(32)]) for _ in range(64)]
    c = [rng.choice([0, 1, 8, 24, 31, 32, 40, rng.getrandbits(32)]) for _ in range(64)]
    sel = [rng.choice([rng.getrandbits(32), 0x0C0C0C0C, 0x0D0E0F08, 0x0A0B0809, 0x07060504]) for _ in range(64)]
    for name, fn, ops in (("v_bfe_u32", "llvm.amdgcn.ubfe.i32", (a, b, c)), ("v_bfe_i32", "llvm.amdgcn.sbfe.i32", (a, b, c)),
                          ("v_perm_b32", "llvm.amdgcn.perm", (a, b, sel))):
        calls = [("i32", fn, f"i32 {to_i32(x)}, i32 {to_i32(y)}, i32 {to_i32(z)}") for x, y, z in zip(*ops)]
        for arch, n in archs_with(name):
            compare(arch, n, {"S0": ops[0], "S1": ops[1], "S2": ops[2]}, calls)


def test_legacy_multiply_and_fma_against_llvm_fold():
    a, b, c = f32_values(5, nan=True), f32_values(6, nan=True)[::-1], f32_values(7, nan=True)
    n = min(map(len, (a, b, c)))
    a, b, c = a[:n], b[:n], c[:n]
    mul = [("float", "llvm.amdgcn.fmul.legacy", f"float {llvm_float(x)}, float {llvm_float(y)}") for x, y in zip(a, b)]
    fma = [("float", "llvm.amdgcn.fma.legacy", f"float {llvm_float(x)}, float {llvm_float(y)}, float {llvm_float(z)}")
           for x, y, z in zip(a, b, c)]
    for arch, name in archs_with("v_mul_legacy_f32", "v_mul_dx9_zero_f32"):
        compare(arch, name, {"S0": a, "S1": b}, mul)
    for arch, name in archs_with("v_fma_dx9_zero_f32", "v_fma_legacy_f32"):
        compare(arch, name, {"S0": a, "S1": b, "S2": c}, fma)


def test_cube_against_llvm_fold():
    rng = random.Random(9)
    pool = [0x3F800000, 0xBF800000, 0x40000000, 0xC0000000, 0, 0x80000000, 0x3F000000]
    vals = [[rng.choice(pool) if rng.random() < 0.5 else rng.getrandbits(1) << 31 | rng.randrange(120, 135) << 23
             | rng.getrandbits(23) for _ in range(96)] for _ in range(3)]
    for name in ("v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32"):
        fn = "llvm.amdgcn." + name[2:8]
        calls = [("float", fn, ", ".join(f"float {llvm_float(v)}" for v in t)) for t in zip(*vals)]
        for arch, n in archs_with(name):
            compare(arch, n, {"S0": vals[0], "S1": vals[1], "S2": vals[2]}, calls)


def test_med3_against_llvm_fold():
    """fmed3 of ordered values, signed zeros and quiet NaNs (a quiet NaN operand: the smaller or larger of the
    other two, by its place)."""
    rng = random.Random(11)
    pool = f32_values(12, nan=False) + [0, 0x80000000] * 8 + [0x7FC00000] * 6
    vals = [[rng.choice(pool) for _ in range(96)] for _ in range(3)]
    calls = [("float", "llvm.amdgcn.fmed3.f32", ", ".join(f"float {llvm_float(v)}" for v in t)) for t in zip(*vals)]
    for arch, n in archs_with("v_med3_f32", "v_med3_num_f32"):
        compare(arch, n, {"S0": vals[0], "S1": vals[1], "S2": vals[2]}, calls)


def test_pkrtz_against_llvm_fold():
    a, b = f32_values(13, nan=False), f32_values(14, nan=False)[::-1]
    n = min(len(a), len(b))
    a, b = a[:n], b[:n]
    calls = [("<2 x half>", "llvm.amdgcn.cvt.pkrtz", f"float {llvm_float(x)}, float {llvm_float(y)}") for x, y in zip(a, b)]
    for arch, name in archs_with("v_cvt_pk_rtz_f16_f32", "v_cvt_pkrtz_f16_f32"):
        compare(arch, name, {"S0": a, "S1": b}, calls)


def test_trig_preop_against_llvm_fold():
    rng = random.Random(15)
    x = [rng.getrandbits(1) << 63 | rng.randrange(900, 2040) << 52 | rng.getrandbits(52) for _ in range(48)]
    x += [0x3FF0000000000000, 0x7FE0000000000000, 0x4330000000000000, 0x0010000000000000]
    k = [rng.randrange(0, 32) for _ in x]
    calls = [("double", "llvm.amdgcn.trig.preop.f64", f"double {llvm_double(v)}, i32 {s}") for v, s in zip(x, k)]
    for arch, n in archs_with("v_trig_preop_f64"):
        compare(arch, n, {"S0": x, "S1": k}, calls, w=64)


WIDE = {  # instruction -> (intrinsic, return type, operand type, width)
    "v_fract_f64": ("llvm.amdgcn.fract.f64", "double", "double", 64),
    "v_frexp_mant_f64": ("llvm.amdgcn.frexp.mant.f64", "double", "double", 64),
    "v_frexp_exp_i32_f64": ("llvm.amdgcn.frexp.exp.i32.f64", "i32", "double", 64),
    "v_rcp_f64": ("llvm.amdgcn.rcp.f64", "double", "double", 64),
    "v_fract_f16": ("llvm.amdgcn.fract.f16", "half", "half", 16),
    "v_frexp_mant_f16": ("llvm.amdgcn.frexp.mant.f16", "half", "half", 16),
    "v_frexp_exp_i16_f16": ("llvm.amdgcn.frexp.exp.i16.f16", "i16", "half", 16),
    "v_rcp_f16": ("llvm.amdgcn.rcp.f16", "half", "half", 16),
}


@pytest.mark.parametrize("name", sorted(WIDE))
def test_f16_f64_unary_against_llvm_fold(name):
    fn, ret, arg, w = WIDE[name]
    rng = random.Random(sum(map(ord, name)))
    if w == 64:
        vals = [0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 1, 0x000FFFFFFFFFFFFF, 0x3FF0000000000000,
                0xBFE0000000000000, 0x7FEFFFFFFFFFFFFF, 0x4330000000000001]
        vals += [rng.getrandbits(64) for _ in range(24)] + [rng.getrandbits(1) << 63 | rng.randrange(900, 1150) << 52
                                                             | rng.getrandbits(52) for _ in range(24)]
        vals = [v for v in vals if not ((v >> 52) & 0x7FF == 0x7FF and v & ((1 << 52) - 1))]  # no NaN
        spell = [f"double 0x{v:016X}" for v in vals]
    else:
        vals = [0, 0x8000, 0x7C00, 0xFC00, 1, 0x3FF, 0x3C00, 0xB800, 0x7BFF, 0x3BFF]
        vals += [rng.getrandbits(16) for _ in range(40)]
        vals = [v for v in vals if not ((v >> 10) & 0x1F == 0x1F and v & 0x3FF)]
        spell = [f"half 0xH{v:04X}" for v in vals]
    calls = [(ret, fn, s) for s in spell]
    for arch, n in archs_with(name):
        compare(arch, n, {"S0": vals}, calls, w=64 if ret == "double" else 16 if ret in ("half", "i16") else 32)

