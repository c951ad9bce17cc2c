"""The text form of batch decoding: ``Decoder.decode_text`` -- the listing as one string, one line per
instruction (``llvm-mc -disassemble`` prints the same lines, each after a tab) -- without an object per
instruction.

It runs the stream walk of ``batch.py`` (classify, walk, scalar path where the batch path cannot vouch
for an instruction, redo from a failed start; each distinct word rendered once, ``batch_render.py``) and
joins the lines once, at the end.  Every text is the scalar decoder's, as in ``batch.py``; bytes that are
no instruction print as the directive that makes them (``invalid_line``).
"""

from __future__ import annotations

import numpy as np

from .batch import walk_steps
from .batch_render import invalid_line

__all__ = ["decode_text", "invalid_line"]


def decode_text(dec, data: bytes) -> str:
    """Per instruction its text and a newline, as ``decode_at`` at each start would give; bytes that are no
    instruction as ``invalid_line``."""
    tixs: list = []
    table: list = []

    def emit(pos, view, starts, tix, sizes, eids, scalar, seen):
        bad = np.flatnonzero(eids == 0)  # (the scalar path's: bytes that are no instruction)
        if len(bad):
            bad = bad[seen.texts.take(tix.take(bad)) == None]  # noqa: E711 (elementwise)
            if len(bad):
                tix[bad] = seen.add_texts([invalid_line(scalar[s][3].data) for s in starts.take(bad).tolist()])
        tixs.append(tix)
        table[:] = [seen]

    off = walk_steps(dec, data, emit)
    # the texts of all steps' instructions gathered at the end, a step's at a time (one gather of all takes
    # 2.4 MB more fresh memory: measured, more page faults than it saves work)
    out: list = []
    for tix in tixs:
        out += table[0].texts.take(tix).tolist()
    while off < len(data):
        d = dec.decode_at(data, off)
        out.append(d.text if d.valid else invalid_line(d.data))
        off += len(d.data) if d.valid else min(4, len(data) - off)
    if out:
        out.append("")
    return "\n".join(out)
