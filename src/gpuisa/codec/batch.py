"""Batch decoding of a whole buffer with numpy, in front of the scalar decoder.

``Decoder.decode_listing``, ``Decoder.decode`` and ``Decoder.decode_text`` (the listing as one string,
``batch_text.py``) run here.  The result is, instruction for
instruction, what the scalar path (``Decoder.decode_at`` at each instruction start) gives; every text
comes from the scalar renderer and operand printer, only reused (``batch_arch.py`` holds what is
derived from them, ``batch_data.py`` a precomputed copy of it):

1. Classify: the buffer is viewed as little-endian dwords; each dword's class selector indexes the
   class table.  Each dword gets the size the instruction starting there would have if the batch path
   handles its entry, 0 where the scalar path decides (no plan, exports, a truncated tail).
2. Walk: instruction starts follow the sizes from dword 0 (jump tables of 128 steps made with numpy, a
   short Python loop over them, one instruction at a time where a jump would pass the step's end);
   where the size is 0 the scalar decoder decodes and gives the size.
3. Render: each distinct instruction word is rendered once (``batch_render.py``): its cut operand
   values index the operand-text pool, the rest of the word finds its %-format template (made on first
   use by one scalar render), and one ``%`` makes the lines of all a step's new words.
4. Anything the batch path cannot vouch for -- a cut value the operand printer rejects (a literal
   marker, DPP, an out-of-range tuple), a template whose render fails -- is decoded by the scalar path
   instead, and the walk is redone from the first such start (its size may differ).

The buffer is taken a step (``STEP`` dwords, with a look-ahead past its end) at a time, so that numpy's
scratch arrays stay small; a table of the stream's distinct words carries across steps.  The scalar
decoder's per-word caches are not used (the one the batch path falls back to is emptied per stream):
only repeats inside the input are rendered once.  ``tests/test_codec_batch.py`` checks batch == scalar
on random words, code-like streams and cut-short buffers.
"""

from __future__ import annotations

import numpy as np

from .batch_arch import M1 as _M1
from .batch_arch import M2 as _M2
from .batch_arch import SLOT_BITS as _SLOT_BITS
from .batch_arch import ArchBatch, arch_batch
from .batch_render import render_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .decoder import Decoder

_U64 = np.uint64
_STRIDE_LOG = 7  # the walk's Python loop takes 128 instructions a step
_NEAR_LOG = 3  # jump tables kept for the walk's doubling back: 1, 2, 4, 8 instructions on


# -- the stream ------------------------------------------------------------------------------------
STEP = 32768  # dwords per step: numpy's scratch arrays stay small (heap memory reused, cache-resident)
_AHEAD = 16  # dwords a step sees past its end: more than the longest instruction


def walk_steps(dec, data: bytes, emit) -> int:
    """Runs the batch path over ``data`` a step at a time, calling ``emit(first dword, step bytes, starts,
    text indices, sizes, entry ids, scalar results, word table)`` per step (the texts are the word table's
    ``texts`` at the indices); returns the byte offset where the scalar tail loop begins."""
    n4 = len(data) // 4
    if n4 < 2 or dec.syntax16 is not None or getattr(dec, "scalar_only", False):
        return 0  # (a 16-bit syntax or a processor variant the tables do not model: all on the scalar path)
    if n4 > STEP:
        _prime_allocator()
    dws = np.frombuffer(data, dtype="<u4", count=n4)
    ab = arch_batch(dec)
    pos = 0
    with ab.lock:
        sd = _Scalar(ab)
        seen = _Seen(ab, n4)
        while True:
            last = n4 - pos <= STEP + _AHEAD
            view = data[4 * pos:] if last else data[4 * pos:4 * (pos + STEP + _AHEAD)]
            starts, tix, sizes, stop, eids, scalar = _bulk(ab, seen, view, dws[pos:pos + len(view) // 4], sd,
                                                           None if last else STEP)
            emit(pos, view, starts, tix, sizes, eids, scalar, seen)
            if last:
                return 4 * pos + stop
            pos += stop // 4


def decode_listing(dec, data: bytes, base_offset: int = 0) -> list[tuple[int, str | None, int]]:
    """(offset, text or None, size) per instruction, as ``decode_at`` at each start would give."""
    out: list = []

    def emit(pos, view, starts, tix, sizes, eids, scalar, seen):
        out.extend(zip(((starts + pos) * 4 + base_offset).tolist(), seen.texts.take(tix).tolist(), sizes.tolist()))

    off = walk_steps(dec, data, emit)
    while off < len(data):
        d = dec.decode_at(data, off)
        out.append((d.offset + base_offset, d.text if d.valid else None, len(d.data)))
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return out


def decode_objects(dec, data: bytes, base_offset: int = 0) -> list:
    """One ``Decoded`` per instruction, as ``decode_at`` at each start would give."""
    from .decoded import quick_decoded

    out: list = []
    add = out.append

    def emit(pos, view, starts, tix, sizes, eids, scalar, seen):
        texts = seen.texts.take(tix).tolist()
        dws = np.frombuffer(view, dtype="<u4", count=len(view) // 4)
        n4 = len(dws)
        lo = dws[starts].tolist()
        hi = dws[np.minimum(starts + 1, n4 - 1)].tolist()
        top = dws[np.minimum(starts + 2, n4 - 1)].tolist()
        ents = arch_batch(dec).entries
        for s, t, n, eid, a, b, c in zip(starts.tolist(), texts, sizes.tolist(), eids.tolist(), lo, hi, top):
            off = 4 * s
            if eid:
                entry = ents[eid]
                w = entry.width
                word = a if w == 32 else (a | b << 32 if w == 64 else a | b << 32 | c << 64)
                add(quick_decoded(off + 4 * pos + base_offset, view[off:off + n], t, entry, (dec, entry, word)))
            else:  # the scalar path's object
                add(scalar[s][3])
                scalar[s][3].offset = off + 4 * pos + base_offset

    off = walk_steps(dec, data, emit)
    while off < len(data):
        d = dec.decode_at(data, off)
        d.offset += base_offset
        out.append(d)
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return out


_PRIMED: list = []


def _prime_allocator() -> None:
    """Once per process, before the first stream of more than one step: one large block allocated and freed.

    A step's scratch arrays (a few hundred KiB each, some MiB in all) are freed at its end and made again in
    the next.  glibc's malloc serves blocks above its adaptive threshold (128 KiB at start) from fresh
    mappings and returns them to the kernel when freed, and gives back its heap top above twice that; so each
    step would take its scratch memory from the kernel again, a page fault per 4 KiB (2-3 us each on a
    virtual machine: more than the work done on the page).  Freeing a block raises the threshold to its size
    (as in any program that has freed a large array), after which the steps reuse heap memory.  Measured on
    200,000 instructions (``benchmarks/bench_decode.py`` input, rdna1): 8,700 -> 6,600 page faults per
    decode.  (Untouched, the block costs no page faults; elsewhere than glibc it is a no-op.)"""
    if not _PRIMED:
        _PRIMED.append(True)
        block = np.empty(8 << 20, dtype=np.uint8)
        del block


class _Scalar:
    """The scalar decoder the batch path falls back to (``ArchBatch.scalar_decoder``), made on first use."""

    def __init__(self, ab: ArchBatch):
        self.ab = ab
        self.dec: Decoder | None = None

    def decode_at(self, data: bytes, off: int):
        if self.dec is None:
            self.dec = self.ab.scalar_decoder()
        return self.dec.decode_at(data, off)


class _Seen:
    """The distinct instruction words of one stream (all its steps), each with the index of its text in
    ``texts`` (None where the batch path fails): a direct-mapped table of word hashes finds a repeat
    (its entries from earlier streams are checked against the words); words that share a slot are
    simply rendered on their own."""

    def __init__(self, ab: ArchBatch, cap: int):
        self.tab = ab.slot_table
        # (index 0: none, the scalar path's point there; room for as many distinct words as a quarter of the
        # dwords, grown where more)
        size = min(cap + 2, max(cap // 4, 1 << 12))
        self.w = np.zeros(size, _U64)
        self.w3 = np.zeros(size, np.uint32)
        self.bad = np.zeros(size, bool)
        self.texts = np.empty(size, dtype=object)
        self.n = 1

    def add(self, w, w3, bad, texts: list) -> None:
        """New words (and third dwords; None where no entry has one), where the batch path failed, and their
        texts."""
        n0, n1 = self.n, self.n + len(texts)
        if n1 > len(self.texts):
            size = max(n1, 2 * len(self.texts))
            for name in ("w", "w3", "bad", "texts"):
                old = getattr(self, name)
                grown = np.empty(size, dtype=old.dtype)
                grown[:n0] = old[:n0]
                setattr(self, name, grown)
        self.w[n0:n1] = w
        self.w3[n0:n1] = 0 if w3 is None else w3
        self.bad[n0:n1] = bad
        self.texts[n0:n1] = texts
        self.n = n1

    def add_texts(self, texts: list):
        """Indices of texts kept without a word (the slot table never leads to them)."""
        n0 = self.n
        self.add(np.zeros(len(texts), _U64), None, np.ones(len(texts), bool), texts)
        return np.arange(n0, self.n, dtype=np.int32)


def _bulk(ab: ArchBatch, seen: _Seen, data: bytes, dws, dec, stop: int | None):
    """Starts (a dword index array), the indices of their texts in ``seen.texts``, sizes in bytes and entry
    ids (0: decoded by the scalar path) of the instructions the scalar main loop would cover, the byte
    offset where its tail loop begins (the main loop's end where ``stop`` is given: the dword it stops at),
    and the scalar results by start."""
    n4 = len(dws)
    e, size = _sizes(ab, dws)
    tried = np.zeros(n4, dtype=bool)
    # dword -> index of its text in ``seen.texts`` (set where rendered; read, clipped, at every start, the
    # scalar path's texts replacing what is read at the others)
    where = np.empty(n4, dtype=np.int32)
    scalar: dict[int, tuple] = {}  # start -> (text, size, valid, Decoded) from the scalar path
    done, i = np.empty(0, dtype=np.int64), 0  # final starts before the walk's restart point
    while True:
        seg, i, tail = _walk(dec, data, size, i, scalar, stop)
        batch = seg[size.take(seg) > 0]
        new = batch[~tried.take(batch)]
        tried[new] = True
        at, bad = _render(ab, seen, data, dws, new, e)
        where[new] = at
        if not bad.any():
            done = np.concatenate([done, seg]) if len(done) else seg
            break
        failed = new[bad]  # the scalar path decides there, and the walk goes on from the first of them
        first = int(failed.min())
        size[failed] = 0
        done = np.concatenate([done, seg[seg < first]])
        i = first
    sizes = size.take(done) * 4
    eids = np.where(sizes > 0, e.take(done), 0)
    tix = where.take(done, mode="clip")
    by_scalar = np.flatnonzero(sizes == 0)
    if len(by_scalar):  # (the scalar path's texts join the word table's, without words)
        at = done[by_scalar].tolist()
        tix[by_scalar] = seen.add_texts([scalar[p][0] for p in at])
        sizes[by_scalar] = [scalar[p][1] for p in at]
    return done, tix, sizes, 4 * i if tail is None else tail, eids, scalar


def _sizes(ab: ArchBatch, dws):
    """Entry id (0: the scalar path decides) and size in dwords (0: the scalar path decides) per dword, for
    the instruction that would start there."""
    n4 = len(dws)
    e = ab.classify(dws)
    rows = ab.np_rows()
    size = rows[0].take(e)
    end = size[-3:]  # the scalar path wants 8 bytes in view, 96-bit words all 12
    end[np.arange(n4 - len(end), n4) + np.maximum(end, 2) > n4] = 0
    if rows[-1] and ab.dec.vopd is not None:  # 96-bit words go through the generic path, which tries VOPD first
        vm, vv = ab.dec.vopd
        at = np.flatnonzero(size == 3)
        size[at[((dws[at] & np.uint32(vm)) == np.uint32(vv)) & ~ab.vopd_rows[e[at]]]] = 0
    return e, size


def _walk(dec, data, size, i: int, scalar: dict, stop: int | None):
    """Starts from dword ``i`` on (an ordered index array), the dword where the main loop stops and the
    tail's byte offset if an instruction was cut short.  Sizes of 0: the scalar decoder decides."""
    n4 = len(size)
    lim = n4 - 1 if stop is None else stop
    i0 = i  # jump tables for the dwords from i0 on only (the walk may be a redo from a failed start)
    m = n4 - i0  # (relative to i0; m: past the end, where the tables stay)
    one = np.arange(1, m + 2, dtype=np.intp)  # the next instruction (intp: the tables index themselves, no casts)
    one[:m] += size[i0:] - 1
    np.minimum(one, m, out=one)
    # 1, 2, 4, 8 instructions on (kept), and 2**_STRIDE_LOG (squared on in place in two arrays); a position of
    # size 0 jumps to itself
    near = [one]
    for _ in range(_NEAR_LOG):
        near.append(near[-1].take(near[-1]))
    far, spare = near[-1].take(near[-1]), None
    for _ in range(_STRIDE_LOG - _NEAR_LOG - 1):
        spare = far.take(far) if spare is None else far.take(far, out=spare, mode="clip")
        far, spare = spare, far
    far_at, one_at = far.item, one.item
    bases: list[int] = []
    singles: list[int] = []
    scal: list[int] = []
    tail = None
    while i < lim:  # (Python, but 128 instructions a step)
        nxt = far_at(i - i0) + i0
        if nxt != i:
            if nxt <= lim:
                bases.append(i)
                i = nxt
            else:  # the jump would pass the stop (and the starts before it would be lost): one at a time
                singles.append(i)
                i = one_at(i - i0) + i0
            continue
        r = scalar.get(i)
        if r is None:
            d = dec.decode_at(data, 4 * i)
            r = scalar[i] = (d.text if d.valid else None, len(d.data), d.valid, d)
        scal.append(i)
        _, n, valid, _ = r
        if valid and n & 3:  # cut short by the end of the buffer: the tail loop takes over
            tail = 4 * i + n
            break
        i += n >> 2 if valid else 1
    # every start the walk stepped over: the bases, every 8th instruction after each up to 120 (on by the
    # kept table of 8), and 1..7 after those (doubling back with the tables of 4, 2, 1)
    p = np.array(bases, dtype=np.intp) - i0
    ps = [p]
    for _ in range((1 << (_STRIDE_LOG - _NEAR_LOG)) - 1):
        p = near[-1].take(p)
        ps.append(p)
    p = np.concatenate(ps)
    for table in reversed(near[:-1]):
        p = np.concatenate([p, table.take(p)])
    mark = np.zeros(m + 1, dtype=bool)
    mark[p] = True
    top = max(min(lim, n4) - i0, 0)
    keep = mark[:top] & (size[i0:i0 + top] > 0)
    if scal or singles:
        keep[np.array(scal + singles, dtype=np.int64) - i0] = True
    return np.flatnonzero(keep) + i0, i, tail


def _render(ab: ArchBatch, seen: _Seen, data: bytes, dws, pos, eids):
    """Index in ``seen.texts`` of the text of each instruction at dword positions ``pos`` (words not seen
    before in the stream are rendered and added), and where the batch path fails."""
    if not len(pos):
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=bool)
    n4 = len(dws)
    dw, wm, w3m, rlo, rhi, s_sh, s_mk, s_3, s_base, nslots, slot3, any3 = ab.np_rows()
    e = eids.take(pos)
    # (each dword with the next as one little-endian 64-bit word: an overlapping view of the bytes; a start
    # the batch path takes is at least two dwords before the end, ``_sizes``)
    pairs = np.ndarray((n4 - 1,), dtype="<u8", buffer=data, strides=(4,))
    w64 = pairs.take(pos) & wm.take(e)
    h = w64 * _M1
    # the third dword, of the instructions whose entry has one (w3: None where none has; equal first two
    # dwords mean the same entry, so words are told apart by it only among those)
    w3 = t3 = None
    if any3:
        m3 = w3m.take(e)
        t3 = np.flatnonzero(m3)
        if len(t3):
            w3s = dws.take(np.minimum(pos.take(t3) + 2, n4 - 1)) & m3.take(t3)
            h[t3] ^= w3s.astype(_U64) * _M2
            w3 = np.zeros(len(pos), np.uint32)
            w3[t3] = w3s
    h >>= _U64(64 - _SLOT_BITS)
    slot = h.view(np.intp)  # (the top bits: below 2**_SLOT_BITS)
    tab = seen.tab
    g = tab.take(slot).astype(np.intp)
    n0 = seen.n
    gc = np.minimum(g, n0 - 1)
    hit = (g < n0) & (g > 0) & (seen.w.take(gc) == w64)
    if w3 is not None:
        hit[t3] &= seen.w3.take(gc.take(t3)) == w3s
    at = np.where(hit, g, 0)
    miss = np.flatnonzero(~hit)
    if len(miss):  # new words: the first copy of each is rendered
        ms = slot.take(miss)
        ar = np.arange(len(miss), dtype=np.intp)
        tab[ms[::-1]] = ar[::-1]
        rep = tab.take(ms).astype(np.intp)
        mr = miss.take(rep)
        same = w64.take(mr) == w64.take(miss)
        if w3 is not None:
            same &= w3.take(mr) == w3.take(miss)
        first = rep == ar
        own = first | ~same
        ids = np.cumsum(own) + (n0 - 1)
        ids = np.where(own, ids, ids.take(rep))
        tab[ms[first]] = ids[first]
        at[miss] = ids
        u = miss[own]
        wu, w3u = w64.take(u), (w3.take(u) if w3 is not None else None)
        texts, ok = render_words(ab, data, pos.take(u), e.take(u), wu, w3u)
        seen.add(wu, w3u, ~ok, texts)
    return at, seen.bad.take(at)
