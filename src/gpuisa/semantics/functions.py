"""Code generation for calls: the manuals' helper functions, lambdas and other instructions."""

from __future__ import annotations

from .expressions import CONVERSION, CompileError, E, ty_code
from .types import BOOL, I32, I64, Ty

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .genparts import GenParts  # (the state and methods the mixins share: checked, not run)
else:
    GenParts = object

_FTYPES = {"f16": Ty("f", 16), "f32": Ty("f", 32), "f64": Ty("f", 64), "bf16": Ty("bf", 16)}
_MINI = {"fp8", "bf8", "fp6", "bf6", "fp4"}


def _int_ty(name: str) -> Ty:
    return Ty(name[0], int(name[1:]))


class CallGen(GenParts):
    """Mixin: ``f(args)`` for lambdas, helpers and instruction calls."""

    mask: str  # the Gen's (compiler.Gen sets them)

    def ex_call(self, node) -> E:
        fn, args = node[1], node[2]
        if fn[0] != "name":
            raise CompileError("call of a computed function")
        name = fn[1]
        for scope in reversed(self.scopes):
            if name in scope and isinstance(scope[name], tuple):
                return self.inline_lambda(name, scope[name], args)
        if name in self.lambdas:
            return self.inline_lambda(name, self.lambdas[name], args)
        if name in ("nop", "s_nop"):
            return E("None", BOOL, True)
        handler = getattr(self, "fn_" + name, None)
        if handler is not None:
            return handler(*[self.ex(a) for a in args])
        m = CONVERSION.match(name)
        if m:
            return self.conversion(m.group(1), m.group(2), m.group(3) or "", [self.ex(a) for a in args])
        if self.resolver is not None and (name.startswith("v_") or name.startswith("s_")):
            return self.instruction_call(name, [self.ex(a) for a in args])
        raise CompileError(f"unknown function {name}")

    # -- lambdas are expanded at each call site with the argument types of that call
    def inline_lambda(self, name, lam, args) -> E:
        params, body = lam
        if len(params) != len(args):
            raise CompileError(f"{name} takes {len(params)} arguments")
        scope = {}
        for p, a in zip(params, args):
            e = self.ex(a)
            if e.code.isidentifier() or e.uni:
                scope[p] = e
                continue
            t = self.tmp()
            self.emit(f"{t} = {e.code}")
            scope[p] = E(t, e.ty, e.uni, e.boolean, e.lit)
        self.scopes.append(scope)
        try:
            if len(body) == 1 and body[0][0] == "expr":
                return self.ex(body[0][1])
            ret, live = self.tmp(), self.tmp()
            self.emit(f"{live} = {self.mask}")
            self.emit(f"{ret} = None")
            self.returns.append([ret, live, None])
            saved = self.mask
            self.mask = live
            self.block(body)
            self.mask = saved
            _, _, rty = self.returns.pop()
            if rty is None:
                raise CompileError(f"lambda {name} returns nothing")
            return E(ret, rty)
        finally:
            self.scopes.pop()

    def instruction_call(self, name: str, args: list[E]) -> E:
        callee = self.resolver(name)
        if callee is None:
            raise CompileError(f"calls {name}, which has no executable pseudocode")
        codes = [self.arr(self.bits(self.as_int(a))) if not a.uni else f"np.full(C.L, {self.bits(self.as_int(a)).code})"
                 for a in args]
        rty = callee.d0_type or Ty("b", 32)
        raw = E(f"C.call({name!r}, [{', '.join(codes)}])", Ty("b", max(rty.width, 32)))
        return self.view(raw, rty)

    # -- helper functions
    def _f(self, e: E) -> E:
        if e.ty.is_float:
            return e
        return self.convert(self.as_int(e), Ty("f", 64))

    def fn_isNAN(self, x):
        return E(f"np.isnan({self._f(x).code})", BOOL, x.uni, True)

    def fn_isSignalNAN(self, x):
        x = self._f(x)
        return E(f"rt.is_snan({x.code}, {ty_code(x.ty)})", BOOL, False, True)

    def fn_isQuietNAN(self, x):
        x = self._f(x)
        return E(f"rt.is_qnan({x.code}, {ty_code(x.ty)})", BOOL, False, True)

    def fn_cvtToQuietNAN(self, x):
        x = self._f(x)
        return E(f"rt.quiet({x.code}, {ty_code(x.ty)})", x.ty)

    def fn_sign(self, x):
        return E(f"rt.sign({x.code}, {ty_code(x.ty)})", Ty("u", 1))

    def fn_abs(self, x):
        x = self.as_int(x)
        return E(f"np.abs({x.code})", x.ty, x.uni)

    def fn_exponent(self, x):
        x = self._f(x)
        return E(f"rt.exponent({x.code}, {ty_code(x.ty)})", I32)

    def fn_mantissa(self, x):
        x = self._f(x)
        return E(f"rt.mantissa({x.code}, {ty_code(x.ty)})", x.ty)

    def fn_fma(self, a, b, c):
        t = a.ty if a.ty.is_float else (b.ty if b.ty.is_float else c.ty)
        for o in (a, b, c):
            if o.ty.is_float and o.ty.width > t.width and not o.ty.soft:
                t = o.ty
        t = t.hard()
        a, b, c = (self.convert(o, t) for o in (a, b, c))
        return E(f"fl.fma({a.code}, {b.code}, {c.code}, {t.kind!r}, {t.width})", t)

    def _unary(self, np_fn: str, x: E, via64: bool = False) -> E:
        x = self._f(x)
        if via64:
            return E(f"rt.unary_f({np_fn}, {x.code}, {ty_code(x.ty)})", x.ty.hard())
        return E(f"{np_fn}({x.code})", x.ty.hard(), x.uni)

    def fn_floor(self, x):
        return self._unary("np.floor", x)

    def fn_trunc(self, x):
        return self._unary("np.trunc", x)

    def fn_ceil(self, x):
        return self._unary("np.ceil", x)

    def fn_sqrt(self, x):
        return self._unary("np.sqrt", x)

    def fn_log2(self, x):
        return self._unary("np.log2", x, True)

    def fn_sin(self, x):
        return self._unary("np.sin", x, True)

    def fn_cos(self, x):
        return self._unary("np.cos", x, True)

    def fn_pow(self, a, b):
        a = self._f(a)
        if a.lit == 2.0:
            return self._unary("np.exp2", self.convert(b, a.ty), True)
        b = self._f(b)
        return E(f"rt.unary_f(lambda _x: np.power(_x, np.asarray({b.code}, dtype=np.float64)), {a.code}, {ty_code(a.ty)})",
                 a.ty.hard())

    def fn_ldexp(self, x, n):
        x = self._f(x)
        return E(f"rt.ldexp({x.code}, {self.as_int(n).code}, {ty_code(x.ty)})", x.ty.hard())

    def fn_fract(self, x):
        x = self._f(x)
        return E(f"rt.fract({x.code}, {ty_code(x.ty)})", x.ty.hard())

    def fn_isEven(self, x):
        return E(f"rt.is_even({self._f(x).code})", BOOL, False, True)

    def fn_signext(self, x):
        x = self.as_int(x)
        if x.ty.is_float:
            raise CompileError("signext of a float")
        return E(x.code, I64, x.uni)

    def fn_signext_from_bit(self, x, n):
        return E(f"rt.signext_from_bit({self.as_int(x).code}, {self.as_int(n).code})", Ty("i", x.ty.width))

    def fn_bitCount(self, x):
        return E(f"rt.popcount({self.bits(x).code})", I32)

    def fn_MIN(self, a, b):
        return E(f"np.minimum({a.code}, {b.code})", a.ty)

    def fn_v_cvt_i16_f32(self, x):  # named by V_CVT_PK_I16_F32, absent from the tables
        return self.conversion("f32", "i16", "", [x])

    def fn_v_cvt_u16_f32(self, x):
        return self.conversion("f32", "u16", "", [x])

    def fn_float32(self, s, e, m):
        return E(f"rt.float32_from_fields({s.code}, {e.code}, {m.code})", Ty("f", 32))

    # -- conversions named src_to_dst[_scale|_sr|_sr_scale]
    def conversion(self, src: str, dst: str, suffix: str, args: list[E]) -> E:
        x = args[0]
        if src in _MINI or dst in _MINI:
            return self.mini_conversion(src, dst, suffix, args)
        if suffix.lower() == "_sr":
            t = _FTYPES[dst]
            x = self.convert(x, _FTYPES[src])
            return E(f"rt.cvt_sr({x.code}, {self.as_int(args[1]).code}, {ty_code(x.ty)}, {ty_code(t)})", t)
        if suffix:
            raise CompileError(f"conversion {src}_to_{dst}{suffix}")
        if dst in ("snorm", "unorm"):
            x = self.convert(x, _FTYPES[src])
            signed = dst == "snorm"
            return E(f"rt.to_norm({x.code}, {ty_code(x.ty)}, 16, {signed})", Ty("i" if signed else "u", 16))
        if src in _FTYPES and dst in _FTYPES:
            # a conversion (unlike the pseudocode's own 64'F(...) views) quiets signalling NaNs
            y = self.convert(self.convert(x, _FTYPES[src]), _FTYPES[dst])
            return E(f"rt.quiet({y.code}, {ty_code(y.ty)})", y.ty)
        if src in _FTYPES:
            t = _int_ty(dst)
            x = self.convert(x, _FTYPES[src])
            return E(f"rt.f_to_int({x.code}, {ty_code(x.ty)}, {t.width}, {t.signed})", t)
        st = _int_ty(src)
        x = self.as_int(x)
        x = self.view(x, st) if x.ty.width > st.width or (x.ty.kind != st.kind and x.ty.width == st.width) else x
        if dst in _FTYPES:
            return self.convert(E(x.code, st, x.uni), _FTYPES[dst])
        dt = _int_ty(dst)
        if dt.width >= st.width:
            return E(x.code, dt, x.uni)
        return E(f"rt.sat_int({x.code}, {dt.width}, {dt.signed})", dt)

    def mini_conversion(self, src, dst, suffix, args) -> E:
        scale = None
        rand = None
        if suffix == "_scale":
            scale = self.as_int(args[1]).code
        elif suffix == "_sr_scale":
            rand, scale = self.as_int(args[1]).code, self.as_int(args[2]).code
        elif suffix:
            raise CompileError(f"conversion {src}_to_{dst}{suffix}")
        x = args[0]
        if src in _MINI:
            t = _FTYPES[dst]
            code = self.bits(x).code
            if scale is None:
                return self.convert(E(code, Ty(src, int(src[-1]))), t)
            return E(f"rt.mini_scale_decode({code}, {src!r}, {scale}, {ty_code(t)})", t)
        x = self.convert(x, _FTYPES[src])
        t = Ty(dst, int(dst[-1]))
        if scale is None:
            return self.convert(x, t)
        return E(f"rt.mini_scale_encode({x.code}, {ty_code(x.ty)}, {dst!r}, {scale}, {rand})", t)
