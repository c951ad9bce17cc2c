"""Named field values learned from llvm-mc-22 (generation time): hardware-register names, buffer format
names, export targets and export source slots, DPP, VOPD, register counts, notes, per architecture.

    python -m gpuisa.regen.named [arch ...]   # writes codec/data/named_<arch>.json

Each table is obtained by disassembling words built from a plan's base word with one field set to every
value it can take and reading back the token LLVM prints for it; nothing is copied from LLVM's sources.
The runtime reads the tables with ``codec.named.load_named``; the decoder (``special.py``) turns them into
operands.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .. import archs
from ..codec.named import vaddr_list_text
from ..codec.plans import DATA_DIR, load_plans
from ..codec.syntax import split_operands
from ..codec.tables import load_arch_tables

_HWREG = re.compile(r"hwreg\(([A-Z_0-9]+)\)")


def _probe(arch_name: str, key: str, settings: list[dict[str, int]]) -> list[str | None]:
    """Text llvm-mc prints for the plan ``key``'s base word with each field setting applied."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    plan = load_plans(arch_name)[key]
    enc = t.encodings[key.split("|")[1]]
    words = []
    for s in settings:
        w = plan.word
        for fname, v in s.items():
            f = enc.require_field(fname)
            w = f.insert(w, v)
        words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    return [r[0].text if r and r[0].offset == 0 and r[0].size == len(w) else None for r, w in zip(got, words)]


def _first_key(arch_name: str, prefix: str, encoding: str) -> str | None:
    keys = sorted(k for k in load_plans(arch_name) if k.startswith(prefix) and k.endswith("|" + encoding))
    return keys[0] if keys else None


def _probe_buffer_formats(arch_name: str, key: str) -> dict:
    """The ``format:`` token of every value of a typed buffer access's FORMAT (or NFMT/DFMT) fields."""
    enc = load_arch_tables(arch_name).encodings["MTBUF"]
    names = [f.name for f in enc.fields if f.name in ("FORMAT", "DFMT", "NFMT")]
    if names == ["FORMAT"]:
        settings = [{"FORMAT": v} for v in range(128)]
    else:
        settings = [{"NFMT": v >> 4, "DFMT": v & 15} for v in range(128)]
    fmt: dict = {}
    for v, text in enumerate(_probe(arch_name, key, settings)):
        if text is None:
            fmt[str(v)] = None
            continue
        mods = split_operands(text)[1]
        fmt[str(v)] = next((m for m in mods if m.startswith("format:")), "")
    return fmt


def _probe_export(arch_name: str, key: str, enc_name: str) -> dict:
    """Export targets, which source slot each enable mask fills (per COMPR value), and the modifiers."""
    out: dict = {}
    texts = _probe(arch_name, key, [{"TARGET": v, "EN": 15} for v in range(64)])
    out["exp_target"] = {str(v): (t.split()[1].rstrip(",") if t else None) for v, t in enumerate(texts)}
    fields = [f.name for f in load_arch_tables(arch_name).encodings[enc_name].fields]
    has_compr = "COMPR" in fields
    settings = [{"EN": en, "VSRC0": 10, "VSRC1": 11, "VSRC2": 12, "VSRC3": 13, **({"COMPR": c} if has_compr else {})}
                for c in ((0, 1) if has_compr else (0,)) for en in range(16)]
    slots = {}
    for s, text in zip(settings, _probe(arch_name, key, settings)):
        if text is None:
            continue
        ops, _mods = split_operands(text)
        toks = ops[0].split()[1:] + ops[1:4]  # the target and the first source share the first operand
        slots[f"{s.get('COMPR', 0)}/{s['EN']}"] = [None if o == "off" else int(o[1:]) - 10 for o in toks]
    out["exp_slots"] = slots
    every: dict[str, int] = {f: 1 for f in ("DONE", "COMPR", "VM", "ROW") if f in fields}
    text = _probe(arch_name, key, [{"EN": 15, **every}])[0]
    out["exp_mods"] = split_operands(text)[1] if text else []
    return out


def build_arch(arch_name: str) -> dict:
    out: dict = {"arch": arch_name, "generated_by": "python -m gpuisa.regen.named"}
    key = _first_key(arch_name, "s_getreg_b32|", "SOPK")
    if key:
        texts = _probe(arch_name, key, [{"SIMM16": i | (31 << 11)} for i in range(64)])
        out["hwreg"] = {str(i): m.group(1) for i, t in enumerate(texts) if t and (m := _HWREG.search(t))}
    key = _first_key(arch_name, "tbuffer_load_format_x|", "MTBUF")
    if key:
        out["format"] = _probe_buffer_formats(arch_name, key)
    for enc_name, mn in (("EXP", "exp|"), ("VEXPORT", "export|")):
        key = _first_key(arch_name, mn, enc_name)
        if key:
            out.update(_probe_export(arch_name, key, enc_name))
    key = _first_key(arch_name, "s_version|", "SOPK")
    if key:
        texts = _probe(arch_name, key, [{"SIMM16": v} for v in range(256)] + [{"SIMM16": 1 << b} for b in range(8, 16)])
        out["version_codes"] = {str(v): t.split()[1] for v, t in enumerate(texts[:256]) if t and "UC_" in t}
        out["version_flags"] = [[8 + i, t.split()[1].split("|")[1]] for i, t in enumerate(texts[256:])
                                if t and "|" in t]
    key = _first_key(arch_name, "v_interp_mov_f32|", "VINTRP")
    if key:
        texts = _probe(arch_name, key, [{"VSRC": v} for v in range(256)])
        out["interp_param"] = {str(v): split_operands(t)[0][1] for v, t in enumerate(texts) if t}
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
        out["dpp8"] = _probe_dpp8(arch_name)
        out["dpp16"] = _probe_dpp16(arch_name, out["dpp8"])
    if archs.by_name(arch_name).gfx.split(".")[0] == "GFX9":
        from .gfx9 import probe_named

        out.update(probe_named(arch_name))  # DPP16 forms and register-class tables (``gfx9.py``)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX9", "GFX10"):
        from .sdwa import probe_sdwa

        out["sdwa"] = probe_sdwa(arch_name)  # SDWA forms (``sdwa.py``)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX11", "GFX12"):
        from .vop3dpp import probe_vop3dpp

        out["vop3dpp"] = probe_vop3dpp(arch_name)  # VOP3 DPP forms (``vop3dpp.py``)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX11", "GFX12"):
        out["src_note"] = _probe_src_notes(arch_name)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
        out["src_tables"] = _probe_src_tables(arch_name)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
        out["bad_values"] = _probe_bad_values(arch_name)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
        out["imm_hex_above_64"] = _probe_imm_styles(arch_name)
    if {"VSAMPLE", "VIMAGE"} & set(load_arch_tables(arch_name).encodings):
        out["vaddr_lists"] = _probe_vaddr_lists(arch_name)
    out["must_zero"] = _probe_must_zero(arch_name)
    out["counts"] = _probe_counts(arch_name)
    if archs.by_name(arch_name).gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
        from . import rdna

        out.update(rdna.probe_named(arch_name, out))  # GFX10+ rules (``regen/rdna.py``)
    if "VOPD" in load_arch_tables(arch_name).encodings:
        out["vopd"] = _probe_vopd(arch_name)
        out["vopd_zero"] = _probe_vopd_zero(arch_name, out["vopd"])
    return out


COUNT_DEPS = {"VDATA": ("DMASK", "TFE", "D16"), "VADDR": ("DIM", "A16")}


def _plans_with_encodings(arch_name: str, max_width: int):
    """(key, plan, encoding) of every plan of ``arch_name`` whose encoding is known and at most ``max_width``
    bits wide, in key order."""
    t = load_arch_tables(arch_name)
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is not None and enc.width <= max_width:
            yield key, plan, enc


def _probe_counts(arch_name: str) -> dict:
    """Register count of VDATA / VADDR for every value of the fields it depends on (None: LLVM rejects)."""
    from ..codec import oracle
    from ..codec.operands import parse_reg

    t = load_arch_tables(arch_name)
    jobs = []  # (key, op index, deps, widths)
    words: list[bytes] = []
    for key, plan, enc in _plans_with_encodings(arch_name, 96):
        for k, spec in enumerate(plan.operands):
            if spec.kind != "vreg" or spec.field not in COUNT_DEPS:
                continue
            deps = [d for d in COUNT_DEPS[spec.field] if enc.field(d) is not None]
            if spec.field == "VDATA" and t.gfx.startswith("GFX9"):  # gfx908 prints MUBUF bit 55 (ACC) as tfe; lds excludes it
                deps += [f for f, m in sorted(plan.modifiers.items()) if f not in deps and
                         ((m.tokens or {}).get("1", [[]])[0] in (["tfe"], ["lds"]))]
            if not deps:
                continue
            widths = [enc.field(d).width for d in deps]
            total = 1
            for w in widths:
                total <<= w
            jobs.append((key, k, deps, widths, len(words), total))
            for idx in range(total):
                w = plan.word
                rest = idx
                for d, wd in zip(deps, widths):
                    f = enc.field(d)
                    w = (w & ~f.place((1 << wd) - 1)) | f.place(rest & ((1 << wd) - 1))
                    rest >>= wd
                f = enc.field(spec.field)
                w = f.insert(w, 10)
                words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    out: dict[str, list[dict]] = {}
    for key, k, deps, widths, start, total in jobs:
        counts = []
        for r, w in zip(got[start:start + total], words[start:start + total]):
            text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size == len(w) else None
            ops = split_operands(text)[0] if text else []
            reg = parse_reg(ops[k].split("/*")[0]) if k < len(ops) else None
            counts.append(reg[2] if reg else None)
        if len(set(counts)) > 1:
            out.setdefault(key, []).append({"op": k, "deps": deps, "widths": widths, "n": counts})
    return out


def _probe_must_zero(arch_name: str) -> dict:
    """Per encoding, the bits outside every field that LLVM rejects when set (tried on each plan's base word)."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    jobs, words = [], []
    for enc_name, enc in sorted(t.encodings.items()):
        if enc.width > 64:
            continue
        covered = 0
        for f in enc.fields:
            covered |= f.mask
        free = [b for b in range(enc.width) if not covered >> b & 1]
        keys = sorted(k for k in plans if k.endswith("|" + enc_name))
        for key in keys[:3]:
            for b in free:
                jobs.append((enc_name, b))
                words.append((plans[key].word | (1 << b)).to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    seen: dict[str, dict[int, list[bool]]] = {}
    for (enc_name, b), r in zip(jobs, got):
        seen.setdefault(enc_name, {}).setdefault(b, []).append(bool(r) and r[0].offset == 0 and r[0].text is None)
    return {e: sum(1 << b for b, rej in bits.items() if all(rej)) for e, bits in seen.items()
            if any(all(rej) for rej in bits.values())}


def _probe_src_notes(arch_name: str) -> dict:
    """The comment LLVM appends to a 9-bit source naming a VGPR >= 128 (``Lo128`` register classes), per plan."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    jobs, words = [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        for k, spec in enumerate(plan.operands):
            if spec.kind == "src" and enc is not None and enc.width <= 64:
                f = enc.require_field(spec.field)
                w = f.insert(plan.word, 256 + 200)
                jobs.append((key, k))
                words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    out: dict = {}
    for (key, k), r, data in zip(jobs, got, words):
        text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size >= len(data) else None
        ops = split_operands(text)[0] if text else []
        if k < len(ops) and "v200" in ops[k]:
            tok = ops[k]
            out.setdefault(key, {})[str(k)] = tok[tok.index("/*"):tok.rindex("*/") + 2] if "/*" in tok else ""
    return out


SRC_TRIAL = (4, 129, 266)  # s4, the inline constant 1, v10


def _probe_src_tables(arch_name: str) -> dict:
    """Sources whose register class LLVM restricts (it prints other values with an ``Invalid`` comment):
    the token for each of the field's values, per plan operand.  Found by trying s4, 1 and v10 on every
    plan's 9-bit sources; tables are shared between operands that print alike."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    target = archs.by_name(arch_name).mc_target
    plans = load_plans(arch_name)
    jobs, words = [], []

    def word_with(key, spec, v):
        enc = t.encodings[key.split("|")[1]]
        f = enc.require_field(spec.field)
        w = f.insert(plans[key].word, v)
        return w.to_bytes(enc.width // 8, "little")

    for key, plan in sorted(plans.items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.width > 96:
            continue
        for k, spec in enumerate(plan.operands):
            if spec.kind == "src" and enc.require_field(spec.field).width == 9:
                jobs.append((key, k))
                words += [word_with(key, spec, v) for v in SRC_TRIAL]
    got = oracle.disassemble(target, words)

    def token(r, w, k):
        text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size >= len(w) else None
        ops = split_operands(text)[0] if text else []
        return ops[k] if k < len(ops) else None

    full = []
    for i, (key, k) in enumerate(jobs):
        toks = [token(r, w, k) for r, w in zip(got[3 * i:3 * i + 3], words[3 * i:3 * i + 3])]
        if any(x is None or "/*" in x for x in toks):
            full.append((key, k))
    words = [word_with(key, plans[key].operands[k], v) for key, k in full for v in range(512)]
    got = oracle.disassemble(target, words) if words else []
    tables: list[list] = []
    index: dict = {}
    for i, (key, k) in enumerate(full):
        # a value that makes LLVM read more than the word (DPP/SDWA markers) is another form: no token here
        toks = [token(r, w, k) if (r and (r[0].size == len(w) or v == 255)) else None
                for v, (r, w) in enumerate(zip(got[512 * i:512 * i + 512], words[512 * i:512 * i + 512]))]
        lit = toks[255]  # the literal's own text depends on the bytes after the word: keep only LLVM's comment
        toks[255] = None if lit is None else "{}" + (lit[lit.index("/*"):] if "/*" in lit else "")
        if toks not in tables:
            tables.append(toks)
        index.setdefault(key, {})[str(k)] = tables.index(toks)
    return {"tables": tables, "ops": index}


def _probe_imm_styles(arch_name: str) -> dict:
    """Immediates the plan prints in decimal that LLVM prints in hex above 64 (its unsigned 16-bit and
    small-immediate printers print inline-constant-sized values in decimal): plan -> operand indexes."""
    from ..codec import oracle

    jobs, words = [], []
    for key, plan, enc in _plans_with_encodings(arch_name, 96):
        for k, spec in enumerate(plan.operands):
            f = enc.field(spec.field) if spec.kind == "imm" and not spec.hex else None
            if f is None or f.width < 7:
                continue
            for v in (64, 65, 100):
                jobs.append((key, k, v))
                w = f.insert(plan.word, v)
                words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    seen: dict = {}
    for (key, k, v), r, w in zip(jobs, got, words):
        text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size >= len(w) else None
        ops = split_operands(text)[0] if text else []
        seen.setdefault((key, k), {})[v] = ops[k] if k < len(ops) else None
    out: dict = {}
    for (key, k), toks in seen.items():
        if toks.get(64) == "64" and toks.get(65) == "0x41" and toks.get(100) == "0x64":
            out.setdefault(key, []).append(k)
    return out


def _probe_bad_values(arch_name: str) -> dict:
    """Every value LLVM rejects in a 7- to 9-bit field where the plan's probe found one rejected value
    (the plan tried a few values only), per plan and field.  8-bit VGPR fields with a Lo128 limit are
    left to the plan's rule."""
    from ..codec import oracle

    jobs, words = [], []
    for key, plan, enc in _plans_with_encodings(arch_name, 96):
        for fname, b in plan.rejected.items():
            f = enc.field(fname)
            if not isinstance(b, list) or f is None or not 7 <= f.width <= 9 or (f.width == 8 and b[-1] == 128):
                continue
            jobs.append((key, fname, f.width))
            for v in range(1 << f.width):
                w = f.insert(plan.word, v)
                words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words) if words else []
    out: dict = {}
    i = 0
    for key, fname, width in jobs:
        rows = got[i:i + (1 << width)]
        i += 1 << width
        out.setdefault(key, {})[fname] = [v for v, r in enumerate(rows) if not (r and r[0].offset == 0 and r[0].text)]
    return out


VADDR_PROBE = (10, 20, 30, 40, 50)  # VADDR0..VADDR4; the last slot is probed at 0 (LLVM rejects some words with it set)


LAST_TRIAL = 191


def _probe_vaddr_lists(arch_name: str) -> dict:
    """GFX12 image instructions (VSAMPLE/VIMAGE): number of address registers for each DIM and A16
    (index DIM | A16 << 3; None where LLVM rejects the word or prints another shape), per plan."""
    from ..codec import oracle
    from ..codec.operands import parse_reg

    t = load_arch_tables(arch_name)
    jobs, words = [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc = t.encodings.get(key.split("|")[1])
        if enc is None or enc.name not in ("VSAMPLE", "VIMAGE"):
            continue
        k = next((i for i, sp in enumerate(plan.operands) if "VADDR0" in sp.tables or sp.field == "VADDR0"), None)
        if k is None or enc.field("DIM") is None:
            continue
        slots = [f"VADDR{i}" for i in range(5) if enc.field(f"VADDR{i}") is not None]
        jobs.append((key, k, slots))
        for last in (0, LAST_TRIAL):
            for idx in range(16):
                w = plan.word
                for fname, v in [("DIM", idx & 7), ("A16", idx >> 3)] + list(zip(slots, VADDR_PROBE[:len(slots) - 1] + (last,))):
                    f = enc.field(fname)
                    if f is not None:
                        w = f.insert(w, v)
                words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    out = {}
    for j, (key, k, slots) in enumerate(jobs):
        counts = []
        for r, wb in zip(got[32 * j:32 * j + 16], words[32 * j:32 * j + 16]):
            text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size == len(wb) else None
            ops = split_operands(text)[0] if text else []
            tok = ops[k] if k < len(ops) else ""
            inner = tok[1:-1] if tok.startswith("[") else tok
            parts = inner.split(",") if tok else []
            regs = [r for r in (parse_reg(x.strip()) for x in parts) if r is not None]
            n = sum(x[2] for x in regs) if parts and len(regs) == len(parts) else None
            if n is not None and vaddr_list_text(list(VADDR_PROBE[:len(slots) - 1]) + [0], n) != tok:
                n = None
            counts.append(n)
        # where LLVM accepts the last slot = 0 but not set, although the field is not an address then
        last_zero = [n is not None and n < len(slots) and not (r and r[0].offset == 0 and r[0].text)
                     for n, r in zip(counts, got[32 * j + 16:32 * j + 32])]
        out[key] = {"op": k, "n": counts, **({"last_zero": last_zero} if any(last_zero) else {})}
    return out


DPP8_LANES = [1, 2, 3, 4, 5, 6, 7, 0]


def dpp8_word(src: int, lanes: list[int]) -> int:
    w = src
    for i, lane in enumerate(lanes):
        w |= lane << (8 + 3 * i)
    return w


def _probe_dpp8(arch_name: str) -> dict:
    """Mnemonic of each 32-bit vector instruction's DPP8 form (src0 = 0xE9), where LLVM prints it as
    the e32 text with that mnemonic, src0 = the DPP word's VGPR and a ``dpp8:[...]`` modifier."""
    from ..codec import oracle
    from ..codec.decoder import Decoder

    t = load_arch_tables(arch_name)
    dec = Decoder(arch_name)
    keys, words, wants = [], [], []
    for key, plan in sorted(load_plans(arch_name).items()):
        enc_name = key.split("|")[1]
        enc = t.encodings.get(enc_name)
        if enc_name not in ("VOP1", "VOP2", "VOPC") or enc is None or enc.width != 32 or enc.field("SRC0") is None:
            continue
        f = enc.require_field("SRC0")
        w = (plan.word & ~f.mask)
        mine = dec._decode_slow((w | f.place(256 + 5)).to_bytes(4, "little") + b"\0" * 8, 0)
        if not mine.valid or len(mine.data) != 4:
            continue
        keys.append(key)
        words.append((w | f.place(0xE9)).to_bytes(4, "little") + dpp8_word(5, DPP8_LANES).to_bytes(4, "little"))
        wants.append(mine.text)
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    out = {}
    for key, r, want in zip(keys, got, wants):
        text = r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None
        if not text:
            continue
        mn = text.split()[0]
        assert want is not None  # a valid decode has a text
        if text == mn + want[len(want.split()[0]):] + " dpp8:[" + ",".join(map(str, DPP8_LANES)) + "]":
            out[key] = mn
    return out


DPP16_MOD_BITS = (20, 21, 22, 23)  # src0 neg, src0 abs, src1 neg, src1 abs in the DPP dword


def dpp16_word(src: int, ctrl: int, bits: int = 0, row: int = 0xF, bank: int = 0xF) -> int:
    return src | (ctrl << 8) | bits | (bank << 24) | (row << 28)


def _probe_dpp16(arch_name: str, dpp8: dict) -> dict:
    """DPP16 forms (src0 = 0xFA) of the instructions that have a DPP8 form: the text LLVM prints for each of
    the 512 dpp_ctrl values (learned on one instruction), and per instruction which source neg/abs bits it
    accepts (a bit mask over ``DPP16_MOD_BITS``)."""
    from ..codec import oracle

    t = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    target = archs.by_name(arch_name).mc_target

    def first_word(key):
        enc = t.encodings[key.split("|")[1]]
        f = enc.require_field("SRC0")
        return f.insert(plans[key].word, 0xFA)

    keys = sorted(dpp8)
    if not keys:
        return {}
    w0 = first_word(keys[0])
    words = [w0.to_bytes(4, "little") + dpp16_word(5, c).to_bytes(4, "little") for c in range(512)]
    got = oracle.disassemble(target, words)
    ctrl = []
    for r in got:
        text = r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None
        m = re.search(r"\s(\S+|/\*.*\*/) row_mask:0xf bank_mask:0xf$", text or "")
        ctrl.append(m.group(1) if m else None)
    words = []
    for key in keys:
        w = first_word(key).to_bytes(4, "little")
        words += [w + dpp16_word(5, 0xE4, 1 << b).to_bytes(4, "little") for b in DPP16_MOD_BITS]
        words.append(w + dpp16_word(5, 0xE4).to_bytes(4, "little"))
    got = oracle.disassemble(target, words)
    mods, shown = {}, {}
    for i, key in enumerate(keys):
        rows = got[5 * i:5 * i + 5]
        ok = [bool(r) and r[0].offset == 0 and r[0].text is not None for r in rows[:4]]
        mods[key] = sum(1 << j for j, x in enumerate(ok) if x)
        # accepted bits LLVM does not print (the operand has no such modifier: v_dot4c_i32_i8, v_ldexp_f16's src1)
        plain = rows[4][0].text if rows[4] and rows[4][0].offset == 0 else None
        seen = sum(1 << j for j, (x, r) in enumerate(zip(ok, rows[:4])) if x and r[0].text != plain)
        if seen != mods[key]:
            shown[key] = seen
    return {"ctrl": ctrl, "mods": mods, **({"shown": shown} if shown else {})}


VOPD_PROBE = {"VDSTX": 4, "VDSTY": 3, "SRCX0": 258, "VSRCX1": 3, "SRCY0": 261, "VSRCY1": 6}


VOPD_TOKENS = {"v4": "VDSTX", "v7": "VDSTY", "v2": "SRCX0", "v3": "VSRCX1", "v5": "SRCY0", "v6": "VSRCY1"}


_VTOK = re.compile(r"(?<![\w\[:])v\d+(?![\w\]:])|0xbf80000[67]")


def _probe_vopd(arch_name: str) -> dict:
    """Text template per (OPX, OPY): registers and the literal replaced by the field that holds them."""
    from ..codec import oracle

    enc = load_arch_tables(arch_name).encodings["VOPD"]
    words = []
    for opx in range(16):
        for opy in range(32):
            w = enc.fixed_value | enc.require_field("OPX").place(opx) | enc.require_field("OPY").place(opy)
            for fname, v in VOPD_PROBE.items():
                w |= enc.require_field(fname).place(v)
            words.append(w.to_bytes(8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    out = {}
    for i, r in enumerate(got):
        if not r or r[0].offset != 0 or r[0].text is None:
            continue
        text = r[0].text
        out[f"{i >> 5}/{i & 31}"] = _VTOK.sub(lambda m: "{%s}" % VOPD_TOKENS.get(m.group(0), "LIT"), text)
    return out


VOPD_UNUSED = (("VSRCX1",), ("VSRCY1",), ("VSRCX1", "VSRCY1"))


def _probe_vopd_zero(arch_name: str, templates: dict) -> dict:
    """(OPX, OPY) pairs LLVM accepts only with an unused second-source field zero (a half without a
    second source, such as v_dual_mov_b32): their template and the fields that must be zero."""
    from ..codec import oracle

    enc = load_arch_tables(arch_name).encodings["VOPD"]
    jobs, words = [], []
    for opx in range(16):
        for opy in range(32):
            if f"{opx}/{opy}" in templates:
                continue
            for zero in VOPD_UNUSED:
                w = enc.fixed_value | enc.require_field("OPX").place(opx) | enc.require_field("OPY").place(opy)
                for fname, v in VOPD_PROBE.items():
                    w |= enc.require_field(fname).place(0 if fname in zero else v)
                jobs.append((f"{opx}/{opy}", zero))
                words.append(w.to_bytes(8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    out: dict = {}
    for (pair, zero), r in zip(jobs, got):
        if pair in out or not r or r[0].offset != 0 or r[0].text is None:
            continue
        text = _VTOK.sub(lambda m: "{%s}" % VOPD_TOKENS.get(m.group(0), "LIT"), r[0].text)
        out[pair] = {"t": text, "zero": list(zero)}
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    names = argv or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    for name in names:
        doc = build_arch(name)
        Path(DATA_DIR / f"named_{name}.json").write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n")
        print(f"{name}: {', '.join(k for k in doc if k not in ('arch', 'generated_by'))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
