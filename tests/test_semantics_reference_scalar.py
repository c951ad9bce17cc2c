"""AMD scalar ALU (SALU) semantics, D0 and SCC, against values computed independently with Python integers.

Each reference is written from the instruction's definition (bit-field layouts of S1 for s_bfe, SCC as
each instruction defines it: result non-zero, carry-out, signed overflow, comparison); only ``evaluate``
is under test.  Families tests/test_semantics_properties.py already checks are not repeated.  RDNA3.5,
RDNA4 and CDNA4 wherever the generation has the instruction (CDNA spells some differently, e.g. s_andn2).
"""

from __future__ import annotations

import math
import random
import re
import struct

import pytest

from gpuisa.semantics import compiler, sources
from gpuisa.semantics.wave import evaluate

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

ARCHS = ("rdna3.5", "rdna4", "cdna4")
M32, M64 = (1 << 32) - 1, (1 << 64) - 1
EDGE32 = [0, 1, 2, 3, 15, 16, 31, 32, 33, 63, 64, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF,
          0x80000000, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF, 0x001F0008, 0x00200000, 0x00080004]
EDGE64 = EDGE32 + [1 << 32, (1 << 63) - 1, 1 << 63, M64, M64 - 1, 0xFFFFFFFF00000000, 0x00000001FFFFFFFF]


def s(x, bits):
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >> (bits - 1) else x


def nz(d):
    return d, int(d != 0)


def bfe(a, b, bits, signed):
    """The field [off, off + width) of S0; a signed field reaching past the top bit continues with S0's
    sign (an arithmetic shift, as LLVM folds llvm.amdgcn.sbfe), then is sign-extended from its own top."""
    off, width = b & (bits - 1), (b >> 16) & 0x7F
    src = s(a, bits) if signed else a
    field = (src >> off) & ((1 << width) - 1) if width else 0
    if signed and width and (field >> (width - 1)) & 1:
        field -= 1 << width
    return nz(field & ((1 << bits) - 1))


def count(a, bits, bit):
    return sum(1 for i in range(bits) if (a >> i) & 1 == bit)


def clz(a, bits):
    return next((i for i in range(bits) if (a >> (bits - 1 - i)) & 1), -1) & M32


def ctz(a, bits):
    return next((i for i in range(bits) if (a >> i) & 1), -1) & M32


def cls(a, bits):
    top = (a >> (bits - 1)) & 1
    return next((i for i in range(1, bits) if (a >> (bits - 1 - i)) & 1 != top), -1) & M32


def quadmask(a, bits):
    return nz(sum(1 << i for i in range(bits // 4) if (a >> (4 * i)) & 0xF))


def wqm(a, bits):
    return nz(sum(0xF << (4 * i) for i in range(bits // 4) if (a >> (4 * i)) & 0xF))


def rev(a, bits):
    return int(f"{a:0{bits}b}"[::-1], 2)


def shl_add(n):
    return lambda a, b, d, c: ((((a << n) & M32) + b) & M32, int((a << n) + b > M32))


SALU = {  # name -> (reference(a, b, d0, scc) -> (D0 | None, SCC | None), width of S0, width of S1)
    "s_abs_i32": (lambda a, b, d, c: nz(abs(s(a, 32)) & M32), 32, 32),
    "s_absdiff_i32": (lambda a, b, d, c: nz(abs(s(a - b, 32)) & M32), 32, 32),  # the difference wraps to 32 bits
    "s_and_not1_b32": (lambda a, b, d, c: nz(a & ~b & M32), 32, 32),
    "s_andn2_b32": (lambda a, b, d, c: nz(a & ~b & M32), 32, 32),
    "s_or_not1_b32": (lambda a, b, d, c: nz((a | ~b) & M32), 32, 32),
    "s_orn2_b32": (lambda a, b, d, c: nz((a | ~b) & M32), 32, 32),
    "s_not_b32": (lambda a, b, d, c: nz(~a & M32), 32, 32),
    "s_bcnt0_i32_b32": (lambda a, b, d, c: nz(count(a, 32, 0)), 32, 32),
    "s_bcnt0_i32_b64": (lambda a, b, d, c: nz(count(a, 64, 0)), 64, 32),
    "s_bcnt1_i32_b64": (lambda a, b, d, c: nz(count(a, 64, 1)), 64, 32),
    "s_bfe_i32": (lambda a, b, d, c: bfe(a, b, 32, True), 32, 32),
    "s_bfe_u64": (lambda a, b, d, c: bfe(a, b, 64, False), 64, 32),
    "s_bfe_i64": (lambda a, b, d, c: bfe(a, b, 64, True), 64, 32),
    "s_bfm_b32": (lambda a, b, d, c: ((((1 << (a & 31)) - 1) << (b & 31)) & M32, None), 32, 32),
    "s_bfm_b64": (lambda a, b, d, c: ((((1 << (a & 63)) - 1) << (b & 63)) & M64, None), 32, 32),
    "s_bitcmp0_b32": (lambda a, b, d, c: (None, int(not (a >> (b & 31)) & 1)), 32, 32),
    "s_bitcmp1_b32": (lambda a, b, d, c: (None, (a >> (b & 31)) & 1), 32, 32),
    "s_bitcmp0_b64": (lambda a, b, d, c: (None, int(not (a >> (b & 63)) & 1)), 64, 32),
    "s_bitcmp1_b64": (lambda a, b, d, c: (None, (a >> (b & 63)) & 1), 64, 32),
    "s_bitset0_b32": (lambda a, b, d, c: (d & ~(1 << (a & 31)) & M32, None), 32, 32),
    "s_bitset1_b32": (lambda a, b, d, c: (d | (1 << (a & 31)), None), 32, 32),
    "s_bitset0_b64": (lambda a, b, d, c: (d & ~(1 << (a & 63)) & M64, None), 32, 32),
    "s_bitset1_b64": (lambda a, b, d, c: (d | (1 << (a & 63)), None), 32, 32),
    "s_brev_b32": (lambda a, b, d, c: (rev(a, 32), None), 32, 32),
    "s_brev_b64": (lambda a, b, d, c: (rev(a, 64), None), 64, 32),
    "s_clz_i32_u32": (lambda a, b, d, c: (clz(a, 32), None), 32, 32),
    "s_clz_i32_u64": (lambda a, b, d, c: (clz(a, 64), None), 64, 32),
    "s_flbit_i32_b32": (lambda a, b, d, c: (clz(a, 32), None), 32, 32),
    "s_flbit_i32_b64": (lambda a, b, d, c: (clz(a, 64), None), 64, 32),
    "s_ctz_i32_b32": (lambda a, b, d, c: (ctz(a, 32), None), 32, 32),
    "s_ctz_i32_b64": (lambda a, b, d, c: (ctz(a, 64), None), 64, 32),
    "s_ff1_i32_b32": (lambda a, b, d, c: (ctz(a, 32), None), 32, 32),
    "s_ff1_i32_b64": (lambda a, b, d, c: (ctz(a, 64), None), 64, 32),
    "s_cls_i32": (lambda a, b, d, c: (cls(a, 32), None), 32, 32),
    "s_cls_i32_i64": (lambda a, b, d, c: (cls(a, 64), None), 64, 32),
    "s_flbit_i32": (lambda a, b, d, c: (cls(a, 32), None), 32, 32),
    "s_flbit_i32_i64": (lambda a, b, d, c: (cls(a, 64), None), 64, 32),
    "s_cselect_b32": (lambda a, b, d, c: (a if c else b, None), 32, 32),
    "s_cselect_b64": (lambda a, b, d, c: (a if c else b, None), 64, 64),
    "s_cmov_b32": (lambda a, b, d, c: (a if c else d, None), 32, 32),
    "s_cmov_b64": (lambda a, b, d, c: (a if c else d, None), 64, 32),
    "s_lshl1_add_u32": (shl_add(1), 32, 32),
    "s_lshl2_add_u32": (shl_add(2), 32, 32),
    "s_lshl3_add_u32": (shl_add(3), 32, 32),
    "s_lshl4_add_u32": (shl_add(4), 32, 32),
    "s_max_i32": (lambda a, b, d, c: (max(s(a, 32), s(b, 32)) & M32, int(s(a, 32) >= s(b, 32))), 32, 32),
    "s_min_u32": (lambda a, b, d, c: (min(a, b), int(a < b)), 32, 32),
    "s_mul_hi_i32": (lambda a, b, d, c: (((s(a, 32) * s(b, 32)) >> 32) & M32, None), 32, 32),
    "s_mul_u64": (lambda a, b, d, c: ((a * b) & M64, None), 64, 64),
    "s_add_nc_u64": (lambda a, b, d, c: ((a + b) & M64, None), 64, 64),
    "s_sub_nc_u64": (lambda a, b, d, c: ((a - b) & M64, None), 64, 64),
    "s_pack_ll_b32_b16": (lambda a, b, d, c: ((a & 0xFFFF) | (b & 0xFFFF) << 16, None), 32, 32),
    "s_pack_lh_b32_b16": (lambda a, b, d, c: ((a & 0xFFFF) | (b >> 16) << 16, None), 32, 32),
    "s_pack_hl_b32_b16": (lambda a, b, d, c: ((a >> 16) | (b & 0xFFFF) << 16, None), 32, 32),
    "s_pack_hh_b32_b16": (lambda a, b, d, c: ((a >> 16) | (b >> 16) << 16, None), 32, 32),
    "s_sext_i32_i8": (lambda a, b, d, c: (s(a, 8) & M32, None), 32, 32),
    "s_sext_i32_i16": (lambda a, b, d, c: (s(a, 16) & M32, None), 32, 32),
    "s_quadmask_b32": (lambda a, b, d, c: quadmask(a, 32), 32, 32),
    "s_quadmask_b64": (lambda a, b, d, c: quadmask(a, 64), 64, 32),
    "s_wqm_b32": (lambda a, b, d, c: wqm(a, 32), 32, 32),
    "s_wqm_b64": (lambda a, b, d, c: wqm(a, 64), 64, 32),
    "s_bitreplicate_b64_b32": (lambda a, b, d, c: (sum(3 << (2 * i) for i in range(32) if (a >> i) & 1), None), 32, 32),
    "s_and_b64": (lambda a, b, d, c: nz(a & b), 64, 64),
    "s_or_b64": (lambda a, b, d, c: nz(a | b), 64, 64),
    "s_xor_b64": (lambda a, b, d, c: nz(a ^ b), 64, 64),
    "s_nand_b64": (lambda a, b, d, c: nz(~(a & b) & M64), 64, 64),
    "s_nor_b64": (lambda a, b, d, c: nz(~(a | b) & M64), 64, 64),
    "s_xnor_b64": (lambda a, b, d, c: nz(~(a ^ b) & M64), 64, 64),
    "s_and_not1_b64": (lambda a, b, d, c: nz(a & ~b & M64), 64, 64),
    "s_or_not1_b64": (lambda a, b, d, c: nz((a | ~b) & M64), 64, 64),
    "s_not_b64": (lambda a, b, d, c: nz(~a & M64), 64, 32),
    "s_lshl_b64": (lambda a, b, d, c: nz((a << (b & 63)) & M64), 64, 32),
    "s_lshr_b64": (lambda a, b, d, c: nz(a >> (b & 63)), 64, 32),
    "s_ashr_i64": (lambda a, b, d, c: nz((s(a, 64) >> (b & 63)) & M64), 64, 32),
    "s_add_co_u32": (lambda a, b, d, c: ((a + b) & M32, int(a + b > M32)), 32, 32),
    "s_sub_co_u32": (lambda a, b, d, c: ((a - b) & M32, int(b > a)), 32, 32),
    "s_add_co_i32": (lambda a, b, d, c: ((a + b) & M32, int(not -(1 << 31) <= s(a, 32) + s(b, 32) < 1 << 31)), 32, 32),
    "s_sub_co_i32": (lambda a, b, d, c: ((a - b) & M32, int(not -(1 << 31) <= s(a, 32) - s(b, 32) < 1 << 31)), 32, 32),
    "s_add_co_ci_u32": (lambda a, b, d, c: ((a + b + c) & M32, int(a + b + c > M32)), 32, 32),
    "s_sub_co_ci_u32": (lambda a, b, d, c: ((a - b - c) & M32, int(b + c > a)), 32, 32),
    "s_cmp_eq_u64": (lambda a, b, d, c: (None, int(a == b)), 64, 64),
    "s_cmp_lg_u64": (lambda a, b, d, c: (None, int(a != b)), 64, 64),
}
_CMP = {"eq": lambda x, y: x == y, "lg": lambda x, y: x != y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y,
        "lt": lambda x, y: x < y, "le": lambda x, y: x <= y}
for _c, _f in _CMP.items():
    SALU[f"s_cmp_{_c}_i32"] = ((lambda f: lambda a, b, d, c: (None, int(f(s(a, 32), s(b, 32)))))(_f), 32, 32)
    SALU[f"s_cmp_{_c}_u32"] = ((lambda f: lambda a, b, d, c: (None, int(f(a, b))))(_f), 32, 32)


def archs_with(name):
    return [a for a in ARCHS if sources.lookup(a, name) is not None]


@pytest.mark.parametrize("name", sorted(SALU))
def test_scalar_alu(name):
    ref, wa, wb = SALU[name]
    have = archs_with(name)
    if not have:
        pytest.skip(f"{name}: no generation here has it")
    rng = random.Random(sum(map(ord, name)))

    def pick(bits):
        edge = EDGE64 if bits == 64 else EDGE32
        return rng.choice(edge) & ((1 << bits) - 1) if rng.random() < 0.5 else rng.getrandbits(bits)
    cases = [(pick(wa), pick(wb), pick(64 if name.endswith("64") else 32), rng.getrandbits(1)) for _ in range(40)]
    width = int(re.search(r"_[iub](\d+)", name[2:]).group(1)) if re.search(r"_[iub](\d+)", name[2:]) else 32
    for arch in have:
        bad = []
        prog = compiler.program(arch, name)
        inputs = prog.inputs | (prog.writes & {"D0"})  # D0 kept where not written (s_cmov, s_bitset)
        d_mask = (1 << prog.widths.get("D0", 32)) - 1
        for a, b, d, c in cases:
            d &= d_mask
            ops = {k: v for k, v in (("S0", a), ("S1", b), ("D0", d), ("SCC", c)) if k in inputs}
            out = evaluate(arch, name, **ops)["outputs"]
            want_d, want_c = ref(a, b, d, c)
            got_d = out.get("D0", [None])[0]
            got_d = got_d if got_d is None else got_d & ((1 << width) - 1)
            got_c = out.get("SCC", [c])[0]
            if (want_d is not None and got_d != want_d) or (want_c is not None and got_c != want_c):
                bad.append((hex(a), hex(b), hex(d), c, got_d if got_d is None else hex(got_d), got_c,
                            want_d if want_d is None else hex(want_d), want_c))
        assert not bad, (arch, name, len(bad), bad[:4])


def test_bcnt_b64_writes_one_sgpr():
    """s_bcnt*_i32_b64 write a 32-bit count: the SGPR after the destination is untouched and does not
    decide SCC (AMD's pseudocode reads D0.u64 for SCC)."""
    from gpuisa.semantics.encoded import evaluate_encoded

    for arch in ARCHS:
        r = evaluate_encoded(arch, "s_bcnt1_i32_b64 s5, 0", {"S5": 0xF0, "S6": 1, "SCC": 1})
        assert r["writes"] == {"S5": 0, "SCC": 0}, (arch, r["writes"])
        r = evaluate_encoded(arch, "s_bcnt0_i32_b64 s5, s[2:3]", {"S5": 0xF0, "S6": 1, "S2": 0xF0F0, "S3": 1, "SCC": 0})
        assert r["writes"] == {"S5": 55, "SCC": 1}, (arch, r["writes"])


FCMP = {"lt": lambda x, y: x < y, "eq": lambda x, y: x == y, "le": lambda x, y: x <= y, "gt": lambda x, y: x > y,
        "lg": lambda x, y: x < y or x > y, "ge": lambda x, y: x >= y,
        "o": lambda x, y: not (math.isnan(x) or math.isnan(y)), "u": lambda x, y: math.isnan(x) or math.isnan(y),
        "nge": lambda x, y: not x >= y, "nlg": lambda x, y: not (x < y or x > y), "ngt": lambda x, y: not x > y,
        "nle": lambda x, y: not x <= y, "neq": lambda x, y: not x == y, "nlt": lambda x, y: not x < y}


@pytest.mark.parametrize("w", [16, 32])
def test_scalar_float_compares(w):
    """RDNA4's s_cmp_<cond>_f16/f32: SCC from IEEE comparisons (NaN unordered, -0 == +0)."""
    fmt = "<e" if w == 16 else "<f"
    ufmt = "<H" if w == 16 else "<I"
    rng = random.Random(w)
    pool = [0, 1 << (w - 1), 0x7E00 if w == 16 else 0x7FC00000, 0x7C00 if w == 16 else 0x7F800000, 1]
    pool += [struct.unpack(ufmt, struct.pack(fmt, rng.uniform(-4, 4)))[0] for _ in range(12)]
    for cond, f in FCMP.items():
        name = f"s_cmp_{cond}_f{w}"
        for arch in archs_with(name):
            for _ in range(16):
                a, b = rng.choice(pool), rng.choice(pool)
                x, y = (struct.unpack(fmt, struct.pack(ufmt, v))[0] for v in (a, b))
                got = evaluate(arch, name, S0=a, S1=b)["outputs"]["SCC"][0]
                assert got == int(f(x, y)), (arch, name, hex(a), hex(b), got)
