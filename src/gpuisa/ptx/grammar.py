"""Parser for PTX syntax grammars (``syntax/*.txt`` of the PTX ISA 9.0 reference).

A grammar file holds sections separated by ``-----`` lines; a section has syntax
forms (``vop.dtype.atype.btype{.sat} d, a{.asel}, b{.bsel};``) and named value
sets (``.dtype = .atype = .btype = { .u32, .s32 };``) that the forms of that
section use.  This module turns a file into plain JSON-able forms:

- ``opcode``: a list of elements ``{"lit": ".sat"}``, ``{"set": ".dtype"}`` or
  ``{"opt": [elements]}`` (an optional group);
- ``operands``: a list of operand patterns ``{"name", "kind", "optional", ...}``
  where kind is ``reg`` (register, immediate or special), ``mem`` (``[a]``),
  ``vec`` (``{a, b}``), ``paren`` (``(params)``), ``pred2`` (``p|q``);
- ``value_sets``: the values of every set a form uses (nested sets expanded;
  very large products kept as a regular expression in ``value_patterns``).

Why hand-written: the notation is NVIDIA's informal one (braces mean "optional"
in the opcode, but "optional" *or* "vector" among operands, decided by shape;
value sets nest as ``.collector::buffer::op``), not a grammar any parser
generator reads; a small recursive scanner states those rules directly.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from pathlib import Path

SECTION_RULE = re.compile(r"^\s*-{3,}\s*$", re.M)
SET_DEF = re.compile(r"^\s*((?:(?:\.|::)?[A-Za-z_][\w:\-]*\s*=\s*)+)\{(.*)\}\s*$", re.S)
SET_START = re.compile(r"^\s*(?:\.|::)?[A-Za-z_][\w:\-]*\s*=\s*(?:(?:\.|::)?[A-Za-z_][\w:\-]*\s*=\s*)*\{")
MAX_EXPANDED = 512


def _strip_comments(text: str) -> str:
    """Drop comments; start a new statement at each value-set definition (some files omit the ';')."""
    lines = []
    for line in text.splitlines():
        line = line.split("//", 1)[0]
        if SET_START.match(line):
            line = ";" + line
        lines.append(line)
    return "\n".join(lines)


def _split_values(body: str) -> list[str]:
    return [v.rstrip("*") for v in re.split(r"[\s,]+", body) if v.strip().rstrip("*")]


def parse_sections(text: str) -> list[tuple[list[str], dict[str, list[str]]]]:
    """[(form syntax strings, {set name: values})] per section, in file order."""
    out = []
    for section in SECTION_RULE.split(text):
        body = _strip_comments(section)
        forms: list[str] = []
        sets: dict[str, list[str]] = {}
        for chunk in _statements(body):
            m = SET_DEF.match(chunk)
            if m:
                names = [n.strip() for n in m.group(1).split("=") if n.strip()]
                values = _split_values(m.group(2))
                for n in names:
                    sets[n] = values
            elif chunk.strip():
                forms.append(" ".join(chunk.split()) + ";")
        if forms or sets:
            out.append((forms, sets))
    return out


def _statements(body: str) -> list[str]:
    """Split on ';' outside braces (value-set bodies never hold ';')."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        if ch == ";" and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur))
    return [s.strip() for s in out if s.strip()]


def expand_values(name: str, sets: dict[str, list[str]], _depth: int = 0) -> tuple[list[str], str | None]:
    """Values of a set with nested set references expanded; (values, regex) when the product is huge."""
    values = sets[name]
    out: list[str] = []
    pattern_parts: list[str] = []
    for v in values:
        parts = re.split(r"(::[A-Za-z_]\w*|\.[A-Za-z_]\w*)", v)
        choices = []
        for p in parts:
            if p and p in sets and p != name and _depth < 4:
                sub, _ = expand_values(p, sets, _depth + 1)
                choices.append(sub)
            elif p:
                choices.append([p])
        size = 1
        for c in choices:
            size *= len(c)
        if size > MAX_EXPANDED:
            pattern_parts.append("".join("(?:" + "|".join(re.escape(x) for x in c) + ")" for c in choices))
            continue
        for combo in itertools.product(*choices):
            out.append("".join(combo))
    regex = "^(?:" + "|".join(pattern_parts) + ")$" if pattern_parts else None
    return out, regex


def _dot_tokens(text: str) -> list[str]:
    """'vsub.dtype' -> ['vsub', '.dtype']; keeps '::' inside tokens."""
    toks = []
    for i, part in enumerate(text.split(".")):
        if part == "":
            continue
        toks.append(part if (i == 0 and not text.startswith(".")) else "." + part)
    return toks


def parse_opcode(text: str, sets: dict[str, list[str]]) -> list[dict]:
    """Opcode part ('vop.dtype{.sat}') to elements."""
    elems: list[dict] = []
    i = 0
    buf = ""

    def flush():
        nonlocal buf
        for tok in _dot_tokens(buf):
            elems.append({"set": tok} if tok in sets else {"lit": tok})
        buf = ""

    while i < len(text):
        ch = text[i]
        if ch == "{":
            flush()
            depth, j = 1, i + 1
            while depth:
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            elems.append({"opt": parse_opcode(text[i + 1:j - 1].strip(), sets)})
            i = j
            continue
        buf += ch
        i += 1
    flush()
    return elems


def split_form(syntax: str) -> tuple[str, str]:
    """'vadd.u32.u32.u32 d, a, b;' -> ('vadd.u32.u32.u32', 'd, a, b')."""
    s = syntax.strip().rstrip(";").strip()
    depth = 0
    for i, ch in enumerate(s):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch.isspace() and depth == 0:
            rest = s[i:].strip()
            # a stray '{.mod}' separated by a space still belongs to the opcode
            if rest.startswith("{.") and "}" in rest:
                continue
            return s[:i], rest
    return s, ""


def parse_operands(text: str, sets: dict[str, list[str]]) -> list[dict]:
    """Operand pattern list; see the module docstring for the kinds."""
    items, _ = _parse_items(text.strip(), 0, sets, closer=None)
    return items


def _skip_ws(t: str, i: int) -> int:
    while i < len(t) and t[i].isspace():
        i += 1
    return i


def _match_brace(t: str, i: int, open_ch: str, close_ch: str) -> int:
    depth = 0
    for j in range(i, len(t)):
        if t[j] == open_ch:
            depth += 1
        elif t[j] == close_ch:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced {open_ch} in {t!r}")


def _parse_items(t: str, i: int, sets, closer) -> tuple[list[dict], int]:
    items: list[dict] = []
    while True:
        i = _skip_ws(t, i)
        if i >= len(t) or (closer and t[i] == closer):
            return items, i
        if t[i] == ",":
            i += 1
            continue
        if t[i] == "{":
            j = _match_brace(t, i, "{", "}")
            inner = t[i + 1:j].strip()
            if inner.startswith(","):  # {, e}: optional trailing operand(s)
                sub = parse_operands(inner[1:], sets)
                for s in sub:
                    s["optional"] = True
                items += sub
                i = j + 1
                continue
            if inner.endswith(","):  # {b,}: optional operand
                sub = parse_operands(inner[:-1], sets)
                for s in sub:
                    s["optional"] = True
                items += sub
                i = j + 1
                continue
            if inner in ("-", "!"):  # {-}a: optional prefix
                item, i = _parse_single(t, j + 1, sets)
                item["prefix"] = inner
                items.append(item)
                continue
            # a vector operand {a, b, c}
            sub = parse_operands(inner, sets)
            item = {"name": "{" + ", ".join(s["name"] for s in sub) + "}", "kind": "vec", "optional": False,
                    "inner": sub}
            i = j + 1
            i = _parse_suffixes(t, i, item, sets)
            items.append(item)
            continue
        item, i = _parse_single(t, i, sets)
        items.append(item)


NAME_RE = re.compile(r"[A-Za-z_%0-9][\w\-]*")
_SUFFIX_RE = re.compile(r"\.[\w:]+")


def _must_match(rx: re.Pattern[str], t: str, i: int) -> re.Match[str]:
    """``rx`` matched at ``i`` of a grammar line, which the grammar's shape promises there."""
    m = rx.match(t, i)
    if m is None:
        raise ValueError(f"cannot read a name at {t[i:]!r}")
    return m


def _parse_single(t: str, i: int, sets) -> tuple[dict, int]:
    i = _skip_ws(t, i)
    prefix = None
    if t[i] in "-!" and not t[i:].startswith("->"):
        prefix = t[i]
        i += 1
    if t[i] == "[":
        j = _match_brace(t, i, "[", "]")
        sub = parse_operands(t[i + 1:j], sets)
        item = {"name": "[" + ", ".join(s["name"] for s in sub) + "]", "kind": "mem", "optional": False, "inner": sub}
        i = j + 1
    elif t[i] == "(":
        j = _match_brace(t, i, "(", ")")
        item = {"name": t[i:j + 1], "kind": "paren", "optional": False}
        i = j + 1
    else:
        m = NAME_RE.match(t, i)
        if not m:
            raise ValueError(f"cannot read an operand at {t[i:]!r}")
        item = {"name": m.group(0), "kind": "reg", "optional": False}
        if m.group(0) in sets:  # an operand drawn from a value set (cp-size = { 4, 8, 16 })
            item["values"] = m.group(0)
        elif m.group(0)[0].isdigit():
            item["values"] = [m.group(0)]
        i = m.end()
    if prefix:
        item["prefix"] = prefix + "!"  # '!' marks "required prefix"
    i = _parse_suffixes(t, i, item, sets)
    return item, i


def _parse_suffixes(t: str, i: int, item: dict, sets) -> int:
    while i < len(t):
        if t.startswith("{|", i):  # p{|q}
            j = _match_brace(t, i, "{", "}")
            item["kind"] = "pred2"
            item["second"] = {"name": t[i + 2:j].strip(), "optional": True}
            i = j + 1
        elif t[i] == "|":
            m = _must_match(NAME_RE, t, i + 1)
            item["kind"] = "pred2"
            item["second"] = {"name": m.group(0), "optional": False}
            i = m.end()
        elif t.startswith("{.", i):
            j = _match_brace(t, i, "{", "}")
            name = t[i + 1:j].strip()
            item.setdefault("suffixes", []).append({"set" if name in sets else "lit": name, "optional": True})
            i = j + 1
        elif t[i] == "." and i + 1 < len(t) and (t[i + 1].isalpha() or t[i + 1] == "_"):
            m = _must_match(_SUFFIX_RE, t, i)
            name = m.group(0)
            item.setdefault("suffixes", []).append({"set" if name in sets else "lit": name, "optional": False})
            i = m.end()
        elif t[i] == "+" and item["kind"] == "reg":  # avar+imm
            offset = NAME_RE.match(t, i + 1)
            item["name"] += "+" + (offset.group(0) if offset else "")
            i = offset.end() if offset else i + 1
        else:
            break
    return i


def sets_used(elems: list[dict], operands: list[dict]) -> list[str]:
    names: list[str] = []

    def walk(es):
        for e in es:
            if "set" in e and e["set"] not in names:
                names.append(e["set"])
            if "opt" in e:
                walk(e["opt"])

    walk(elems)

    def walk_ops(ops):
        for o in ops:
            if isinstance(o.get("values"), str) and o["values"] not in names:
                names.append(o["values"])
            for s in o.get("suffixes", []):
                if "set" in s and s["set"] not in names:
                    names.append(s["set"])
            walk_ops(o.get("inner", []))

    walk_ops(operands)
    return names


def parse_file(path: Path, fixes: Sequence[tuple[str, str]] = ()) -> list[dict]:
    """All forms of one grammar file: [{head, syntax, opcode, operands, value_sets, value_patterns, section}].

    ``fixes`` are (old, new) text replacements for known transcription defects of a file.
    """
    text = path.read_text()
    for old, new in fixes:
        if old not in text:
            raise ValueError(f"{path.name}: fix no longer applies: {old!r}")
        text = text.replace(old, new)
    sections = parse_sections(text)
    file_sets: dict[str, list[str]] = {}
    for _, sets in sections:
        for k, v in sets.items():
            file_sets.setdefault(k, v)
    forms = []
    for si, (texts, sets) in enumerate(sections):
        scope = {**file_sets, **sets}
        for syntax in texts:
            op_text, operand_text = split_form(syntax)
            elems = parse_opcode(op_text, scope)
            operands = parse_operands(operand_text, scope) if operand_text else []
            heads: Sequence[str | None] = [None]
            if elems and "set" in elems[0]:  # vop = { vadd, vsub, ... }
                heads = expand_values(elems[0]["set"], scope)[0]
            for head in heads:
                e2 = ([{"lit": head}] + elems[1:]) if head else elems
                value_sets, patterns = {}, {}
                for name in sets_used(e2, operands):
                    vals, rx = expand_values(name, scope)
                    value_sets[name] = vals
                    if rx:
                        patterns[name] = rx
                syn = syntax if not head else head + syntax[len(elems[0]["set"]):]
                forms.append({"head": head, "syntax": syn, "opcode": e2, "operands": operands,
                              "value_sets": value_sets, "value_patterns": patterns, "section": si})
    return forms
