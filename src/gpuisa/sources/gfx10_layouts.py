"""Instruction-encoding bit layouts for AMD GFX10 (RDNA1 = gfx1010, RDNA2 = gfx1030).

A hand-written table of facts: for each encoding, its width in bits (not
counting a trailing 32-bit literal constant) and its fields, each a name, the
bit ranges it occupies and, for fixed bits, the value those bits must hold.
The facts are transcribed from AMD's RDNA1 and RDNA2 instruction-set
architecture reference guides and from LLVM's AMDGPU instruction encodings,
and are checked by tests/test_gfx10_layouts.py against llvm-mc-22.

Conventions:
  * Bit numbers count from bit 0 of the first (lowest-addressed) little-endian
    dword; bits 63:32 of a 64-bit encoding are the second dword.
  * A field split across several ranges lists them most-significant part
    first; its value is the concatenation of the parts in that order.
  * ENCODING holds the identifying bits and always has a fixed value.
  * Bits no field covers are unused (reserved, written as zero).
"""

# name -> (width_bits, [(FIELD_NAME, ((hi, lo), ...), fixed_value_or_None), ...])
LAYOUTS: dict[str, tuple[int, list[tuple[str, tuple[tuple[int, int], ...], int | None]]]] = {
    # ---- scalar ALU ----
    "SOP1": (32, [("ENCODING", ((31, 23),), 0b101111101), ("SDST", ((22, 16),), None),
                  ("OP", ((15, 8),), None), ("SSRC0", ((7, 0),), None)]),
    "SOP2": (32, [("ENCODING", ((31, 30),), 0b10), ("OP", ((29, 23),), None), ("SDST", ((22, 16),), None),
                  ("SSRC1", ((15, 8),), None), ("SSRC0", ((7, 0),), None)]),
    "SOPK": (32, [("ENCODING", ((31, 28),), 0b1011), ("OP", ((27, 23),), None), ("SDST", ((22, 16),), None),
                  ("SIMM16", ((15, 0),), None)]),
    "SOPC": (32, [("ENCODING", ((31, 23),), 0b101111110), ("OP", ((22, 16),), None),
                  ("SSRC1", ((15, 8),), None), ("SSRC0", ((7, 0),), None)]),
    "SOPP": (32, [("ENCODING", ((31, 23),), 0b101111111), ("OP", ((22, 16),), None),
                  ("SIMM16", ((15, 0),), None)]),
    # ---- scalar memory (unused: 13, 15, 17, 56:53; SOFFSET = 0x7d "null" when absent) ----
    "SMEM": (64, [("ENCODING", ((31, 26),), 0b111101), ("OP", ((25, 18),), None), ("GLC", ((16, 16),), None),
                  ("DLC", ((14, 14),), None), ("SDATA", ((12, 6),), None), ("SBASE", ((5, 0),), None),
                  ("SOFFSET", ((63, 57),), None), ("OFFSET", ((52, 32),), None)]),
    # ---- vector ALU ----
    "VOP1": (32, [("ENCODING", ((31, 25),), 0b0111111), ("VDST", ((24, 17),), None),
                  ("OP", ((16, 9),), None), ("SRC0", ((8, 0),), None)]),
    "VOP2": (32, [("ENCODING", ((31, 31),), 0b0), ("OP", ((30, 25),), None), ("VDST", ((24, 17),), None),
                  ("VSRC1", ((16, 9),), None), ("SRC0", ((8, 0),), None)]),
    "VOPC": (32, [("ENCODING", ((31, 25),), 0b0111110), ("OP", ((24, 17),), None),
                  ("VSRC1", ((16, 9),), None), ("SRC0", ((8, 0),), None)]),
    "VOP3": (64, [("ENCODING", ((31, 26),), 0b110101), ("OP", ((25, 16),), None), ("CLAMP", ((15, 15),), None),
                  ("OP_SEL", ((14, 11),), None), ("ABS", ((10, 8),), None), ("VDST", ((7, 0),), None),
                  ("NEG", ((63, 61),), None), ("OMOD", ((60, 59),), None), ("SRC2", ((58, 50),), None),
                  ("SRC1", ((49, 41),), None), ("SRC0", ((40, 32),), None)]),
    "VOP3B": (64, [("ENCODING", ((31, 26),), 0b110101), ("OP", ((25, 16),), None), ("CLAMP", ((15, 15),), None),
                   ("SDST", ((14, 8),), None), ("VDST", ((7, 0),), None),
                   ("NEG", ((63, 61),), None), ("OMOD", ((60, 59),), None), ("SRC2", ((58, 50),), None),
                   ("SRC1", ((49, 41),), None), ("SRC0", ((40, 32),), None)]),
    "VOP3P": (64, [("ENCODING", ((31, 23),), 0b110011000), ("OP", ((22, 16),), None),
                   ("CLAMP", ((15, 15),), None), ("OP_SEL_HI", ((14, 14), (60, 59)), None),
                   ("OP_SEL", ((13, 11),), None), ("NEG_HI", ((10, 8),), None), ("VDST", ((7, 0),), None),
                   ("NEG", ((63, 61),), None), ("SRC2", ((58, 50),), None),
                   ("SRC1", ((49, 41),), None), ("SRC0", ((40, 32),), None)]),
    "VINTRP": (32, [("ENCODING", ((31, 26),), 0b110010), ("VDST", ((25, 18),), None), ("OP", ((17, 16),), None),
                    ("ATTR", ((15, 10),), None), ("ATTRCHAN", ((9, 8),), None), ("VSRC", ((7, 0),), None)]),
    # ---- local data share (unused: 16) ----
    "DS": (64, [("ENCODING", ((31, 26),), 0b110110), ("OP", ((25, 18),), None), ("GDS", ((17, 17),), None),
                ("OFFSET1", ((15, 8),), None), ("OFFSET0", ((7, 0),), None),
                ("VDST", ((63, 56),), None), ("DATA1", ((55, 48),), None), ("DATA0", ((47, 40),), None),
                ("ADDR", ((39, 32),), None)]),
    # ---- vector memory: buffers (MUBUF unused: 17, 53; OP bit 7 is bit 25) ----
    "MUBUF": (64, [("ENCODING", ((31, 26),), 0b111000), ("OP", ((25, 18),), None), ("LDS", ((16, 16),), None),
                   ("DLC", ((15, 15),), None), ("GLC", ((14, 14),), None), ("IDXEN", ((13, 13),), None),
                   ("OFFEN", ((12, 12),), None), ("OFFSET", ((11, 0),), None),
                   ("SOFFSET", ((63, 56),), None), ("TFE", ((55, 55),), None), ("SLC", ((54, 54),), None),
                   ("SRSRC", ((52, 48),), None), ("VDATA", ((47, 40),), None), ("VADDR", ((39, 32),), None)]),
    "MTBUF": (64, [("ENCODING", ((31, 26),), 0b111010), ("FORMAT", ((25, 19),), None),
                   ("OP", ((53, 53), (18, 16)), None),
                   ("DLC", ((15, 15),), None), ("GLC", ((14, 14),), None), ("IDXEN", ((13, 13),), None),
                   ("OFFEN", ((12, 12),), None), ("OFFSET", ((11, 0),), None),
                   ("SOFFSET", ((63, 56),), None), ("TFE", ((55, 55),), None), ("SLC", ((54, 54),), None),
                   ("SRSRC", ((52, 48),), None), ("VDATA", ((47, 40),), None), ("VADDR", ((39, 32),), None)]),
    # ---- vector memory: images (base form; NSA != 0 appends dwords of extra VGPR addresses) ----
    # unused: 6, 14, 61:58; the opcode's bit 7 sits at bit 0.
    "MIMG": (64, [("ENCODING", ((31, 26),), 0b111100), ("SLC", ((25, 25),), None),
                  ("OP", ((0, 0), (24, 18)), None), ("LWE", ((17, 17),), None), ("TFE", ((16, 16),), None),
                  ("R128", ((15, 15),), None), ("GLC", ((13, 13),), None), ("UNRM", ((12, 12),), None),
                  ("DMASK", ((11, 8),), None), ("DLC", ((7, 7),), None), ("DIM", ((5, 3),), None),
                  ("NSA", ((2, 1),), None),
                  ("D16", ((63, 63),), None), ("A16", ((62, 62),), None), ("SSAMP", ((57, 53),), None),
                  ("SRSRC", ((52, 48),), None), ("VDATA", ((47, 40),), None), ("VADDR", ((39, 32),), None)]),
    # ---- vector memory: flat / scratch / global (one format, told apart by SEG; unused: 25, 55) ----
    "FLAT": (64, [("ENCODING", ((31, 26),), 0b110111), ("OP", ((24, 18),), None), ("SLC", ((17, 17),), None),
                  ("GLC", ((16, 16),), None), ("SEG", ((15, 14),), 0), ("LDS", ((13, 13),), None),
                  ("DLC", ((12, 12),), None), ("OFFSET", ((11, 0),), None),
                  ("VDST", ((63, 56),), None), ("SADDR", ((54, 48),), None), ("DATA", ((47, 40),), None),
                  ("ADDR", ((39, 32),), None)]),
    "SCRATCH": (64, [("ENCODING", ((31, 26),), 0b110111), ("OP", ((24, 18),), None), ("SLC", ((17, 17),), None),
                     ("GLC", ((16, 16),), None), ("SEG", ((15, 14),), 1), ("LDS", ((13, 13),), None),
                     ("DLC", ((12, 12),), None), ("OFFSET", ((11, 0),), None),
                     ("VDST", ((63, 56),), None), ("SADDR", ((54, 48),), None), ("DATA", ((47, 40),), None),
                     ("ADDR", ((39, 32),), None)]),
    "GLOBAL": (64, [("ENCODING", ((31, 26),), 0b110111), ("OP", ((24, 18),), None), ("SLC", ((17, 17),), None),
                    ("GLC", ((16, 16),), None), ("SEG", ((15, 14),), 2), ("LDS", ((13, 13),), None),
                    ("DLC", ((12, 12),), None), ("OFFSET", ((11, 0),), None),
                    ("VDST", ((63, 56),), None), ("SADDR", ((54, 48),), None), ("DATA", ((47, 40),), None),
                    ("ADDR", ((39, 32),), None)]),
    # ---- export (unused: 25:13) ----
    "EXP": (64, [("ENCODING", ((31, 26),), 0b111110), ("VM", ((12, 12),), None), ("DONE", ((11, 11),), None),
                 ("COMPR", ((10, 10),), None), ("TARGET", ((9, 4),), None), ("EN", ((3, 0),), None),
                 ("VSRC3", ((63, 56),), None), ("VSRC2", ((55, 48),), None), ("VSRC1", ((47, 40),), None),
                 ("VSRC0", ((39, 32),), None)]),
}

# The encoding formats are identical on gfx1010 (RDNA1) and gfx1030 (RDNA2); only
# the opcode tables differ (e.g. gfx1030 adds MIMG opcodes of 0x80 and up, which
# set the MIMG opcode's high bit at bit 0).
TARGETS = {
    "gfx1010": ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3B", "VOP3P",
                "VINTRP", "DS", "MUBUF", "MTBUF", "MIMG", "FLAT", "SCRATCH", "GLOBAL", "EXP"],
    "gfx1030": ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3B", "VOP3P",
                "VINTRP", "DS", "MUBUF", "MTBUF", "MIMG", "FLAT", "SCRATCH", "GLOBAL", "EXP"],
}
