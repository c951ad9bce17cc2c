"""Batch decoding of a whole buffer with numpy, in front of the scalar decoder.

``Decoder.decode_listing`` and ``Decoder.decode`` run here.  The result is, instruction for
instruction, what the scalar path (``Decoder.decode_at`` at each instruction start) gives; every text
comes from the scalar renderer and operand printer, only reused:

1. Classify: the buffer is viewed as little-endian dwords; the bits that choose a decode class and
   opcode (``FastPath.sel_mask``, per 9-bit prefix) index a dense table of entry ids, filled by the
   scalar class chooser the first time a selector is met.  Each dword gets the size the instruction
   starting there would have if the batch path handles its entry, 0 where the scalar path decides
   (no plan, VOPD, exports, a truncated tail).
2. Walk: instruction starts follow the sizes from dword 0 (jump tables of 16 steps made with numpy, a
   short Python loop over them); where the size is 0 the scalar decoder decodes and gives the size.
3. Render: each distinct instruction word is rendered once.  Per entry a plan cuts out the operands
   whose text depends on their own field value alone (registers, plain sources, immediates); the rest
   of the word keys a %-format template made by rendering one instruction with the scalar renderer
   and putting placeholders where the cut operands' texts are.  Cut values index a pool of operand
   texts (filled from the scalar operand printer for the values met, or ``operands.reg_text`` for
   registers whose class and count the template's render showed).
4. Anything the batch path cannot vouch for -- a cut value the operand printer rejects (a literal
   marker, DPP, an out-of-range tuple), a field with reserved values (kept in the key), a template
   whose render fails -- is decoded by the scalar path instead, and the walk is redone from the first
   such start (its size may differ).

The class table, operand-text pool and templates depend only on the architecture's tables and plans (a
template is keyed by an entry and the bits of the word that are not cut operand values: opcode,
modifiers, reserved-value fields, the literal of a fixed-literal form), so they are kept per process,
like the tables, and shared by the decoders of one (architecture, wave size) under a lock.  The
scalar decoder's per-word caches are not used (the one the batch path falls back to is emptied per
stream): only repeats inside the input are rendered once.  ``tests/test_codec_batch.py`` checks
batch == scalar on random words, code-like streams and cut-short buffers.
"""

from __future__ import annotations

import bisect
import threading
from itertools import repeat
from operator import mod as _mod

import numpy as np

from . import operands as opd
from .syntax import join

_NO_TEMPLATE = ("EXP", "VEXPORT")
_SIMPLE_KINDS = ("vreg", "src", "ssrc", "imm")
MAXC = 8  # cut operands per entry at most
_WIDE = 16  # cut fields wider than this stay in the template key
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)
_M3 = np.uint64(0x165667B19E3779F9)
_U64 = np.uint64
_SLOT_BITS = 20
_TSLOT_BITS = 18
_STRIDE_LOG = 4  # the walk's Python loop takes 16 instructions a step
# field values whose operand texts tell apart operands that print differently (registers, specials,
# inline constants, the literal marker, VGPRs above 128, large immediates)
_PROBES = (1, 65, 106, 125, 129, 200, 242, 248, 254, 255, 300, 400, 1000, 40000)


class ArchBatch:
    """Per (architecture, wave size): class table, entry plans, operand-text pool, templates."""

    def __init__(self, dec):
        self.dec = dec
        self.lock = threading.Lock()  # one stream at a time: the tables and scratch arrays are shared
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
                continue  # such buckets are classified through np.unique on their selectors
            base[p], sh[p], mk[p] = off, s, (1 << span) - 1
            off += 1 << span
        self.cls_base, self.cls_sh, self.cls_mk = base, sh, mk
        self.cls_table = np.full(off, -1, dtype=np.int32)
        self.sel_ids: dict[int, int] = {}
        # entries: eid 0 = the scalar path decides
        self.entries: list = [None]
        self.entry_ids: dict[int, int] = {}
        self.rows: list = [(0, 0, 0, 0, 0, [])]
        self.arrays = None
        # operand-text pool: index 0 is the empty text of an absent slot
        self.pool_text, self.pool_ok, self.pool_known = np.full(4096, "", dtype=object), *np.ones((2, 4096), bool)
        self.pool_ok[1:] = self.pool_known[1:] = False
        self.pool_used = 1
        self.seg_starts: list[int] = []
        self.seg_compute: list = []
        self.seg_by_key: dict = {}
        # templates: tid 0 = none (the scalar path decides)
        self.tpl_ids: dict = {}
        self.tpl_fmt: list = [""]
        self.tpl_nph: list = [0]
        self.slot_table = np.zeros(1 << _SLOT_BITS, dtype=np.intp)
        self.tpl_base = np.zeros((256, MAXC), dtype=np.int64)
        self.tpl_fmt_arr = self.tpl_nph_arr = None
        self.tid_eid = np.full(256, -1, dtype=np.int32)  # what each template is for (-1: none)
        self.tid_key, self.tid_key3 = np.zeros(256, dtype=_U64), np.zeros(256, dtype=np.uint32)
        self.dm_hash = np.zeros(1 << _TSLOT_BITS, dtype=_U64)  # key hash -> template id, direct-mapped
        self.dm_tid = np.zeros(1 << _TSLOT_BITS, dtype=np.int64)

    # -- classification ------------------------------------------------------
    def classify(self, dws):
        p = dws >> np.uint32(23)
        base = self.cls_base[p]
        idx = base + ((dws >> self.cls_sh[p]) & self.cls_mk[p])
        dense = base >= 0
        if not dense.all():
            idx[~dense] = 0
        e = self.cls_table[idx]
        miss = dense & (e < 0)
        if miss.any():
            mi = np.flatnonzero(miss)
            u, first = np.unique(idx[mi], return_index=True)
            reps = (dws[mi[first]] & self.sel_mask[p[mi[first]]]).tolist()
            self.cls_table[u] = [self.entry_id(s) for s in reps]
            e = self.cls_table[idx]
        if not dense.all():
            si = np.flatnonzero(~dense)
            sel = dws[si] & self.sel_mask[p[si]]
            u, inv = np.unique(sel, return_inverse=True)
            e[si] = np.array([self.entry_id(s) for s in u.tolist()], dtype=np.int32)[inv]
        return e

    def scalar_decoder(self):
        """A decoder of the same architecture for what the batch path leaves to the scalar path; its word
        caches are emptied for every stream (``Decoder`` instances give identical results)."""
        sd = self.__dict__.get("_scalar")
        if sd is None:
            from .decoder import Decoder

            sd = self._scalar = Decoder(self.dec.arch, self.dec.wave64)
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
        eid = 0
        if c and c[1] <= 96:
            entry = c[0]
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
        self.sel_ids[sel] = eid
        return eid

    def _compile(self, entry):
        """(dwords, width mask, dword-3 mask, rest mask, rest mask of dword 3, cut slots) of an entry."""
        dec = self.dec
        if entry.encoding in _NO_TEMPLATE or entry.width not in (32, 64, 96):
            return None
        if entry.encoding == "VOPD":
            return self._compile_vopd(entry) if dec.vopd is not None and entry.width == 64 else None
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        if plan is None:
            return None
        # a 32-bit instruction whose plan always reads a literal: the literal is its second dword, kept whole
        # in the template key (constants repeat)
        lit = any(sp.get("k") == "lit" for sp in plan["ops"])
        if lit and entry.width != 32:
            return None
        width = 64 if lit else entry.width
        enc = dec.tables.encodings[entry.encoding]
        # fields with reserved values stay in the template key: the scalar renderer alone decides on them
        busy = set(plan.get("mods", {})) | set(plan.get("tmpl", {})) | set(plan.get("bad", {})) | {"FORMAT", "DFMT", "NFMT"}
        uses: dict[str, int] = {}
        for spec in plan["ops"]:
            for key in ("f", "imm_if"):
                if key in spec:
                    uses[spec[key]] = uses.get(spec[key], 0) + 1
            if "acc" in spec:
                busy.add(spec["acc"][0])
            if "alt" in spec:
                busy.add("VADDR")
                busy.update(spec["alt"])
            busy.update(spec.get("table", {}))
        for c in dec.named.get("counts", {}).get(f"{entry.name}|{entry.encoding}", ()):
            busy.update(c["deps"])
            sp = plan["ops"][c["op"]]
            if sp.get("k") != "vreg" or "note" in sp:
                busy.add(sp.get("f"))
        must_zero = dec.named.get("must_zero", {}).get(entry.encoding, 0)
        slots = []
        rest = (1 << width) - 1
        for k, spec in enumerate(plan["ops"]):
            f = spec.get("f")
            kind = spec.get("k")
            if (kind not in _SIMPLE_KINDS or f is None or f in busy or uses.get(f) != 1 or "imm_if" in spec
                    or "table" in spec or "alt" in spec or len(slots) == MAXC):
                continue
            fld = enc.field(f)
            if fld is None or len(fld.ranges) != 1:
                continue
            hi, lo = fld.ranges[0]
            w = hi - lo + 1
            fmask = ((1 << w) - 1) << lo
            if fmask & must_zero or (lo < 64 <= hi) or hi >= entry.width or w > _WIDE:
                continue
            if kind == "vreg" and "note" not in spec:  # the register class and count come with the template
                every = self._segment(("any", w), 1 << w, None, ([""] * (1 << w), np.ones(1 << w, bool)))
                slots.append((k, lo, w, True, spec.get("c", "v"), every))
            else:
                if "acc" in spec:
                    continue
                sig = self._alone_sig(entry, plan, k, spec, w)
                if not any(sig[-len(_PROBES):]):
                    continue  # the operand printer never prints this operand alone: the field stays in the key
                compute = (lambda v, e=entry, k=k: dec._operand_alone(e, k, v))
                slots.append((k, lo, w, False, None, self._segment(sig, 1 << w, compute)))
            rest &= ~fmask
        wmask = (1 << min(width, 64)) - 1
        return (width // 32, wmask, 0xFFFFFFFF if width == 96 else 0, rest & ((1 << 64) - 1), rest >> 64, slots)

    def _compile_vopd(self, entry):
        """Dual-issue words print from learned templates, not plans: their VGPR fields are candidates,
        each tried by rendering (``_template_vopd``); VDSTX's low bit (it also picks VDSTY) stays in the key."""
        enc = self.dec.tables.encodings[entry.encoding]
        slots = []
        rest = (1 << 64) - 1
        for name, low_in_key in (("VDSTX", True), ("VSRCX1", False), ("VSRCY1", False)):
            f = enc.field(name)
            if f is None or len(f.ranges) != 1 or f.ranges[0][0] - f.ranges[0][1] != 7:
                continue
            lo = f.ranges[0][1]
            every = self._segment(("any", 8), 256, None, ([""] * 256, np.ones(256, bool)))
            slots.append((None, lo, 8, True, "v", every))
            rest &= ~((0xFE if low_in_key else 0xFF) << lo)
        return (2, (1 << 64) - 1, 0, rest, 0, slots) if slots else None

    def _template_vopd(self, eid: int, word: int, data: bytes, off: int):
        """(format, pool bases) of a dual-issue word: each candidate field is changed and the word rendered
        again; a field whose VGPR text alone changes, in one place, gets a placeholder there.  The format
        is checked against a render with every field changed."""
        dec = self.dec
        entry, slots = self.entries[eid], self.rows[eid][5]

        def text(w):
            d = dec._render(entry, w, data, off)
            return d.text if d.valid and len(d.data) == 8 else None

        def moved(flip):
            w = word
            for (_, lo, _, _, _, _) in slots:
                w ^= flip << lo
            return w

        base = text(word)
        if base is None:
            return None
        spans = []
        for (_, lo, w, _, _, _) in slots:
            v = (word >> lo) & 0xFF
            s0, s1 = opd.reg_text("v", v, 1), opd.reg_text("v", v ^ 0x54, 1)
            other = text(word ^ (0x54 << lo))
            hits = [i for i in range(len(base)) if base.startswith(s0, i) and
                    base[:i] + s1 + base[i + len(s0):] == other]
            if len(hits) != 1 or (spans and hits[0] < spans[-1][1]):
                return None
            spans.append((hits[0], hits[0] + len(s0)))
        fmt, at = "", 0
        for a, b in spans:
            fmt += base[at:a].replace("%", "%%") + "%s"
            at = b
        fmt += base[at:].replace("%", "%%")
        if text(moved(0xA8)) != fmt % tuple(opd.reg_text("v", ((word >> lo) & 0xFF) ^ 0xA8, 1)
                                           for (_, lo, _, _, _, _) in slots):
            return None
        return fmt, [self.reg_segment("v", 1, 8) for _ in slots]

    def _alone_sig(self, entry, plan, k, spec, w) -> tuple:
        from .decoder import operand_type

        sig = ("alone", tuple(sorted((a, str(b)) for a, b in spec.items() if a not in ("t", "f"))), w)
        if spec["k"] in ("src", "ssrc"):
            sig += (operand_type(entry.mnemonic), self.dec._src_note(entry, plan, k))
        # and what the operand printer gives for a spread of values: operands that print differently
        # (an entry-specific rule) get their own table
        return sig + tuple(self.dec._operand_alone(entry, k, v) if v < 1 << w else False for v in _PROBES)

    def np_rows(self):
        """Per-entry numpy arrays (rebuilt when entries were added)."""
        if self.arrays is None:
            n = len(self.rows)
            dw = np.zeros(n, np.int64)
            wm = np.zeros(n, np.uint64)
            w3m = np.zeros(n, np.uint32)
            rlo = np.zeros(n, np.uint64)
            rhi = np.zeros(n, np.uint32)
            s_sh = np.zeros((n, MAXC), np.uint64)
            s_mk = np.zeros((n, MAXC), np.uint64)
            s_3 = np.zeros((n, MAXC), bool)
            s_base = np.zeros((n, MAXC), np.int64)
            for i, (d, w, w3, r, r3, slots) in enumerate(self.rows):
                dw[i], wm[i], w3m[i], rlo[i], rhi[i] = d, w, w3, r, r3
                for j, (_, lo, width, _, _, base) in enumerate(slots):
                    s_sh[i, j] = lo - 64 if lo >= 64 else lo
                    s_mk[i, j] = (1 << width) - 1
                    s_3[i, j] = lo >= 64
                    s_base[i, j] = base
            nslots = max(len(r[5]) for r in self.rows)
            self.arrays = (dw, wm, w3m, rlo, rhi, s_sh, s_mk, s_3, s_base, nslots, s_3.any(axis=0).tolist(),
                           bool(w3m.any()))
        return self.arrays

    # -- operand-text pool ---------------------------------------------------
    def _segment(self, key, size: int, compute, eager=None) -> int:
        got = self.seg_by_key.get(key)
        if got is not None:
            return got
        start = self.pool_used
        need = start + size
        if need > len(self.pool_text):
            grow = max(need, 2 * len(self.pool_text))
            for name in ("pool_text", "pool_ok", "pool_known"):
                old = getattr(self, name)
                new = np.empty(grow, dtype=object) if name == "pool_text" else np.zeros(grow, dtype=bool)
                new[:len(old)] = old
                setattr(self, name, new)
        self.pool_used = need
        if eager is not None:
            texts, ok = eager
            self.pool_text[start:need] = texts
            self.pool_ok[start:need] = ok
            self.pool_known[start:need] = True
        self.seg_starts.append(start)
        self.seg_compute.append(compute)
        self.seg_by_key[key] = start
        return start

    def fill(self, idx):
        """Make sure the pool holds the texts at ``idx`` (computed by the scalar operand printer)."""
        miss = idx[~self.pool_known[idx]]
        if len(miss):
            for i in np.unique(miss).tolist():
                s = bisect.bisect_right(self.seg_starts, i) - 1
                t = self.seg_compute[s](i - self.seg_starts[s])
                self.pool_text[i] = "" if t is False else t
                self.pool_ok[i] = t is not False
                self.pool_known[i] = True

    def reg_segment(self, cls: str, n: int, w: int) -> int:
        key = ("reg", cls, n, w)
        got = self.seg_by_key.get(key)
        if got is not None:
            return got
        vals = np.arange(1 << w)
        ok = vals + n <= 256
        return self._segment(key, 1 << w, None, ([opd.reg_text(cls, v, n) for v in range(1 << w)], ok))

    # -- templates -------------------------------------------------------------
    def template_id(self, eid: int, key: int, key3: int, word: int, data: bytes, off: int) -> int:
        k = (eid, key, key3)
        tid = self.tpl_ids.get(k)
        if tid is None:
            got = self._template(eid, word, data, off)
            tid = 0
            if got is not None:
                tid = len(self.tpl_fmt)
                self.tpl_fmt.append(got[0])
                self.tpl_nph.append(len(got[1]))
                if tid >= len(self.tpl_base):
                    for name in ("tpl_base", "tid_eid", "tid_key", "tid_key3"):
                        old = getattr(self, name)
                        setattr(self, name, np.concatenate([old, np.zeros_like(old)]))
                self.tpl_base[tid, :len(got[1])] = got[1]
                self.tpl_fmt_arr = None
            self.tpl_ids[k] = tid
            if tid:
                self.tid_eid[tid], self.tid_key[tid], self.tid_key3[tid] = eid, key, key3
                h = (key * int(_M1) ^ key3 * int(_M2) ^ eid * int(_M3)) & 0xFFFFFFFFFFFFFFFF  # as numpy computes it
                sl = h >> (64 - _TSLOT_BITS)
                self.dm_hash[sl], self.dm_tid[sl] = h, tid
        return tid

    def find_templates(self, kh, ce, ck, ck3):
        """Template id per (entry, rest-of-word key): a direct-mapped table of the known ones, -1 where it has none."""
        sl = (kh >> _U64(64 - _TSLOT_BITS)).astype(np.intp)
        t = self.dm_tid[sl]
        hit = (self.dm_hash[sl] == kh) & (self.tid_key[t] == ck) & (self.tid_eid[t] == ce) & (self.tid_key3[t] == ck3)
        return np.where(hit, t, -1)

    def _template(self, eid: int, word: int, data: bytes, off: int):
        """(format, pool base per cut) from one scalar render of ``word``; None if unusable."""
        from .operands import parse_reg

        dec = self.dec
        entry = self.entries[eid]
        if entry.encoding == "VOPD":
            return self._template_vopd(eid, word, data, off)
        nd, slots = self.rows[eid][0], self.rows[eid][5]
        parts: list = []
        d = dec._render(entry, word & ((1 << entry.width) - 1), data, off, parts)
        if not d.valid or len(d.data) != 4 * nd or not parts:
            return None
        texts, mods = parts
        texts = [t.replace("%", "%%") for t in texts]
        bases = []
        for j, (k, lo, w, reg, cls, base) in enumerate(slots):
            v = (word >> lo) & ((1 << w) - 1)
            cur = texts[k]
            if reg:
                r = parse_reg(cur)
                if r is None or r[1] != v or r[0] not in (cls, "a") or opd.reg_text(r[0], v, r[2]) != cur:
                    return None
                texts[k] = "%s"
                bases.append(self.reg_segment(r[0], r[2], w))
                continue
            self.fill(np.array([base + v]))
            if not self.pool_ok[base + v] or dec._operand_alone(entry, k, v) != self.pool_text[base + v]:
                return None  # the operand prints unlike the others sharing its text table
            alone = self.pool_text[base + v].replace("%", "%%")
            i = cur.find(alone)
            if i < 0 or len(cur) - len(alone) > 8:
                return None
            texts[k] = cur[:i] + "%s" + cur[i + len(alone):]
            bases.append(base)
        fmt = join(dec.plans[f"{entry.name}|{entry.encoding}"]["m"].replace("%", "%%"), texts,
                   [x.replace("%", "%%") for x in mods])
        return fmt, bases


_SHARED: dict[tuple, ArchBatch] = {}


def arch_batch(dec) -> ArchBatch:
    key = (dec.arch, dec.wave64)
    ab = _SHARED.get(key)
    if ab is None:
        ab = _SHARED[key] = ArchBatch(dec)
    return ab


# -- the stream ------------------------------------------------------------------------------------
def decode_listing(dec, data: bytes, base_offset: int = 0) -> list[tuple[int, str | None, int]]:
    """(offset, text or None, size) per instruction, as ``decode_at`` at each start would give."""
    n4 = len(data) // 4
    out: list = []
    tail = 0
    if n4 >= 2:
        dws = np.frombuffer(data, dtype="<u4", count=n4)
        ab = arch_batch(dec)
        with ab.lock:
            starts, texts, sizes, tail, _, _ = _bulk(ab, data, dws)
        out = list(zip((starts * 4 + base_offset).tolist(), texts.tolist(), sizes.tolist()))
    off = tail
    while off < len(data):
        d = dec.decode_at(data, off)
        out.append((d.offset + base_offset, d.text if d.valid else None, len(d.data)))
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return out


def decode_objects(dec, data: bytes, base_offset: int = 0) -> list:
    """One ``Decoded`` per instruction, as ``decode_at`` at each start would give."""
    from .decoder import _quick

    n4 = len(data) // 4
    out: list = []
    tail = 0
    if n4 >= 2:
        ab = arch_batch(dec)
        dws = np.frombuffer(data, dtype="<u4", count=n4)
        with ab.lock:
            starts, texts, sizes, tail, eids, scalar = _bulk(ab, data, dws)
        lo = dws[starts].tolist()
        hi = dws[np.minimum(starts + 1, n4 - 1)].tolist()
        top = dws[np.minimum(starts + 2, n4 - 1)].tolist()
        ents = ab.entries
        add = out.append
        for s, t, n, eid, a, b, c in zip(starts.tolist(), texts.tolist(), sizes.tolist(), eids.tolist(), lo, hi, top):
            off = 4 * s
            if eid:
                entry = ents[eid]
                w = entry.width
                word = a if w == 32 else (a | b << 32 if w == 64 else a | b << 32 | c << 64)
                add(_quick(off + base_offset, data[off:off + n], t, entry, (dec, entry, word)))
            else:  # the scalar path's object
                add(scalar[s][3])
                scalar[s][3].offset = off + base_offset
    off = tail
    while off < len(data):
        d = dec.decode_at(data, off)
        d.offset += base_offset
        out.append(d)
        off += len(d.data) if d.valid else min(4, len(data) - off)
    return out


def _bulk(ab: ArchBatch, data: bytes, dws):
    """Starts (a dword index array), texts (object array), sizes in bytes and entry ids (0: decoded by
    the scalar path) of the instructions the scalar main loop would cover, the byte offset where its
    tail loop begins, and the scalar results by start."""
    n4 = len(dws)
    e = ab.classify(dws)
    rows = ab.np_rows()
    size = rows[0][e]
    idx = np.arange(n4)
    size[idx + np.maximum(size, 2) > n4] = 0  # the scalar path wants 8 bytes in view, 96-bit words all 12
    if ab.dec.vopd is not None:  # 96-bit words go through the generic path, which tries VOPD first
        vm, vv = ab.dec.vopd
        size[(size == 3) & ((dws & np.uint32(vm)) == np.uint32(vv))] = 0
    tried = np.zeros(n4, dtype=bool)
    where = np.zeros(n4, dtype=np.intp)  # dword -> index of its text in the rendered texts (all rounds)
    rendered: list = []
    count = 0
    scalar: dict[int, tuple] = {}  # start -> (text, size, valid, Decoded) from the scalar path
    dec = ab.scalar_decoder()
    done, i = np.empty(0, dtype=np.int64), 0  # final starts before the walk's restart point
    while True:
        seg, i, tail = _walk(dec, data, size, i, scalar)
        batch = seg[size[seg] > 0]
        new = batch[~tried[batch]]
        tried[new] = True
        utext, at_u, bad = _render(ab, data, dws, new, e)
        where[new] = count + at_u
        rendered.append(utext)
        count += len(utext)
        if not bad.any():
            done = np.concatenate([done, seg])
            break
        failed = new[bad]  # the scalar path decides there, and the walk goes on from the first of them
        first = int(failed.min())
        size[failed] = 0
        done = np.concatenate([done, seg[seg < first]])
        i = first
    sizes = size[done] * 4
    eids = np.where(sizes > 0, e[done], 0)
    pick = where[done]
    by_scalar = np.flatnonzero(sizes == 0)
    pick[by_scalar] = count + np.arange(len(by_scalar))
    rendered.append(np.array([None] + [scalar[p][0] for p in done[by_scalar].tolist()], dtype=object)[1:])
    sizes[by_scalar] = [scalar[p][1] for p in done[by_scalar].tolist()]
    texts = np.concatenate(rendered)[pick]
    return done, texts, sizes, 4 * i if tail is None else tail, eids, scalar


def _walk(dec, data, size, i: int, scalar: dict):
    """Starts from dword ``i`` on (an ordered index array), the dword where the main loop stops and the
    tail's byte offset if an instruction was cut short.  Sizes of 0: the scalar decoder decides."""
    n4 = len(size)
    lim = n4 - 1
    i0 = i  # jump tables for the dwords from i0 on only (the walk may be a redo from a failed start)
    jump = np.minimum(np.arange(i0, n4 + 1) + np.append(size[i0:], 0), n4) - i0
    far = jump
    for _ in range(_STRIDE_LOG):
        far = far[far]  # 2**_STRIDE_LOG instructions on; a position of size 0 jumps to itself
    far = far.item
    bases: list[int] = []
    scal: list[int] = []
    tail = None
    while i < lim:  # (Python, but 16 instructions a step)
        nxt = far(i - i0) + i0
        if nxt != i:
            bases.append(i)
            i = nxt
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
    cols = [np.array(bases, dtype=np.int64) - i0]
    for _ in range((1 << _STRIDE_LOG) - 1):
        cols.append(jump[cols[-1]])
    p = np.stack(cols, axis=1) + i0
    keep = (size[np.minimum(p, lim)] > 0) & (p < lim)
    keep[:, 1:] &= p[:, 1:] != p[:, :-1]
    starts = p[keep]
    if scal:
        s = np.array(scal, dtype=np.int64)
        starts = np.insert(starts, np.searchsorted(starts, s), s)
    return starts, i, tail


def _render(ab: ArchBatch, data: bytes, dws, pos, eids):
    """Texts of the instructions at dword positions ``pos``: the distinct texts (an object array, None where
    the batch path fails), the index of each position's text in it, and where the batch path fails."""
    if not len(pos):
        return np.empty(0, dtype=object), np.zeros(0, dtype=np.intp), np.zeros(0, dtype=bool)
    n4 = len(dws)
    dw, wm, w3m, rlo, rhi, s_sh, s_mk, s_3, s_base, nslots, slot3, any3 = ab.np_rows()
    e = eids[pos]
    w64 = (dws[pos].astype(_U64) | (dws[np.minimum(pos + 1, n4 - 1)].astype(_U64) << _U64(32))) & wm[e]
    w3 = dws[np.minimum(pos + 2, n4 - 1)] & w3m[e] if any3 else None
    # distinct words: a repeat in the input takes the text of the word's first-seen copy (a direct-mapped
    # table of word hashes finds it; words that share a slot are simply rendered on their own)
    n = len(pos)
    h = w64 * _M1
    if any3:
        h ^= w3.astype(_U64) * _M2
    slot = (h >> _U64(64 - _SLOT_BITS)).astype(np.intp)
    ar = np.arange(n)
    tab = ab.slot_table
    tab[slot[::-1]] = ar[::-1]  # the first copy wins
    rep = tab[slot]
    same = w64[rep] == w64
    if any3:
        same &= w3[rep] == w3
    target = np.where(same, rep, ar)
    u = np.flatnonzero(target == ar)
    ue, uw = e[u], w64[u]
    uw3 = w3[u] if any3 else np.zeros(len(u), np.uint32)
    nu = len(u)
    vals = []
    ok = np.ones(nu, dtype=bool)
    for j in range(nslots):
        sh, mk = s_sh[ue, j], s_mk[ue, j]
        v = (uw >> sh) & mk
        if slot3[j]:  # some entry has this operand in the third dword
            v = np.where(s_3[ue, j], (uw3.astype(_U64) >> sh) & mk, v)
        v = v.astype(np.int64)
        vals.append(v)
        ix = s_base[ue, j] + v
        ab.fill(ix)
        ok &= ab.pool_ok[ix]
    # templates, keyed by the entry and the rest of the word
    key = uw & rlo[ue]
    key3 = uw3 & rhi[ue]
    cand = np.flatnonzero(ok)
    tid = np.zeros(nu, dtype=np.int64)
    if len(cand):
        ce, ck, ck3 = ue[cand], key[cand], key3[cand]
        kh = ck * _M1 ^ ck3.astype(_U64) * _M2 ^ ce.astype(_U64) * _M3
        at = ab.find_templates(kh, ce, ck, ck3)
        miss = np.flatnonzero(at < 0)
        if len(miss):  # not in the direct-mapped table: the template dictionary, or one scalar render each
            _, kfirst, kinv = np.unique(kh[miss], return_index=True, return_inverse=True)
            reps = cand[miss[kfirst]]
            got = [ab.template_id(a, b, c, int(w) | (int(w3_) << 64), data, 4 * int(p))
                   for a, b, c, w, w3_, p in zip(ue[reps].tolist(), key[reps].tolist(), key3[reps].tolist(),
                                                 uw[reps].tolist(), uw3[reps].tolist(), pos[u[reps]].tolist())]
            got = np.array(got, dtype=np.int64)[kinv.reshape(-1)]
            # members of one hash group must have the representative's key (else: a hash collision)
            same = (ce[miss] == ue[reps][kinv.reshape(-1)]) & (ck[miss] == key[reps][kinv.reshape(-1)]) & \
                (ck3[miss] == key3[reps][kinv.reshape(-1)])
            at[miss] = np.where(same, got, 0)
        tid[cand] = at
    ok = tid > 0
    cols = []
    for j in range(nslots):  # texts known: sources and immediates were filled above, register tables are whole
        ix = np.where(ok, ab.tpl_base[tid, j] + vals[j], 0)
        ok &= ab.pool_ok[ix]
        cols.append(ab.pool_text[ix])
    if ab.tpl_fmt_arr is None:
        ab.tpl_fmt_arr, ab.tpl_nph_arr = np.array(ab.tpl_fmt, dtype=object), np.array(ab.tpl_nph, dtype=np.int8)
    utext = np.empty(nu, dtype=object)
    nph = np.where(ok, ab.tpl_nph_arr[tid], -1)
    for c in range(nslots + 1):  # one %-format per distinct word, grouped by its number of placeholders
        g = np.flatnonzero(nph == c)
        if not len(g):
            continue
        fmts = ab.tpl_fmt_arr[tid[g]].tolist()
        if c == 0:
            utext[g] = list(map(_mod, fmts, repeat(())))
        elif c == 1:
            utext[g] = list(map(_mod, fmts, cols[0][g].tolist()))
        else:
            utext[g] = list(map(_mod, fmts, zip(*[cols[j][g].tolist() for j in range(c)])))
    at_u = np.empty(n, dtype=np.intp)
    at_u[u] = np.arange(nu)
    at_u = at_u[target]
    return utext, at_u, ~ok[at_u]
