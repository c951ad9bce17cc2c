"""The C accelerator's committed base tables (what the file holds and how it is read: ``codec/accel_base.py``),
one per architecture, made from its batch tables (which must be current: ``--steps batch`` first), and one per RDNA
architecture for wave64 (``accel_<arch>-wave64.bin``), made from the wave64 decoder's batch tables made here.

    python -m gpuisa.regen.accel [--check] [ARCH ...]      (or: python -m gpuisa.regen --steps accel)
"""

from __future__ import annotations

import marshal
import sys
import zlib

from ..codec import accel, accel_export
from ..codec.accel_base import VERSION, base_path, code_fingerprint, header
from .accel_seeds import seed_modifiers, seed_scaled_saddr, seed_smem_offsets
from .batch import seed_template

_FIELDS_AT_MOST = 16  # export shapes enumerated where their named fields have at most this many bits
_SADDR_SEEDS = (*range(0, 32, 2), 0x7C, 0x7D, 0x7E, 0x7F)  # (see ``seed_saddr``)
_ALL_AT_MOST = 2048  # named-field immediates whose every printed form gets a template (s_delay_alu)
# (values of a 16-bit immediate checked against a number format: both ends, the sign bit, a spread between)
_NUMBER_PROBES = sorted({0, 1, 2, 3, 7, 10, 15, 16, 100, 255, 256, 1000, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF}
                        | {i * 1031 % 65536 for i in range(48)})


class StaleBatch(Exception):
    pass


def export_formats(dec) -> dict:
    """The scalar answers no input is needed for: the export encoding's cut and the format of each export shape
    (the named fields' values, the other bits 0) whose text the format gives (``accel.export_format``)."""
    cut = accel.export_cut(dec)
    out: dict = {("cut",): cut}
    if cut is None:
        return out
    size, mask, _ = cut
    enc = next(dec.tables.encodings[n] for n in ("EXP", "VEXPORT") if n in dec.tables.encodings)
    fields = [f for f in enc.fields if f.value is None and f.name not in accel._SOURCES]
    if sum(f.width for f in fields) > _FIELDS_AT_MOST:
        return out
    base = int(enc.fixed_value)
    words = [base]
    for f in fields:
        words = [f.insert(w, v) for w in words for v in range(1 << f.width)]
    for word in sorted(words):
        data = word.to_bytes(size, "little")
        d = dec.decode_at(data + bytes(accel._CONTEXT), 0)
        if not d.valid or len(d.data) != size or getattr(d, "encoding", None) not in ("EXP", "VEXPORT"):
            continue
        fmt = accel.export_format(dec, cut, word, d.text.encode())
        if fmt is not None:
            out[("x", word & ~mask)] = fmt
    return out


def _number_format(dec, ab, eid: int, rows) -> tuple | None:
    """(text before the number, the smallest value printed in hex, the word's high half) of a one-dword entry
    keyed by its whole word whose text is that prefix and its 16-bit immediate (the low half of the word; the
    high half fixed by the entry) as an unsigned number, decimal below that value and ``0x`` hex from it (65536:
    never hex), for every probe value and every value where the style changes, in two contexts; else None."""
    entry = ab.entries[eid]
    if int(rows[0][eid]) != 1 or ab.rows[eid][5] or int(rows[3][eid]) != 0xFFFFFFFF or entry.width != 32:
        return None
    enc = dec.tables.encodings.get(entry.encoding)
    f = None if enc is None else enc.field("SIMM16")
    plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
    if f is None or plan is None or tuple(f.ranges) != ((15, 0),):
        return None
    high = (f.insert(plan.word, 0) & 0xFFFFFFFF) >> 16
    styles: dict[int, tuple] = {}
    for v in _NUMBER_PROBES:
        got = _printed_as(dec, ab, eid, high, v)
        if got is None:
            return None
        styles[v] = got
    prefix = styles[0][0]
    if any(p != prefix for p, _ in styles.values()):
        return None
    lo = max([v for v, (_, h) in styles.items() if not h], default=-1)
    hi = min([v for v, (_, h) in styles.items() if h], default=65536)
    if lo >= hi:
        return None
    while hi - lo > 1:  # (the value where the printing turns to hex, found between the probes)
        mid = (lo + hi) // 2
        got = _printed_as(dec, ab, eid, high, mid)
        if got is None or got[0] != prefix:
            return None
        lo, hi = (lo, mid) if got[1] else (mid, hi)
    return prefix, hi, high


def _printed_as(dec, ab, eid: int, high: int, v: int) -> tuple | None:
    """(text before the number, whether in hex) of the word ``high``:``v`` of entry ``eid``; None where it is
    another entry's, its text is not a prefix and ``v`` or differs between two contexts."""
    import numpy as np

    word = high << 16 | v
    w = word.to_bytes(4, "little")
    if int(ab.classify(np.frombuffer(w + bytes(4), dtype="<u4"))[0]) != eid:
        return None
    a, b = dec.decode_at(w + bytes(12), 0), dec.decode_at(bytes(4) + w + b"\xff" * 12, 4)
    if not (a.valid and b.valid and a.text == b.text and len(a.data) == len(b.data) == 4
            and a.name == ab.entries[eid].name):
        return None
    for is_hex, num in ((False, str(v)), (True, hex(v))):
        if a.text.endswith(" " + num):
            return a.text[:-len(num)], is_hex
    return None


def number_formats(dec, ab) -> dict:
    """``("n16", high half of the word)`` -> ``_number_format`` of every entry that has one (branches, ``s_wait_*cnt``,
    ``s_setprio``, ...): the C loop's whole-word templates of such words are made from it (``accel.Warm.tpl``)."""
    rows = ab.np_rows()
    out = {}
    for eid in range(1, len(ab.entries)):
        got = _number_format(dec, ab, eid, rows)
        if got is not None:
            out[("n16", got[2])] = got[:2]
    return out


def special_values(dec, key: str) -> list[int]:
    """The values of the named-field immediate of plan ``key`` (``s_waitcnt``, ``s_delay_alu``, ...) given a
    template: every printed form where they are few, else the forms of one field, or of two where one of them
    is at 0 (``vmcnt(0) lgkmcnt(0)``): what compilers write most; each as the first value printing it."""
    from ..codec import simm16

    try:
        table = simm16._values(dec.arch, False, key)
    except Exception:  # (a form the encoder's tables do not cover: no seeds)
        return []
    if len(table) <= _ALL_AT_MOST:
        return sorted(table.values())
    return sorted(v for toks, v in table.items() if toks and all("(" in t for t in toks) and
                  (len(toks) == 1 or len(toks) == 2 and any(t.endswith("(0)") for t in toks)))


def number_segments(dec, ab) -> dict:
    """``("n16seg",)`` -> ((start, the smallest value printed in hex), ...) of the operand-text segments of 16-bit
    fields whose text is the value as an unsigned number, decimal below that value and ``0x`` hex from it (a
    branch's offset on GFX9); the C loop's texts of the values the stored ones leave out are made from it
    (``accel.Warm.pool``).  Only segments the batch tables make (their places are the same in every process)."""
    out = []
    for start, info in zip(ab.seg_starts, ab.seg_info):
        if info[0] != "alone" or not isinstance(info[1], int) or info[3] != 16:
            continue  # (["alone", entry index, operand, width, stored texts, ...]: as the batch file has them)
        entry, k = dec.tables.entries[info[1]], info[2]
        styles = {v: _number_text(dec._operand_alone(entry, k, v), v) for v in _NUMBER_PROBES}
        if None in styles.values():
            continue
        lo = max([v for v, h in styles.items() if not h], default=-1)
        hi = min([v for v, h in styles.items() if h], default=65536)
        while lo < hi and hi - lo > 1:
            mid = (lo + hi) // 2
            got = _number_text(dec._operand_alone(entry, k, mid), mid)
            if got is None:
                break
            lo, hi = (lo, mid) if got else (mid, hi)
        else:
            if lo < hi:
                out.append((start, hi))
    return {("n16seg",): tuple(out)} if out else {}


def _number_text(text, v: int) -> bool | None:
    """Whether ``text`` is ``v`` in hex (``0x``), not in decimal; None where it is neither."""
    return False if text == str(v) else True if text == hex(v) else None


_LITERALS = (0x3F820000, 0x12345678, 0xFFFFFFFF, 0xC2F60000, 0x8000)  # (probe values of a form's literal)


def literal_formats(dec, ab) -> dict:
    """``("lit", the template key's first dword)`` -> (format before the literal, format after it, pool bases) of
    the one-dword forms that always read a literal (``v_fmamk_f32``, ``s_movk``-like: the batch tables key the
    template by the literal too, so each new constant is a new template) whose text is the same format with the
    literal in ``0x`` hex for every probe value; the C loop's template of another constant is made from it
    (``accel.Warm.tpl``).  Only bases of segments the batch tables make."""
    import numpy as np

    rows = ab.np_rows()
    out: dict = {}
    seeded = ab.pool_used  # (segments made from here on are this process's)
    for eid in range(1, len(ab.entries)):
        entry = ab.entries[eid]
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        if plan is None or entry.width != 32 or int(rows[0][eid]) != 2 or int(rows[3][eid]) >> 32 != 0xFFFFFFFF:
            continue
        got = None
        for lit in _LITERALS:
            data = (plan.word & 0xFFFFFFFF).to_bytes(4, "little") + lit.to_bytes(4, "little") + bytes(12)
            dws = np.frombuffer(data[:12], dtype="<u4")
            if int(ab.classify(dws[:2])[0]) != eid:
                break
            made = ab._template(eid, int(dws[0]) | int(dws[1]) << 32, data, 0)
            if made is None or made[0].count(hex(lit)) != 1 or max(made[1], default=0) >= seeded:
                break
            before, after = made[0].split(hex(lit))
            if got is not None and got != (before, after, tuple(made[1])):
                break
            got = (before, after, tuple(made[1]))
        else:
            if got is not None:
                out[("lit", plan.word & int(rows[3][eid]) & 0xFFFFFFFF)] = got
    return out


_SOURCE_LITERALS = (0x3FF, 0x4F800000, 0x12345678, 0xFFFFFFEF, 0x80000000, 0x10000, 0x41)  # (none inline)


def literal_columns(dec, ab, seeded: int) -> dict:
    """The spec's ``lit_eid``/``lit_col`` and ``lit2_key``/``lit2_eid``/``lit2_col``: the one-dword entries (among
    the ``seeded`` ones, the batch tables' own, whose ids every process shares), and the two-dword ones (VOP3, not
    dual-issue) at the template key of their plan word (no modifier set: ``neg(0x..)``), with the column whose
    value 255 (the literal marker) the C loop fills with the dword after the word in ``0x`` hex
    (``fastdecode.c``'s ``word_text``; a value an inline constant has goes to the scalar path): where the plan
    word's template with that text is the scalar decoder's line of the word and each probe literal, one dword
    longer (``v_xor_b32_e32 v1, 0x3ff, v2``, ``s_mov_b32 s0, 0x4f800000``, ``v_add3_u32 v3, v3, v2, 0x7fff``); the
    columns as a mask (one of them a literal in a word: two go to the scalar path)."""
    import numpy as np

    rows = ab.np_rows()
    one: tuple[list, list] = ([], [])
    two: tuple[list, list, list] = ([], [], [])
    for eid in range(1, seeded):
        entry, row = ab.entries[eid], ab.rows[eid]
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        dw = int(rows[0][eid])
        if plan is None or entry.encoding == "VOPD" or dw * 32 != entry.width or dw > 2:
            continue
        key = plan.word & int(rows[3][eid])
        tid = ab.tpl_ids.get((eid, key, 0))
        if not tid:
            continue
        mask = sum(1 << j for j, (_, _, w, *_rest) in enumerate(row[5])
                   if j < ab.tpl_nph[tid] and w >= 8 and _literal_text_ok(dec, ab, eid, tid, plan.word, j) is True)
        if mask:
            for out, v in zip(one if dw == 1 else two, (eid, mask) if dw == 1 else (key, 1 << 32 | eid, mask)):
                out.append(v)
    return {"lit_eid": np.array(one[0], np.uint64).tobytes(), "lit_col": np.array(one[1], np.int64).tobytes(),
            "lit2_key": np.array(two[0], np.uint64).tobytes(), "lit2_eid": np.array(two[1], np.uint64).tobytes(),
            "lit2_col": np.array(two[2], np.int64).tobytes()}


def _literal_text_ok(dec, ab, eid: int, tid: int, word: int, j: int) -> bool:
    """Whether the template ``tid`` with column ``j`` the literal in hex is the scalar decoder's line of ``word``
    with the literal marker in that column, for each probe literal."""
    import numpy as np

    slots = ab.rows[eid][5]
    lo, w = slots[j][1], slots[j][2]
    size = ab.entries[eid].width // 8
    word = (word & ~(((1 << w) - 1) << lo) | 255 << lo) & ((1 << 8 * size) - 1)
    ix = [int(ab.tpl_base[tid, m]) + ((word >> slots[m][1]) & ((1 << slots[m][2]) - 1)) for m in range(ab.tpl_nph[tid])]
    ab.fill(np.array(ix))
    if not all(ab.pool_ok[x] for m, x in enumerate(ix) if m != j):
        return False
    texts = [t for t in ab.texts(np.array(ix)).tolist()]
    for lit in _SOURCE_LITERALS:
        texts[j] = hex(lit)
        d = dec.decode_at(word.to_bytes(size, "little") + lit.to_bytes(4, "little") + bytes(16), 0)
        if not d.valid or len(d.data) != size + 4 or d.name != ab.entries[eid].name or d.text != ab.tpl_fmt[tid] % tuple(texts):
            return False
    return True


def seed_special(dec, ab) -> None:
    """Templates of the named-field immediates' common values (``special_values``) in ``ab``."""
    import numpy as np

    from ..codec.simm16 import special_form

    rows = ab.np_rows()
    for key, plan in sorted(dec.plans.items()):
        enc = dec.tables.encodings.get(key.split("|")[1])
        f = None if enc is None else enc.field("SIMM16")
        if f is None or plan.size != 4 or not special_form(plan):
            continue
        for v in special_values(dec, key):
            data = (f.insert(plan.word, v) & 0xFFFFFFFF).to_bytes(4, "little") + bytes(12)
            dws = np.frombuffer(data[:12], dtype="<u4")
            eid = int(ab.classify(dws[:2])[0])
            if eid and int(rows[0][eid]) == 1 and not ab.rows[eid][5]:
                word = int(dws[0])
                ab.template_id(eid, word & int(rows[3][eid]), 0, word, data, 0)


def seed_saddr(dec, ab) -> None:
    """Templates of the plan words of the entries whose SADDR field is in the template key with that field at each
    value that can mean ``off`` (0x7c-0x7f: the 64-bit VGPR address, ``global_load_b32 v2, v[2:3], off``) and at
    the SGPR pairs below s32 (where compilers keep kernel arguments' pointers); values that print otherwise give
    no template."""

    rows = ab.np_rows()
    for eid in range(1, len(ab.entries)):
        entry = ab.entries[eid]
        enc = dec.tables.encodings.get(entry.encoding)
        f = None if enc is None else enc.field("SADDR")
        plan = dec.plans.get(f"{entry.name}|{entry.encoding}")
        key_mask = int(rows[3][eid]) | int(rows[4][eid]) << 64
        if f is None or plan is None or entry.width not in (64, 96) or int(rows[0][eid]) != entry.width // 32 or \
                not (f.insert(0, (1 << f.width) - 1) & key_mask):
            continue
        for v in _SADDR_SEEDS:
            seed_template(ab, rows, eid, f.insert(plan.word, v).to_bytes(entry.width // 8, "little"))


_KERNARG_OFFSETS = range(0, 0x100, 4)  # (see ``seed_kernarg_loads``)


def seed_kernarg_loads(dec, ab) -> None:
    """Templates of ``s_load_*`` at the dword offsets below 0x100 (the kernel arguments every kernel loads first:
    ``s_load_b64 s[0:1], s[4:5], 0x3c``; the offset is in the template key), for each form the batch tables already
    have a template of (SOFFSET and cache bits as they are there, IMM set): GFX9's SMEM only."""
    import numpy as np

    rows = ab.np_rows()
    known = [k for k, tid in sorted(ab.tpl_ids.items()) if tid]
    for eid, key, key3 in known:
        entry = ab.entries[eid]
        enc = dec.tables.encodings.get(entry.encoding)
        f = None if enc is None else enc.field("OFFSET")
        if f is None or not entry.name.startswith("s_load_") or entry.width != 64 or \
                f.insert(0, (1 << f.width) - 1) & ~int(rows[3][eid]):
            continue
        imm = enc.field("IMM")  # (GFX9: the offset is an immediate where IMM is set)
        if imm is None:
            continue  # (GFX10+: the form compilers write has SOFFSET null, which the C loop leaves to the scalar path)
        for v in _KERNARG_OFFSETS:
            word = f.insert(imm.insert(key, 1), v)
            data = word.to_bytes(8, "little") + bytes(12)
            if int(ab.classify(np.frombuffer(data[:8], dtype="<u4"))[0]) == eid:
                ab.template_id(eid, word & int(rows[3][eid]), key3, word, data, 0)


def _batch(arch: str, wave64: bool):
    """(scalar decoder, its batch decoder filled from the batch tables, their fingerprint as the file carries it):
    wave32's from the committed batch file (which must be current), wave64's made here (``regen/batch.generate``)."""
    from ..codec.accel_base import base_fingerprint
    from ..codec.batch_arch import ArchBatch
    from ..codec.batch_data import data_path, fingerprint, load_doc, read_tables, seed
    from ..codec.decoder import Decoder

    dec = Decoder(arch, wave64)
    ab = ArchBatch(dec)
    if not wave64:
        seed(ab)
    elif read_tables(data_path(arch))["fingerprint"] == fingerprint(dec):
        from .batch import generate

        load_doc(ab, generate(arch, wave64=True))
    else:
        ab.precomputed = f"{data_path(arch).name} is stale"
    if ab.precomputed != "loaded":
        raise StaleBatch(f"{arch}: {ab.precomputed}")
    return dec, ab, base_fingerprint(arch, wave64)


def build(arch: str, wave64: bool = False) -> bytes:
    """The file's bytes for ``arch`` (``wave64``: of the wave64 decoder)."""
    dec, ab, batch_fp = _batch(arch, wave64)
    seeded = len(ab.entries)
    answers = export_formats(dec)
    answers.update(number_segments(dec, ab))  # (before the seeds below make segments of their own)
    answers.update(literal_formats(dec, ab))
    failed = {k for k, tid in ab.tpl_ids.items() if not tid}
    seed_special(dec, ab)
    seed_saddr(dec, ab)
    seed_kernarg_loads(dec, ab)
    seed_modifiers(dec, ab, seeded)
    seed_smem_offsets(dec, ab, seeded)
    seed_scaled_saddr(dec, ab, seeded)
    answers.update(number_formats(dec, ab))
    for k in [k for k, tid in ab.tpl_ids.items() if not tid and k not in failed]:
        del ab.tpl_ids[k]  # (a seed that gave no template: the C loop asks, as for any word it has not met)
    spec = accel_export.export(ab, {})
    spec.update(literal_columns(dec, ab, seeded))
    payload = (VERSION, arch, wave64, batch_fp, code_fingerprint(), spec, answers)
    return header(arch, wave64) + zlib.compress(marshal.dumps(payload, 2), 9)


def targets(names: list[str]) -> list[tuple[str, bool]]:
    """(architecture, wave64) of each file to make: wave32 for each of ``names``, wave64 where it has wave64 print
    plans (RDNA)."""
    import os

    from ..codec.accel_base import DATA

    return [(n, w) for n in names for w in (False, True)
            if not w or os.path.exists(os.path.join(DATA, f"plans_{n}_wave64.json"))]


def main(argv: list[str] | None = None) -> int:
    from .. import archs

    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    names = [a for a in argv if a != "--check"] or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    bad = 0
    for name, wave64 in targets(names):
        path = base_path(name, wave64)
        assert path is not None
        try:
            data = build(name, wave64)
        except StaleBatch as exc:
            print(f"regen accel: {exc}", file=sys.stderr)
            return 2
        if check:
            try:
                with open(path, "rb") as fh:
                    same = fh.read() == data
            except OSError:
                same = False
            bad += not same
            print(f"{path}: {'up to date' if same else 'stale: run python -m gpuisa.regen --steps accel'}")
            continue
        with open(path, "wb") as fh:
            fh.write(data)
        print(f"wrote {path} ({len(data):,} bytes)")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
