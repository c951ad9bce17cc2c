"""``gpuisa decode --json`` through the C loop (``accel.py``): the objects ``listing_json.py`` writes (one per
instruction: offset, bytes, size, text, valid; section, error, label, target where they apply), read back from the
C loop's llvm-objdump lines, so a run from the data folder's cache or the committed base tables needs neither
numpy nor the batch decoder (the numpy path took 0.26 s CPU warm, 0.48 s first run, on an llc-22 kernel of
6,700 instructions).  Which lines are no instruction the resolver says (the scalar answers' validity); their
``error`` is the scalar decoder's (made only where there is one).  ``tests/test_codec_accel.py`` checks the bytes
are the numpy path's.
"""

from __future__ import annotations

import json
import re

_ADDR = re.compile(rb"// ([0-9A-F]{12}): ")
_COLUMN = 60  # (a line's text is padded to 59 columns after its tab: the address comment starts here or later)
_SOPP_BRANCH = ("s_branch ", "s_cbranch_")  # (as ``listing_step.branch_rows``)
_SOPK_BRANCH = "s_subvector_loop_"


def _target(data: bytes, rel: int, addr: int, text: str) -> int | None:
    """The branch target llvm-objdump prints for a PC-relative branch at ``rel`` (``listing_step.branch_rows``)."""
    if rel + 4 > len(data):
        return None
    w = int.from_bytes(data[rel:rel + 4], "little")
    if not ((w >> 23 == 0x17F and text.startswith(_SOPP_BRANCH)) or (w >> 28 == 0xB and text.startswith(_SOPK_BRANCH))):
        return None
    simm = w & 0xFFFF
    return addr + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)


def json_lines(listing: bytes, data: bytes, address: int, section: str | None, labels: dict, invalid: set,
               error) -> bytes:
    """The JSON Lines of one section's (or raw bytes') listing ``listing`` written by the C loop: ``data`` its bytes
    at ``address``; ``invalid``: the offsets of the lines that are no instruction, ``error(off)`` their error."""
    sec = "" if section is None else f', "section": {json.dumps(section)}'
    out = []
    for line in listing.split(b"\n"):
        if not line.startswith(b"\t"):
            continue  # (a symbol's header, a blank line)
        m = _ADDR.search(line, _COLUMN)
        if m is None:
            raise ValueError("accel_json: a line without its address")
        text = line[1:m.start()].decode().rstrip(" ")
        addr = int(m.group(1), 16)
        rel = addr - address
        words = line[m.end():].split(b" <", 1)[0].split()
        size = 4 * len(words) if len(words[0]) == 8 else len(words)
        extra = ""
        if rel in invalid:
            extra = f', "error": {json.dumps(error(rel))}'
        if rel in labels:
            extra += f', "label": {json.dumps(labels[rel])}'
        target = None if rel in invalid else _target(data, rel, addr, text)
        if target is not None:
            extra += f', "target": {target}'
        out.append(f'{{"offset": {addr}, "bytes": "{data[rel:rel + size].hex()}", "size": {size}, '
                   f'"text": "{json.dumps(text)[1:-1]}", "valid": {"false" if rel in invalid else "true"}{sec}{extra}}}\n')
    return "".join(out).encode()
