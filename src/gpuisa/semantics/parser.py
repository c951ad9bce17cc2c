"""Parse AMD pseudocode text into a small tuple AST, with lark (LALR) and ``pcode.lark``.

Before parsing, ``preprocess`` removes ``//`` comments and turns line breaks into
statement separators, except inside brackets or after a line that ends in an
operator (the manuals wrap long expressions over lines).  Parse errors are
reported as :class:`PcodeSyntaxError` with the line and column of the original text.

AST nodes are tuples whose first item names the node:
  expressions  ('num', int|float, Ty) ('name', id) ('field', e, id) ('index', e, i)
               ('slice', e, hi, lo) ('pslice', e, lo, width) ('call', f, [args])
               ('cast', Ty, e) ('concat', [e...]) ('unop', op, e) ('binop', op, a, b)
               ('tern', c, a, b) ('lambda', [params], block) ('string', text)
  statements   ('assign', op, [targets], value) ('if', [(cond, block)...], else_block|None)
               ('for', var, lo, hi, block) ('while', cond, block) ('declare', id, Ty, count|None)
               ('return', e) ('break',) ('expr', e)
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput

from .types import Ty, literal_type, sized_type

GRAMMAR = Path(__file__).with_name("pcode.lark")


class PcodeSyntaxError(ValueError):
    def __init__(self, message: str, line: int, column: int):
        super().__init__(f"line {line}, column {column}: {message}")
        self.line, self.column = line, column


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(), parser="lalr", maybe_placeholders=True, propagate_positions=False, cache=True)


_CONTINUES = re.compile(r"(\|\||&&|[-+*/&|^=?:,<>!~(\[{])\s*$")


def preprocess(text: str) -> tuple[str, list[int]]:
    """(single-line program, map from output offset ranges to original line numbers)."""
    out: list[str] = []
    line_of: list[int] = []
    depth = 0
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.split("//", 1)[0].rstrip()
        for ch in line:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth = max(0, depth - 1)
        sep = " " if (depth > 0 or _CONTINUES.search(line)) else " ;"
        piece = line + sep
        out.append(piece)
        line_of.extend([lineno] * len(piece))
    return "".join(out), line_of


def parse(text: str):
    """Pseudocode text -> list of statements (raises PcodeSyntaxError)."""
    flat, line_of = preprocess(text)
    try:
        tree = _parser().parse(flat)
    except UnexpectedInput as exc:
        pos = getattr(exc, "pos_in_stream", None) or 0
        line = line_of[pos] if 0 <= pos < len(line_of) else (line_of[-1] if line_of else 1)
        start = pos
        while start > 0 and line_of[start - 1] == line:
            start -= 1
        got = flat[pos:pos + 12].strip() or "end of text"
        raise PcodeSyntaxError(f"unexpected {got!r}", line, pos - start + 1) from None
    return _ToAst().transform(tree)


def _num_suffix(text: str) -> tuple[str, str]:
    m = re.match(r"^(.*?)(ULL|LL|U|L)?$", text)
    assert m is not None  # the pattern matches every string
    return m.group(1), m.group(2) or ""


@v_args(inline=True)
class _ToAst(Transformer):
    def start(self, block):
        return block

    def block(self, *stmts):
        return [s for s in stmts if s is not None and not isinstance(s, Token)]

    def assign(self, *parts):
        exprs = parts[0::2]
        ops = [str(p) for p in parts[1::2]]
        if any(op != "=" for op in ops[:-1]):
            raise ValueError("compound assignment in a chain")
        return ("assign", ops[-1], list(exprs[:-1]), exprs[-1])

    def if_stmt(self, cond, block, *rest):
        arms = [(cond, block)]
        else_block = None
        for r in rest:
            if r is None:
                continue
            if r[0] == "elsif":
                arms.append((r[1], r[2]))
            else:
                else_block = r[1]
        return ("if", arms, else_block)

    def elsif_part(self, cond, block):
        return ("elsif", cond, block)

    def else_part(self, block):
        return ("else", block)

    def for_stmt(self, var, lo, hi, block):
        return ("for", str(var), lo, hi, block)

    def while_stmt(self, cond, block):
        return ("while", cond, block)

    def declare(self, name, ty, dim):
        return ("declare", str(name), sized_type(str(ty)), dim)

    def array_dim(self, n):
        return int(_num_suffix(str(n))[0])

    def return_stmt(self, e):
        return ("return", e)

    def break_stmt(self):
        return ("break",)

    def expr_stmt(self, e):
        return ("expr", e)

    def tern(self, c, a, b):
        return ("tern", c, a, b)

    def lor(self, a, b):
        return ("binop", "||", a, b)

    def land(self, a, b):
        return ("binop", "&&", a, b)

    def bor(self, a, b):
        return ("binop", "|", a, b)

    def bxor(self, a, b):
        return ("binop", "^", a, b)

    def band(self, a, b):
        return ("binop", "&", a, b)

    def eq(self, a, b):
        return ('binop', '==', a, b)

    def ne(self, a, b):
        return ('binop', '!=', a, b)

    def lg(self, a, b):
        return ('binop', '<>', a, b)

    def lt(self, a, b):
        return ('binop', '<', a, b)

    def gt(self, a, b):
        return ('binop', '>', a, b)

    def le(self, a, b):
        return ('binop', '<=', a, b)

    def ge(self, a, b):
        return ('binop', '>=', a, b)

    def shl(self, a, b):
        return ('binop', '<<', a, b)

    def shr(self, a, b):
        return ('binop', '>>', a, b)

    def add(self, a, b):
        return ('binop', '+', a, b)

    def sub(self, a, b):
        return ('binop', '-', a, b)

    def mul(self, a, b):
        return ('binop', '*', a, b)

    def div(self, a, b):
        return ('binop', '/', a, b)

    def mod(self, a, b):
        return ('binop', '%', a, b)

    def pow(self, a, b):
        return ('binop', '**', a, b)

    def neg(self, e):
        return ('unop', '-', e)

    def lnot(self, e):
        return ('unop', '!', e)

    def bnot(self, e):
        return ('unop', '~', e)

    def pos(self, e):
        return ('unop', '+', e)

    def field(self, e, name):
        return ("field", e, str(name))

    def index(self, e, i):
        return ("index", e, i)

    def slice(self, e, hi, lo):
        return ("slice", e, hi, lo)

    def pslice(self, e, lo, width):
        return ("pslice", e, lo, width)

    def call(self, f, *args):
        return ("call", f, [a for a in args if a is not None])

    def name(self, tok):
        return ("name", str(tok))

    def cast(self, ty, e):
        return ("cast", sized_type(str(ty)), e)

    def concat(self, *items):
        return ("concat", list(items))

    def lambda_(self, *parts):
        params = [str(p) for p in parts[:-1] if p is not None]
        return ("lambda", params, parts[-1])

    def string(self, tok):
        return ("string", str(tok))

    def hexnum(self, tok):
        body, suffix = _num_suffix(str(tok))
        return ("num", int(body, 16), literal_type(suffix, hexa=True), "hex")

    def intnum(self, tok):
        body, suffix = _num_suffix(str(tok))
        return ("num", int(body), literal_type(suffix))

    def floatnum(self, tok):
        text = str(tok)
        if text.endswith("F"):
            return ("num", float(text[:-1]), Ty("f", 32))
        return ("num", float(text), Ty("f", 64, soft=True))

    def sizednum(self, tok):
        width_text, value = str(tok).split("'", 1)
        width = int(width_text)
        neg = value.startswith("-")
        value = value.lstrip("-")
        if value.endswith("F") and "." in value:
            value = value[:-1]
        if "." in value:
            v = float(value)
            return ("num", -v if neg else v, Ty("f", width))
        body, _ = _num_suffix(value)
        v = int(body, 16) if body.startswith("0x") else int(body)
        return ("num", -v if neg else v, Ty("b", width))

    def number(self, n):
        return n
