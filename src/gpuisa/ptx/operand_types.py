"""Operand registers against the instruction's type, as ptxas checks them (measured with ptxas 13).

A register operand of an instruction typed ``.tN`` must be declared with a type of the same size
N; a ``.uN``/``.sN`` instruction refuses ``.fN`` registers and a ``.fN`` instruction ``.uN``/``.sN``
ones; ``.bN`` registers fit any ``.tN`` and ``.bN`` instructions any register of size N; ``.pred``
only fits ``.pred``.  Checked for the instructions whose register operands all take the
instruction's type (``cvt``: the destination the first type, the source the second; mixed-precision
``add``/``sub``/``fma.f32.f16``: d and c the first type, a and b the second; a shift
amount is ``.u32``; the
``.wide`` destination of ``mul``/``mad`` twice the size); registers the front end knows the
declared type of, and literals: floating-point ones (``0f…``, ``0d…``, ``1.5``) for ``.fN`` types,
integers for ``.uN``/``.sN`` (``.bN`` takes both) (``.bf16`` is 16 bits, ``.f16x2``/``.bf16x2`` 32, all floating point); 8-bit types
(``cvt`` sources and destinations in wider registers) are not checked.  Loaded and stored values
fit registers at least as wide as the type (``ld.param.f32`` into a ``.b64`` register is accepted).
``bar.red``'s c is a predicate and its barrier and thread count 32-bit values.
"""

TYPED = {"add", "sub", "min", "max", "and", "or", "xor", "not", "neg", "abs", "mul", "mad", "fma", "div", "rem",
         "mov", "copysign", "brev", "cnot", "sqrt", "rcp", "rsqrt", "sin", "cos", "lg2", "ex2", "setp", "selp", "cvt",
         "shl", "shr", "atom", "red", "cvta", "add.cc", "addc", "sub.cc", "subc",
         "mad.cc", "madc"}
PRED_ROLES = {"setp": {"p", "q", "c"}, "selp": {"c"}, "vote.sync": {"a"}}  # predicate operands (setp's BoolOp c)
FIXED = {("popc", "d"): ".u32", ("clz", "d"): ".u32", ("bfind", "d"): ".u32",  # operands of a fixed type
         ("shfl.sync", "membermask"): ".b32", ("vote.sync", "membermask"): ".b32"}
TYPED |= {"popc", "clz", "bfind", "shfl.sync", "shf", "redux.sync", "prmt", "vote.sync"}
FIXED[("redux.sync", "membermask")] = ".b32"
# bar.red: the barrier and thread count are 32-bit, c a predicate (a register: ptxas's argument mismatch)
TYPED.add("bar")
PRED_ROLES["bar"] = {"c"}
FIXED[("bar", "a")] = FIXED[("bar", "b")] = ".b32"
ALIASES = {"dst": "d", "src": "a"}  # redux.sync's operands: of the instruction's type
# type tokens (r"^\.(pred|[usbf](16|32|64)|bf16|f16x2|bf16x2)$"), and with 8-bit ones: sets, not patterns (start-up)
TYPE_TOKEN = frozenset([".pred", ".bf16", ".f16x2", ".bf16x2"] + [f".{k}{n}" for k in "usbf" for n in (16, 32, 64)])
VALUE_TYPE = TYPE_TOKEN | {".u8", ".s8", ".b8", ".f8"}
# register classes measured per form (data/ptx/measured/register_classes.json, attached to the forms as
# ``reg_classes`` by corrections.correct_forms): the opcode's type tokens are the key, a declared type is a class
CLASS_TYPES = frozenset(TYPE_TOKEN | {f".{k}{n}" for k in "usbf" for n in (8, 128)}
                        | {".tf32", ".e4m3", ".e5m2", ".e4m3x2", ".e5m2x2", ".wide"})  # (.wide: twice the size)
DECLARED_CLASS = {".pred": "p", ".b128": "q", ".f32": "f", ".f64": "fd"}
DECLARED_CLASS.update({f".{k}{n}": c for n, c in ((16, "h"), (32, "r"), (64, "rd")) for k in "bus"})
DECLARED_CLASS.update({".f16": "h", ".bf16": "h"})
LEGACY = frozenset(TYPED)  # the instructions typed by the rules below (the others: by their measured classes only)
# instructions with measured register classes (a test checks this against the measured file)
TYPED |= {"activemask", "alloca", "bar.warp.sync", "bfe", "bfi", "bmsk", "brx.idx", "call",
          "clusterlaunchcontrol.query_cancel", "cp.async.bulk", "cp.async.bulk.prefetch", "cp.reduce.async.bulk",
          "createpolicy", "cvt.pack", "dp2a", "dp4a", "elect.sync", "fns", "getctarank", "isspacep", "istypep", "ld",
          "ld.global.nc", "ldu", "lop3", "mad24", "mapa", "match.sync", "mbarrier.arrive", "mbarrier.arrive_drop",
          "mbarrier.complete_tx", "mbarrier.expect_tx", "mbarrier.init", "mbarrier.pending_count", "mbarrier.test_wait",
          "mma", "mma.sp", "movmatrix", "mul24", "multimem.ld_reduce", "nanosleep", "rcp.approx.ftz.f64", "red.async",
          "rsqrt.approx.ftz.f64", "sad", "set", "slct", "st", "st.async", "st.bulk", "stackrestore", "stacksave",
          "suld", "suq", "sured", "sust", "szext", "tanh", "tcgen05.alloc", "tcgen05.cp", "tcgen05.ld", "tcgen05.mma",
          "tcgen05.mma.sp", "tcgen05.mma.ws", "tcgen05.mma.ws.sp", "tensormap.replace", "testp", "txq", "vabsdiff",
          "vabsdiff2", "vabsdiff4", "vadd", "vadd2", "vadd4", "vavrg2", "vavrg4", "vmad", "vmax", "vmax2", "vmax4",
          "vmin", "vmin2", "vmin4", "vset", "vset2", "vset4", "vshl", "vshr", "vsub", "vsub2", "vsub4",
          "wgmma.mma_async", "wgmma.mma_async.sp"}
TYPED |= {"cp.async.bulk.prefetch.tensor", "cp.async.bulk.tensor", "cp.reduce.async.bulk.tensor", "tcgen05.commit", "wmma.load",
          "wmma.store"}  # (measured optional trailing operands: tails)
SIZES = {".bf16": 16, ".f16x2": 32, ".bf16x2": 32}
ROLES = {"d", "a", "b", "c"}
MIXED = {"add", "sub", "fma"}  # add/sub/fma.f32.{f16,bf16}: .f32 d and c, 16-bit a (and b)
DIGITS = "0123456789"


def _size(t: str) -> int:
    return 1 if t == ".pred" else SIZES.get(t) or int(t[2:])


def fits(t: str, size: int, reg: str) -> bool:
    """Whether a register declared ``reg`` (".b32") fits an operand of type ``t`` and size ``size``."""
    if t == ".pred" or reg == ".pred":
        return t == reg
    if _size(reg) != size:
        return False
    return t[1] == "b" or reg[1] == "b" or (t[1] == "f") == (reg[1] == "f")


def _literal_error(t: str, text: str, role: str, name: str, opcode: str) -> str | None:
    """A floating-point type takes floating-point literals (0f…, 0d…, 1.5), an integer type integers."""
    is_float = text[:2] in ("0f", "0F", "0d", "0D") or "." in text or ("e" in text.lower() and "x" not in text.lower())
    if t[1] == "f" and not is_float:
        return f"`{text}`: operand {role} of {name} `{opcode}` takes a floating-point literal (0f…, 0d…, 1.0)"
    if t[1] in "us" and is_float:
        return f"`{text}`: operand {role} of {name} `{opcode}` takes an integer literal"
    return None


def _expected(name: str, role: str, first: bool, types: list[str], wide: bool) -> tuple[str, int] | None:
    """(type, size in bits) an operand takes, or None when it is not checked here."""
    if role in PRED_ROLES.get(name, ()):
        return ".pred", 1
    fixed = FIXED.get((name, role))
    if fixed:
        return fixed, _size(fixed)
    role = ALIASES.get(role, role)
    if role not in ROLES and not (name == "cvta" and role == "p"):
        return None
    if name in ("shl", "shr") and role == "b":
        return ".u32", 32  # the shift amount
    if name in MIXED and len(types) == 2 and role in ("d", "c"):
        t = "." + types[0]  # mixed precision: d and c take the first type, a and b the second
    else:
        t = "." + (types[0] if name == "cvt" and first else types[-1])
    return t, _size(t) * (2 if wide and role in ("d", "c") and name in ("mul", "mad") else 1)


def operand_error(name: str, opcode: str, form: dict, ops: str, reg_type) -> str | None:
    """An error when a register operand does not fit the instruction's type, else None;
    ``reg_type(register name)`` gives a declared type (".b32") or None."""
    classes = form.get("reg_classes")
    if classes:
        err = class_error(name, opcode, classes, ops, reg_type)
        if err or name not in LEGACY:
            return err
    if name not in LEGACY or "{" in ops:
        return None
    if name == "cvt" and ("x2." in opcode + "." or "x4." in opcode + "."):
        return _packed_error(opcode, ops, reg_type)
    types = [t for t in opcode.split(".")[1:] if "." + t in TYPE_TOKEN]
    pats = form["operands"]
    texts = [x.strip() for x in ops.split(",")]
    n = len(texts)
    if name == "bar" and n == len(pats) - 1:
        pats = [p for p in pats if not p["optional"]]  # bar.red's thread count b left out: a, then c
    first_optional = next((i for i, p in enumerate(pats) if p["optional"]), len(pats))
    if not types or n > len(pats) or (name == "cvt" and len(types) != 2) or (name != "bar" and not all(
            p["optional"] for p in pats[first_optional:])):
        return None  # (optional operands only at the end: zip pairs the operands given in order)
    if name == "atom" and ".cas." in opcode + "." and n == 4:
        pats = pats[:3] + [{"name": "c", "kind": "reg"}]  # the generic form's 4th operand is cas's c
    wide = ".wide." in opcode + "."
    for i, (pat, text) in enumerate(zip(pats, texts)):
        want = _expected(name, pat["name"], i == 0, types, wide) if pat["kind"] in ("reg", "pred2") else None
        if want is None:
            continue
        t, size = want
        reg = text.lstrip("-!").split("|", 1)[0]
        if reg[:1].isdigit():
            err = _literal_error(t, reg, pat["name"], name, opcode) if t != ".pred" else None
            if err:
                return err
            continue
        if reg[:1] != "%" or "." in reg:
            continue
        declared = reg_type(reg)
        if not declared:
            continue
        # cvt reads and writes values in registers at least as wide (measured: cvt.u64.u32 %rd, %rd;
        # cvt.rn.f32.s32 %rd, %r)
        if not (_fits_value(t, declared) if name == "cvt" else fits(t, size, declared)):
            kind = {"u": "integer", "s": "integer", "b": "bit", "f": "float", "p": "predicate"}[t[1]]
            return f"`{reg}` is a {declared} register; operand {pat['name']} of {name} `{opcode}` needs a {size}-bit {kind} register"
    return None


CLASS_WORDS = {"r": ".b32/.u32/.s32", "rd": ".b64/.u64/.s64", "h": ".b16/.u16/.s16/.f16/.bf16", "f": ".f32",
               "fd": ".f64", "p": ".pred", "q": ".b128"}


def class_error(name: str, opcode: str, classes: dict, ops: str, reg_type) -> str | None:
    """A plain register operand whose declared class ptxas refuses at that place (measured per form and
    opcode types: ``reg_classes``)."""
    if "@tail" in classes:
        err = _tail_error(name, opcode, classes["@tail"], ops, reg_type)
        if err:
            return err
    key = "".join("." + t for t in opcode.split(".")[1:] if "." + t in CLASS_TYPES)
    by_index = classes.get(key)
    if by_index is None and (".u" in key or ".s" in key):  # measured with the other signedness (sad.u32 for
        # sad.s32: the classes are the same, measured) or with .bN only: its classes (as lenient)
        by_index = (classes.get(key.replace(".s", ".u")) or classes.get(key.replace(".u", ".s"))
                    or classes.get(key.replace(".u", ".b").replace(".s", ".b")))
    if not by_index:
        return None
    texts = split_operands(ops) if "{" in ops or "[" in ops else [x.strip() for x in ops.split(",")]
    for key, allowed in by_index.items():
        i = int(key)
        reg = texts[i].lstrip("!") if i < len(texts) else ""
        if reg[:1] != "%" or "." in reg or "|" in reg:
            continue
        declared = reg_type(reg)
        cls = DECLARED_CLASS.get(declared or "")
        if cls and cls not in allowed:
            want = " or ".join(CLASS_WORDS[c] for c in allowed)
            return f"`{reg}` is a {declared} register; operand {i + 1} of {name} `{opcode}` takes a {want} register"
    return None


def _tail_error(name: str, opcode: str, tail: list, ops: str, reg_type) -> str | None:
    """A register of a class ptxas refuses in an optional trailing operand (``tail``: the number of
    required operands, then [values of the modifier the operand comes with ([]: none), classes] in order;
    those present are the last operands given)."""
    need, rows = tail
    toks = opcode.split(".")
    rows = [r for r in rows if not r[0] or any(v[1:] in toks for v in r[0])]
    if not rows:
        return None
    texts = split_operands(ops) if "{" in ops or "[" in ops else [x.strip() for x in ops.split(",")]
    if len(texts) - need < len(rows) or (len(texts) - need > len(rows) and not all(r[0] for r in rows)):
        return None  # (too many or too few: corrections.rule_error)
    for i, (_, allowed) in enumerate(rows, start=len(texts) - len(rows)):
        reg = texts[i].lstrip("!")
        if reg[:1] != "%" or "." in reg or "|" in reg:
            continue
        declared = reg_type(reg)
        cls = DECLARED_CLASS.get(declared or "")
        if cls == "h" and declared in (".f16", ".bf16") and "f" not in allowed:
            cls = "f"  # (an integer operand: a 16-bit floating-point register is refused too, measured)
        if cls and cls not in allowed:
            want = " or ".join(CLASS_WORDS[c] for c in allowed).replace("/.f16/.bf16", "")
            return f"`{reg}` is a {declared} register; operand {i + 1} of {name} `{opcode}` takes a {want} register"
    return None


def split_operands(text: str) -> list[str]:
    """The top-level operands of an instruction's operand text (commas inside [] and {} kept)."""
    out, depth, start = [], 0, 0
    for k, c in enumerate(text):
        if c in "[{(":
            depth += 1
        elif c in "]})":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:k].strip())
            start = k + 1
    out.append(text[start:].strip())
    return out


MEMORY = {"ld", "st", "ldu", "ld.global.nc", "atom", "red", "prefetch"}
# the tensor memory addresses of the tcgen05 mma instructions take a .b32 register, not .u32/.s32; those of
# tcgen05.ld/st a 32-bit register (.f32 too); wmma.load/store and tcgen05.alloc refuse a 16-bit address
# (a warning elsewhere) (measured)
TMEM_B32 = frozenset(("tcgen05.mma", "tcgen05.mma.sp", "tcgen05.mma.ws", "tcgen05.mma.ws.sp"))
TMEM_32 = frozenset(("tcgen05.ld", "tcgen05.st"))
NO_16BIT_ADDRESS = frozenset(("wmma.load", "wmma.store", "tcgen05.alloc"))
ADDRESS64 = frozenset(MEMORY)  # a generic or .global address of these in a 32-bit register is fatal (measured)
NOT_GENERIC = {".shared", ".local", ".const", ".param"}  # (.shared::cta, .param::entry: their first part)
# every other instruction with a memory operand [a] (the catalog's, less the texture and surface ones whose
# brackets hold a handle and coordinates): its address registers are checked the same way
MEMORY |= {"applypriority", "clusterlaunchcontrol.try_cancel", "cp.async", "cp.async.bulk", "cp.async.bulk.prefetch",
           "cp.async.bulk.prefetch.tensor", "cp.async.bulk.tensor", "cp.async.mbarrier.arrive", "cp.reduce.async.bulk",
           "cp.reduce.async.bulk.tensor", "createpolicy", "discard", "ldmatrix", "mbarrier.arrive",
           "mbarrier.arrive_drop", "mbarrier.complete_tx", "mbarrier.expect_tx", "mbarrier.init", "mbarrier.inval",
           "mbarrier.test_wait", "membar", "multimem.ld_reduce", "red.async", "st.async", "st.bulk", "stmatrix",
           "tcgen05.alloc", "tcgen05.commit", "tcgen05.cp", "tcgen05.ld", "tcgen05.mma", "tcgen05.mma.sp",
           "tcgen05.mma.ws", "tcgen05.mma.ws.sp", "tcgen05.shift", "tcgen05.st", "tensormap.cp_fenceproxy",
           "tensormap.replace", "wmma.load", "wmma.store"}


# registers of the packed small-float conversions: exactly this many bits (measured with ptxas 13:
# cvt.rn.satfinite.e2m1x2.f32 takes a .b8 destination, not .b16; cvt.rn.f16x2.e4m3x2 a .b16 source)
PACKED = {".e2m1x2": 8, ".e4m3x2": 16, ".e5m2x2": 16, ".e2m3x2": 16, ".e3m2x2": 16, ".ue8m0x2": 16,
          ".f16x2": 32, ".bf16x2": 32, ".f32": 32, ".e2m1x4": 16}


def _packed_error(opcode: str, ops: str, reg_type) -> str | None:
    """cvt between packed types: the destination's register has the first type's size, the
    sources the second's."""
    types = [t for t in ("." + x for x in opcode.split(".")[1:]) if t in PACKED]
    if len(types) != 2 or not any(t[1] in "eu" for t in types):
        return None
    for i, text in enumerate(x.strip() for x in ops.split(",")):
        t = types[0] if i == 0 else types[1]
        declared = reg_type(text) if text[:1] == "%" and "." not in text else None
        if i < 3 and declared and (declared == ".pred" or _size(declared) != PACKED[t]):
            return f"`{text}` is a {declared} register; cvt `{opcode}` needs a {PACKED[t]}-bit register for {t}"
    return None


def _fits_value(t: str, reg: str) -> bool:
    """A loaded or stored value: integer and bit types fit wider registers too."""
    if t == ".pred" or reg == ".pred":
        return t == reg
    if reg[1] != "b" and t[1] != "b" and (t[1] == "f") != (reg[1] == "f"):
        return False
    return _size(reg) >= _size(t)


def memory_error(name: str, opcode: str, ops: str, reg_type) -> str | None:
    """An address in a floating-point, predicate or .b128 register (in any of the instruction's
    brackets), a generic or .global address of ld/st/atom/red/prefetch in a 32-bit register (ptxas 13:
    "32-bit compilation is no longer supported", a fatal error without a line; a 16-bit one is only a
    warning: measured), or a load/store value register that does not fit the type."""
    if name not in MEMORY or "[" not in ops:
        return None
    for piece in ops.split("[")[1:]:
        if "{" in piece.split("]", 1)[0]:
            continue  # a tensor map with coordinates: ptxas takes a register of any type there (measured)
        inner = piece.split("]", 1)[0].split("+", 1)[0].strip()
        t = reg_type(inner) if inner[:1] == "%" else None
        if t and (t == ".pred" or t[1] == "f" or t == ".b128") and not (t == ".f32" and name in TMEM_32):
            return f"`{inner}` is a {t} register: an address is an integer (.b, .u or .s) register of 64 bits or less"
        if t and t != ".b32" and name in TMEM_B32:
            return f"`{inner}` is a {t} register: a tensor memory address of {name} takes a .b32 register only"
        if t and t[-2:] != "32" and name in TMEM_32:
            return f"`{inner}` is a {t} register: a tensor memory address of {name} takes a 32-bit register"
        if t and t[2:] == "16" and name in NO_16BIT_ADDRESS:
            return f"`{inner}` is a {t} register: an address of {name} takes 32 or 64 bits"
        if t in (".b32", ".u32", ".s32") and name in ADDRESS64 and not any(
                "." + x.split("::", 1)[0] in NOT_GENERIC for x in opcode.split(".")[1:]):
            return (f"`{inner}` is a {t} register: a generic or .global address needs 64 bits (ptxas 13 compiles "
                    "64-bit addressing only)")
    if name in ("ld", "st", "ldu", "ld.global.nc"):
        types = [x for x in opcode.split(".")[1:] if "." + x in VALUE_TYPE]
        value = ops.split("]", 1)[1].lstrip(" ,") if name == "st" else ops.split("[", 1)[0].rstrip(" ,")
        value = value.strip()
        if not types or not value:
            return None
        t = "." + types[-1]
        if value[:1] == "{":  # a vector: the type ptxas makes of its elements (vector_type) is checked
            vec = vector_type([x.strip() for x in value.strip("{}").split(",")], reg_type)
            if vec and not vector_fits(t, vec):
                return f"`{value}` moves a {vec} vector; {name} `{opcode}` moves {t} values"
            return None
        reg, declared = value, reg_type(value) if value[:1] == "%" and "." not in value else None
        if declared and not _fits_value(t, declared):
            return f"`{reg}` is a {declared} register; {name} `{opcode}` moves a {t} value"
    return None


def _goes_with(a: str, b: str) -> bool:
    """Whether vector elements typed ``a`` and ``b`` may stand next to each other (ptxas 13, measured on
    ld/st/mov/tex, ldu/ld.global.nc/st.async/red/atom/tld4/suld/sust vectors: otherwise "Vector with
    elements of different types"): equal types, one size with a ``.bN`` among them, ``.uN`` with ``.sN``,
    and a ``.pred`` next to a ``.b32`` only
    (``{%f1, %r1, %p1}`` with ``.f32``/``.b32`` registers is taken, ``{%f1, %p1, %r1}`` is not)."""
    if a == b:
        return True
    if ".pred" in (a, b):
        return {a, b} == {".pred", ".b32"}
    return _size(a) == _size(b) and (a[1] == "b" or b[1] == "b" or (a[1] in "us" and b[1] in "us"))


def vector_type(regs: list[str], reg_type) -> str | None:
    """The type a vector of registers moves as (predicates aside): ``.bN`` with a ``.bN`` among them, else
    ``.fN`` when all are floating point, else ``.uN``; ``.pred`` when all are predicates; None when a
    register's type is not known (the elements' fit: vector_error)."""
    known = [reg_type(r) if r[:1] == "%" and "." not in r else None for r in regs]
    types: list[str] = [t for t in known if t]
    if len(types) != len(regs):
        return None
    values = [t for t in types if t != ".pred"] or [".pred"]
    bits = [t for t in values if t[1] == "b"]
    if bits or values[0] == ".pred":
        return (bits or values)[0]
    return values[0] if all(t[1] == "f" for t in values) else ".u" + values[0][2:]


def vector_fits(t: str, vec: str) -> bool:
    """Whether a vector moving ``vec`` fits a load or store of type ``t`` (measured): a ``.bN`` type or vector
    takes wider elements, a floating-point one only its own size; integers fit a floating-point type of
    their size, floating point fits no integer type."""
    if vec == ".pred" or t == ".pred":
        return vec == t
    if t[1] == "b" or vec[1] == "b":
        return _size(vec) >= _size(t)
    if t[1] == "f" or vec[1] == "f":
        return _size(vec) == _size(t) and not (vec[1] == "f" and t[1] in "us")
    return _size(vec) >= _size(t)


# where the element types were measured (_goes_with): ld/st/mov/tex, then ldu, red, atom, tld4, suld, sust
STRICT_VECTORS = {"ld", "st", "mov", "tex", "ldu", "red", "atom", "tld4", "suld", "sust"}
# instructions whose vectors move values of the opcode's type (vector_fits, measured): the data vectors of
# red/atom/suld/sust/st.async (the last type), the result and coordinates of tex/tld4 (first and second type)
VALUE_VECTORS = {"red", "atom", "suld", "sust", "st", "tex", "tld4"}


def _value_vector_error(name: str, opcode: str, ops: str, reg_type) -> str | None:
    """A vector whose registers (vector_type) do not fit the type the instruction moves there."""
    types = [x for x in opcode.split(".")[1:] if "." + x in VALUE_TYPE]
    if not types or (name == "st" and not opcode.startswith("st.async")):
        return None
    depth, start, groups = 0, 0, []  # (each {…}: its text, whether it is inside [ ])
    for k, c in enumerate(ops):
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif c == "{":
            start = k + 1
        elif c == "}":
            groups.append((ops[start:k], depth > 0))
    for inner, bracketed in groups:
        if name in ("tex", "tld4"):
            t = "." + (types[1] if bracketed and len(types) > 1 else types[0])
        elif bracketed:
            continue  # (a surface's coordinates)
        else:
            t = "." + types[-1]
        regs = [x.strip() for x in inner.split(",")]
        vec = vector_type(regs, reg_type)
        if not vec or t not in VALUE_TYPE:
            continue
        if vec[1] == "u" and {reg_type(r)[1] for r in regs} == {"u", "s"}:
            vec = ".b" + vec[2:]  # (.uN and .sN elements together move bits: taken for packed halves, measured)
        exact = name in ("red", "atom", "st") or bracketed  # (no wider elements; packed halves in .bN registers)
        if not vector_fits(t, vec) or (exact and (_size(vec) != _size(t) or (t in SIZES and vec[1] != "b"))):
            return f"`{{{inner.strip()}}}` moves a {vec} vector; {name} `{opcode}` moves {t} values there"
    return None


def vector_error(ops: str, reg_type, opcode: str = "") -> str | None:
    """A `d|p` whose p is not a predicate (pair_error); the registers of a vector operand `{a, b, …}` must
    go together, each with the next (``_goes_with``; elsewhere than STRICT_VECTORS: one size, predicates only
    with predicates); a ``mov`` that packs or unpacks a ``.bN`` value takes elements of N bits in all; the
    vectors of VALUE_VECTORS fit the type the instruction moves there (``_value_vector_error``)."""
    name = opcode.split(".", 1)[0]
    if "|" in ops:
        err = pair_error(ops, reg_type)
        if err:
            return err
    for group in ops.split("{")[1:]:
        inner = group.split("}", 1)[0]
        regs = [x.strip() for x in inner.split(",")]
        known = [reg_type(r) if r[:1] == "%" and "." not in r else None for r in regs]
        types: list[str] = [t for t in known if t]
        if len(types) != len(regs):
            continue
        for a, b in zip(types, types[1:]):
            if not (_goes_with(a, b) if name in STRICT_VECTORS else _lenient(a, b)):
                listed = ", ".join(dict.fromkeys(types))
                return f"the registers of `{{{inner.strip()}}}` are of types that do not go together ({listed})"
        if name == "mov" and ".v" not in opcode:
            t = "." + opcode.rsplit(".", 1)[-1]
            vec = vector_type(regs, reg_type)
            if t in TYPE_TOKEN and t != ".pred" and vec and (vec == ".pred" or _size(vec) * len(regs) != _size(t)):
                return f"the registers of `{{{inner.strip()}}}` do not make a {t} value ({len(regs)} x {vec})"
    if name in VALUE_VECTORS:
        return _value_vector_error(name, opcode, ops, reg_type)
    return None


def pair_error(ops: str, reg_type) -> str | None:
    """The register after `|` in `d|p` is a predicate (measured with ptxas 13 on shfl.sync, setp, tex, tld4
    and elect.sync: a register of any other type is refused)."""
    for op in ops.split(","):
        if "|" in op:
            reg = op.split("|", 1)[1].strip().rstrip(";").strip()
            t = reg_type(reg) if reg[:1] == "%" and "." not in reg else None
            if t and t != ".pred":
                return f"`{reg}` is a {t} register; the register after `|` is a predicate"
    return None


def _lenient(a: str, b: str) -> bool:
    """Outside ld/st/mov/tex (not measured there): elements of one size go together whatever their kind."""
    return a == b or (".pred" not in (a, b) and _size(a) == _size(b))
