"""Operands of a concrete opcode under the register strategies other than ``shaped`` (see
``instances.STRATEGIES``): registers as wide as the opcode's types, immediates, predicates, labels.

Both ``instances`` (every strategy) and ``instances_shaped`` (whose operands without a shape of their own
fall back to the typed strategy) build on this module.
"""

from __future__ import annotations

import random
import re

from .match import dot_tokens, match_opcode

TYPE_RE = re.compile(r"^\.(?:u|s|b|f|bf|tf|e\dm\d|ue\dm\d)(\d+)(?:x(\d+))?$")
PRED_NAMES = {"p", "q", "pred", "pa", "pb", "pd", "pq"}
LABEL_NAMES = {"tgt", "label", "l", "tgt-label"}


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
        return f"{cls}{i}"


def operand_text(form: dict, opcode: str, strategy: str, rng: random.Random | None = None,
                 with_optional: bool = False) -> str:
    """Operands for one concrete opcode under any strategy but ``shaped`` (see instances.STRATEGIES)."""
    rng = rng or random.Random(0)
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


def _bracketed(p: dict, strategy: str, first: int, pool: RegPool) -> str | None:
    """An address, a brace list, a parenthesised operand or a ``d|p`` pair; None for a plain operand."""
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
    return None


def _one(form, p, idx, n, strategy, first, last, vec, pool, rng, toks) -> str:
    name = p["name"].lower()
    bracketed = _bracketed(p, strategy, first, pool)
    if bracketed is not None:
        return bracketed
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
