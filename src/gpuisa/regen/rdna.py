"""GFX10+ (RDNA) printing rules learned from llvm-mc-22 at generation time (called by ``regen/named.py``);
the decoder's use of the tables is ``codec/rdna.py``, which describes them.

Each probe disassembles words built from a plan's base word with a few fields set and records what LLVM
prints; nothing is copied from LLVM's sources.
"""

from __future__ import annotations

from .. import archs
from ..codec.plans import load_plans
from ..codec.rdna import CALL, COUNTER_OPS, MESSAGE_OPS, counters_text, th_class
from ..codec.syntax import split_operands
from ..codec.tables import load_arch_tables


def probe_th_scope(arch_name: str) -> dict:
    """``th_scope`` (see the module docstring): every TH x SCOPE value on one plan per TH table."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    reps: dict[str, list[str]] = {}
    for key, plan in sorted(plans.items()):
        cls = th_class(plan)
        if cls is not None and len(reps.setdefault(cls, [])) < 2:
            reps[cls].append(key)
    jobs, words = [], []
    for cls, keys in sorted(reps.items()):
        for key in keys:
            enc = t.encodings[key.split("|")[1]]
            th, sc = enc.require_field("TH"), enc.require_field("SCOPE")
            for s in range(1 << sc.width):
                for h in range(1 << th.width):
                    w = plans[key].word
                    w = th.insert(w, h)
                    w = sc.insert(w, s)
                    jobs.append((cls, key, h, s))
                    words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    out: dict[str, dict[str, str]] = {}
    for (cls, key, h, s), r in zip(jobs, got):
        text = r[0].text if r and r[0].offset == 0 and r[0].text else None
        if text is None:
            continue
        tok = next((m for m in split_operands(text)[1] if m.startswith("th:")), "")
        mine = (plans[key].modifiers["TH"].tokens or {}).get(str(h), [[""]])[0]
        mine = mine[0] if mine else ""
        if tok != mine:
            out.setdefault(cls, {})[f"{h}/{s}"] = tok
    return out


def probe_scalar_tables(arch_name: str, st: dict) -> None:
    """Adds to ``src_tables`` (``named.py``) the scalar-memory register operands (SDATA, SBASE, SOFFSET) and
    the other scaled scalar operands (buffer and image resources, samplers: ``null`` as a 128-bit register):
    LLVM's token for every value of the field (scaled as the plan scales it; None where it rejects the
    word), so register classes (``exec_hi/*Invalid register...*/``) and tuples past the last SGPR print as
    LLVM prints them."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).mc_target

    def word(key, f, v):  # with a zero literal where the plan's form has one (s_fmaak_f32)
        enc = t.encodings[key.split("|")[1]]
        w = f.insert(plans[key].word, v).to_bytes(enc.width // 8, "little")
        return w + bytes(max(0, plans[key].size - len(w)))

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
        for k, spec in enumerate(plan.operands):
            f = enc.field(spec.field) if spec.kind == "ssrc" else None
            if f is None or f.width > 8 or spec.imm_if:
                continue
            if enc.name != "SMEM" and spec.scale == 1:
                trial.append((key, k, f))
            else:
                jobs.append((key, k, f, spec.scale))
    tried = oracle.disassemble(target, [word(key, f, v) for key, k, f in trial for v in SSRC_TRIAL]) if trial else []
    for i, (key, k, f) in enumerate(trial):
        trial_toks = [token(r, word(key, f, v), k, v)
                      for r, v in zip(tried[len(SSRC_TRIAL) * i:len(SSRC_TRIAL) * (i + 1)], SSRC_TRIAL)]
        if any(x is None or "/*" in x for x in trial_toks):
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
    from ..codec import oracle

    plans = load_plans(arch_name)
    key = "tbuffer_load_format_x|VBUFFER"
    if key not in plans:
        return None
    enc = load_arch_tables(arch_name).encodings["VBUFFER"]
    f = enc.require_field("FORMAT")
    words = [f.insert(plans[key].word, v).to_bytes(enc.width // 8, "little")
             for v in range(1 << f.width)]
    out = {}
    for v, r in enumerate(oracle.disassemble(archs.by_name(arch_name).mc_target, words)):
        text = r[0].text if r and r[0].offset == 0 and r[0].text else None
        out[str(v)] = None if text is None else next((m for m in split_operands(text)[1] if m.startswith("format:")), "")
    return out


def probe_named(arch_name: str, done: dict) -> dict:
    """Every table of this module for a GFX10+ architecture (called by ``regen/named.build_arch``; ``done``:
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


def _simm_words(plans, enc, key, values):
    f = enc.field("SIMM16")
    return [((plans[key].word & ~f.place(0xFFFF)) | f.place(v)).to_bytes(4, "little") for v in values]


def _operand_of(r, mn):
    text = r[0].text if r and r[0].offset == 0 and r[0].text else None
    return text[len(mn) + 1:] if text and text.startswith(mn + " ") else None


def _learn_counters(mn: str, ops: dict[int, str | None]) -> dict | None:
    """A counter layout from the texts of 0, each single bit, and (alu form) every field value."""
    base = ops.get(0)
    if base is None:
        return None
    if base == "0":  # alu form
        fields: dict[str, list[int]] = {}
        for b in range(16):
            m = CALL.findall(ops.get(1 << b) or "")
            if len(m) == 1:
                fields.setdefault(m[0][0], []).append(b)
        return {"form": "alu", "fields": [[n, bits] for n, bits in fields.items()]}
    names = [n for n, _ in CALL.findall(base)]
    fields = {n: [] for n in names}
    hex_bits = 0
    for b in range(16):
        t = ops.get(1 << b)
        if t is None:
            return None
        if t.startswith("0x"):
            hex_bits |= 1 << b
            continue
        got = dict(CALL.findall(t))
        changed = [n for n in names if got.get(n, "0") != "0" or n not in got]
        if len(changed) == 1:
            fields[changed[0]].append(b)
    return {"form": "list", "hex_bits": hex_bits, "fields": [[n, fields[n]] for n in names]}


def probe_scalar_printers(arch_name: str) -> dict:
    """{"counters": {mnemonic: layout}, "sendmsg": {mnemonic: table}, "sendmsg_rtn": {mnemonic: [token per value]}}:
    each learned from llvm-mc and kept only where it reproduces LLVM's text on every probed value
    (the message tables: on all 65536 values, ``decoded.sendmsg_text``'s compact form)."""
    import random

    from ..codec import oracle
    from ..codec.decoded import sendmsg_text

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).mc_target
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
                full.append([name, bits, [None] + [dict(CALL.findall(x or "")).get(name) for x in texts[1:]]])
            spec["fields"] = full
        trial = list(range(256)) + [rng.getrandbits(16) for _ in range(4000)] + [0xFFFF ^ (1 << b) for b in range(16)]
        texts = [_operand_of(r, mn) for r in oracle.disassemble(target, _simm_words(plans, enc, key, trial))]
        if all(x is not None and counters_text(spec, v) == x for v, x in zip(trial, texts)):
            out["counters"][mn] = spec
    for mn in MESSAGE_OPS:
        key = f"{mn}|SOPP"
        if key not in plans:
            continue
        printed = [_operand_of(r, mn) for r in oracle.disassemble(target, _simm_words(plans, enc, key, range(65536)))]
        low = {str(v): printed[v] for v in range(1024) if printed[v] != str(v)}
        keep = [v for v in range(1024)
                if printed[v] != str(v) and all(printed[v | h << 10] == printed[v] for h in range(1, 64))]
        table = {"low": low, "keep": keep}
        if all(sendmsg_text(table, v) == printed[v] for v in range(65536)):
            out["sendmsg"][mn] = table
    for key, plan in sorted(plans.items()):
        mn, enc_name = key.split("|")
        if not mn.startswith("s_sendmsg_rtn") or enc_name != "SOP1":
            continue
        e = t.encodings[enc_name]
        f = e.require_field("SSRC0")
        words = [f.insert(plan.word, v).to_bytes(4, "little") for v in range(1 << f.width)]
        toks = []
        for r in oracle.disassemble(target, words):
            text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size == 4 else None
            toks.append(split_operands(text)[0][1] if text else None)
        out["sendmsg_rtn"][mn] = toks
    return {k: v for k, v in out.items() if v}
