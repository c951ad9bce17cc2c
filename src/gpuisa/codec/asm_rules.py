"""Assembler rules of llvm-mc-22 that no single operand's plan carries: register alignment, AGPR/VGPR
mixing, operands a target lacks, and the spellings it accepts for a modifier.

Each rule was checked against llvm-mc-22 (the differential tests of ``tests/test_codec_cdna_forms.py``
and ``tests/test_codec_rdna_classes.py`` hold examples):

* gfx90a and later GFX9, and gfx1250: a register tuple of an even-aligned class (the plans mark them with
  the ``anote`` llvm-mc prints on such a word) must start on an even register, the returned value of an
  atomic and the index-and-offset address pair of a buffer access included; ``ds_gws_*`` data too
  ("vgpr must be even aligned");
* every generation: an SGPR or ttmp tuple starts on an even register (two registers) or on a multiple of four
  (three or more; ``s_load_dwordx8 s[4:11]`` is taken, ``s[2:5]`` is not: "invalid register alignment");
* one ACC bit selects AGPRs for all data operands of a memory instruction: a mix of AGPRs and VGPRs is
  rejected;
* gfx90a and later have no ``lds_direct`` source (``check_text``: SDWA and DPP forms too);
* GFX9 FLAT (flat_*, not global/scratch) takes a 12-bit unsigned offset although the field has 13 bits;
* ``noX`` for a one-bit modifier X of the instruction means X off (``nosc0``, ``noglc``, ``nogds``); a GFX10
  FLAT load into LDS is written without its data register;
  ``bound_ctrl:0`` sets the bit as ``bound_ctrl:1`` does;
* a buffer store with ``tfe`` is refused, however many data registers are given (d16 and typed stores
  included: a store returns no status).
"""

from __future__ import annotations

import re
import struct
from typing import TYPE_CHECKING

from . import operands as opd
from .encoded import EncodeError

if TYPE_CHECKING:
    from .plans import Plan

_BARE = re.compile(r"^[-|]*(?:neg\(|abs\()?([^|()]+?)\)?[|]*$")


def _reg(tok: str):
    m = _BARE.match(tok.strip().split("/*")[0])
    return opd.parse_reg(m.group(1).strip()) if m else None


def _aligned(coder) -> bool:
    f = coder.features
    return (coder.tables.gfx == "GFX9" and f.accvgpr_memory) or f.literal64


def _check_tuple(tok: str, aligned: bool, what: str) -> None:
    """``tok``, a register tuple of an even-aligned operand (``aligned``), must start on an even register."""
    r = _reg(tok)
    if r is not None and r[0] in ("v", "a") and r[2] >= 2 and r[1] & 1 and aligned:
        raise EncodeError(f"{what} {tok!r}: this register tuple must start on an even register")


def _check_scalar_tuple(tok: str, what: str) -> None:
    """An SGPR or trap-temporary tuple starts on an even register (two registers) or on a multiple of four (three
    or more), on every generation (llvm-mc-22: "invalid register alignment"; probed on gfx942, gfx1010, gfx1200)."""
    r = _reg(tok)
    if r is not None and r[0] in ("s", "ttmp") and r[2] >= 2 and r[1] % (2 if r[2] == 2 else 4):
        raise EncodeError(f"{what} {tok!r}: a {r[2]}-register scalar tuple must start on a multiple of "
                          f"{2 if r[2] == 2 else 4}")


def check_operands(coder, e, plan: Plan, ops: list[str], mods: list[str]) -> None:
    """Raise EncodeError where llvm-mc-22's assembler rejects these operand registers (see the module)."""
    for k, tok in enumerate(ops):
        if "[" in tok:  # (tuples only: s[2:3], ttmp[4:7])
            _check_scalar_tuple(tok, f"operand {k + 1}")
    specs = plan.operands
    ret = plan.returning
    returned = ret is not None and len(ops) == len(specs) + 1
    pairs = list(zip(ops[1:] if returned else ops, specs, strict=False))
    gfx9_aligned = coder.tables.gfx == "GFX9" and coder.features.accvgpr_memory
    if _aligned(coder):
        if returned and ret is not None and ret.count > 1 and any(s.align_note is not None for s in specs):
            _check_tuple(ops[0], True, "the returned value")
        for k, (tok, spec) in enumerate(pairs):
            _check_tuple(tok, spec.align_note is not None, f"operand {k + 1}")
            if spec.address_fields and gfx9_aligned and "idxen" in mods and "offen" in mods:
                r = _reg(tok)
                if r is not None and r[1] & 1:
                    raise EncodeError(f"operand {k + 1} {tok!r}: the index and offset pair must start on an even register")
    if gfx9_aligned and e.name.startswith("ds_gws_") and pairs:
        r = _reg(pairs[0][0])
        if r is not None and r[1] & 1:
            raise EncodeError(f"operand 1 {pairs[0][0]!r}: vgpr must be even aligned")
    if "tfe" in mods and e.encoding in ("MUBUF", "MTBUF", "VBUFFER") and "_store" in e.name:
        raise EncodeError(f"{e.name}: tfe means nothing on a store")
    classes = {r[0] for tok, spec in pairs if spec.acc is not None and (r := _reg(tok)) is not None}
    if returned and ret is not None and ret.acc is not None and (r := _reg(ops[0])) is not None:
        classes.add(r[0])
    if {"a", "v"} <= classes and e.encoding in ("FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "DS", "MIMG"):
        raise EncodeError("AGPR and VGPR data mixed: one ACC bit selects the register file for all of them")


_LDS_DIRECT = re.compile(r"(?<![\w])(?:src_)?lds_direct(?![\w])")


_SCALE_OFFSET = re.compile(r"\bscale_offset\b")


def check_text(coder, text: str) -> None:
    """Rules on the whole line, whatever form encodes it (SDWA and DPP included): a modifier given twice;
    gfx90a+ lds_direct; GFX12's
    ``scale_offset``, which llvm-mc-22 decodes on gfx1200 (scalar memory) but assembles on gfx1250 only, and there
    not on ``s_buffer_*`` loads."""
    if coder.tables.gfx == "GFX9" and coder.features.accvgpr_memory and _LDS_DIRECT.search(text):
        raise EncodeError(f"lds_direct is not supported on {coder.arch}")
    if _SCALE_OFFSET.search(text) and (coder.tables.gfx == "GFX12" or text.startswith("s_buffer_")):
        raise EncodeError(f"scale_offset is not supported on {coder.arch} or not by this instruction")
    if " :: " not in text:
        from .syntax import split_operands

        names = [n for m in split_operands(text)[1] if (n := m.split(":")[0]).isidentifier()]
        if len(names) != len(set(names)):  # (llvm-mc-22, every target: offset:4 offset:4, clamp clamp, nv nv)
            raise EncodeError(f"modifier {next(n for n in names if names.count(n) > 1)!r} given twice")


# (lowest, highest, llvm-mc-22's words) of the offsets it takes: GFX9 FLAT 0..4095 (the decoder reads all 13 bits);
# GFX10 FLAT 0..2047, GLOBAL and SCRATCH -2048..2047 (the 12-bit field's top bit is the sign there)
_FLAT_OFFSETS = {("GFX9", "FLAT"): (0, 4095, "12-bit unsigned"), ("GFX10", "FLAT"): (0, 2047, "11-bit unsigned"),
                 ("GFX10", "GLOBAL"): (-2048, 2047, "12-bit signed"), ("GFX10", "SCRATCH"): (-2048, 2047, "12-bit signed")}


def flat_offset_error(coder, e, mods: list[str]) -> None:
    """The offsets llvm-mc-22 takes on GFX9 FLAT and GFX10 FLAT/GLOBAL/SCRATCH (``_FLAT_OFFSETS``)."""
    span = _FLAT_OFFSETS.get((coder.tables.gfx.split(".")[0], e.encoding))
    if span is None:
        return
    for m in mods:
        if m.startswith("offset:"):
            try:
                n = int(m.split(":", 1)[1], 0)
            except ValueError:
                return
            if not span[0] <= n <= span[1]:
                raise EncodeError(f"expected a {span[2]} offset")


def saddr_error(encoding: str, values: dict[str, int]) -> None:
    """A global access's scalar address is an SGPR pair, vcc or ttmp pair, never exec (llvm-mc-22: gfx90a, gfx942,
    gfx1010, gfx1030, gfx1100, gfx1200)."""
    if encoding in ("GLOBAL", "VGLOBAL") and values.get("SADDR") == 126:
        raise EncodeError("the scalar address of a global access cannot be exec")


# GFX12/GFX12.5 cache policy: names of the zero TH and SCOPE values that llvm-mc-22 accepts on every load, store,
# atomic without return, image and scalar load (gfx1200, gfx1250) and leaves out of its listing
DEFAULT_CACHE_POLICY = frozenset({"th:TH_LOAD_RT", "th:TH_STORE_RT", "th:TH_ATOMIC_RT", "th:TH_DEFAULT",
                                  "scope:SCOPE_CU", "scope:0"})


def plain_modifiers(plan: Plan, mods: list[str]) -> list[str]:
    """``mods`` with ``noX`` (X a one-bit modifier word of the plan) dropped and ``bound_ctrl:0`` spelled as
    the ``bound_ctrl:1`` the plan knows."""
    words: set[str] = set(plan.base_mods)
    for mod in plan.modifiers.values():
        for add, *_ in (mod.tokens or {}).values():
            words.update(add)
        for add in (mod.table or {}).values():
            words.update(add or [])
    out = []
    for m in mods:
        if m.startswith("no") and m[2:] in words and ":" not in m:
            continue
        if m in DEFAULT_CACHE_POLICY and m.split(":")[0].upper() in plan.modifiers:
            continue  # GFX12: the spellings of TH=0 and SCOPE=0, which print as nothing (llvm-mc-22)
        if m == "bound_ctrl:0" and "bound_ctrl:1" in words:
            m = "bound_ctrl:1"
        if m == "th:TH_ATOMIC_RT_RETURN":  # (llvm-mc-22's other name of TH_ATOMIC_RETURN, gfx1200/gfx1250)
            m = "th:TH_ATOMIC_RETURN"
        out.append(m)
    return out


_MOD_CONST = re.compile(r"^(-?)\|([^|()]+)\|$")
_PACK = {16: "<e", 32: "<f", 64: "<d"}
_INLINE_FLOATS = frozenset({0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0})


def fold_constant_modifiers(tok: str, size: int, is_float: bool) -> str:
    """A number written with source modifiers where the form has no modifier bits (``v_add_f32_e32 v5, |-4.0|, v2``):
    llvm-mc-22 applies them to the value, abs clearing and neg flipping the sign bit of the operand's float format
    (4.0; ``-|1|`` is 0x80000001).  Other tokens come back as they are."""
    m = _MOD_CONST.match(tok.strip())
    if not m or not is_float or size not in _PACK:
        return tok
    inner, sign = m.group(2).strip(), 1 << (size - 1)
    try:
        bits = int(inner, 0) & ((1 << size) - 1)
        if size == 64:
            return tok  # (an integer read as a double's high half: not folded here)
    except ValueError:
        try:
            bits = int.from_bytes(struct.pack(_PACK[size], float(inner)), "little")
        except (ValueError, OverflowError):
            return tok
    bits = (bits & ~sign) ^ (sign if m.group(1) else 0)
    value = struct.unpack(_PACK[size], bits.to_bytes(size // 8, "little"))[0]
    if bits == 0:
        return "0"
    if size == 64 or (value in _INLINE_FLOATS and bits != sign):
        return repr(value)  # (an inline constant by its value, as LLVM encodes it)
    return f"0x{bits:x}"


_INLINE_BITS = {32: {int.from_bytes(struct.pack("<f", x), "little"): repr(x) for x in _INLINE_FLOATS if x}
                 | {0x3E22F983: "0.15915494"},
                16: {int.from_bytes(struct.pack("<e", x), "little"): repr(x) for x in _INLINE_FLOATS if x}
                 | {0x3118: "0.15915494"},
                "bf16": {int.from_bytes(struct.pack("<f", x), "little") >> 16: repr(x) for x in _INLINE_FLOATS if x}
                 | {0x3E22: "0.15915494"}}


def inline_float_name(tok: str, size: int | str) -> str:
    """An integer written with the bits of an inline float constant (0x40800000, 0x3e22f983) is that constant
    for llvm-mc-22 in any 32-bit operand, integer ones too, and in 16-bit float operands: its name then.  A packed
    16-bit operand keeps a wider value as a literal (lit(0x40800000))."""
    try:
        n = int(tok.strip(), 0)
    except ValueError:
        return tok
    got = _INLINE_BITS.get(size, {}).get(n)
    if got is None and size != 32 and n > 0xFFFF:
        return f"lit(0x{n & 0xFFFFFFFF:x})"
    return tok if got is None else got


_F64_INLINE = {int.from_bytes(struct.pack("<d", x), "little"): repr(x) for x in _INLINE_FLOATS if x} \
    | {0: "0", 0x3FC45F306DC9C882: "0.15915494309189532"}
_FLOAT_TOKEN = re.compile(r"^-?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)$")
_NORMAL_MIN = {16: 2.0 ** -14, 32: 2.0 ** -126}


def _float_operand_bits(text: str, size: int) -> int:
    """The bits of a decimal float in a 16-, 32- or 64-bit operand; EncodeError where it overflows, or
    underflows to zero or to an inexact denormal (llvm-mc-22: invalid operand; a double is taken as read)."""
    x = float(text)
    if size == 64:
        return int.from_bytes(struct.pack("<d", x), "little")
    try:
        bits = int.from_bytes(struct.pack(_PACK[size], x), "little")
    except OverflowError:
        raise EncodeError(f"{text} does not fit a {size}-bit float") from None
    y = struct.unpack(_PACK[size], bits.to_bytes(size // 8, "little"))[0]
    if x and abs(y) < _NORMAL_MIN[size] and y != x:
        raise EncodeError(f"{text} underflows a {size}-bit float")
    return bits


def float_token(tok: str, size: int, is_float: bool, literal64: bool) -> str:
    """A decimal float in a (non-packed, non-bf16) source as llvm-mc-22 reads it, written as the token the
    encoder takes: the inline constant of its bits in the operand's format (0.0 is 0; 1/(2*pi) in any
    spelling), else those bits as a hex literal (a 64-bit operand: the high dword, gfx1250 a 64-bit literal
    where the low dword is not zero; a 64-bit integer operand an inline value only); ``lit(1.0)`` the bits
    as a literal.  A 64-bit operand's integer wider than 32 bits with an inline double's bits is that
    constant (0x3ff0000000000000 is 1.0).  Other tokens come back as they are."""
    wrapped = tok.startswith("lit(") and tok.endswith(")")
    inner = tok[4:-1].strip() if wrapped else tok
    if wrapped and size == 64 and NUM_TOKEN.match(inner) and not -(1 << 31) <= int(inner, 0) < (1 << 32):
        if not literal64:
            raise EncodeError(f"{tok}: a literal has 32 bits")
        return f"lit(0x{int(inner, 0) & 0xFFFFFFFF:x})" if is_float else tok  # (gfx1250 keeps the low dword)
    if not _FLOAT_TOKEN.match(inner):
        if size == 64 and not wrapped and NUM_TOKEN.match(tok):
            n = int(tok, 0)
            if not -(1 << 31) <= n < (1 << 32):
                if literal64 and is_float and n & 0xFFFFFFFF == 0 and 0 < n < (1 << 64) and n not in _F64_INLINE:
                    return f"0x{n >> 32:x}"  # (gfx1250: the high dword as a 32-bit literal)
                return _F64_INLINE.get(n & ((1 << 64) - 1), tok)
        return tok
    bits = _float_operand_bits(inner, size)
    if wrapped and size == 64 and not is_float:
        raise EncodeError(f"{tok}: a float literal of a 64-bit integer operand")
    if wrapped:
        return f"lit(0x{bits >> 32 if size == 64 else bits:x})"
    if size != 64:
        return "0" if bits == 0 else _INLINE_BITS[size].get(bits) or f"0x{bits:x}"
    if bits in _F64_INLINE:
        return _F64_INLINE[bits]
    if bits & 0xFFFFFFFF and literal64 and is_float:
        return f"lit64(0x{bits:x})"
    hi = bits >> 32 << 32
    if hi in _F64_INLINE:
        return _F64_INLINE[hi]
    if not is_float:
        raise EncodeError(f"{tok} is no inline constant of a 64-bit integer operand")
    return f"0x{bits >> 32:x}"


NUM_TOKEN = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")


def check_16_bit_literal(tok: str, name: str, size: int) -> None:
    """A 16-bit operand (not a packed one) takes no integer wider than 16 bits (llvm-mc-22: invalid operand)."""
    if size != 16 or name.startswith("v_pk_") or _PACKED_F16.match(name) or _PACKED_BF16.match(name):
        return
    try:
        n = int(tok.strip(), 0)
    except ValueError:
        return
    if not -(1 << 15) <= n < (1 << 16):
        raise EncodeError(f"{tok!r} does not fit a 16-bit operand")


_PACKED_BF16 = re.compile(r"^v_(pk_\w*bf16|dot2(c|acc)?_f32_bf16|dot2_bf16_bf16)")
_PACKED_F16 = re.compile(r"^v_(pk_\w*f16|dot2(c|acc)?_f32_f16|dot2_f16_f16)")


def inline_bits_size(name: str, size: int, is_float: bool) -> int | str | None:
    """Which inline-float bit patterns an integer token of this operand may spell (``inline_float_name``):
    16 for 16-bit float and packed f16 operands, "bf16" for packed bf16 ones, 32 for any other 32-bit operand
    and the other packed ones (v_pk_add_u16, v_pk_mul_f32), None otherwise (llvm-mc-22)."""
    if _PACKED_BF16.match(name):
        return "bf16"
    if _PACKED_F16.match(name):
        return 16
    if size == 32 or name.startswith("v_pk_"):
        return 32
    return 16 if size == 16 and is_float else None


_SWIZZLE = re.compile(r"^swizzle\((\w+)((?:,[^,)]+)*)\)$")
_BITMASK = {"0": (0, 0, 0), "1": (0, 1, 0), "p": (1, 0, 0), "i": (1, 0, 1)}  # (and, or, xor) bit per lane-id char


def _pow2(n: int, lo: int, hi: int) -> bool:
    return lo <= n <= hi and n & (n - 1) == 0


def _swizzle_mode(mode: str, args: list[str]) -> int | None:
    """The 16-bit ds_swizzle offset of one swizzle(...) mode (the ISA's encodings: bit 15 quad-permute lanes;
    else and/or/xor lane masks in bits 0-4/5-9/10-14; 0xc000 rotate, 0xe000 FFT); None if the arguments misfit."""
    if mode == "BITMASK_PERM":
        text = args[0].strip('"') if len(args) == 1 else ""
        if len(text) != 5 or any(c not in _BITMASK for c in text):
            return None
        bits = [_BITMASK[c] for c in reversed(text)]
        return sum(a << i | o << (5 + i) | x << (10 + i) for i, (a, o, x) in enumerate(bits))
    try:
        n = [int(a, 0) for a in args]
    except ValueError:
        return None
    if mode == "QUAD_PERM" and len(n) == 4 and all(0 <= x <= 3 for x in n):
        return 0x8000 | sum(x << (2 * i) for i, x in enumerate(n))
    if mode == "SWAP" and len(n) == 1 and _pow2(n[0], 1, 16):
        return 0x1F | n[0] << 10
    if mode == "REVERSE" and len(n) == 1 and _pow2(n[0], 2, 32):
        return 0x1F | (n[0] - 1) << 10
    if mode == "BROADCAST" and len(n) == 2 and _pow2(n[0], 2, 32) and 0 <= n[1] < n[0]:
        return (0x1F & ~(n[0] - 1)) | n[1] << 5
    if mode == "FFT" and len(n) == 1 and 0 <= n[0] <= 31:
        return 0xE000 | n[0]
    if mode == "ROTATE" and len(n) == 2 and n[0] in (0, 1) and 0 <= n[1] <= 31:
        return 0xC000 | n[0] << 10 | n[1] << 5
    return None


def swizzle_offset(name: str, mods: list[str]) -> tuple[int | None, list[str]]:
    """ds_swizzle_b32's ``offset:swizzle(MODE,...)`` or ``offset:N`` as the 16-bit offset (OFFSET1:OFFSET0) and
    the other modifiers; (None, mods) for other instructions (llvm-mc-22's syntax, gfx9 to gfx12)."""
    if not name.startswith("ds_swizzle"):
        return None, mods
    for m in mods:
        if m.startswith("offset:"):
            text = m[len("offset:"):]
            sw = _SWIZZLE.match(text)
            try:
                v = int(text, 0) if sw is None else _swizzle_mode(sw.group(1), sw.group(2).split(",")[1:])
            except ValueError:
                v = None
            if v is None or not 0 <= v < 1 << 16:
                raise EncodeError(f"{m!r}: expected offset:swizzle(MODE,...) or a 16-bit offset")
            return v, [x for x in mods if x is not m]
    return None, mods


def atomic_return_policy(plan: Plan, ret_bit: int | None, mods: list[str], returns: bool = False) -> None:
    """An atomic written with its returned value must say so: GFX12/GFX12.5 in its th: token (th:TH_ATOMIC_RETURN,
    th:TH_ATOMIC_NT_RETURN, ...), GFX9-GFX11 with the return bit's modifier (glc; sc0 on gfx940), which one
    written without it must not use; llvm-mc-22 (gfx908, gfx942, gfx1010, gfx1100, gfx1200, gfx1250) rejects
    either."""
    ret = plan.returning
    if ret_bit and ret is not None and ret.field == "TH" and \
            not any(m.startswith("th:") and m.endswith("RETURN") for m in mods):
        raise EncodeError("instruction must use th:TH_ATOMIC_RETURN")
    mod = plan.modifiers.get(ret.field) if ret is not None and ret.field != "TH" else None
    names = {t for add, _ in (mod.tokens or {}).values() for t in add} if mod is not None else set()
    given = names & {m.strip().lower() for m in mods}
    if names and returns and not given:
        raise EncodeError(f"instruction must use {' or '.join(sorted(names))}")
    if given and not returns:  # (the bit says "return": a form without the returned value must not set it)
        raise EncodeError(f"instruction must not use {' or '.join(sorted(given))}")


def lds_form_ops(coder, e, plan: Plan, ops: list[str], mods: list[str]) -> list[str]:
    """A GFX10 FLAT/GLOBAL/SCRATCH load into LDS (``lds``) is written without its data register, whose field
    stays 0 (llvm-mc-22, gfx1030: ``scratch_load_dword off, off offset:1024 lds``)."""
    specs = plan.operands
    if "lds" in mods and coder.tables.gfx == "GFX10" and e.encoding in ("FLAT", "GLOBAL", "SCRATCH") \
            and len(ops) == len(specs) - 1 and specs and specs[0].kind == "vreg" and specs[0].count == 1:
        return ["v0"] + list(ops)
    return ops


def scalar7(arch: str, encoding: str, field: str, v: int) -> int:
    """A source value past 127 as llvm-mc-22 writes it into a GFX12 7-bit scalar field (VBUFFER/SMEM SOFFSET,
    scratch SADDR): src_scc by its low seven bits (0x7d; global/flat SADDR refuse it), and on gfx1250 (the one
    target taking those names) src_flat_scratch_base_lo/hi (0x66/0x67); other values unchanged (refused)."""
    if v == 253 and (field != "SADDR" or encoding == "VSCRATCH") or v in (230, 231) and arch == "cdna5":
        return v & 0x7F
    return v


_MSAA_DIMS = ("dim:SQ_RSRC_IMG_2D_MSAA", "dim:SQ_RSRC_IMG_2D_MSAA_ARRAY")


def msaa_dim_error(name: str, mods: list[str]) -> None:
    """``image_msaa_load`` reads multisampled images only: a ``dim:`` of another kind is refused (llvm-mc-22 on
    gfx1013, gfx1030, gfx1100 and gfx1200: "invalid dim; must be MSAA type")."""
    if name == "image_msaa_load":
        bad = [m for m in mods if m.startswith("dim:") and m not in _MSAA_DIMS]
        if bad:
            raise EncodeError(f"modifier {bad[0]}: image_msaa_load takes a multisampled dim (2D_MSAA, 2D_MSAA_ARRAY)")


def cache_policy(coder, mods: list[str]) -> list[str]:
    """GFX12/GFX12.5 ``th:``/``scope:`` as llvm-mc-22 reads them (probed on gfx1200 and gfx1250): ``th`` by name
    only, ``scope`` by name or number (``scope:3`` is ``SCOPE_SYS``: ``mods`` returned with the name), each given
    at most once, ``TH_*_BYPASS`` at ``SCOPE_SYS`` only and the other names of TH 3 (``TH_LOAD_LU``,
    ``TH_STORE_WB``) never there."""
    if coder.features.memory_syntax != "gfx12":
        return mods
    mods = [f"scope:{_SCOPES[int(m[6:])]}" if m[6:] in ("1", "2", "3") and m.startswith("scope:") else m
            for m in mods]
    th = [m[3:] for m in mods if m.startswith("th:")]
    scope = [m[6:] for m in mods if m.startswith("scope:")]
    if len(th) > 1 or len(scope) > 1:
        raise EncodeError("th: and scope: may each be given once")
    if th and not th[0].startswith("TH_"):
        raise EncodeError(f"th:{th[0]}: expected a TH_* name")
    at_sys = bool(scope) and scope[0] in ("SCOPE_SYS", "3")
    if th and (th[0].endswith("_BYPASS") != at_sys) and (th[0].endswith("_BYPASS") or th[0] in _TH3_NAMES):
        raise EncodeError("scope and th combination is not valid")
    return mods


_TH3_NAMES = frozenset({"TH_LOAD_LU", "TH_STORE_WB"})
_SCOPES = ("SCOPE_CU", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS")


def smem_offset_error(coder, e, field: str, n: int, width: int) -> None:
    """GFX11/GFX12 scalar-memory offsets (field OFFSET or IOFFSET, ``width`` bits) as llvm-mc-22 takes them: signed
    (-2^(w-1) .. 2^(w-1)-1), or for ``s_buffer_*`` unsigned below 2^(w-1); probed on gfx1100, gfx1200."""
    if field not in ("OFFSET", "IOFFSET") or e.encoding != "SMEM" or coder.tables.gfx[:5] not in ("GFX11", "GFX12"):
        return
    top = (1 << (width - 1)) - 1
    lo = 0 if e.name.startswith("s_buffer_") else -(top + 1)
    if not lo <= n <= top:
        raise EncodeError(f"offset {n:#x} is out of range ({lo:#x}..{top:#x}) for {e.name}")


# GFX11+ scalar sources llvm-mc-22 narrows (probed on gfx1100/gfx1200/gfx1250 with a literal and an inline constant
# in every SOP1/SOP2/SOPC source): registers only, or no literal
_REGISTER_ONLY = frozenset({"s_movrels_b32", "s_movrels_b64"})
_NO_LITERAL = frozenset({"s_barrier_init", "s_barrier_join", "s_barrier_signal", "s_barrier_signal_isfirst",
                         "s_get_barrier_state", "s_wakeup_barrier"})


def scalar_source_error(coder, name: str, k: int, v: int, literal: int | None) -> None:
    """Refuse a constant where llvm-mc-22 takes a register only (``s_movrels_*``) and a literal where it takes
    registers and inline constants only (the named-barrier instructions), GFX11 and later."""
    if coder.tables.gfx[:5] not in ("GFX11", "GFX12") or name not in _REGISTER_ONLY | _NO_LITERAL:
        return
    if literal is not None or v == 255 or name in _REGISTER_ONLY and v >= 128:
        raise EncodeError(f"operand {k + 1}: {name} takes no {'constant' if name in _REGISTER_ONLY else 'literal'} here")


_NO_M0_DEST = ("v_readlane_b32", "v_readfirstlane_b32")


def scalar_destination_error(gfx: str, name: str, k: int, field: str, v: int) -> None:
    """Refuse what llvm-mc-22 refuses as a scalar destination on every generation: a constant, a literal or another
    source-only value (``v_cmp_eq_u32_e64 0, v1, v2``), and M0 as the SGPR v_readlane_b32/v_readfirstlane_b32
    write ("invalid operand for instruction")."""
    if field not in ("VDST", "SDST"):
        return
    if v >= 128:
        raise EncodeError(f"operand {k + 1}: a destination takes no constant or literal")
    if name.removesuffix("_e64") in _NO_M0_DEST and v == (124 if gfx.startswith(("GFX9", "GFX10")) else 125):
        raise EncodeError(f"operand {k + 1}: {name} writes no M0")
