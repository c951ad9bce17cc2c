"""One candidate entry and print plan against an instruction's operands and modifiers (``Encoder._encode``).

``encode_form`` checks the operand count and the target's rules, hands exports and typed buffers to their
own handlers, parses each operand with the handler of its kind (``_Form.operand``: sources, registers,
immediates, literals, addresses, token tables), then the modifiers (``_Form.modifiers``) and the register
counts that depend on them.  The inverse of ``decode_render.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import asm_rules, constant_bus, image, rdna, special
from . import operands as opd
from .decoded import operand_type, split_immediate_fields
from .encoded import (
    FLOAT,
    MEMORY_ENCODINGS,
    NUM,
    Encoded,
    EncodeError,
    agree,
    bit_list_modifier,
    float_bits,
    number_modifier,
)
from .tables import Entry

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .named import NamedTables
    from .plans import ModifierPlan, OperandPlan, Plan


def _peel_templates(plan: Plan, k: int, tok: str, values: dict[str, int]) -> str:
    """Token templates (neg/abs ...) around operand ``k``: peel the outermost first, setting their bits."""
    bits: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for fname, by_v in plan.templates.items():
            for vs, lst in by_v.items():
                v = int(vs)
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
                        if pre == "-" and not post and (NUM.match(tok) or FLOAT.match(tok)):
                            continue
                        bits[fname] = bits.get(fname, 0) | v
                        tok = inner
                        changed = True
    for fname, v in bits.items():
        values[fname] = values.get(fname, 0) | v
    return tok


def _typed_buffer(named: NamedTables, plan: Plan, mods: list[str], values: dict[str, int]) -> tuple[Plan, list[str]]:
    """A typed buffer access: its ``format:`` token sets FORMAT (or NFMT/DFMT); the plan without them."""
    toks = [m for m in mods if m.startswith("format:")]
    fv = special.format_value(named, toks[0] if toks else None)
    if fv is None or len(toks) > 1:
        raise EncodeError(f"unknown buffer format {toks[0] if toks else '(default)'}")
    if "FORMAT" in values:
        values["FORMAT"] = fv
    else:
        values["NFMT"], values["DFMT"] = fv >> 4, fv & 15
    mods = [m for m in mods if not m.startswith("format:")]
    plan = plan._replace(base_mods=[m for m in plan.base_mods if not m.startswith("format:")],
                         modifiers={k: v for k, v in plan.modifiers.items() if k not in ("FORMAT", "DFMT", "NFMT")})
    return plan, mods


class _Form:
    """The field values one plan gives an instruction's operands and modifiers."""

    def __init__(self, coder, e: Entry, plan: Plan):
        self.coder, self.e, self.plan = coder, e, plan
        self.enc = coder.tables.encodings[e.encoding]
        self.word = plan.encode_word  # llvm-mc's encoding of the base text: its don't-care bits
        self.specs = plan.operands
        self.values: dict[str, int] = {f.name: f.extract(self.word) for f in self.enc.fields if f.value is None}
        self.ret_bit = 0
        self.returns = False  # written with its returned value first
        self.opsel_halves = 0
        self.t16_forms: set = set()
        self.count_given: list = []
        self.nsa_tail = b""
        self.nsa_counted = False  # an address list whose length is checked as a register count (GFX10 bvh)
        self.lit: int | None = None
        self.tsize, self.is_float = operand_type(e.mnemonic)

    def returned(self, ops: list[str]) -> list[str]:
        """A GFX9 atomic returning the old value names VDST first: its register, the return bit."""
        ret, values = self.plan.returning, self.values
        if ret is None or len(ops) != len(self.specs) + 1:
            return ops
        r = opd.parse_reg(ops[0].strip())
        if r is None or r[0] not in (ret.reg_class, "a") or r[2] != ret.count or (r[0] == "a" and ret.acc is None):
            raise EncodeError(f"{ops[0]!r}: expected the returned value's register(s) ({ret.count} x {ret.reg_class})")
        values[ret.dst], values[ret.field] = r[1], values.get(ret.field, 0) | (1 if ret.bit is None else ret.bit)
        self.ret_bit, self.returns = ret.bit or 0, True
        if r[0] == "a" and ret.acc is not None:  # (checked above: an AGPR only where the bit exists)
            values[ret.acc[0]] = values.get(ret.acc[0], 0) | ret.acc[1]
        return ops[1:]

    def check_target(self, ops: list[str], mods: list[str]) -> None:
        features, arch = self.coder.features, self.coder.arch
        if "nv" in mods and not features.nv_modifier:
            raise EncodeError(f"nv is not supported on {arch}")
        if self.e.encoding in MEMORY_ENCODINGS and not features.accvgpr_memory and features.accvgpr and any(
                opd.parse_reg(o.strip().split("/*")[0]) and o.strip().startswith("a") for o in ops):
            raise EncodeError(f"{arch} memory instructions take no AGPRs (gfx90a and later do)")

    # -- operands, one handler per kind ----------------------------------------------------------------
    def operand(self, k: int, tok: str, spec: OperandPlan, mods: list[str]) -> None:
        kind, values, named, e = spec.kind, self.values, self.coder.named, self.e
        vl = named.vaddr_lists.get(f"{e.name}|{e.encoding}")
        if vl is not None and k == vl.operand:  # a GFX12 image address list: one VADDR field per register
            self.address_list(k, tok, mods)
        elif spec.imm_if and NUM.match(tok):
            f = self.enc.field(spec.field)
            values[spec.field] = int(tok, 0) & ((1 << f.width) - 1)
            values[spec.imm_if] = 1
        elif kind in ("src", "ssrc"):
            self.source(k, tok, spec, kind)
        elif kind == "vreg" and spec.field == "VADDR" and tok.startswith("[") and "NSA" in values:
            self.nsa_address(k, tok, mods)
        elif kind == "vreg":
            self.vreg(k, tok, spec)
        elif kind == "imm":
            self.immediate(k, tok, spec)
        elif kind == "lit":
            self.literal(k, tok)
        elif spec.address_fields:
            self.address(k, tok, spec, mods)
        elif spec.tables:
            self.table(k, tok, spec)
        elif tok != spec.text and not (self.coder.wave64 and spec.text == "vcc_lo" and tok == "vcc"):
            raise EncodeError(f"operand {k + 1} must be {spec.text}, got {tok!r}")

    def address_list(self, k: int, tok: str, mods: list[str]) -> None:
        parsed = [opd.parse_reg(x.strip()) for x in (tok[1:-1] if tok.startswith("[") else tok).split(",")]
        slots = [f"VADDR{i}" for i in range(5) if self.enc.field(f"VADDR{i}") is not None]
        if any(r is None or r[0] != "v" for r in parsed) or len(parsed) > len(slots):
            raise EncodeError(f"operand {k + 1} {tok!r}: expected VGPR addresses")
        regs = [r for r in parsed if r is not None]  # all of them (checked above)
        self.bvh_widths(k, [r[2] for r in regs], mods)
        if image.bvh_slots(self.e.name, 0) is None and image.tuple_slots([r[2] for r in regs], len(slots)):
            raise EncodeError(f"operand {k + 1} {tok!r}: one VGPR per address (the last may hold the rest of six or more)")
        for fname, r in zip(slots, regs, strict=False):
            self.values[fname] = r[1]

    def bvh_widths(self, k: int, widths: list[int], mods: list[str]) -> None:
        """A GFX11/GFX12 ray-tracing address list: one register tuple per slot (``image.py``)."""
        if image.bvh_slots(self.e.name, 0) is not None:
            err = image.bvh_address_error(self.e.name, widths, any(m.strip().lower() == "a16" for m in mods))
            if err is not None:
                raise EncodeError(f"operand {k + 1}: {err}")

    def source(self, k: int, tok: str, spec: OperandPlan, kind: str) -> None:
        coder, values = self.coder, self.values
        n = spec.count
        scale = spec.scale
        osize = 64 if n == 2 and self.tsize != 16 else (16 if self.tsize == 16 else 32)
        agpr = tok.startswith("a") and opd.parse_reg(tok) is not None and (
            spec.acc is not None or spec.text.startswith("a"))  # an AGPR source: 256 + its number
        if agpr:
            if spec.acc is not None:
                values[spec.acc[0]] = values.get(spec.acc[0], 0) | spec.acc[1]
            tok = "v" + tok[1:]
        if self.e.encoding not in ("VOP3P", "VOP3P_MAI"):  # (packed math takes no |x|: llvm-mc-22 refuses it)
            tok = asm_rules.fold_constant_modifiers(tok, osize, self.is_float or self.e.name.startswith("v_cndmask"))
            if "bf16" not in self.e.name:  # (a decimal float: its bits in the operand's format, llvm-mc-22)
                tok = asm_rules.float_token(tok, osize, self.is_float, coder.features.literal64)
        asm_rules.check_16_bit_literal(tok, self.e.name, osize)
        isize = asm_rules.inline_bits_size(self.e.name, osize, self.is_float)
        if isize is not None:
            tok = asm_rules.inline_float_name(tok, isize)  # 0x40800000 is 4.0
        got = coder._parse_src(tok, n, osize, self.is_float, kind == "src" or agpr)
        if got is None:
            raise EncodeError(f"operand {k + 1} {tok!r} is not a valid {coder._kind_text(spec)}")
        v, litv = got
        if v == opd.LITERAL64 and self.enc.width > 32:  # (gfx1250: a 64-bit literal follows 32-bit encodings only)
            raise EncodeError(f"operand {k + 1} {tok!r}: no 64-bit literal in a {self.enc.width}-bit encoding")
        coder._check_source_kind(self.e, k, tok, v, agpr)
        asm_rules.scalar_source_error(coder, self.e.name, k, v, litv)  # (GFX11+: s_movrels_*, s_barrier_*)
        if kind == "ssrc":
            asm_rules.scalar_destination_error(coder.tables.gfx, self.e.name, k, spec.field, v)
        if litv is not None:
            if scale != 1:
                raise EncodeError(f"operand {k + 1} {tok!r}: a literal is not allowed here")
            if self.lit is not None and self.lit != litv:
                raise EncodeError("only one literal constant per instruction")
            self.lit = litv
        if scale != 1:
            if v % scale:
                raise EncodeError(f"operand {k + 1} {tok!r}: register must be a multiple of {scale}")
            v //= scale
        width = self.enc.field(spec.field).width
        if width == 7 and v >= 128:
            v = asm_rules.scalar7(coder.arch, self.e.encoding, spec.field, v)  # (GFX12: src_scc is 0x7d)
        if v >= 1 << width:
            raise EncodeError(f"operand {k + 1} {tok!r} does not fit field {spec.field}")
        if 384 <= v < 512 and spec.field == "SRC0" and self.e.encoding in _E32 and "Lo128" in self.src_note(k):
            raise EncodeError(f"operand {k + 1} {tok!r}: this 32-bit form takes v0-v127 here (the VOP3 form takes all)")
        values[spec.field] = v

    def src_note(self, k: int) -> str:
        """The decoder's note on source ``k`` naming a VGPR >= 128 (``Decoder._src_note``): probed per source
        where the named tables have it, else the plan's."""
        notes = self.coder.named.src_note.get(f"{self.e.name}|{self.e.encoding}")
        return notes[str(k)] if notes is not None and str(k) in notes else self.plan.lo128

    def nsa_address(self, k: int, tok: str, mods: list[str]) -> None:
        """A GFX10/GFX11 image address list (NSA): the first register in VADDR, the others in extra dwords."""
        parsed = [opd.parse_reg(x.strip()) for x in tok[1:-1].split(",")]
        grouped = image.bvh_slots(self.e.name, 0) is not None and self.enc.field("NSA").width == 1  # (GFX11)
        if len(parsed) < 2 or any(r is None or r[0] != "v" or (r[2] != 1 and not grouped) for r in parsed):
            raise EncodeError(f"operand {k + 1} {tok!r}: expected a list of single VGPRs")
        regs = [r for r in parsed if r is not None]  # all of them (checked above)
        if grouped:
            self.bvh_widths(k, [r[2] for r in regs], mods)
        elif image.bvh_slots(self.e.name, 0) is not None:  # GFX10 ray tracing: one address per register, the
            self.nsa_counted = True  # contiguous form's count (llvm-mc-22: "image address size does not match a16")
            self.count_vreg(k, ("v", regs[0][1], len(regs)), self.specs[k])
        extra = (len(regs) + 2) // 4
        self.values["VADDR"] = regs[0][1]
        self.values["NSA"] = extra if self.enc.field("NSA").width > 1 else 1
        self.nsa_tail = bytes(r[1] for r in regs[1:]).ljust(4 * extra, b"\0")
        self.plan = self.plan._replace(templates={f: t for f, t in self.plan.templates.items() if f != "NSA"})

    def vreg(self, k: int, tok: str, spec: OperandPlan) -> None:
        values, e = self.values, self.e
        r = opd.parse_reg(tok)
        if r is not None and r[0] == "a" and spec.acc is not None:
            values[spec.acc[0]] = values.get(spec.acc[0], 0) | spec.acc[1]
            r = ("v", r[1], r[2])
        counted = self.count_vreg(k, r, spec)
        if r is None or (not counted and (r[0] != spec.reg_class or r[2] != spec.count)):
            raise EncodeError(f"operand {k + 1} {tok!r} is not a {self.coder._kind_text(spec)}")
        values[spec.field] = r[1]
        if r[1] >= 1 << self.enc.field(spec.field).width:
            raise EncodeError(f"operand {k + 1} {tok!r} is out of range")
        if r[1] >= 128 and _lo128(self.plan, e.encoding, spec):
            raise EncodeError(f"operand {k + 1} {tok!r}: this 32-bit form takes v0-v127 here (the VOP3 form takes all)")

    def immediate(self, k: int, tok: str, spec: OperandPlan) -> None:
        f = self.enc.field(spec.field)
        try:
            n = int(tok, 0)
        except ValueError:
            raise EncodeError(f"operand {k + 1} {tok!r} is not an integer") from None
        # (LLVM's assembler takes a negative number for a 16-bit immediate printed unsigned: -1 = 0xffff)
        lo = -(1 << (f.width - 1)) if spec.signed or f.name == "SIMM16" else 0
        if not lo <= n < (1 << f.width):
            raise EncodeError(f"operand {k + 1} {tok} is out of range for the {f.width}-bit field {f.name}")
        asm_rules.smem_offset_error(self.coder, self.e, f.name, n, f.width)
        self.values[spec.field] = n & ((1 << f.width) - 1)

    def literal(self, k: int, tok: str) -> None:
        try:
            n = int(tok, 0)
        except ValueError:
            b = float_bits(tok, self.tsize)
            if b is None:
                raise EncodeError(f"operand {k + 1} {tok!r} is not a constant") from None
            n = b
        if self.lit is not None and self.lit != n & 0xFFFFFFFF:  # (a literal source beside another K: llvm-mc-22)
            raise EncodeError("only one unique literal operand is allowed")
        self.lit = n & 0xFFFFFFFF

    def address(self, k: int, tok: str, spec: OperandPlan, mods: list[str]) -> None:
        if list(spec.address_fields) == ["SVE"]:  # scratch: SVE says whether a VGPR address is used (no modifier says so)
            self.values["SVE"] = int(tok != "off")
        if tok != "off":
            r = opd.parse_reg(tok)
            n = 2 if "idxen" in mods and "offen" in mods else 1  # (buffer: index and offset, two VGPRs)
            if r is None or r[0] != "v" or r[2] != n:
                raise EncodeError(f"operand {k + 1} {tok!r}: expected off or a VGPR address ({n} register(s))")
            self.values["VADDR" if self.enc.field("VADDR") is not None else "ADDR"] = r[1]  # GFX11 scratch: ADDR

    def table(self, k: int, tok: str, spec: OperandPlan) -> None:
        """An operand printed from a token table: true16 halves, named SIMM16 fields, special tokens."""
        values = self.values
        if self.tsize == 16 and self.e.encoding != "VOP3P":  # (a true16 source: |-4.0| with no modifier bits is 4.0)
            tok = asm_rules.fold_constant_modifiers(tok, 16, self.is_float)
            if "bf16" not in self.e.name:
                tok = asm_rules.float_token(tok, 16, self.is_float, False)
        if self.tsize == 16:
            asm_rules.check_16_bit_literal(tok, self.e.name, 16)
        if self.tsize == 16 and self.is_float:
            tok = asm_rules.inline_float_name(tok, 16)  # 0x3c00 is 1.0
        sp = rdna.parse_true16(self.coder.tables.gfx.split(".")[0], spec, tok, self.enc)
        if sp is not None:
            self.opsel_halves |= sp.pop("OP_SEL", 0)
            self.t16_forms.add(sp.pop("T16", None))
            if len(self.t16_forms - {None}) > 1:
                raise EncodeError(f"operand {k + 1} {tok!r}: write every 16-bit register as a half (v1.l) or none")
            if "LIT" in sp:
                self.lit = sp.pop("LIT")
            values.update(sp)  # GFX11+ true16 registers (``rdna.py``)
        elif list(spec.tables) == ["SIMM16"] and NUM.match(tok):
            n = int(tok, 0)  # a number where LLVM prints named fields (s_getreg_b32 s2, 29)
            if not -(1 << 15) <= n < (1 << 16):
                raise EncodeError(f"operand {k + 1} {tok} does not fit the 16-bit immediate")
            values["SIMM16"] = n & 0xFFFF
        elif (sp := special.parse_special(self.coder.named, spec, tok, values)) is not None:
            values.update(sp)
        elif tok != spec.text:
            hit = [(fn, int(v)) for fn, tbl in spec.tables.items() for v, t in tbl.items() if t == tok]
            if not hit:
                raise EncodeError(f"operand {k + 1} {tok!r} not supported by the encoder yet")
            values[hit[0][0]] = hit[0][1]

    # -- modifiers ---------------------------------------------------------------------------------------
    def modifiers(self, mods: list[str]) -> None:
        plan, values = self.plan, self.values
        given = rdna.th_plain_mods(self.coder.named, plan, list(mods)) if "TH" in values else list(mods)
        base_mods = plan.base_mods
        set_mods: set[str] = set()
        for fname, m in plan.modifiers.items():
            if m.tokens is not None:
                self.value_modifier(fname, m, given, base_mods, set_mods)
            elif m.name is not None and any(x.mul is not None for x in plan.modifiers.values() if x.name == m.name):
                self.summed_modifier(m, given, set_mods)
            elif m.name is not None:
                self.named_modifier(fname, m, given, set_mods)
            else:
                for v, add in (m.table or {}).items():
                    if add and all(a in given for a in add):
                        values[fname] = int(v)
                        set_mods.update(add)
        for g in given:
            if g not in set_mods and g not in base_mods:
                got = bit_list_modifier(plan, self.enc, self.word, g) or number_modifier(plan, self.enc, g)
                split = split_immediate_fields(plan, g) if got is None else [got]  # bitop3:0xa1 over 3 fields
                if not split:
                    raise EncodeError(f"unknown or unsupported modifier {g!r} for {self.e.mnemonic}")
                values.update(dict(split))

    def value_modifier(self, fname: str, m: ModifierPlan, given: list, base_mods: Sequence[str], set_mods: set) -> None:
        """A field whose values print lists of tokens: the value printing the most of the given ones."""
        tokens = m.tokens or {}
        owned = [x for x in base_mods if any(x in d for _, d in tokens.values())]
        match = None
        ev = self.enc.field(fname).extract(self.word)  # LLVM's own value: unused bits kept as its assembler keeps
        for v, (add, _rem) in tokens.items():
            if add and all(a in given for a in add):
                if match is None or len(add) > len(match[1]) or (
                        len(add) == len(match[1]) and agree(int(v), ev) > agree(match[0], ev)):
                    match = (int(v), add)
        if match is not None:
            self.values[fname] = match[0]
            set_mods.update(match[1])
        elif owned and not any(b in given for b in owned):
            silent = [int(v) for v, (add, rem) in tokens.items() if not add and all(o in rem for o in owned)]
            if silent:
                self.values[fname] = max(silent, key=lambda v: (agree(v, ev), v))

    def summed_modifier(self, m: ModifierPlan, given: list, set_mods: set) -> None:
        """``name:N`` over several fields, each holding N's part times its multiplier."""
        plan, enc = self.plan, self.enc
        for g in given:
            if g.startswith(f"{m.name}:"):
                n = int(g.split(":", 1)[1], 0)
                parts = sorted(((1 if x.mul is None else x.mul, fn) for fn, x in plan.modifiers.items()
                                if x.name == m.name), reverse=True)
                total_bits = sum(enc.field(fn).width for _, fn in parts)
                if not 0 <= n < (1 << total_bits):
                    raise EncodeError(f"modifier {g} is out of range (0..{(1 << total_bits) - 1})")
                for mul, fn in parts:
                    self.values[fn] = (n // mul) & ((1 << enc.field(fn).width) - 1)
                    n -= self.values[fn] * mul
                set_mods.add(g)

    def named_modifier(self, fname: str, m: ModifierPlan, given: list, set_mods: set) -> None:
        for g in given:
            if g.startswith(f"{m.name}:"):
                f = self.enc.field(fname)
                try:
                    n = int(g.split(":", 1)[1], 0)
                except ValueError:
                    raise EncodeError(f"modifier {g!r}: expected an integer") from None
                lo = -(1 << (f.width - 1)) if m.signed else 0
                if not lo <= n < (1 << f.width):
                    raise EncodeError(f"modifier {g} is out of range for the {f.width}-bit field {fname}")
                asm_rules.smem_offset_error(self.coder, self.e, fname, n, f.width)
                self.values[fname] = n & ((1 << f.width) - 1)
                set_mods.add(g)

    def count_vreg(self, k: int, r, spec: OperandPlan) -> bool:
        """Remember a register count that depends on modifiers (checked once the fields it depends on are known);
        False where operand ``k`` has none."""
        e = self.e
        counted = next((c for c in self.coder.named.counts.get(f"{e.name}|{e.encoding}", ())
                        if c.operand == k), None) or image.address_counts(self.coder.named, e, spec, k)
        if counted and r is not None and r[0] == spec.reg_class:
            self.count_given.append((counted, r[2]))
            return True
        return False

    def check_counts(self) -> None:
        """Register counts that depend on modifiers (image data and addresses)."""
        for counted, n in self.count_given:
            if self.specs[counted.operand].field == "VADDR" and self.values.get("NSA") and not self.nsa_counted:
                continue
            idx = shift = 0
            for d, wd in zip(counted.deps, counted.widths, strict=False):
                idx |= self.values.get(d, 0) << shift
                shift += wd
            if counted.regs[idx] != n:
                raise EncodeError(f"operand {counted.operand + 1} needs {counted.regs[idx]} register(s) with these "
                                  f"modifiers, got {n}")


_E32 = ("VOP1", "VOP2", "VOPC")


def _lo128(plan: Plan, encoding: str, spec: OperandPlan) -> bool:
    """A VGPR operand of a 32-bit VOP1/VOP2/VOPC form that LLVM limits to v0-v127 (16-bit operands in fake16 syntax:
    the decoder's Lo128 register-class note, or a VDST whose v128 llvm-mc-22 refused when the plan was probed)."""
    if encoding not in _E32:
        return False
    bad = plan.rejected.get(spec.field, ())
    return "Lo128" in (spec.note or "") or (spec.field == "VDST" and not isinstance(bad, str) and 128 in bad)


def encode_form(coder, e: Entry, plan: Plan, ops: list[str], mods: list[str]) -> Encoded:
    """``e`` assembled with ``plan`` from the operand and modifier words (EncodeError where they do not fit)."""
    form = _Form(coder, e, plan)
    specs, values = form.specs, form.values
    mods = asm_rules.plain_modifiers(plan, mods)  # noglc, bound_ctrl:0 (llvm-mc-22's spellings)
    swizzle, mods = asm_rules.swizzle_offset(e.name, mods)  # ds_swizzle_b32 offset:swizzle(...)
    asm_rules.check_operands(coder, e, plan, ops, mods)  # alignment, AGPR/VGPR mixing, lds_direct
    asm_rules.flat_offset_error(coder, e, mods)
    asm_rules.msaa_dim_error(e.name, mods)
    mods = asm_rules.cache_policy(coder, mods)  # GFX12 th:/scope: (th by name, once each, BYPASS at SCOPE_SYS)
    ops = asm_rules.lds_form_ops(coder, e, plan, ops, mods)
    ops = form.returned(ops)
    asm_rules.atomic_return_policy(plan, form.ret_bit, mods, form.returns)  # th:TH_ATOMIC_RETURN, glc, sc0 written
    if not specs and ops:  # no operands: the words after the mnemonic are modifiers (buffer_wbl2 sc0)
        ops, mods = [], [o.strip() for o in ops] + list(mods)
    if len(ops) != len(specs):
        raise EncodeError(f"expects {len(specs)} operand(s), got {len(ops)}")
    form.check_target(ops, mods)
    named = coder.named
    if e.encoding in ("EXP", "VEXPORT") and bool(named.exp_target):
        got = special.export_fields(named, ops, mods, list(values))
        if got is None:
            raise EncodeError("export operands do not fit: target, four sources (vN or off), done/compr/vm/row_en")
        values.update(got)
        return coder._finish(e, form.enc, values, None, specs=[])
    if (e.encoding == "MTBUF" or (e.encoding == "VBUFFER" and e.name.startswith("tbuffer_"))) and bool(named.format):
        form.plan, mods = _typed_buffer(named, form.plan, mods, values)
    if "SOFFSET_EN" in values and any(s.imm_if for s in specs):
        ops, mods = coder._smem_soffset(ops, mods, specs, values)
    if e.encoding == "SMEM" and coder.tables.gfx.split(".")[0] in ("GFX10", "GFX11", "GFX12"):
        ops, mods = rdna.smem_null_offset_ops(coder.tables.gfx, ops, specs, mods)
    for k, (tok, spec) in enumerate(zip(ops, specs, strict=False)):
        tok = _peel_templates(form.plan, k, tok.strip(), values)
        form.operand(k, tok, spec, mods)
    form.modifiers(mods)
    if swizzle is not None:
        values["OFFSET0"], values["OFFSET1"] = swizzle & 0xFF, swizzle >> 8
    if form.opsel_halves:  # VOP3 true16 halves named by the registers: their op_sel bits (``rdna.true16_opsel``)
        values["OP_SEL"] = values.get("OP_SEL", 0) | form.opsel_halves
    if form.ret_bit and plan.returning is not None:  # a returning atomic whose th: token was read as a value
        values[plan.returning.field] |= form.ret_bit  # without the return bit (GFX12)
    form.check_counts()
    constant_bus.check(coder.features, e.name, e.encoding, specs, values)  # (GFX10+: two scalar values)
    asm_rules.saddr_error(e.encoding, values)
    got = coder._finish(e, form.enc, values, form.lit, specs)
    if form.nsa_tail:
        got.data += form.nsa_tail
    return got
