"""The one data model of gpuisa: native (AMD) and virtual (PTX) ISAs alike.

The facts the store holds are built from these dataclasses: sources (llvm-mc
sweep, tinygrad tables, AMD XML) produce them and the store persists them.  The
instruction pages every renderer draws are the typed page model of
``gpuisa.page.model``, built from the store's rows.

Conventions
- Names are lower case in LLVM's spelling (``v_msad_u8``); encoding names are
  AMD's without the ``ENC_`` prefix (``VOP3``); field names are AMD's upper-case
  names (``VDST``, ``CLAMP``).
- A bit range is ``(hi, lo)`` inclusive; a field may have several ranges, most
  significant part first (AMD's ``<BitLayout RangeCount="2">``).
- ``value`` on a field marks fixed bits (the encoding's identifying bits).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

ROLES = ("read", "write", "readwrite")


@dataclass(frozen=True)
class Provenance:
    """Where a fact came from: a source and its version, optionally a note.

    ``inferred`` marks facts carried over from another architecture or
    derived by rule rather than read from a vendor's machine-readable source.
    """

    source: str
    version: str = ""
    note: str = ""
    inferred: bool = False

    def label(self) -> str:
        text = self.source + (f" {self.version}" if self.version else "")
        if self.inferred:
            text += " (inferred)"
        if self.note:
            text += f" - {self.note}"
        return text

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Provenance":
        return cls(d["source"], d.get("version", ""), d.get("note", ""), bool(d.get("inferred", False)))


@dataclass(frozen=True)
class Field:
    """One named field of an encoding; ``ranges`` are (hi, lo), MSB part first."""

    name: str
    ranges: tuple[tuple[int, int], ...]
    value: int | None = None  # fixed bits (identifier) when not None

    @property
    def width(self) -> int:
        return sum(hi - lo + 1 for hi, lo in self.ranges)

    @property
    def hi(self) -> int:
        return max(hi for hi, _ in self.ranges)

    @property
    def lo(self) -> int:
        return min(lo for _, lo in self.ranges)

    def bits_text(self) -> str:
        return ", ".join(f"{hi}:{lo}" if hi != lo else f"{hi}" for hi, lo in self.ranges)

    def fixed_text(self) -> str:
        return format(self.value, f"0{self.width}b") if self.value is not None else ""

    def place(self, value: int) -> int:
        """Put ``value`` into this field's bits of an instruction word."""
        word = 0
        for hi, lo in reversed(self.ranges):  # least significant part last in list
            n = hi - lo + 1
            word |= (value & ((1 << n) - 1)) << lo
            value >>= n
        return word

    @property
    def mask(self) -> int:
        """This field's bits of an instruction word."""
        return self.place((1 << self.width) - 1)

    def insert(self, word: int, value: int) -> int:
        """``word`` with this field's bits replaced by ``value``."""
        return (word & ~self.mask) | self.place(value)

    def extract(self, word: int) -> int:
        value = 0
        for hi, lo in self.ranges:
            n = hi - lo + 1
            value = (value << n) | ((word >> lo) & ((1 << n) - 1))
        return value


@dataclass(frozen=True)
class Encoding:
    """An instruction encoding (microcode format) of one architecture."""

    name: str
    width: int
    fields: tuple[Field, ...]
    op_field: str | None = "OP"
    provenance: Provenance | None = None

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def require_field(self, name: str) -> Field:
        """The field ``name``, which the caller's plan or table says the encoding has (a KeyError when the
        committed tables disagree with each other about it)."""
        f = self.field(name)
        if f is None:
            raise KeyError(f"encoding {self.name} has no field {name}")
        return f

    @property
    def fixed_mask(self) -> int:
        mask = 0
        for f in self.fields:
            if f.value is not None:
                mask |= f.mask
        return mask

    @property
    def fixed_value(self) -> int:
        value = 0
        for f in self.fields:
            if f.value is not None:
                value |= f.place(f.value)
        return value

    def identifier(self, opcode: int | None) -> int:
        """AMD's identifier: the fixed encoding bits plus the opcode bits."""
        value = self.fixed_value
        op = self.field(self.op_field) if self.op_field else None
        if op is not None and opcode is not None:
            value |= op.place(opcode)
        return value

    def identifier_hex(self, opcode: int | None) -> str:
        return "0x" + format(self.identifier(opcode), f"0{self.width // 4}X")

    def layout_key(self) -> tuple:
        """What 'same field layout' compares: bit ranges, names and fixed bits."""
        return tuple(sorted((f.name, f.ranges, f.value) for f in self.fields))

    def sorted_fields(self) -> list[Field]:
        """Fields in AMD's presentation order: most significant first."""
        return sorted(self.fields, key=lambda f: (-f.hi, -f.lo))


@dataclass(frozen=True)
class Operand:
    """An operand of one instruction encoding, in the vendor's order."""

    name: str  # AMD field name (VDST, SRC0) or a register name for implicit ones (VCC)
    role: str  # read | write | readwrite
    kind: str | None = None  # OPR_VGPR, OPR_SRC, ... ; PTX: operand type
    format: str | None = None  # FMT_NUM_U32, ... ; PTX: data type
    size: int | None = None  # bits
    implicit: bool = False
    note: str = ""
    provenance: Provenance | None = None


@dataclass(frozen=True)
class InstructionEncoding:
    """One encoding (or encoding variant) of an instruction with its opcode."""

    encoding: str
    opcode: int | None
    operands: tuple[Operand, ...] = ()
    condition: str = "default"  # AMD's EncodingCondition name; variants: has_lit, has_dpp16, ...
    syntax: str = ""  # an example in LLVM's assembler syntax
    provenance: Provenance | None = None


@dataclass(frozen=True)
class Features:
    """What an architecture's encoder, decoder and evaluator must know about it: feature flags read in one
    place (the registry, ``archs.py``) instead of comparisons of generation names (as LLVM's ``hasTrue16()``)."""

    waves: tuple[int, ...] = ()  # wave sizes the hardware runs, the default first
    encoding_family: str = ""  # the LLVM encoding generation the codec's rules follow: GFX9, GFX10, GFX11, GFX12
    true16: bool = False  # LLVM 22's default 16-bit syntax names VGPR halves (v1.l, v1.h): the default mode is true16
    syntax16: tuple[str, ...] = ()  # the 16-bit register syntax modes LLVM has (-mattr=+/-real-true16): true16, fake16
    sdwa: bool = False  # SDWA sub-dword forms exist
    dpp8: bool = False  # DPP8 lane selects exist
    vopd: bool = False  # dual-issue VOPD exists
    vop3_literal: bool = False  # a VOP3 instruction may carry a 32-bit literal
    accvgpr: bool = False  # accumulation VGPRs (a0..a255) exist
    accvgpr_memory: bool = False  # loads, stores and LDS read and write them directly (gfx90a and later)
    nv_modifier: bool = True  # LLVM's assembler accepts the nv modifier (it refuses it for gfx1200/gfx1201)
    literal64: bool = False  # source value 254 reads a 64-bit literal (gfx1250)
    dpp_src1_sgpr: bool = False  # a VOP3 DPP form's src1 may be an SGPR or a constant (gfx1150 and later; gfx1100: a VGPR)
    src_vccz_execz: bool = True  # src_vccz / src_execz (vccz, execz) are source operands (not on GFX11 and later)
    # scalar values (distinct SGPRs, literals; the implicit VCC of v_div_fmas) one VOP3/VOP3P instruction may read
    # (llvm-mc-22: "violates constant bus restrictions"): 1 on GFX9, 2 from GFX10, and for the 64-bit shifts
    # (v_lshlrev_b64, v_lshrrev_b64, v_ashrrev_i64) 1 until gfx1250; 0: not modelled
    constant_bus: int = 0
    constant_bus_shift64: int = 0
    memory_syntax: str = ""  # cache-policy modifiers: gfx9 (glc slc), gfx940 (sc0 sc1 nt), gfx10 (glc slc dlc), gfx12 (th scope)


@dataclass(frozen=True)
class Arch:
    """An architecture (AMD generation) or a virtual ISA."""

    name: str  # canonical key: rdna3.5
    title: str  # RDNA3.5
    vendor: str  # AMD
    isa: str  # amdgpu
    kind: str  # native | virtual
    family: str  # RDNA | CDNA | PTX
    order: int  # generation order (LLVM GFX numbering): larger is newer
    targets: tuple[str, ...]
    llvm_target: str | None = None  # the target llvm-mc-22 is run with, if any
    tinygrad_dir: str | None = None  # name of the tinygrad autogen folder, if any
    gfx: str = ""  # LLVM generation: GFX9, GFX10, ...
    features: Features = Features()

    @property
    def mc_target(self) -> str:
        """``llvm_target`` of an architecture llvm-mc-22 runs (a ValueError for one it has none for: PTX)."""
        if self.llvm_target is None:
            raise ValueError(f"{self.title} has no llvm-mc target")
        return self.llvm_target


def to_jsonable(obj: Any) -> Any:
    """dataclass -> plain JSON types."""
    if hasattr(obj, "__dataclass_fields__"):
        return {k: to_jsonable(v) for k, v in asdict(obj).items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_jsonable(v) for k, v in obj.items()}
    return obj
