"""Compile parsed pseudocode into one Python function per instruction (cached).

The function runs an instruction on every lane at once with numpy: ``prog(R, _m, C)``
reads and writes the register arrays in ``R`` (one element per lane), ``_m`` is the
lane mask of active lanes (``None`` = all), ``C`` the wave context (size, mode bits,
calls to other instructions).  Control flow on per-lane conditions becomes lane masks:
both arms of an ``if`` run under their masks and every assignment merges its new value
into the lanes of the current mask only; ``break`` and ``return`` remove lanes from the
enclosing loop's or lambda's mask.  Types are static (see :mod:`types`), so the code is
specialised once: typed views, conversions and operators become direct numpy calls.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from . import callbatch, fastpaths, floats, matrix, parser, runtime, sources
from .expressions import MODIFIERS, REG_WIDTH, REGISTERS, REGNUM, E, CompileError, ExprGen
from .functions import CallGen
from .stores import LANE, StoreGen, root_register
from .types import BOOL, Ty, view_type

@dataclass
class Program:
    arch: str
    name: str
    op_class: str
    text: str
    fn: object
    source: str
    scalar: bool  # SALU: one value per wave
    reads: set[str]
    writes: set[str]
    widths: dict[str, int]
    formats: dict[str, Ty]  # first typed view of each register
    lane_masks: set[str]  # registers written one bit per lane (VCC, EXEC, compare results)
    wave_level: bool  # reads or writes other lanes' registers
    d0_type: Ty | None
    inputs: set[str] = field(default_factory=set)
    state_writes: set[str] = field(default_factory=set)
    code: str = ""
    reference_fn: object = None  # the compiled pseudocode where ``fn`` is a vectorised fast path
    vgpr_file: bool = False  # reads or writes VGPRs by a computed register number (R['VGPR'])


class NoSemantics(LookupError):
    """No executable pseudocode for an instruction (message says why)."""


def _walk(stmts):
    for s in stmts:
        yield s
        if s[0] == "if":
            for _, b in s[1]:
                yield from _walk(b)
            if s[2]:
                yield from _walk(s[2])
        elif s[0] in ("for",):
            yield from _walk(s[4])
        elif s[0] == "while":
            yield from _walk(s[2])
        elif s[0] == "assign" and s[3][0] == "lambda":
            yield from _walk(s[3][2])


def _nodes(node):
    if isinstance(node, tuple):
        yield node
        for x in node[1:]:
            yield from _nodes(x)
    elif isinstance(node, list):
        for x in node:
            yield from _nodes(x)


class Gen(ExprGen, CallGen, StoreGen):
    def __init__(self, stmts, scalar: bool, resolver):
        self.lines: list[str] = []
        self.indent = 1
        self.mask = "_m"
        self.scopes: list[dict] = []
        self.lambdas: dict = {}
        self.vars: dict[str, Ty] = {}
        self.arrays: dict[str, tuple[Ty, int]] = {}
        self.loopvars: dict[str, Ty] = {}
        self.uniform_vars: set[str] = set()
        self.regs: dict[str, int] = {}
        self.read_regs: set[str] = set()
        self.inputs: set[str] = set()  # read before written: the instruction's inputs
        self.stored: set[str] = set()
        self.cache: dict = {}
        self.cache_lines: list[str] = []
        self.returns: list = []
        self.loops: list[str] = []
        self.resolver = resolver
        self.scalar = scalar
        self.counter = 0
        self.wave_level = False
        self.d0_type: Ty | None = None
        self.state_writes: set[str] = set()
        self.formats: dict[str, Ty] = {}
        self.written = {r for s in _walk(stmts) if s[0] == "assign" for t in s[2]
                        for r in ([root_register(p) for p in t[1]] if t[0] == "concat" else [root_register(t)]) if r}
        self.written = {("D0" if r == "D" else r) for r in self.written}
        self.lane_masks = set()
        self.hoisted: dict[str, str] = {}
        self.whole_writes: dict[str, tuple] = {}
        self.ubits: dict[str, int] = {}  # hoisted names that hold unsigned values of fewer bits
        self.sbits: dict[str, int] = {}  # ... and signed ones
        self.branch_depth = 0  # inside an if arm: common subexpressions there are computed lazily
        self.lazy: set[str] = set()
        self.mode_written = any(s[0] == "assign" and any(t == ("name", "ROUND_MODE") for t in s[2]) for s in _walk(stmts))
        self.widths: dict[str, int] = {}
        self.vgpr_file = False  # VGPR[laneId][computed number]: the whole file is R['VGPR']
        self.vgpr_file_written = False
        self._prescan(stmts)

    def _prescan(self, stmts):
        for n in _nodes(stmts):
            if n[0] == "field" and n[1][0] == "name" and n[1][1] in REGISTERS | {"D"}:
                vt = view_type(n[2])
                r = "D0" if n[1][1] == "D" else n[1][1]
                if vt:
                    self.widths[r] = max(self.widths.get(r, 0), vt.width)
                    self.formats.setdefault(r, vt)
            if n[0] == "slice" and n[1][0] == "name" and n[2][0] == "num" and n[3][0] == "num":
                r = "D0" if n[1][1] == "D" else n[1][1]
                self.widths[r] = max(self.widths.get(r, 0), int(max(n[2][1], n[3][1])) + 1)
        if self.scalar:
            return
        for s in _walk(stmts):
            if s[0] != "assign":
                continue
            for t in s[2]:
                parts = t[1] if t[0] == "concat" else [t]
                for p in parts:
                    r = root_register(p)
                    if r in ("VCC", "EXEC"):
                        self.lane_masks.add(r)
                    elif p[0] == "index" and p[2] == LANE and p[1][0] in ("field", "name"):
                        self.lane_masks.add(r)
                    elif p[0] == "field" and p[2] in ("u1", "i1") and p[1][0] == "name":
                        self.lane_masks.add(r)

    # -- emission
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def tmp(self) -> str:
        self.counter += 1
        return f"_t{self.counter}"

    def reg_raw(self, n: str, read: bool = True) -> E:
        if read:
            self.read_regs.add(n)
            if n not in self.stored:
                self.inputs.add(n)
        else:
            self.stored.add(n)
        if n in MODIFIERS:
            w = MODIFIERS[n]
        else:
            w = max(REG_WIDTH.get(n, 0), self.widths.get(n, 0)) or 32
            if n in self.lane_masks:
                w = 64
            elif n[0] in "SD" and n[1:].isdigit():
                w = max(w, 32)
        self.regs[n] = max(self.regs.get(n, 0), w)
        return E(f"r_{n}", Ty("b", w))

    def cached_view(self, n: str, vt: Ty) -> E:
        key = (n, vt)
        if key not in self.cache:
            e = self.view(self.reg_raw(n), vt)
            name = f"c_{n}_{vt.kind}{vt.width}"
            self.cache[key] = name
            self.cache_lines.append(f"{name} = {e.code}")
        return E(self.cache[key], vt)

    def vgpr_read(self, lane_node, reg_node) -> E:
        reg = reg_node[1] if reg_node[0] == "field" else reg_node
        if reg[0] != "name" or reg[1] not in REGNUM:
            return self.vgpr_file_read(lane_node, reg_node)
        raw = self.reg_raw(REGNUM[reg[1]])
        if lane_node == LANE:
            return raw
        self.wave_level = True
        lane = self.as_int(self.ex(lane_node))
        return E(f"rt.lane_get({raw.code}, {lane.code})", raw.ty)

    # -- statements
    def block(self, stmts) -> None:
        for s in stmts:
            getattr(self, "st_" + s[0])(s)

    def st_expr(self, s) -> None:
        self.ex(s[1])

    def st_declare(self, s) -> None:
        _, name, ty, count = s
        if count is not None:
            self.arrays[name] = (ty, count)
        else:
            self.vars[name] = ty

    def st_break(self, s) -> None:
        if not self.loops:
            raise CompileError("break outside a loop")
        live = self.loops[-1]
        self.emit(f"{live} = rt.mminus({live}, {self.mask})")

    def st_return(self, s) -> None:
        if not self.returns:
            raise CompileError("return outside a lambda")
        ret = self.returns[-1]
        e = self.ex(s[1])
        if ret[2] is None:
            ret[2] = BOOL if e.boolean else e.ty.hard() if not e.ty.soft else Ty(e.ty.kind, e.ty.width)
        v = self.convert(e, ret[2])
        self.emit(f"{ret[0]} = rt.merge({self.mask}, {v.code}, {ret[0]})")
        self.emit(f"{ret[1]} = rt.mminus({ret[1]}, {self.mask})")

    def st_if(self, s) -> None:
        self._if_chain(s[1], s[2], self.mask)

    def _if_chain(self, arms, else_block, rest) -> None:
        if not arms:
            if else_block:
                self.emit(f"if rt.many({rest}):")
                self.indent += 1
                self._sub_block(else_block, rest)
                self.indent -= 1
            return
        cond, body = arms[0]
        c = self.as_bool(self.ex(cond))
        if c.uni:
            self.emit(f"if {c.code}:")
            self.indent += 1
            self._sub_block(body, rest)
            self.indent -= 1
            if arms[1:] or else_block:
                self.emit("else:")
                self.indent += 1
                start = len(self.lines)
                self._if_chain(arms[1:], else_block, rest)
                if len(self.lines) == start:
                    self.emit("pass")
                self.indent -= 1
            return
        arm, nxt = self.tmp(), self.tmp()
        if not c.code.isidentifier():
            ct = self.tmp()
            self.emit(f"{ct} = {c.code}")
            c = E(ct, c.ty, c.uni, c.boolean)
        self.emit(f"{arm} = rt.mand({rest}, {c.code})")
        self.emit(f"{nxt} = rt.mandnot({rest}, {c.code})")
        self.emit(f"if rt.many({arm}):")
        self.indent += 1
        self._sub_block(body, arm)
        self.indent -= 1
        self._if_chain(arms[1:], else_block, nxt)

    def _sub_block(self, body, mask) -> None:
        saved = self.mask
        self.mask = mask
        self.branch_depth += 1
        start = len(self.lines)
        self.block(body)
        if len(self.lines) == start:
            self.emit("pass")
        self.branch_depth -= 1
        self.mask = saved

    def st_for(self, s) -> None:
        _, var, lo, hi, body = s
        lo_e, hi_e = self.as_int(self.ex(lo)), self.as_int(self.ex(hi))
        lo_c = lo_e.code if lo_e.uni else f"rt.first({self.mask}, {lo_e.code})"
        hi_c = hi_e.code if hi_e.uni else f"rt.first({self.mask}, {hi_e.code})"
        ty = self.vars.pop(var, Ty("i", 32))
        saved_var = self.loopvars.get(var)
        self.loopvars[var] = ty
        has_break = any(x[0] == "break" for x in _walk(body))
        saved = self.mask
        if has_break:
            live = self.tmp()
            self.emit(f"{live} = {self.mask}")
            self.loops.append(live)
            self.mask = live
        self.emit(f"for v_{var} in range(int({lo_c}), int({hi_c}) + 1):")
        self.indent += 1
        start = len(self.lines)
        self.block(body)
        if has_break:
            self.emit(f"if not rt.many({live}):")
            self.emit("    break")
            self.loops.pop()
        if len(self.lines) == start:
            self.emit("pass")
        self.indent -= 1
        self.mask = saved
        if saved_var is None:
            del self.loopvars[var]
        else:
            self.loopvars[var] = saved_var

    def st_while(self, s) -> None:
        c = self.as_bool(self.ex(s[1]))
        if not c.uni:
            raise CompileError("while on a per-lane condition")
        raise CompileError("while loops wait on other waves (barriers); not modelled")

    def st_assign(self, s) -> None:
        _, op, targets, value = s
        if value[0] == "lambda":
            if op != "=" or len(targets) != 1 or targets[0][0] != "name":
                raise CompileError("lambda assigned to a non-name")
            self.lambdas[targets[0][1]] = (value[1], value[2])
            return
        if op != "=":
            value = ("binop", op[0], targets[0], value)
        if len(targets) == 1 and targets[0][0] == "name" and (targets[0][1] == "ROUND_MODE" or value == ("name", "ROUND_MODE")):
            e = self.ex(value)
            name = targets[0][1]
            if name != "ROUND_MODE":
                self.uniform_vars.add(name)
            self.emit(f"v_{name} = {e.code}")
            return
        e = self.ex(value)
        if len(targets) > 1:
            t = self.tmp()
            self.emit(f"{t} = {e.code}")
            e = E(t, e.ty, e.uni, e.boolean, e.lit, e.hexlit)
        for target in targets:
            self.store(target, e)

    # -- the function
    def function_source(self, body_stmts) -> str:
        self.block(body_stmts)
        self.resolve_whole_writes()
        self.cache_lines, self.lines = callbatch.batch_calls(
            self.cache_lines, self.lines, self.lazy, self.mode_written, self.written,
            lambda callee: self.resolver is not None and callbatch.lane_independent(self.resolver(callee), self.resolver))
        head = ["def _prog(R, _m, C):", "    v_ROUND_MODE = C.round_mode"]
        if self.vgpr_file:
            head.append("    f_VGPR = R['VGPR']")
        for r in sorted(self.regs):
            head.append(f"    r_{r} = R[{r!r}]")
        head += ["    " + c for c in self.cache_lines]
        for n, t in self.vars.items():
            head.append(f"    v_{n} = {self.zeros(t)}")
        for n, (t, cnt) in self.arrays.items():
            if n == "S":
                head.append(f"    v_S = [{', '.join(self.reg_raw(r).code for r in ('S0', 'S1', 'S2'))}]")
                for r in ("S0", "S1", "S2"):
                    head.insert(2, f"    r_{r} = R[{r!r}]")
            elif n == "CVT_OFF_TABLE":
                head.append(f"    v_{n} = [np.full(C.L, np.float32(x)) for x in rt.CVT_OFF_TABLE]")
            else:
                head.append(f"    v_{n} = [{self.zeros(t)} for _ in range({cnt})]")
        tail = [f"    R[{r!r}] = r_{r}" for r in sorted(self.written & set(self.regs))]
        if self.vgpr_file_written:
            tail.append("    R['VGPR'] = f_VGPR")
        return "\n".join(head + self.lines + tail + ["    return R"]) + "\n"

    @staticmethod
    def zeros(t: Ty) -> str:
        if t.is_float:
            dt = {16: "np.float16", 32: "np.float32", 64: "np.float64"}[t.width] if t.kind == "f" else "np.float32"
            return f"np.zeros(C.L, dtype={dt})"
        if t.width > 64:
            return "np.zeros(C.L, dtype=object) * 0"
        return "np.zeros(C.L, dtype=np.int64)"


def compile_text(text: str, scalar: bool, resolver=None, name: str = "", arch: str = "", op_class: str = "",
                 source: str = "") -> Program:
    stmts = parser.parse(text)
    gen = Gen(stmts, scalar, resolver)
    src = gen.function_source(stmts)
    ns = {"np": np, "rt": runtime, "fl": floats, "Ty": Ty}
    try:
        code = compile(src, f"<pcode {arch} {name}>", "exec")
    except SyntaxError as exc:  # a bug of the generator, reported like any other failure
        raise CompileError(f"generated code does not compile: {exc}") from None
    exec(code, ns)
    reads = set(gen.read_regs)
    return Program(arch, name, op_class, text, ns["_prog"], source, scalar, reads, gen.written & set(gen.regs),
                   dict(gen.regs), gen.formats, gen.lane_masks, gen.wave_level, gen.d0_type, set(gen.inputs), gen.state_writes, src,
                   vgpr_file=gen.vgpr_file)


_IN_PROGRESS: set = set()
CALL_ALIASES = {"s_ff1_i32_b32": "s_ctz_i32_b32", "s_ff1_i32_b64": "s_ctz_i32_b64"}


@functools.lru_cache(maxsize=None)
def program(arch: str, name: str) -> Program:
    """The compiled program of an instruction (raises NoSemantics with the reason)."""
    entry = sources.lookup(arch, name)
    if entry is None:
        raise NoSemantics(f"no pseudocode for {name} in {arch}")
    if matrix.is_matrix(name):  # the manuals give a formula, not code: run natively
        return matrix.program(arch, name, entry)
    scalar = entry.op_class.startswith("SOP")
    key = (arch, name)
    if key in _IN_PROGRESS:
        raise NoSemantics(f"{name} calls itself")
    _IN_PROGRESS.add(key)

    def resolver(callee: str):
        # A helper instruction the manual of this generation calls but does not list is taken
        # from another generation's table (CDNA4 calls RDNA's v_minimum3_f16); s_ff1 is s_ctz's old name.
        callee = CALL_ALIASES.get(callee, callee)
        for a in (arch,) + tuple(x for x in sources.default_source().archs() if x != arch):
            if sources.lookup(a, callee) is None:
                continue
            try:
                return program(a, callee)
            except NoSemantics:
                return None
        return None

    try:
        prog = compile_text(entry.text, scalar, resolver, name, arch, entry.op_class, entry.source)
    except parser.PcodeSyntaxError as exc:
        raise NoSemantics(f"pseudocode does not parse: {exc}") from None
    except CompileError as exc:
        raise NoSemantics(str(exc)) from None
    finally:
        _IN_PROGRESS.discard(key)
    fastpaths.attach(prog)
    return prog
