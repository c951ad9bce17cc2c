"""GFX9 (CDNA1-3) specifics of LLVM's syntax learned from llvm-mc-22 at generation time (called by
``regen/named.py``; what the tables are and how the decoder applies them: ``codec/gfx9.py``).

    python -m gpuisa.regen.named cdna1 cdna2 cdna3   # calls ``probe_named`` for GFX9 architectures
"""

from __future__ import annotations

from .. import archs
from ..codec.decoded import sendmsg_text
from ..codec.plans import load_plans
from ..codec.syntax import split_operands
from ..codec.tables import load_arch_tables

# -- register-class tables ----------------------------------------------------------------------
SIGNATURE_TRIAL = (4, 102, 124, 125, 126, 129, 235, 254, 255, 266, 511)  # SGPRs, specials, 1, literal, v10, v255


def _set(enc, word: int, fname: str, v: int) -> int:
    f = enc.field(fname)
    return f.insert(word, v)


def _token(r, size: int, k: int) -> str | None:
    from ..codec import oracle

    if r and r[0].text == oracle.CRASHED:
        return "{}"  # llvm-mc-22 crashes on this value: nothing to learn, our own text is printed
    text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size >= size else None
    ops = split_operands(text)[0] if text else []
    return ops[k] if k < len(ops) else None


def probe_src_tables(arch_name: str) -> dict:
    """{"tables": [a token per field value], "ops": {plan key: {"k" or "k" + "a" (AGPR bit set): table index}}}
    for the 8- and 9-bit register/source fields of the plans."""
    from ..codec import oracle
    from ..codec.decoder import operand_type

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).mc_target
    plans = load_plans(arch_name)
    jobs = []  # (key, k, acc, base word)
    for key, plan in sorted(plans.items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.width > 64:
            continue
        for k, spec in enumerate(plan.operands):
            f = enc.field(spec.field)
            if spec.kind not in ("src", "ssrc") or f is None or spec.scale != 1 or not (
                    f.width in (8, 9) or (f.width == 7 and enc.name == "SMEM")):  # SMEM's SDATA: 7 bits
                continue
            jobs.append((key, k, False, plan.word))
            if spec.acc is not None:
                a = spec.acc
                jobs.append((key, k, True, _set(enc, plan.word, a[0], enc.require_field(a[0]).extract(plan.word) | a[1])))
    words: list[bytes | None] = []
    for key, k, _, w in jobs:
        enc = t.encodings[key.split("|")[1]]
        f = enc.require_field(plans[key].operands[k].field)
        words += [None if enc.width == 64 and v & ((1 << f.width) - 1) == 255 else  # the literal marker in a
                  _set(enc, w, f.name, v & ((1 << f.width) - 1)).to_bytes(enc.width // 8, "little")  # 64-bit word:
                  for v in SIGNATURE_TRIAL]  # rejected (GFX9 has no VOP3 literal), and it crashes llvm-mc-22
    run = [x for x in words if x is not None]
    it = iter(oracle.disassemble(target, run))
    got = [[] if x is None else next(it) for x in words]
    n = len(SIGNATURE_TRIAL)
    groups: dict[tuple, list] = {}
    for i, job in enumerate(jobs):
        enc = t.encodings[job[0].split("|")[1]]
        top = 1 << enc.require_field(plans[job[0]].operands[job[1]].field).width
        trial = [(v, _token(r, enc.width // 8, job[1])) for v, r in zip(SIGNATURE_TRIAL, got[n * i:n * i + n]) if v < top]
        shown = tuple(x for _, x in trial)
        # an LLVM comment, or a rejected value other than the literal (GFX9 VOP3 has none; already known)
        if any((x is None and v != 255) or (x is not None and "/*" in x) for v, x in trial):
            groups.setdefault((shown, operand_type(job[0].split("|")[0])), []).append(job)
    tables: list[list] = []
    out: dict = {}
    crashing: dict[str, set[int]] = {}  # per encoding, the values llvm-mc crashed on so far
    for members in groups.values():
        key, k, acc, w = members[0]
        enc = t.encodings[key.split("|")[1]]
        f = plans[key].operands[k].field
        size = 1 << enc.require_field(f).width
        values = [_set(enc, w, f, v).to_bytes(enc.width // 8, "little") for v in range(size)]
        # values llvm-mc-22 crashed on in a group of the same encoding are not run again (a crash costs two
        # more runs): they keep their crash (our own text is printed for them, as before)
        known = crashing.setdefault(enc.name, set())
        rest = [v for v in range(size) if v not in known and not (enc.width == 64 and v & 0xFF == 255 and v < 256)]
        by_value = dict(zip(rest, oracle.disassemble(target, [values[v] for v in rest])))
        by_value.update({v: [oracle.OracleItem(0, oracle.CRASHED, 4)] for v in known if v < size})
        by_value.update({v: [] for v in range(size) if v not in by_value})  # (the literal marker: rejected)
        known.update(v for v, r in by_value.items() if r and r[0].text == oracle.CRASHED)
        toks = [_token(by_value[v], enc.width // 8, k) for v in range(size)]
        if size > 255:  # the literal's own text depends on the bytes after the word: keep only LLVM's comment
            lit = toks[255]
            toks[255] = None if lit is None else "{}" + (lit[lit.index("/*"):] if "/*" in lit else "")
        if toks not in tables:
            tables.append(toks)
        for key, k, acc, _ in members:
            out.setdefault(key, {})[str(k) + ("a" if acc else "")] = tables.index(toks)
    return {"tables": tables, "ops": out}


# -- DPP16 ----------------------------------------------------------------------------------------
DPP_TAIL = " row_mask:0xf bank_mask:0xf"


# dpp_ctrl values whose texts tell instructions' dpp_ctrl tables apart (quad_perm, row_shl:1, wave_shl:1,
# row_mirror, row_bcast:15, row_newbcast:0 (gfx90a+), an undefined value); the first that prints without
# a comment is used to learn the source modifiers
CTRL_SENTINELS = (0xE4, 0x101, 0x130, 0x140, 0x142, 0x150, 0x160, 0x0)
_SRC = 4  # the probes' src0 VGPR: even, so the 64-bit forms (gfx90a+: aligned pairs, row_newbcast DPP) are read too


def dpp_word(src: int, ctrl: int, mods: int = 0, row: int = 0xF, bank: int = 0xF) -> int:
    """The DPP dword: src0 VGPR, dpp_ctrl, the four source modifier bits (20..23), bank and row masks."""
    return src | (ctrl << 8) | (mods << 20) | (bank << 24) | (row << 28)


def _template(base: str, new: str) -> str | None:
    i = new.find(base)
    return None if i < 0 else new[:i] + "{}" + new[i + len(base):]


def _ctrl_of(text: str | None, head: str) -> str | None:
    """The dpp_ctrl text of a DPP form printed as ``head`` + ctrl + the masks probed (None if another shape)."""
    if not text or not text.startswith(head + " ") or not text.endswith(DPP_TAIL):
        return None
    return text[len(head) + 1:-len(DPP_TAIL)] or None


def probe_dpp(arch_name: str) -> dict:
    """{"mn": {key: DPP mnemonic}, "ctrl": [dpp_ctrl tables: text per value (None: rejected)], "ctrl_of":
    {key: table index}, "tables": [per modifier-bit combination: operand templates or None], "mods":
    {key: index into "tables"}}; the first dword's other fields print as in the 32-bit form."""
    from ..codec import oracle
    from ..codec.decoder import Decoder

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).mc_target
    dec = Decoder(arch_name)
    keys, firsts, wants = [], [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name not in ("VOP1", "VOP2", "VOPC") or enc.field("SRC0") is None:
            continue
        w = _set(enc, plan.word, "SRC0", 256 + _SRC)
        mine = dec._decode_slow(w.to_bytes(4, "little") + b"\0" * 8, 0)
        if not mine.valid or len(mine.data) != 4:
            continue
        keys.append(key)
        firsts.append(_set(enc, plan.word, "SRC0", 0xFA).to_bytes(4, "little"))
        wants.append(mine.text)
    n = len(CTRL_SENTINELS)
    got = oracle.disassemble(target, [w + dpp_word(_SRC, c).to_bytes(4, "little") for w in firsts for c in CTRL_SENTINELS])
    heads: dict[str, tuple[str, int, int]] = {}
    groups: dict[tuple[str | None, ...], list[str]] = {}
    for i, (key, want) in enumerate(zip(keys, wants)):
        texts = [r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None for r in got[n * i:n * i + n]]
        m = next((x.split()[0] for x in texts if x), None)
        if m is None or not m.endswith("_dpp"):
            continue
        assert want is not None  # a valid decode has a text
        head = m + want[len(want.split()[0]):]
        sig = tuple(_ctrl_of(x, head) for x in texts)
        clean = next((c for c, x in zip(CTRL_SENTINELS, sig) if x and "/*" not in x), None)
        if clean is None:
            continue
        heads[key] = (head, clean, i)
        groups.setdefault(sig, []).append(key)
    ctrl: list[list[str | None]] = []
    ctrl_of: dict[str, int] = {}
    for members in groups.values():
        head, _, i = heads[members[0]]
        rows = oracle.disassemble(target, [firsts[i] + dpp_word(_SRC, c).to_bytes(4, "little") for c in range(512)])
        table = [_ctrl_of(r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None, head) for r in rows]
        if table not in ctrl:
            ctrl.append(table)
        for key in members:
            ctrl_of[key] = ctrl.index(table)
    order = sorted(heads)
    words = [firsts[heads[k][2]] + dpp_word(_SRC, heads[k][1], m).to_bytes(4, "little") for k in order for m in range(16)]
    got = oracle.disassemble(target, words)
    mn, mods, tables = {}, {}, []
    for j, key in enumerate(order):
        head, clean = heads[key][0], heads[key][1]
        shown = ctrl[ctrl_of[key]][clean]
        assert shown is not None  # the form's own dpp_ctrl text was read from this table
        tail = " " + shown + DPP_TAIL
        texts = [r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None for r in got[16 * j:16 * j + 16]]
        base_ops = split_operands(head)[0]
        per_value: list[list[str | None] | None] = []
        for text in texts:
            ops = split_operands(text[:-len(tail)])[0] if text and text.endswith(tail) else None
            tps = [_template(b, o) for b, o in zip(base_ops, ops)] if ops and len(ops) == len(base_ops) else None
            per_value.append(None if tps is None or None in tps else tps)
        if per_value[0] != ["{}"] * len(base_ops):
            continue
        if per_value not in tables:
            tables.append(per_value)
        mn[key] = head.split()[0]
        mods[key] = tables.index(per_value)
    return {"mn": mn, "ctrl": ctrl, "ctrl_of": {k: v for k, v in ctrl_of.items() if k in mn},
            "tables": tables, "mods": mods}


# -- loads into LDS ---------------------------------------------------------------------------------
LDS_ENCODINGS = ("MUBUF", "FLAT", "GLOBAL", "SCRATCH")


def probe_lds_forms(arch_name: str) -> dict:
    """Loads whose ``lds`` bit makes LLVM leave out the data register: {key: {"f": the bit's field,
    "drop": the operand left out, "zero": one-bit fields LLVM rejects set together with it}}."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    jobs, words = [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name not in LDS_ENCODINGS:
            continue
        lds = next((f for f, m in plan.modifiers.items() if (m.tokens or {}).get("1", [[]])[0] == ["lds"]), None)
        if lds is None:
            continue
        w = _set(enc, plan.word, lds, 1)
        others = [f.name for f in enc.fields if f.width == 1 and f.value is None and f.name != lds]
        jobs.append((key, lds, others))
        words += [w.to_bytes(8, "little")] + [_set(enc, w, f, 1).to_bytes(8, "little") for f in others]
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    out, i = {}, 0
    for key, lds, others in jobs:
        rows = got[i:i + 1 + len(others)]
        i += 1 + len(others)
        ok = [bool(r) and r[0].offset == 0 and r[0].text is not None and r[0].size == 8 for r in rows]
        first = rows[0][0].text if ok[0] else None
        if first is None:
            continue
        base = split_operands(load_plans(arch_name)[key].mnemonic + " " + ", ".join(
            sp.text for sp in load_plans(arch_name)[key].operands))[0]
        ops = split_operands(first)[0]
        drop = next((k for k in range(len(base)) if len(ops) == len(base) - 1 and
                     [x for j, x in enumerate(base) if j != k] == ops), None)
        if drop is None:
            continue
        out[key] = {"f": lds, "drop": drop, "zero": [f for f, good in zip(others, ok[1:]) if not good]}
    return out


def probe_no_literal(arch_name: str) -> dict:
    """Sources where LLVM rejects the literal marker (255) in a word it accepts with the plan's value (the
    buffer offset SOFFSET of MUBUF/MTBUF, VOP3 sources): {key: [field]}."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).mc_target
    jobs, words = [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.width > 64:
            continue
        for spec in plan.operands:
            f = enc.field(spec.field)
            if spec.kind in ("src", "ssrc") and f is not None and f.width >= 8 and spec.scale == 1:
                jobs.append((key, f.name))
                words += [plan.word.to_bytes(enc.width // 8, "little"),
                          _set(enc, plan.word, f.name, 255).to_bytes(enc.width // 8, "little")]
    # llvm-mc-22 crashes on the literal marker in a GFX9 VOP3 word instead of rejecting it (a crash counts as
    # a rejection): three words per (encoding, field) first, and where all three crash the others of its group
    # are not run (each crash costs two more llvm-mc runs); one crash alone condemns no group (gfx950's
    # v_accvgpr_mov_b32 crashes on a literal where every other VOP1 takes one)
    leads: dict[tuple[str, str], list[int]] = {}
    for i, (key, fname) in enumerate(jobs):
        got_ = leads.setdefault((key.split("|")[1], fname), [])
        if len(got_) < 3:
            got_.append(i)
    lead = sorted(i for v in leads.values() for i in v)
    got_lead = dict(zip(lead, oracle.disassemble(target, [words[2 * i + 1] for i in lead])))
    crashes = {g for g, ix in leads.items() if all(got_lead[i] and got_lead[i][0].text == oracle.CRASHED for i in ix)}
    run = [j for j in range(len(words)) if j % 2 == 0 or (jobs[j // 2][0].split("|")[1], jobs[j // 2][1]) not in crashes]
    it = iter(oracle.disassemble(target, [words[j] for j in run]))
    got = {j: next(it) for j in run}
    out: dict = {}
    for i, (key, fname) in enumerate(jobs):
        base, lit = got[2 * i], got.get(2 * i + 1, [OracleCrash])
        if base and base[0].offset == 0 and base[0].text not in (None, oracle.CRASHED) and lit and \
                lit[0].text in (None, oracle.CRASHED):
            out.setdefault(key, []).append(fname)
    return out


class _Crashed:
    text = "<llvm-mc crashed>"
    offset = 0


OracleCrash = _Crashed()


def probe_scalar_operands(arch_name: str) -> dict:
    """{"sendmsg": {mnemonic: {"low": {value: text}, "keep": [low values]}}, "gpr_idx": [text per SSRC1 value]}:
    every SIMM16 value of s_sendmsg/s_sendmsghalt and every mode value of s_set_gpr_idx_on, probed."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).mc_target
    out: dict = {"sendmsg": {}}
    for mn in ("s_sendmsg", "s_sendmsghalt"):
        key = f"{mn}|SOPP"
        if key not in plans:
            continue
        enc = t.encodings["SOPP"]
        words = [_set(enc, plans[key].word, "SIMM16", v).to_bytes(4, "little") for v in range(65536)]
        texts = [r[0].text if r and r[0].offset == 0 else None for r in oracle.disassemble(target, words)]
        ops = [x.split(" ", 1)[1] if x and " " in x else None for x in texts]
        low = {str(v): ops[v] for v in range(1024) if ops[v] != str(v)}
        keep = [v for v in range(1024) if ops[v] != str(v) and all(ops[v | h << 10] == ops[v] for h in range(1, 64))]
        table = {"low": low, "keep": keep}
        if all(sendmsg_text(table, v) == ops[v] for v in range(65536)):  # the compact form is exact
            out["sendmsg"][mn] = table
    key = "s_set_gpr_idx_on|SOPC"
    if key in plans:
        enc = t.encodings["SOPC"]
        words = [_set(enc, plans[key].word, "SSRC1", v).to_bytes(4, "little") for v in range(256)]
        out["gpr_idx"] = [split_operands(r[0].text)[0][1] if r and r[0].offset == 0 and r[0].text else None
                          for r in oracle.disassemble(target, words)]
    return out


def probe_named(arch_name: str) -> dict:
    """The GFX9 tables ``named.py`` stores for an architecture."""
    return {"src_tables": probe_src_tables(arch_name), "dpp_gfx9": probe_dpp(arch_name),
            "lds_forms": probe_lds_forms(arch_name), "no_literal": probe_no_literal(arch_name),
            **probe_scalar_operands(arch_name)}
