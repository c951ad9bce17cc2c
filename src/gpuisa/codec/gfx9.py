"""GFX9 (CDNA1-3) specifics of LLVM's syntax, learned from llvm-mc-22 at generation time and applied
when decoding.

    python -m gpuisa.codec.named cdna1 cdna2 cdna3   # calls ``probe_named`` for GFX9 architectures

* DPP16 (src0 = 0xFA, a DPP dword follows): the GFX9 word has the same layout as GFX10's (src0 VGPR,
  dpp_ctrl, bound_ctrl, source neg/abs bits, bank and row masks) but no DPP8 and no fetch-inactive bit;
  which dpp_ctrl values print as what (``row_bcast:15``, ``wave_shr:1``, a comment for values the target
  lacks; the f64 ops of gfx90a+ know row_newbcast only) is probed per group of instructions, and for
  each instruction with a DPP form its mnemonic and how each of the 16 source-modifier bit combinations
  prints (``-v1``, ``|v1|``, ``sext(v1)``, or rejected).
* Register classes: a source LLVM restricts (MFMA's A/B operands are ``AV_32``/``AV_64``, its C operand an
  AGPR or VGPR tuple; ``v_swap_b32``'s source a VGPR; SMEM atomics' data not m0/exec) prints other values
  with an ``Invalid register`` or ``Invalid immediate`` comment.  Each such operand gets a token table
  (one token per field value), probed on one operand per print signature (its tokens for a few trial
  values), separately for an operand's AGPR bit clear and set.  Values on which llvm-mc-22 itself
  crashes print our own text.
* Loads into LDS (the ``lds`` bit of MUBUF/GLOBAL/SCRATCH loads) print without their data register.
* Sources where LLVM rejects a literal (MUBUF/MTBUF SOFFSET, VOP3 sources); 16-bit integer literals.
* Scalar operands: s_waitcnt counters, s_sendmsg message names (a table over the 65536 values, stored
  compactly), s_set_gpr_idx_on / s_set_gpr_idx_mode modes, s_endpgm's immediate.
"""

from __future__ import annotations

from .. import archs
from .plans import load_plans
from .syntax import join, split_operands
from .tables import load_arch_tables

# -- register-class tables ----------------------------------------------------------------------
SIGNATURE_TRIAL = (4, 102, 124, 125, 126, 129, 235, 254, 255, 266, 511)  # SGPRs, specials, 1, literal, v10, v255


def _set(enc, word: int, fname: str, v: int) -> int:
    f = enc.field(fname)
    return f.insert(word, v)


def _token(r, size: int, k: int) -> str | None:
    from . import oracle

    if r and r[0].text == oracle.CRASHED:
        return "{}"  # llvm-mc-22 crashes on this value: nothing to learn, our own text is printed
    text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size >= size else None
    ops = split_operands(text)[0] if text else []
    return ops[k] if k < len(ops) else None


def probe_src_tables(arch_name: str) -> dict:
    """{"tables": [a token per field value], "ops": {plan key: {"k" or "k" + "a" (AGPR bit set): table index}}}
    for the 8- and 9-bit register/source fields of the plans."""
    from . import oracle
    from .decoder import operand_type

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).llvm_target
    plans = load_plans(arch_name)
    jobs = []  # (key, k, acc, base word)
    for key, plan in sorted(plans.items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.width > 64:
            continue
        for k, spec in enumerate(plan["ops"]):
            f = enc.field(spec.get("f", ""))
            if spec.get("k") not in ("src", "ssrc") or f is None or spec.get("s", 1) != 1 or not (
                    f.width in (8, 9) or (f.width == 7 and enc.name == "SMEM")):  # SMEM's SDATA: 7 bits
                continue
            jobs.append((key, k, False, plan["w"]))
            if "acc" in spec:
                a = spec["acc"]
                jobs.append((key, k, True, _set(enc, plan["w"], a[0], enc.field(a[0]).extract(plan["w"]) | a[1])))
    words = []
    for key, k, _, w in jobs:
        enc = t.encodings[key.split("|")[1]]
        f = enc.field(plans[key]["ops"][k]["f"])
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
        top = 1 << enc.field(plans[job[0]]["ops"][job[1]]["f"]).width
        trial = [(v, _token(r, enc.width // 8, job[1])) for v, r in zip(SIGNATURE_TRIAL, got[n * i:n * i + n]) if v < top]
        toks = tuple(x for _, x in trial)
        # an LLVM comment, or a rejected value other than the literal (GFX9 VOP3 has none; already known)
        if any((x is None and v != 255) or (x is not None and "/*" in x) for v, x in trial):
            groups.setdefault((toks, operand_type(job[0].split("|")[0])), []).append(job)
    tables: list[list] = []
    out: dict = {}
    crashing: dict[str, set[int]] = {}  # per encoding, the values llvm-mc crashed on so far
    for members in groups.values():
        key, k, acc, w = members[0]
        enc = t.encodings[key.split("|")[1]]
        f = plans[key]["ops"][k]["f"]
        size = 1 << enc.field(f).width
        words = [_set(enc, w, f, v).to_bytes(enc.width // 8, "little") for v in range(size)]
        # values llvm-mc-22 crashed on in a group of the same encoding are not run again (a crash costs two
        # more runs): they keep their crash (our own text is printed for them, as before)
        known = crashing.setdefault(enc.name, set())
        rest = [v for v in range(size) if v not in known and not (enc.width == 64 and v & 0xFF == 255 and v < 256)]
        got = dict(zip(rest, oracle.disassemble(target, [words[v] for v in rest])))
        got.update({v: [oracle.OracleItem(0, oracle.CRASHED, 4)] for v in known if v < size})
        got.update({v: [] for v in range(size) if v not in got})  # (the literal marker: rejected)
        known.update(v for v, r in got.items() if r and r[0].text == oracle.CRASHED)
        toks = [_token(got[v], enc.width // 8, k) for v in range(size)]
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
    from . import oracle
    from .decoder import Decoder

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).llvm_target
    dec = Decoder(arch_name)
    keys, firsts, wants = [], [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name not in ("VOP1", "VOP2", "VOPC") or enc.field("SRC0") is None:
            continue
        w = _set(enc, plan["w"], "SRC0", 256 + 5)
        mine = dec._decode_slow(w.to_bytes(4, "little") + b"\0" * 8, 0)
        if not mine.valid or len(mine.data) != 4:
            continue
        keys.append(key)
        firsts.append(_set(enc, plan["w"], "SRC0", 0xFA).to_bytes(4, "little"))
        wants.append(mine.text)
    n = len(CTRL_SENTINELS)
    got = oracle.disassemble(target, [w + dpp_word(5, c).to_bytes(4, "little") for w in firsts for c in CTRL_SENTINELS])
    heads, groups = {}, {}
    for i, (key, want) in enumerate(zip(keys, wants)):
        texts = [r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None for r in got[n * i:n * i + n]]
        m = next((x.split()[0] for x in texts if x), None)
        if m is None or not m.endswith("_dpp"):
            continue
        head = m + want[len(want.split()[0]):]
        sig = tuple(_ctrl_of(x, head) for x in texts)
        clean = next((c for c, x in zip(CTRL_SENTINELS, sig) if x and "/*" not in x), None)
        if clean is None:
            continue
        heads[key] = (head, clean, i)
        groups.setdefault(sig, []).append(key)
    ctrl, ctrl_of = [], {}
    for members in groups.values():
        head, _, i = heads[members[0]]
        rows = oracle.disassemble(target, [firsts[i] + dpp_word(5, c).to_bytes(4, "little") for c in range(512)])
        table = [_ctrl_of(r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None, head) for r in rows]
        if table not in ctrl:
            ctrl.append(table)
        for key in members:
            ctrl_of[key] = ctrl.index(table)
    order = sorted(heads)
    words = [firsts[heads[k][2]] + dpp_word(5, heads[k][1], m).to_bytes(4, "little") for k in order for m in range(16)]
    got = oracle.disassemble(target, words)
    mn, mods, tables = {}, {}, []
    for j, key in enumerate(order):
        head, clean = heads[key][0], heads[key][1]
        tail = " " + ctrl[ctrl_of[key]][clean] + DPP_TAIL
        texts = [r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None for r in got[16 * j:16 * j + 16]]
        base_ops = split_operands(head)[0]
        table = []
        for text in texts:
            ops = split_operands(text[:-len(tail)])[0] if text and text.endswith(tail) else None
            tps = [_template(b, o) for b, o in zip(base_ops, ops)] if ops and len(ops) == len(base_ops) else None
            table.append(None if tps is None or None in tps else tps)
        if table[0] != ["{}"] * len(base_ops):
            continue
        if table not in tables:
            tables.append(table)
        mn[key] = head.split()[0]
        mods[key] = tables.index(table)
    return {"mn": mn, "ctrl": ctrl, "ctrl_of": {k: v for k, v in ctrl_of.items() if k in mn},
            "tables": tables, "mods": mods}


def dpp_text(dec, entry, word: int, buf, off: int) -> tuple[str | None, int]:
    """(text, size) of a GFX9 32-bit vector instruction whose src0 is 0xFA (DPP16); (None, 4) if LLVM rejects it."""
    from .special import _dpp_parts

    d = dec.named["dpp_gfx9"]
    key = f"{entry.name}|{entry.encoding}"
    mn = d["mn"].get(key)
    if mn is None and len(buf) - off >= 8 and dec.features.accvgpr_memory:
        return _dp_alu_dpp_text(dec, entry, word, int.from_bytes(buf[off + 4:off + 8], "little"))
    if mn is None or len(buf) - off < 8:
        return None, 4
    dpp = int.from_bytes(buf[off + 4:off + 8], "little")
    tps = d["tables"][d["mods"][key]][(dpp >> 20) & 15]
    ctrl = d["ctrl"][d["ctrl_of"][key]][(dpp >> 8) & 0x1FF]
    got = _dpp_parts(dec, entry, word, dpp & 0xFF) if tps is not None and ctrl is not None else None
    if got is None or len(got[0]) != len(tps):
        return None, 4
    texts = [tp.replace("{}", x) for tp, x in zip(tps, got[0])]
    mods = got[1] + [ctrl, f"row_mask:0x{dpp >> 28:x}", f"bank_mask:0x{(dpp >> 24) & 15:x}"]
    if dpp >> 19 & 1:
        mods.append("bound_ctrl:1")
    return join(mn, texts, mods), 8


def _dp_alu_dpp_text(dec, entry, word: int, dpp: int) -> tuple[str | None, int]:
    """gfx90a+: the DPP form of a VOP1/VOP2 instruction with a 64-bit source (v_fmac_f64, v_ceil_f64,
    v_cvt_i32_f64, v_mov_b64, ...), which the probed ``dpp_gfx9`` table lacks (its probe compares with the e32
    text, whose note on an odd tuple names VS_64_Align2).  As llvm-mc-22 prints them: ``<name>_dpp``, notes
    naming VReg_64_Align2, each source's neg/abs bits (20-23) as ``-|x|``, ``row_newbcast:N`` for dpp_ctrl
    0x150..0x15f and ``/* DP ALU dpp only supports row_newbcast */`` in place of any other dpp_ctrl."""
    from .special import _dpp_parts

    ops = dec.plans.get(f"{entry.name}|{entry.encoding}", {}).get("ops", [])
    if entry.encoding not in ("VOP1", "VOP2") or not any(sp.get("f") == "SRC0" and sp.get("n") == 2 for sp in ops):
        return None, 4
    got = _dpp_parts(dec, entry, word, dpp & 0xFF)
    if got is None or (got[3] is None and dpp >> 22 & 3) or ("_f" not in entry.name and dpp >> 20 & 15):
        return None, 4  # neg/abs bits of a missing src1, or of an integer move (v_mov_b64): rejected
    texts = [x.replace("'VS_64_Align2'", "'VReg_64_Align2'") for x in got[0]]
    for i, bit in ((got[2], 20), (got[3], 22)):
        if i is not None:
            neg, ab = dpp >> bit & 1, dpp >> (bit + 1) & 1
            texts[i] = ("-" if neg else "") + (f"|{texts[i]}|" if ab else texts[i])
    ctrl = (dpp >> 8) & 0x1FF
    mods = got[1] + [f"row_newbcast:{ctrl & 15}" if ctrl >> 4 == 0x15 else "/* DP ALU dpp only supports row_newbcast */",
                     f"row_mask:0x{dpp >> 28:x}", f"bank_mask:0x{(dpp >> 24) & 15:x}"]
    if dpp >> 19 & 1:
        mods.append("bound_ctrl:1")
    return join(entry.name + "_dpp", texts, mods), 8


# -- loads into LDS ---------------------------------------------------------------------------------
LDS_ENCODINGS = ("MUBUF", "FLAT", "GLOBAL", "SCRATCH")


def probe_lds_forms(arch_name: str) -> dict:
    """Loads whose ``lds`` bit makes LLVM leave out the data register: {key: {"f": the bit's field,
    "drop": the operand left out, "zero": one-bit fields LLVM rejects set together with it}}."""
    from . import oracle

    t = load_arch_tables(arch_name)
    jobs, words = [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name not in LDS_ENCODINGS:
            continue
        lds = next((f for f, m in plan.get("mods", {}).items() if m.get("v", {}).get("1", [[]])[0] == ["lds"]), None)
        if lds is None:
            continue
        w = _set(enc, plan["w"], lds, 1)
        others = [f.name for f in enc.fields if f.width == 1 and f.value is None and f.name != lds]
        jobs.append((key, lds, others))
        words += [w.to_bytes(8, "little")] + [_set(enc, w, f, 1).to_bytes(8, "little") for f in others]
    got = oracle.disassemble(archs.by_name(arch_name).llvm_target, words) if words else []
    out, i = {}, 0
    for key, lds, others in jobs:
        rows = got[i:i + 1 + len(others)]
        i += 1 + len(others)
        ok = [bool(r) and r[0].offset == 0 and r[0].text is not None and r[0].size == 8 for r in rows]
        if not ok[0]:
            continue
        base = split_operands(load_plans(arch_name)[key]["m"] + " " + ", ".join(
            sp["t"] for sp in load_plans(arch_name)[key]["ops"]))[0]
        ops = split_operands(rows[0][0].text)[0]
        drop = next((k for k in range(len(base)) if len(ops) == len(base) - 1 and
                     [x for j, x in enumerate(base) if j != k] == ops), None)
        if drop is None:
            continue
        out[key] = {"f": lds, "drop": drop, "zero": [f for f, good in zip(others, ok[1:]) if not good]}
    return out


def lds_plan(dec, key: str, plan: dict, form: dict) -> dict:
    """``plan`` with the data operand left out (marked ``omit``: operand positions stay as in ``plan``)."""
    cache = dec.__dict__.setdefault("_lds_plans", {})
    got = cache.get(key)
    if got is None:
        ops = list(plan["ops"])
        ops[form["drop"]] = {"t": "", "omit": True}
        got = cache[key] = {**plan, "ops": ops}
    return got


def probe_no_literal(arch_name: str) -> dict:
    """Sources where LLVM rejects the literal marker (255) in a word it accepts with the plan's value (the
    buffer offset SOFFSET of MUBUF/MTBUF, VOP3 sources): {key: [field]}."""
    from . import oracle

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).llvm_target
    jobs, words = [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.width > 64:
            continue
        for spec in plan["ops"]:
            f = enc.field(spec.get("f", ""))
            if spec.get("k") in ("src", "ssrc") and f is not None and f.width >= 8 and spec.get("s", 1) == 1:
                jobs.append((key, f.name))
                words += [plan["w"].to_bytes(enc.width // 8, "little"),
                          _set(enc, plan["w"], f.name, 255).to_bytes(enc.width // 8, "little")]
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


def int16_literal_text(lit: int) -> str:
    """A literal read by a 16-bit integer source: decimal when the whole dword is an inline integer
    (-16..64), else its low half in hex (probed with llvm-mc-22 on gfx908 and gfx942: 0x10006 prints 0x6)."""
    if lit <= 64 or lit >= 0xFFFFFFF0:
        return str(lit if lit <= 64 else lit - (1 << 32))
    return f"0x{lit & 0xFFFF:x}"


# -- s_waitcnt, s_sendmsg / s_sendmsghalt, s_set_gpr_idx_on -------------------------------------------
def waitcnt_text(v: int) -> str:
    """s_waitcnt's operand: the counters of the GFX9 SIMM16 layout (vmcnt in bits 3:0 and 15:14, expcnt in
    6:4, lgkmcnt in 11:8); LLVM names those below their maximum, or all three when none is (checked on all
    65536 values with llvm-mc-22 on gfx908 and gfx942)."""
    counters = [("vmcnt", (v & 15) | ((v >> 14) & 3) << 4, 63), ("expcnt", (v >> 4) & 7, 7), ("lgkmcnt", (v >> 8) & 15, 15)]
    shown = [(n, c) for n, c, top in counters if c != top] or [(n, c) for n, c, _ in counters]
    return " ".join(f"{n}({c})" for n, c in shown)


def sendmsg_text(table: dict, v: int) -> str:
    """s_sendmsg's operand from the probed table: the low 10 bits name a message (else the value prints in
    decimal); with higher bits set only the messages in ``keep`` still print by name."""
    low = v & 1023
    if v == low or low in table["keep"]:
        return table["low"].get(str(low), str(v))
    return str(v)


def probe_scalar_operands(arch_name: str) -> dict:
    """{"sendmsg": {mnemonic: {"low": {value: text}, "keep": [low values]}}, "gpr_idx": [text per SSRC1 value]}:
    every SIMM16 value of s_sendmsg/s_sendmsghalt and every mode value of s_set_gpr_idx_on, probed."""
    from . import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).llvm_target
    out: dict = {"sendmsg": {}}
    for mn in ("s_sendmsg", "s_sendmsghalt"):
        key = f"{mn}|SOPP"
        if key not in plans:
            continue
        enc = t.encodings["SOPP"]
        words = [_set(enc, plans[key]["w"], "SIMM16", v).to_bytes(4, "little") for v in range(65536)]
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
        words = [_set(enc, plans[key]["w"], "SSRC1", v).to_bytes(4, "little") for v in range(256)]
        out["gpr_idx"] = [split_operands(r[0].text)[0][1] if r and r[0].offset == 0 and r[0].text else None
                          for r in oracle.disassemble(target, words)]
    return out


SCALAR_TEXT = ("s_waitcnt", "s_sendmsg", "s_sendmsghalt", "s_endpgm")


def scalar_text(dec, name: str, fields: dict) -> str | None:
    """Whole text of the SCALAR_TEXT instructions (None where no table was learned); s_endpgm prints a
    nonzero SIMM16 in decimal (probed on gfx908 and gfx942)."""
    v = fields.get("SIMM16", 0)
    if name == "s_waitcnt":
        return f"{name} {waitcnt_text(v)}"
    if name == "s_endpgm":
        return f"{name} {v}" if v else name
    table = dec.named.get("sendmsg", {}).get(name)
    return None if table is None else f"{name} {sendmsg_text(table, v)}"


def probe_named(arch_name: str) -> dict:
    """The GFX9 tables ``named.py`` stores for an architecture."""
    return {"src_tables": probe_src_tables(arch_name), "dpp_gfx9": probe_dpp(arch_name),
            "lds_forms": probe_lds_forms(arch_name), "no_literal": probe_no_literal(arch_name),
            **probe_scalar_operands(arch_name)}


# -- gfx90a+ alignment notes the plans' probes do not reach (llvm-mc-22) ------------------------------
VREG64_NOTE = "/*Invalid register, operand has 'VReg_64_Align2' register class*/"


def address_pair_note(dec, entry, fields: dict[str, int]) -> str:
    """A buffer access's index-and-offset VGPR pair (idxen and offen) that starts on an odd register:
    gfx90a and later print VReg_64_Align2's note after it (gfx908 has no such class)."""
    if dec.gfx == "GFX9" and dec.features.accvgpr_memory and entry.encoding in ("MUBUF", "MTBUF") \
            and fields.get("VADDR", 0) & 1:
        return VREG64_NOTE
    return ""


def ds_agprs_unnoted(dec, entry, fields: dict[str, int], op_specs: list[dict]) -> bool:
    """A DS instruction with two data operands (write2, cmpst, wrxchg2, ...) and its ACC bit set: gfx90a and
    later print its AGPR tuples without alignment notes (a single data operand or a load keeps AV_*_Align2)."""
    if dec.gfx != "GFX9" or entry.encoding != "DS" or not fields.get("ACC"):
        return False
    return {"DATA0", "DATA1"} <= {s.get("f") for s in op_specs if s.get("k") == "vreg"}


# gfx950 reads SOFFSET 255 of MUBUF/MTBUF as a 32-bit literal (probed with llvm-mc-22; gfx90a and gfx942 crash
# on such words, which the differential leaves out)
BUFFER_LITERAL_SOFFSET = frozenset({"cdna4"})


def buffer_literal_soffset(dec, entry, spec: dict) -> bool:
    return dec.arch in BUFFER_LITERAL_SOFFSET and entry.encoding in ("MUBUF", "MTBUF") and spec.get("f") == "SOFFSET"
