"""What the batch decoder (``batch.py``) knows of one (architecture, wave size), all derived from the
scalar decoder: the class table (first-dword selector -> entry), per-entry plans of cut operands, the
operand-text pool and the %-format templates.

* Class table (``batch_classes.py``): the bits that choose a decode class and opcode (``FastPath.sel_mask``,
  per 9-bit prefix) index a table of entry ids, filled by the scalar class chooser the first time a
  selector is met (and both dwords where the first does not choose).
* Entry rows: per entry a plan cuts out the operands whose text depends on their own field value alone
  (registers, plain sources, immediates); the rest of the word keys a template.  Fields with reserved
  values stay in the key (the scalar renderer alone decides on them) -- except, in tables made by
  ``batch_data.py``, a register field whose every value was rendered by the scalar renderer at
  generation time (its valid values are then a table like any operand's).
* Operand-text pool: value -> text per kind of operand (filled from the scalar operand printer for the
  values met, or ``operands.reg_text`` for registers whose class and count the template's render showed).
* Templates: keyed by an entry and the bits of the word that are not cut operand values (opcode,
  modifiers, reserved-value fields, the literal of a fixed-literal form), made by rendering one
  instruction with the scalar renderer and putting placeholders where the cut operands' texts are.  An
  entry with nothing cut (s_waitcnt, s_sendmsg, s_endpgm, ...; also one without a plan) has the whole
  word as its key and ``decode_at``'s text as its template.

One ``ArchBatch`` per (architecture, wave size) per process, shared by its decoders under a lock.  The
precomputed tables of ``batch_data.py`` (when current) seed it so that a fresh process does not derive
them again.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import threading
from typing import TYPE_CHECKING

import numpy as np

from . import operands as opd
from .batch_classes import Classes, distinct
from .batch_data import MAXC, even_alone, seed
from .batch_learned import compile_vopd, learned_operand, template_vopd
from .fastpath import plan_field_uses
from .syntax import join

if TYPE_CHECKING:
    from .named import AddressList
    from .plans import Plan

_NO_TEMPLATE = ("EXP", "VEXPORT")
_SIMPLE_KINDS = ("vreg", "src", "ssrc", "imm")
_WIDE = 16  # cut fields wider than this stay in the template key
M1 = np.uint64(0x9E3779B97F4A7C15)
M2 = np.uint64(0xC2B2AE3D27D4EB4F)
M3 = np.uint64(0x165667B19E3779F9)
_U64 = np.uint64
_EMPTY = 1  # the empty text's place in ``ArchBatch.store``
_DEMOTE = 3  # an entry whose first this many templates all fail is left to the scalar path
SLOT_BITS = 19  # the stream's table of distinct words
# field values whose operand texts tell apart operands that print differently (registers, specials,
# inline constants, the literal marker, VGPRs above 128, large immediates)
_PROBES = (1, 65, 106, 125, 129, 200, 242, 248, 254, 255, 300, 400, 1000, 40000)


class ArchBatch(Classes):
    """Per (architecture, wave size): class table (``batch_classes.py``), entry plans, operand-text pool,
    templates."""

    def __init__(self, dec, cut_reserved: bool = False):
        self.dec = dec
        self.cut_reserved = cut_reserved  # probe reserved-value register fields (``batch_data.py`` generation)
        self.precomputed = "not loaded"  # or "loaded", or why the precomputed tables were not used
        self.lock = threading.Lock()  # one stream at a time: the tables and scratch arrays are shared
        self.init_classes(dec)
        # entries: eid 0 = the scalar path decides
        self.entries: list = [None]
        self.entry_ids: dict[int, int] = {}
        self._rows: list = [(0, 0, 0, 0, 0, [])]
        self.rows_pending = None  # (precomputed tables) a function making the rows of the stored entries
        self.arrays: tuple | None = None
        self._init_pool()
        # templates: tid 0 = none (the scalar path decides)
        self.tpl_ids: dict = {}
        self.tpl_fails: dict[int, int] = {}  # entry id -> templates that failed (-1 once one worked)
        self.tpl_fmt: list = [""]
        self.tpl_nph: list = [0]
        self.slot_table = np.zeros(1 << SLOT_BITS, dtype=np.int32)
        self.tpl_base = np.zeros((256, MAXC), dtype=np.int64)
        self.line_fmt_arr: np.ndarray | None = None
        self.line_nph_arr: np.ndarray | None = None
        self.tid_eid = np.full(256, -1, dtype=np.int32)  # what each template is for (-1: none)
        self.tid_key, self.tid_key3 = np.zeros(256, dtype=_U64), np.zeros(256, dtype=np.uint32)
        self.th_sorted = np.zeros(0, dtype=_U64)  # key hashes of the templates, sorted, and their ids
        self.th_tid = np.zeros(0, dtype=np.int64)
        self.th_new: list = []  # (hashes, ids) not sorted in yet
        self.first_tid: np.ndarray | None = None  # entry id -> its first template's id

    @property
    def rows(self) -> list:
        """Per entry id: (dwords, width mask, dword-3 mask, rest mask, rest mask of dword 3, cut slots); made
        on first use where they come from the precomputed tables (whose numpy rows are loaded directly)."""
        if self.rows_pending is not None:
            make, self.rows_pending = self.rows_pending, None
            self._rows += make()
        return self._rows

    def _init_pool(self) -> None:
        """An empty operand-text pool."""
        # index 0 is the empty text of an absent slot.  The texts are kept as UTF-8 bytes
        # (the text form's ``%`` works on bytes: it copies a format's literal runs whole, on str it reads them a
        # character at a time) in ``store``, made when first used: ``pool_sid`` maps a pool index to its text's
        # place in ``store`` (0: not made yet; its pages are only touched where used).  Stored texts
        # (``batch_data.py``) and register names are made from their segment on first use: per such segment its
        # start and its texts (a string, one a line; a function of the value; None: all empty).
        self.pool_ok, self.pool_known = np.ones((2, 4096), bool)
        self.pool_ok[1:] = self.pool_known[1:] = False
        self.pool_sid = np.zeros(4096, np.int32)
        self.store = np.empty(1024, dtype=object)
        self.store[:2] = [None, b""]
        self.store_used = 2
        self.pool_sid[0] = _EMPTY
        self.lazy_starts: list[int] = []
        self.lazy_texts: list = []
        self.pool_used = 1
        self.seg_starts: list[int] = []
        self.seg_compute: list = []
        self.seg_by_key: dict = {}
        self.seg_info: list = []  # per segment: what ``batch_data.py`` needs to store it

    def _compile(self, entry):
        """(dwords, width mask, dword-3 mask, rest mask, rest mask of dword 3, cut slots) of an entry."""
        dec = self.dec
        if entry.encoding in _NO_TEMPLATE or entry.width not in (32, 64, 96):
            return None
        if entry.encoding == "VOPD":
            return compile_vopd(self, entry) if dec.vopd is not None and entry.width == 64 else None
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        if plan is None:  # (special forms: s_waitcnt, s_sendmsg, s_endpgm, ...) the whole word keys the template
            return (1, 0xFFFFFFFF, 0, 0xFFFFFFFF, 0, []) if entry.width == 32 else None
        # a 32-bit instruction whose plan always reads a literal: the literal is its second dword, kept whole
        # in the template key (constants repeat)
        lit = any(sp.kind == "lit" for sp in plan.operands)
        if lit and entry.width != 32:
            return None
        width = 64 if lit else entry.width
        enc = dec.tables.encodings[entry.encoding]
        # fields with reserved values stay in the template key: the scalar renderer alone decides on them
        reserved = set(plan.rejected)
        uses, tied = plan_field_uses(plan)
        busy = self._busy_fields(entry, plan, reserved, tied)
        must_zero = dec.named.must_zero.get(entry.encoding, 0)
        slots: list[tuple] = []  # (operand index, low bit, width, True, register class, segment)
        rest = (1 << width) - 1
        for k, spec in enumerate(plan.operands):
            f = spec.field
            kind = spec.kind
            if (kind not in _SIMPLE_KINDS or not f or f in busy or uses.get(f) != 1 or spec.imm_if
                    or spec.tables or spec.address_fields or len(slots) == MAXC):
                continue
            fld = enc.field(f)
            if fld is None or len(fld.ranges) != 1:
                continue
            hi, lo = fld.ranges[0]
            w = hi - lo + 1
            fmask = ((1 << w) - 1) << lo
            if fmask & must_zero or (lo < 64 <= hi) or hi >= entry.width or w > _WIDE:
                continue
            if kind == "vreg" and spec.note is None:  # the register class and count come with the template
                if f in reserved or spec.align_note is not None:  # its valid values, as the scalar renderer says
                    # (an even-aligned tuple's odd start: a note, to the scalar path)
                    every = self._reserved_segment(entry, plan, k, lo, w)
                    if every is None:
                        continue
                else:
                    every = self._segment(("any", w), 1 << w, None, (None, np.ones(1 << w, bool)),
                                          info=["any", w])
                slots.append((k, lo, w, True, spec.reg_class, every))
            else:
                if spec.acc is not None:
                    continue
                sig = self._alone_sig(entry, plan, k, spec, w)
                if not any(sig[-len(_PROBES):]):
                    continue  # the operand printer never prints this operand alone: the field stays in the key
                compute = functools.partial(dec._operand_alone, entry, k)
                if spec.align_note is not None:  # (an even-aligned VGPR tuple's odd start: to the scalar path)
                    sig, compute = sig + ("even",), functools.partial(even_alone, compute)
                slots.append((k, lo, w, False, None, self._segment(sig, 1 << w, compute,
                                                                   info=["alone", entry.name, entry.encoding, k, w])))
            rest &= ~fmask
        vl = dec.named.vaddr_lists.get(f"{entry.name}|{entry.encoding}")
        if vl is not None and width == entry.width and all(sl[0] != vl.operand for sl in slots):
            slots, rest = self._vaddr_list_slots(enc, vl, must_zero, slots, rest)
        wmask = (1 << min(width, 64)) - 1
        return (width // 32, wmask, 0xFFFFFFFF if width == 96 else 0, rest & ((1 << 64) - 1), rest >> 64, slots)

    def _busy_fields(self, entry, plan: Plan, reserved: set, tied: set) -> set:
        """Fields that stay in the template key: modifiers, templates, fields selecting an operand list or
        a register count, tied fields, and fields with reserved values (unless cut, ``cut_reserved``)."""
        busy = set(plan.modifiers) | set(plan.templates) | {"FORMAT", "DFMT", "NFMT"} | tied
        busy |= set(plan.alternatives)  # a field whose value selects another operand list (SADDR off) keys it
        for c in self.dec.named.counts.get(f"{entry.name}|{entry.encoding}", ()):
            busy.update(c.deps)
            sp = plan.operands[c.operand]
            if sp.kind != "vreg" or sp.note is not None:
                busy.add(sp.field)
        if not self.cut_reserved:
            busy |= reserved
        busy |= {sp.field for sp in plan.operands if sp.field in reserved and (sp.kind != "vreg" or sp.note is not None)}
        return busy

    def _vaddr_list_slots(self, enc, vl: AddressList, must_zero: int, slots: list, rest: int) -> tuple[list, int]:
        """GFX12 image address lists (where the plan does not cut the operand): each VADDRi field a learned
        slot (``batch_learned.py``); (slots, rest mask) with them added where they fit."""
        learned = []
        for i in range(5):
            fld = enc.field(f"VADDR{i}")
            if fld is None or len(fld.ranges) != 1 or fld.ranges[0][0] - fld.ranges[0][1] != 7:
                continue
            lo = fld.ranges[0][1]
            if not (0xFF << lo) & must_zero:
                learned.append((vl.operand, lo, 8, True, "learned",
                                self._segment(("any", 8), 256, None, (None, np.ones(256, bool)), info=["any", 8])))
        if learned and len(slots) + len(learned) <= MAXC:
            slots = sorted(slots + learned, key=lambda sl: sl[0])  # (stable) the placeholders' order
            for sl in learned:
                rest &= ~(0xFF << sl[1])
        return slots, rest

    def _alone_sig(self, entry, plan, k, spec, w) -> tuple:
        from .decoded import operand_type

        sig: tuple = ("alone", repr(dataclasses.replace(spec, text="", field="")), w)  # (all but text and field)
        if spec.kind in ("src", "ssrc"):
            sig += (operand_type(entry.mnemonic), self.dec._src_note(entry, plan, k))
        # and what the operand printer gives for a spread of values: operands that print differently
        # (an entry-specific rule) get their own table
        return sig + tuple(self.dec._operand_alone(entry, k, v) if v < 1 << w else False for v in _PROBES)

    def np_rows(self):
        """Per-entry numpy arrays (rebuilt when entries were added): dwords, word masks, rest-of-word masks,
        and per cut operand (``nslots`` columns) its shift, mask, place (third dword or not) and pool segment."""
        if self.arrays is None:
            rows = self.rows
            flat = [(i, j, lo, width, base) for i, r in enumerate(rows) for j, (_, lo, width, _, _, base) in enumerate(r[5])]
            self.set_arrays(*([r[c] for r in rows] for c in range(5)),
                            *(np.array(c, dtype=np.int64) for c in (zip(*flat) if flat else [()] * 5)))
        return self.arrays

    def set_arrays(self, dw, wm, w3m, rlo, rhi, si, sj, slo, sw, sbase) -> None:
        """``np_rows``'s arrays from per-entry columns and per-cut-operand ones (entry id, column, low bit,
        width, pool base)."""
        n = len(dw)
        dw, wm, w3m = np.array(dw, np.int32), np.array(wm, np.uint64), np.array(w3m, np.uint32)
        rlo, rhi = np.array(rlo, np.uint64), np.array(rhi, np.uint32)
        si, sj, slo, sw = (np.asarray(a, np.int64) for a in (si, sj, slo, sw))
        nslots = int(sj.max()) + 1 if len(sj) else 0
        s_sh = np.zeros((n, nslots), np.uint64)
        s_mk = np.zeros((n, nslots), np.uint64)
        s_3 = np.zeros((n, nslots), bool)
        s_base = np.zeros((n, nslots), np.int64)
        if len(si):
            s_sh[si, sj] = np.where(slo >= 64, slo - 64, slo)
            s_mk[si, sj] = (1 << sw) - 1
            s_3[si, sj] = slo >= 64
            s_base[si, sj] = sbase
        self.vopd_rows = np.array([e is not None and e.encoding == "VOPD" for e in self.entries])
        # per operand column, each contiguous (``batch_render.py`` works a column at a time), packed into
        # one word per (column, entry): pool base << 16 | third dword << 15 | width << 8 | shift
        s_w = np.zeros((n, nslots), np.uint64)
        if len(si):
            s_w[si, sj] = sw
        self.s_cols = np.ascontiguousarray((s_base.astype(np.uint64) << np.uint64(16) | s_3.astype(np.uint64) << np.uint64(15)
                                            | s_w << np.uint64(8) | s_sh).T)
        self.s_count = (s_mk != 0).sum(axis=1)  # cut operands per entry (columns 0 .. count-1)
        self.arrays = (dw, wm, w3m, rlo, rhi, s_sh, s_mk, s_3, s_base, nslots, bool(s_3.any()),
                       bool(w3m.any()))

    # -- operand-text pool ---------------------------------------------------
    def _reserved_segment(self, entry, plan, k, lo, w):
        """Pool segment of a register field with reserved values: valid (text "") where the scalar renderer,
        given the plan's word with this field set to the value, prints operand ``k`` as the plain register."""
        if w > 8:
            return None
        spec = plan.operands[k]
        ok = np.zeros(1 << w, bool)
        word0 = plan.word & ~(((1 << w) - 1) << lo)
        pad = b"\0" * 8
        for v in range(1 << w):
            parts: list = []
            d = self.dec._render(entry, word0 | v << lo, (word0 | v << lo).to_bytes(entry.width // 8, "little") + pad,
                                 0, parts)
            ok[v] = d.valid and bool(parts) and parts[0][k] == opd.reg_text(spec.reg_class, v, spec.count)
        key = ("reserved", w, ok.tobytes())
        return self._segment(key, 1 << w, None, (None, ok), info=["ok", w, ok.nonzero()[0].tolist()])

    def reserve(self, size: int) -> None:
        """Room for ``size`` operand texts in the pool."""
        if size > len(self.pool_sid):
            for name in ("pool_ok", "pool_known", "pool_sid"):
                old = getattr(self, name)
                new = np.zeros(size, dtype=old.dtype)
                new[:len(old)] = old
                setattr(self, name, new)

    def _segment(self, key, size: int, compute, eager=None, info=None) -> int:
        got = self.seg_by_key.get(key)
        if got is not None:
            return got
        start = self.pool_used
        need = start + size
        if need > len(self.pool_sid):
            self.reserve(max(need, 2 * len(self.pool_sid)))
        self.pool_used = need
        if eager is not None:
            texts, ok = eager  # (a segment's first values only, or all; or made on first use)
            if texts is None or isinstance(texts, str) or callable(texts):
                end = start + len(ok)
                self.lazy_starts.append(start)
                self.lazy_texts.append(texts)
            else:
                end = start + len(texts)
                self.pool_sid[start:end] = self._stored([t.encode() for t in texts])
            self.pool_ok[start:end] = ok
            self.pool_known[start:end] = True
        self.seg_starts.append(start)
        self.seg_compute.append(compute)
        self.seg_info.append(info)
        self.seg_by_key[key] = start
        return start

    def _stored(self, texts: list):
        """Places in ``store`` of new texts (bytes) put there."""
        n0 = self.store_used
        n1 = n0 + len(texts)
        if n1 > len(self.store):
            grown = np.empty(max(n1, 2 * len(self.store)), dtype=object)
            grown[:n0] = self.store[:n0]
            self.store = grown
        self.store[n0:n1] = texts
        self.store_used = n1
        return np.arange(n0, n1, dtype=np.int32)

    def fill(self, idx):
        """Make sure the pool holds the texts at ``idx`` (computed by the scalar operand printer)."""
        miss = idx[~self.pool_known[idx]]
        if len(miss):
            for i in distinct(miss).tolist():
                s = bisect.bisect_right(self.seg_starts, i) - 1
                t = self.seg_compute[s](i - self.seg_starts[s])
                self.pool_sid[i] = _EMPTY if t is False else self._stored([t.encode()])[0]
                self.pool_ok[i] = t is not False
                self.pool_known[i] = True

    def texts(self, idx):
        """The pool's texts at ``idx`` (known ones), as an object array of strings (None: not made)."""
        out = np.empty(len(idx), dtype=object)
        out[:] = [None if t is None else t.decode() for t in self.texts_bytes(idx).tolist()]
        return out

    def texts_bytes(self, idx):
        """The pool's texts at ``idx`` (known ones) as UTF-8 bytes (an object array), stored texts made first
        (only those asked for: a segment's lines found by their offsets, register names made)."""
        sid = self.pool_sid.take(idx)
        if not sid.all():
            u = distinct(idx[sid == 0])
            segs = np.searchsorted(self.lazy_starts, u, side="right") - 1
            cut = np.flatnonzero(np.diff(segs)) + 1
            for us, s in zip(np.split(u, cut), segs[np.concatenate([[0], cut])].tolist()):
                self.pool_sid[us] = self._lazy_texts(s, us - self.lazy_starts[s])
            sid = self.pool_sid.take(idx)
        return self.store.take(sid)

    def _lazy_texts(self, s: int, v):
        """Places in ``store`` of the texts of values ``v`` (an array) of lazy segment ``s``, made now."""
        texts = self.lazy_texts[s]
        if texts is None:
            return _EMPTY
        if callable(texts):  # (a register table: its names)
            return self._stored([texts(x).encode() for x in v.tolist()])
        if isinstance(texts, str):  # (stored lines: their offsets, found once)
            b = texts.encode()
            ends = np.flatnonzero(np.frombuffer(b, dtype=np.uint8) == 10)
            texts = self.lazy_texts[s] = (b, np.concatenate([[0], ends + 1]), np.append(ends, len(b)))
        b, starts, ends = texts
        return self._stored([b[i:j] for i, j in zip(starts.take(v).tolist(), ends.take(v).tolist())])

    def reg_segment(self, cls: str, n: int, w: int) -> int:
        key = ("reg", cls, n, w)
        got = self.seg_by_key.get(key)
        if got is not None:
            return got
        ok = np.arange(1 << w) + n <= 256
        return self._segment(key, 1 << w, None, (lambda v: opd.reg_text(cls, v, n), ok), info=["reg", cls, n, w])

    # -- templates -------------------------------------------------------------
    def template_id(self, eid: int, key: int, key3: int, word: int, data: bytes, off: int) -> int:
        k = (eid, key, key3)
        tid = self.tpl_ids.get(k)
        if tid is None:
            got = self._template(eid, word, data, off)
            tid = self.tpl_ids[k] = 0 if got is None else self.add_template(eid, key, key3, *got)
            if tid:
                self.tpl_fails[eid] = -1
            elif self.tpl_fails.get(eid, 0) >= 0:
                self.tpl_fails[eid] = self.tpl_fails.get(eid, 0) + 1
                if self.tpl_fails[eid] == _DEMOTE:  # no template of this entry ever worked: the scalar path takes it
                    self.demote(eid)
        return tid

    def demote(self, eid: int) -> None:
        self.rows[eid] = (0,) + self.rows[eid][1:]
        self.arrays = None

    def add_template(self, eid: int, key: int, key3: int, fmt: str, bases: list) -> int:
        tid = len(self.tpl_fmt)
        self.tpl_fmt.append(fmt)
        self.tpl_nph.append(len(bases))
        if tid >= len(self.tpl_base):
            for name in ("tpl_base", "tid_eid", "tid_key", "tid_key3"):
                old = getattr(self, name)
                setattr(self, name, np.concatenate([old, np.zeros_like(old)]))
        self.tpl_base[tid, :len(bases)] = bases
        self.first_tid = None
        self.tpl_ids[(eid, key, key3)] = tid
        self.tid_eid[tid], self.tid_key[tid], self.tid_key3[tid] = eid, key, key3
        h = (key * int(M1) ^ key3 * int(M2) ^ eid * int(M3)) & 0xFFFFFFFFFFFFFFFF  # as numpy computes it
        self.th_new.append((np.array([h], dtype=_U64), np.array([tid])))
        return tid

    def add_templates(self, eids, keys, keys3, fmts: list, bases, counts) -> None:
        """``add_template`` for many at once (the precomputed ones): arrays of entry ids, keys, keys of the third
        dword, the formats, pool bases (a row per template, ``MAXC`` columns) and placeholder counts."""
        first, n = len(self.tpl_fmt), len(fmts)
        self.tpl_fmt += fmts
        self.tpl_nph += counts.tolist()
        size = len(self.tpl_base)
        while size < first + n:
            size *= 2
        for name in ("tpl_base", "tid_eid", "tid_key", "tid_key3"):
            old = getattr(self, name)
            if len(old) < size:
                new = np.zeros((size,) + old.shape[1:], dtype=old.dtype)
                new[:len(old)] = old
                setattr(self, name, new)
        tids = np.arange(first, first + n)
        self.tpl_base[first:first + n] = bases
        e = np.asarray(eids, dtype=np.int32)
        k = np.asarray(keys, dtype=_U64)
        k3 = np.asarray(keys3, dtype=np.uint32)
        self.tid_eid[tids], self.tid_key[tids], self.tid_key3[tids] = e, k, k3
        h = k * M1 ^ k3.astype(_U64) * M2 ^ e.astype(_U64) * M3
        self.th_new.append((h, tids))
        self.tpl_ids.update(zip(zip(e.tolist(), k.tolist(), k3.tolist()), range(first, first + n)))
        self.tpl_fails.update(dict.fromkeys(e.tolist(), -1))  # (their entries have working templates: never demoted)
        self.first_tid = None

    def tpl_base_cols(self, k: int):
        """The templates' pool bases of their first ``k`` operands, by operand column (each contiguous)."""
        got = self.__dict__.get("_tpl_cols")
        if got is None or got[0] != (len(self.tpl_fmt), k):
            got = self._tpl_cols = ((len(self.tpl_fmt), k),
                                    np.ascontiguousarray(self.tpl_base[:len(self.tpl_fmt), :k].T))
        return got[1]

    def line_formats(self):
        """The templates as lines (with a newline; the last one, ``%s``, for a text made elsewhere) and their
        numbers of placeholders, as arrays (``batch_render.py``)."""
        if self.line_fmt_arr is None or len(self.line_fmt_arr) != len(self.tpl_fmt) + 1:
            self.line_fmt_arr = np.array([f + "\n" for f in self.tpl_fmt] + ["%s\n"], dtype=object)
            self.line_nph_arr = np.array(self.tpl_nph + [1], dtype=np.int64)
        return self.line_fmt_arr, self.line_nph_arr

    def find_templates(self, ce, ck, ck3):
        """Template id per (entry ``ce``, rest-of-word key ``ck``, ``ck3``): the entry's first template where
        the key is its key, else a binary search in the known ones' key hashes; -1 where none is known."""
        if self.th_new:
            h = np.concatenate([self.th_sorted] + [a for a, _ in self.th_new])
            t = np.concatenate([self.th_tid] + [b for _, b in self.th_new])
            order = np.argsort(h, kind="stable")
            self.th_sorted, self.th_tid, self.th_new = h[order], t[order], []
        if not len(self.th_sorted):
            return np.full(len(ce), -1)
        if self.first_tid is None or len(self.first_tid) != len(self.entries):
            self.first_tid = np.zeros(len(self.entries), dtype=np.int64)
            t = np.arange(len(self.tpl_fmt) - 1, 0, -1)
            self.first_tid[self.tid_eid[t]] = t  # (the first one wins)
        t = self.first_tid.take(ce)  # most words of an entry have its first template's key (default modifiers)
        hit = (self.tid_key.take(t) == ck) & (self.tid_eid.take(t) == ce) & (self.tid_key3.take(t) == ck3)
        out = np.where(hit, t, -1)
        rest = np.flatnonzero(~hit)
        if len(rest):
            kr = ck[rest] * M1 ^ ck3[rest].astype(_U64) * M2 ^ ce[rest].astype(_U64) * M3
            at = np.minimum(np.searchsorted(self.th_sorted, kr), len(self.th_sorted) - 1)
            t = self.th_tid[at]
            hit = (self.th_sorted[at] == kr) & (self.tid_key[t] == ck[rest]) & (self.tid_eid[t] == ce[rest]) & \
                (self.tid_key3[t] == ck3[rest])
            out[rest] = np.where(hit, t, -1)
        return out

    def _template(self, eid: int, word: int, data: bytes, off: int):
        """(format, pool base per cut) from one scalar render of ``word``; None if unusable."""
        from .operands import parse_reg

        dec = self.dec
        entry = self.entries[eid]
        if entry.encoding == "VOPD":
            return template_vopd(self, eid, word, data, off)
        nd, slots = self.rows[eid][0], self.rows[eid][5]
        if not slots:  # nothing cut (s_waitcnt, s_sendmsg, s_endpgm, ...): the whole word keys the template, whose
            w = (word & ((1 << 32 * nd) - 1)).to_bytes(4 * nd, "little")  # text is decode_at's, the same in two
            a, b = dec.decode_at(w + bytes(12), 0), dec.decode_at(bytes(4) + w + b"\xff" * 12, 4)  # contexts
            ok = a.valid and b.valid and len(a.data) == len(b.data) == 4 * nd and a.text == b.text and a.name == entry.name
            return (a.text.replace("%", "%%"), []) if ok else None
        parts: list = []
        d = dec._render(entry, word & ((1 << entry.width) - 1), data, off, parts)
        if not d.valid or len(d.data) != 4 * nd or not parts:
            return None
        texts, mods = parts
        if any(k >= len(texts) for k, *_ in slots):
            return None  # another operand list (``alt``: SADDR off) than the entry's cut plan: the scalar path
        raw = list(texts)
        texts = [t.replace("%", "%%") for t in texts]
        bases = []
        for j, (k, lo, w, reg, cls, base) in enumerate(slots):
            v = (word >> lo) & ((1 << w) - 1)
            cur = texts[k]
            if cls == "learned":
                if j and slots[j - 1][4] == "learned" and slots[j - 1][0] == k:
                    continue  # (done with the first of its operand)
                got = learned_operand(self, entry, word, data, off, nd, raw, mods, k, [sl for sl in slots if sl[0] == k])
                if got is None:
                    return None
                texts[k] = got[0]
                bases += got[1]
                continue
            if reg:
                r = parse_reg(cur)
                if r is None or r[1] != v or r[0] not in (cls, "a") or opd.reg_text(r[0], v, r[2]) != cur:
                    return None
                texts[k] = "%s"
                bases.append(self.reg_segment(r[0], r[2], w))
                continue
            self.fill(np.array([base + v]))
            alone = self.texts(np.array([base + v]))[0]
            if not self.pool_ok[base + v] or dec._operand_alone(entry, k, v) != alone:
                return None  # the operand prints unlike the others sharing its text table
            alone = alone.replace("%", "%%")
            i = cur.find(alone)
            if i < 0 or len(cur) - len(alone) > 8:
                return None
            texts[k] = cur[:i] + "%s" + cur[i + len(alone):]
            bases.append(base)
        fmt = join(dec.plans[f"{entry.name}|{entry.encoding}"].mnemonic.replace("%", "%%"), texts,
                   [x.replace("%", "%%") for x in mods])
        return fmt, bases


_SHARED: dict[tuple, ArchBatch] = {}


def arch_batch(dec) -> ArchBatch:
    """The shared ``ArchBatch`` of the decoder's (architecture, wave size), seeded from the precomputed
    tables where they are current (``batch_data.py``; wave32 only)."""
    key = (dec.arch, dec.wave64)
    ab = _SHARED.get(key)
    if ab is None:
        ab = ArchBatch(dec)
        if not dec.wave64:
            seed(ab)
        _SHARED[key] = ab
    return ab
