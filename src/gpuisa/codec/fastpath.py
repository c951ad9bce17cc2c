"""Fast decoding: caches and compiled print plans in front of the generic renderer.

Three layers, each falling back to the one below it and filling itself from it:

* ``pick``: first dword -> (entry, width) of the decode class it selects (the class test and the
  opcode lookup depend on the first dword only for every class whose fixed bits and opcode lie in
  it; words of other classes always take the generic path);
* ``done``: whole instruction word -> its text and size (real code repeats words);
* compiled plans: an (instruction, encoding)'s operands whose text depends on their own field
  value alone (registers, plain sources and immediates) are cut out of the word; the rest of the
  word keys a format template rendered once by the generic renderer, and each cut-out operand is
  looked up in a per-operand memo of value -> text.

The generic renderer (``Decoder._render``) stays the single source of truth: every template and
memo entry comes from it, and ``tests/test_codec_fastpath.py`` checks both paths give identical
results on random words.  Bulk input is split into dwords with numpy once.
"""

from __future__ import annotations

import dataclasses

from .tables import Entry

LIMIT = 1 << 20  # entries per cache before it is cleared
_SIMPLE_KINDS = ("vreg", "src", "ssrc", "imm")
_NO_TEMPLATE = ("EXP", "VEXPORT", "MTBUF", "VOPD")


class CompiledPlan:
    """Cut-out operands of one plan: (op index, shift, mask, memo) and the rest-of-word mask."""

    __slots__ = ("cuts", "rest_mask", "templates")

    def __init__(self, cuts, rest_mask):
        self.cuts = cuts
        self.rest_mask = rest_mask
        self.templates: dict[int, tuple | None] = {}


def plan_field_uses(plan) -> tuple[dict[str, int], set[str]]:
    """How many operands read each field, and the fields whose text depends on another operand's
    (accumulator bits, alternative address forms, per-value tables): those cannot be cut out."""
    uses: dict[str, int] = {}
    tied: set[str] = set()
    for spec in plan.operands:
        for fname in (spec.field, spec.imm_if):
            if fname:
                uses[fname] = uses.get(fname, 0) + 1
        if spec.acc is not None:
            tied.add(spec.acc[0])
        if spec.address_fields:
            tied.add("VADDR")
            tied.update(spec.address_fields)
        tied.update(spec.tables)
    return uses, tied


def compile_plan(dec, entry) -> CompiledPlan | None:
    if entry.encoding in _NO_TEMPLATE:
        return None
    plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
    if plan is None:
        return None
    enc = dec.tables.encodings[entry.encoding]
    uses, tied = plan_field_uses(plan)
    busy = set(plan.rejected) | set(plan.modifiers) | set(plan.templates) | tied
    busy |= set(plan.alternatives)  # a field whose value selects another operand list (SADDR off) keys it
    # operands whose register count depends on other fields: cut too, the count is kept per template
    counted = {c.operand for c in dec.named.counts.get(f"{entry.name}|{entry.encoding}", ())
               if plan.operands[c.operand].kind == "vreg" and plan.operands[c.operand].note is None}
    for c in dec.named.counts.get(f"{entry.name}|{entry.encoding}", ()):
        if c.operand not in counted:
            busy.add(plan.operands[c.operand].field)
    cuts = []
    full = (1 << entry.width) - 1
    rest = full
    for k, spec in enumerate(plan.operands):
        f = spec.field
        if (spec.kind not in _SIMPLE_KINDS or not f or f in busy or uses.get(f) != 1 or spec.acc is not None
                or spec.imm_if or spec.tables or spec.address_fields):
            continue
        fld = enc.field(f)
        if fld is None or len(fld.ranges) != 1:
            continue
        hi, lo = fld.ranges[0]
        # the memo is shared by every operand that prints the same way (same spec, field width, type)
        sig: tuple = (repr(dataclasses.replace(spec, text="", field="")), fld.width,
                      entry.mnemonic if spec.kind in ("src", "ssrc") else None, plan.lo128)
        if spec.kind in ("src", "ssrc"):
            from .decoded import inline_size, operand_type

            sig = sig[:2] + (operand_type(entry.mnemonic), dec._src_note(entry, plan, k), inline_size(entry.name, f, 16))
        if k in counted:
            sig = ("counted", spec.reg_class)
        memo = dec.fast.memos.setdefault(sig, {}) if hasattr(dec, "fast") else {}
        cuts.append((k, lo, (1 << (hi - lo + 1)) - 1, memo, spec.reg_class if k in counted else None))
        rest &= ~(((1 << (hi - lo + 1)) - 1) << lo)
    if not cuts:
        return None
    return CompiledPlan(cuts, rest)


class FastPath:
    def __init__(self, dec):
        self.dec = dec
        self.pick: dict[int, tuple] = {}
        self.done: dict[int, tuple] = {}
        self.compiled: dict[int, CompiledPlan | None] = {}
        self.memos: dict[tuple, dict] = {}
        self.low_only = {id(c): (c.mask >> 32) == 0 and (c.op is None or all(h < 32 for h, _ in c.op.ranges))
                         for c in dec.tables.classes}
        # the bits a first dword's class and opcode are chosen by, per 9-bit prefix: words equal on them choose alike
        self.sel_mask = []
        for bucket in dec.tables.prefix_index:
            m = 0xFF800000
            for c in bucket:
                m |= c.mask & 0xFFFFFFFF
                if c.op is not None:
                    m |= c.op.mask & 0xFFFFFFFF
            self.sel_mask.append(m)
        self.by_sel: dict[int, tuple] = {}

    # -- class selection by the first dword ---------------------------------
    def choose(self, dw: int):
        """(entry, width) for a first dword, or None where the generic path must decide."""
        got = self.pick.get(dw)
        if got is not None:
            return got
        sel = dw & self.sel_mask[dw >> 23]
        res = self.by_sel.get(sel)
        if res is None:
            res = self.by_sel[sel] = self._choose(dw)
        if len(self.pick) > LIMIT:
            self.pick.clear()
        self.pick[dw] = res
        return res

    def _choose(self, dw: int):
        res: tuple[Entry, int] | bool = False  # False: no class decodes the word on the fast path
        for dc in self.dec.tables.prefix_index[dw >> 23]:
            if dw & dc.mask & 0xFFFFFFFF != dc.value & 0xFFFFFFFF:
                continue  # (its first dword already rules the class out, whatever the second says)
            if not self.low_only[id(dc)]:
                res = False
                break
            entry = dc.entries.get(dc.op.extract(dw) if dc.op is not None else -1)
            if entry is None:
                continue
            res = (entry, dc.width)
            break
        return res

    # -- one instruction ------------------------------------------------------
    def text_of(self, entry, width: int, word: int, buf, off: int):
        """(text, size, error) of the instruction ``word`` at ``off`` (literal read from ``buf``)."""
        got = self.done.get(word)
        if got is not None and got[0] is not None:
            return got
        if got is None:
            if id(entry) in self.compiled:
                cp = self.compiled[id(entry)]
            else:
                cp = self.compiled[id(entry)] = None if f"{entry.name}|{entry.encoding}" in self.dec.opsel_fake16 \
                    else compile_plan(self.dec, entry)  # (a form whose op_sel bits may switch its syntax: rendered)
            if cp is not None:
                res = self._templated(cp, entry, word, buf, off)
                if res is not None:
                    self._keep(word, res)
                    return res
        # generic path (literals included: the literal is not part of the cache key)
        d = self.dec._render(entry, word, buf, off)
        size = len(d.data) if d.valid else 4
        res = (d.text, size, d.error)
        if d.valid and size == width // 8:
            self._keep(word, res)
        elif got is None:
            self._keep(word, (None, 0, None))  # marker: this word needs the generic path
        return res

    def _keep(self, word, res):
        if len(self.done) > LIMIT:
            self.done.clear()
        self.done[word] = res

    def _templated(self, cp: CompiledPlan, entry, word: int, buf, off: int):
        key = word & cp.rest_mask
        tp = cp.templates.get(key, 0)
        if tp == 0:
            for k, lo, m, _, cls in cp.cuts:  # a word invalid through a cut operand says nothing of its template
                if cls is None and self.dec._operand_alone(entry, k, (word >> lo) & m) is False:
                    return None
            tp = cp.templates[key] = self._template(cp, entry, word, buf, off)
        if tp is None:
            return None
        assert isinstance(tp, tuple)  # 0 marks "not made yet" only until the line above
        vals = []
        for (k, lo, m, memo, cls), n in zip(cp.cuts, tp[2]):
            v = (word >> lo) & m
            if cls is None:
                t = memo.get(v)
                if t is None:
                    t = memo[v] = self.dec._operand_alone(entry, k, v)
            else:
                t = memo.get((v, n))
                if t is None:
                    t = memo[(v, n)] = False if v + n > 256 else (f"{cls}{v}" if n == 1 else f"{cls}[{v}:{v + n - 1}]")
            if t is False:
                return None
            vals.append(t)
        return (tp[0].format(*vals), tp[1], None)

    def _template(self, cp, entry, word, buf, off):
        from .operands import parse_reg

        parts: list = []
        d = self.dec._render(entry, word, buf, off, parts)
        if not d.valid or len(d.data) != entry.width // 8 or not parts:
            return None
        texts, mods = parts
        texts = [t.replace("{", "{{").replace("}", "}}") for t in texts]
        counts: list[int | None] = []
        for j, (k, lo, m, _, cls) in enumerate(cp.cuts):
            v = (word >> lo) & m
            if cls is not None:
                r = parse_reg(texts[k])
                if r is None or r[0] != cls or r[1] != v:
                    return None
                texts[k] = "{%d}" % j
                counts.append(r[2])
                continue
            base = self.dec._operand_alone(entry, k, v)
            if base is False:
                return None
            counts.append(None)
            i = texts[k].find(base.replace("{", "{{").replace("}", "}}"))
            if i < 0 or len(texts[k]) - len(base) > 8:
                return None
            texts[k] = texts[k][:i] + "{%d}" % j + texts[k][i + len(base):]
        from .syntax import join

        fmt = join(self.dec.plans[f"{entry.name}|{entry.encoding}"].mnemonic, texts,
                   [x.replace("{", "{{").replace("}", "}}") for x in mods])
        if len(cp.templates) > LIMIT:
            cp.templates.clear()
        return fmt, entry.width // 8, counts



def dwords(data: bytes) -> list[int]:
    """The buffer's little-endian dwords (numpy does the conversion in one pass; imported here, not with the
    decoder: a process that decodes a few words, as the C listing's scalar questions, does without it)."""
    import numpy as np

    n = len(data) // 4
    return np.frombuffer(data, dtype="<u4", count=n).tolist() if n else []
