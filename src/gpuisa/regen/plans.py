"""Print plans from llvm-mc-22 (generation time): how an (instruction, encoding)'s fields become LLVM syntax.

    python -m gpuisa.regen.plans [arch ...]   # writes codec/data/plans_<arch>.json (and _wave64 overlays,
                                             # _true16/_fake16 ones: the 16-bit syntax LLVM 22 does not default to)
    python -m gpuisa.regen.plans --syntax16 [arch ...]   # only those 16-bit syntax overlays

A plan is derived from the probe record (``regen/probe.py``): for each operand position the field that
selects its register or value and how (kind, register count, scale), token templates that modifier fields
apply (``-{}``, ``|{}|``), modifier words per field value, field values LLVM rejects, and whether a literal
dword always follows.  The runtime reads the plans with ``codec.plans.load_plans``.
"""

from __future__ import annotations

import json
import re
import sys

from .. import archs
from ..codec.operands import parse_reg
from ..codec.plans import DATA_DIR, load_plans
from ..codec.syntax import split_operands
from ..codec.tables import load_arch_tables
from ..data.diffable import dumps_one_per_line

_NUM = re.compile(r"^-?(0x[0-9a-f]+|\d+)$")


def _is_value_token(tok: str) -> bool:
    tok = tok.split("/*")[0]
    return parse_reg(tok) is not None or bool(_NUM.match(tok))


def _template(base: str, new: str) -> str | None:
    i = new.find(base)
    if i < 0 or new == base:
        return None
    return new[:i] + "{}" + new[i + len(base):]


def _kind(field_width: int, base_tok: str, probes: dict[int, str], base_value: int) -> dict | None:
    """Classify how a field prints from the tokens seen for a few of its values."""
    seen = {base_value: base_tok, **probes}
    regs = {v: parse_reg(t.split("/*")[0]) for v, t in seen.items()}
    counts = [r[2] for r in regs.values() if r is not None]
    n = max(counts) if counts else 1
    if field_width == 9 and any(r and r[0] == "v" for r in regs.values()):
        out = {"k": "src", "n": n}
        odd = seen.get(257, "")
        if n >= 2 and "/*" in odd and "/*" not in seen.get(256, ""):  # an even-aligned VGPR tuple (VS_64_Align2)
            out["anote"] = odd[odd.index("/*"):]
        return out
    r16 = regs.get(16) or regs.get(1)
    if r16 is not None:
        cls, idx, _ = r16
        v = 16 if regs.get(16) else 1
        if cls in ("v", "a"):
            out = {"k": "vreg", "n": n, "c": cls}
            top = seen.get(1 << (field_width - 1), "")
            if "/*" in top:
                out["note"] = top[top.index("/*"):]
            odd = seen.get(1, "")
            if n >= 2 and "/*" in odd and "/*" not in seen.get(16, ""):  # a register tuple that must be even-aligned
                out["anote"] = odd[odd.index("/*"):]
            return out
        if cls == "s":
            return {"k": "ssrc", "n": n, "s": idx // v} if idx > v else {"k": "ssrc", "n": n}
    if all(_NUM.match(t) for t in seen.values()) and not (base_tok == "off"):
        t16 = seen.get(16, seen.get(1, "0"))
        top = seen.get(1 << (field_width - 1), "")
        return {"k": "imm", "hex": t16.startswith("0x") or t16.startswith("-0x"), "signed": top.startswith("-")}
    return None


def _operand_of_field(plan: dict, enc, fname: str, f, base_v: int, k: int, base_tok: str, probes: dict[int, str],
                      tmpl: dict) -> None:
    """What field ``f`` is to operand ``k`` whose token changed with it: its AGPR bit, its value (the operand's
    kind), an immediate-or-register switch, an ``off`` switch, a token template or a token table."""
    r0 = parse_reg(base_tok.split("/*")[0])
    accs = [v for v, t in probes.items() if f.width <= 2 and not v & (v - 1) and r0 and r0[0] == "v"
            and (parse_reg(t.split("/*")[0]) or ("",))[0] == "a"]
    if accs:
        plan["ops"][k]["acc"] = [fname, accs[0]]
        return
    if all(_is_value_token(t) for t in probes.values()) and _is_value_token(base_tok):
        kind = _kind(f.width, base_tok, probes, base_v)
        if kind is not None:
            spec = plan["ops"][k]
            if "f" not in spec or enc.field(spec["f"]).width < f.width:
                spec.update(kind)
                spec["f"] = fname
            return
    if f.width == 1 and _NUM.match(probes.get(1, "")) and parse_reg(base_tok):
        plan["ops"][k]["imm_if"] = fname
        return
    if base_tok == "off" and f.width == 1:
        plan["ops"][k].setdefault("alt", []).append(fname)
        return
    if f.width <= 4:
        for v, t in probes.items():
            tp = _template(base_tok, t)
            if tp:
                tmpl.setdefault(fname, {}).setdefault(str(v), []).append([k, tp])
    else:
        plan["ops"][k].setdefault("table", {}).setdefault(fname, {}).update({str(v): t for v, t in probes.items()})


def _modifier_words(f, vals: dict[int, dict], base_v: int) -> dict | None:
    """The modifier words field ``f``'s values add or remove: per value (narrow fields), a named number
    (``offset:N``, with a multiplier where its parts are scaled) or a table of tokens; None if none."""
    if f.width <= 4:
        table = {}
        for v, d in vals.items():
            if d.get("add") or d.get("del"):
                table[str(v)] = [d.get("add", []), d.get("del", [])]
        return {"v": table, "base": base_v} if table else None
    adds = {v: d.get("add", []) for v, d in vals.items() if d.get("add")}
    if not adds:
        return None
    one = adds.get(16) or next(iter(adds.values()))
    m = re.match(r"^([a-z_0-9]+):(-?)(0x)?([0-9a-f]+)$", one[0]) if len(one) == 1 else None
    top = adds.get(1 << (f.width - 1), [""])
    if not m:
        return {"table": {str(v): a for v, a in adds.items()}}
    out = {"name": m.group(1), "hex": bool(m.group(3)), "signed": top[0].split(":")[-1].startswith("-")}
    a1 = adds.get(1, [""])[0].split(":")[-1]
    if _NUM.match(a1) and int(a1, 0) > 1:
        out["mul"] = int(a1, 0)
    return out


def _literal_operands(plan: dict, enc) -> None:
    """Constant operands that are a literal after the word (the plan's size exceeds the encoding's)."""
    src_fields = {sp.get("f") for sp in plan["ops"] if sp.get("k") in ("src", "ssrc")}
    for k, spec in enumerate(plan["ops"]):
        if "f" not in spec and "alt" not in spec and "table" not in spec and _NUM.match(spec["t"]) and plan["size"] > enc.width // 8:
            spec["k"] = "lit"
        elif spec.get("k") == "imm" and spec.get("f") in src_fields and plan["size"] > enc.width // 8:
            # a constant whose text moved with a source's value (gfx1250 fmamk_f64: the 64-bit K after the word)
            plan["ops"][k] = {"t": spec["t"], "k": "lit"}


def build_plan(enc, rec: dict) -> dict:
    base_word = rec["word"]
    ops, base_mods = split_operands(rec["text"])
    plan: dict = {"w": base_word, "m": rec["text"].split()[0], "ops": [{"t": t} for t in ops], "mods0": base_mods,
                  "size": rec.get("size", enc.width // 8)}
    tmpl: dict = {}
    mods: dict = {}
    bad: dict = {}
    by_field: dict[str, dict[int, dict]] = {}
    for key, d in rec["fields"].items():
        fname, v = key.split("=")
        by_field.setdefault(fname, {})[int(v)] = d
    for fname, vals in by_field.items():
        f = enc.field(fname)
        if f is None:
            continue
        base_v = f.extract(base_word)
        invalid = sorted(v for v, d in vals.items() if d.get("invalid") or d.get("other"))
        if invalid:
            bad[fname] = invalid if f.width <= 4 else ("nonzero" if len(invalid) == len(vals) else invalid)
        # operand tokens: a value field, or a template applied by a modifier field
        op_probes: dict[int, dict[int, str]] = {}
        for v, d in vals.items():
            for k, t in zip(d.get("ops", []), d.get("to", [])):
                op_probes.setdefault(k, {})[v] = t
        for k, probes in op_probes.items():
            _operand_of_field(plan, enc, fname, f, base_v, k, ops[k], probes, tmpl)
        mod = _modifier_words(f, vals, base_v)  # modifier words
        if mod is not None:
            mods[fname] = mod
    _literal_operands(plan, enc)
    notes = [sp["note"] for sp in plan["ops"] if "note" in sp]
    if notes and "VGPR_32_Lo128" in notes[0]:
        plan["lo128"] = notes[0].replace("VGPR_32_Lo128", "VS_32_Lo128")
    if tmpl:
        plan["tmpl"] = tmpl
    if mods:
        plan["mods"] = mods
    if bad:
        plan["bad"] = bad
    return plan


def _returning_form(plan: dict, enc, rec: dict) -> None:
    """Atomics that return the old value when a 1-bit field (glc / sc0; GFX12: TH bit 0) is set: LLVM then prints the
    VDST register(s) before the other operands.  Recorded as ``ret``: the field, VDST's count and class,
    and the ACC bit the data operand shares with it."""
    ops = split_operands(rec["text"])[0]
    for key, d in rec["fields"].items():
        fname, v = key.split("=")
        f = enc.field(fname)
        # GFX12: the 3-bit TH field, returning when its low bit is set (TH_ATOMIC_RETURN)
        if "text" not in d or v != "1" or f is None or (f.width != 1 and fname != "TH") or enc.field("VDST") is None:
            continue
        pops = split_operands(d["text"])[0]
        r = parse_reg(pops[0].split("/*")[0]) if pops else None
        if pops[1:] == ops and r is not None and r[1] == 0:
            acc = next((sp["acc"] for sp in plan["ops"] if "acc" in sp), None)
            plan["ret"] = {"f": fname, "dst": "VDST", "n": r[2], "c": r[0], **({"acc": acc} if acc else {}),
                           **({"bit": 1} if f.width != 1 else {})}


def _hex_above_64(target: str, tables, plans: dict) -> None:
    """GFX9 unsigned immediates LLVM prints in decimal up to 64 and in hex above (s_sethalt 0x41): such an
    operand's ``hex`` becomes 64 (probed with the value 65 on every plan whose immediate printed 1 and 16 in decimal)."""
    from ..codec.oracle import disassemble

    jobs, words = [], []
    for key, plan in sorted(plans.items()):
        enc = tables.encodings[key.split("|")[1]]
        if enc.width > 64:
            continue
        for k, spec in enumerate(plan["ops"]):
            f = enc.field(spec.get("f", "")) if spec.get("k") == "imm" else None
            if f is None or spec["hex"] or spec["signed"] or f.width < 7 or "imm_if" in spec:
                continue
            jobs.append((key, k))
            words.append(f.insert(plan["w"], 65).to_bytes(enc.width // 8, "little"))
    for (key, k), r in zip(jobs, disassemble(target, words) if words else []):
        text = r[0].text if r and r[0].offset == 0 and r[0].text else None
        ops = split_operands(text)[0] if text else []
        if text and k < len(ops) and ops[k] == "0x41" and text.split()[0] == plans[key]["m"]:
            plans[key]["ops"][k]["hex"] = 64


def build_arch(arch_name: str, wave64: bool = False, every_entry: bool = False) -> dict:
    tables = load_arch_tables(arch_name)
    from .probe import probe_arch

    probe = probe_arch(arch_name, wave64, every_entry)
    plans = {}
    for key, rec in probe["entries"].items():
        name, enc_name = key.split("|")
        enc = tables.encodings.get(enc_name)
        if enc is None:
            continue
        plans[key] = build_plan(enc, rec)
        _returning_form(plans[key], enc, rec)  # GFX9 and GFX10/11 (glc) atomics returning the old value
    if tables.gfx.startswith("GFX9"):
        _hex_above_64(probe["target"], tables, plans)
    _saddr_off_forms(probe["target"], tables, plans, wave64)
    # LLVM's encoder fills the bits the printer ignores in its own way: keep its word as the encoder's base
    from ..codec.oracle import assemble

    keys = list(plans)
    texts = [probe["entries"][k]["text"] for k in keys]
    failed = []
    for key, (data, _) in zip(keys, assemble(probe["target"], texts, wave64)):
        enc = tables.encodings[key.split("|")[1]]
        if data is not None and len(data) >= enc.width // 8:
            word = int.from_bytes(data[:enc.width // 8], "little")
            if word != plans[key]["w"] and word & enc.fixed_mask == enc.fixed_value:
                plans[key]["e"] = word
        else:
            failed.append(key)
    _encoder_words_of_vgpr_forms(probe["target"], tables, plans, failed, texts=[probe["entries"][k]["text"] for k in failed],
                                 wave64=wave64)
    return {"arch": arch_name, "target": probe["target"], "generated_by": "python -m gpuisa.regen.plans", "plans": plans}


SREG = re.compile(r"\bs(\d+|\[\d+:\d+\])(?=,|$| )")


def _encoder_words_of_vgpr_forms(target: str, tables, plans: dict, keys: list, texts: list, wave64: bool) -> None:
    """Where LLVM's assembler refuses a plan's base text (an SGPR where only VGPRs are accepted:
    ``v_accvgpr_write_b32 a0, s0``), the same text with VGPRs: the bits of its word outside the operand
    fields (op_sel_hi's default, ...) become the encoder's base word."""
    from ..codec.oracle import assemble

    alt = [SREG.sub(lambda m: "v" + m.group(1), t) for t in texts]
    for key, _text, (data, _) in zip(keys, alt, assemble(target, alt, wave64)):
        enc = tables.encodings[key.split("|")[1]]
        if data is None or len(data) < enc.width // 8:
            continue
        word = int.from_bytes(data[:enc.width // 8], "little")
        own = 0
        for sp in plans[key]["ops"]:
            for fname in [sp.get("f", "")] + list(sp.get("table", {})):
                f = enc.field(fname) if fname else None
                own |= f.mask if f is not None else 0
        word = (word & ~own) | (plans[key]["w"] & own)
        if word != plans[key]["w"] and word & enc.fixed_mask == enc.fixed_value and enc.field(enc.op_field) is not None \
                and enc.field(enc.op_field).extract(word) == enc.field(enc.op_field).extract(plans[key]["w"]):
            plans[key]["e"] = word


SADDR_OFF = (0x7F, 0x7D, 0x7C)  # the "off" (no scalar address) value of SADDR: GFX9, GFX10, GFX11+


def _saddr_off_operand(sp: dict, printed: str, enc) -> dict:
    """An operand of a SADDR-off form whose text SADDR's value chooses: ``off`` there, or (GFX9/GFX10
    scratch: ``scratch_load_dword v1, v5, off``) the VGPR address LLVM prints in its place, read from
    ADDR/VADDR."""
    if not (sp.get("table", {}).keys() == {"SADDR"} or sp.get("f") == "SADDR"):
        return sp
    field = next((f for f in ("ADDR", "VADDR") if enc.field(f) is not None), None)
    if sp.get("f") != "SADDR" and field is not None and re.fullmatch(r"v\d+", printed):
        return {"t": printed, "k": "vreg", "n": 1, "c": "v", "f": field}
    return {"t": "off"}  # chosen by SADDR's value: a constant token here


def _saddr_off_forms(target: str, tables, plans: dict, wave64: bool) -> None:
    """Global, flat and scratch forms whose SADDR says ``off`` print another operand list (a 64-bit VGPR
    address, ``off`` in SADDR's place): each is probed as a plan of its own, kept under the base plan's
    ``alt`` as ``{"SADDR": {value: plan}}`` for the decoder and encoder to switch to."""
    from ..codec import oracle
    from .probe import probe_fields, word_bytes

    by_key = {f"{e.name}|{e.encoding}": e for e in tables.entries}
    cands = []
    for key, plan in sorted(plans.items()):
        f = tables.encodings[key.split("|")[1]].field("SADDR")
        pos = next((i for i, sp in enumerate(plan["ops"]) if sp.get("f") == "SADDR"), None)
        if f is None or pos is None or key not in by_key:
            continue
        cands += [(key, pos, v, f.insert(plan["w"], v)) for v in SADDR_OFF if v < (1 << f.width)]
    got = oracle.disassemble(target, [word_bytes(w, by_key[k].width) for k, _, _, w in cands], wave64)
    # per SADDR value (gfx1030 scratch: 0x7d reads a VGPR address, 0x7f none): each value that prints "off" in
    # SADDR's place, or (gfx1250 FLAT) no scalar address operand at all
    bases: dict[int, dict[str, tuple]] = {}
    for (key, pos, v, w), items in zip(cands, got):
        text = items[0].text if items and items[0].offset == 0 else None
        ops = split_operands(text)[0] if text else []
        if text and text.split()[0] == by_key[key].mnemonic and (
                ops[pos:pos + 1] == ["off"] or len(ops) < len(plans[key]["ops"])):
            bases.setdefault(v, {})[key] = (by_key[key], w, text, items[0].size)
    for v, base in sorted(bases.items(), key=lambda kv: SADDR_OFF.index(kv[0])):
        for key, rec in probe_fields(target, tables, base, wave64).items():
            enc = tables.encodings[key.split("|")[1]]
            alt = build_plan(enc, rec)
            _returning_form(alt, enc, rec)
            alt["ops"] = [_saddr_off_operand(sp, printed, enc)
                          for sp, printed in zip(alt["ops"], split_operands(base[key][2])[0] + [""] * len(alt["ops"]))]
            known = [plans[key]["ops"], *(a["ops"] for a in plans[key].get("alt", {}).get("SADDR", {}).values())]
            if alt["ops"] not in known:
                plans[key].setdefault("alt", {}).setdefault("SADDR", {})[str(v)] = alt


def wave64_overlay(plans32: dict[str, dict], plans64: dict[str, dict]) -> dict[str, dict | None]:
    """What wave64 changes: plans that differ, and None for forms that exist in wave32 only."""
    out: dict[str, dict | None] = {k: v for k, v in plans64.items() if plans32.get(k) != v}
    out.update({k: None for k in plans32 if k not in plans64})
    return dict(sorted(out.items()))


def plain_src0_forms(arch_name: str, encodings, nbytes: int):
    """(key, encoding, plan word with SRC0 cleared, text) of every plan of ``encodings`` whose word with a
    VGPR in SRC0 decodes as an ``nbytes``-long instruction of its own: the base forms that the src0-marked
    variants (SDWA, DPP) extend."""
    from ..codec.decoder import Decoder

    t = load_arch_tables(arch_name)
    dec = Decoder(arch_name)
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if key.split("|")[1] not in encodings or enc is None or enc.width != nbytes * 8 or enc.field("SRC0") is None:
            continue
        f = enc.require_field("SRC0")
        w = plan.word & ~f.mask
        mine = dec._decode_slow((w | f.place(256 + 5)).to_bytes(nbytes, "little") + b"\0" * 8, 0)
        if mine.valid and len(mine.data) == nbytes:
            yield key, enc, w, mine.text


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--syntax16"]:  # only the 16-bit syntax overlays, against the committed plans
        for name in argv[1:] or [a.name for a in archs.AMD_ARCHS if a.features.syntax16]:
            _syntax16_overlay(name, json.loads((DATA_DIR / f"plans_{name}.json").read_text())["plans"])
        return 0
    names = argv or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    for name in names:
        doc = build_arch(name)
        items = dict(sorted(doc["plans"].items()))
        head = {k: v for k, v in doc.items() if k != "plans"}
        (DATA_DIR / f"plans_{name}.json").write_text(dumps_one_per_line(head, "plans", items))
        print(f"{name}: {len(items)} plans", file=sys.stderr)
        if set(archs.by_name(name).features.waves) == {32, 64}:
            doc64 = build_arch(name, wave64=True)
            over = wave64_overlay(items, doc64["plans"])
            head = {**{k: v for k, v in doc64.items() if k != "plans"}, "wave64": True}
            (DATA_DIR / f"plans_{name}_wave64.json").write_text(dumps_one_per_line(head, "plans", over))
            print(f"{name}: {len(over)} plans differ in wave64", file=sys.stderr)
        if archs.by_name(name).features.syntax16:
            _syntax16_overlay(name, items)
    return 0


def measured_default_syntax16(target: str) -> str:
    """LLVM 22's default 16-bit syntax for ``target``, measured: true16 where a VOP2 line naming register halves
    assembles without -mattr, else fake16."""
    from ..codec.oracle import assemble

    data, _ = assemble(target, ["v_add_f16 v1.l, v2.l, v3.l"])[0]
    return "true16" if data is not None else "fake16"


def _src0_lo128(target: str, name: str, plans: dict) -> None:
    """The ``lo128`` note of 32-bit VOP1/VOP2/VOPC plans whose SRC0 llvm-mc-22 prints with a Lo128 register-class
    note from v128 on (a 16-bit source in fake16 syntax; the default mode's named tables carry it per source)."""
    from ..codec.oracle import disassemble

    tables = load_arch_tables(name)
    keys = [k for k, p in plans.items() if k.split("|")[1] in ("VOP1", "VOP2", "VOPC") and "lo128" not in p
            and any(o.get("f") == "SRC0" and o.get("k") == "src" for o in p["ops"])]
    words = [tables.encodings[k.split("|")[1]].require_field("SRC0").insert(plans[k]["w"], 256 + 200) for k in keys]
    for k, items in zip(keys, disassemble(target, [w.to_bytes(4, "little") for w in words])):
        text = items[0].text if items else None
        if text and "Lo128" in text and "/*" in text:
            plans[k]["lo128"] = text[text.index("/*"):text.index("*/") + 2]


def _opsel_fake16(name: str, mode: str) -> None:
    """``opsel16_<arch>.json`` where true16 is not LLVM 22's default: per VOP3 plan with 16-bit halves, the OP_SEL
    bits that make llvm-mc-22 print the word in fake16 syntax (an op_sel bit of an operand the true16 form
    lacks), measured one bit at a time with VGPR sources against the -real-true16 text of the same word."""
    from ..codec.oracle import disassemble, features

    if mode != "true16":
        return
    tables, rows = load_arch_tables(name), []
    for key, plan in sorted(load_plans(name, False, mode).items()):
        enc = tables.encodings[key.split("|")[1]]
        f = enc.field("OP_SEL")
        if f is None or enc.width != 64 or not any(x.endswith((".l", ".h")) for o in plan.operands
                                                    for t in o.tables.values() for x in map(str, t.values())):
            continue
        w = plan.word
        for i, src in enumerate(("SRC0", "SRC1", "SRC2")):
            if any(src in (o.field, *o.tables) for o in plan.operands):
                w = enc.require_field(src).insert(w, 257 + i)
        rows += [(key, bit, f.insert(w, 1 << bit)) for bit in range(f.width)]
    target, words = archs.by_name(name).mc_target, [w.to_bytes(8, "little") for *_, w in rows]
    texts = {}
    for attr in ("+real-true16", "-real-true16"):
        with features(attr):
            texts[attr] = [items[0].text if items else None for items in disassemble(target, words)]
    masks: dict[str, int] = {}
    for (key, bit, _), t16, f16 in zip(rows, texts["+real-true16"], texts["-real-true16"]):
        if t16 is not None and t16 == f16:
            masks[key] = masks.get(key, 0) | 1 << bit
    doc = {"arch": name, "generated_by": "python -m gpuisa.regen.plans (--syntax16)", "masks": masks}
    (DATA_DIR / f"opsel16_{name}.json").write_text(dumps_one_per_line({k: v for k, v in doc.items() if k != "masks"},
                                                                      "masks", masks))
    print(f"{name}: {len(masks)} true16 forms print in fake16 for some op_sel bits", file=sys.stderr)


def _syntax16_overlay(name: str, items: dict) -> None:
    """``plans_<arch>_<mode>.json``: the plans that print differently in the 16-bit syntax mode that is not
    LLVM 22's default (probed with -mattr=+real-true16 or -real-true16), None for forms that mode lacks."""
    from ..codec.oracle import features

    arch = archs.by_name(name)
    default = measured_default_syntax16(arch.mc_target)
    if default != archs.default_syntax16(arch):
        raise SystemExit(f"{name}: llvm-mc-22 defaults to {default}; fix Features.true16 in archs.py")
    mode = next(m for m in arch.features.syntax16 if m != default)
    with features("+real-true16" if mode == "true16" else "-real-true16"):
        doc = build_arch(name, every_entry=True)
        _src0_lo128(arch.mc_target, name, doc["plans"])
    # (compared as the files hold them: JSON keys are strings)
    over = wave64_overlay(json.loads(json.dumps(items)), json.loads(json.dumps(doc["plans"])))
    head = {**{k: v for k, v in doc.items() if k != "plans"}, "syntax16": mode, "default_syntax16": default}
    head["generated_by"] = "python -m gpuisa.regen.plans (--syntax16)"
    (DATA_DIR / f"plans_{name}_{mode}.json").write_text(dumps_one_per_line(head, "plans", over))
    print(f"{name}: {len(over)} plans differ in {mode}", file=sys.stderr)
    if set(arch.features.waves) == {32, 64}:  # wave64 in that mode: against the default's wave64 plans
        base = dict(json.loads(json.dumps(items)))
        for k, v in json.loads((DATA_DIR / f"plans_{name}_wave64.json").read_text())["plans"].items():
            base.pop(k, None) if v is None else base.__setitem__(k, v)
        with features("+real-true16" if mode == "true16" else "-real-true16"):
            doc64 = build_arch(name, wave64=True, every_entry=True)
            _src0_lo128(arch.mc_target, name, doc64["plans"])
        over = wave64_overlay(base, json.loads(json.dumps(doc64["plans"])))
        (DATA_DIR / f"plans_{name}_{mode}_wave64.json").write_text(dumps_one_per_line({**head, "wave64": True},
                                                                                      "plans", over))
        print(f"{name}: {len(over)} plans differ in {mode} wave64", file=sys.stderr)
    _opsel_fake16(name, mode)


if __name__ == "__main__":
    raise SystemExit(main())
