"""GFX12.5 (gfx1250) tensor data movers, ``tensor_load_to_lds`` and ``tensor_store_from_lds``, on both sides.

Their 96-bit words sit in GFX12's image (VIMAGE) encoding, which the CDNA5 layout tables do not have, so the
facts carry neither the encoding nor the two instructions.  What follows was measured with llvm-mc-22
(-mcpu=gfx1250: every bit of a word flipped, every register byte value, every TH/SCOPE pair, and the operand
forms the assembler takes and refuses):

* dword 0: 0xD0710001 (load) or 0xD0714001 (store) under mask 0xFFFF8067; bit 4 prints ``r128`` (the
  assembler refuses it), bit 7 ``nv``; bits 3 and 8-13 are ignored;
* dword 1: bits 18-19 SCOPE, 20-22 TH (the names of GFX12 loads/stores; TH=3 at system scope is BYPASS),
  byte 3 fixed at 0x7C; bit 40 ignored, VDATA (bits 32-39), bits 41-49 and 55 must be zero;
* dword 2, one byte per operand: D# group 0 (four SGPRs), group 1 (eight), groups 2 and 3 (four each);
  the low two bits of a register byte are ignored (tuples start at a multiple of four); 0x7C is null, an inline
  constant prints with an invalid-immediate note (254: dword 1 in hex), and
  groups 2 and 3 are printed only when either is not null.  The assembler takes two or four operands,
  SGPR or trap-temporary tuples at a multiple of four (s0..s105), never ``null``.
"""

from __future__ import annotations

from . import operands as opd
from .decoded import Decoded
from .encoded import Encoded, EncodeError
from .syntax import split_operands

ARCHS = frozenset({"cdna5"})
MNEMONICS = {"tensor_load_to_lds": 0, "tensor_store_from_lds": 1}
_MASK0, _VALUE0 = 0xFFFF8067, 0xD0710001
_MASK1, _VALUE1 = 0xFF83FEFF, 0x7C000000
_NULL = 0x7C
_SCOPES = ("", "SCOPE_SE", "SCOPE_DEV", "SCOPE_SYS")
_TH = (("", "NT", "HT", "LU", "NT_RT", "RT_NT", "NT_HT", None),
       ("", "NT", "HT", "WB", "NT_RT", "RT_NT", "NT_HT", "NT_WB"))
_SIZES = (4, 8, 4, 4)
_LAST_SGPR = 105


def is_tensor(dw: int) -> bool:
    return dw & _MASK0 == _VALUE0


def _reg_text(v: int, count: int, d1: int) -> str | None:
    if v == 254:  # (a literal's marker: llvm-mc-22 prints dword 1 as one)
        return f"0x{d1:x}/*Invalid immediate*/"
    if v == _NULL:
        return "null"
    if v < 124:
        base = v & ~3
        if base + count - 1 <= _LAST_SGPR:
            return opd.reg_text("s", base, count)
        if 108 <= base and base + count <= 124:
            return opd.reg_text("ttmp", base - 108, count)
        return None
    const = opd.inline_constant(v, 32) if 128 <= v <= 208 or 240 <= v <= 248 else None
    return None if const is None else const + "/*Invalid immediate*/"


def text_of(word: int) -> str | None:
    """The text of a 96-bit tensor word (little-endian dwords), or None where llvm-mc-22 calls it invalid."""
    d0, d1, d2 = word & 0xFFFFFFFF, (word >> 32) & 0xFFFFFFFF, word >> 64
    if not is_tensor(d0) or d1 & _MASK1 != _VALUE1:
        return None
    store = (d0 >> 14) & 1
    regs = [(d2 >> (8 * i)) & 0xFF for i in range(4)]
    shown = 4 if regs[2] != _NULL or regs[3] != _NULL else 2
    texts = [t for t in (_reg_text(regs[i], _SIZES[i], d1) for i in range(shown)) if t is not None]
    if len(texts) < shown:
        return None
    th, scope = (d1 >> 20) & 7, (d1 >> 18) & 3
    name = "BYPASS" if th == 3 and scope == 3 else _TH[store][th]
    mods = ["r128"] if d0 & 0x10 else []
    mods += [f"th:TH_{'STORE' if store else 'LOAD'}_{name}" if name else f"th:0x{th:x}"] if th else []
    mods += [f"scope:{_SCOPES[scope]}"] if scope else []
    mods += ["nv"] if d0 & 0x80 else []
    mnemonic = "tensor_store_from_lds" if store else "tensor_load_to_lds"
    return " ".join([mnemonic, ", ".join(texts)] + mods)


def decode(buf: bytes, off: int) -> Decoded | None:
    """The instruction at ``off`` if its first dword is a tensor mover's (None: not one, let the tables try)."""
    if len(buf) - off < 12:
        return None
    data = bytes(buf[off:off + 12])
    text = text_of(int.from_bytes(data, "little"))
    if text is None:
        return None
    return Decoded(off, data, text, True, "VIMAGE", text.split()[0])


def _reg_value(tok: str, count: int) -> int:
    r = opd.parse_reg(tok)
    if r is None or r[0] not in ("s", "ttmp") or r[2] != count:
        raise EncodeError(f"operand {tok!r}: expected a {count}-SGPR tuple like s[0:{count - 1}]")
    cls, lo, n = r
    if lo % 4:
        raise EncodeError(f"operand {tok!r}: invalid register alignment (a multiple of 4)")
    if cls == "s" and lo + n - 1 > _LAST_SGPR or cls == "ttmp" and lo + n > 16:
        raise EncodeError(f"operand {tok!r}: register index is out of range")
    return lo + (108 if cls == "ttmp" else 0)


def _modifier_bits(store: int, mods: list[str]) -> tuple[int, int]:
    th = scope = nv = 0
    kind = "STORE" if store else "LOAD"
    names = {f"TH_{kind}_{n}": i for i, n in enumerate(_TH[store]) if n}
    for m in mods:
        key, _, val = m.partition(":")
        if m == "nv":
            nv = 1
        elif key == "scope" and val in _SCOPES[1:] + ("SCOPE_CU",):
            scope = _SCOPES.index(val) if val != "SCOPE_CU" else 0
        elif key == "scope" and val.isdigit() and int(val) < 4:
            scope = int(val)
        elif key == "th" and (val in names or val in (f"TH_{kind}_RT", f"TH_{kind}_BYPASS")):
            th = names.get(val, 3 if val.endswith("BYPASS") else 0)
        else:
            raise EncodeError(f"modifier {m!r}: the tensor movers take th:, scope: and nv")
    bypass = any(m.endswith("_BYPASS") for m in mods)
    if th == 3 and (scope == 3) != bypass:
        raise EncodeError("scope and th combination is not valid (TH 3 at SCOPE_SYS is spelled BYPASS)")
    return (th << 20) | (scope << 18), nv << 7


def encode(text: str, mnemonic: str) -> Encoded:
    store = MNEMONICS[mnemonic]
    ops, mods = split_operands(text)
    if len(ops) not in (2, 4):
        raise EncodeError(f"{text!r}: {mnemonic} takes two or four SGPR tuples")
    regs = [_reg_value(tok, _SIZES[i]) for i, tok in enumerate(ops)] + [_NULL, _NULL][: 4 - len(ops)]
    bits1, bits0 = _modifier_bits(store, mods)
    d0 = _VALUE0 | (store << 14) | bits0
    d1 = _VALUE1 | bits1
    d2 = regs[0] | regs[1] << 8 | regs[2] << 16 | regs[3] << 24
    data = d0.to_bytes(4, "little") + d1.to_bytes(4, "little") + d2.to_bytes(4, "little")
    return Encoded(data, "VIMAGE", mnemonic, {"VADDR0": regs[0], "VADDR1": regs[1], "VADDR2": regs[2],
                                             "VADDR3": regs[3]})
