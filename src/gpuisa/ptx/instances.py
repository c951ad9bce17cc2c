"""Concrete instances of catalog forms: valid combinations over the value sets and deliberately invalid ones.

Operands are filled by an *operand strategy* (how registers are chosen for a
form's operands); the generator records per form the first strategy ptxas
accepts, so instances built later use registers ptxas agrees with.
"""

from __future__ import annotations

import random

from . import instances_shaped, instances_typed
from .match import dot_tokens, split_top

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
        return _all_renderings(form)[:cap]

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


def operand_text(form: dict, opcode: str, strategy: str, rng: random.Random | None = None,
                 with_optional: bool = False) -> str:
    """Operands for one concrete opcode under a strategy (see STRATEGIES)."""
    rng = rng or random.Random(0)
    if strategy == "shaped":
        return instances_shaped.operand_text(form, opcode, rng, with_optional)
    return instances_typed.operand_text(form, opcode, strategy, rng, with_optional)


def mutations(form: dict, opcode: str, bind: dict, operands: str, other_literals: list[str],
              rng: random.Random) -> list[tuple[str, str]]:
    """Deliberately invalid variants: (kind, instruction text)."""
    out = []
    # a wrong value for one set (a type or modifier from outside the set)
    sets = [k for k in bind if k in form["value_sets"] and form["value_sets"][k]]
    if sets:
        s = rng.choice(sets)
        pool = [v for v in (".u16", ".s8", ".f64", ".b128", ".u64", ".f16", ".rz", ".ftz", ".wide", ".x4")
                if v not in form["value_sets"][s] and v not in bind.values()]
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
    ops = [o.strip() for o in split_operands(operands)]
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


def split_operands(text: str) -> list[str]:
    """An instruction's operand text split at its top-level commas."""
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


__all__ = ["opcode_combos", "operand_text", "mutations", "literals", "STRATEGIES", "product_size",
           "split_operands", "render_bind", "pair_minimal"]


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
