"""Rules that derive facts from other facts: categories, operand roles and order,
implicit operands read off LLVM's syntax, and operand kinds of encoding fields.

Every fact produced here is marked with the ``gpuisa rules`` provenance so a
page can say it was derived, not read from a vendor source.
"""

from __future__ import annotations

import re

from ..model import Operand, Provenance

RULES = Provenance("gpuisa rules", "", "derived from the encoding, the mnemonic and LLVM's syntax", True)

# AMD's functional-group names (as in the MR-ISA XML) decided by encoding and mnemonic.
_BRANCH = re.compile(r"^s_(branch|cbranch_\w+|setpc_b64|swappc_b64|call_b64|getpc_b64|subvector_loop_\w+)$")
_MESSAGE = re.compile(r"^s_(sendmsg\w*|ttracedata\w*)$")
_TRAP = re.compile(r"^s_(trap|rfe_b64|rfe_restore_b64|setkill)$")


def category(name: str, encoding: str) -> str:
    e = encoding.upper()
    if e.startswith("SOPP") or e.startswith("SOPK") or e.startswith("SOP1"):
        if _BRANCH.match(name):
            return "BRANCH"
        if _MESSAGE.match(name):
            return "MESSAGE"
        if _TRAP.match(name):
            return "TRAP"
        if e.startswith("SOPP"):
            return "WAVE_CONTROL"
    if e.startswith("SOP"):
        return "SALU"
    if e.startswith("SMEM") or e.startswith("SMRD"):
        return "SMEM"
    if e.startswith("VOP") or e in ("VINTERP", "VINTRP"):
        return "VALU"
    if e in ("EXP", "VEXPORT"):
        return "EXPORT"
    if e.startswith("DS") or e in ("LDSDIR", "VDSDIR"):
        return "LDS"
    return "VMEM"


CATEGORY_TITLES = {
    "SALU": "scalar ALU",
    "SMEM": "scalar memory",
    "VALU": "vector ALU",
    "VMEM": "vector memory",
    "LDS": "local data share",
    "EXPORT": "export",
    "BRANCH": "branch",
    "MESSAGE": "message",
    "WAVE_CONTROL": "wave control",
    "TRAP": "trap",
}

# Vendor operand order: destinations, then addresses/data, then sources, then resources.
_ORDER = [
    "VDST", "VDSTX", "VDSTY", "SDST", "SDATA", "VDATA", "ADDR", "VADDR", "VADDR0", "VADDR1", "VADDR2",
    "VADDR3", "VADDR4", "DATA", "DATA0", "DATA1", "VSRC", "SRC0", "VSRC0", "SRCX0", "VSRCX1", "SRCY0",
    "VSRCY1", "SSRC0", "SRC1", "VSRC1", "SSRC1", "SRC2", "VSRC2", "VSRC3", "LITERAL", "SBASE", "RSRC",
    "SRSRC", "SAMP", "SSAMP", "SADDR", "SOFFSET", "SIMM16", "VCC",
]
_RANK = {n: i for i, n in enumerate(_ORDER)}


def operand_rank(name: str) -> int:
    return _RANK.get(name.upper(), len(_ORDER))


def _is_load(name: str) -> bool:
    return bool(re.search(r"(^|_)(load|read|gather|sample|get_|msaa_load|bvh)", name)) or "_load" in name


def _is_atomic(name: str) -> bool:
    return "atomic" in name or re.search(r"^ds_(add|sub|rsub|inc|dec|min|max|and|or|xor|mskor|cmpst|wrxchg|storexchg|"
                                         r"condxchg|cond_sub|sub_clamp|pk_add)", name) is not None


def operand_role(inst: str, fld: str) -> str:
    """read | write | readwrite for an encoded field of an instruction."""
    f = fld.upper()
    if f in ("VDST", "VDSTX", "VDSTY", "SDST"):
        if re.search(r"(^v_(fmac|mac|dot\dc)|^s_(cmov|addk|mulk|cmovk)|^v_writelane|_fmac_|^s_fmac)", inst):
            return "readwrite"
        return "write"
    if f == "SDATA":
        if inst.startswith(("s_load", "s_buffer_load", "s_scratch_load", "s_get", "s_memtime", "s_memrealtime")):
            return "write"
        return "readwrite" if "atomic" in inst else "read"
    if f in ("VDATA", "DATA", "VSRC") and inst.startswith(("buffer_", "tbuffer_", "image_", "global_", "flat_", "scratch_")):
        if _is_atomic(inst):
            return "readwrite"
        return "write" if _is_load(inst) else "read"
    return "read"


def field_kind(fld: str, width: int | None = None) -> str:
    """The operand kind an encoding field holds when no vendor table says so."""
    f = fld.upper()
    if f in ("VDST", "VDSTX", "VDSTY", "VSRC1", "VSRCX1", "VSRCY1", "ADDR", "VADDR", "DATA", "DATA0", "DATA1",
             "VDATA", "VSRC", "VSRC0", "VSRC2", "VSRC3") or f.startswith("VADDR"):
        return "OPR_VGPR"
    if f == "SDST":
        return "OPR_SDST"
    if f in ("SRC0", "SRC1", "SRC2", "SRCX0", "SRCY0"):
        return "OPR_SRC"
    if f in ("SSRC0", "SSRC1"):
        return "OPR_SSRC"
    if f in ("SBASE", "SRSRC", "RSRC", "SSAMP", "SAMP", "SADDR", "SOFFSET", "SDATA"):
        return "OPR_SREG"
    if f == "SIMM16":
        return "OPR_SIMM16"
    return "OPR_" + f


_VCC = re.compile(r"^vcc(_lo)?$")
VCC_NOTE = "64-bit lane mask; in wave32 only its low 32 bits (VCC_LO) are used"


def implicit_operands(encoding: str, syntax: str, tokens: list[str], prov: Provenance) -> list[Operand]:
    """Implicit VCC operands visible in LLVM's e32 syntax (VOP2 carry/condition, VOPC result)."""
    out: list[Operand] = []
    enc = encoding.upper()
    if not tokens:
        return out
    if enc == "VOP2":
        if len(tokens) >= 2 and _VCC.match(tokens[1]):
            out.append(Operand("VCC", "write", "OPR_VCC", "FMT_NUM_M64", 64, True, VCC_NOTE, prov))
        if len(tokens) >= 3 and _VCC.match(tokens[-1]):
            out.append(Operand("VCC", "read", "OPR_VCC", "FMT_NUM_M64", 64, True, VCC_NOTE, prov))
    elif enc == "VOPC":
        if _VCC.match(tokens[0]):
            out.append(Operand("VCC", "write", "OPR_VCC", "FMT_NUM_M64", 64, True, VCC_NOTE, prov))
    if len(out) == 2:  # carry in and carry out are one read-write operand
        out = [Operand("VCC", "readwrite", "OPR_VCC", "FMT_NUM_M64", 64, True, VCC_NOTE, prov)]
    return out


# Fields of an encoding that name operands (others are modifiers/controls).
OPERAND_FIELDS = set(_ORDER) - {"VCC", "LITERAL"}


def operand_fields_in_syntax(encoding_fields: list[str], tokens: list[str]) -> list[str]:
    """Which operand fields an instruction uses, guessed from how many operands LLVM prints."""
    fields = sorted((f for f in encoding_fields if f in OPERAND_FIELDS), key=operand_rank)
    regs = [t for t in tokens if not re.match(r"^[a-z_]+:", t)]
    if len(regs) < len(fields):
        fields = fields[: max(len(regs), 0)]
    return fields
