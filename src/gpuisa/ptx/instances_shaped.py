"""Operands of a concrete opcode whose shape depends on its values: the ``shaped`` strategy.

Matrix instructions take register vectors whose length follows from the shape and the element
types (a fragment holds a matrix's elements spread over the threads that execute it); texture and
surface instructions take a handle and a coordinate vector sized by the geometry; calls and
indirect branches take symbols the kernel wrapper declares (``ptxas.SYMBOL_DECLS``); tensor-memory
(tcgen05) addresses are 32-bit registers, matrix descriptors 64-bit registers.

Facts used (PTX ISA 9.0, the instruction pages under ``../shared/reference/ptx-9.0/docs``):
elements per thread = rows x columns / threads (32 for a warp, 8 for the m8n8k4 quad-pair form with
.f16 inputs, 128 for a warpgroup), packed into 32-bit registers (64-bit for .f64); a sparse A holds
half of K; the wmma .f16 A/B fragments are eight registers in every shape; a tcgen05.ld/st of
shape 32x32b/16x64b/16x32bx2 moves one register per .num step, 16x128b two and 16x256b four,
halved by .pack::16b / .unpack::16b; an ldmatrix/stmatrix moves one register per matrix (.num),
two for the m16n16 .b8 shape.  The vector lengths are confirmed by ptxas (the catalog generator
keeps the strategy only for forms whose instances ptxas accepts).
"""

from __future__ import annotations

import random
import re

from . import instances_typed
from .match import dot_tokens

SHAPE_RE = re.compile(r"^\.m(\d+)n(\d+)k(\d+)$")
BITS = {".f16": 16, ".bf16": 16, ".tf32": 32, ".f32": 32, ".s32": 32, ".u32": 32, ".b32": 32, ".f64": 64,
        ".s8": 8, ".u8": 8, ".e4m3": 8, ".e5m2": 8, ".e3m2": 8, ".e2m3": 8, ".e2m1": 8, ".s4": 4, ".u4": 4,
        ".b1": 1}
ELEM_TYPES = set(BITS) | {".ue8m0", ".ue4m3"}
TEX_COORDS = {".1d": 1, ".2d": 2, ".3d": 4, ".a1d": 2, ".a2d": 4, ".cube": 4, ".acube": 4, ".2dms": 4,
              ".a2dms": 4}
TENSOR_DIMS = {".1d": 1, ".2d": 2, ".3d": 3, ".4d": 4, ".5d": 5}
TCGEN05_SHAPE_REGS = {".32x32b": 1, ".16x64b": 1, ".16x32bx2": 1, ".16x128b": 2, ".16x256b": 4}
MMA_HEADS = ("mma", "wgmma", "wmma")


class Regs:
    """Register names of the wrapper's fragment banks (``v``: .b32, ``vd``: .b64, ``vh``: .b16)."""

    def __init__(self):
        self.n = {"v": 0, "vd": 0, "vh": 0, "vb": 0, "r": 0, "rd": 0, "p": 0}
        self.limit = {"v": 290, "vd": 60, "vh": 60, "vb": 8, "r": 79, "rd": 39, "p": 7}

    def one(self, cls: str) -> str:
        i = self.n[cls] % self.limit[cls] + 1
        self.n[cls] = i
        return f"{cls}{i}"

    def vec(self, count: int, cls: str = "v") -> str:
        return "{" + ", ".join(self.one(cls) for _ in range(max(1, count))) + "}"


def _regs_for(elems: float, bits: int) -> tuple[int, str]:
    """(register count, bank) holding ``elems`` elements of ``bits`` bits."""
    if bits == 64:
        return max(1, int(elems)), "vd"
    return max(1, int(elems * bits + 31) // 32), "v"


def _types(toks: list[str]) -> list[str]:
    return [t for t in toks[1:] if t in ELEM_TYPES]


def _shape(toks: list[str]) -> tuple[int, int, int] | None:
    for t in toks:
        m = SHAPE_RE.match(t)
        if m:
            return int(m.group(1)), int(m.group(2)), int(m.group(3))
    return None


def fragments(toks: list[str]) -> dict[str, tuple[int, str]]:
    """Operand name -> (register count, bank) of a matrix instruction's fragments."""
    head = toks[0]
    shape = _shape(toks)
    types = _types(toks)
    if shape is None or not types:
        return {}
    m, n, k = shape
    sparse = any(t.startswith(".sp") for t in toks[1:3])
    if head == "wgmma":
        threads, ka = 128, k // 2 if sparse else k
        d = types[0]
        a = types[1] if len(types) > 1 else d
        dcount = _regs_for(m * n / threads, BITS[d])
        return {"d": dcount, "a": _regs_for(m * ka / threads, BITS.get(a, 16))}
    if head == "wmma":
        return _wmma(toks, (m, n, k), types)
    # mma.sync / mma.sp: d, a, b, c (plus the block-scale type)
    d, a, b, c = (types + [types[-1]] * 4)[:4]
    threads = 8 if (m, n, k) == (8, 8, 4) and a == ".f16" else 32
    ka = k // 2 if sparse else k
    abits = 4 if a == ".e2m1" and any(t.startswith(".kind::mxf4") for t in toks) else BITS.get(a, 16)
    bbits = 4 if b == ".e2m1" and any(t.startswith(".kind::mxf4") for t in toks) else BITS.get(b, 16)
    return {"d": _regs_for(m * n / threads, BITS.get(d, 32)), "a": _regs_for(m * ka / threads, abits),
            "b": _regs_for(k * n / threads, bbits), "c": _regs_for(m * n / threads, BITS.get(c, 32))}


def _wmma(toks: list[str], shape: tuple[int, int, int], types: list[str]) -> dict[str, tuple[int, str]]:
    m, n, k = shape
    op = toks[1]

    def count(which: str, t: str) -> tuple[int, str]:
        if which in "ab" and t == ".f16":
            return 8, "v"
        elems = {"a": m * k, "b": k * n}.get(which, m * n) / 32
        return _regs_for(elems, BITS.get(t, 32))
    if op in (".load", ".store"):
        which = toks[2][1:] if op == ".load" else "c"
        return {"r": count(which, types[-1])}
    if len(types) == 2:  # wmma.mma .dtype.ctype with .f16 inputs
        d, c = types
        a = b = ".f16"
    else:
        d, a, b, c = (types + [types[-1]] * 4)[:4]
    return {"d": count("d", d), "a": count("a", a), "b": count("b", b), "c": count("c", c)}


def _tcgen05_count(toks: list[str]) -> int:
    per = next((TCGEN05_SHAPE_REGS[t] for t in toks if t in TCGEN05_SHAPE_REGS), 1)
    num = next((int(t[2:]) for t in toks if re.fullmatch(r"\.x\d+", t)), 1)
    packed = any(t in (".pack::16b", ".unpack::16b") for t in toks)
    return max(1, per * num // (2 if packed else 1))


def _matrix_count(toks: list[str]) -> int:
    num = next((int(t[2:]) for t in toks if re.fullmatch(r"\.x\d+", t)), 1)
    return num * (2 if ".m16n16" in toks and any(t.startswith(".b8") for t in toks) else 1)


def _coords(toks: list[str]) -> int:
    return next((TEX_COORDS[t] for t in toks if t in TEX_COORDS), 2)


def _vec_len(toks: list[str]) -> int:
    return next((int(t[2:]) for t in toks if re.fullmatch(r"\.v\d+", t)), 1)


def _data_regs(toks: list[str], regs: Regs, count: int) -> str:
    """Registers of a texture/surface data operand: the width of the data type."""
    t = next((x for x in reversed(toks) if x in (".b8", ".b16", ".b32", ".b64", ".f16", ".u32", ".s32",
                                                  ".f32")), ".b32")
    cls = {".b8": "vh", ".b16": "vh", ".f16": "vh", ".b64": "vd"}.get(t, "v")
    if ".f16x2" in toks:
        cls = "v"
    return regs.vec(count, cls) if count > 1 else regs.one(cls)


def operand_text(form: dict, opcode: str, rng: random.Random | None = None, with_optional: bool = False) -> str:
    """Operands of ``opcode`` (an opcode of ``form``) under the shaped strategy."""
    toks = dot_tokens(opcode)
    head = toks[0]
    regs = Regs()
    frags = fragments(toks) if head in MMA_HEADS else {}
    pats = [p for p in form["operands"] if with_optional or not p["optional"]]
    out = []
    for p in pats:
        special = _special(form, p, toks, frags, regs)
        if special is None:
            special = instances_typed.operand_text({**form, "operands": [p]}, opcode, "typed", rng or random.Random(0))
        out.append(special)
    return ", ".join(out)


def _special(form: dict, p: dict, toks: list[str], frags: dict, regs: Regs) -> str | None:
    name = p["name"].lower()
    head = toks[0]
    kind = p["kind"]
    if frags and name in frags and kind == "reg":
        count, cls = frags[name]
        return regs.vec(count, cls)
    if head == "wgmma":
        if name == "scale-d":
            return regs.one("p")
        if name.startswith("imm-scale"):
            return "1"
        if name.startswith("imm-trans") or name == "sp-sel":
            return "0"
        if name == "sp-meta":
            return regs.one("r")
    if head == "mma" and kind == "reg":
        if name == "e":
            return regs.one("r")
        if name == "f":
            return "0"
        if name.startswith("scale-") and name.endswith("-data"):
            return regs.one("r")
    if kind == "vec" and name.startswith("{byte-id"):
        return "{0, 0}"
    if head in ("ldmatrix", "stmatrix") and name == "r":
        return regs.vec(_matrix_count(toks))
    if head == "tcgen05":
        tcgen05 = _tcgen05_operand(name, kind, toks, regs)
        if tcgen05 is not None:
            return tcgen05
    if head in ("tex", "tld4", "suld", "sust"):
        return _texture(p, toks, regs)
    if head == "call":
        return _call(form, p, name)
    if head == "brx" and name == "tlist":
        return "BT_all"
    if name == "[tensormap, tensorcoords]":
        dims = next((TENSOR_DIMS[t] for t in toks if t in TENSOR_DIMS), 1)
        return "[" + regs.one("rd") + ", " + regs.vec(dims, "r") + "]"
    return _misc(p, toks, regs)


def _tcgen05_operand(name: str, kind: str, toks: list[str], regs: Regs) -> str | None:
    """Tensor-memory addresses and vectors, matrix descriptors and flags of a tcgen05 instruction."""
    if kind == "mem":
        return "[" + regs.one("r") + "]"
    if name == "r":
        return regs.vec(_tcgen05_count(toks))
    if name in ("redval", "idesc"):
        return regs.one("r")
    if name in ("a-desc", "b-desc", "zero-column-mask-desc"):
        return regs.one("rd")
    if name == "enable-input-d":
        return regs.one("p")
    if name in ("scale-input-d", "immhalfsplitoff"):
        return "1"
    if name == "disable-output-lane":
        return regs.vec(8 if ".cta_group::2" in toks else 4, "r")
    return None


FIXED_SIZES = {"discard": "128", "applypriority": "128", "fence": "128", "tensormap": "128"}


def _misc(p: dict, toks: list[str], regs: Regs) -> str | None:
    """Single operands with a fixed value or register class (sizes, immediates, flags)."""
    name = p["name"].lower()
    head = toks[0]
    if name == "size" and head in FIXED_SIZES:
        return FIXED_SIZES[head]
    if head == "st" and toks[1:2] == [".bulk"]:
        return {"size": regs.one("rd"), "initval": "0"}.get(name)
    if head == "setmaxnreg" and name == "imm-reg-count":
        return "32"  # a multiple of 8 in [24, 256]
    if head == "pmevent" and name == "a":
        return "1"
    if head == "mbarrier":
        return {"waitcomplete": regs.one("p"), "phaseparity": regs.one("r")}.get(name)
    if head == "cvt" and ".e2m1x2" in toks and p["kind"] == "reg":
        # a pair of fp4 values packs into a .b8 register; the other side is 32 bits
        packed_dest = next(t for t in toks[1:] if t in ELEM_TYPES or t in (".e2m1x2", ".f16x2")) == ".e2m1x2"
        return regs.one("vb") if (name == "d") == packed_dest else regs.one("r")
    return None


def _texture(p: dict, toks: list[str], regs: Regs) -> str | None:
    name = p["name"].lower()
    kind = p["kind"]
    if kind == "mem":
        inner = [x for x in p.get("inner", []) if not x["optional"]]
        handles = [regs.one("rd") for _ in inner[:-1]]
        return "[" + ", ".join(handles + [regs.vec(_coords(toks), "v")]) + "]"
    if kind == "pred2" or (name in ("d", "c") and kind == "reg"):
        return _data_regs(toks, regs, _vec_len(toks))
    if name == "lod":
        return regs.one("v")
    if name in ("dpdx", "dpdy"):
        geom = next((t for t in toks if t in TEX_COORDS), ".2d")
        return regs.vec({".1d": 1, ".a1d": 1, ".2d": 2, ".a2d": 2}.get(geom, 4), "v")
    return None


CALL_SYMBOLS = {  # which declared function / list fits a call form's operands (ret-param, param-list)
    (True, True): ("fn_rp", "CT_rp", "CP_rp"), (False, True): ("fn_p", "CT_p", "CP_p"),
    (False, False): ("fn_0", "CT_0", "CP_0")}


def _call(form: dict, p: dict, name: str) -> str | None:
    names = [o["name"] for o in form["operands"]]
    fn, targets, proto = CALL_SYMBOLS[("(ret-param)" in names, "(param-list)" in names)]
    if name in ("(ret-param)",):
        return "(r1)"
    if name == "(param-list)":
        return "(r2)"
    if name == "func":
        return fn
    if name == "fptr":
        return "rd1"
    if name == "flist":
        return targets
    if name == "fproto":
        return proto
    return None
