"""Matching one concrete PTX instruction against catalog forms.

The opcode (``vsub.s32.s32.u32.sat``) is matched token by token against a
form's elements with backtracking over optional groups and multi-token values;
operands are split at top-level commas and matched against the form's operand
patterns (optional ones, vector/memory/predicate-pair shapes, selector
suffixes such as ``.b0``).  When no form matches, the failure that got
furthest names the bad part and the allowed set.
"""

# ``cached``: functools.lru_cache as the PTX checker uses it, without importing functools (here, not in
# a module of its own: a module's import is ~0.5 M instructions of a check's start-up).
#
# ``functools`` imports ``collections`` (about 10 M instructions, 2 ms: a tenth of ``gpuisa ptx check
# --file`` on a 2,500-instruction kernel, measured with callgrind), and nothing else on the check path
# needs either.  Same use as ``functools.lru_cache(maxsize=N)`` on functions of hashable positional
# arguments: results are kept by the arguments; at ``maxsize`` entries the memo is emptied (the callers'
# keys are few: opcodes, opcode heads, and no-argument loaders); ``cache_info().currsize`` and
# ``cache_clear()`` as lru_cache has them.  mypy reads it as lru_cache itself.
TYPE_CHECKING = False  # (typing's import costs the check's start-up)
if TYPE_CHECKING:
    from functools import lru_cache as cached
else:
    class _CacheInfo:
        __slots__ = ("currsize",)

        def __init__(self, currsize: int):
            self.currsize = currsize

    class _Memo1(dict):
        """The memo of a one-argument function, called as the function: a hit is dict's own look-up (no
        Python frame: the memos of opcode tokens and targets are hit thousands of times a file)."""

        __call__ = dict.__getitem__

        def __missing__(self, arg):
            if self.maxsize is not None and len(self) >= self.maxsize:
                self.clear()
            value = self[arg] = self.fn(arg)
            return value

        def cache_info(self) -> _CacheInfo:
            return _CacheInfo(len(self))

        def cache_clear(self) -> None:
            self.clear()

    def cached(maxsize=128):
        """A decorator memoising a function by its positional arguments (at most ``maxsize`` kept, None: no bound)."""
        def decorate(fn):
            if fn.__code__.co_argcount == 1 and not fn.__code__.co_flags & 0x0C:  # (one argument, no *args/**kw)
                wrapper = _Memo1()
                wrapper.fn, wrapper.maxsize = fn, maxsize
            else:
                wrapper = _many(fn, maxsize)
            wrapper.__wrapped__ = fn
            for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
                setattr(wrapper, attr, getattr(fn, attr))
            return wrapper

        return decorate

    def _many(fn, maxsize):
        memo: dict = {}

        def wrapper(*args):
            try:
                return memo[args]
            except KeyError:
                pass
            if maxsize is not None and len(memo) >= maxsize:
                memo.clear()
            value = memo[args] = fn(*args)
            return value

        wrapper.cache_info = lambda: _CacheInfo(len(memo))
        wrapper.cache_clear = memo.clear
        return wrapper


DIGITS = "0123456789"


def dot_tokens(text: str) -> list[str]:
    return list(_dot_tokens(text))


@cached(maxsize=4096)
def _dot_tokens(text: str) -> tuple[str, ...]:
    parts = text.split(".")
    out = [parts[0]] if parts[0] else []
    out += ["." + p for p in parts[1:] if p]
    return tuple(out)


class Failure:
    """How far a match got and what it expected there (a plain class: dataclasses cost start-up time)."""

    __slots__ = ("pos", "expected")

    def __init__(self, pos: int = -1, expected: list[tuple[dict, bool]] | None = None):
        self.pos = pos
        self.expected = expected if expected is not None else []  # (element, optional)

    def note(self, pos: int, elem: dict, optional: bool) -> None:
        if pos > self.pos:
            self.pos, self.expected = pos, [(elem, optional)]
        elif pos == self.pos:
            self.expected.append((elem, optional))


def _values(form: dict, name: str) -> list[str]:
    return form["value_sets"].get(name, [])


def _set_matches(form: dict, name: str, toks: list[str], i: int):
    index = _VALUE_INDEX.get((id(form), name))
    if index is None:  # (the index of a value list: shared by the forms with the same list)
        values = tuple(_values(form, name))
        index = _VALUE_INDEX[(id(form), name)] = _BY_VALUES.get(values) or _BY_VALUES.setdefault(
            values, _value_index(form, name))
    by_first, linear = index
    if linear:  # a value of no tokens: keep the plain scan, which yields in list order
        for v in _values(form, name):
            vt = _dot_tokens(v) if v.startswith(".") else (v,)
            if tuple(toks[i:i + len(vt)]) == vt:
                yield i + len(vt), v
    elif i < len(toks):
        for vt, v in by_first.get(toks[i], ()):
            if len(vt) == 1 or tuple(toks[i:i + len(vt)]) == vt:
                yield i + len(vt), v
    rx = form.get("value_patterns", {}).get(name)
    if rx and i < len(toks) and pattern_match(rx, toks[i]):
        yield i + 1, toks[i]


_VALUE_INDEX: dict = {}  # (form, value set) -> (first token -> [(tokens, value)] in list order, needs plain scan)
_BY_VALUES: dict = {}  # the same, by the value list


def _value_index(form: dict, name: str) -> tuple[dict, bool]:
    by_first: dict = {}
    for v in _values(form, name):
        vt = _dot_tokens(v) if v.startswith(".") else (v,)
        if not vt:
            return {}, True
        by_first.setdefault(vt[0], []).append((vt, v))
    return by_first, False


def _match(elems: list[dict], k: int, toks: list[str], i: int, form: dict, bind: dict, fail: Failure, opt: bool):
    if k == len(elems):
        yield i, bind
        return
    e = elems[k]
    if "lit" in e:
        lt = dot_tokens(e["lit"])
        if toks[i:i + len(lt)] == lt:
            b2 = {**bind, e["lit"]: e["lit"]} if opt else bind
            yield from _match(elems, k + 1, toks, i + len(lt), form, b2, fail, opt)
        else:
            fail.note(i, e, opt)
    elif "set" in e:
        hit = False
        for j, v in _set_matches(form, e["set"], toks, i):
            hit = True
            yield from _match(elems, k + 1, toks, j, form, {**bind, e["set"]: v}, fail, opt)
        if not hit:
            fail.note(i, e, opt)
    else:  # optional group
        for j, b2 in _match(e["opt"], 0, toks, i, form, bind, fail, True):
            if j > i:
                yield from _match(elems, k + 1, toks, j, form, b2, fail, opt)
        yield from _match(elems, k + 1, toks, i, form, bind, fail, opt)


def match_opcode(form: dict, toks: list[str]) -> tuple[dict | None, Failure]:
    fail = Failure()
    i = 0
    for e in form["opcode"]:  # the leading literals: no choices there, so a mismatch fails the form
        if "lit" not in e:
            break
        lt = _dot_tokens(e["lit"])
        if tuple(toks[i:i + len(lt)]) != lt:
            fail.note(i, e, False)  # what the full match below would find
            return None, fail
        i += len(lt)
    for j, bind in _match(form["opcode"], 0, toks, 0, form, {}, fail, False):
        if j == len(toks):
            return bind, fail
        fail.note(j, {"end": True}, False)
    return None, fail


# ---------------------------------------------------------------- operands

def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at each ``sep`` outside brackets (`[]`, `{}`, `()`), the parts stripped (a blank last
    part dropped): cut at every ``sep`` by ``str.split``, then the parts rejoined while the brackets opened
    before a cut (counted with ``str.count``) are not all closed."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for part in text.split(sep):
        cur.append(part)
        if "[" in part or "]" in part or "{" in part or "}" in part or "(" in part or ")" in part:
            depth += (part.count("[") + part.count("{") + part.count("(")
                      - part.count("]") - part.count("}") - part.count(")"))
        if depth == 0:
            out.append(sep.join(cur).strip())
            cur = []
    if cur:
        out.append(sep.join(cur).strip())
    if out and not out[-1]:
        out.pop()
    return out


ASCII_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def pattern_match(rx: str, tok: str) -> bool:
    """``re.match(rx, tok)`` for the catalog's value patterns (re imported only when a form has one)."""
    import re

    return re.match(rx, tok) is not None


def _negative_literal(rest: str) -> bool:
    r"""After `-`: a number, except the hex floats 0f…/0d… (``^(?!0[fFdD])\d``)."""
    return rest[:1].isdecimal() and not (rest[0] == "0" and rest[1:2] in ("f", "F", "d", "D"))


def suffixed(s: str) -> tuple[str, str] | None:
    r"""(name, suffixes) of a name with dotted suffixes (``%r1.b0``, ``%tid.x``), else None:
    ``^(%?[A-Za-z_$][\w$]*)((?:\.[A-Za-z_][\w:]*)+)$`` by ``str`` methods (no pattern to compile)."""
    dot = s.find(".")
    if dot <= 0:
        return None
    body = s[1:dot] if s[0] == "%" else s[:dot]
    if not body or (body[0] not in ASCII_START and body[0] != "$"):
        return None
    for c in body[1:]:
        if not (c.isalnum() or c == "_" or c == "$"):
            return None
    for piece in s[dot + 1:].split("."):
        if not piece or piece[0] not in ASCII_START:
            return None
        for c in piece[1:]:
            if not (c.isalnum() or c == "_" or c == ":"):
                return None
    return s[:dot], s[dot:]


# special registers with fields (%tid.x): the field is part of the name, not an operand selector
VECTOR_SREGS = {"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid", "%nclusterid", "%cluster_ctaid",
                "%cluster_nctaid"}
VECTOR_FIELDS = {".x", ".y", ".z", ".w"}


def classify(item: str) -> dict:
    """A concrete operand: kind, prefix, suffixes, element count."""
    s = item.strip()
    out: dict = {"text": s, "prefix": None, "suffixes": []}
    if s[:1] in "-!" and len(s) > 1:
        rest = s[1:].strip()
        if s[0] == "-" and _negative_literal(rest):
            s = out["text"] = "-" + rest  # a negative number (ptxas takes it anywhere), not a negated operand
        else:
            out["prefix"], s = s[0], rest
    if s.startswith("["):
        end = s.find("]")
        out["kind"] = "mem"
        out["count"] = len(split_top(s[1:end])) if end > 0 else 0
        rest = s[end + 1:] if end > 0 else ""
        out["suffixes"] = ["." + x for x in rest.split(".") if x]
        return out
    if s.startswith("{") and "|" in s[s.rfind("}") + 1:]:
        out["kind"] = "pred2"  # a vector with a predicate: {d0, d1, d2, d3}|p
        return out
    if s.startswith("{"):
        end = s.rfind("}")
        out["kind"] = "vec"
        out["count"] = len(split_top(s[1:end]))
        rest = s[end + 1:]
        out["suffixes"] = ["." + x for x in rest.split(".") if x]
        return out
    if s.startswith("(") and (not const_expr(s) or not any(c in DIGITS for c in s)):
        out["kind"] = "paren"  # a call's parameter list (`( )`, nvcc -G; `(a)`: a constant has a digit)
        return out
    if "|" in s:
        out["kind"] = "pred2"
        return out
    out["kind"] = "reg"
    if (" " in s or "\t" in s) and not const_expr(s):
        if two_words(s):  # two names or numbers side by side: not one operand (a `;` missing?)
            out["kind"] = "junk"
            return out
    m = suffixed(s)
    if m and not (m[0] in VECTOR_SREGS and m[1] in VECTOR_FIELDS):
        out["name"] = m[0]
        out["suffixes"] = ["." + x for x in m[1].split(".") if x]
    else:
        out["name"] = s
    return out


def _int_value(text: str) -> int | None:
    """An integer literal's value (decimal, 0x hex, 0 octal, 0b binary, U suffix), else None."""
    t = text.rstrip("Uu")
    try:
        return int(t, 0) if not (len(t) > 1 and t[0] == "0" and t[1].isdigit()) else int(t, 8)
    except ValueError:
        return None


def _suffix_ok(form: dict, pat: dict, got: list[str]) -> str | None:
    """None when the concrete suffixes fit the pattern's, else an error."""
    pats = pat.get("suffixes", [])
    i = 0
    for p in pats:
        name = p.get("set") or p.get("lit")
        allowed = _values(form, name) if "set" in p else [p["lit"]]
        rx = form.get("value_patterns", {}).get(name) if "set" in p else None
        if i < len(got) and (got[i] in allowed or (rx and pattern_match(rx, got[i]))):
            i += 1
            continue
        if p["optional"]:
            continue
        if i < len(got):
            return f"`{got[i]}` is not a valid {name} for operand {pat['name']}; allowed: {show_values(allowed, rx)}"
        return f"operand {pat['name']} needs a {name} selector; allowed: {show_values(allowed, rx)}"
    if i < len(got):
        for p in pats:
            if "set" in p:
                vals = _values(form, p["set"])
                rx = form.get("value_patterns", {}).get(p["set"])
                return f"`{got[i]}` is not a valid {p['set']} for operand {pat['name']}; allowed: {show_values(vals, rx)}"
        allowed = [s.get("set") or s.get("lit") for s in pats]
        return (f"`{got[i]}` is not allowed on operand {pat['name']}"
                + (f"; allowed: {', '.join(allowed)}" if allowed else "; it takes no selector"))
    return None


def show_values(values: list[str], rx: str | None = None, limit: int = 24) -> str:
    if rx and not values:
        return "pattern " + rx
    shown = ", ".join(values[:limit])
    return shown + (f", … ({len(values)} in all)" if len(values) > limit else "")


CONST_CHARS = frozenset("-+*/%()<>&|^~!xXabcdefABCDEF.")
LEFT_WORD = frozenset("_$%)]")
RIGHT_WORD = frozenset("_$%@([")


def const_expr(s: str) -> bool:
    r"""Whether an operand is a constant expression in parentheses, ``(4*2+1)``:
    ``^\([-+*/%()<>&|^~!\s\dxXa-fA-F.]*\)$`` by ``str`` methods."""
    if len(s) < 2 or s[0] != "(" or s[-1] != ")":
        return False
    return all(c in CONST_CHARS or c.isspace() or c.isdecimal() for c in s[1:-1])


def two_words(s: str) -> bool:
    r"""Whether two names or numbers stand side by side (not one operand: a `;` missing?):
    ``[\w$%)\]]\s+[\w$%@(\[]`` searched, by ``str.split``."""
    parts = s.split()
    for left, right in zip(parts, parts[1:]):
        a, b = left[-1], right[0]
        if (a.isalnum() or a in LEFT_WORD) and (b.isalnum() or b in RIGHT_WORD):
            return True
    return False
KIND_WORDS = {"mem": "a memory operand [..]", "vec": "a vector {..}", "paren": "a parameter list (..)",
              "pred2": "a predicate pair p|q", "reg": "a register or immediate"}


def _item_error(form: dict, pat: dict, got: dict) -> str | None:
    pk, gk = pat["kind"], got["kind"]
    ok_kind = (pk == gk or (pk == "reg" and gk in ("vec",)) or (pk == "pred2" and gk in ("reg", "vec")
                                                               and pat.get("second", {}).get("optional")))
    if not ok_kind:
        return f"operand {pat['name']} must be {KIND_WORDS[pk]}; got `{got['text']}`"
    if pat.get("vector") and gk not in ("vec", "pred2"):
        return f"operand {pat['name']} must be a vector {{..}} of registers; got `{got['text']}`"
    if got["prefix"] and not pat.get("prefix"):
        return f"operand {pat['name']} takes no `{got['prefix']}` prefix; got `{got['text']}`"
    vals = pat.get("values")
    if vals is not None and gk == "reg":
        allowed = _values(form, vals) if isinstance(vals, str) else vals
        text = got.get("name", "")
        if text.lstrip("-")[:1].isdigit() and text not in allowed and (
                _int_value(text) not in {_int_value(a) for a in allowed}):
            return f"`{text}` is not a valid {pat['name']}; allowed: {', '.join(allowed)}"
        if text[:1] == "%" or text[:1].isalpha() or text[:1] == "_":  # a register: ptxas's argument mismatch
            return f"operand {pat['name']} takes an immediate ({', '.join(allowed)}), not a register; got `{text}`"
    if pk == "mem" and gk == "mem" and pat.get("inner"):
        lo = sum(1 for x in pat["inner"] if not x["optional"])
        hi = len(pat["inner"])
        if not lo <= got["count"] <= hi:
            return f"operand {pat['name']} holds {lo if lo == hi else f'{lo} to {hi}'} items; got `{got['text']}`"
    return _suffix_ok(form, pat, got["suffixes"])


def match_operands(form: dict, items: list[dict]) -> str | None:
    """None when the operands fit the form, else the error of the best attempt."""
    pats = form["operands"]
    best: list = [(-1, None)]

    def rec(pi: int, gi: int) -> bool:
        if pi == len(pats):
            if gi == len(items):
                return True
            if gi > best[0][0]:
                best[0] = (gi, f"too many operands: `{items[gi]['text']}` is extra (expected {_pattern_text(pats)})")
            return False
        pat = pats[pi]
        if gi < len(items):
            err = _item_error(form, pat, items[gi])
            if err is None:
                if rec(pi + 1, gi + 1):
                    return True
            elif gi > best[0][0] or (gi == best[0][0] and best[0][1] and best[0][1].startswith("too many")):
                best[0] = (gi, err)
        if pat["optional"]:
            return rec(pi + 1, gi)
        if gi >= len(items) and gi >= best[0][0]:
            best[0] = (gi, f"missing operand {pat['name']} (expected {_pattern_text(pats)})")
        return False

    if rec(0, 0):
        return None
    return best[0][1] or f"operands do not fit {_pattern_text(pats)}"


def _pattern_text(pats: list[dict]) -> str:
    parts = []
    for p in pats:
        t = p["name"] + "".join(("{%s}" if s["optional"] else "%s") % (s.get("set") or s.get("lit"))
                                for s in p.get("suffixes", []))
        if p.get("kind") == "pred2":
            t += ("{|%s}" if p["second"]["optional"] else "|%s") % p["second"]["name"]
        parts.append("{" + t + "}" if p["optional"] else t)
    return ", ".join(parts)


def split_instruction(text: str) -> tuple[str, str, str]:
    """'@p vadd.u32.u32.u32 d, a, b;' -> (guard, opcode, operand text)."""
    s = text.strip()
    if s.endswith(";"):
        s = s[:-1].strip()
    guard = ""
    if s.startswith("@"):
        parts = s.split(None, 1)
        guard, s = parts[0], parts[1] if len(parts) > 1 else ""
    parts = s.split(None, 1)
    return guard, parts[0] if parts else "", parts[1].strip() if len(parts) > 1 else ""
