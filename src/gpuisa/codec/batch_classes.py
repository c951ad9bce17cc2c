"""The class table of the batch decoder (``batch_arch.ArchBatch`` is one): which entry, if any, the
instruction starting at each dword is -- chosen exactly as the scalar decoder chooses, and cached.

* Dense buckets (a 9-bit prefix whose selector bits -- ``FastPath.sel_mask`` -- span at most 16 bits): a
  numpy table indexed by the selector, filled by the scalar class chooser the first time a selector is
  met (``batch_data.py`` fills all of it ahead).
* Wide buckets: a sorted table of the selectors met so far (a binary search a step), the rest through the
  scalar class chooser.
* Buckets with a class that looks at the second dword (GFX10 MTBUF: opcode bit 53): where the first dword
  does not choose, both dwords' choosing bits key a cache of ``entry_id64``, which follows the scalar
  decoder's class order on the 64-bit word.
(Split from ``batch_arch.py``.)
"""

from __future__ import annotations

import numpy as np

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_U64 = np.uint64
_UNKNOWN, _WIDE, _TWO = -1, -2, -3  # class-table values other than entry ids


def distinct(a):
    """``np.unique(a)`` for a 1-d array, sorted (``np.unique`` without indices imports ``numpy.ma`` on its
    first call: ~10 ms of a fresh process's first decode)."""
    a = np.sort(a)
    return a[np.concatenate(([True], a[1:] != a[:-1]))] if len(a) else a


class Classes:
    """The class-table half of ``ArchBatch`` (it provides ``dec``, ``entries``, ``rows``, ``entry_ids`` and
    ``_compile``)."""

    # what ArchBatch (batch_arch.py) sets up and provides (declared for the type checker: no values here)
    dec: Any
    entries: list
    entry_ids: dict[int, int]
    arrays: tuple | None
    two_dword: np.ndarray | None
    two_mask: np.ndarray | None
    if TYPE_CHECKING:
        @property
        def rows(self) -> list: ...
        def _compile(self, entry) -> tuple | None: ...

    def init_classes(self, dec) -> None:
        sm = dec.fast.sel_mask
        self.sel_mask = np.array(sm, dtype=np.uint32)
        base = np.full(512, -1, dtype=np.int64)
        sh = np.zeros(512, dtype=np.uint32)
        mk = np.zeros(512, dtype=np.uint32)
        off = 0
        for p, m in enumerate(sm):
            low = m & 0x7FFFFF
            s = (low & -low).bit_length() - 1 if low else 0
            span = low.bit_length() - s if low else 0
            if span > 16:
                continue  # (a wide bucket: the sorted table of selectors met)
            base[p], sh[p], mk[p] = off, s, (1 << span) - 1
            off += 1 << span
        self.cls_base, self.cls_sh, self.cls_mk = base, sh, mk
        # the table: an entry id per selector of the dense buckets (entry ids index further tables: intp, no
        # casts), _UNKNOWN where not met yet, _TWO where the first dword does not choose in a bucket that looks
        # at the second; after them one slot, _WIDE, where every wide bucket's dwords land (shift and mask 0)
        self.cls_table = np.full(off + 1, _UNKNOWN, dtype=np.int64)
        self.cls_table[off] = _WIDE
        self.cls_base32 = np.where(base >= 0, base, off).astype(np.int32)
        self.sel_ids: dict[int, int] = {}
        # buckets with a class that looks at the second dword (its mask or opcode, e.g. GFX10 MTBUF's opcode
        # bit 53): there the first dword does not choose; the bits of both dwords that may choose, per bucket
        fast = dec.fast
        two = np.zeros(512, bool)
        two_mask = np.zeros(512, dtype=np.uint64)
        for q, bucket in enumerate(dec.tables.prefix_index):
            if any(not fast.low_only[id(c)] for c in bucket):
                two[q] = True
                m = 0xFF800000
                for c in bucket:
                    m |= c.mask | (c.op.mask if c.op is not None else 0)
                two_mask[q] = m & 0xFFFFFFFFFFFFFFFF
        self.two_dword, self.two_mask = (two, two_mask) if two.any() else (None, None)
        self.cls_two = two
        self.sel64_ids: dict[int, int] = {}
        self.wide_sel, self.wide_eid = np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.int32)

    def classify(self, dws):
        """Entry id per dword (0: the scalar path decides) of the instruction that would start there."""
        p = (dws >> np.uint32(23)).astype(np.intp)
        # (32-bit arithmetic; a wide bucket's dwords all index the _WIDE slot)
        idx = self.cls_base32.take(p) + ((dws >> self.cls_sh.take(p)) & self.cls_mk.take(p)).view(np.int32)
        e = self.cls_table.take(idx)
        neg = np.flatnonzero(e < 0)
        if not len(neg):
            return e
        en = e.take(neg)
        mi = neg[en == _UNKNOWN]
        if len(mi):  # selectors met for the first time: through the scalar class chooser
            u, first = np.unique(idx[mi], return_index=True)
            reps = mi[first]
            sels = (dws[reps] & self.sel_mask[p[reps]]).tolist()
            self.cls_table[u] = self.table_ids(p[reps], [self.entry_id(s) for s in sels])
            e[mi] = self.cls_table.take(idx.take(mi))
            en = e.take(neg)
        at = neg[en == _TWO]
        si = neg[en == _WIDE]
        if len(si):  # selectors of more than 16 bits: a sorted table of those met so far
            sel = dws.take(si) & self.sel_mask.take(p.take(si))
            got = self._wide_lookup(sel)
            miss = got < 0
            if miss.any():
                new = distinct(sel[miss])
                eids = np.array([self.entry_id(s) for s in new.tolist()], dtype=np.int32)
                h = np.concatenate([self.wide_sel, new])
                order = np.argsort(h, kind="stable")
                self.wide_sel, self.wide_eid = h[order], np.concatenate([self.wide_eid, eids])[order]
                got = self._wide_lookup(sel)
            e[si] = got
            if self.two_dword is not None:
                at = np.concatenate([at, si[(got == 0) & self.cls_two.take(p.take(si))]])
        if len(at):  # the second stage: both dwords, where the first does not choose
            e[at] = 0
            at = at[at + 1 < len(dws)]
            if len(at):
                assert self.two_mask is not None  # (words reach the second stage only where a class has two dwords)
                key = (dws.take(at).astype(_U64) | (dws.take(at + 1).astype(_U64) << _U64(32))) & \
                    self.two_mask.take(p.take(at))
                u, inv = np.unique(key, return_inverse=True)
                e[at] = np.array([self.entry_id64(k) for k in u.tolist()], dtype=np.int32)[inv.reshape(-1)]
        return e

    def table_ids(self, prefixes, eids: list):
        """Class-table values of selectors of buckets ``prefixes`` whose entries are ``eids``: _TWO where the
        first dword does not choose (0) in a bucket that looks at the second dword."""
        out = np.array(eids, dtype=np.int64)
        out[(out == 0) & self.cls_two.take(prefixes)] = _TWO
        return out

    def _wide_lookup(self, sel):
        """Entry ids of wide selectors ``sel`` from the sorted table of those met (-1 where not met)."""
        if not len(self.wide_sel):
            return np.full(len(sel), -1, dtype=np.int32)
        at = np.minimum(np.searchsorted(self.wide_sel, sel), len(self.wide_sel) - 1)
        return np.where(self.wide_sel.take(at) == sel, self.wide_eid.take(at), -1).astype(np.int32)

    def entry_id64(self, key: int) -> int:
        """Entry id of a 64-bit word (only its bits in ``two_mask`` set), chosen as the scalar decoder chooses
        (the first class whose mask and opcode match); 0 where a wider class would have to decide."""
        got = self.sel64_ids.get(key)
        if got is not None:
            return got
        dw = key & 0xFFFFFFFF
        eid = 0
        vopd = self.dec.vopd
        if vopd is None or dw & vopd[0] != vopd[1]:
            for dc in self.dec.tables.prefix_index[dw >> 23]:
                if dc.width > 64:
                    if key & dc.mask & 0xFFFFFFFFFFFFFFFF == dc.value & 0xFFFFFFFFFFFFFFFF:
                        break
                    continue
                word = key if dc.width == 64 else dw
                if word & dc.mask != dc.value:
                    continue
                entry = dc.entries.get(dc.op.extract(word) if dc.op is not None else -1)
                if entry is not None:
                    eid = self.entry_eid(entry)
                    break
        self.sel64_ids[key] = eid
        return eid

    def scalar_decoder(self):
        """A decoder of the same architecture for what the batch path leaves to the scalar path; its word
        caches are emptied for every stream (``Decoder`` instances give identical results)."""
        sd = self.__dict__.get("_scalar")
        if sd is None:
            sd = self._scalar = type(self.dec)(self.dec.arch, self.dec.wave64, self.dec.syntax16)  # (a Decoder)
        sd.fast.done.clear()
        sd.fast.pick.clear()
        return sd

    def entry_id(self, sel: int) -> int:
        got = self.sel_ids.get(sel)
        if got is not None:
            return got
        fast = self.dec.fast
        c = fast.by_sel.get(sel)
        if c is None:
            c = fast.by_sel[sel] = fast._choose(sel)
        eid = self.entry_eid(c[0]) if c and c[1] <= 96 else 0
        self.sel_ids[sel] = eid
        return eid

    def entry_eid(self, entry) -> int:
        """The entry's id (compiled on first use; 0: the scalar path decides)."""
        eid = self.entry_ids.get(id(entry))
        if eid is None:
            row = self._compile(entry)
            eid = 0
            if row is not None:
                eid = len(self.entries)
                self.entries.append(entry)
                self.rows.append(row)
                self.arrays = None
            self.entry_ids[id(entry)] = eid
        return eid

