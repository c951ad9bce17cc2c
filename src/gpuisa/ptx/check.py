"""Validate PTX instructions against the catalog: form, bad part with the allowed set, target and version.

Speed (``gpuisa ptx check --file`` runs in build scripts; benchmarks/bench_ptx_check.py): every step
is exact and cached at the level where kernels repeat themselves, so a verdict never depends on
what was checked before:

* statements and whole lines (per target/version) are checked once per file;
* an operand list is split and classified once per distinct text; the operand matcher only looks
  at each operand's *signature* (kind, prefix, selectors, element count, literal value), so
  "do these operands fit this form" is cached per (form, signatures);
* an opcode is matched once per form (``match.match_opcode``: indexed value sets, leading
  literals compared first), and the forms of a head that take an opcode are remembered, so an
  instruction usually costs a few dictionary look-ups;
* an accepted instruction's result is a function of (opcode, operand signatures, target, version)
  and is reused for other registers; rejected ones always take the full path, whose error names
  their own text, worked out only for the failure finally reported.

Compiling each form into one regular expression was measured and not taken: Python compiles
these patterns at about 0.4 ms per form (0.24 s for the 592 forms, and compiled patterns cannot be
cached across processes), more than the backtracking matcher spends on the opcodes of a typical file.
"""

from . import catalog
from .corrections import exempt_pair, rule_error, special_error
from .match import (
    classify,
    dot_tokens,
    match_opcode,
    match_operands,
    pattern_match,
    show_values,
    split_instruction,
    split_top,
)

TYPE_CHECKING = False  # (typing's import costs `ptx check --file` start-up)
if TYPE_CHECKING:
    from typing import Any


def _vkey(v: str) -> tuple:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (99,)


def _describe_failure(name: str, form: dict, fail, toks: list[str]) -> str:
    pos = fail.pos
    tok = toks[pos] if 0 <= pos < len(toks) else None
    required = [e for e, opt in fail.expected if not opt] or [e for e, _ in fail.expected]
    sets = [e for e, _ in fail.expected if "set" in e]
    pick = next((e for e in required if "set" in e), None) or (sets[0] if sets else required[0] if required else None)
    if pick is None or "end" in pick:
        if tok is not None:
            allowed = [("{%s}" if o else "%s") % (e.get("set") or e.get("lit")) for e, o in fail.expected
                       if "end" not in e]
            return (f"`{tok}` is not a valid modifier for {name} here"
                    + (f"; allowed: {', '.join(allowed)}" if allowed else "; nothing more may follow"))
        return f"incomplete {name} instruction"
    if "set" in pick:
        values = form["value_sets"].get(pick["set"], [])
        rx = form.get("value_patterns", {}).get(pick["set"])
        near = _nearest(tok, form, fail.expected) if tok is not None else None
        if near and near[0] not in values:
            return (f"`{tok}` is not valid in {name} here; closest: `{near[0]}` ({near[1]}); "
                    f"or {pick['set']}: {show_values(values, rx, 12)}")
        if tok is None:
            return f"missing {pick['set']} for {name}; allowed: {show_values(values, rx)}"
        return f"`{tok}` is not a valid {pick['set']} for {name}; allowed: {show_values(values, rx)}"
    want = pick["lit"]
    if tok is None:
        return f"missing `{want}` in {name}"
    return f"`{tok}` is not valid in {name} here; expected `{want}`"


def _nearest(tok: str, form: dict, expected) -> tuple[str, str] | None:
    """(value, set) of the expected value closest in spelling to a wrong token, if any is close."""
    import difflib

    pool: dict[str, str] = {}  # value -> its set (or "literal")
    for e, _ in expected:
        for v in form["value_sets"].get(e.get("set"), []) if "set" in e else [e.get("lit", "")]:
            pool.setdefault(v, e.get("set") or "literal")
    best = difflib.get_close_matches(tok, list(pool), n=1, cutoff=0.75)
    return (best[0], pool[best[0]]) if best else None


def _requirements(form: dict, bind: dict) -> tuple[str, list[str]]:
    reqs = form.get("value_requirements") or {}
    used = tuple(sorted(f"{k}={v}" for k, v in bind.items() if f"{k}={v}" in reqs))
    key = (id(form), used)
    hit = _REQ_CACHE.get(key)
    if hit is None:
        hit = _REQ_CACHE[key] = _compute_requirements(form, bind)
    return hit[0], list(hit[1])


_REQ_CACHE: dict = {}


def _compute_requirements(form: dict, bind: dict) -> tuple[str, list[str]]:
    version = form["ptx_version"]
    targets = set(catalog.expand_targets(form.get("targets", [])))
    for k, v in bind.items():
        req = form.get("value_requirements", {}).get(f"{k}={v}")
        if not req:
            continue
        if req.get("ptx_version") and _vkey(req["ptx_version"]) > _vkey(version or "0"):
            version = req["ptx_version"]
        if req.get("targets"):
            targets &= set(req["targets"])
    return version, sorted(targets, key=catalog.target_key)


# targets the catalog was not measured on, judged as a measured one: ptxas 13.0 gives the same verdict on
# every example of the catalog (tests/test_ptx_real.py); sm_120f/sm_121f: sm_120a's, less the mma.sp
# kinds corrections.rule_error refuses
SAME_AS = {"sm_103": "sm_100", "sm_110": "sm_100", "sm_121": "sm_120", "sm_121a": "sm_120a", "sm_88": "sm_87",
           "sm_120f": "sm_120a", "sm_121f": "sm_120a"}
# sm_103f, sm_110f: their sm_XXXa's targets, less what sm_100a takes beyond sm_100f (measured the same way)
FAMILY_F = {"sm_103f": "sm_103a", "sm_110f": "sm_110a"}


def _target_ok(target: str, allowed: list[str]) -> bool:
    if target in catalog.PROBE_TARGETS or not allowed:
        return target in allowed
    if target in SAME_AS:
        return SAME_AS[target] in allowed
    if target in FAMILY_F:
        return FAMILY_F[target] in allowed and ("sm_100f" in allowed or "sm_100a" not in allowed)
    # a target the catalog was not measured on: admit it when a measured target of the same kind is not newer
    num, suffix = catalog.target_key(target)
    return any(catalog.target_key(t)[0] <= num and not catalog.target_key(t)[1] for t in allowed) and not suffix


def check_instruction(text: str, target: str | None = None, version: str | None = None) -> dict:
    """{valid, name, form, error, min_target, ptx_version, targets}.

    Beyond the grammar's own order, two measured ptxas behaviours are followed (facts stored by the
    catalog generator): tokens ptxas ignores in any instruction are dropped, and in forms where ptxas
    accepts modifiers in any order (``order_free``) the modifiers are put back in the form's order.
    """
    guard, opcode, operand_text = split_instruction(text)
    operands = _OPERANDS.get(operand_text)
    if operands is None:
        classified = [_classified(x) for x in _operand_items(operand_text)] if operand_text else []
        operands = _OPERANDS[operand_text] = ([c[0] for c in classified], tuple(c[1] for c in classified))
    items = operands[0]
    # an accepted instruction's result depends on its opcode and its operands' signatures only
    shape = (opcode, operands[1], target, version)
    if "%" in operand_text and ("_" in operand_text or "cluster" in operand_text):  # (names are not in the shape)
        bad_name = special_error(items, target, version)
        if bad_name:
            return {"valid": False, "name": None, "form": None, "error": bad_name, "min_target": None,
                    "ptx_version": None}
    done = _ACCEPTED_SHAPES.get(shape)
    if done is not None:
        return dict(done)
    result: dict[str, Any] = {"valid": False, "name": None, "form": None, "error": None, "min_target": None,
                              "ptx_version": None}
    if not opcode:
        result["error"] = "empty instruction"
        return result
    toks = dot_tokens(opcode)
    head = catalog.head_forms(toks[0])  # (its forms unmarshalled as the opcode needs them)
    if not head:
        result["error"] = f"unknown PTX instruction `{toks[0]}`"
        return result
    hit = _first_taker(head, toks, items, shape[1])
    best = None
    if hit is None:
        candidates = catalog.forms_for_head(toks[0])
        hit, best = _try_forms(candidates, toks, items, shape[1])
    if hit is None:
        stripped = _strip_ignored(toks, candidates)
        if stripped != toks:
            hit, _ = _try_forms(candidates, stripped, items)
        if hit is None:
            hit = _try_reordered(candidates, stripped, items)
    if hit is not None:
        name, form, bind = hit
        rule = OPERAND_RULES.get(name)
        broken = rule(items) if rule else None
        if not broken:
            broken = rule_error(name, form, bind, items, target, version)
            if broken:
                result.update({"name": name, "form": form["syntax"], "error": broken})
                return result
        if broken:
            result.update({"name": name, "form": form["syntax"], "error": f"{name}: {broken}"})
            return result
        _accept(result, name, form, bind, target, version)
        result["_form"] = form  # for the front end's operand typing (not shown)
        _ACCEPTED_SHAPES[shape] = dict(result)
        return result
    assert best is not None  # no form took it: _try_forms reported the best failure
    _, name, form, err = best
    result.update({"name": name, "form": form["syntax"], "error": err})
    return result


def _vmad_negation(items: list[dict]) -> str | None:
    """ptxas negates the product (exactly one of a, b with `-`) or c, not both (measured with ptxas 13)."""
    neg = [it.get("prefix") == "-" for it in items[1:4]]
    if len(neg) == 3 and neg[0] != neg[1] and neg[2]:
        return "negate the product (one of a, b) or c, not both"
    return None


OPERAND_RULES = {"vmad": _vmad_negation}  # instruction -> rule over its operands beyond the grammar


def _operand_items(text: str) -> list[str]:
    """split_top(text), with plain str.split when nothing nests."""
    if "[" in text or "{" in text or "(" in text or "]" in text or "}" in text or ")" in text:
        return split_top(text)
    parts = [x.strip() for x in text.split(",")]
    if parts and not parts[-1]:
        parts.pop()
    return parts


def _classified(item: str) -> tuple[dict, tuple]:
    """(classify(item), its signature), shared between instructions (read only)."""
    hit = _CLASSIFIED.get(item)
    if hit is None:
        c = classify(item)
        hit = _CLASSIFIED[item] = (c, _signature(c))
    return hit


_CLASSIFIED: dict = {}
_OPERANDS: dict = {}  # operand text -> (classified operands, their signatures)


def _opcode_match(form: dict, toks: list[str], tkey: tuple, name: str) -> tuple:
    """(bind or None, failure, rejection or None) of an opcode in a form, cached."""
    key = (id(form), tkey, name)
    hit = _OPCODE_CACHE.get(key)
    if hit is None:
        bind, fail = match_opcode(form, toks)
        hit = _OPCODE_CACHE[key] = (bind, fail, None if bind is None else _rejected(form, bind, name))
    return hit


def _first_taker(candidates: catalog.HeadForms, toks: list[str], items: list[dict], sigs: tuple):
    """(name, form, bind) of the first of a head's forms that takes the instruction, or None: the
    first loop of _try_forms over only the forms whose opcode matches and is not rejected."""
    tkey = tuple(toks)
    takers = _TAKERS.get(tkey)
    if takers is None:
        present = set(toks)  # (a form whose literal tokens are not all here cannot match: not tried, nor loaded)
        takers = _TAKERS[tkey] = _Found((name, form, bind) for name, form in candidates.taking(present)
                                        for bind, _, rejected in [_opcode_match(form, toks, tkey, name)]
                                        if bind is not None and rejected is None)
    for name, form, bind in takers:
        okey = (id(form), sigs)
        fits = _OPERANDS_FIT.get(okey)
        if fits is None:
            fits = _OPERANDS_FIT[okey] = match_operands(form, items) is None
        if fits:
            return name, form, bind
    return None


_TAKERS: dict = {}  # opcode tokens -> (name, form, bind) of the forms of its head that take the opcode


class _Found:
    """The items of an iterator, kept as they are first read: iterating again reads the kept ones, then
    on from where the last reading stopped (a head's forms are matched against an opcode only until one
    takes the instruction; an instruction with other operands may read on)."""

    __slots__ = ("kept", "rest")

    def __init__(self, items):
        self.kept: list = []
        self.rest = items

    def __iter__(self):
        kept = self.kept
        yield from kept
        i = len(kept)
        while True:
            if i < len(kept):  # (read by another iteration meanwhile)
                yield kept[i]
            elif self.rest is None:
                return
            else:
                item = next(self.rest, None)
                if item is None:
                    self.rest = None
                    return
                kept.append(item)
                yield item
            i += 1


def _try_forms(candidates, toks: list[str], items: list[dict], sigs: tuple | None = None):
    """((name, form, bind) of the first form that takes the instruction, or None; the best failure).

    Whether a form's operands fit is cached by the operands' signatures (what the operand matcher
    looks at), and the error text is only worked out for the failure finally reported.
    """
    best = None  # (score, name, form, opcode match, whether the operands failed)
    tkey = tuple(toks)
    if sigs is None:
        sigs = tuple(_signature(it) for it in items)
    for name, form in candidates:
        fid = id(form)
        hit = _opcode_match(form, toks, tkey, name)
        bind, fail, rejected = hit
        score: tuple[int, int, int, int]  # (opcode matched, name fits, how far, literal prefix): larger is closer
        if bind is None:
            score = (0, _name_fits(name, tkey), fail.pos, _literal_prefix_len(form, toks))
        else:
            okey = (fid, sigs)
            fits = _OPERANDS_FIT.get(okey)
            if fits is None:
                fits = _OPERANDS_FIT[okey] = match_operands(form, items) is None
            if fits and rejected is None:
                return (name, form, bind), None
            score = (1, 1, 99 if rejected is None else 98, 0)
        if best is None or score > best[0]:
            best = (score, name, form, hit, None if bind is None or fits else True)
    if best is None:
        return None, None
    score, name, form, (bind, fail, _), bad_operands = best
    err: str | None
    if bind is None:
        err = _describe_failure(name, form, fail, toks)
    else:
        oerr = match_operands(form, items) if bad_operands else None
        err = f"{name}: {oerr}" if oerr else _rejected(form, bind, name)
    return None, (score, name, form, err)


def _name_fits(name: str, toks: tuple) -> bool:
    """Whether every token of the instruction's name is in the opcode: the closest form of `st.shhared`
    is one of st's, not of st.async's."""
    return all(t in toks for t in dot_tokens(name))


def _signature(item: dict) -> tuple:
    """What the operand matcher looks at in a classified operand (not its register names)."""
    name = item.get("name")
    return (item["kind"], bool(item["prefix"]), tuple(item["suffixes"]),
            item.get("count"), name if name is not None and name.lstrip("-")[:1].isdigit() else None)


_OPERANDS_FIT: dict = {}  # (form, operand signatures) -> whether the operands fit the form


def _literal_prefix_len(form: dict, toks: list[str]) -> int:
    lits = _LITERALS.get(id(form))
    if lits is None:
        lits = _LITERALS[id(form)] = _literal_tokens(form)
    return sum(1 for t, u in zip(lits, toks) if t == u)


_LITERALS: dict = {}


_OPCODE_CACHE: dict = {}  # (form, opcode tokens, name) -> (bind, failure, rejection): opcodes repeat
_ACCEPTED_SHAPES: dict = {}  # (opcode, operand signatures, target, version) -> result of an accepted instruction


def _strip_ignored(toks: list[str], candidates) -> list[str]:
    """toks without the tokens ptxas ignores, except those some candidate form takes as a value."""
    used = _tokens_of(tuple(id(f) for _, f in candidates), candidates)
    ignored = [s for s in catalog.ignored_tokens() if not (len(s) == 1 and s[0] in used)]
    if not ignored:
        return toks
    out, i = toks[:1], 1
    while i < len(toks):
        seq = next((s for s in ignored if tuple(toks[i:i + len(s)]) == s), None)
        if seq:
            i += len(seq)
        else:
            out.append(toks[i])
            i += 1
    return out


_USED: dict = {}


def _tokens_of(key: tuple, candidates) -> set:
    hit = _USED.get(key)
    if hit is None:
        hit = _USED[key] = {t for _, f in candidates for vals, _ in _slots(f) for t in vals}
    return hit


def _slots(form: dict) -> list[tuple[set, str | None]]:
    """The opcode elements in order, flattened: (literal tokens or set values, pattern)."""
    hit = _SLOTS.get(id(form))
    if hit is None:
        hit = _SLOTS[id(form)] = _compute_slots(form)
    return hit


_SLOTS: dict = {}


def _compute_slots(form: dict) -> list[tuple[set, str | None]]:
    out: list[tuple[set, str | None]] = []

    def walk(elems):
        for e in elems:
            if "lit" in e:
                out.append((set(dot_tokens(e["lit"])), None))
            elif "set" in e:
                vals = {v for v in form["value_sets"].get(e["set"], []) if v.startswith(".") and v.count(".") == 1}
                out.append((vals, form.get("value_patterns", {}).get(e["set"])))
            else:
                walk(e["opt"])
    walk(form["opcode"])
    return out


def _is_type(tok: str) -> bool:
    if tok in TYPE_WORDS:
        return True
    if len(tok) < 3 or tok[0] != ".":
        return False
    if tok[1] in "usbf":
        return tok[2:].isdecimal()
    return tok[1] == "e" and len(tok) in (5, 7) and tok[2].isdecimal() and tok[3] == "m" and tok[4].isdecimal() and (
        len(tok) == 5 or (tok[5] == "x" and tok[6].isdecimal()))


# a type token: r"^\.(?:pred|[usbf]\d+|bf16|bf16x2|f16x2|tf32|e\dm\d(?:x\d)?)$" (by str methods: start-up)
TYPE_WORDS = frozenset([".pred", ".bf16", ".bf16x2", ".f16x2", ".tf32"])


LAYOUTS = {".row", ".col"}


def _reorder(form: dict, toks: list[str]) -> list[str] | None:
    slots = _slots(form)
    lead = 0  # the tokens that already match the form's leading literal, in order
    for t, u in zip(_literal_tokens(form), toks):
        if t != u:
            break
        lead += 1
    keys = []
    places = _literal_places(form)
    for t in toks[lead:]:
        k = next((i for i, (vals, rx) in enumerate(slots) if t in vals or (rx and pattern_match(rx, t))), None)
        if k is None:
            return None
        keys.append((k, places.get(t, 0)))  # (tokens of one literal, `vote.sync.ballot.b32`: its order)
    order = sorted(range(len(keys)), key=lambda j: keys[j])
    rest = [toks[lead + j] for j in order]
    # types keep their relative order, and so do the layouts (`mma….col.row` is not `….row.col`)
    types = iter([t for t in toks[lead:] if _is_type(t) or t in LAYOUTS])
    rest = [next(types) if _is_type(t) or t in LAYOUTS else t for t in rest]
    return toks[:lead] + rest


def _literal_places(form: dict) -> dict:
    hit = _PLACES.get(id(form))
    if hit is None:
        hit = _PLACES[id(form)] = {t: i for i, t in enumerate(_literal_tokens(form))}
    return hit


_PLACES: dict = {}


def _try_reordered(candidates, toks: list[str], items: list[dict]):
    for name, form in candidates:
        if not form.get("order_free"):
            continue
        re_toks = _reorder(form, toks)
        if re_toks is None or re_toks == toks:
            continue
        hit, _ = _try_forms([(name, form)], re_toks, items)
        if hit is not None:
            return hit
    return None


def _literal_tokens(form: dict) -> list[str]:
    lits: list[str] = []
    for e in form["opcode"]:
        if "lit" not in e:
            break
        lits += dot_tokens(e["lit"])
    return lits


def _rejected(form: dict, bind: dict, name: str) -> str | None:
    keys = {f"{k}={v}" for k, v in bind.items()}
    for r in form.get("rejects", []):
        if r in keys:
            k, v = r.split("=", 1)
            return f"`{v}` ({k}) is not accepted in this form of {name} by ptxas"
    for key, needs in form.get("requires", {}).items():
        if key in keys and not any(n in bind for n in needs):
            return f"`{key.split('=', 1)[1]}` needs {' or '.join(needs)} as well in {name}"
    for together, needs in form.get("pair_requires", {}).items():
        values = together.split("|")
        if all(v in keys for v in values) and not any(n in bind for n in needs):
            shown = " with ".join(f"`{v.split('=', 1)[1]}`" for v in values)
            return f"{shown} needs {' or '.join(needs)} as well in {name} (measured with ptxas)"
    for a, b in form.get("rejected_pairs", []):
        if a in keys and b in keys and not exempt_pair(name, bind):
            return f"`{a.split('=', 1)[1]}` cannot be combined with `{b.split('=', 1)[1]}` in {name}"
    return None


def _accept(result: dict, name: str, form: dict, bind: dict, target: str | None, version: str | None) -> dict:
    reqs = form.get("value_requirements")
    used = tuple(sorted(f"{k}={v}" for k, v in bind.items() if f"{k}={v}" in reqs)) if reqs else ()
    wide = name in WIDE_ACCESS_NAMES and _wide_access(bind)
    space = _space_problem(bind) if wide else None
    key = (id(form), name, used, target, version, wide, space)
    hit = _ACCEPT_CACHE.get(key)
    if hit is None:
        hit = _ACCEPT_CACHE[key] = _verdict(name, form, bind, target, version, wide, space)
    result.update(hit)
    return result


# A value combination with its own target rule, measured with ptxas 13: a 256-bit vector load/store
# (.v4 of a 64-bit type, .v8 of a 32-bit type) needs sm_100 or newer and the .global (or generic) space.
WIDE_ACCESS_NAMES = {"ld", "st", "ld.global.nc"}
WIDE_ACCESS_MIN = (100, "")
NOT_GLOBAL = (".shared", ".local", ".const", ".param")


def _wide_access(bind: dict) -> bool:
    vec = bits = 0
    for v in bind.values():
        if not isinstance(v, str):
            continue
        if v[2:].isdecimal() and v[:1] == ".":  # .vN (r"^\.v(\d+)$"), .uN/.sN/.bN/.fN (r"^\.[usbf](\d+)$")
            if v[1] == "v":
                vec = int(v[2:])
            elif v[1] in "usbf":
                bits = int(v[2:])
    return vec * bits == 256


def _space_problem(bind: dict) -> str | None:
    space = next((v for v in bind.values() if isinstance(v, str) and v.startswith(NOT_GLOBAL)), None)
    return f"a 256-bit vector access needs the .global (or generic) state space, not {space}" if space else None


_ACCEPT_CACHE: dict = {}  # (form, requirement keys used, target, version) -> result fields


def _verdict(name: str, form: dict, bind: dict, target: str | None, version: str | None,
             wide: bool = False, space: str | None = None) -> dict:
    need_version, targets = _requirements(form, bind)
    if wide:
        if space:
            return {"valid": False, "name": name, "form": form["syntax"], "ptx_version": need_version or None,
                    "min_target": None, "error": f"{name}: {space}"}
        targets = [t for t in targets if catalog.target_key(t) >= WIDE_ACCESS_MIN]
        if _vkey(need_version or "0") < (8, 8):
            need_version = "8.8"  # (measured: a 256-bit load/store needs PTX ISA 8.8)
    out = {"valid": True, "name": name, "form": form["syntax"], "ptx_version": need_version or None,
           "min_target": targets[0] if targets else (form["min_target"] or None)}
    problems = []
    if version and need_version and _vkey(version) < _vkey(need_version):
        problems.append(f"needs PTX ISA .version {need_version} or later (got {version})")
    if target and form.get("verified") and not _target_ok(target, targets):
        shown = ", ".join(targets[:8]) + (" …" if len(targets) > 8 else "")
        problems.append(f"is not available on {target}; available on: {shown}")
    if problems:
        out["valid"] = False
        out["error"] = f"{name}{' with a 256-bit vector' if wide else ''} " + " and ".join(problems)
    return out
