"""Templates of the modifier values compilers set, for the C accelerator's base tables (``regen/accel.py``).

The batch tables hold the template of each form's plan word (its modifiers at their defaults) and of the
encoder's example words; a word whose template key (the bits no placeholder cuts: modifiers, cache bits, ...)
differs from those goes to the scalar decoder on a first run.  Seeded here, on the plan word: every value of a
vector form's NEG and OP_SEL_HI fields (``v_fma_f32 v6, -v4, v3, v2``; packed math and ``v_accvgpr_write_b32 a0, s4``
with OP_SEL_HI at all ones, the default compilers write, with each NEG value too), and of the other forms' one-bit
fields of the key alone and in pairs (``glc``, ``offen``, ``sc0 sc1``, ``glc dlc``).  Not multiplied with the
SADDR values a memory word's key also holds, nor other vector modifiers (ABS, OMOD, OP_SEL): the file would double
in size.  Each template is the batch decoder's, made from one scalar render and checked as every template is
(``batch_arch._template``); values that render otherwise give none.
"""

from __future__ import annotations

import itertools

_SMALL = 3  # bits of a modifier field whose every value is seeded
_PAIR_BITS = 4  # two fields whose widths sum to at most this many bits: every pair of values is seeded
_SADDR_SEEDS = (*range(0, 32, 2), 0x7C, 0x7D, 0x7E, 0x7F)  # (as ``regen/accel.seed_saddr``)
_VECTOR = ("NEG", "OP_SEL_HI")  # (the vector forms' modifier fields seeded)
_NOT_SEEDED = ("MIMG", "IMAGE", "VSAMPLE")  # (image forms: their one-bit fields' pairs were 60 % of the seeds, for
# words compute kernels seldom hold; every template costs a first run's load of the file)


def _small_fields(dec, ab, eid: int, key_mask: int) -> list:
    """The fields of entry ``eid``'s encoding in its template key of at most ``_SMALL`` bits that are seeded (a vector
    form's ``_VECTOR``, the others' one-bit ones), by name."""
    entry = ab.entries[eid]
    enc = dec.tables.encodings.get(entry.encoding)
    if enc is None:
        return []
    out = []
    for f in sorted(enc.fields, key=lambda f: f.name):
        wanted = f.name in _VECTOR if entry.encoding.startswith("VOP") else f.width == 1 and len(f.ranges) == 1
        if wanted and f.value is None and f.width <= _SMALL \
                and f.insert(0, (1 << f.width) - 1) & key_mask:
            out.append(f)
    return out


def _variants(word: int, fields: list) -> list[int]:
    """``word`` with each field of ``fields`` at each other value, and with each pair of small ones at each pair."""
    out = []
    for f in fields:
        out += [f.insert(word, v) for v in range(1 << f.width)]
    for f, g in itertools.combinations(fields, 2):
        if f.width + g.width <= _PAIR_BITS:
            out += [f.insert(g.insert(word, b), a) for a in range(1, 1 << f.width) for b in range(1, 1 << g.width)]
    return sorted(set(out) - {word})


def seed_modifiers(dec, ab, seeded: int) -> None:
    """Templates of the modifier values (``_variants``) of the entries among the first ``seeded`` (the batch tables'
    own) that have a working template, and are neither dual-issue nor a form reading a literal."""
    from .batch import seed_template

    for eid in range(1, seeded):
        rows = ab.np_rows()
        entry = ab.entries[eid]
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        nd = int(rows[0][eid])
        if plan is None or entry.encoding == "VOPD" or nd * 32 != entry.width or ab.tpl_fails.get(eid) != -1 \
                or any(k in entry.encoding for k in _NOT_SEEDED):
            continue
        key_mask = int(rows[3][eid]) | int(rows[4][eid]) << 64
        fields = _small_fields(dec, ab, eid, key_mask)
        if not fields:
            continue
        size = entry.width // 8
        hi = next((f for f in fields if f.name == "OP_SEL_HI"), None)
        words = _variants(plan.word, fields)
        if hi is not None:  # (and NEG's values where OP_SEL_HI is at all ones: the default compilers write)
            words += _variants(hi.insert(plan.word, (1 << hi.width) - 1), [f for f in fields if f is not hi])
        for word in sorted(set(words)):
            seed_template(ab, rows, eid, word.to_bytes(size, "little"))


_KERNARG_OFFSETS = range(0, 0x100, 4)  # (as ``regen/accel.seed_kernarg_loads``)


def _soffset_texts(dec, entry, word: int, prefix: str, soffset) -> list:
    """The text after ``prefix`` (the line up to the SOFFSET operand) of ``word`` with SOFFSET at each value (None
    where the line is not that prefix and a text, or is no valid instruction of this size)."""
    size = entry.width // 8
    out = []
    for u in range(1 << soffset.width):
        d = dec.decode_at(soffset.insert(word, u).to_bytes(size, "little") + bytes(16), 0)
        ok = d.valid and len(d.data) == size and d.name == entry.name and d.text.startswith(prefix)
        out.append(d.text[len(prefix):] if ok and "%" not in d.text else None)
    return out


def seed_smem_offsets(dec, ab, seeded: int) -> None:
    """GFX10+ ``s_load_*`` at the kernel-argument offsets below 0x100 (``s_load_b128 s[8:11], s[4:5], 0x24``,
    ``s_load_b32 s4, s[0:1], null``): SOFFSET ``null`` prints the offset in its place (or ``null``), which the
    operand's own texts (one text per value, whatever the offset) cannot say.  For each offset, the template of the
    plan word's, up to SOFFSET, with SOFFSET's column read from a segment of its own: each value's text as the scalar
    decoder ends the line with it at that offset (``s5 offset:0x24``, ``0x24``), shared by the forms whose texts are
    the same; where the batch tables have a template of that offset, it is left as it is (but the plan word's own,
    offset 0, which the new one replaces)."""
    import numpy as np

    ab.tpl_free = getattr(ab, "tpl_free", {})
    for eid in range(1, seeded):
        rows = ab.np_rows()
        entry = ab.entries[eid]
        enc = dec.tables.encodings.get(entry.encoding)
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        if enc is None or plan is None or not entry.name.startswith("s_load_") or enc.field("IMM") is not None \
                or int(rows[0][eid]) * 32 != entry.width:
            continue
        off, soff, slots = enc.field("OFFSET") or enc.field("IOFFSET"), enc.field("SOFFSET"), ab.rows[eid][5]
        tid0 = ab.tpl_ids.get((eid, plan.word & int(rows[3][eid]), 0))
        if off is None or soff is None or not tid0 or not slots or slots[-1][1:3] != (soff.ranges[0][1], soff.width) \
                or off.insert(0, (1 << off.width) - 1) & ~int(rows[3][eid]):
            continue
        n = ab.tpl_nph[tid0]
        fmt = ab.tpl_fmt[tid0][:ab.tpl_fmt[tid0].rindex("%s") + 2]  # (the text after SOFFSET is its column's)
        bases = [int(b) for b in ab.tpl_base[tid0, :n]]
        ix = [bases[m] + ((plan.word >> sl[1]) & ((1 << sl[2]) - 1)) for m, sl in enumerate(slots[:-1])]
        ab.fill(np.array(ix))
        if n != len(slots) or "%" in fmt[:-2].replace("%s", "") or not all(ab.pool_ok[x] for x in ix):
            continue
        prefix = fmt[:-2] % tuple(ab.texts(np.array(ix)).tolist())
        for v in _KERNARG_OFFSETS:
            word = off.insert(plan.word, v)
            key = word & int(rows[3][eid])
            if v and ab.tpl_ids.get((eid, key, 0)):
                continue
            texts = _soffset_texts(dec, entry, word, prefix, soff)
            if all(t is None for t in texts):
                continue
            seg = ab._segment(("soffset", tuple(texts)), len(texts), None,
                              ([t or "" for t in texts], np.array([t is not None for t in texts])), info=["soffset", soff.width])
            tid = ab.add_template(eid, key, 0, fmt, bases[:-1] + [seg])
            ab.tpl_free[tid] = 1 << (n - 1)  # (the C loop reads the column from this template's texts alone)


def _unnamed_flags(dec, entry, word: int, key_mask: int) -> list[int]:
    """The bits of the template key no field of the encoding names (gfx1250's ``scale_offset``, bit 48 of a
    VGLOBAL word) with which ``word`` is still a valid instruction of the entry, its text one token longer."""
    enc = dec.tables.encodings[entry.encoding]
    named = 0
    for f in enc.fields:
        named |= f.insert(0, (1 << f.width) - 1) if f.value is None else sum(((1 << (h - lo + 1)) - 1) << lo
                                                                               for h, lo in f.ranges)
    size = entry.width // 8
    base = dec.decode_at(word.to_bytes(size, "little") + bytes(16), 0)
    out = []
    for b in range(entry.width):
        if not (key_mask >> b) & 1 or (named >> b) & 1 or not base.valid:
            continue
        d = dec.decode_at((word | 1 << b).to_bytes(size, "little") + bytes(16), 0)
        if d.valid and len(d.data) == size and d.name == entry.name and d.text.startswith(base.text + " ") \
                and " " not in d.text[len(base.text) + 1:]:
            out.append(b)
    return out


def seed_scaled_saddr(dec, ab, seeded: int) -> None:
    """Templates of the memory words whose SADDR is in the key with each of the key's unnamed one-token flags set
    (``_unnamed_flags``: gfx1250 compilers set ``scale_offset`` on indexed loads, ``global_load_b32 v1, v0, s[10:11]
    scale_offset``) at each SADDR value ``seed_saddr`` seeds."""
    from .batch import seed_template

    for eid in range(1, seeded):
        rows = ab.np_rows()
        entry = ab.entries[eid]
        enc = dec.tables.encodings.get(entry.encoding)
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        key_mask = int(rows[3][eid]) | int(rows[4][eid]) << 64
        saddr = None if enc is None else enc.field("SADDR")
        if plan is None or saddr is None or int(rows[0][eid]) * 32 != entry.width or ab.tpl_fails.get(eid) != -1 \
                or not saddr.insert(0, (1 << saddr.width) - 1) & key_mask:
            continue
        for b in _unnamed_flags(dec, entry, saddr.insert(plan.word, 2), key_mask):
            for v in _SADDR_SEEDS:
                word = saddr.insert(plan.word, v) | 1 << b
                seed_template(ab, rows, eid, word.to_bytes(entry.width // 8, "little"))
