"""Table-driven AMD GPU assembler (LLVM's syntax) - the inverse of the decoder.

An instruction line is split into mnemonic, operands and modifiers
(``syntax.py``); the candidate entries are those with that LLVM mnemonic (or,
for a bare name such as ``v_add_f32``, every encoding of the instruction,
32-bit forms first, as LLVM prefers).  Each operand is parsed back through
the entry's print plan: register fields, source values with literals, token
templates (``-x``, ``|x|``), modifier words; unspecified fields keep the
plan's silent defaults.  The first candidate that accepts every operand wins.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from .. import archs
from . import dpp16
from . import operands as opd
from . import rdna, sdwa, simm16, special, vop3dpp
from .decoder import operand_type, split_immediate_fields
from .plans import load_plans
from .syntax import split_operands

_COMMENT = re.compile(r"/\*.*?\*/")
from .tables import ArchTables, Entry, load_arch_tables


class EncodeError(ValueError):
    """Text that is not an instruction of the architecture (one line, with the reason)."""


@dataclass
class Encoded:
    data: bytes
    encoding: str
    name: str
    fields: dict[str, int] = field(default_factory=dict)
    literal: int | None = None

    def to_json(self) -> dict:
        out = {"bytes": self.data.hex(), "encoding": self.encoding, "fields": dict(self.fields)}
        if self.literal is not None:
            out["literal"] = f"0x{self.literal:08x}"
        return out


_NUM = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")
_FLOAT = re.compile(r"^-?\d+\.\d*(e[-+]?\d+)?$")


def _float_bits(tok: str, size: int) -> int | None:
    if not _FLOAT.match(tok):
        return None
    x = float(tok)
    if size == 16:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    if size == 64:
        return struct.unpack("<Q", struct.pack("<d", x))[0] >> 32
    return struct.unpack("<I", struct.pack("<f", x))[0]


class Encoder:
    def __init__(self, arch: str, wave64: bool = False):
        self.arch = archs.resolve_arch(arch).name
        self.tables: ArchTables = load_arch_tables(self.arch)
        self.plans = load_plans(self.arch, wave64)
        self.features = archs.by_name(self.arch).features
        self.gfx = self.tables.gfx.split(".")[0]
        self.wave64 = wave64
        from .named import load_named

        self.named = load_named(self.arch)

    def candidates(self, mnemonic: str) -> list[Entry]:
        t = self.tables
        found = list(t.by_mnemonic.get(mnemonic, []))
        base = mnemonic
        for suf in ("_e32", "_e64"):
            if base.endswith(suf):
                base = base[: -len(suf)]
        for e in t.by_name.get(base, []):
            plan = self.plans.get(f"{e.name}|{e.encoding}")
            # an explicit size suffix LLVM does not print (v_nop_e32) names the 32- or 64-bit form
            suffixed = mnemonic == base + ("_e32" if e.width == 32 else "_e64")
            if e not in found and (base == mnemonic or suffixed or (plan and plan["m"] == mnemonic)):
                found.append(e)
        found.sort(key=lambda e: e.width)
        return found

    def encode_line(self, text: str) -> Encoded:
        text = " ".join(_COMMENT.sub("", text).strip().split())  # /* ... */ comments (LLVM's notes) are blanks
        text = _DIM.sub(r"dim:SQ_RSRC_IMG_\1", text)  # dim:2D is LLVM's short spelling of dim:SQ_RSRC_IMG_2D
        text = _MOD_LIST.sub(lambda m: m.group(1) + "[" + ",".join(x.strip() for x in m.group(2).split(",")) + "]", text)
        if not text:
            raise EncodeError("empty instruction")
        mnemonic = text.split()[0].lower()
        if self.wave64 and 64 not in self.features.waves:
            raise EncodeError(f"{self.arch} runs wave32 only; drop --wave64")
        alias = self.named.get("aliases", {}).get(mnemonic)
        if alias is not None and not self.candidates(mnemonic):  # a name LLVM's assembler also accepts
            text, mnemonic = alias + text[len(mnemonic):], alias
        if " :: " in text and "vopd" in self.named:
            if self.wave64:
                raise EncodeError("dual-issue (VOPD) instructions exist in wave32 only; drop --wave64")
            return self._encode_vopd(text)
        if self.named.get("vop3dpp") and ("_dpp" in mnemonic or "dpp8:[" in text or "row_mask:" in text):
            got = vop3dpp.encode_vop3dpp(self, text, mnemonic)  # GFX11/GFX12 VOP3 DPP (``vop3dpp.py``)
            if got is not None:
                return got
        if mnemonic.endswith("_dpp") and "dpp8:[" in text and self.named.get("dpp8"):
            return self._encode_dpp8(text, mnemonic)
        if mnemonic.endswith("_dpp"):
            got = dpp16.encode_dpp16(self, text, mnemonic)  # 32-bit DPP16 forms (``dpp16.py``)
            if got is not None:
                return got
        if mnemonic.endswith("_sdwa") and self.named.get("sdwa"):
            return sdwa.encode_sdwa(self, text, mnemonic)  # GFX9/GFX10 SDWA (``sdwa.py``)
        cands = self.candidates(mnemonic)
        if not cands:
            raise EncodeError(self._unknown(mnemonic))
        ops, mods = split_operands(text)
        errors = []
        for e in cands:
            plan = self.plans.get(f"{e.name}|{e.encoding}")
            if plan is None:
                errors.append(f"{e.encoding}: no operand syntax known")
                continue
            if e.encoding in ("SOPP", "SOPK") and simm16.special_form(plan):  # named SIMM16 fields (``simm16.py``)
                try:
                    return simm16.encode(self, e, plan, text)
                except EncodeError as exc:
                    errors.append(f"{e.encoding}: {exc}")
                    continue
            forms = [plan] + [alt for by_value in plan.get("alt", {}).values() for alt in by_value.values()]
            for form in forms:  # the base operand list, then those a field value selects (SADDR off)
                try:
                    return self._encode(e, form, ops, mods)
                except EncodeError as exc:
                    errors.append(f"{e.encoding}: {exc}")
        raise EncodeError(f"{text!r} does not assemble for {self.arch}: " + "; ".join(errors[:3]))

    def plain_form(self, text: str, size: int, encoding: str, errors: list) -> Encoded | None:
        """``text`` assembled in ``encoding`` as ``size`` bytes (the plain form a DPP or SDWA form is made from);
        None, with the reason added to ``errors``, where it does not assemble so."""
        try:
            got = self.encode_line(text)
        except EncodeError as exc:
            errors.append(str(exc))
            return None
        if len(got.data) != size or got.encoding != encoding:
            errors.append(f"no {8 * size}-bit {encoding} form" + (" without a literal" if size == 8 else ""))
            return None
        return got

    def _encode_dpp8(self, text: str, mnemonic: str) -> Encoded:
        """``X_dpp ... dpp8:[l0..l7] [fi:1]``: the e32 form with src0 = 0xE9 (0xEA with fi:1), then the DPP8 dword."""
        ops, mods = split_operands(text)
        lanes = next((m for m in mods if m.startswith("dpp8:[")), "")
        fi = "fi:1" in mods
        rest = [m for m in mods if m != lanes and m != "fi:1"]
        try:
            sel = [int(x) for x in lanes[6:-1].split(",")]
        except ValueError:
            sel = []
        r = opd.parse_reg(ops[1]) if len(ops) > 1 else None
        if len(sel) != 8 or any(not 0 <= x < 8 for x in sel) or r is None or r[0] != "v" or r[2] != 1 or r[1] > 255:
            raise EncodeError(f"{text!r}: expected src0 a VGPR and dpp8:[eight lane numbers 0..7]")
        for key, mn in self.named["dpp8"].items():
            if mn != mnemonic:
                continue
            plan = self.plans[key]
            e32 = " ".join([plan["m"], ", ".join([ops[0], "v0", *ops[2:]])] + rest)
            try:
                got = self.encode_line(e32)
            except EncodeError:
                continue
            if len(got.data) != 4 or got.encoding != key.split("|")[1]:
                continue
            f = self.tables.encodings[got.encoding].field("SRC0")
            word = f.insert(int.from_bytes(got.data, "little"), 0xEA if fi else 0xE9)
            dpp = r[1]
            for i, lane in enumerate(sel):
                dpp |= lane << (8 + 3 * i)
            return Encoded(word.to_bytes(4, "little") + dpp.to_bytes(4, "little"), got.encoding, got.name,
                           dict(got.fields, SRC0=0xEA if fi else 0xE9), None)
        raise EncodeError(f"{text!r} does not assemble for {self.arch}: no DPP8 form of {mnemonic}")

    def _encode_vopd(self, text: str) -> Encoded:
        enc = self.tables.encodings["VOPD"]
        got = special.vopd_fields(enc, self.gfx, self.named, text)
        if got is None:
            raise EncodeError(f"{text!r} does not assemble for {self.arch}: no dual-issue (VOPD) pair matches")
        values, lit = got
        word = enc.fixed_value
        for fname, v in values.items():
            f = enc.field(fname)
            if not 0 <= v < (1 << f.width):  # (v300 in an 8-bit register field: LLVM's "register index is out of range")
                raise EncodeError(f"a register or value does not fit the {f.width}-bit field {fname} ({v})")
            word |= f.place(v)
        data = word.to_bytes(8, "little") + (b"" if lit is None else lit.to_bytes(4, "little"))
        return Encoded(data, "VOPD", text.split()[0], values, lit)

    def _unknown(self, mnemonic: str) -> str:
        from .tables import _store

        st = _store()
        base = mnemonic
        for suf in ("_e32", "_e64", "_sdwa", "_dpp"):
            if base.endswith(suf):
                base = base[: -len(suf)]
        have = st.instruction_archs(base)
        if have:
            return (f"{base} is not in {self.arch}; it exists in "
                    f"{', '.join(archs.generation_order([a for a in have if a != self.arch]))}")
        return f"unknown instruction {mnemonic} for {self.arch}"

    # -- one candidate ---------------------------------------------------
    def _encode(self, e: Entry, plan: dict, ops: list[str], mods: list[str]) -> Encoded:
        enc = self.tables.encodings[e.encoding]
        word = plan.get("e", plan["w"])  # llvm-mc's encoding of the base text: its don't-care bits
        specs = plan["ops"]
        values: dict[str, int] = {f.name: f.extract(word) for f in enc.fields if f.value is None}
        ret = plan.get("ret")
        ret_bit = 0
        opsel_halves = 0
        t16_forms: set = set()
        if ret is not None and len(ops) == len(specs) + 1:  # a GFX9 atomic returning the old value: VDST first
            r = opd.parse_reg(ops[0].strip())
            if r is None or r[0] not in (ret["c"], "a") or r[2] != ret["n"] or (r[0] == "a" and "acc" not in ret):
                raise EncodeError(f"{ops[0]!r}: expected the returned value's register(s) ({ret['n']} x {ret['c']})")
            values[ret["dst"]], values[ret["f"]] = r[1], values.get(ret["f"], 0) | ret.get("bit", 1)
            ret_bit = ret.get("bit", 0)
            if r[0] == "a":
                values[ret["acc"][0]] = values.get(ret["acc"][0], 0) | ret["acc"][1]
            ops = ops[1:]
        if not specs and ops:  # no operands: the words after the mnemonic are modifiers (buffer_wbl2 sc0)
            ops, mods = [], [o.strip() for o in ops] + list(mods)
        if len(ops) != len(specs):
            raise EncodeError(f"expects {len(specs)} operand(s), got {len(ops)}")
        if "nv" in mods and not self.features.nv_modifier:
            raise EncodeError(f"nv is not supported on {self.arch}")
        if e.encoding in MEMORY_ENCODINGS and not self.features.accvgpr_memory and self.features.accvgpr and any(
                opd.parse_reg(o.strip().split("/*")[0]) and o.strip().startswith("a") for o in ops):
            raise EncodeError(f"{self.arch} memory instructions take no AGPRs (gfx90a and later do)")
        if e.encoding in ("EXP", "VEXPORT") and "exp_target" in self.named:
            got = special.export_fields(self.named, ops, mods, list(values))
            if got is None:
                raise EncodeError("export operands do not fit: target, four sources (vN or off), done/compr/vm/row_en")
            values.update(got)
            return self._finish(e, enc, values, None, specs=[])
        if (e.encoding == "MTBUF" or (e.encoding == "VBUFFER" and e.name.startswith("tbuffer_"))) and "format" in self.named:
            toks = [m for m in mods if m.startswith("format:")]
            fv = special.format_value(self.named, toks[0] if toks else None)
            if fv is None or len(toks) > 1:
                raise EncodeError(f"unknown buffer format {toks[0] if toks else '(default)'}")
            if "FORMAT" in values:
                values["FORMAT"] = fv
            else:
                values["NFMT"], values["DFMT"] = fv >> 4, fv & 15
            mods = [m for m in mods if not m.startswith("format:")]
            plan = {**plan, "mods0": [m for m in plan.get("mods0", []) if not m.startswith("format:")],
                    "mods": {k: v for k, v in plan.get("mods", {}).items() if k not in ("FORMAT", "DFMT", "NFMT")}}
        count_given: list = []
        nsa_tail = b""
        if "SOFFSET_EN" in values and any(s.get("imm_if") for s in specs):
            ops, mods = self._smem_soffset(ops, mods, specs, values)
        if e.encoding == "SMEM" and self.tables.gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
            ops, mods = rdna.smem_null_offset_ops(self.tables.gfx, ops, specs, mods)
        lit: int | None = None
        tsize, is_float = operand_type(e.mnemonic)
        set_mods: set[str] = set()
        for k, (tok, spec) in enumerate(zip(ops, specs)):
            tok = tok.strip()
            # token templates (neg/abs ...): peel the outermost first
            bits: dict[str, int] = {}
            changed = True
            while changed:
                changed = False
                for fname, by_v in plan.get("tmpl", {}).items():
                    for v, lst in by_v.items():
                        v = int(v)
                        if v & (v - 1):
                            continue
                        for kk, tp in lst:
                            if kk != k:
                                continue
                            pre, post = tp.split("{}")
                            if pre == "-" and not post and tok.startswith("neg(") and tok.endswith(")"):
                                pre, post = "neg(", ")"  # LLVM's spelling of a negated constant
                            if tok.startswith(pre) and tok.endswith(post) and len(tok) > len(pre) + len(post):
                                inner = tok[len(pre):len(tok) - len(post) if post else None]
                                if pre == "-" and not post and (_NUM.match(tok) or _FLOAT.match(tok)):
                                    continue
                                bits[fname] = bits.get(fname, 0) | v
                                tok = inner
                                changed = True
            for fname, v in bits.items():
                values[fname] = values.get(fname, 0) | v
            kind = spec.get("k")
            vl = self.named.get("vaddr_lists", {}).get(f"{e.name}|{e.encoding}")
            if vl is not None and k == vl["op"]:  # a GFX12 image address list: one VADDR field per register
                regs = [opd.parse_reg(x.strip()) for x in (tok[1:-1] if tok.startswith("[") else tok).split(",")]
                slots = [f"VADDR{i}" for i in range(5) if enc.field(f"VADDR{i}") is not None]
                if any(r is None or r[0] != "v" for r in regs) or len(regs) > len(slots):
                    raise EncodeError(f"operand {k + 1} {tok!r}: expected VGPR addresses")
                for fname, r in zip(slots, regs):
                    values[fname] = r[1]
                continue
            if "imm_if" in spec and _NUM.match(tok):
                f = enc.field(spec["f"])
                values[spec["f"]] = int(tok, 0) & ((1 << f.width) - 1)
                values[spec["imm_if"]] = 1
            elif kind in ("src", "ssrc"):
                n = spec["n"]
                scale = spec.get("s", 1)
                osize = 64 if n == 2 and tsize != 16 else (16 if tsize == 16 else 32)
                agpr = tok.startswith("a") and opd.parse_reg(tok) is not None and (
                    "acc" in spec or spec.get("t", "").startswith("a"))  # an AGPR source: 256 + its number
                if agpr:
                    if "acc" in spec:
                        values[spec["acc"][0]] = values.get(spec["acc"][0], 0) | spec["acc"][1]
                    tok = "v" + tok[1:]
                got = self._parse_src(tok, n, osize, is_float, kind == "src" or agpr)
                if got is None:
                    raise EncodeError(f"operand {k + 1} {tok!r} is not a valid {self._kind_text(spec)}")
                v, litv = got
                self._check_source_kind(e, k, tok, v, agpr)
                if litv is not None:
                    if scale != 1:
                        raise EncodeError(f"operand {k + 1} {tok!r}: a literal is not allowed here")
                    if lit is not None and lit != litv:
                        raise EncodeError("only one literal constant per instruction")
                    lit = litv
                if scale != 1:
                    if v % scale:
                        raise EncodeError(f"operand {k + 1} {tok!r}: register must be a multiple of {scale}")
                    v //= scale
                f = enc.field(spec["f"])
                if v >= 1 << f.width:
                    raise EncodeError(f"operand {k + 1} {tok!r} does not fit field {spec['f']}")
                values[spec["f"]] = v
            elif kind == "vreg" and spec.get("f") == "VADDR" and tok.startswith("[") and "NSA" in values:
                regs = [opd.parse_reg(x.strip()) for x in tok[1:-1].split(",")]
                if len(regs) < 2 or any(r is None or r[0] != "v" or r[2] != 1 for r in regs):
                    raise EncodeError(f"operand {k + 1} {tok!r}: expected a list of single VGPRs")
                extra = (len(regs) + 2) // 4
                values["VADDR"] = regs[0][1]
                values["NSA"] = extra if enc.field("NSA").width > 1 else 1
                nsa_tail = bytes(r[1] for r in regs[1:]).ljust(4 * extra, b"\0")
                plan = {**plan, "tmpl": {f: t for f, t in plan.get("tmpl", {}).items() if f != "NSA"}}
            elif kind == "vreg":
                r = opd.parse_reg(tok)
                if r is not None and r[0] == "a" and "acc" in spec:
                    values[spec["acc"][0]] = values.get(spec["acc"][0], 0) | spec["acc"][1]
                    r = ("v", r[1], r[2])
                counted = next((c for c in self.named.get("counts", {}).get(f"{e.name}|{e.encoding}", ())
                                if c["op"] == k), None)
                if counted and r is not None and r[0] == spec.get("c", "v"):
                    count_given.append((counted, r[2]))  # checked once the fields it depends on are known
                elif r is None or r[0] != spec.get("c", "v") or r[2] != spec["n"]:
                    raise EncodeError(f"operand {k + 1} {tok!r} is not a {self._kind_text(spec)}")
                values[spec["f"]] = r[1]
                if r[1] >= 1 << enc.field(spec["f"]).width:
                    raise EncodeError(f"operand {k + 1} {tok!r} is out of range")
            elif kind == "imm":
                f = enc.field(spec["f"])
                try:
                    n = int(tok, 0)
                except ValueError:
                    raise EncodeError(f"operand {k + 1} {tok!r} is not an integer") from None
                # (LLVM's assembler takes a negative number for a 16-bit immediate printed unsigned: -1 = 0xffff)
                lo = -(1 << (f.width - 1)) if spec["signed"] or f.name == "SIMM16" else 0
                if not lo <= n < (1 << f.width):
                    raise EncodeError(f"operand {k + 1} {tok} is out of range for the {f.width}-bit field {f.name}")
                values[spec["f"]] = n & ((1 << f.width) - 1)
            elif kind == "lit":
                try:
                    n = int(tok, 0)
                except ValueError:
                    b = _float_bits(tok, tsize)
                    if b is None:
                        raise EncodeError(f"operand {k + 1} {tok!r} is not a constant") from None
                    n = b
                lit = n & 0xFFFFFFFF
            elif "alt" in spec:
                if spec["alt"] == ["SVE"]:  # scratch: SVE says whether a VGPR address is used (no modifier says so)
                    values["SVE"] = int(tok != "off")
                if tok != "off":
                    r = opd.parse_reg(tok)
                    n = 2 if "idxen" in mods and "offen" in mods else 1  # (buffer: index and offset, two VGPRs)
                    if r is None or r[0] != "v" or r[2] != n:
                        raise EncodeError(f"operand {k + 1} {tok!r}: expected off or a VGPR address ({n} register(s))")
                    values["VADDR" if enc.field("VADDR") is not None else "ADDR"] = r[1]  # GFX11 scratch: ADDR
            elif "table" in spec and (sp := rdna.parse_true16(self.tables.gfx.split(".")[0], spec, tok, enc)) is not None:
                opsel_halves |= sp.pop("OP_SEL", 0)
                t16_forms.add(sp.pop("T16", None))
                if len(t16_forms - {None}) > 1:
                    raise EncodeError(f"operand {k + 1} {tok!r}: write every 16-bit register as a half (v1.l) or none")
                if "LIT" in sp:
                    lit = sp.pop("LIT")
                values.update(sp)  # GFX11+ true16 registers (``rdna.py``)
            elif "table" in spec and list(spec["table"]) == ["SIMM16"] and _NUM.match(tok):
                n = int(tok, 0)  # a number where LLVM prints named fields (s_getreg_b32 s2, 29)
                if not -(1 << 15) <= n < (1 << 16):
                    raise EncodeError(f"operand {k + 1} {tok} does not fit the 16-bit immediate")
                values["SIMM16"] = n & 0xFFFF
            elif "table" in spec and (sp := special.parse_special(self.named, spec, tok, values)) is not None:
                values.update(sp)
            elif "table" in spec:
                if tok != spec["t"]:
                    hit = [(fn, int(v)) for fn, tbl in spec["table"].items() for v, t in tbl.items() if t == tok]
                    if not hit:
                        raise EncodeError(f"operand {k + 1} {tok!r} not supported by the encoder yet")
                    values[hit[0][0]] = hit[0][1]
            elif tok != spec["t"] and not (self.wave64 and spec["t"] == "vcc_lo" and tok == "vcc"):
                raise EncodeError(f"operand {k + 1} must be {spec['t']}, got {tok!r}")
        # modifiers
        given = rdna.th_plain_mods(self.named, plan, list(mods)) if "TH" in values else list(mods)
        base_mods = plan.get("mods0", [])
        for fname, m in plan.get("mods", {}).items():
            if "v" in m:
                owned = [x for x in base_mods if any(x in d for _, d in m["v"].values())]
                match = None
                ev = enc.field(fname).extract(word)  # LLVM's own value: unused bits kept as its assembler keeps them
                for v, (add, rem) in m["v"].items():
                    if add and all(a in given for a in add):
                        if match is None or len(add) > len(match[1]) or (
                                len(add) == len(match[1]) and _agree(int(v), ev) > _agree(match[0], ev)):
                            match = (int(v), add)
                if match is not None:
                    values[fname] = match[0]
                    for a in match[1]:
                        set_mods.add(a)
                elif owned and not any(b in given for b in owned):
                    silent = [int(v) for v, (add, rem) in m["v"].items() if not add and all(o in rem for o in owned)]
                    if silent:
                        values[fname] = max(silent, key=lambda v: (_agree(v, ev), v))
            elif "name" in m and any("mul" in x for x in plan["mods"].values() if x.get("name") == m["name"]):
                for g in given:
                    if g.startswith(m["name"] + ":"):
                        n = int(g.split(":", 1)[1], 0)
                        parts = sorted(((x.get("mul", 1), fn) for fn, x in plan["mods"].items()
                                        if x.get("name") == m["name"]), reverse=True)
                        total_bits = sum(enc.field(fn).width for _, fn in parts)
                        if not 0 <= n < (1 << total_bits):
                            raise EncodeError(f"modifier {g} is out of range (0..{(1 << total_bits) - 1})")
                        for mul, fn in parts:
                            values[fn] = (n // mul) & ((1 << enc.field(fn).width) - 1)
                            n -= values[fn] * mul
                        set_mods.add(g)
            elif "name" in m:
                for g in given:
                    if g.startswith(m["name"] + ":"):
                        f = enc.field(fname)
                        try:
                            n = int(g.split(":", 1)[1], 0)
                        except ValueError:
                            raise EncodeError(f"modifier {g!r}: expected an integer") from None
                        lo = -(1 << (f.width - 1)) if m["signed"] else 0
                        if not lo <= n < (1 << f.width):
                            raise EncodeError(f"modifier {g} is out of range for the {f.width}-bit field {fname}")
                        values[fname] = n & ((1 << f.width) - 1)
                        set_mods.add(g)
            else:
                for v, add in m["table"].items():
                    if add and all(a in given for a in add):
                        values[fname] = int(v)
                        set_mods.update(add)
        for g in given:
            if g not in set_mods and g not in base_mods:
                got = _bit_list_modifier(plan, enc, word, g) or _number_modifier(plan, enc, g)  # op_sel:[0,0,0]...
                split = split_immediate_fields(plan, g) if got is None else [got]  # bitop3:0xa1 over 3 fields
                if not split:
                    raise EncodeError(f"unknown or unsupported modifier {g!r} for {e.mnemonic}")
                values.update(dict(split))
        if opsel_halves:  # VOP3 true16 halves named by the registers: their op_sel bits (``rdna.true16_opsel``)
            values["OP_SEL"] = values.get("OP_SEL", 0) | opsel_halves
        if ret_bit:  # a returning atomic whose th: token was read as a value without the return bit (GFX12)
            values[ret["f"]] |= ret_bit
        for counted, n in count_given:
            if specs[counted["op"]]["f"] == "VADDR" and values.get("NSA"):
                continue
            idx = shift = 0
            for d, wd in zip(counted["deps"], counted["widths"]):
                idx |= values.get(d, 0) << shift
                shift += wd
            if counted["n"][idx] != n:
                raise EncodeError(f"operand {counted['op'] + 1} needs {counted['n'][idx]} register(s) with these modifiers, got {n}")
        got = self._finish(e, enc, values, lit, specs)
        if nsa_tail:
            got.data += nsa_tail
        return got

    def _finish(self, e: Entry, enc, values: dict[str, int], lit: int | None, specs: list) -> Encoded:
        word = enc.fixed_value
        if enc.op_field and e.opcode is not None:
            word |= enc.field(enc.op_field).place(e.opcode)
        for fname, v in values.items():
            f = enc.field(fname)
            if not 0 <= v < (1 << f.width):  # (v300 in an 8-bit register field: LLVM's "register index is out of range")
                raise EncodeError(f"a register or value does not fit the {f.width}-bit field {fname} ({v})")
            word |= f.place(v)
        data = word.to_bytes(enc.width // 8, "little")
        if self.features.literal64 and any(v == opd.LITERAL64 for f, v in values.items() if f.startswith(("SRC", "SSRC"))):
            data += (lit or 0).to_bytes(8, "little")  # gfx1250: a 64-bit literal
        elif lit is not None or any(s.get("k") == "lit" for s in specs):
            data += (lit or 0).to_bytes(4, "little")
        return Encoded(data, e.encoding, e.name, values, lit)

    def _smem_soffset(self, ops, mods, specs, values):
        """GFX9 scalar memory ``sN offset:X``: SOFFSET=N, SOFFSET_EN=1, IMM=1, OFFSET=X (the decoder's forms)."""
        given = [m for m in mods if m.startswith("offset:")]
        if not given:
            return ops, mods
        k = next(i for i, s in enumerate(specs) if s.get("imm_if"))
        if k >= len(ops):
            return ops, mods
        reg = opd.parse_src(self.gfx, ops[k], 1)
        if reg is None or reg[1] is not None or reg[0] >= 128:
            raise EncodeError(f"{ops[k]!r}: expected an SGPR before {given[0]}")
        try:
            off = int(given[0].split(":", 1)[1], 0)
        except ValueError:
            raise EncodeError(f"modifier {given[0]!r}: expected an integer") from None
        if not -(1 << 20) <= off < (1 << 20):
            raise EncodeError(f"modifier {given[0]} is out of range for the 21-bit offset")
        values.update(SOFFSET=reg[0], SOFFSET_EN=1)
        return ops[:k] + [hex(off) if off >= 0 else f"-0x{-off:x}"] + ops[k + 1:], [m for m in mods if m not in given]

    def _kind_text(self, spec: dict) -> str:
        n = spec.get("n", 1)
        what = {"src": "source operand", "ssrc": "scalar operand", "vreg": "vector register"}.get(spec.get("k"), "operand")
        return f"{32 * n}-bit {what}" + (f" like {spec['t']}" if spec.get("t") else "")

    def _check_source_kind(self, e: Entry, k: int, tok: str, v: int, agpr: bool) -> None:
        """Refuse a kind of source value LLVM's assembler refuses in this operand (learned: named
        ``src_rejects``, ``regen/accepts.py``): WMMA's VGPR-only A and B, GFX9 VOP3 literals, ..."""
        rej = self.named.get("src_rejects", {}).get(f"{e.name}|{e.encoding}", {}).get(str(k))
        if not rej or agpr:
            return
        kind = "l" if v in (opd.LITERAL, opd.LITERAL64) else "v" if v >= 256 else "i" if 128 <= v <= 248 else "s"
        if kind in rej:
            what = {"s": "SGPR", "v": "VGPR", "i": "inline constant", "l": "literal"}[kind]
            raise EncodeError(f"operand {k + 1} {tok!r}: {e.mnemonic} takes no {what} there")

    def _literal64(self, tok: str, size: int, is_float: bool) -> tuple[int, int] | None:
        """gfx1250 (probed with llvm-mc-22): a 64-bit operand takes a 64-bit literal (source 254) for
        ``lit(X)``/``lit64(X)``, an f64 value past 32 bits (a 32-bit literal is its high dword) or an integer
        outside 0..2^31-1 (a 32-bit literal would not extend to it); ``lit64(X)`` elsewhere is a plain literal."""
        wrapped = tok.startswith(("lit(", "lit64(")) and tok.endswith(")")
        try:
            n = int(tok[tok.index("(") + 1:-1] if wrapped else tok, 0)
        except ValueError:
            return None
        if size != 64:
            return (opd.LITERAL, n & 0xFFFFFFFF) if tok.startswith("lit64(") else None
        fits = 0 <= n < (1 << 32) if is_float else 0 <= n < (1 << 31)
        if wrapped or (not fits and -(1 << 63) <= n < (1 << 64) and not (not is_float and -16 <= n <= 64)):
            return opd.LITERAL64, n & ((1 << 64) - 1)
        return None

    def _parse_src(self, tok: str, n: int, size: int, is_float: bool, allow_vgpr: bool):
        if self.features.literal64:
            got = self._literal64(tok, size, is_float)
            if got is not None:
                return got
        got = opd.parse_src(self.gfx, tok, n)
        if got is not None and tok.startswith("lit("):
            return got  # a literal LLVM keeps even where an inline constant would do
        if got is not None:
            v, litv = got
            if v >= 256 and not allow_vgpr:
                return None
            if litv is not None:
                if is_float:
                    name = opd.FLOAT_BITS.get(size, {}).get(litv & (0xFFFF if size == 16 else 0xFFFFFFFF))
                    if name is not None:
                        return opd.parse_src(self.gfx, name, n)
                return v, litv
            return got
        b = _float_bits(tok, size)
        if b is not None:
            return opd.LITERAL, b
        return None


_ENCODERS: dict[tuple[str, bool], Encoder] = {}


MEMORY_ENCODINGS = frozenset({"FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "DS", "MIMG"})


def _number_modifier(plan: dict, enc, token: str) -> tuple[str, int] | None:
    """(field, value) of a bare number where LLVM prints a field's value as it is (``s_endpgm 64242``)."""
    if not _NUM.match(token):
        return None
    n = int(token, 0)
    for fname, mod in plan.get("mods", {}).items():
        table = mod.get("table") or {v: a for v, (a, _) in mod.get("v", {}).items()}
        if table and all(v == [k] for k, v in table.items()) and 0 <= n < (1 << enc.field(fname).width):
            return fname, n
    return None


def _agree(v: int, ev: int) -> int:
    """How many of a field's low bits ``v`` shares with LLVM's value ``ev``."""
    return bin(~(v ^ ev) & 0xFF).count("1")


_DIM = re.compile(r"\bdim:(?!SQ_)([123]D\w*|CUBE\w*)")
_MOD_LIST = re.compile(r"\b(\w+:)\[([^\]]*)\]")  # a modifier's list written with spaces: op_sel:[1, 0]
_BITS = re.compile(r"^(\w+):\[([01](?:,[01])*)\]$")


def _bit_list_modifier(plan: dict, enc, word: int, token: str) -> tuple[str, int] | None:
    """(field, value) of a ``name:[b0,b1,...]`` modifier written where LLVM prints nothing (its default,
    ``op_sel:[0,0,0]``) or with other bits than it prints: bit i of the list is the field bit that LLVM's
    single-bit values show at position i; bits the list does not cover keep LLVM's base value."""
    m = _BITS.match(token)
    if m is None:
        return None
    name, bits = m.group(1), [int(b) for b in m.group(2).split(",")]
    for fname, mod in plan.get("mods", {}).items():
        pos: dict[int, int] = {}
        for v, (add, _) in mod.get("v", {}).items():
            v = int(v)
            toks = [_BITS.match(a) for a in add]
            for t in toks:
                if t and t.group(1) == name and v and v & (v - 1) == 0:
                    lst = [int(b) for b in t.group(2).split(",")]
                    if lst.count(1) == 1 and len(lst) == len(bits):
                        pos[lst.index(1)] = v.bit_length() - 1
        if len(pos) == len(bits):
            value = enc.field(fname).extract(word)
            for i, b in enumerate(bits):
                value = value | (1 << pos[i]) if b else value & ~(1 << pos[i])
            return fname, value
    return None


def get_encoder(arch: str, wave64: bool = False) -> Encoder:
    key = (arch, wave64)
    if key not in _ENCODERS:
        _ENCODERS[key] = Encoder(arch, wave64)
    return _ENCODERS[key]


def strip_comment(line: str) -> str:
    for mark in ("//", ";"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip()


def encode(arch: str, text: str, wave64: bool = False) -> bytes:
    """Assemble one or more instructions (one per line; ``;``/``//`` comments) into bytes."""
    enc = get_encoder(arch, wave64)
    out = bytearray()
    for lineno, line in enumerate(text.splitlines(), 1):
        line = strip_comment(line)
        if not line or line.endswith(":"):
            continue
        try:
            out += enc.encode_line(line).data
        except EncodeError as exc:
            raise EncodeError(f"line {lineno}: {exc}") from None
    return bytes(out)
