"""The text form of batch decoding: ``Decoder.decode_text`` -- the listing as one string, one line per
instruction (``llvm-mc -disassemble`` prints the same lines, each after a tab) -- without an object per
instruction.

It runs the stream walk of ``batch.py`` (classify, walk, scalar path where the batch path cannot vouch
for an instruction, redo from a failed start), but renders no text per word: per step, each instruction's
template id and the pool indices of its cut operands' texts are looked up (a column of operands at a time,
each a contiguous numpy array), and the step's lines are made by one ``%``: the line templates of its
instructions joined, with all their operand texts.  The ``%`` works on UTF-8 bytes (the joined format is
encoded, operand texts have byte copies made when first used), and each step's result is decoded once: CPython's
``%`` on bytes copies a format's literal runs whole (``memchr``), on str it reads them a character at a
time, which was a quarter of the work.  (Measured on 200,000 instructions, by wall time and by
instructions executed under ``valgrind --tool=callgrind``: one ``%`` per step beat a ``%`` per word,
joining literal pieces and operand texts, de-duplicating words first, and gathering the texts' bytes
with numpy.)  Every text is the scalar decoder's, as in ``batch.py``; bytes that are no instruction
print as the directive that makes them (``invalid_line``).
"""

from __future__ import annotations

import numpy as np

from .batch import _sizes, _steps, _walk, template_ids
from .batch_arch import ArchBatch

_U64 = np.uint64
_ONE = np.uint64(1)


def decode_text(dec, data: bytes) -> str:
    """Per instruction its text and a newline, as ``decode_at`` at each start would give; bytes that are no
    instruction as ``invalid_line``."""
    out: list = []

    def emit(pos, view, starts, lines, sizes, eids, scalar):
        out.append(lines.decode())

    off = _steps(dec, data, emit, text=True)
    while off < len(data):
        d = dec.decode_at(data, off)
        out.append((d.text if d.valid else invalid_line(d.data)) + "\n")
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return "".join(out)


def invalid_line(data: bytes) -> str:
    """The line of bytes that are not an instruction: ``.long 0x...`` (a dword), or ``.byte 0x.., ...`` (a
    tail shorter than a dword), so that the listing assembles back to the same bytes."""
    if len(data) == 4:
        return ".long 0x%08x" % int.from_bytes(data, "little")
    return ".byte " + ", ".join("0x%02x" % b for b in data)


def bulk_lines(ab: ArchBatch, data: bytes, dws, dec, stop: int | None):
    """As ``batch._bulk``, with the lines of the instructions (one string) in place of their texts."""
    n4 = len(dws)
    e, size = _sizes(ab, dws)
    tried = np.zeros(n4, dtype=bool)
    scalar: dict[int, tuple] = {}  # start -> (text, size, valid, Decoded) from the scalar path
    done, i = np.empty(0, dtype=np.int64), 0  # final starts before the walk's restart point
    looked = None  # (the one lookup's result where the walk was not redone)
    while True:
        seg, i, tail = _walk(dec, data, size, i, scalar, stop)
        batch = seg[size.take(seg) > 0]
        new = batch[~tried.take(batch)]
        tried[new] = True
        got = _lookup(ab, data, dws, new, e)
        ok = got[3]
        if ok.all():
            if looked is None:
                looked = got
            done = np.concatenate([done, seg]) if len(done) else seg
            break
        looked = False
        failed = new[~ok]  # the scalar path decides there, and the walk goes on from the first of them
        first = int(failed.min())
        size[failed] = 0
        done = np.concatenate([done, seg[seg < first]])
        i = first
    sizes = size.take(done) * 4
    eids = np.where(sizes > 0, e.take(done), 0)
    by_scalar = np.flatnonzero(sizes == 0)
    res = [scalar[p] for p in done[by_scalar].tolist()]
    if res:
        sizes[by_scalar] = [r[1] for r in res]
    if looked is False:  # (a redone walk: the final instructions looked up again, all known by now)
        looked = _lookup(ab, data, dws, done[eids > 0] if res else done, e)
    tid, flat, k, _ = looked
    lines = _lines(ab, tid, flat, k, by_scalar, res, len(done))
    return done, lines, sizes, 4 * i if tail is None else tail, eids, scalar


def _texts_ok(ab: ArchBatch, ix):
    """Whether the pool has a text at each index ``ix``, texts not made yet made first (the scalar operand
    printer makes them)."""
    ok = ab.pool_ok.take(ix)
    if not ok.all():
        bad = np.flatnonzero(~ok)
        unknown = ix.take(bad)
        unknown = unknown[~ab.pool_known.take(unknown)]
        if len(unknown):
            ab.fill(unknown)
            ok[bad] = ab.pool_ok.take(ix.take(bad))
    return ok


def _lookup(ab: ArchBatch, data: bytes, dws, pos, eids):
    """Template id, operand-text pool indices (all the lines' placeholders in line order), placeholders per
    line and whether the batch path prints it, for the instructions at dword positions ``pos``."""
    dw, wm, w3m, rlo, rhi, s_sh, s_mk, s_3, s_base, k, slot3, any3 = ab.np_rows()
    cols = ab.s_cols  # (per column and entry: pool base, third dword, width, shift; packed)
    n4 = len(dws)
    ue = eids.take(pos)
    uw = (dws.take(pos).astype(_U64) | (dws.take(np.minimum(pos + 1, n4 - 1)).astype(_U64) << _U64(32))) & wm.take(ue)
    uw3 = dws.take(np.minimum(pos + 2, n4 - 1)) & w3m.take(ue) if any3 else np.zeros(len(pos), np.uint32)
    w3 = uw3.astype(_U64) if slot3 else None
    n = len(pos)
    cnt = ab.s_count.take(ue)  # cut operands per instruction: a column is worked out only where some row has it
    vals = []
    ok = np.ones(n, dtype=bool)
    for j in range(k):
        rows = np.flatnonzero(cnt > j) if j else None  # (None: every row)
        if rows is not None and 2 * len(rows) > n:
            rows = None
        e, w = (ue, uw) if rows is None else (ue.take(rows), uw.take(rows))
        pk = cols[j].take(e)
        if slot3:
            w = np.where(pk & 0x8000 != 0, w3 if rows is None else w3.take(rows), w)
        v = ((w >> (pk & 63)) & ((_ONE << ((pk >> 8) & 63)) - _ONE)).view(np.int64)
        okj = _texts_ok(ab, (pk >> 16).view(np.int64) + v)
        if rows is None:
            ok &= okj
        else:
            ok[rows] &= okj
        vals.append((rows, v))
    tid = template_ids(ab, data, pos, ue, uw, uw3, ok)
    ok &= tid > 0
    tb = ab.tpl_base_cols(k)
    kk = ab.line_formats()[1].take(tid)  # placeholders per line (template 0: none)
    ends = np.cumsum(kk)
    at = ends - kk
    flat = np.zeros(int(ends[-1]) if n else 0, dtype=np.int64)  # (0: the empty text)
    for j, (rows, v) in enumerate(vals):  # the texts: sources and immediates were filled above, register tables are whole
        t = tid if rows is None else tid.take(rows)
        ix = tb[j].take(t) + v
        okj = ab.pool_ok.take(ix)
        if rows is None:
            ok &= okj
            put = kk > j  # the lines that print column j
            if put.all():
                flat[at + j] = ix
                continue
            rows = np.arange(n)
        else:
            ok[rows] &= okj
            put = kk.take(rows) > j
        if put.all():
            flat[at.take(rows) + j] = ix
        elif put.any():
            flat[at.take(rows[put]) + j] = ix[put]
    return tid, flat, kk, ok


def _lines(ab: ArchBatch, tid, flat, k, by_scalar, scalar: list, n: int) -> bytes:
    """The lines of a step's ``n`` instructions (UTF-8): their line templates joined, ``%`` all their operand
    texts; ``tid``, ``flat`` (operand-text pool indices in line order) and ``k`` (placeholders per line) are
    those of the batch path's instructions, ``by_scalar`` the places of the others, ``scalar`` their results
    (their lines go into the format as they are)."""
    fmts = ab.line_formats()[0]
    if len(by_scalar):
        every = np.zeros(n, dtype=np.int64)
        mine = np.ones(n, dtype=bool)
        mine[by_scalar] = False
        every[mine] = tid
        lines = fmts.take(every, mode="clip").tolist()
        for at, (t, _, valid, d) in zip(by_scalar.tolist(), scalar):
            lines[at] = (t if valid else invalid_line(d.data)).replace("%", "%%") + "\n"
    else:
        lines = fmts.take(tid, mode="clip").tolist()
    # (the format joined as str, then encoded: ``bytes.join`` keeps a buffer record per item)
    return "".join(lines).encode() % tuple(ab.texts_bytes(flat).tolist())
