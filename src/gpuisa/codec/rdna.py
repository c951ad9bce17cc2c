"""GFX10+ (RDNA) printing rules learned from llvm-mc-22 at generation time, and their use by the decoder.

    python -m gpuisa.codec.named rdna1 rdna2 rdna3 rdna3.5 rdna4   # (re)writes the tables, with the others

Each probe disassembles words built from a plan's base word with a few fields set and records what
LLVM prints; nothing is copied from LLVM's sources.  Tables (in ``named_<arch>.json``):

* ``th_scope``: GFX12 cache-policy tokens that depend on the scope too (``th:TH_LOAD_BYPASS`` is
  ``TH_LOAD_LU`` at system scope; atomics name ``TH_ATOMIC_CASCADE_*`` at device and system scope):
  per TH table (the plan's token for TH=1), ``"TH/SCOPE"`` -> the token LLVM prints instead.
"""

from __future__ import annotations

import re

from .. import archs
from . import operands as opd
from .plans import load_plans
from .syntax import split_operands
from .tables import load_arch_tables


def _th_class(plan: dict) -> str | None:
    m = plan.get("mods", {})
    if "TH" not in m or "SCOPE" not in m or "v" not in m["TH"]:
        return None
    first = m["TH"]["v"].get("1")
    return first[0][0] if first and first[0] else None


def probe_th_scope(arch_name: str) -> dict:
    """``th_scope`` (see the module docstring): every TH x SCOPE value on one plan per TH table."""
    from . import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    reps: dict[str, list[str]] = {}
    for key, plan in sorted(plans.items()):
        cls = _th_class(plan)
        if cls is not None and len(reps.setdefault(cls, [])) < 2:
            reps[cls].append(key)
    jobs, words = [], []
    for cls, keys in sorted(reps.items()):
        for key in keys:
            enc = t.encodings[key.split("|")[1]]
            th, sc = enc.field("TH"), enc.field("SCOPE")
            for s in range(1 << sc.width):
                for h in range(1 << th.width):
                    w = plans[key]["w"]
                    w = th.insert(w, h)
                    w = sc.insert(w, s)
                    jobs.append((cls, key, h, s))
                    words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).llvm_target, words) if words else []
    out: dict[str, dict[str, str]] = {}
    for (cls, key, h, s), r in zip(jobs, got):
        text = r[0].text if r and r[0].offset == 0 and r[0].text else None
        if text is None:
            continue
        tok = next((m for m in split_operands(text)[1] if m.startswith("th:")), "")
        mine = plans[key]["mods"]["TH"]["v"].get(str(h), [[""]])[0]
        mine = mine[0] if mine else ""
        if tok != mine:
            out.setdefault(cls, {})[f"{h}/{s}"] = tok
    return out


def th_token(dec, plan: dict, fields: dict[str, int]) -> str | None:
    """The ``th:`` token LLVM prints instead of the TH table's, where the scope changes it; None if not."""
    table = dec.named.get("th_scope")
    if not table or "SCOPE" not in fields:
        return None
    cls = _th_class(plan)
    return table.get(cls, {}).get(f"{fields.get('TH', 0)}/{fields['SCOPE']}") if cls else None


def th_plain_mods(named: dict, plan: dict, mods: list[str]) -> list[str]:
    """The encoder's side of ``th_token``: a scope-dependent ``th:`` token becomes the plan's token for
    the same TH value (the lowest such value; a returning atomic's low bit comes from its data operand)."""
    table = named.get("th_scope")
    cls = _th_class(plan) if table else None
    if not cls or cls not in table:
        return mods
    out = []
    for m in mods:
        hits = sorted(int(k.split("/")[0]) for k, tok in table[cls].items() if tok == m and m)
        if m.startswith("th:") and hits:
            add = plan["mods"]["TH"]["v"].get(str(hits[0]), [[]])[0]
            out += add if add else []
        else:
            out.append(m)
    return out


def probe_scalar_tables(arch_name: str, st: dict) -> None:
    """Adds to ``src_tables`` (``named.py``) the scalar-memory register operands (SDATA, SBASE, SOFFSET) and
    the other scaled scalar operands (buffer and image resources, samplers: ``null`` as a 128-bit register):
    LLVM's token for every value of the field (scaled as the plan scales it; None where it rejects the
    word), so register classes (``exec_hi/*Invalid register...*/``) and tuples past the last SGPR print as
    LLVM prints them."""
    from . import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).llvm_target

    def word(key, f, v):  # with a zero literal where the plan's form has one (s_fmaak_f32)
        enc = t.encodings[key.split("|")[1]]
        w = f.insert(plans[key]["w"], v).to_bytes(enc.width // 8, "little")
        return w + bytes(max(0, plans[key].get("size", len(w)) - len(w)))

    def token(r, w, k, v):
        text = r[0].text if r and r[0].offset == 0 and r[0].text and (r[0].size == len(w) or v == 255) else None
        ops = split_operands(text)[0] if text else []
        tok = ops[k] if k < len(ops) else None
        if v == 255 and tok is not None:  # the literal's text comes from the bytes after the word: keep LLVM's note
            tok = "{}" + (tok[tok.index("/*"):] if "/*" in tok else "")
        return tok

    jobs, trial = [], []  # (key, op index, field, scale); unscaled operands are tried on a few values first
    for key, plan in sorted(plans.items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.width > 96:
            continue
        for k, spec in enumerate(plan["ops"]):
            f = enc.field(spec.get("f", "")) if spec.get("k") == "ssrc" else None
            if f is None or f.width > 8 or "imm_if" in spec:
                continue
            if enc.name != "SMEM" and spec.get("s", 1) == 1:
                trial.append((key, k, f))
            else:
                jobs.append((key, k, f, spec.get("s", 1)))
    tried = oracle.disassemble(target, [word(key, f, v) for key, k, f in trial for v in SSRC_TRIAL]) if trial else []
    for i, (key, k, f) in enumerate(trial):
        toks = [token(r, word(key, f, v), k, v) for r, v in zip(tried[len(SSRC_TRIAL) * i:len(SSRC_TRIAL) * (i + 1)], SSRC_TRIAL)]
        if any(x is None or "/*" in x for x in toks):
            jobs.append((key, k, f, 1))
    words = [word(key, f, v) for key, k, f, _ in jobs for v in range(1 << f.width)]
    got = oracle.disassemble(target, words) if words else []
    i = 0
    for key, k, f, scale in jobs:
        toks: list = [None] * ((1 << f.width) * scale)
        for v in range(1 << f.width):
            toks[v * scale] = token(got[i + v], words[i + v], k, v)
        i += 1 << f.width
        if toks not in st["tables"]:
            st["tables"].append(toks)
        st["ops"].setdefault(key, {})[str(k)] = st["tables"].index(toks)


SSRC_TRIAL = (4, 134, 106, 127)  # s4, the inline constant 6, vcc_lo, exec_hi


def probe_buffer_formats(arch_name: str) -> dict | None:
    """GFX12 typed buffer formats (VBUFFER): the ``format:`` token for every FORMAT value (None: rejected),
    as ``named.py`` learns them for MTBUF."""
    from . import oracle

    plans = load_plans(arch_name)
    key = "tbuffer_load_format_x|VBUFFER"
    if key not in plans:
        return None
    enc = load_arch_tables(arch_name).encodings["VBUFFER"]
    f = enc.field("FORMAT")
    words = [f.insert(plans[key]["w"], v).to_bytes(enc.width // 8, "little")
             for v in range(1 << f.width)]
    out = {}
    for v, r in enumerate(oracle.disassemble(archs.by_name(arch_name).llvm_target, words)):
        text = r[0].text if r and r[0].offset == 0 and r[0].text else None
        out[str(v)] = None if text is None else next((m for m in split_operands(text)[1] if m.startswith("format:")), "")
    return out


def probe_named(arch_name: str, done: dict) -> dict:
    """Every table of this module for a GFX10+ architecture (called by ``named.build_arch``; ``done``:
    the tables probed before, extended in place)."""
    out: dict = {}
    if "src_tables" in done:
        probe_scalar_tables(arch_name, done["src_tables"])
    if "format" not in done:
        fmt = probe_buffer_formats(arch_name)
        if fmt is not None:
            out["format"] = fmt
    if archs.by_name(arch_name).gfx.split(".")[0] == "GFX10":
        from .gfx9 import probe_lds_forms

        out["lds_forms"] = probe_lds_forms(arch_name)  # GFX10 loads into LDS leave the data register out too
    from .image import probe_image_forms

    out["image_forms"] = probe_image_forms(arch_name, done.get("counts", {}))
    out.update(probe_scalar_printers(arch_name))
    th = probe_th_scope(arch_name)
    if th:
        out["th_scope"] = th
    return out


# -- 16-bit scalar operands printed as named counters or messages (SOPP) -------------------------------
COUNTER_OPS = ("s_waitcnt", "s_waitcnt_depctr", "s_wait_alu", "s_delay_alu")
MESSAGE_OPS = ("s_sendmsg", "s_sendmsghalt")
SOPP_PRINTED = frozenset(COUNTER_OPS + MESSAGE_OPS)


def _simm_words(plans, enc, key, values):
    f = enc.field("SIMM16")
    return [((plans[key]["w"] & ~f.place(0xFFFF)) | f.place(v)).to_bytes(4, "little") for v in values]


def _operand_of(r, mn):
    text = r[0].text if r and r[0].offset == 0 and r[0].text else None
    return text[len(mn) + 1:] if text and text.startswith(mn + " ") else None


_CALL = re.compile(r"([a-z_0-9]+)\(([^)]*)\)")


def counters_text(spec: dict, v: int) -> str:
    """The operand of a counter instruction from its learned layout (``probe_counters``).

    ``list`` form (waitcnt, depctr): each counter's value from its bits; the counters not at their
    default (all ones) are named, or all of them when every one is; a value with a bit of ``hex_bits``
    set prints in hex.  ``alu`` form (s_delay_alu): the non-zero fields joined by `` | ``, ``0`` if none."""
    if spec["form"] == "list":
        if v & spec["hex_bits"]:
            return f"0x{v:x}"
        vals = [(name, sum(1 << j for j, b in enumerate(bits) if v >> b & 1), (1 << len(bits)) - 1)
                for name, bits in spec["fields"]]
        shown = [(n, x) for n, x, top in vals if x != top] or [(n, x) for n, x, _ in vals]
        return " ".join(f"{n}({x})" for n, x in shown)
    parts = []
    for name, bits, names in spec["fields"]:
        x = sum(1 << j for j, b in enumerate(bits) if v >> b & 1)
        if x:
            parts.append(f"{name}({names[x]})")
    return " | ".join(parts) if parts else "0"


def _learn_counters(mn: str, ops: dict[int, str | None]) -> dict | None:
    """A counter layout from the texts of 0, each single bit, and (alu form) every field value."""
    base = ops.get(0)
    if base is None:
        return None
    if base == "0":  # alu form
        fields: dict[str, list[int]] = {}
        for b in range(16):
            m = _CALL.findall(ops.get(1 << b) or "")
            if len(m) == 1:
                fields.setdefault(m[0][0], []).append(b)
        return {"form": "alu", "fields": [[n, bits] for n, bits in fields.items()]}
    names = [n for n, _ in _CALL.findall(base)]
    fields = {n: [] for n in names}
    hex_bits = 0
    for b in range(16):
        t = ops.get(1 << b)
        if t is None:
            return None
        if t.startswith("0x"):
            hex_bits |= 1 << b
            continue
        got = dict(_CALL.findall(t))
        changed = [n for n in names if got.get(n, "0") != "0" or n not in got]
        if len(changed) == 1:
            fields[changed[0]].append(b)
    return {"form": "list", "hex_bits": hex_bits, "fields": [[n, fields[n]] for n in names]}


def probe_scalar_printers(arch_name: str) -> dict:
    """{"counters": {mnemonic: layout}, "sendmsg": {mnemonic: table}, "sendmsg_rtn": {mnemonic: [token per value]}}:
    each learned from llvm-mc and kept only where it reproduces LLVM's text on every probed value
    (the message tables: on all 65536 values, ``gfx9.sendmsg_text``'s compact form)."""
    import random

    from . import oracle
    from .gfx9 import sendmsg_text

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).llvm_target
    enc = t.encodings["SOPP"]
    out: dict = {"counters": {}, "sendmsg": {}, "sendmsg_rtn": {}}
    rng = random.Random(7)
    for mn in COUNTER_OPS:
        key = f"{mn}|SOPP"
        if key not in plans:
            continue
        values = [0] + [1 << b for b in range(16)]
        ops = dict(zip(values, (_operand_of(r, mn) for r in oracle.disassemble(target, _simm_words(plans, enc, key, values)))))
        spec = _learn_counters(mn, ops)
        if spec is None:
            continue
        if spec["form"] == "alu":
            full = []
            for name, bits in spec["fields"]:
                vals = [sum(1 << b for j, b in enumerate(bits) if x >> j & 1) for x in range(1 << len(bits))]
                texts = [_operand_of(r, mn) for r in oracle.disassemble(target, _simm_words(plans, enc, key, vals))]
                full.append([name, bits, [None] + [dict(_CALL.findall(x or "")).get(name) for x in texts[1:]]])
            spec["fields"] = full
        trial = list(range(256)) + [rng.getrandbits(16) for _ in range(4000)] + [0xFFFF ^ (1 << b) for b in range(16)]
        texts = [_operand_of(r, mn) for r in oracle.disassemble(target, _simm_words(plans, enc, key, trial))]
        if all(x is not None and counters_text(spec, v) == x for v, x in zip(trial, texts)):
            out["counters"][mn] = spec
    for mn in MESSAGE_OPS:
        key = f"{mn}|SOPP"
        if key not in plans:
            continue
        ops = [_operand_of(r, mn) for r in oracle.disassemble(target, _simm_words(plans, enc, key, range(65536)))]
        low = {str(v): ops[v] for v in range(1024) if ops[v] != str(v)}
        keep = [v for v in range(1024) if ops[v] != str(v) and all(ops[v | h << 10] == ops[v] for h in range(1, 64))]
        table = {"low": low, "keep": keep}
        if all(sendmsg_text(table, v) == ops[v] for v in range(65536)):
            out["sendmsg"][mn] = table
    for key, plan in sorted(plans.items()):
        mn, enc_name = key.split("|")
        if not mn.startswith("s_sendmsg_rtn") or enc_name != "SOP1":
            continue
        e = t.encodings[enc_name]
        f = e.field("SSRC0")
        words = [f.insert(plan["w"], v).to_bytes(4, "little") for v in range(1 << f.width)]
        toks = []
        for r in oracle.disassemble(target, words):
            text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size == 4 else None
            toks.append(split_operands(text)[0][1] if text else None)
        out["sendmsg_rtn"][mn] = toks
    return {k: v for k, v in out.items() if v}


def scalar_text(dec, entry, fields: dict[str, int]) -> str | None:
    """Whole text of a counter or message instruction where a table was learned; None otherwise."""
    name = entry.name
    spec = dec.named.get("counters", {}).get(name)
    if spec is not None:
        return f"{name} {counters_text(spec, fields.get('SIMM16', 0))}"
    table = dec.named.get("sendmsg", {}).get(name)
    if table is not None:
        from .gfx9 import sendmsg_text

        return f"{name} {sendmsg_text(table, fields.get('SIMM16', 0))}"
    return None


def fallback(dec, entry, spec: dict, fields: dict[str, int]) -> str | None:
    """An operand the plan's few probed values do not cover: s_sendmsg_rtn's message (its learned token), a
    true16 register (``v_mov_b16_e32 v112.h, v28.l``: bit 7 of a VGPR field picks the high half)."""
    past = past_last_vgpr(dec, spec, fields)
    if past is not None:
        return past
    toks = dec.named.get("sendmsg_rtn", {}).get(entry.name)
    if toks is not None and "SSRC0" in spec.get("table", {}) and "SSRC0" in fields:
        return toks[fields["SSRC0"]]
    if _true16(spec):
        fname = next(iter(spec["table"]))
        f = dec.tables.encodings[entry.encoding].field(fname)
        v = fields.get(fname)
        if f is None or v is None:
            return None
        if f.width == 9 and v < 256:  # a 16-bit source: SGPRs, constants (an integer source's floats as bits)
            from .decoder import operand_type

            return None if v == opd.LITERAL else opd.src_text(dec.gfx, v, 1, 16, operand_type(entry.mnemonic)[1], 256)
        r = v - 256 if f.width == 9 else v
        return f"v{r & 127}.{'h' if r & 128 else 'l'}"
    return None


def past_last_vgpr(dec, spec: dict, fields: dict[str, int]) -> str | None:
    """gfx1250: a VGPR tuple that runs past v255 prints as such (``v[255:256]``), with the operand's
    even-alignment note where it starts on an odd register (llvm-mc-22 prints it so in every encoding;
    earlier targets reject the word)."""
    if not dec.features.literal64 or spec.get("k") not in ("src", "vreg") or spec.get("f") not in fields:
        return None
    n = spec.get("n", 1)
    v = fields[spec["f"]] * spec.get("s", 1)
    r = v - 256 if spec["k"] == "src" else v
    if n < 2 or r < 0 or r + n <= 256 or spec.get("c", "v") != "v" or spec.get("acc"):
        return None
    return f"v[{r}:{r + n - 1}]" + (spec.get("anote", "") if r & 1 else "")


# VOP3-style true16 (LLVM 22, GFX11+): an 8-bit register field names the whole VGPR and the op_sel bit of the
# operand picks its half (``v_add_f16_e64 v200.h, v2.l, v3.h op_sel:[0,1,1]``); op_sel is printed as well.
OPSEL_BIT = {"SRC0": 0, "SRC1": 1, "SRC2": 2, "VDST": 3}


def true16_opsel(dec, entry, spec: dict, fields: dict[str, int]) -> str | None:
    """The register half of a true16 operand of an encoding with OP_SEL; None where that rule does not apply."""
    if "OP_SEL" not in fields or not _true16(spec):
        return None
    fname = next(iter(spec["table"]))
    f = dec.tables.encodings[entry.encoding].field(fname)
    v = fields.get(fname)
    if fname not in OPSEL_BIT or f is None or v is None or (f.width == 9 and v < 256):
        return None
    r = v - 256 if f.width == 9 else v
    return f"v{r}.{'h' if fields['OP_SEL'] >> OPSEL_BIT[fname] & 1 else 'l'}"


def true16_literal(spec: dict, fields: dict[str, int]) -> bool:
    """A true16 source field (``fallback``) holding the literal marker."""
    return _true16(spec) and fields.get(next(iter(spec["table"]))) == opd.LITERAL and spec["table"] and \
        next(iter(spec["table"])).startswith("SRC")


def _true16(spec: dict) -> bool:
    """A one-field operand LLVM prints as a 16-bit register half (``v0.l``) for some value."""
    table = spec.get("table", {})
    return len(table) == 1 and any(x.endswith((".l", ".h")) for tbl in table.values() for x in tbl.values())


def parse_true16(gfx: str, spec: dict, tok: str, enc=None) -> dict[str, int] | None:
    """The encoder's side of ``fallback``'s and ``true16_opsel``'s true16 registers and sources (the op_sel bit
    as key ``OP_SEL``, to be or-ed into that field); None if ``tok`` is not one."""
    if not _true16(spec):
        return None
    fname = next(iter(spec["table"]))
    m = re.match(r"^v(\d+)(?:\.([lh]))?$", tok)  # a plain vN is its low half (LLVM's assembler reads it so)
    # ("T16": whether the register was written as a half; LLVM refuses an instruction that mixes the two)
    if m and enc is not None and enc.field("OP_SEL") is not None and fname in OPSEL_BIT and int(m.group(1)) < 256:
        r = int(m.group(1)) + (256 if enc.field(fname).width == 9 else 0)
        return {fname: r, "OP_SEL": (1 << OPSEL_BIT[fname]) if m.group(2) == "h" else 0, "T16": int(bool(m.group(2)))}
    if m and int(m.group(1)) < 128:
        r = int(m.group(1)) | (128 if m.group(2) == "h" else 0)
        return {fname: r + (256 if fname.startswith("SRC") else 0), "T16": int(bool(m.group(2)))}
    if not fname.startswith("SRC"):
        return None
    got = opd.parse_src(gfx, tok, 1)  # (a float constant's bits, 0x3c00, are a literal to llvm-mc's assembler)
    if got is not None and got[1] is not None:
        return {fname: opd.LITERAL, "LIT": got[1]}  # the literal dword (the encoder's to place)
    return {fname: got[0]} if got is not None and got[0] < 256 else None


def modifier(dec, fname: str, value: int, m: dict) -> list[str] | None:
    """A modifier word whose probed values all printed as the value itself (``s_endpgm 10927``): the value."""
    table = m.get("table", {})
    if table and all(v == [k] for k, v in table.items()):
        return [str(value)]
    return None


# -- scalar memory with a null SOFFSET ---------------------------------------------------------------
def smem_null(dec, spec: dict, v: int) -> bool:
    """Operand ``spec`` with value ``v`` is a GFX10+ scalar-memory SOFFSET naming ``null``."""
    return spec.get("f") == "SOFFSET" and dec.gfx in ("GFX10", "GFX11", "GFX12") and opd.SPECIAL[dec.gfx].get(v) == "null"


def smem_null_offset(dec, op_specs: list, texts: list[str], mods: list[str], fields: dict[str, int]) -> None:
    """With SOFFSET = null LLVM prints the immediate offset in its place (probed on gfx1010-gfx1200):
    ``s_load_b32 s0, s[0:1], 0x123``; a zero offset stays ``null`` before GFX12 and prints ``0x0`` on GFX12."""
    k = next((i for i, sp in enumerate(op_specs) if sp.get("f") == "SOFFSET" and sp.get("k") == "ssrc"), None)
    if k is None or k >= len(texts) or not smem_null(dec, op_specs[k], fields.get("SOFFSET", -1)):
        return
    fname = "IOFFSET" if "IOFFSET" in fields else "OFFSET"
    enc_field = next((f for f in dec.tables.encodings["SMEM"].fields if f.name == fname), None)
    if enc_field is None:
        return
    off = fields[fname]
    if off >= 1 << (enc_field.width - 1):
        off -= 1 << enc_field.width
    if off == 0 and dec.gfx != "GFX12":
        texts[k] = "null"
        return
    texts[k] = f"-0x{-off:x}" if off < 0 else f"0x{off:x}"
    mods[:] = [m for m in mods if not m.startswith("offset:")]


def smem_null_offset_ops(gfx: str, ops: list[str], specs: list[dict], mods: list[str]) -> tuple[list[str], list[str]]:
    """The encoder's side of ``smem_null_offset``: a number in SOFFSET's place is the offset, SOFFSET null."""
    k = next((i for i, sp in enumerate(specs) if sp.get("f") == "SOFFSET" and sp.get("k") == "ssrc"), None)
    if k is None or k >= len(ops) or any(m.startswith("offset:") for m in mods):
        return ops, mods
    try:
        int(ops[k].strip(), 0)
    except ValueError:
        return ops, mods
    return ops[:k] + ["null"] + ops[k + 1:], mods + [f"offset:{ops[k].strip()}"]


# GFX12 (gfx1200 and gfx1250, llvm-mc-22, probed): a buffer offset (VBUFFER IOFFSET, s_buffer_* and s_atc_probe_buffer IOFFSET) is
# 24-bit unsigned below 2**23: with bit 23 set the word does not decode; GFX12 flat/global/scratch words print
# bit 48 as ``scale_offset`` (a field the layout tables do not name).
GFX12_SCALE_OFFSET_BIT = {"VFLAT": 48, "VGLOBAL": 48, "VSCRATCH": 48}


def gfx12_buffer_offset_error(dec, entry, fields: dict[str, int]) -> str | None:
    if dec.features.encoding_family != "GFX12" or not (entry.encoding == "VBUFFER" or
                                   (entry.encoding == "SMEM" and "buffer" in entry.name)):
        return None
    if fields.get("IOFFSET", 0) & 0x800000:
        return f"{entry.name}: buffer offset past 2**23"
    return None


def gfx12_scale_offset(dec, entry, word: int) -> list[str]:
    bit = GFX12_SCALE_OFFSET_BIT.get(entry.encoding)
    if dec.features.encoding_family != "GFX12" or bit is None or not (word >> bit) & 1:
        return []
    return ["scale_offset"]
