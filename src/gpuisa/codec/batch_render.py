"""Rendering for the batch decoder (``batch.py``): the texts of many instructions at once, from the tables
of ``batch_arch.ArchBatch``, without an object per instruction.

Per instruction: its template id (``template_ids``: the entry and the rest of the word key the template; an
unknown key gets one made by a scalar render) and the pool indices of its cut operands' texts (``lookup``:
a column of operands at a time, each a contiguous numpy array, the indices written in line order).  The
lines are made by one ``%`` (``format_lines``): the line templates of the instructions joined, with all
their operand texts.  The ``%`` works on UTF-8 bytes (the joined format is encoded, the pool keeps operand
texts as bytes), and the result is decoded once: CPython's ``%`` on bytes copies a
format's literal runs whole (``memchr``), on str it reads them a character at a time, which was a quarter
of the work.  (Measured on 200,000 instructions, by wall time and by instructions executed under
``valgrind --tool=callgrind``: one ``%`` beat a ``%`` per word, joining literal pieces and operand texts,
and gathering the texts' bytes with numpy.)  Every text is the scalar decoder's: the templates and operand
texts are its output, reused.
"""

from __future__ import annotations

import numpy as np

from .batch_arch import M1 as _M1
from .batch_arch import M2 as _M2
from .batch_arch import M3 as _M3
from .batch_arch import ArchBatch
from .decoded import invalid_line  # noqa: F401 (the listing's and the text form's, from here)

_U64 = np.uint64
_ONE = np.uint64(1)


def render_words(ab: ArchBatch, data: bytes, pos, ue, uw, uw3):
    """Texts (a list; None where the batch path cannot vouch for one) of the instructions at dword positions
    ``pos`` (entries ``ue``, words ``uw`` and third dwords ``uw3``, masked to their widths), and where they
    could be made."""
    tid, flat, k, ok = lookup(ab, data, pos, ue, uw, uw3)
    every = bool(ok.all())
    if not every:  # (their lines are left out)
        flat = flat[np.repeat(ok, k)]
        k = np.where(ok, k, 0)
        tid = np.where(ok, tid, 0)
    lines: list[str | None] = list(format_lines(ab, tid, flat, k).decode().split("\n"))
    lines.pop()
    if not every:
        for j in np.flatnonzero(~ok).tolist():
            lines[j] = None
    return lines, ok


def texts_ok(ab: ArchBatch, ix):
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


def lookup(ab: ArchBatch, data: bytes, pos, ue, uw, uw3):
    """Template id, operand-text pool indices (all the lines' placeholders in line order), placeholders per
    line and whether the batch path prints it, for the instructions at dword positions ``pos`` (as in
    ``render_words``)."""
    dw, wm, w3m, rlo, rhi, s_sh, s_mk, s_3, s_base, k, slot3, any3 = ab.np_rows()
    cols = ab.s_cols  # (per column and entry: pool base, third dword, width, shift; packed)
    if uw3 is None:
        uw3 = np.zeros(len(pos), np.uint32)
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
        if w3 is not None:  # (slot3)
            w = np.where(pk & 0x8000 != 0, w3 if rows is None else w3.take(rows), w)
        v = ((w >> (pk & 63)) & ((_ONE << ((pk >> 8) & 63)) - _ONE)).view(np.int64)
        okj = texts_ok(ab, (pk >> 16).view(np.int64) + v)
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


def format_lines(ab: ArchBatch, tid, flat, k) -> bytes:
    """The lines (UTF-8, each with a newline) of instructions of templates ``tid``: ``flat`` holds their
    operand-text pool indices in line order, ``k`` their numbers of placeholders."""
    lines = ab.line_formats()[0].take(tid, mode="clip").tolist()
    # (the format joined as str, then encoded: ``bytes.join`` keeps a buffer record per item)
    return "".join(lines).encode() % tuple(ab.texts_bytes(flat).tolist())


def template_ids(ab: ArchBatch, data: bytes, upos, ue, uw, uw3, ok):
    """Template id (0: none) of each word ``uw`` (third dwords ``uw3``) of entries ``ue`` at dword positions
    ``upos`` where ``ok``, keyed by the entry and the rest of the word."""
    dw, wm, w3m, rlo, rhi = ab.np_rows()[:5]
    tid = np.zeros(len(uw), dtype=np.int64)
    every = bool(ok.all())
    cand = None if every else np.flatnonzero(ok)
    if cand is not None and not len(cand):
        return tid
    key = uw & rlo.take(ue)
    key3 = uw3 & rhi.take(ue)
    ce, ck, ck3 = (ue, key, key3) if every else (ue[cand], key[cand], key3[cand])
    at = ab.find_templates(ce, ck, ck3)
    miss = np.flatnonzero(at < 0)
    if len(miss):  # not known: one scalar render each (per distinct key)
        if cand is None:
            cand = np.arange(len(uw))
        kh = ck[miss] * _M1 ^ ck3[miss].astype(_U64) * _M2 ^ ce[miss].astype(_U64) * _M3
        _, kfirst, kinv = np.unique(kh, return_index=True, return_inverse=True)
        kinv = kinv.reshape(-1)
        reps = cand[miss[kfirst]]
        got = [ab.template_id(a, b, c, int(w) | (int(w3_) << 64), data, 4 * int(p))
               for a, b, c, w, w3_, p in zip(ue[reps].tolist(), key[reps].tolist(), key3[reps].tolist(),
                                             uw[reps].tolist(), uw3[reps].tolist(), upos[reps].tolist())]
        got_ids = np.array(got, dtype=np.int64)[kinv]
        # members of one hash group must have the representative's key (else: a hash collision)
        same = (ce[miss] == ue[reps][kinv]) & (ck[miss] == key[reps][kinv]) & (ck3[miss] == key3[reps][kinv])
        at[miss] = np.where(same, got_ids, 0)
    if every:
        return at
    tid[cand] = at
    return tid
