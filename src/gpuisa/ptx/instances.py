"""Concrete instances of catalog forms: valid combinations over the value sets and deliberately invalid ones.

Operands are filled by an *operand strategy* (how registers are chosen for a
form's operands); the generator records per form the first strategy ptxas
accepts, so instances built later use registers ptxas agrees with.
"""

from __future__ import annotations

import itertools
import random
import re

from .match import dot_tokens

TYPE_RE = re.compile(r"^\.(?:u|s|b|f|bf|tf|e\dm\d|ue\dm\d)(\d+)(?:x(\d+))?$")
PRED_NAMES = {"p", "q", "pred", "pa", "pb", "pd", "pq"}
LABEL_NAMES = {"tgt", "label", "l", "tgt-label"}
STRATEGIES = ("typed", "imm", "b32", "b64", "typed32", "lastpred", "b16", "named", "packed", "sized", "shaped")
# named: each operand X gets the width of the value bound to the form's `.Xtype` set (or a set like
# `.abtype` naming it), others the opcode's first type: mixed-precision forms (add.f32.f16 d, a, c);
# packed: like typed, with packed narrow floats as wide as their pack (.e4m3x2 16 bits, .e2m1x4 16);
# sized: like typed, but `d|p` is a typed register and a predicate, an operand named p is a typed
# register (cvta), and a wait's completion flag is a predicate (mbarrier.test_wait waitComplete);
# shaped: vectors sized by the opcode's shape and types (matrix fragments, texture coordinates),
# declared symbols for calls and branch lists (see instances_shaped)


def _choice_points(elems: list[dict], form: dict) -> list:
    """A flat list of (kind, payload) describing each independent choice of an opcode."""
    pts = []
    for e in elems:
        if "set" in e:
            pts.append(("set", e["set"]))
        elif "opt" in e:
            pts.append(("opt", e))
            pts += [p for p in _choice_points(e["opt"], form)]
    return pts


def _render(elems: list[dict], form: dict, pick, bind: dict) -> list[str]:
    toks: list[str] = []
    for e in elems:
        if "lit" in e:
            toks.append(e["lit"])
        elif "set" in e:
            v = pick(("set", e["set"]), form["value_sets"][e["set"]] or ["?"])
            bind[e["set"]] = v
            toks.append(v)
        else:
            if pick(("opt", e), [False, True]):
                for t in _render(e["opt"], form, pick, bind):
                    toks.append(t)
                for x in e["opt"]:
                    if "lit" in x:
                        bind[x["lit"]] = x["lit"]
    return toks


def render_bind(form: dict, want: dict) -> tuple[str, dict]:
    """The opcode that takes the values of ``want`` (slot -> value) and the first value elsewhere."""
    def has(group: dict) -> bool:
        return any(x.get("set") in want or x.get("lit") in want or ("opt" in x and has(x)) for x in group["opt"])

    def pick(key, options):
        if key[0] == "set":
            return want.get(key[1], options[0])
        return has(key[1])
    bind: dict = {}
    return "".join(_render(form["opcode"], form, pick, bind)), bind


def opcode_combos(form: dict, cap: int, seed: int = 0) -> list[tuple[str, dict]]:
    """Up to ``cap`` distinct (opcode text, bindings): every combination when few, else a covering sample."""
    rng = random.Random(seed)
    sets = [form["value_sets"][n] or ["?"] for k, n in _choice_points(form["opcode"], form) if k == "set"]
    opts = sum(1 for k, _ in _choice_points(form["opcode"], form) if k == "opt")
    size = 2 ** opts
    for s in sets:
        size *= len(s)
    out: dict[str, dict] = {}
    if size <= cap:
        keys = _all_renderings(form)
        return keys[:cap]

    def holds(group: dict, name: str) -> bool:
        return any(x.get("set") == name or ("opt" in x and holds(x, name)) for x in group["opt"])

    def sample(fixed: tuple | None, minimal: bool = False):
        def pick(key, options):
            if fixed and key[0] == "set" and key[1] == fixed[0]:
                return fixed[1]
            if fixed and key[0] == "opt" and (key[1] is fixed[0] or holds(key[1], fixed[0])):
                return True
            return options[0] if minimal else rng.choice(options)
        bind: dict = {}
        text = "".join(_render(form["opcode"], form, pick, bind))
        return text, bind

    # each value (and each optional group) once with everything else minimal, isolating what it needs
    out.setdefault(*sample(None, True))
    for k, e in _choice_points(form["opcode"], form):
        if k == "opt":
            out.setdefault(*sample((e, True), True))
    for name, values in form["value_sets"].items():
        if name not in {n for k, n in _choice_points(form["opcode"], form) if k == "set"}:
            continue
        for v in values:
            out.setdefault(*sample((name, v), True))
    keys = list(out)
    for name, values in form["value_sets"].items():
        for v in values:
            t, b = sample((name, v))
            out.setdefault(t, b)
    tries = 0
    while len(out) < cap and tries < cap * 4:
        t, b = sample(None)
        out.setdefault(t, b)
        tries += 1
    items = list(out.items())
    return items[:max(cap, len(keys))]


def _all_renderings(form: dict) -> list[tuple[str, dict]]:
    def rec(elems, i):
        if i == len(elems):
            yield [], {}
            return
        e = elems[i]
        for rest, rb in rec(elems, i + 1):
            if "lit" in e:
                yield [e["lit"]] + rest, rb
            elif "set" in e:
                for v in form["value_sets"][e["set"]] or ["?"]:
                    yield [v] + rest, {**rb, e["set"]: v}
            else:
                yield rest, rb
                for inner, ib in rec(e["opt"], 0):
                    lits = {x["lit"]: x["lit"] for x in e["opt"] if "lit" in x}
                    yield inner + rest, {**rb, **ib, **lits}
    seen: dict[str, dict] = {}
    for toks, b in rec(form["opcode"], 0):
        seen.setdefault("".join(toks), b)
    return list(seen.items())


# ------------------------------------------------------------------ operands

def _width(tok: str) -> int | None:
    m = TYPE_RE.match(tok)
    if not m:
        return 1 if tok == ".pred" else None
    bits = int(m.group(1))
    if tok.startswith((".e", ".ue")):  # fp8/fp6/fp4 element types: packed count from xN
        return 8 * int(m.group(2) or 1)
    return bits * int(m.group(2) or 1)


PACKED_RE = re.compile(r"^\.u?e(\d)m(\d)x(\d)$")  # .e4m3x2, .e2m1x4, .ue8m0x2: sign? + exponent + mantissa bits


def _packed_width(tok: str) -> int | None:
    m = PACKED_RE.match(tok)
    if not m:
        return _width(tok)
    bits = 4 if (m.group(1), m.group(2)) == ("2", "1") else 8  # fp4 packs two to a byte; fp6/fp8 take a byte
    return bits * int(m.group(3))


class RegPool:
    def __init__(self):
        self.n = {"p": 1, "h": 1, "r": 1, "rd": 1, "q": 1}

    def take(self, width: int | None) -> str:
        cls = {1: "p", 8: "h", 16: "h", 32: "r", 64: "rd", 128: "q"}.get(width or 32, "r")
        limit = {"p": 7, "h": 15, "r": 79, "rd": 39, "q": 7}[cls]
        i = self.n[cls]
        self.n[cls] = i % limit + 1
        return f"%{cls}{i}" if False else f"{cls}{i}"


def operand_text(form: dict, opcode: str, strategy: str, rng: random.Random | None = None,
                 with_optional: bool = False) -> str:
    """Operands for one concrete opcode under a strategy (see STRATEGIES)."""
    rng = rng or random.Random(0)
    if strategy == "shaped":
        from . import instances_shaped

        return instances_shaped.operand_text(form, opcode, rng, with_optional)
    toks = dot_tokens(opcode)
    width_of = _packed_width if strategy == "packed" else _width
    if strategy == "packed":
        strategy = "typed"
    widths = [w for w in (width_of(t) for t in toks) if w]
    first = widths[0] if widths else 32
    last = widths[-1] if widths else 32
    if ".wide" in toks:
        first = 2 * last
    vec = next((int(t[2:]) for t in toks if re.fullmatch(r"\.v\d+", t)), 0)
    pool = RegPool()
    pats = [p for p in form["operands"] if with_optional or not p["optional"]]
    named = _named_widths(form, toks, pats, first) if strategy == "named" else {}
    out = []
    for idx, p in enumerate(pats):
        if idx in named:
            out.append(_one(form, p, idx, len(pats), "typed", named[idx], named[idx], vec, pool, rng, toks))
            continue
        out.append(_one(form, p, idx, len(pats), strategy, first, last, vec, pool, rng, toks))
    return ", ".join(out)


def _named_widths(form: dict, toks: list[str], pats: list[dict], first: int) -> dict[int, int]:
    """Operand index -> register width under the "named" strategy (plain register operands only)."""
    from .match import match_opcode

    bind, _ = match_opcode(form, toks)
    if bind is None:
        return {}
    out = {}
    for idx, p in enumerate(pats):
        if p["kind"] != "reg" or p.get("values") is not None:
            continue
        base = p["name"].lower()
        width = None
        for key, value in bind.items():
            letters = key[1:-4] if key.startswith(".") and key.endswith("type") else ""
            if letters and (letters == base or (len(base) == 1 and base in letters and len(letters) <= 3)):
                width = _width(value) if isinstance(value, str) else None
                break
        out[idx] = width or first
    return out


def _one(form, p, idx, n, strategy, first, last, vec, pool, rng, toks) -> str:
    name = p["name"].lower()
    kind = p["kind"]
    if kind == "mem":
        inner = [x for x in p.get("inner", []) if not x["optional"]]
        if len(inner) > 1:
            return "[" + ", ".join(["rd1"] + [pool.take(32) for _ in inner[1:]]) + "]"
        return "[rd1]"
    if kind == "vec":
        return "{" + ", ".join(pool.take(32) for _ in p.get("inner", [])) + "}"
    if kind == "paren":
        return "(rd2)"
    if kind == "pred2":
        head = pool.take(first) if strategy == "sized" else pool.take(1)
        return head + ("|" + pool.take(1) if not p["second"]["optional"] else "")
    if strategy == "sized" and "complete" in name:
        return pool.take(1)
    vals = p.get("values")
    if vals is not None:
        allowed = form["value_sets"].get(vals, []) if isinstance(vals, str) else vals
        if allowed:
            return allowed[0]
    if name in LABEL_NAMES:
        return "L_end"
    if name == "_":
        return "_"
    sel = ""
    for s in p.get("suffixes", []):
        if "lit" in s and not s["optional"]:
            sel += s["lit"]
        elif "set" in s and (not s["optional"] or rng.random() < 0.5):
            vs = form["value_sets"].get(s["set"]) or []
            rx = form.get("value_patterns", {}).get(s["set"])
            if vs:
                sel += rng.choice(vs)
            elif rx:
                sel += ".b" + "".join(rng.choice("01234567") for _ in range(4))
    pre = ""
    if p.get("prefix") and rng.random() < 0.3:
        pre = p["prefix"][0]
    is_dest = idx == 0
    if ("desc" in name and name != "idesc") or "policy" in name or name in ("state", "addr"):
        return pre + pool.take(64) + sel
    if "imm" in name or name in ("n", "count") and strategy == "typed":
        return "1"
    if ((name in PRED_NAMES and not (strategy == "sized" and name == "p"))
            or (p.get("prefix") or "").startswith("!") or (strategy == "lastpred" and idx == n - 1)):
        return pre + pool.take(1) + sel
    if strategy == "b32":
        return pre + pool.take(32) + sel
    if strategy == "b64":
        return pre + pool.take(64) + sel
    if strategy == "b16":
        return pre + pool.take(16) + sel
    if strategy == "sized":
        strategy = "typed"
    width = first if is_dest else last
    if strategy == "typed32" and is_dest:
        width = 32
    if vec and (is_dest or (idx == n - 1 and toks[0] in ("st", "red", "atom", "multimem"))):
        return "{" + ", ".join(pool.take(width) for _ in range(vec)) + "}"
    if strategy == "imm" and not is_dest:
        return pre + "1" if not sel else pool.take(width) + sel
    return pre + pool.take(width) + sel


def mutations(form: dict, opcode: str, bind: dict, operands: str, other_literals: list[str],
              rng: random.Random) -> list[tuple[str, str]]:
    """Deliberately invalid variants: (kind, instruction text)."""
    out = []
    # a wrong value for one set (a type or modifier from outside the set)
    sets = [k for k in bind if k in form["value_sets"] and form["value_sets"][k]]
    if sets:
        s = rng.choice(sets)
        pool = [v for v in (".u16", ".s8", ".f64", ".b128", ".u64", ".f16", ".rz", ".ftz", ".wide", ".x4")
                if v not in form["value_sets"][s] and not (v in bind.values())]
        if pool:
            toks = dot_tokens(opcode)
            old = bind[s]
            ot = dot_tokens(old) if old.startswith(".") else [old]
            for i in range(len(toks)):
                if toks[i:i + len(ot)] == ot:
                    new = toks[:i] + [rng.choice(pool)] + toks[i + len(ot):]
                    out.append(("wrong-value", "".join(new) + (" " + operands if operands else "") + ";"))
                    break
    # a missing operand
    ops = [o.strip() for o in _split(operands)]
    if len(ops) > 1:
        out.append(("missing-operand", opcode + " " + ", ".join(ops[:-1]) + ";"))
    # a modifier from another form
    if other_literals:
        lit = rng.choice(other_literals)
        toks = dot_tokens(opcode)
        if lit not in toks:
            at = rng.randint(1, len(toks))
            out.append(("foreign-modifier", "".join(toks[:at] + [lit] + toks[at:])
                        + (" " + operands if operands else "") + ";"))
    return out


def _split(text: str) -> list[str]:
    from .match import split_top

    return split_top(text) if text else []


def literals(form: dict) -> list[str]:
    out = []

    def walk(es):
        for e in es:
            if "lit" in e and e["lit"].startswith("."):
                out.append(e["lit"])
            if "opt" in e:
                walk(e["opt"])
    walk(form["opcode"])
    for vs in form["value_sets"].values():
        out += [v for v in vs if v.startswith(".")]
    return out


def product_size(form: dict) -> int:
    size = 1
    for k, n in _choice_points(form["opcode"], form):
        size *= len(form["value_sets"][n] or ["?"]) if k == "set" else 2
    return size


__all__ = ["opcode_combos", "operand_text", "mutations", "literals", "STRATEGIES", "product_size", "itertools"]


def pair_minimal(form: dict, limit: int = 1500) -> list[tuple[str, dict]]:
    """Every pair of values of two different choice points, everything else minimal (pairwise covering)."""
    points = []
    for k, p in _choice_points(form["opcode"], form):
        if k == "set":
            points.append([(p, v) for v in (form["value_sets"][p] or ["?"])])
        else:
            points.append([(p, True)])
    out: dict[str, dict] = {}

    def holds(group: dict, name) -> bool:
        return any(x is name or x.get("set") == name or ("opt" in x and holds(x, name)) for x in group["opt"])

    for i in range(len(points)):
        for j in range(i + 1, len(points)):
            for a in points[i]:
                for b in points[j]:
                    fixed = {id(a[0]) if isinstance(a[0], dict) else a[0]: a[1],
                             id(b[0]) if isinstance(b[0], dict) else b[0]: b[1]}

                    def pick(key, options, fixed=fixed, a=a, b=b):
                        if key[0] == "set" and key[1] in fixed:
                            return fixed[key[1]]
                        if key[0] == "opt":
                            if id(key[1]) in fixed:
                                return True
                            for x in (a[0], b[0]):
                                if holds(key[1], x):
                                    return True
                        return options[0]
                    bind: dict = {}
                    text = "".join(_render(form["opcode"], form, pick, bind))
                    out.setdefault(text, bind)
                    if len(out) >= limit:
                        return list(out.items())
    return list(out.items())
