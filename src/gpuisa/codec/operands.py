"""Operand values <-> LLVM's AMDGPU operand syntax, per generation.

The 8/9-bit scalar/vector source encoding (SGPRs, special registers, inline
integer and float constants, the literal marker 255, VGPRs from 256) is the
same table in every generation apart from a few named slots (``null``/``m0``
swap in GFX11, GFX9's ``flat_scratch``/``xnack_mask``); those differences are
listed here as data.  Register names and constant values are facts of the
ISA; the spelling is LLVM's.
"""

from __future__ import annotations

import re
import struct

LITERAL = 255
LITERAL64 = 254  # gfx1250: a 64-bit literal follows (elsewhere src_lds_direct)

# value -> name, per LLVM generation; 64-bit pair names where LLVM prints them.
_COMMON = {106: "vcc_lo", 107: "vcc_hi", 126: "exec_lo", 127: "exec_hi", 230: "src_flat_scratch_base_lo",
           231: "src_flat_scratch_base_hi", 235: "src_shared_base",
           236: "src_shared_limit", 237: "src_private_base", 238: "src_private_limit",
           251: "src_vccz", 252: "src_execz", 253: "src_scc"}
SPECIAL = {
    "GFX9": {**_COMMON, 102: "flat_scratch_lo", 103: "flat_scratch_hi", 104: "xnack_mask_lo", 105: "xnack_mask_hi",
             124: "m0", 239: "src_pops_exiting_wave_id", 254: "src_lds_direct"},
    "GFX10": {**_COMMON, 124: "m0", 125: "null", 239: "src_pops_exiting_wave_id", 254: "src_lds_direct"},
    "GFX11": {**_COMMON, 124: "null", 125: "m0", 239: "src_pops_exiting_wave_id", 254: "src_lds_direct"},
    "GFX12": {**_COMMON, 124: "null", 125: "m0", 239: "src_pops_exiting_wave_id", 254: "src_lds_direct"},
}
SPECIAL["GFX9"][125] = "null"  # LLVM 22 prints SGPR 125 as null for gfx908/gfx90a/gfx942 too
SPECIAL["GFX940"] = SPECIAL["GFX9"]
PAIRS = {
    "GFX9": {106: "vcc", 126: "exec", 102: "flat_scratch", 104: "xnack_mask"},
    "GFX10": {106: "vcc", 126: "exec", 125: "null"},
    "GFX11": {106: "vcc", 126: "exec", 124: "null"},
    "GFX12": {106: "vcc", 126: "exec", 124: "null"},
}
PAIRS["GFX9"][125] = "null"
PAIRS["GFX940"] = PAIRS["GFX9"]
PAIRS_ALSO = {230: "src_flat_scratch_base_lo", 235: "src_shared_base", 236: "src_shared_limit",
              237: "src_private_base", 238: "src_private_limit",
              251: "src_vccz", 252: "src_execz", 253: "src_scc", 239: "src_pops_exiting_wave_id"}
SGPR_COUNT = {"GFX9": 102, "GFX940": 102, "GFX10": 106, "GFX11": 106, "GFX12": 106}

FLOAT_CONSTS = {240: "0.5", 241: "-0.5", 242: "1.0", 243: "-1.0", 244: "2.0", 245: "-2.0", 246: "4.0", 247: "-4.0"}
INV_2PI = {16: "0.15915494", 32: "0.15915494", 64: "0.15915494309189532"}
# bit patterns of the float constants per operand size (for literals equal to an inline value)
_F_VALUES = [0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0]


def _bits(x: float, size: int) -> int:
    if size == 16:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if size == 64:
        return struct.unpack("<Q", struct.pack("<d", x))[0] >> 32
    return struct.unpack("<I", struct.pack("<f", x))[0]


INV_2PI_BITS = {16: 0x3118, 32: 0x3E22F983, 64: 0x3FC45F30}
FLOAT_BITS = {size: {_bits(x, size): FLOAT_CONSTS[240 + i] for i, x in enumerate(_F_VALUES)} for size in (16, 32, 64)}


def ttmp_base(gfx: str) -> int:
    return 108


def sgpr_name(gfx: str, value: int, count: int) -> str | None:
    """Name of scalar register(s) at ``value`` (0..127 and the src_* range) for ``count`` dwords."""
    if value < SGPR_COUNT[gfx]:
        if count > 1:
            value &= ~(1 if count == 2 else 3)
        if count == 1:
            return f"s{value}"
        if value + count > 106:
            return None  # llvm-mc-22 knows SGPR tuples up to s105 only (probed on gfx908/gfx90a/gfx942, gfx10-12)
        return f"s[{value}:{value + count - 1}]"
    if 108 <= value < 124:
        t = value - 108
        if count > 1:
            t &= ~(1 if count == 2 else 3)
        if t + count > 16:
            return None  # past ttmp15 (every generation)
        return f"ttmp{t}" if count == 1 else f"ttmp[{t}:{t + count - 1}]"
    if count == 1:
        return SPECIAL[gfx].get(value)
    if count == 2:
        return PAIRS[gfx].get(value) or PAIRS_ALSO.get(value)
    return None


def inline_constant(value: int, size: int) -> str | None:
    if 128 <= value <= 192:
        return str(value - 128)
    if 193 <= value <= 208:
        return str(192 - value)
    if value in FLOAT_CONSTS:
        return FLOAT_CONSTS[value]
    if value == 248:
        return INV_2PI.get(size, "0.15915494")
    return None


_F32_INLINE = frozenset(_bits(x, 32) for x in _F_VALUES) | {INV_2PI_BITS[32]}
_F16_INLINE = frozenset(_bits(x, 16) for x in _F_VALUES) | {INV_2PI_BITS[16]}
_BF16_INLINE = frozenset(_bits(x, 32) >> 16 for x in _F_VALUES) | {INV_2PI_BITS[32] >> 16}


def _int_inline(v: int) -> bool:
    """A dword read as a signed 32-bit integer that an inline constant (-16..64) could encode."""
    return v <= 64 or v >= 0xFFFFFFF0


def inline32(v: int) -> bool:
    """A 32-bit literal an inline constant could encode (integers, the float constants, 1/(2*pi))."""
    return _int_inline(v) or v in _F32_INLINE


def inline16(v: int, bf16: bool = False) -> bool:
    """A 16-bit value an inline constant of a 16-bit float (or bfloat) operand could encode."""
    return v <= 64 or v >= 0xFFF0 or v in (_BF16_INLINE if bf16 else _F16_INLINE)


# How LLVM 22 prints a literal dword, by the operand type it is read as (probed with llvm-mc-22 on gfx942,
# gfx1030, gfx1100, gfx1200, gfx1250 over every such operand type and values inside and outside the inline
# set): a literal an inline constant could have encoded prints as ``lit(0x...)`` so that the text assembles
# to the same bytes; any other literal prints in hex, a non-packed 16-bit operand's as its low half.
LITERAL_TYPES = ("b32", "b64", "f64", "f16", "bf16", "i16", "pf16", "pbf16")


def literal_token(lit: int, ltype: str) -> str:
    """The text of literal dword ``lit`` read by an operand of type ``ltype`` (one of ``LITERAL_TYPES``)."""
    if ltype in ("f16", "bf16"):
        return f"lit(0x{lit:x})" if inline16(lit & 0xFFFF, ltype == "bf16") else f"0x{lit & 0xFFFF:x}"
    if ltype == "i16":
        return f"lit(0x{lit:x})" if inline32(lit) else f"0x{lit & 0xFFFF:x}"
    if ltype in ("pf16", "pbf16"):
        table = _BF16_INLINE if ltype == "pbf16" else _F16_INLINE
        return f"lit(0x{lit:x})" if _int_inline(lit) or lit in table else f"0x{lit:x}"
    if ltype == "f64":  # the literal is the high dword: one with an inline value's bits prints that value
        if lit == 0:
            return "0"
        return FLOAT_BITS[64].get(lit) or f"0x{lit:x}"
    if ltype == "b64":
        return f"lit(0x{lit:x})" if lit <= 64 else f"0x{lit:x}"
    return f"lit(0x{lit:x})" if inline32(lit) else f"0x{lit:x}"


def literal64_token(lit: int, f64: bool, size: int = 64) -> str:
    """A gfx1250 64-bit literal as LLVM 22 prints it (probed): ``lit64(0x..)`` where a 32-bit literal would
    have held it, an f64 operand's inline value by its name, else hex (a 32/16-bit operand's: its low part,
    ``_low_part_token``)."""
    if lit < (1 << 32):
        return f"lit64(0x{lit:x})"
    if size != 64:
        return _low_part_token(lit, size)
    if f64 and lit & 0xFFFFFFFF == 0:  # as the 32-bit literal (its high dword) an f64 operand reads
        return FLOAT_BITS[64].get(lit >> 32) or f"0x{lit >> 32:x}"
    return f"0x{lit:x}"


def k_literal64_token(lit: int) -> str:
    """gfx1250's 64-bit constant K of v_fmaak_f64 / v_fmamk_f64 as llvm-mc-22 prints it (probed): ``lit64(0x..)``
    below 2**32, the high dword in hex where the low one is 0 (1.0 prints 0x3ff00000), else the 64 bits."""
    if lit < (1 << 32):
        return f"lit64(0x{lit:x})"
    return f"0x{lit >> 32:x}" if lit & 0xFFFFFFFF == 0 else f"0x{lit:x}"


def _low_part_token(lit: int, size: int) -> str:
    """The low 32 (16) bits of a 64-bit literal read by a 32-bit (16-bit) operand, as llvm-mc-22 prints them
    on gfx1250 (probed): an inline constant's value (-16..64, the float constants) by its text, else hex."""
    x = lit & ((1 << size) - 1)
    signed = x - (1 << size) if x >> (size - 1) else x
    if -16 <= signed <= 64:
        return str(signed)
    if x == {16: 0x3118, 32: 0x3E22F983}[size]:
        return "0.15915494"  # 1/(2*pi)
    return FLOAT_BITS[size].get(x) or f"0x{x:x}"


def literal_type(size: int, is_float: bool, packed: bool = False, mix: bool = False, bf16: bool = False) -> str:
    """The literal type of an operand: its size in bits, float or integer, packed 16-bit, a mix source, bfloat."""
    if mix:
        return "f16"
    if packed:
        return ("pbf16" if bf16 else "pf16") if is_float else "b32"
    if size == 16:
        return ("bf16" if bf16 else "f16") if is_float else "i16"
    if size == 64:
        return "f64" if is_float else "b64"
    return "b32"


_REG = re.compile(r"^(s|v|a|ttmp)(?:(\d+)|\[(\d+):(\d+)\])$")


def parse_reg(tok: str) -> tuple[str, int, int] | None:
    """'v[2:5]' -> ('v', 2, 4); 's7' -> ('s', 7, 1)."""
    m = _REG.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return m.group(1), int(m.group(2)), 1
    lo, hi = int(m.group(3)), int(m.group(4))
    return m.group(1), lo, hi - lo + 1


def reg_text(cls: str, index: int, count: int) -> str:
    return f"{cls}{index}" if count == 1 else f"{cls}[{index}:{index + count - 1}]"


def src_text(gfx: str, value: int, count: int, size: int, is_float: bool, vgpr_base: int | None = 256) -> str | None:
    """9-bit (or 8-bit scalar) source operand text; None for the literal marker and reserved values."""
    if vgpr_base is not None and value >= vgpr_base:
        return reg_text("v", value - vgpr_base, count)
    if value < 128 or 230 <= value <= 231 or 235 <= value <= 239 or 251 <= value <= 254:
        return sgpr_name(gfx, value, count)
    if size == 16 and 240 <= value <= 248 and not is_float and vgpr_base is not None:
        # a float inline constant read by a 16-bit integer vector operand: its bits in hex (GFX9; GFX10+ probed
        # with llvm-mc-22 on every VALU 16-bit integer source, but v_sad_u16, v_sat_pk_u8_i16 print the name)
        return f"0x{INV_2PI_BITS[16] if value == 248 else _bits(float(FLOAT_CONSTS[value]), 16):x}"
    return inline_constant(value, size)


# spellings LLVM's assembler also accepts for a source (it prints the src_ names)
SHORT_NAMES = {"vccz": "src_vccz", "execz": "src_execz", "scc": "src_scc", "lds_direct": "src_lds_direct",
               "shared_base": "src_shared_base", "shared_limit": "src_shared_limit",
               "private_base": "src_private_base", "private_limit": "src_private_limit",
               "pops_exiting_wave_id": "src_pops_exiting_wave_id"}


def parse_src(gfx: str, tok: str, count: int) -> tuple[int, int | None] | None:
    """Inverse of src_text (no literal): token -> (value, None); a literal -> (255, dword)."""
    if tok.startswith("lit(") and tok.endswith(")"):  # a literal even where an inline constant would do
        try:
            return LITERAL, int(tok[4:-1], 0) & 0xFFFFFFFF
        except ValueError:
            return None
    r = parse_reg(tok)
    if r is not None:
        cls, idx, n = r
        if n != count:
            return None
        if cls == "v":  # (a register past the file is LLVM's "register index is out of range")
            return (256 + idx, None) if idx + n <= 256 else None
        if cls == "s":
            return (idx, None) if idx + n <= SGPR_COUNT.get(gfx, 106) else None
        if cls == "ttmp":
            return (108 + idx, None) if idx + n <= 16 else None
        return None
    names = PAIRS[gfx] if count == 2 else SPECIAL[gfx]
    tok = SHORT_NAMES.get(tok, tok)
    if tok == "null" and gfx in ("GFX9", "GFX940"):
        return None  # (llvm-mc-22: GFX9 has no null operand; its disassembler prints SGPR 125 so all the same)
    for v, name in names.items():
        if name == tok:
            return v, None
    if count == 2:
        for v, name in PAIRS_ALSO.items():
            if name == tok:
                return v, None
    for v, name in FLOAT_CONSTS.items():
        if name == tok:
            return v, None
    if tok in ("0.15915494", "0.15915494309189532", "0.1592"):
        return 248, None
    try:
        n = int(tok, 0)
    except ValueError:
        return None
    if 0 <= n <= 64:
        return 128 + n, None
    if -16 <= n <= -1:
        return 192 - n, None
    if -(1 << 31) <= n < (1 << 32):
        return LITERAL, n & 0xFFFFFFFF
    return None
