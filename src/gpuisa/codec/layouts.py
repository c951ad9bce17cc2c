"""Encodings an architecture's store facts lack but llvm-mc-22 decodes (codec-side layout facts).

    python -m gpuisa.regen.layouts [arch ...]   # writes codec/data/layouts_<arch>.json (``regen/layouts.py``)

AMD's CDNA1 (MI100) ISA guide leaves out the graphics formats, yet gfx908 is a GFX9 design and
llvm-mc-22 decodes its export (EXP), parameter-interpolation (VINTRP) and image (MIMG) words.  The
bit layouts below are the GFX9 formats as AMD's Vega ISA guide lays them out (field names, bit
ranges, the fixed ENCODING value); they are facts, checked against llvm-mc by
``tests/test_codec_cdna_layouts.py``.  Which opcode values exist and how LLVM spells them is
learned by probing llvm-mc-22 (one word per opcode value, the mnemonic read back), written to
``codec/data/layouts_<arch>.json`` and merged into the codec tables by ``tables.load_arch_tables``;
after regenerating, rerun ``python -m gpuisa.regen --steps plans,named --arch <arch>``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from ..model import Encoding, Field, Provenance

DATA_DIR = Path(__file__).parent / "data"
COMMAND = "python -m gpuisa.regen.layouts"

# name -> (width, opcode field, [(field, hi, lo, fixed value or None)]), GFX9 formats
GFX9_GRAPHICS: dict[str, tuple[int, str | None, list[tuple[str, int, int, int | None]]]] = {
    "EXP": (64, None, [("ENCODING", 31, 26, 0b110001), ("VM", 12, 12, None), ("DONE", 11, 11, None),
                       ("COMPR", 10, 10, None), ("TARGET", 9, 4, None), ("EN", 3, 0, None),
                       ("VSRC3", 63, 56, None), ("VSRC2", 55, 48, None), ("VSRC1", 47, 40, None),
                       ("VSRC0", 39, 32, None)]),
    "VINTRP": (32, "OP", [("ENCODING", 31, 26, 0b110101), ("VDST", 25, 18, None), ("OP", 17, 16, None),
                          ("ATTR", 15, 10, None), ("ATTRCHAN", 9, 8, None), ("VSRC", 7, 0, None)]),
    "MIMG": (64, "OP", [("ENCODING", 31, 26, 0b111100), ("SLC", 25, 25, None), ("OP", 24, 18, None),
                        ("LWE", 17, 17, None), ("TFE", 16, 16, None), ("A16", 15, 15, None), ("DA", 14, 14, None),
                        ("GLC", 13, 13, None), ("UNRM", 12, 12, None), ("DMASK", 11, 8, None),
                        ("D16", 63, 63, None), ("SSAMP", 57, 53, None), ("SRSRC", 52, 48, None),
                        ("VDATA", 47, 40, None), ("VADDR", 39, 32, None)]),
}
# architecture -> the encodings of GFX9_GRAPHICS to add (only opcodes llvm-mc-22 decodes are kept)
EXTRA = {"cdna1": ["EXP", "VINTRP", "MIMG"], "cdna2": ["MIMG"]}
# (architecture, encoding) -> field changes from GFX9_GRAPHICS: gfx90a's image words (the CDNA2 guide lists
# none; llvm-mc-22 decodes them) have the AGPR bit of VDATA where GFX9 has TFE and an SCC bit at 7 (probed
# one bit at a time with llvm-mc-22 on gfx90a; gfx942 decodes no image words)
VARIANTS = {("cdna2", "MIMG"): {"TFE": ("ACC", 16, 16, None), "+SCC": ("SCC", 7, 7, None)}}
# The matrix (MFMA) form of VOP3P: the CDNA1/CDNA2 ISA guides list the v_mfma_* opcodes under VOP3P but
# their words carry CBSZ/ABID/BLGP, the AGPR bits of SRC0/SRC1 (ACC) and of SRC2/VDST (ACC_CD; gfx908
# ignores it, its C/D are always AGPRs), the VOP3P_MFMA layout of the CDNA3 guide.  Same fixed bits and
# opcode field as VOP3P: the entries named below move from VOP3P into it.
MFMA_LAYOUT = [("BLGP", 63, 61, None), ("ACC", 60, 59, None), ("SRC2", 58, 50, None), ("SRC1", 49, 41, None),
               ("SRC0", 40, 32, None), ("ENCODING", 31, 23, 0b110100111), ("OP", 22, 16, None),
               ("ACC_CD", 15, 15, None), ("ABID", 14, 11, None), ("CBSZ", 10, 8, None), ("VDST", 7, 0, None)]
# architecture -> (new encoding, its fields, the store encoding its entries come from, their name prefix)
SPLITS = {arch: [("VOP3P_MFMA", MFMA_LAYOUT, "VOP3P", "v_mfma_")] for arch in ("cdna1", "cdna2", "cdna3")}
# architecture -> encoding -> field -> (hi, lo): store layouts LLVM reads differently.  GFX9 FLAT's
# offset is 13 bits unsigned to llvm-mc-22 (bit 12 prints as +4096), not the 12 the store gives
# (gfx950 as gfx942).
FIELD_OVERRIDES = {arch: {"FLAT": {"OFFSET": (12, 0)}} for arch in ("cdna1", "cdna2", "cdna3", "cdna4")}
_PROVENANCE = Provenance("GFX9 format layout (AMD Vega ISA guide), opcodes probed from llvm-mc-22",
                         note=f"codec-side layout fact: {COMMAND}", inferred=True)
_MFMA_PROVENANCE = Provenance("VOP3P_MFMA layout (AMD CDNA3 ISA guide), checked against llvm-mc-22 on gfx908/gfx90a",
                              note="codec-side layout fact: gpuisa.codec.layouts.SPLITS", inferred=True)


def layout_of(arch_name: str, name: str) -> tuple[int, str | None, list]:
    """GFX9_GRAPHICS[name] with the architecture's VARIANTS applied."""
    width, op, fields = GFX9_GRAPHICS[name]
    change = VARIANTS.get((arch_name, name), {})
    fields = [change.get(f[0], f) for f in fields] + [v for k, v in change.items() if k.startswith("+")]
    return width, op, fields


def encoding_of(name: str, doc: dict | None = None, arch_name: str = "") -> Encoding:
    width, op, fields = layout_of(arch_name, name) if doc is None else (doc["width"], doc["op_field"], doc["fields"])
    return Encoding(name, width, tuple(Field(n, ((hi, lo),), v) for n, hi, lo, v in fields), op, _PROVENANCE)


def with_overrides(arch_name: str, enc: Encoding) -> Encoding:
    """``enc`` with the field ranges of ``FIELD_OVERRIDES`` applied (itself when none apply)."""
    over = FIELD_OVERRIDES.get(arch_name, {}).get(enc.name)
    if not over:
        return enc
    fields = tuple(Field(f.name, (over[f.name],), f.value) if f.name in over else f for f in enc.fields)
    return Encoding(enc.name, enc.width, fields, enc.op_field, enc.provenance)


def apply_splits(arch_name: str, encs: dict[str, Encoding], entries: list) -> None:
    """Move the entries ``SPLITS`` names into their own encoding (added to ``encs`` if the store lacks it)."""
    for name, fields, source, prefix in SPLITS.get(arch_name, []):
        if name not in encs:
            encs[name] = Encoding(name, 64, tuple(Field(n, ((hi, lo),), v) for n, hi, lo, v in fields), "OP",
                                  _MFMA_PROVENANCE)
        enc = encs[name]
        for i, e in enumerate(entries):
            if e.encoding == source and e.name.startswith(prefix):
                entries[i] = dataclasses.replace(e, encoding=name, identifier=enc.identifier(e.opcode))


def load_layouts(arch_name: str) -> dict:
    """The generated extra encodings and entries of ``arch_name`` ({} when it has none)."""
    path = DATA_DIR / f"layouts_{arch_name}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text())
