"""Templates the batch decoder learns by rendering, for words that print from no plan or whose operand
is more than one field: dual-issue (VOPD) words, and GFX12 image address lists.  A candidate register
field is changed and the word rendered again with the scalar renderer; where the field's register text
alone changes, in one place, the template gets a placeholder there.  Nothing here knows how these
instructions print: the positions come from the renders, and each template is checked against one
more render with every such field changed.  (Split from ``batch_arch.py``.)
"""

from __future__ import annotations

import numpy as np

from . import operands as opd


def compile_vopd(ab, entry):
    """Dual-issue words print from learned templates, not plans: their VGPR fields are candidates,
    each tried by rendering (``template_vopd``); VDSTX's low bit (it also picks VDSTY) stays in the key.
    An entry whose plan word renders with a literal (12 bytes) keeps the literal dword in the key."""
    dec = ab.dec
    enc = dec.tables.encodings[entry.encoding]
    plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
    nd = 2
    if plan is not None:
        d = dec._render(entry, plan.word, plan.word.to_bytes(8, "little") + bytes(4), 0)
        nd = 3 if d.valid and len(d.data) == 12 else 2
    slots = []
    rest = (1 << 64) - 1
    for name, low_in_key in (("VDSTX", True), ("VSRCX1", False), ("VSRCY1", False)):
        f = enc.field(name)
        if f is None or len(f.ranges) != 1 or f.ranges[0][0] - f.ranges[0][1] != 7:
            continue
        lo = f.ranges[0][1]
        every = ab._segment(("any", 8), 256, None, (None, np.ones(256, bool)), info=["any", 8])
        slots.append((None, lo, 8, True, "v", every))
        rest &= ~((0xFE if low_in_key else 0xFF) << lo)
    if not slots:
        return None
    return (nd, (1 << 64) - 1, 0xFFFFFFFF if nd == 3 else 0, rest, 0xFFFFFFFF if nd == 3 else 0, slots)

def template_vopd(ab, eid: int, word: int, data: bytes, off: int):
    """(format, pool bases) of a dual-issue word: each candidate field is changed and the word rendered
    again; a field whose VGPR text alone changes, in one place, gets a placeholder there, a field whose
    change leaves the text as it is (unused by the pair) an empty one.  The format is checked against
    a render with every field changed."""
    dec = ab.dec
    entry, (nd, _, _, _, _, slots) = ab.entries[eid], ab.rows[eid]
    word &= (1 << 64) - 1

    def text(w):
        d = dec._render(entry, w, data, off)
        return d.text if d.valid and len(d.data) == 4 * nd else None

    def moved(flip):
        w = word
        for (_, lo, _, _, _, _), sp in zip(slots, spans):
            w ^= flip << lo if sp[2] is not None else 0
        return w

    base = text(word)
    if base is None:
        return None
    spans: list[tuple[int, int, bool | None]] = []  # (start, end, printed: True / False / None must keep)
    for (_, lo, _, _, _, _) in slots:
        v = (word >> lo) & 0xFF
        s0, s1 = opd.reg_text("v", v, 1), opd.reg_text("v", v ^ 0x54, 1)
        other = text(word ^ (0x54 << lo))
        at = spans[-1][1] if spans else 0
        if other == base or other is None:  # not printed (None: and must keep its value)
            spans.append((at, at, False if other == base else None))
            continue
        hits = [i for i in range(len(base)) if base.startswith(s0, i) and
                base[:i] + s1 + base[i + len(s0):] == other]
        if len(hits) != 1 or hits[0] < at:
            return None
        spans.append((hits[0], hits[0] + len(s0), True))
    fmt, at = "", 0
    for a, b, _ in spans:
        fmt += base[at:a].replace("%", "%%") + "%s"
        at = b
    fmt += base[at:].replace("%", "%%")
    if text(moved(0xA8)) != fmt % tuple(opd.reg_text("v", ((word >> lo) & 0xFF) ^ 0xA8, 1) if printed else ""
                                       for (_, lo, _, _, _, _), (_, _, printed) in zip(slots, spans)):
        return None
    return fmt, [ab.reg_segment("v", 1, 8) if printed else slots[j][5] if printed is False else
                 only_segment(ab, (word >> slots[j][1]) & 0xFF) for j, (_, _, printed) in enumerate(spans)]

def only_segment(ab, v: int) -> int:
    """An 8-bit field that must keep the value ``v`` (text "")."""
    ok = np.zeros(256, bool)
    ok[v] = True
    return ab._segment(("reserved", 8, ok.tobytes()), 256, None, (None, ok), info=["ok", 8, [v]])

def learned_operand(ab, entry, word: int, data: bytes, off: int, nd: int, texts: list, mods: list, k: int, group: list):
    """(format, pool bases) of operand ``k`` (a list of registers, one per field of ``group``), learned by
    rendering: each field is changed and the word rendered again; a field whose register (or register
    range) text alone changes, in one place, gets a placeholder there, one whose change leaves the text as it is an empty
    one, one whose change makes the word invalid an empty one that must keep its value.  Checked against
    a render with every printed field changed."""
    dec = ab.dec
    full = (1 << entry.width) - 1

    def parts_of(w):
        p: list = []
        d = dec._render(entry, w & full, data, off, p)
        return p if d.valid and len(d.data) == 4 * nd and p else None

    base_t = texts[k]
    spans: list[tuple[int, int, int | None]] = []  # (start, end, registers; False: not printed, None: kept)
    for (_, lo, _, _, _, _) in group:
        v = (word >> lo) & 0xFF
        at = spans[-1][1] if spans else 0
        p = parts_of(word ^ (0x54 << lo))
        if p is None:
            spans.append((at, at, None))
            continue
        if p[1] != mods or len(p[0]) != len(texts) or any(a != b for i, (a, b) in enumerate(zip(p[0], texts)) if i != k):
            return None
        other = p[0][k]
        if other == base_t:
            spans.append((at, at, False))
            continue
        hits = []
        for n in (1, 2, 3, 4):  # a register, or (the last field) a range of them
            s0, s1 = opd.reg_text("v", v, n), opd.reg_text("v", v ^ 0x54, n)
            hits += [(i, n) for i in range(at, len(base_t)) if base_t.startswith(s0, i) and
                     base_t[:i] + s1 + base_t[i + len(s0):] == other]
        if len(hits) != 1:
            return None
        i, n = hits[0]
        spans.append((i, i + len(opd.reg_text("v", v, n)), n))
    fmt, at = "", 0
    for a, b, _ in spans:
        fmt += base_t[at:a].replace("%", "%%") + "%s"
        at = b
    fmt += base_t[at:].replace("%", "%%")
    moved = word
    for (_, lo, _, _, _, _), (_, _, nregs) in zip(group, spans):
        moved ^= 0xA8 << lo if nregs else 0
    p = parts_of(moved)
    if p is None or p[0][k] != fmt % tuple(opd.reg_text("v", ((word >> sl[1]) & 0xFF) ^ 0xA8, sp[2]) if sp[2] else ""
                                            for sl, sp in zip(group, spans)):
        return None
    return fmt, [ab.reg_segment("v", n, 8) if n else sl[5] if n is False else
                 only_segment(ab, (word >> sl[1]) & 0xFF) for sl, (_, _, n) in zip(group, spans)]
