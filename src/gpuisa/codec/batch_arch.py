"""What the batch decoder (``batch.py``) knows of one (architecture, wave size), all derived from the
scalar decoder: the class table (first-dword selector -> entry), per-entry plans of cut operands, the
operand-text pool and the %-format templates.

* Class table: the bits that choose a decode class and opcode (``FastPath.sel_mask``, per 9-bit prefix)
  index a dense table of entry ids, filled by the scalar class chooser the first time a selector is met.
* Entry rows: per entry a plan cuts out the operands whose text depends on their own field value alone
  (registers, plain sources, immediates); the rest of the word keys a template.  Fields with reserved
  values stay in the key (the scalar renderer alone decides on them) -- except, in tables made by
  ``batch_data.py``, a register field whose every value was rendered by the scalar renderer at
  generation time (its valid values are then a table like any operand's).
* Operand-text pool: value -> text per kind of operand (filled from the scalar operand printer for the
  values met, or ``operands.reg_text`` for registers whose class and count the template's render showed).
* Templates: keyed by an entry and the bits of the word that are not cut operand values (opcode,
  modifiers, reserved-value fields, the literal of a fixed-literal form), made by rendering one
  instruction with the scalar renderer and putting placeholders where the cut operands' texts are.

One ``ArchBatch`` per (architecture, wave size) per process, shared by its decoders under a lock.  The
precomputed tables of ``batch_data.py`` (when current) seed it so that a fresh process does not derive
them again.
"""

from __future__ import annotations

import bisect
import threading

import numpy as np

from . import operands as opd
from .syntax import join

_NO_TEMPLATE = ("EXP", "VEXPORT")
_SIMPLE_KINDS = ("vreg", "src", "ssrc", "imm")
MAXC = 8  # cut operands per entry at most
_WIDE = 16  # cut fields wider than this stay in the template key
M1 = np.uint64(0x9E3779B97F4A7C15)
M2 = np.uint64(0xC2B2AE3D27D4EB4F)
M3 = np.uint64(0x165667B19E3779F9)
_U64 = np.uint64
_TSLOT_BITS = 18
SLOT_BITS = 20  # the stream's table of distinct words
# field values whose operand texts tell apart operands that print differently (registers, specials,
# inline constants, the literal marker, VGPRs above 128, large immediates)
_PROBES = (1, 65, 106, 125, 129, 200, 242, 248, 254, 255, 300, 400, 1000, 40000)


class ArchBatch:
    """Per (architecture, wave size): class table, entry plans, operand-text pool, templates."""

    def __init__(self, dec, cut_reserved: bool = False):
        self.dec = dec
        self.cut_reserved = cut_reserved  # probe reserved-value register fields (``batch_data.py`` generation)
        self.precomputed = "not loaded"  # or "loaded", or why the precomputed tables were not used
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
        self.seg_info: list = []  # per segment: what ``batch_data.py`` needs to store it
        # templates: tid 0 = none (the scalar path decides)
        self.tpl_ids: dict = {}
        self.tpl_fmt: list = [""]
        self.tpl_nph: list = [0]
        self.slot_table = np.zeros(1 << SLOT_BITS, dtype=np.int32)
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
        reserved = set(plan.get("bad", {}))
        busy = set(plan.get("mods", {})) | set(plan.get("tmpl", {})) | {"FORMAT", "DFMT", "NFMT"}
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
        if not self.cut_reserved:
            busy |= reserved
        busy |= {sp.get("f") for sp in plan["ops"] if sp.get("f") in reserved and (sp.get("k") != "vreg" or "note" in sp)}
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
                if f in reserved:  # its valid values, as the scalar renderer says
                    every = self._reserved_segment(entry, plan, k, lo, w)
                    if every is None:
                        continue
                else:
                    every = self._segment(("any", w), 1 << w, None, ([""] * (1 << w), np.ones(1 << w, bool)),
                                          info=["any", w])
                slots.append((k, lo, w, True, spec.get("c", "v"), every))
            else:
                if "acc" in spec:
                    continue
                sig = self._alone_sig(entry, plan, k, spec, w)
                if not any(sig[-len(_PROBES):]):
                    continue  # the operand printer never prints this operand alone: the field stays in the key
                compute = (lambda v, e=entry, k=k: dec._operand_alone(e, k, v))
                slots.append((k, lo, w, False, None, self._segment(sig, 1 << w, compute,
                                                                   info=["alone", entry.name, entry.encoding, k, w])))
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
            every = self._segment(("any", 8), 256, None, ([""] * 256, np.ones(256, bool)), info=["any", 8])
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
    def _reserved_segment(self, entry, plan, k, lo, w):
        """Pool segment of a register field with reserved values: valid (text "") where the scalar renderer,
        given the plan's word with this field set to the value, prints operand ``k`` as the plain register."""
        if w > 8:
            return None
        spec = plan["ops"][k]
        ok = np.zeros(1 << w, bool)
        word0 = plan["w"] & ~(((1 << w) - 1) << lo)
        pad = b"\0" * 8
        for v in range(1 << w):
            parts: list = []
            d = self.dec._render(entry, word0 | v << lo, (word0 | v << lo).to_bytes(entry.width // 8, "little") + pad,
                                 0, parts)
            ok[v] = d.valid and bool(parts) and parts[0][k] == opd.reg_text(spec.get("c", "v"), v, spec["n"])
        key = ("reserved", w, ok.tobytes())
        return self._segment(key, 1 << w, None, ([""] * (1 << w), ok), info=["ok", w, ok.nonzero()[0].tolist()])

    def _segment(self, key, size: int, compute, eager=None, info=None) -> int:
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
        self.seg_info.append(info)
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
        return self._segment(key, 1 << w, None, ([opd.reg_text(cls, v, n) for v in range(1 << w)], ok),
                             info=["reg", cls, n, w])

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
                h = (key * int(M1) ^ key3 * int(M2) ^ eid * int(M3)) & 0xFFFFFFFFFFFFFFFF  # as numpy computes it
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
