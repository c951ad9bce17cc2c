"""Code generation for pseudocode expressions: typed values, views, operators, helpers.

Every expression compiles to an :class:`E`: a Python expression string over numpy
arrays (one element per lane), its static :class:`Ty`, and whether it is a uniform
Python scalar.  The generated code calls :mod:`runtime` (``rt``) and :mod:`floats` (``fl``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .codeshape import signed_width, unsigned_width
from .types import BOOL, F64, I32, I64, Ty, join, view_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .genparts import GenParts  # (the state and methods the mixins share: checked, not run)
else:
    GenParts = object


class CompileError(ValueError):
    """Pseudocode that parses but cannot be executed (the message says why)."""


@dataclass
class E:
    code: str
    ty: Ty
    uni: bool = False  # a Python scalar, equal in every lane
    boolean: bool = False  # numpy bool array / Python bool rather than an integer
    lit: int | float | None = None  # the constant's value when known at compile time
    hexlit: bool = False


def ty_code(t: Ty) -> str:
    return f"Ty({t.kind!r}, {t.width})"


FLOAT_CONST = {
    "PI": 3.141592653589793, "INF": float("inf"), "NAN": float("nan"),
    "MAX_FLOAT_F32": 3.4028234663852886e38, "MAX_FLOAT_F64": 1.7976931348623157e308,
    # The manuals do not define these two results of V_DIV_FIXUP; IEEE's overflow/underflow results are used.
    "OVERFLOW_F32": float("inf"), "OVERFLOW_F64": float("inf"), "UNDERFLOW_F32": 0.0, "UNDERFLOW_F64": 0.0,
}
INT_CONST = {"ROUND_NEAREST_EVEN": 0, "ROUND_TOWARD_ZERO": 3, "BYTE0": 0, "BYTE1": 1, "BYTE2": 2, "BYTE3": 3,
             "WORD0": 4, "WORD1": 5, "DWORD": 6}
# Instruction modifier fields that the pseudocode reads as operands (uniform per wave), with their widths.
MODIFIERS = {"OPSEL": 4, "OPSEL_HI": 4, "NEG": 3, "NEG_HI": 3, "ABS": 3, "OMOD": 2, "CLAMP": 1,
             "SDWA_SRC0_SEL": 3, "SDWA_SRC1_SEL": 3}
REG_WIDTH = {"VCC": 64, "EXEC": 64, "SCC": 1, "M0": 32, "PC": 64, "SIMM16": 16, "SIMM32": 32}
REGISTERS = {"S0", "S1", "S2", "S3", "D0", "D1", "VCC", "EXEC", "SCC", "M0", "SIMM16", "SIMM32", "PC"} | set(MODIFIERS)
REGNUM = {"SRC0": "S0", "SRC1": "S1", "SRC2": "S2", "VDST": "D0", "DST": "D0", "SDST": "D0"}
# operand names that a VALU instruction may read as a register number (a wave-wide operand)
NUMBERED = ("SRC0", "DST")
CONVERSION = re.compile(r"^(f16|f32|f64|bf16|i4|u4|i8|u8|i16|u16|i32|u32|i64|u64|fp8|bf8|fp6|bf6|fp4)_to_"
                   r"(f16|f32|f64|bf16|i4|u4|i8|u8|i16|u16|i32|u32|i64|u64|fp8|bf8|fp6|bf6|fp4|snorm|unorm)"
                   r"(_sr_scale|_scale|_sr|_SR)?$")
UNSUPPORTED_ROOTS = {"SGPR": "scalar register file indexing", "MEM": "memory", "TTMP": "trap temporaries",
                     "HW_REGISTERS": "hardware registers", "BARRIER_STATE": "barrier state",
                     "WAVE_BARRIER_COMPLETE": "barrier state"}


def tok_only_attrs(code: str) -> bool:
    """Whether the code names nothing but module attributes (e.g. a constant's spelling)."""
    return "(" not in code and "[" not in code


class ExprGen(GenParts):
    """Mixin: expression compilation (the statement compiler provides emit/tmp/regs/vars)."""

    # -- helpers to build code
    def as_bool(self, e: E) -> E:
        if e.boolean:
            return e
        if e.ty.is_float:
            return E(f"({e.code} != 0)", BOOL, e.uni, True)
        return E(f"({e.code} != 0)", BOOL, e.uni, True)

    def as_int(self, e: E) -> E:
        if e.boolean:
            return E(f"int({e.code})" if e.uni else f"{e.code}.astype(np.int64)", BOOL, e.uni)
        return e

    def convert(self, e: E, to: Ty, store: bool = False) -> E:
        """Value e as type ``to`` (numeric conversion; bit-cast where the manuals mean one)."""
        src = e.ty
        if e.boolean:
            e = self.as_int(e)
            src = BOOL
        if src.soft and e.lit is not None:
            return self.const(e.lit, to, hexlit=e.hexlit)
        if src.is_float and to.is_float:
            if (src.kind, src.width) == (to.kind, to.width):
                return E(e.code, to.hard(), e.uni)
            return E(f"rt.conv({e.code}, {ty_code(src)}, {ty_code(to)}, v_ROUND_MODE)", to.hard())
        if src.is_int and to.is_int and not src.is_mini and not to.is_mini:
            if (to.width > 64) != (src.width > 64):
                return E(f"rt.conv({e.code}, {ty_code(src)}, {ty_code(to)})", to.hard(), e.uni and to.width <= 64)
            return E(e.code, Ty(to.kind, to.width), e.uni)
        if src.is_mini and to.is_int and not to.is_mini or src.is_int and not src.is_mini and to.is_mini:
            return E(e.code, to.hard(), e.uni)
        bitcast = (src.width == to.width) and (store or src.kind == "b" or e.hexlit)
        return E(f"rt.conv({e.code}, {ty_code(src)}, {ty_code(to)}, v_ROUND_MODE, {bitcast})", to.hard())

    def const(self, v, ty: Ty, hexlit: bool = False) -> E:
        ty = ty.hard() if not ty.soft else ty
        if ty.is_float:
            if isinstance(v, int) and hexlit:
                return E(f"fl.from_bits(np.int64({self.i64(v)}), {ty.kind!r}, {ty.width})[()]", ty, True, lit=None)
            dt = {16: "np.float16", 32: "np.float32", 64: "np.float64"}[ty.width] if ty.kind == "f" else "np.float32"
            return E(f"{dt}({self.pyfloat(float(v))})", ty, True, lit=float(v))
        if ty.is_mini:
            return E(str(int(v)), ty, True, lit=int(v))
        v = int(v)
        if ty.width <= 64:
            return E(str(self.i64(v)) if v >= (1 << 63) or v < -(1 << 63) else str(v), ty, True, lit=v, hexlit=hexlit)
        return E(str(v), ty, True, lit=v, hexlit=hexlit)

    @staticmethod
    def pyfloat(v: float) -> str:
        return f"float({repr(v)!r})" if v != v or v in (float("inf"), float("-inf")) else repr(v)

    @staticmethod
    def i64(v: int) -> int:
        v &= (1 << 64) - 1
        return v - (1 << 64) if v >> 63 else v

    def bits(self, e: E) -> E:
        """Raw bits of a value (int code), width = its type width."""
        if e.boolean:
            return self.as_int(e)
        if e.ty.is_float:
            return E(f"fl.to_bits({e.code}, {e.ty.kind!r}, {e.ty.width})", Ty("b", e.ty.width))
        return e

    def arr(self, e: E) -> str:
        """Code for e as a full (L,) array."""
        if e.uni:
            return f"np.full(C.L, {e.code})"
        return e.code

    # -- expressions
    def ex(self, node) -> E:
        e = getattr(self, "ex_" + node[0])(node)
        return self.hoist(e)

    _IDENT = re.compile(r"'[^']*'|\b[A-Za-z_]\w*\b")

    def hoist(self, e: E) -> E:
        """Compute an expression over read-only inputs once, before the body (common subexpressions)."""
        if e.uni or e.code.isidentifier() or "C.state" in e.code:
            return e
        name = self.hoisted.get(e.code)
        if name is not None:
            if name in self.lazy:
                self.emit(f"if {name} is None: {name} = {e.code}")
            return E(name, e.ty, False, e.boolean, e.lit, e.hexlit)
        for tok in self._IDENT.findall(e.code):
            if tok[0] == "'" or tok in ("np", "rt", "fl", "Ty", "C", "True", "False", "None"):
                continue
            if tok.startswith("r_") and tok[2:] not in self.written and tok[2:] in REGISTERS:
                continue  # a register the instruction never writes: read-only like the cached views
            if tok.startswith(("v_", "r_", "_t", "_m", "_l")) and not (tok == "v_ROUND_MODE" and not self.mode_written):
                return e
        if tok_only_attrs(e.code):
            return e
        name = self.hoisted.get(e.code)
        if name is None:
            name = f"h_{len(self.hoisted)}"
            self.hoisted[e.code] = name
            if self.branch_depth:  # inside an if arm: computed on first use, only if an arm that uses it runs
                self.lazy.add(name)
                self.cache_lines.append(f"{name} = None")
                self.emit(f"if {name} is None: {name} = {e.code}")
            else:
                self.cache_lines.append(f"{name} = {e.code}")
            w = self.unsigned_width(e.code)
            if w < 64:
                self.ubits[name] = w
            w = signed_width(e.code, self.sbits)
            if w < 64:
                self.sbits[name] = w
        return E(name, e.ty, False, e.boolean, e.lit, e.hexlit)

    def unsigned_width(self, code: str) -> int:
        return unsigned_width(code, self.ubits)

    def ex_num(self, node) -> E:
        v, ty = node[1], node[2]
        return self.const(v, ty, hexlit=len(node) > 3)

    def ex_string(self, node) -> E:
        return E("None", BOOL, True)

    def ex_name(self, node) -> E:
        n = node[1]
        for scope in reversed(self.scopes):
            if n in scope:
                return scope[n]
        if n in self.loopvars:
            return E(f"v_{n}", self.loopvars[n], True)
        if n == "ROUND_MODE":
            return E("v_ROUND_MODE", Ty("u", 32), True)
        if n in self.uniform_vars:
            return E(f"v_{n}", Ty("u", 32), True)
        if n in self.arrays:
            raise CompileError(f"array {n} used without an index")
        if n in self.vars:
            return E(f"v_{n}", self.vars[n])
        if n == "D":
            n = "D0"
        if n in REGISTERS:
            return self.reg_raw(n)
        if n in ("laneId",):
            return E("C.lane", I32)
        if n in ("WAVE32", "wave32"):
            return E("C.w32", BOOL, True, True)
        if n in ("WAVE64", "wave64"):
            return E("(not C.w32)", BOOL, True, True)
        if n in ("EXEC_LO", "VCC_LO"):
            return E(f"rt.view_u({self.reg_raw(n[:-3]).code}, 32)", Ty("b", 32))
        if n in ("EXEC_HI", "VCC_HI"):
            return E(f"rt.getbits({self.reg_raw(n[:-3]).code}, 32, 32)", Ty("b", 32))
        if n in ("EXECZ", "VCCZ"):
            return E(f"({self.reg_raw(n[:-1]).code} == 0)", BOOL, False, True)
        if n in FLOAT_CONST:
            return E(f"np.float64({self.pyfloat(FLOAT_CONST[n])})", Ty("f", 64, soft=True), True, lit=FLOAT_CONST[n])
        if n in INT_CONST:
            return self.const(INT_CONST[n], Ty("i", 32, soft=True))
        if n in REGNUM:
            if n in NUMBERED and not self.scalar:
                # the operand's VGPR number, given as a wave-wide operand (V_MOVREL* add M0 to it)
                return self.reg_raw(n)
            raise CompileError(f"{n} as a number (register-relative addressing of SGPRs) is not modelled")
        if n in UNSUPPORTED_ROOTS:
            raise CompileError(f"{n} ({UNSUPPORTED_ROOTS[n]}) is not modelled")
        raise CompileError(f"unknown name {n}")

    def ex_field(self, node) -> E:
        base, f = node[1], node[2]
        if base[0] == "name" and base[1] in ("WAVE_MODE", "WAVE_STATUS", "TRAPSTS", "INST"):
            if base[1] == "WAVE_MODE" and f == "IEEE":
                return E("C.ieee", BOOL, True, True)
            if base[1] == "INST" and f.upper() in MODIFIERS:
                return self.reg_raw(f.upper())
            return E(f"C.state.get('{base[1]}.{f}', 0)", Ty("u", 32), True)
        vt = view_type(f)
        if vt is None:
            if base[0] == "name" and base[1] in ("DENORM",):
                raise CompileError("DENORM outside a comparison")
            raise CompileError(f"unknown field .{f}")
        if base[0] == "name" and base[1] in FLOAT_CONST:
            return self.const(FLOAT_CONST[base[1]], vt)
        if base[0] == "name" and base[1] in REGISTERS and base[1] not in self.written and not self.scoped(base[1]):
            return self.cached_view(base[1], vt)
        return self.view(self.ex(base), vt)

    def scoped(self, n: str) -> bool:
        return any(n in s for s in self.scopes)

    def view(self, e: E, vt: Ty) -> E:
        if e.boolean:
            e = self.as_int(e)
        src = e.ty
        if src.is_float:
            if vt.is_float:
                return self.convert(e, vt)
            b = self.bits(e)
            return self.view(b, vt)
        if vt.is_float:
            if src.width < vt.width and src.kind != "b" and not e.hexlit:
                return self.convert(e, vt)
            return E(f"fl.from_bits({self.arr(e)}, {vt.kind!r}, {vt.width})", vt)
        if vt.is_mini:
            return E(f"rt.view_u({e.code}, {vt.width})", vt, e.uni)
        if vt.width > 64:
            return E(f"rt.view_u(rt.obj({e.code}, {ty_code(src)}), {vt.width})", vt)
        if not e.uni and not e.boolean and (self.unsigned_width(e.code) < vt.width + (vt.kind != "i") or
                                            vt.kind == "i" and signed_width(e.code, self.sbits) <= vt.width):
            return E(e.code, vt)  # a value that already fits the view: the view changes nothing
        if vt.kind == "i":
            return E(f"rt.view_i({e.code}, {vt.width})", vt, e.uni)
        if vt.width >= 64 and src.width <= 64:
            return E(e.code, vt, e.uni)
        return E(f"rt.view_u({e.code}, {vt.width})", vt, e.uni)

    def ex_index(self, node) -> E:
        base, idx = node[1], node[2]
        if base[0] == "index" and base[1] == ("name", "VGPR"):
            return self.vgpr_read(base[2], idx)
        if base[0] == "name" and base[1] in self.arrays:
            ety, n = self.arrays[base[1]]
            i = self.ex(idx)
            if i.uni:
                return E(f"v_{base[1]}[int({i.code})]", ety)
            return E(f"rt.gather(v_{base[1]}, {i.code})", ety)
        if base[0] == "name" and base[1] in UNSUPPORTED_ROOTS:
            raise CompileError(f"{base[1]} ({UNSUPPORTED_ROOTS[base[1]]}) is not modelled")
        if base == ("name", "VGPR"):
            raise CompileError("VGPR with a single index")
        b = self.bits(self.ex(base))
        i = self.as_int(self.ex(idx))
        if i.code == "C.lane" and not b.uni:
            return E(f"rt.lane_bit({b.code}, C)", Ty("u", 1))
        return E(f"rt.getbits({b.code}, {i.code}, 1)", Ty("u", 1), b.uni and i.uni)

    def static_width(self, hi, lo) -> int | None:
        if hi[0] == "num" and lo[0] == "num":
            return None
        if hi[0] == "binop" and hi[1] == "+" and hi[2] == lo and hi[3][0] == "num":
            return int(hi[3][1]) + 1
        return None

    def ex_slice(self, node) -> E:
        base, hi, lo = node[1], node[2], node[3]
        b = self.bits(self.ex(base))
        if hi[0] == "num" and lo[0] == "num":
            h, l_ = int(hi[1]), int(lo[1])
            if h >= l_:
                w = h - l_ + 1
                return E(f"rt.getbits({b.code}, {l_}, {w})", Ty("b", w), b.uni)
            w = l_ - h + 1
            return E(f"rt.bitrev(rt.getbits({b.code}, {h}, {w}), {w})", Ty("b", w))
        sw = self.static_width(hi, lo)
        lo_e = self.as_int(self.ex(lo))
        if sw is None:
            hi_e = self.as_int(self.ex(hi))
            return E(f"rt.getbits({b.code}, {lo_e.code}, int(rt.first(None, {hi_e.code} - {lo_e.code})) + 1)",
                     Ty("b", 64))
        return E(f"rt.getbits({b.code}, {lo_e.code}, {sw})", Ty("b", sw))

    def ex_pslice(self, node) -> E:
        b = self.bits(self.ex(node[1]))
        lo = self.as_int(self.ex(node[2]))
        if node[3][0] != "num":
            raise CompileError("variable-width +: slice")
        w = int(node[3][1])
        return E(f"rt.getbits({b.code}, {lo.code}, {w})", Ty("b", w), b.uni and lo.uni)

    def ex_concat(self, node) -> E:
        parts = [self.bits(self.ex(p)) for p in node[1]]
        total = sum(p.ty.width for p in parts)
        code = ", ".join(f"({p.code}, {p.ty.width})" for p in parts)
        return E(f"rt.concat([{code}])", Ty("b", total), all(p.uni for p in parts))

    def ex_cast(self, node) -> E:
        ty, arg = node[1], node[2]
        if ty.is_float:
            e = self.ex(arg)
            if e.ty.is_int and not e.ty.is_mini and not e.boolean:
                if (e.ty.kind == "b" and e.ty.width == ty.width) or e.hexlit:
                    if e.lit is not None:
                        return self.const(e.lit, ty, hexlit=True)
                    return E(f"fl.from_bits({self.arr(e)}, {ty.kind!r}, {ty.width})", ty)
            return self.convert(e, ty)
        if arg[0] == "call" and arg[1] == ("name", "mantissa"):
            m = self.ex(arg[2][0])
            return E(f"rt.mantissa_bits({m.code}, {ty_code(m.ty)})", ty)
        e = self.ex(arg)
        if e.ty.is_float:
            if ty.width > 64:
                raise CompileError(f"{ty.width}-bit fixed-point image of a float constant is not modelled")
            e = E(f"rt.to_int_trunc({e.code}, {ty_code(e.ty)})", I64)
        e = self.as_int(e)
        if e.lit is not None and ty.width <= 64:
            v = e.lit & ((1 << ty.width) - 1)
            if ty.kind == "i" and v >> (ty.width - 1):
                v -= 1 << ty.width
            return self.const(v, ty)
        return self.view(E(e.code, e.ty, e.uni), ty)

    def ex_unop(self, node) -> E:
        op, e = node[1], self.ex(node[2])
        if op == "+":
            return e
        if op == "!":
            b = self.as_bool(e)
            return E(f"(not {b.code})" if b.uni else f"(~{b.code})", BOOL, b.uni, True)
        if op == "-":
            if e.lit is not None:
                return self.const(-e.lit, e.ty) if not e.ty.soft else E(f"(-{e.code})", e.ty, e.uni, lit=-e.lit)
            e = self.as_int(e)
            return E(f"(-{e.code})", e.ty if e.ty.is_float else Ty("i", e.ty.width), e.uni)
        if op == "~":
            e = self.bits(e)
            if e.ty.kind == "i" or e.ty.width > 64:
                return E(f"(~{e.code})", e.ty, e.uni)
            return E(f"({e.code} ^ {self.i64((1 << e.ty.width) - 1) if e.ty.width < 64 else -1})", e.ty, e.uni)
        raise CompileError(f"unknown operator {op}")

    def ex_tern(self, node) -> E:
        c = self.as_bool(self.ex(node[1]))
        a, b = self.ex(node[2]), self.ex(node[3])
        if a.boolean and b.boolean:
            t = BOOL
        else:
            a, b = self.as_int(a), self.as_int(b)
            t = join(a.ty, b.ty)
            a, b = self.convert(a, t), self.convert(b, t)
        if c.uni:
            return E(f"({a.code} if {c.code} else {b.code})", t.hard() if not t.soft else t, a.uni and b.uni,
                     a.boolean and b.boolean)
        if t.width > 64 and t.is_int:
            return E(f"rt.merge({c.code}, rt.obj({a.code}, {ty_code(t)}), rt.obj({b.code}, {ty_code(t)}))", t.hard())
        return E(f"np.where({c.code}, {a.code}, {b.code})", t.hard() if not t.soft else Ty(t.kind, t.width),
                 False, a.boolean and b.boolean)

    def _binop_pattern(self, op: str, an, bn) -> E | None:
        """Operations the manuals write as a pattern: ``x == DENORM``, ``x == +0.0`` (which zero), ``x * 2.0 ** n``."""
        if op in ("==", "!=") and bn[0] == "field" and bn[1] == ("name", "DENORM"):
            a = self.ex(an)
            neg = "~" if op == "!=" else ""
            return E(f"({neg}rt.is_denorm({a.code}, {ty_code(a.ty)}))", BOOL, False, True)
        for x, z in ((an, bn), (bn, an)):
            # "x == +0.0" / "x == -0.0": the manuals write the sign to test which zero it is
            if op in ("==", "!=") and z[0] == "unop" and z[1] in "+-" and z[2][0] == "num" and z[2][1] == 0 \
                    and isinstance(z[2][1], float):
                a = self.ex(x)
                if a.ty.is_float:
                    test = f"(({a.code} == 0) & (np.signbit({a.code}) == {z[1] == '-'}))"
                    return E(test if op == "==" else f"(~{test})", BOOL, False, True)
        if op == "*" and bn[0] == "binop" and bn[1] == "**" and bn[2][0] == "num" and bn[2][1] == 2.0:
            a = self.ex(an)
            n = self.as_int(self.ex(bn[3]))
            if a.ty.is_float and not n.ty.is_float:
                return E(f"rt.ldexp({a.code}, {n.code}, {ty_code(a.ty)})", a.ty.hard())
        return None

    def ex_binop(self, node) -> E:
        op, an, bn = node[1], node[2], node[3]
        special = self._binop_pattern(op, an, bn)
        if special is not None:
            return special
        a, b = self.ex(an), self.ex(bn)
        if op in ("&&", "||"):
            a, b = self.as_bool(a), self.as_bool(b)
            if a.uni and b.uni:
                return E(f"({a.code} {'and' if op == '&&' else 'or'} {b.code})", BOOL, True, True)
            return E(f"({a.code} {'&' if op == '&&' else '|'} {b.code})", BOOL, False, True)
        if op == "**":
            t = a.ty if a.ty.is_float else F64
            a = self.convert(self.as_int(a), t)
            if b.ty.is_float:
                return E(f"rt.unary_f(lambda _x: np.power(_x, {b.code}), {a.code}, {ty_code(t)})", t.hard())
            n = self.as_int(b).code
            if an[0] == "num" and an[1] == 2.0:  # 2 ** n: exact scaling of 1
                return E(f"rt.ldexp(np.ones(C.L), {n}, {ty_code(t)})", t.hard())
            return E(f"rt.unary_f(lambda _x: np.power(_x, np.asarray({n}, dtype=np.float64)), np.ones(C.L) * {a.code}, "
                     f"{ty_code(t)})", t.hard())
        if a.boolean and b.boolean and op in ("&", "|", "^", "==", "!=", "<>"):
            pyop = {"<>": "!="}.get(op, op)
            return E(f"({a.code} {pyop} {b.code})", BOOL, a.uni and b.uni, True)
        a, b = self.as_int(a), self.as_int(b)
        t = join(a.ty, b.ty)
        if op in ("<<", ">>"):
            return self.shift(op, a, b)
        ca, cb = self.convert(a, t), self.convert(b, t)
        uni = ca.uni and cb.uni
        if op in ("==", "!=", "<>", "<", ">", "<=", ">="):
            if t.is_float:
                if op == "<>":
                    return E(f"(({ca.code} < {cb.code}) | ({ca.code} > {cb.code}))", BOOL, uni, True)
                return E(f"({ca.code} {op} {cb.code})", BOOL, uni, True)
            pyop = "!=" if op == "<>" else op
            if t.width > 64:
                return E(f"(rt.obj({ca.code}, {ty_code(a.ty)}) {pyop} rt.obj({cb.code}, {ty_code(b.ty)})).astype(bool)",
                         BOOL, False, True)
            if t.width >= 64 and t.kind != "i" and not uni:
                return E(f"rt.cmp_unsigned64({ca.code}, {cb.code}, {pyop!r})", BOOL, False, True)
            return E(f"({ca.code} {pyop} {cb.code})", BOOL, uni, True)
        if t.is_float:
            if op not in ("+", "-", "*", "/"):
                raise CompileError(f"operator {op} on floats")
            code = f"({ca.code} {op} {cb.code})"
            if t.kind == "bf":
                code = f"fl.to_bf16({code})"
            return E(code, t.hard() if not t.soft else t, uni)
        if t.width > 64:
            if op == "/":
                raise CompileError("division of wide integers")
            return E(f"(rt.obj({ca.code}, {ty_code(a.ty)}) {op} rt.obj({cb.code}, {ty_code(b.ty)}))", t)
        if op == "/":
            return E(f"rt.idiv({ca.code}, {cb.code}, {t.signed})", t)
        if op == "%":
            return E(f"np.fmod({ca.code}, {cb.code})", t)
        code = f"({ca.code} {op} {cb.code})"
        if uni:
            return E(code, t, True, lit=None)
        return E(code, t)

    def shift(self, op: str, a: E, b: E) -> E:
        a = self.bits(a) if a.ty.is_float else a
        t = Ty(a.ty.kind, a.ty.width) if not a.ty.soft else Ty(a.ty.kind, 32)
        big = t.width > 64
        if big:
            fn = "rt.shl" if op == "<<" else "rt.shr"
            extra = ", big=True" if op == "<<" else ", big=True"
            return E(f"{fn}(rt.obj({a.code}, {ty_code(a.ty)}), {b.code}{extra})", t)
        if op == "<<":
            if b.lit is not None and a.uni and isinstance(a.lit, int):
                return self.const(a.lit << int(b.lit), t)
            return E(f"rt.shl({a.code}, {b.code})", t, a.uni and b.uni and False)
        uns = t.width >= 64 and t.kind != "i"
        return E(f"rt.shr({a.code}, {b.code}, {uns})", t)
