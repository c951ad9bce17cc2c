"""Code generation for assignments: registers, variables, bit slices, concatenations and
another lane's or a computed register number's VGPR (a mixin of the compiler's ``Gen``)."""

from __future__ import annotations

from . import codeshape
from .expressions import REGISTERS, REGNUM, CompileError, E, ty_code
from .types import BOOL, Ty, view_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .genparts import GenParts  # (the state and methods the mixins share: checked, not run)
else:
    GenParts = object

LANE = ("name", "laneId")


def root_register(node):
    """The register an assignment target writes (``VGPR[laneId][VDST]`` is D0), or a variable's name."""
    while node[0] in ("field", "index", "slice", "pslice"):
        if node[0] == "index" and node[1][0] == "index" and node[1][1] == ("name", "VGPR"):
            reg = node[2]
            reg = reg[1] if reg[0] == "field" else reg
            return REGNUM.get(reg[1]) if reg[0] == "name" else None
        node = node[1]
    return node[1] if node[0] == "name" else None


class StoreGen(GenParts):
    """Mixin: ``store(target, value)`` and the statements it emits."""

    lines: list[str]  # the Gen's (compiler.Gen sets them)
    d0_type: Ty | None

    # -- stores
    def store(self, target, e: E) -> None:
        kind = target[0]
        if kind == "name":
            return self.store_name(target[1], e)
        if kind == "field":
            base, tname = target[1], target[2]
            if base[0] == "name" and base[1] in ("WAVE_MODE", "WAVE_STATUS", "TRAPSTS"):
                key = f"{base[1]}.{tname}"
                self.state_writes.add(key)
                self.emit(f"if rt.many({self.mask}): C.state[{key!r}] = int(np.asarray(rt.first({self.mask}, {self.as_int(e).code})))")
                return
            vt = view_type(tname)
            if vt is None:
                raise CompileError(f"assignment to unknown field .{tname}")
            root = root_register(base)
            if root == "D" and base[0] == "name":
                base, root = ("name", "D0"), "D0"
            if root == "D0" and self.d0_type is None and base[0] == "name":
                self.d0_type = vt
            conv = self.bits(self.convert(e, vt, store=True))
            if base[0] == "name" and root in self.lane_masks and vt.width == 1:
                return self.store_bits(base, "C.lane", 1, conv)
            return self.store_bits(base, 0, vt.width, conv)
        if kind == "index":
            base, idx = target[1], target[2]
            if base[0] == "index" and base[1] == ("name", "VGPR"):
                return self.store_vgpr(base[2], idx, e)
            if base[0] == "name" and base[1] in self.arrays:
                ety, _ = self.arrays[base[1]]
                i = self.as_int(self.ex(idx))
                v = self.convert(e, ety)
                if i.uni:
                    self.emit(f"v_{base[1]}[int({i.code})] = rt.merge({self.mask}, {v.code}, v_{base[1]}[int({i.code})])")
                else:
                    self.emit(f"rt.scatter(v_{base[1]}, {i.code}, {v.code}, {self.mask})")
                return
            i = self.as_int(self.ex(idx))
            flag = e.code if i.code == "C.lane" and e.boolean and not e.uni else None
            return self.store_bits(base, i.code, 1, self.bits(self.as_int(e)), flag)
        if kind in ("slice", "pslice"):
            base = target[1]
            lo: int | str  # (a constant, or the code of a computed low bit)
            if kind == "pslice":
                if target[3][0] != "num":
                    raise CompileError("variable-width +: slice target")
                lo, w = self.as_int(self.ex(target[2])).code, int(target[3][1])
            elif target[2][0] == "num" and target[3][0] == "num":
                lo, w = int(target[3][1]), int(target[2][1]) - int(target[3][1]) + 1
                if w <= 0:
                    raise CompileError("reversed slice as a target")
            else:
                sw = self.static_width(target[2], target[3])
                if sw is None:
                    raise CompileError("slice target of unknown width")
                w = sw
                lo = self.as_int(self.ex(target[3])).code
            return self.store_bits(base, lo, w, self.bits(self.as_int(e)))
        if kind == "concat":
            total = 0
            widths = []
            for p in target[1]:
                w = self.target_width(p)
                widths.append(w)
                total += w
            bits = self.bits(self.as_int(e))
            t = self.tmp()
            self.emit(f"{t} = {bits.code}")
            off = total
            for p, w in zip(target[1], widths):
                off -= w
                part = E(f"rt.getbits({t}, {off}, {w})", Ty("b", w))
                self.store(p, part)
            return
        raise CompileError(f"cannot assign to {kind}")

    def target_width(self, p) -> int:
        if p[0] == "field":
            vt = view_type(p[2])
            if vt:
                return vt.width
        if p[0] == "slice" and p[2][0] == "num" and p[3][0] == "num":
            return int(p[2][1]) - int(p[3][1]) + 1
        raise CompileError("concatenation target without a width")

    def store_name(self, n: str, e: E) -> None:
        if n == "D":
            n = "D0"
        if n in REGISTERS:
            if n in self.lane_masks and not self.scalar:
                b = self.as_bool(e)
                flag = b.code if b.boolean and not b.uni else None
                return self.store_bits(("name", n), "C.lane", 1, self.as_int(b), flag)
            raw = self.reg_raw(n, read=False)
            b = self.bits(self.as_int(e))
            if raw.ty.width > 64 or b.ty.width > 64:
                code = f"rt.view_u(rt.obj({self.arr(b)}, {ty_code(b.ty)}), {max(raw.ty.width, b.ty.width)})"
            else:
                code = self.arr(b)
            self.emit(f"r_{n} = rt.merge({self.mask}, {code}, r_{n})")
            return
        if n in self.arrays or n in self.loopvars:
            raise CompileError(f"assignment to {n}")
        if n in REGNUM or n in ("PC",):
            raise CompileError(f"assignment to {n} is not modelled")
        if n not in self.vars:
            t = BOOL if e.boolean else (Ty(e.ty.kind, e.ty.width) if e.ty.soft else e.ty)
            if e.ty.soft and e.ty.is_float:
                t = Ty("f", 64)
            self.vars[n] = t
        v = self.convert(self.as_int(e) if not self.vars[n].is_float else e, self.vars[n])
        code = self.arr(v) if self.vars[n].width <= 64 else f"rt.obj({self.arr(v)}, {ty_code(v.ty)})"
        self.emit(f"v_{n} = rt.merge({self.mask}, {code}, v_{n})")

    def store_bits(self, base, lo, w: int, bits: E, flag: str | None = None) -> None:
        """Replace bits [lo, lo+w) of the storage named by ``base`` (``flag``: the code of a
        per-lane boolean whose 0/1 is ``bits``, for writes of bit laneId)."""
        while True:
            if base[0] == "field" and view_type(base[2]):
                base = base[1]
                continue
            if base[0] == "slice" and base[2][0] == "num" and base[3][0] == "num":
                lo = f"({lo}) + {int(base[3][1])}" if not isinstance(lo, int) else lo + int(base[3][1])
                base = base[1]
                continue
            if base[0] == "slice" and self.static_width(base[2], base[3]) is not None:
                lo2 = self.as_int(self.ex(base[3])).code
                lo = f"({lo}) + ({lo2})" if lo != 0 else lo2
                base = base[1]
                continue
            break
        if base[0] == "index" and base[1][0] == "index" and base[1][1] == ("name", "VGPR"):
            lane, reg = base[1][2], base[2]
            reg = reg[1] if reg[0] == "field" else reg
            if reg[0] != "name" or reg[1] not in REGNUM:
                if lo != 0 or w != 32:
                    raise CompileError("a partial write of a VGPR chosen by a computed register number")
                return self.store_vgpr_file(lane, base[2], bits)
            if lane != LANE:
                raise CompileError("partial write of another lane's register")
            base = ("name", REGNUM[reg[1]])
        if base[0] != "name":
            raise CompileError("assignment into a computed value")
        n = "D0" if base[1] == "D" else base[1]
        if n in REGISTERS:
            old = self.reg_raw(n, read=False).code
            width = self.regs[n]
        elif n in self.vars:
            old = f"v_{n}"
            width = self.vars[n].width
            if self.vars[n].is_float:
                raise CompileError(f"bit assignment into float variable {n}")
        elif n in self.arrays or n in REGNUM or n in self.loopvars:
            raise CompileError(f"bit assignment into {n}")
        else:
            self.vars[n] = Ty("b", 64)
            old, width = f"v_{n}", 64
        if isinstance(lo, int) and lo + w > width:
            if n in REGISTERS:
                self.regs[n] = lo + w
            else:
                self.vars[n] = Ty(self.vars[n].kind, lo + w)
            width = lo + w
        new = f"rt.setbits({old}, {lo}, {w}, {bits.code})"
        if lo == "C.lane" and w == 1:
            new = f"rt.set_lane_flag({old}, {flag}, C)" if flag else f"rt.set_lane_bit({old}, {bits.code}, C)"
        if width > 64:
            new = f"rt.setbits(rt.obj({old}, Ty('b', 64)) if {old}.dtype != object else {old}, {lo}, {w}, {bits.code})"
        elif n in REGISTERS and lo == 0 and w <= 64 and not bits.uni:
            # Whether this write covers the whole register is known once every access is seen.
            token = f"@@write{len(self.whole_writes)}@@"
            self.whole_writes[token] = (n, w, bits.code, new)
            new = token
        self.emit(f"{old} = rt.merge({self.mask}, {new}, {old})")

    def resolve_whole_writes(self) -> None:
        self.lines = codeshape.resolve_whole_writes(self.lines, self.whole_writes, self.regs, self.unsigned_width)

    def store_vgpr(self, lane_node, reg_node, e: E) -> None:
        reg = reg_node[1] if reg_node[0] == "field" else reg_node
        if reg[0] != "name" or reg[1] not in REGNUM:
            return self.store_vgpr_file(lane_node, reg_node, self.bits(self.as_int(e)))
        r = REGNUM[reg[1]]
        raw = self.reg_raw(r, read=False)
        b = self.bits(self.as_int(e))
        if lane_node == LANE:
            self.emit(f"{raw.code} = rt.merge({self.mask}, {self.arr(b)}, {raw.code})")
            return
        self.wave_level = True
        lane = self.as_int(self.ex(lane_node))
        self.emit(f"{raw.code} = rt.lane_put({raw.code}, {lane.code}, {b.code}, {self.mask})")


    # -- the VGPR file, indexed by a computed register number (V_MOVREL*: SRC0/DST + M0)
    def vgpr_file_number(self, lane_node, reg_node) -> E:
        if self.scalar:
            raise CompileError("VGPR access from a scalar instruction")
        if lane_node != LANE:
            raise CompileError("another lane's VGPR chosen by a computed register number")
        self.vgpr_file = True
        return self.as_int(self.ex(reg_node))

    def vgpr_file_read(self, lane_node, reg_node) -> E:
        n = self.vgpr_file_number(lane_node, reg_node)
        return E(f"rt.vgpr_file_get(f_VGPR, {n.code}, {self.mask}, C)", Ty("b", 32))

    def store_vgpr_file(self, lane_node, reg_node, bits: E) -> None:
        n = self.vgpr_file_number(lane_node, reg_node)
        self.vgpr_file_written = True
        self.emit(f"f_VGPR = rt.vgpr_file_put(f_VGPR, {n.code}, {bits.code}, {self.mask}, C)")
