"""Check the GFX10 (gfx1010 / gfx1030) encoding layouts against llvm-mc-22.

Each case assembles one instruction, slices the encoding with the table in
gpuisa.sources.gfx10_layouts and compares the fields with hand-written
expectations: the opcode from AMD's RDNA1/RDNA2 opcode tables and the register
numbers written in the assembly text.  Field value conventions:
  * 9-bit source operands (SRC0/SRC1/SRC2): sN -> N, vN -> 256 + N;
  * 8-bit VGPR fields (VDST, VSRC1, VADDR, VDATA, ADDR, DATA, ...): vN -> N;
  * SBASE holds the SGPR number / 2, SRSRC and SSAMP the SGPR number / 4;
  * SADDR / SMEM SOFFSET hold 0x7d (null) when the operand is off/absent.
"""

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from gpuisa.sources.gfx10_layouts import LAYOUTS, TARGETS

GFX10_TARGETS = ("gfx1010", "gfx1030")
REQUIRED = {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3B",
            "VOP3P", "VINTRP", "DS", "MUBUF", "MTBUF", "MIMG", "FLAT", "GLOBAL", "SCRATCH", "EXP"}
NULL = 0x7D


def V(n):  # a VGPR in a 9-bit source field
    return 256 + n


# (layout, assembly, expected fields, targets or None for both)
CASES = [
    ("SOP1", "s_mov_b32 s5, s3", dict(OP=0x03, SDST=5, SSRC0=3), None),
    ("SOP1", "s_brev_b32 s7, s9", dict(OP=0x0B, SDST=7, SSRC0=9), None),
    ("SOP1", "s_mov_b64 s[6:7], s[10:11]", dict(OP=0x04, SDST=6, SSRC0=10), None),
    ("SOP2", "s_add_u32 s5, s3, s7", dict(OP=0x00, SDST=5, SSRC0=3, SSRC1=7), None),
    ("SOP2", "s_and_b32 s5, s3, s7", dict(OP=0x0E, SDST=5, SSRC0=3, SSRC1=7), None),
    ("SOP2", "s_mul_i32 s9, s10, s11", dict(OP=0x26, SDST=9, SSRC0=10, SSRC1=11), None),
    ("SOPK", "s_movk_i32 s5, 0x1234", dict(OP=0x00, SDST=5, SIMM16=0x1234), None),
    ("SOPK", "s_addk_i32 s6, 0x4321", dict(OP=0x0F, SDST=6, SIMM16=0x4321), None),
    ("SOPC", "s_cmp_eq_u32 s3, s7", dict(OP=0x06, SSRC0=3, SSRC1=7), None),
    ("SOPC", "s_cmp_eq_i32 s3, s7", dict(OP=0x00, SSRC0=3, SSRC1=7), None),
    ("SOPC", "s_cmp_lg_u64 s[4:5], s[6:7]", dict(OP=0x13, SSRC0=4, SSRC1=6), None),
    ("SOPP", "s_nop 3", dict(OP=0x00, SIMM16=3), None),
    ("SOPP", "s_endpgm", dict(OP=0x01, SIMM16=0), None),
    ("SOPP", "s_branch 16", dict(OP=0x02, SIMM16=16), None),
    ("SMEM", "s_load_dword s5, s[4:5], 0x10", dict(OP=0x00, SDATA=5, SBASE=2, OFFSET=0x10, SOFFSET=NULL), None),
    ("SMEM", "s_load_dwordx2 s[6:7], s[4:5], s9 offset:0x100",
     dict(OP=0x01, SDATA=6, SBASE=2, OFFSET=0x100, SOFFSET=9), None),
    ("SMEM", "s_buffer_load_dword s5, s[8:11], 0x10 glc dlc",
     dict(OP=0x08, SDATA=5, SBASE=4, OFFSET=0x10, GLC=1, DLC=1), None),
    ("VOP1", "v_mov_b32 v5, v3", dict(OP=0x01, VDST=5, SRC0=V(3)), None),
    ("VOP1", "v_rcp_f32 v6, s3", dict(OP=0x2A, VDST=6, SRC0=3), None),
    ("VOP2", "v_add_f32 v5, s3, v7", dict(OP=0x03, VDST=5, SRC0=3, VSRC1=7), None),
    ("VOP2", "v_mul_f32 v5, 0x41200000, v7", dict(OP=0x08, VDST=5, SRC0=0xFF, VSRC1=7), None),
    ("VOP2", "v_cndmask_b32 v9, v4, v7, vcc_lo", dict(OP=0x01, VDST=9, SRC0=V(4), VSRC1=7), None),
    ("VOPC", "v_cmp_eq_f32 vcc_lo, v3, v7", dict(OP=0x02, SRC0=V(3), VSRC1=7), None),
    ("VOPC", "v_cmp_lt_i32 vcc_lo, s3, v7", dict(OP=0x81, SRC0=3, VSRC1=7), None),
    ("VOP3", "v_mad_u32_u24 v5, v1, s2, v3", dict(OP=0x143, VDST=5, SRC0=V(1), SRC1=2, SRC2=V(3)), None),
    ("VOP3", "v_fma_f32 v5, -|v1|, |s2|, -v3 clamp mul:4",
     dict(OP=0x14B, VDST=5, SRC0=V(1), SRC1=2, SRC2=V(3), ABS=0b011, NEG=0b101, OMOD=2, CLAMP=1), None),
    ("VOP3", "v_fma_f16 v5, v1, v2, v3 op_sel:[1,0,1,1]",
     dict(OP=0x34B, VDST=5, SRC0=V(1), SRC1=V(2), SRC2=V(3), OP_SEL=0b1101), None),
    ("VOP3", "v_add_f32_e64 v5, v1, s2", dict(OP=0x103, VDST=5, SRC0=V(1), SRC1=2), None),
    ("VOP3", "v_cmp_eq_f32_e64 s6, v1, s2", dict(OP=0x002, VDST=6, SRC0=V(1), SRC1=2), None),
    ("VOP3B", "v_add_co_u32 v5, s7, v1, v2", dict(OP=0x30F, VDST=5, SDST=7, SRC0=V(1), SRC1=V(2)), None),
    ("VOP3B", "v_div_scale_f32 v5, s9, v1, v2, v3",
     dict(OP=0x16D, VDST=5, SDST=9, SRC0=V(1), SRC1=V(2), SRC2=V(3)), None),
    ("VOP3B", "v_mad_u64_u32 v[5:6], s7, v1, s2, v[3:4] clamp",
     dict(OP=0x176, VDST=5, SDST=7, SRC0=V(1), SRC1=2, SRC2=V(3), CLAMP=1), None),
    ("VOP3P", "v_pk_fma_f16 v5, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,1] neg_lo:[1,0,0] neg_hi:[0,0,1] clamp",
     dict(OP=0x0E, VDST=5, SRC0=V(1), SRC1=V(2), SRC2=V(3), OP_SEL=0b101, OP_SEL_HI=0b110, NEG=0b001,
          NEG_HI=0b100, CLAMP=1), None),
    ("VOP3P", "v_pk_add_u16 v6, s4, v2", dict(OP=0x0A, VDST=6, SRC0=4, SRC1=V(2), OP_SEL_HI=0b111), None),
    ("VINTRP", "v_interp_p1_f32 v5, v3, attr3.z", dict(OP=0, VDST=5, VSRC=3, ATTR=3, ATTRCHAN=2), None),
    ("VINTRP", "v_interp_p2_f32 v6, v4, attr7.y", dict(OP=1, VDST=6, VSRC=4, ATTR=7, ATTRCHAN=1), None),
    ("VINTRP", "v_interp_mov_f32 v5, p10, attr9.w", dict(OP=2, VDST=5, VSRC=0, ATTR=9, ATTRCHAN=3), None),
    ("DS", "ds_write2_b32 v1, v2, v3 offset0:4 offset1:8 gds",
     dict(OP=0x0E, ADDR=1, DATA0=2, DATA1=3, OFFSET0=4, OFFSET1=8, GDS=1), None),
    ("DS", "ds_read_b32 v5, v1 offset:4660", dict(OP=0x36, VDST=5, ADDR=1, OFFSET0=0x34, OFFSET1=0x12), None),
    ("DS", "ds_add_u32 v1, v2", dict(OP=0x00, ADDR=1, DATA0=2, GDS=0), None),
    ("MUBUF", "buffer_load_dword v5, v1, s[8:11], s3 offen offset:4095 glc slc dlc",
     dict(OP=0x0C, VDATA=5, VADDR=1, SRSRC=2, SOFFSET=3, OFFEN=1, OFFSET=4095, GLC=1, SLC=1, DLC=1), None),
    ("MUBUF", "buffer_load_dword v[5:6], v1, s[12:15], s3 offen offset:12 tfe",
     dict(OP=0x0C, VDATA=5, VADDR=1, SRSRC=3, SOFFSET=3, OFFEN=1, IDXEN=0, OFFSET=12, TFE=1), None),
    ("MUBUF", "buffer_store_dword v5, v1, s[8:11], s3 idxen offset:7",
     dict(OP=0x1C, VDATA=5, VADDR=1, SRSRC=2, SOFFSET=3, OFFEN=0, IDXEN=1, OFFSET=7, TFE=0), None),
    ("MUBUF", "buffer_load_format_d16_x v5, v1, s[8:11], s4 offen offset:4",
     dict(OP=0x80, VDATA=5, VADDR=1, SRSRC=2, SOFFSET=4, OFFEN=1, OFFSET=4), None),
    ("MUBUF", "buffer_load_dword v2, s[8:11], s3 offen offset:4 lds",
     dict(OP=0x0C, VADDR=2, SRSRC=2, SOFFSET=3, OFFEN=1, LDS=1), None),
    ("MTBUF", "tbuffer_load_format_x v5, v1, s[8:11], s3 format:[BUF_FMT_32_FLOAT] offen offset:12",
     dict(OP=0x0, VDATA=5, VADDR=1, SRSRC=2, SOFFSET=3, FORMAT=22, OFFEN=1, OFFSET=12), None),
    ("MTBUF", "tbuffer_store_format_xyzw v[5:8], v1, s[8:11], s3 format:77 idxen offset:12 glc slc dlc",
     dict(OP=0x7, VDATA=5, VADDR=1, SRSRC=2, SOFFSET=3, FORMAT=77, IDXEN=1, GLC=1, SLC=1, DLC=1), None),
    ("MTBUF", "tbuffer_store_format_d16_xy v5, v1, s[8:11], s3 format:22 offen",
     dict(OP=0xD, VDATA=5, VADDR=1, SRSRC=2, SOFFSET=3, FORMAT=22, OFFEN=1), None),
    ("MIMG", "image_sample v[5:7], v[1:2], s[8:15], s[16:19] dmask:0x7 dim:SQ_RSRC_IMG_2D",
     dict(OP=0x20, VDATA=5, VADDR=1, SRSRC=2, SSAMP=4, DMASK=0x7, DIM=1, NSA=0), None),
    ("MIMG", "image_load v[5:8], v[1:2], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm glc slc dlc",
     dict(OP=0x00, VDATA=5, VADDR=1, SRSRC=3, DMASK=0xF, DIM=1, UNRM=1, GLC=1, SLC=1, DLC=1), None),
    ("MIMG", "image_load v[5:7], v[1:3], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_3D tfe lwe",
     dict(OP=0x00, VDATA=5, VADDR=1, SRSRC=2, DMASK=0x3, DIM=2, TFE=1, LWE=1), None),
    ("MIMG", "image_load v[5:6], v1, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D a16 d16",
     dict(OP=0x00, VDATA=5, VADDR=1, SRSRC=2, DMASK=0xF, DIM=1, A16=1, D16=1), None),
    ("MIMG", "image_store v[5:7], v[1:3], s[8:15] dmask:0x7 dim:SQ_RSRC_IMG_3D",
     dict(OP=0x08, VDATA=5, VADDR=1, SRSRC=2, DMASK=0x7, DIM=2), None),
    ("MIMG", "image_sample v[5:8], [v1, v9], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
     dict(OP=0x20, VDATA=5, VADDR=1, SRSRC=2, SSAMP=4, DMASK=0xF, DIM=1, NSA=1), None),
    ("MIMG", "image_msaa_load v[1:4], v[5:7], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA",
     dict(OP=0x80, VDATA=1, VADDR=5, SRSRC=2, DMASK=0xF, DIM=6), ("gfx1030",)),
    ("FLAT", "flat_load_dword v5, v[1:2] offset:12 glc slc dlc",
     dict(OP=0x0C, VDST=5, ADDR=1, OFFSET=12, SADDR=NULL, GLC=1, SLC=1, DLC=1, LDS=0), None),
    ("FLAT", "flat_store_dword v[1:2], v5 offset:12", dict(OP=0x1C, ADDR=1, DATA=5, OFFSET=12, SADDR=NULL), None),
    ("FLAT", "flat_atomic_add v6, v[1:2], v3 offset:4 glc", dict(OP=0x32, VDST=6, ADDR=1, DATA=3, GLC=1), None),
    ("GLOBAL", "global_load_dword v5, v[1:2], off offset:-12", dict(OP=0x0C, VDST=5, ADDR=1, OFFSET=0xFF4, SADDR=NULL), None),
    ("GLOBAL", "global_load_dword v5, v1, s[4:5] offset:12", dict(OP=0x0C, VDST=5, ADDR=1, OFFSET=12, SADDR=4), None),
    ("GLOBAL", "global_store_dword v1, v5, s[6:7] offset:-4", dict(OP=0x1C, ADDR=1, DATA=5, OFFSET=0xFFC, SADDR=6), None),
    ("GLOBAL", "global_load_dword v2, s[4:5] offset:12 lds", dict(OP=0x0C, ADDR=2, SADDR=4, LDS=1), None),
    ("SCRATCH", "scratch_load_dword v5, v1, off offset:2047 glc slc dlc",
     dict(OP=0x0C, VDST=5, ADDR=1, OFFSET=2047, SADDR=NULL, GLC=1, SLC=1, DLC=1), None),
    ("SCRATCH", "scratch_store_dword off, v5, s7 offset:12", dict(OP=0x1C, DATA=5, SADDR=7, OFFSET=12), None),
    ("EXP", "exp mrt0 v1, v2, v3, v4 done vm", dict(TARGET=0, EN=0xF, VSRC0=1, VSRC1=2, VSRC2=3, VSRC3=4, DONE=1, VM=1), None),
    ("EXP", "exp mrtz v5, v6, v7, off", dict(TARGET=8, EN=0x7, VSRC0=5, VSRC1=6, VSRC2=7, DONE=0, VM=0), None),
    ("EXP", "exp param5 v1, v2, v3, v4 done", dict(TARGET=37, EN=0xF, VSRC0=1, VSRC3=4, DONE=1), None),
    ("EXP", "exp pos0 v1, v2, off, off compr", dict(TARGET=12, EN=0x3, COMPR=1, VSRC0=1), None),
]

# One-bit flags, each set on its own so that two flags with swapped positions are told apart.
# (layout, assembly with {} for the flag, flag spellings; the field name is the upper-cased spelling;
# flags written in the template itself are expected set as well)
FLAG_CASES = [
    ("SMEM", "s_load_dword s5, s[4:5], 0x10 {}", ("glc", "dlc")),
    ("MUBUF", "buffer_load_dword v5, v1, s[8:11], s3 offen {}", ("glc", "slc", "dlc")),
    ("MTBUF", "tbuffer_load_format_x v5, v1, s[8:11], s3 format:22 offen {}", ("glc", "slc", "dlc")),
    ("MTBUF", "tbuffer_load_format_x v5, v1, s[8:11], s3 format:22 {}", ("idxen", "offen")),
    ("MIMG", "image_load v[5:8], v[1:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D {}", ("glc", "slc", "dlc", "unorm", "lwe")),
    ("MIMG", "image_load v[5:9], v[1:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D {}", ("tfe",)),
    ("MIMG", "image_load v[5:6], v[1:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D {}", ("d16",)),
    ("MIMG", "image_load v[5:8], v1, s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D {}", ("a16",)),
    ("FLAT", "flat_load_dword v5, v[1:2] {}", ("glc", "slc", "dlc")),
    ("GLOBAL", "global_load_dword v5, v[1:2], off {}", ("glc", "slc", "dlc")),
    ("SCRATCH", "scratch_load_dword v5, v1, off {}", ("glc", "slc", "dlc")),
]
_ALL_FLAGS = ("glc", "slc", "dlc", "idxen", "offen", "unorm", "lwe", "tfe", "d16", "a16", "lds", "r128")
for _layout, _asm, _flags in FLAG_CASES:
    _names = {f[0] for f in LAYOUTS[_layout][1]}
    for _flag in _flags:
        _expect = {("UNRM" if f == "unorm" else f.upper()): int(f == _flag or f in _asm.split())
                   for f in _ALL_FLAGS}
        CASES.append((_layout, _asm.format(_flag), {k: v for k, v in _expect.items() if k in _names}, None))

# Bits llvm-mc-22 will not assemble (no syntax for them) are set from the table and disassembled.
# (target, layout, base encoding, field, value, text expected in the disassembly)
FLIPS = [
    ("gfx1030", "MIMG", "image_load v[5:8], v[1:2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D", "R128", 1, "r128"),
    ("gfx1010", "MTBUF", "tbuffer_load_format_x v5, v1, s[8:11], s3 format:22 offen", "OP", 0x8,
     "tbuffer_load_format_d16_x"),
    ("gfx1030", "SMEM", "s_load_dword s5, s[4:5], 0x10", "SOFFSET", 9, "s9"),
]


# Bit sweep: every bit of one or more samples per layout is flipped and the result disassembled.
# A bit no field covers must leave the disassembly unchanged; a bit inside a field must change it
# (or make the word undecodable) in at least one sample.  This catches a range that is too narrow
# (its lost bit is not a don't-care) or too wide (its extra bit does nothing).
SWEEP = {
    "SOP1": ["s_brev_b32 s7, s9"],
    "SOP2": ["s_mul_i32 s9, s10, s11"],
    "SOPK": ["s_addk_i32 s6, 0x4321"],
    "SOPC": ["s_cmp_eq_u32 s3, s7"],
    "SOPP": ["s_branch 16"],
    "SMEM": ["s_load_dword s5, s[4:5], s9 offset:0x100"],
    "VOP1": ["v_mov_b32 v5, v3"],
    "VOP2": ["v_add_f32 v5, s3, v7"],
    "VOPC": ["v_cmp_lt_i32 vcc_lo, s3, v7"],
    "VOP3": ["v_fma_f16 v5, v1, v2, v3 op_sel:[1,0,1,1]"],
    "VOP3B": ["v_div_scale_f32 v5, s9, v1, v2, v3"],
    "VOP3P": ["v_pk_fma_f16 v5, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,1] neg_lo:[1,0,0] neg_hi:[0,0,1] clamp"],
    "VINTRP": ["v_interp_p1_f32 v5, v3, attr3.z"],
    "DS": ["ds_write2_b32 v1, v2, v3 offset0:4 offset1:8 gds", "ds_read_b32 v5, v1 offset:4660"],
    "MUBUF": ["buffer_load_dword v5, v1, s[8:11], s3 offen offset:4095 glc slc dlc"],
    "MTBUF": ["tbuffer_load_format_x v5, v1, s[8:11], s3 format:[BUF_FMT_32_FLOAT] offen offset:12"],
    "MIMG": ["image_sample v[5:7], v[1:2], s[8:15], s[16:19] dmask:0x7 dim:SQ_RSRC_IMG_2D"],
    "FLAT": ["flat_atomic_add v6, v[1:2], v3 offset:4 glc"],
    "GLOBAL": ["global_atomic_add v6, v1, v3, s[4:5] offset:4 glc"],
    "SCRATCH": ["scratch_load_dword v5, v1, off offset:12", "scratch_store_dword off, v5, s7 offset:12"],
    "EXP": ["exp mrt0 v1, v2, v3, v4 done vm"],
}
# Known llvm-mc-22 behaviour: it rejects FLAT-family words with bit 55 set (unused, must be zero) and
# ignores the low bit of GLOBAL's SADDR (always an aligned SGPR pair).
UNUSED_MUST_BE_ZERO = {("FLAT", 55), ("SCRATCH", 55), ("GLOBAL", 55)}
FIELD_BIT_IGNORED = {("GLOBAL", 48)}


def field(word, ranges):
    value = 0
    for hi, lo in ranges:
        value = (value << (hi - lo + 1)) | ((word >> lo) & ((1 << (hi - lo + 1)) - 1))
    return value


def set_field(word, ranges, value):
    for hi, lo in reversed(ranges):
        width = hi - lo + 1
        word = (word & ~(((1 << width) - 1) << lo)) | ((value & ((1 << width) - 1)) << lo)
        value >>= width
    return word


def _llvm_mc():
    path = shutil.which("llvm-mc-22")
    if path is None and os.path.exists("/usr/lib/llvm-22/bin/llvm-mc"):
        path = "/usr/lib/llvm-22/bin/llvm-mc"
    if path is None:
        reason = "llvm-mc-22 not found (neither llvm-mc-22 on PATH nor /usr/lib/llvm-22/bin/llvm-mc)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def _run(target, text, disassemble=False):
    cmd = [_llvm_mc(), "-arch=amdgcn", f"-mcpu={target}", "-show-encoding"] + (["-disassemble"] if disassemble else [])
    proc = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=60)
    assert "error" not in proc.stderr and "warning" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stdout.splitlines() if "encoding:" in ln]
    return [(ln.split(";")[0].strip(), bytes(int(b, 16) for b in re.search(r"encoding: \[(.*?)\]", ln)[1].split(",")))
            for ln in lines]


_CACHE = {}


def _encodings(target):
    if target not in _CACHE:
        lines = [asm for _, asm, _, tg in CASES if tg is None or target in tg]
        out = _run(target, "\n".join(lines) + "\n")
        assert len(out) == len(lines), (lines, out)
        _CACHE[target] = {asm: enc for asm, (_, enc) in zip(lines, out)}
    return _CACHE[target]


def _word(layout, enc):
    width = LAYOUTS[layout][0]
    assert len(enc) >= width // 8
    return int.from_bytes(enc[: width // 8], "little")


# ---------- structure of the table ----------

def test_required_layouts_and_targets():
    assert REQUIRED <= set(LAYOUTS)
    assert set(TARGETS) == set(GFX10_TARGETS)
    for names in TARGETS.values():
        assert set(names) <= set(LAYOUTS) and REQUIRED <= set(names)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_well_formed(name):
    width, fields = LAYOUTS[name]
    assert width in (32, 64)
    seen, names = set(), set()
    for fname, ranges, fixed in fields:
        assert fname.isupper() and fname not in names
        names.add(fname)
        nbits = 0
        for hi, lo in ranges:
            assert 0 <= lo <= hi < width
            bits = set(range(lo, hi + 1))
            assert not bits & seen, f"{name}.{fname} overlaps another field"
            seen |= bits
            nbits += hi - lo + 1
        if fixed is not None:
            assert 0 <= fixed < (1 << nbits)
    enc = [f for f in fields if f[0] == "ENCODING"]
    assert len(enc) == 1 and enc[0][2] is not None
    assert "OP" in names or name == "EXP"


def test_flat_segments():
    segs = {n: next(f[2] for f in LAYOUTS[n][1] if f[0] == "SEG") for n in ("FLAT", "SCRATCH", "GLOBAL")}
    assert segs == {"FLAT": 0, "SCRATCH": 1, "GLOBAL": 2}


# ---------- against llvm-mc-22 ----------

PARAMS = [pytest.param(t, c, id=f"{t}-{c[0]}-{c[1].split()[0]}-{i}")
          for t in GFX10_TARGETS for i, c in enumerate(CASES) if c[3] is None or t in c[3]]


@pytest.mark.parametrize("target,case", PARAMS)
def test_assembled_fields(target, case):
    layout, asm, expected, _ = case
    assert layout in TARGETS[target]
    word = _word(layout, _encodings(target)[asm])
    width, fields = LAYOUTS[layout]
    covered = 0
    for fname, ranges, fixed in fields:
        for hi, lo in ranges:
            covered |= ((1 << (hi - lo + 1)) - 1) << lo
        if fixed is not None:
            assert field(word, ranges) == fixed, f"{asm}: fixed field {fname}"
    for fname, want in expected.items():
        ranges = next(f[1] for f in fields if f[0] == fname)
        assert field(word, ranges) == want, f"{asm}: {fname} = {field(word, ranges):#x}, expected {want:#x}"
    assert word & ~covered & ((1 << width) - 1) == 0, f"{asm}: bits outside every field are set"


@pytest.mark.parametrize("target,layout,asm,fname,value,token", FLIPS)
def test_disassembled_fields(target, layout, asm, fname, value, token):
    [(_, enc)] = _run(target, asm + "\n")
    width, fields = LAYOUTS[layout]
    ranges = next(f[1] for f in fields if f[0] == fname)
    word = set_field(_word(layout, enc), ranges, value)
    text = ",".join(f"0x{b:02x}" for b in word.to_bytes(width // 8, "little") + enc[width // 8:])
    [(dis, _)] = _run(target, text + "\n", disassemble=True)
    assert token in dis.replace(",", " ").split(), dis


_SWEEP_CACHE = {}


def _disasm_one(target, data):
    proc = subprocess.run([_llvm_mc(), "-arch=amdgcn", f"-mcpu={target}", "-disassemble"],
                          input=",".join(f"0x{b:02x}" for b in data), capture_output=True, text=True, timeout=60)
    if "invalid instruction encoding" in proc.stderr:
        return None
    return " ".join(ln.strip() for ln in proc.stdout.splitlines() if ln.strip() and ".text" not in ln)


def _disasm_many(target, blobs):
    """Disassemble each blob on its own ([...] line); None for an undecodable one.

    One llvm-mc run for all blobs.  Printed instructions are matched back to the blobs by their
    encoded lengths; an undecodable blob is reported by input line and column (the column gives the
    length of the prefix that did decode).  If that accounting does not add up, fall back to one
    llvm-mc run per blob."""
    text = "".join("[" + ",".join(f"0x{b:02x}" for b in blob) + "]\n" for blob in blobs)
    proc = subprocess.run([_llvm_mc(), "-arch=amdgcn", f"-mcpu={target}", "-disassemble", "-show-encoding"],
                          input=text, capture_output=True, text=True, timeout=120)
    bad = {int(m[1]): (int(m[2]) - 2) // 5
           for m in re.finditer(r"<stdin>:(\d+):(\d+): warning: invalid instruction encoding", proc.stderr)}
    lines = [(ln.split(";")[0].strip(), len(re.search(r"encoding: \[(.*?)\]", ln)[1].split(",")))
             for ln in proc.stdout.splitlines() if "encoding:" in ln]
    results, k = [], 0
    for i, blob in enumerate(blobs, 1):
        want, got, parts = bad.get(i, len(blob)), 0, []
        while got < want and k < len(lines):
            parts.append(lines[k][0])
            got += lines[k][1]
            k += 1
        if got != want:
            break
        results.append(None if i in bad else " ".join(parts))
    if len(results) == len(blobs) and k == len(lines):
        return results
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda blob: _disasm_one(target, blob), blobs))


def _sweep(target, asm, width):
    """Disassembly of the encoding of asm and of each one-bit flip of its first width bits."""
    key = (target, asm, width)
    if key not in _SWEEP_CACHE:
        [(_, enc)] = _run(target, asm + "\n")
        word, tail = int.from_bytes(enc[: width // 8], "little"), enc[width // 8:]
        variants = [enc] + [(word ^ (1 << b)).to_bytes(width // 8, "little") + tail for b in range(width)]
        outs = _disasm_many(target, variants)
        assert outs[0] is not None, asm
        _SWEEP_CACHE[key] = outs
    return _SWEEP_CACHE[key]


@pytest.mark.parametrize("target", GFX10_TARGETS)
@pytest.mark.parametrize("layout", sorted(SWEEP))
def test_bit_sweep(target, layout):
    width, fields = LAYOUTS[layout]
    owner = {b: fname for fname, ranges, _ in fields for hi, lo in ranges for b in range(lo, hi + 1)}
    assert not {b for lay, b in UNUSED_MUST_BE_ZERO if lay == layout} & set(owner), "a must-be-zero bit is in a field"
    sweeps = [_sweep(target, asm, width) for asm in SWEEP[layout]]
    for b in range(width):
        changed = [outs[b + 1] != outs[0] for outs in sweeps]
        if b not in owner:
            if (layout, b) in UNUSED_MUST_BE_ZERO:
                assert all(outs[b + 1] is None for outs in sweeps), f"{layout} bit {b}"
            else:
                assert not any(changed), f"{layout} bit {b} is in no field but changes the instruction"
        elif (layout, b) not in FIELD_BIT_IGNORED:
            assert any(changed), f"{layout} bit {b} ({owner[b]}) has no effect on the instruction"
