"""Corrections to the generated catalog and rules beyond its forms, each measured with ptxas 13.0
on the instructions compilers emit (nvcc 13, llc-22; tests/data/ptx_corpus) and on small probes.

Catalog corrections (``correct_forms``, applied to a head's forms when the validator loads them):

* measurement artifacts (found with CCCL's cuda::ptx instruction templates, tools-free list in
  ``_drop_artifacts``): ``.multicast::cluster``, ``.cp_mask`` and ``.L2::cache_hint`` measured without the
  operand they come with, TMA ``.tile::gather4``/``.tile::scatter4`` and 64-bit/half types of
  ``cp.reduce.async.bulk`` with probe operands of the wrong shape, multimem's semantics/scope pairs and
  tcgen05.ld/st ``.pack::16b`` pairs that a third value caused;
* ``cp.reduce.async.bulk.tensor``'s ``{.level::cache_hint}`` is the set ``.L2::cache_hint`` (the grammar left
  it a literal);
* ``cvt.pack``'s ``.u8``/``.s8`` with ``.b32`` were measured as rejected pairs (ptxas 13 takes them
  wherever cvt.pack is available);
* pairwise measurements that a triple contradicts: ``mad.wide`` and ``mapa.u64`` were measured
  with registers too narrow for them and recorded as rejected; ``cvt.rzi.f64.f64`` (any integer
  rounding with the same floating-point type on both sides) is accepted although ``.rzi`` with
  ``.f64`` was rejected with integer source types;
* modifier orders ptxas accepts beyond the grammar's: ``wmma.mma`` layouts after the shape and the
  rounding after the types (``…m8n8k4.f64.f64.f64.f64.rn``, ``…m16n16k8.row.col…``),
  ``mbarrier.arrive_drop`` with the scope before the state space; ``mma``, ``mma.sp`` and
  ``wgmma.mma_async`` (not their ``.b1`` forms) in any order (nvcc's inline asm:
  ``…m64n8k32.s32.s8.u8.satfinite``, ``mma.sp…row.col.s32.s8.s8.s32.satfinite``, ``mma.sync.aligned.row.col.m16n8k16``);
* the destination selector of the three-operand video instructions is optional;
* ``.aligned`` is optional in tcgen05.ld/st and the wgmma instructions (``ALIGNED_OPTIONAL``);
* ``.L2::cache_hint`` needs sm_80 and PTX ISA 7.4 (ld, st, atom, red, ld.global.nc, cp.async);
* ``set.CmpOp.bf16.bf16`` (the grammar's source types lack ``.bf16``);
* ``getctarank`` and ``mapa`` take ``.s32``/``.s64`` as they take ``.u32``/``.u64`` (``SIGNED_TOO``);
* the register classes ptxas takes in each plain register operand, measured per form and opcode types
  (``measured/register_classes.json``; ``reg_classes``, checked by ``operand_types.class_error``), and in
  the optional trailing operands the examples lack (``tails``: cache-policy a 64-bit register, ctaMask and
  byteMask 16-bit, tcgen05.mma.ws's zero-column-mask-desc 64-bit; ``reg_classes["@tail"]``);
* ``mov.v2``/``mov.v4`` move a vector register (``mov.v4.u16 %v, {%h1, %h2, %h3, %h4}``);
* operands that take one immediate value only (``IMMEDIATE_VALUES``): ``st.bulk``'s initval is 0, the
  size of ``fence.proxy.tensormap::generic.acquire`` and ``tensormap.cp_fenceproxy`` is 128 (ptxas:
  "unexpected value", and a register is an argument mismatch, as for ``cp.async``'s cp-size).

Rules (``rule_error``, after a form has taken an instruction):

* ``.L2::cache_hint`` comes with its cache-policy operand, and that operand only with it (the
  catalog had recorded the modifier as rejected: it was measured without the operand); except
  that ptxas takes a fourth 32-bit operand without the hint in ``atom.{and,or,xor,exch}.b32``; the
  same for ``.multicast::cluster`` and its ctaMask, ``.cp_mask`` and its byteMask (``_modifier_operands``);
* a ``.vN`` load or store moves a vector of N registers, and a vector needs ``.vN``;
* ``mad.f32`` needs a rounding modifier on sm_20 and newer;
* ``mov`` packing or unpacking a vector ``{a, b}`` takes a ``.bN`` type only;
* ``cvt.rn.f64.f64`` (a floating-point rounding between equal types) is refused;
* scalar ``cvt``: rounding, ``.ftz`` and ``.sat`` by type pair, ``.bf16`` by target and PTX ISA version
  (``cvt_rules``, replacing the measured pairs of the general forms);
* a `%sreg_suffix` name (``%warpid_x``) is not a special register; the cluster, reserved shared memory and
  other newer special registers need their PTX ISA version and target (``SREG_NEEDS``);
* ``wgmma.mma_async`` with ``.s8`` and ``.u8`` mixed needs PTX ISA 8.4;
* ``mma.sp``'s sparsity selector: 0..3, 0..1 or 0 by shape and type (``_sparsity_max``);
* a ``multimem`` scope needs a memory order (``.relaxed.sys``; ``.sys`` alone: "requires order");
* ``shfl`` and ``vote`` without ``.sync`` are refused on sm_70 and newer from PTX ISA 6.4;
* TMA ``.tile::gather4`` into ``.shared::cluster`` (with or without ``.multicast::cluster``) is taken on
  the sm_100a family only (``GATHER4_CLUSTER_TARGETS``), not on sm_100 or sm_120/sm_120a.
"""

# (cvt_rules is imported where a cvt is checked: a module's import is ~0.5 M instructions of start-up)

VIDEO3 = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}
ORDER_FREE = {"wmma.mma", "mbarrier.arrive_drop"}
MMA_ORDER_FREE = {"mma", "mma.sp", "wgmma.mma_async"}  # all but the .b1 forms (`.popc.and` is refused)
# (instruction, operand) -> the only immediates ptxas takes there (measured with ptxas 13.0)
IMMEDIATE_VALUES = {("st.bulk", "initval"): ["0"], ("membar", "size"): ["128"], ("tensormap.cp_fenceproxy", "size"): ["128"]}
# `.sync.aligned` instructions ptxas 13 takes without `.aligned` (measured: every catalog example with it
# dropped; the others, mma/ldmatrix/wmma/tcgen05.alloc/wait/..., refuse that)
ALIGNED_OPTIONAL = {"tcgen05.ld", "tcgen05.st", "wgmma.mma_async", "wgmma.mma_async.sp", "wgmma.fence",
                    "wgmma.commit_group", "wgmma.wait_group"}
DROP_REJECTS = {"mad": {".mode=.wide"}, "mapa": {".type=.u64"}}
SIGNED_TOO = {"getctarank", "mapa"}  # ptxas 13 takes .s32/.s64 where the grammar lists .u32/.u64
BITWISE = {".and", ".or", ".xor", ".exch"}  # atom .b32 ops ptxas lets take a 4th operand without a hint


def correct_forms(forms: list) -> list:
    """The (name, form) list of one head, corrected in place (idempotent)."""
    extra = []
    for name, form in forms:
        if form.get("corrected"):
            continue
        if name == "mov" and form["syntax"] == "mov.type d, a;":
            extra.append((name, _vector_mov(form)))
        form["corrected"] = True
        _drop_artifacts(name, form)
        if name in ORDER_FREE or (name in MMA_ORDER_FREE and ".b1.b1" not in form["syntax"]):
            form["order_free"] = True
        if name == "set" and form["syntax"] in SET_BF16:
            _set_bf16(form)
        if name in SIGNED_TOO and ".type" in form["value_sets"]:  # (.s32/.s64 as .u32/.u64: measured)
            vals = form["value_sets"][".type"]
            form["value_sets"] = dict(form["value_sets"], **{".type": vals + [
                ".s" + v[2:] for v in vals if v[:2] == ".u" and ".s" + v[2:] not in vals]})
        classes = _measured_classes().get(name, {}).get(form["syntax"])
        tails = _TAILS.get(name, {}).get(form["syntax"])
        if tails:  # (optional trailing operands: [required operands, [[modifier values, classes]...]])
            classes = dict(classes or {}, **{"@tail": [sum(not o["optional"] for o in form["operands"]), tails]})
        if classes:
            form["reg_classes"] = classes
        for op in form["operands"]:
            if (name, op["name"]) in IMMEDIATE_VALUES:
                op["values"] = IMMEDIATE_VALUES[(name, op["name"])]
        if name in ALIGNED_OPTIONAL:
            form["opcode"] = [{"opt": [part]} if part == {"lit": ".aligned"} else part for part in form["opcode"]]
        if name in VIDEO3:
            for op in form["operands"][:1]:
                for suf in op.get("suffixes", []):
                    suf["optional"] = True
    forms += extra
    return forms


# a modifier measured as rejected because the probe lacked the operand it comes with
OPERAND_MODIFIERS = {"cache-policy": ".level::cache_hint=", "ctaMask": ".multicast=", "byteMask": ".cp_mask="}
VECTOR_OPTIONAL = {"im2colInfo"}  # optional operands that are vectors (before the modifier operands)
# values measured as rejected with probe operands of the wrong shape or type (ptxas 13 accepts them as
# CCCL's cuda::ptx wrappers write them, sm_100a, PTX ISA 8.8)
DROP_VALUES = {"multimem.ld_reduce": {".scope=.cluster", ".scope=.sys"},  # measured without a memory order
               "cp.async.bulk.tensor": {".load_mode=.tile::gather4", ".load_mode=.tile::scatter4"},
               "cp.reduce.async.bulk": {".type=.b64", ".type=.u64", ".type=.s64", ".type=.f64", ".type=.f16",
                                        ".type=.bf16"}}
# pairs measured as rejected when a third value (the operation, the register count) was the cause:
# pairs with these keys are not kept
FREE_KEYS = {"multimem.ld_reduce": (".ldsem=", ".redsem=", ".stsem=", ".scope="), "tcgen05.ld": (".pack=",),
             "tcgen05.st": (".unpack=",), "cvt.pack": (".convertType=",)}


# the targets ptxas takes values kept above on (measured): from sm_100; scatter4 on the sm_100a family only
SM100_UP = ["sm_100", "sm_100a", "sm_100f", "sm_103a", "sm_110a", "sm_120", "sm_120a"]
VALUE_TARGETS = {".load_mode=.tile::gather4": SM100_UP, ".cp_mask=.cp_mask": SM100_UP,
                 ".load_mode=.tile::scatter4": ["sm_100a", "sm_100f", "sm_103a", "sm_110a"]}


SM80_UP = ["sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"] + SM100_UP
HINT = ".level::cache_hint=.L2::cache_hint"


def _drop_artifacts(name: str, form: dict) -> None:
    hint_lit = {"opt": [{"lit": ".level::cache_hint"}]}
    if hint_lit in form["opcode"]:  # (cp.reduce.async.bulk.tensor: the grammar leaves the set undefined)
        form["opcode"] = [{"opt": [{"set": ".level::cache_hint"}]} if p == hint_lit else p for p in form["opcode"]]
        form["value_sets"] = dict(form["value_sets"], **{".level::cache_hint": [".L2::cache_hint"]})
    drop = DROP_REJECTS.get(name, set()) | DROP_VALUES.get(name, set())
    if ".L2::cache_hint" in form["value_sets"].get(".level::cache_hint", ()) and HINT not in (
            form.get("value_requirements") or {}):  # (measured without its operand: no requirement recorded)
        form["value_requirements"] = dict(form.get("value_requirements") or {}, **{HINT: {
            "targets": SM80_UP, "ptx_version": "7.4"}})
    for value in set(VALUE_TARGETS) & set(form.get("rejects") or ()):
        form.setdefault("value_requirements", {})[value] = {"targets": VALUE_TARGETS[value]}
    if form.get("rejects"):
        names = {o["name"] for o in form["operands"]}
        drop = drop | {r for r in form["rejects"] for op, key in OPERAND_MODIFIERS.items()
                       if op in names and r.startswith(key)}
        form["rejects"] = [r for r in form["rejects"] if r not in drop]
    reqs = form.get("value_requirements") or {}
    if name == "cvt" and ".dtype=.bf16" in reqs and ".atype=.bf16" in reqs:
        # .bf16 from .f32 is an sm_80 conversion; cvt_rules asks sm_90 of the other .bf16 ones
        reqs[".dtype=.bf16"] = reqs[".atype=.bf16"]
    free = FREE_KEYS.get(name)
    if free and form.get("rejected_pairs"):
        form["rejected_pairs"] = [pr for pr in form["rejected_pairs"] if not any(v.startswith(free) for v in pr)]


_CLASSES: dict = {}
_TAILS: dict = {}  # name -> syntax -> [[values of the modifier an optional trailing operand comes with, classes]]


def _measured_classes() -> dict:
    """The register classes ptxas takes per form (data/ptx/measured/register_classes.json, made by
    ``python -m gpuisa.data.ptx.measure_classes``); read once, when forms are corrected (the index is made)."""
    if not _CLASSES:
        import json
        import os

        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "ptx", "measured", "register_classes.json")
        try:
            with open(path) as fh:
                data = json.load(fh)
            _CLASSES.update(data["classes"])
            _TAILS.update(data.get("tails", {}))
        except OSError:
            _CLASSES["-"] = {}
    return _CLASSES


SET_BF16 = {"set.CmpOp.bf16.stype d, a, b;", "set.CmpOp.BoolOp.bf16.stype d, a, b, {!}c;"}


def _set_bf16(form: dict) -> None:
    """`set.CmpOp.bf16.bf16` (a .bf16 result of .bf16 sources): accepted by ptxas 13 from sm_90/PTX ISA 7.8,
    with the comparisons of the other floating-point source types (not .lo/.ls/.hi/.hs)."""
    if ".bf16" in form["value_sets"][".stype"]:
        return
    form["value_sets"] = dict(form["value_sets"], **{".stype": form["value_sets"][".stype"] + [".bf16"]})
    pairs = form.get("rejected_pairs") or []
    form["rejected_pairs"] = pairs + [[".stype=.bf16" if v == ".stype=.f32" else v for v in pr]
                                      for pr in pairs if ".stype=.f32" in pr]


def _vector_mov(form: dict) -> dict:
    """`mov.v4.u16 %v, {%h1, %h2, %h3, %h4}`: mov of a vector register, accepted by ptxas."""
    import copy

    vec = copy.deepcopy(form)
    vec["syntax"] = "mov.vec.type d, a;"
    vec["opcode"] = [vec["opcode"][0], {"set": ".vec"}] + vec["opcode"][1:]
    vec["value_sets"][".vec"] = [".v2", ".v4"]
    vec["modifiers"] = [".vec"] + vec.get("modifiers", [])
    vec["corrected"] = True
    vec.pop("examples", None)
    return vec


def exempt_pair(name: str, bind: dict) -> bool:
    """Whether a measured rejected pair does not apply to this whole combination."""
    if name != "cvt":
        return False
    from . import cvt_rules

    return cvt_rules.exempt(bind)


def _modifier_operands(name: str, ops: list, bind: dict, items: list) -> str | None:
    """Optional trailing operands that come with a modifier (cache-policy with `.L2::cache_hint`, ctaMask
    with `.multicast::cluster`, byteMask with `.cp_mask`): one for each such modifier present, none without
    (measured); other optional operands before them may be left out."""
    linked = [o["name"] for o in ops if o["optional"] and o["name"] in OPERAND_MODIFIERS]
    present = [o for o in linked if OPERAND_MODIFIERS[o][:-1] in bind]
    required = sum(1 for o in ops if not o["optional"])
    low = required + len(present)
    others = len(ops) - required - len(linked)  # optional operands before them, which may be left out
    if any(o["name"] in VECTOR_OPTIONAL for o in ops) and len(items) > low and items[required]["kind"] != "vec":
        others = 0  # (an im2colInfo is a vector: a plain register there is one operand too many)
    if len(items) < low:
        missing = present[max(0, len(items) - required)] if len(present) > 1 else present[0]
        return f"{name}: `{_modifier_value(bind, missing)}` needs the {missing} operand"
    quirk = name == "atom" and ".b32" in bind.values() and any(v in BITWISE for v in bind.values())
    absent = next((o for o in linked if o not in present), None)
    if absent and len(items) > low + others and not quirk:
        return f"{name}: a {absent} operand needs `{_modifier_value(bind, absent, True)}`"
    return None


def _modifier_value(bind: dict, operand: str, absent: bool = False) -> str:
    key = OPERAND_MODIFIERS[operand][:-1]
    return MODIFIER_TEXT.get(key, key) if absent else bind.get(key, key)


MODIFIER_TEXT = {".level::cache_hint": ".L2::cache_hint", ".multicast": ".multicast::cluster"}


def rule_error(name: str, form: dict, bind: dict, items: list, target: str | None, version: str | None) -> str | None:
    """An error ptxas reports beyond the form, or None."""
    ops = form["operands"]
    if ops and ops[-1]["optional"] and ops[-1]["name"] in OPERAND_MODIFIERS:
        err = _modifier_operands(name, ops, bind, items)
        if err:
            return err
    if name in VALUE_OPERAND:
        err = _vector_mismatch(name, bind, items)
        if err:
            return err
    if name == "cvt" and ".dtype" in form["value_sets"] and exempt_pair(name, bind):
        from . import cvt_rules

        return cvt_rules.error(bind, target, version, _sm, _vkey)
    if name == "cvt" and ".frnd" in bind and bind.get(".dtype") == bind.get(".atype"):
        return f"cvt: `{bind['.frnd']}` does not apply between equal types; use .rni/.rzi/.rmi/.rpi to round to an integer"
    if name == "mov" and ".vec" not in bind and not str(bind.get(".type", ".b")).startswith(".b") and any(
            it["kind"] == "vec" for it in items):
        return f"mov: packing or unpacking a vector {{…}} needs a .bN type, not {bind['.type']}"
    if name == "atom" and ".cas" in bind.values() and len(items) != 4:
        return "atom: `.cas` takes d, [a], b, c (compare and new value)"
    if name == "mad" and ".rnd" not in form["value_sets"] and form["syntax"].endswith(".f32 d, a, b, c;"):
        if target is None or _sm(target) >= 20:
            return "mad: a floating-point mad needs a rounding modifier (.rn, .rz, .rm, .rp) on sm_20 and newer"
    if name.startswith("wgmma.mma_async") and {bind.get(".atype"), bind.get(".btype")} == {".s8", ".u8"} and (
            version is not None and _vkey(version) < (8, 4)):
        return f"{name}: mixed integer types ({bind['.atype']}, {bind['.btype']}) need PTX ISA 8.4"
    if name == "multimem.ld_reduce" and ".scope" in bind and not ({".ldsem", ".stsem", ".redsem"} & set(bind)):
        return f"multimem: a scope (`{bind['.scope']}`) needs a memory order (.relaxed, .acquire, .release)"
    if name == "mma.sp":
        err = _sparsity_error(form, bind, items)
        if err:
            return err
    if name == "mma.sp" and target in ("sm_120f", "sm_121f") and any(str(v).startswith(".kind::mxf4") for v in bind.values()):
        return f"mma.sp: `.kind::mxf4`/`.kind::mxf4nvf4` need sm_120a or sm_121a, not {target}"
    if name in ("shfl", "vote") and (target is None or _sm(target) >= 70) and (
            version is None or _vkey(version) >= (6, 4)):
        return f"{name} without `.sync` is refused on sm_70 and newer from PTX ISA 6.4; use {name}.sync"
    if name == "cp.async.bulk.tensor" and bind.get(".load_mode") == ".tile::gather4" and (
            bind.get(".dst") == ".shared::cluster" and target is not None and _sm(target) >= 100
            and target not in GATHER4_CLUSTER_TARGETS):
        return ("cp.async.bulk.tensor: `.tile::gather4` into `.shared::cluster` needs sm_100a, sm_100f, sm_103a, "
                "sm_103f, sm_110a or sm_110f (into `.shared::cta`: sm_100 and newer)")
    return None


# gather4 into .shared::cluster (with or without .multicast::cluster): the sm_100a family only (measured with
# ptxas 13: refused on sm_100, sm_120, sm_120a, sm_120f, sm_121, sm_121a; .shared::cta accepted on all of them)
GATHER4_CLUSTER_TARGETS = {"sm_100a", "sm_100f", "sm_103a", "sm_103f", "sm_110a", "sm_110f"}


def _sparsity_max(form: dict, bind: dict) -> int:
    """The largest sparsity selector ptxas 13 takes in an mma.sp (measured on every form's example, sm_90 and
    sm_120a, selectors 0..3)."""
    syn = form["syntax"]
    shape = bind.get(".shape") or next((t for t in syn.split(".") if t.startswith("m16n8k")), "")
    k = shape.rsplit("k", 1)[-1]
    if k == "8":
        return 3
    if k == "16":
        return 1 if "tf32" in syn else 3
    if k == "32":
        return 3 if ".f16.f16" in syn and bind.get(".dtype") == ".f32" else 1
    if k == "64":
        return 1 if bind.get(".atype") in (".u4", ".s4") else 0
    return 0


def _sparsity_error(form: dict, bind: dict, items: list) -> str | None:
    if len(items) < 6 or not items[5].get("name", "")[:1].isdigit():
        return None
    try:
        value = int(items[5]["name"], 0)
    except ValueError:
        return None
    top = _sparsity_max(form, bind)
    if value > top:
        return f"mma.sp: sparsity selector {items[5]['name']} out of range 0..{top} for this shape and type"
    return None


VALUE_OPERAND = {"ld": 0, "ldu": 0, "ld.global.nc": 0, "st": 1}  # which operand holds the value


def _vector_mismatch(name: str, bind: dict, items: list) -> str | None:
    """A `.vN` load/store moves a vector of N registers `{…}`; without `.vN`, one register."""
    i = VALUE_OPERAND[name]
    if i >= len(items):
        return None
    n = next((int(v[2:]) for v in bind.values() if isinstance(v, str) and v in (".v2", ".v4", ".v8")), 0)
    item = items[i]
    if n and (item["kind"] != "vec" or item.get("count") != n):
        return f"{name}: `.v{n}` needs a vector of {n} registers; got `{item['text']}`"
    if not n and item["kind"] == "vec":
        return f"{name}: a vector operand `{item['text']}` needs .v2, .v4 or .v8"
    return None


SPECIAL = ("%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid", "%smid", "%nsmid", "%gridid",
           "%clock", "%clock64", "%globaltimer", "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt",
           "%lanemask_ge", "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank",
           "%cluster_nctarank", "%dynamic_smem_size", "%total_smem_size")


# special registers newer than the rest: (PTX ISA version, sm) they need (measured with ptxas 13.0, which
# names the version first)
SREG_NEEDS = {"%clusterid": ("7.8", 90), "%nclusterid": ("7.8", 90), "%cluster_ctaid": ("7.8", 90),
              "%cluster_nctaid": ("7.8", 90), "%cluster_ctarank": ("7.8", 90), "%cluster_nctarank": ("7.8", 90),
              "%is_explicit_cluster": ("7.8", 90), "%aggr_smem_size": ("8.1", 90), "%dynamic_smem_size": ("4.1", 0),
              "%total_smem_size": ("4.1", 0), "%current_graph_exec": ("8.0", 0), "%reserved_smem_offset_begin": ("7.6", 80),
              "%reserved_smem_offset_end": ("7.6", 80), "%reserved_smem_offset_cap": ("7.6", 80),
              "%reserved_smem_offset_0": ("7.6", 80), "%reserved_smem_offset_1": ("7.6", 80)}


def special_error(items: list, target: str | None = None, version: str | None = None) -> str | None:
    """An operand that misspells a special register as `%sreg_suffix`, or names one newer than the
    .version or .target."""
    for item in items:
        name = item.get("name") or ""
        sreg = _near_special(name)
        if sreg:
            return f"`{item['name']}` is not a special register (did you mean `{sreg}`?)"
        need = SREG_NEEDS.get(name.split(".", 1)[0])
        if need and version is not None and _vkey(version) < _vkey(need[0]):
            return f"`{name}` needs PTX ISA {need[0]} (.version is {version})"
        if need and target is not None and _sm(target) < need[1]:
            return f"`{name}` needs sm_{need[1]} or newer (.target is {target})"
    return None


def _near_special(name: str) -> str | None:
    """The special register a `%name` misspells as `%sreg_suffix` (%warpid_x), if any."""
    if name[:1] != "%" or "_" not in name:
        return None
    for s in SPECIAL:
        if name.startswith(s + "_") and name not in ("%clock_hi", "%globaltimer_lo", "%globaltimer_hi") \
                and not any(name == t or name.startswith(t + "_") for t in SPECIAL if len(t) > len(s)):
            return s
    return None


def _sm(target: str) -> int:
    digits = "".join(c for c in target.split("_", 1)[-1] if c.isdigit())
    return int(digits) if digits else 0


def _vkey(v: str) -> tuple:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (0,)
