"""The PTX front end: a whole .ptx module checked as ptxas reads it.

``check_module(text)`` (every result) and ``errors(text)`` (the count and the errors: what
``gpuisa ptx check --file`` prints) lex the text (lexer.chunks: statements over lines,
comments, scopes, labels, line-ended directives), check the module header (`.version`,
`.target`, `.address_size`), declarations, function headers and debug sections (directives.py),
keep the register declarations of each function and the module's symbols, and feed every
instruction statement to the instruction checker (check.check_instruction), then to the
checks of operands against declarations (operand_types.py: register types and sizes, literal
kinds, 64-bit addresses, vector elements; parameters read without `.param`).  Names an
instruction uses must be declared: registers in their function (any scope: one set a
function, a simplification), labels anywhere in their function, variables and functions
anywhere in the module, special registers from the fixed set (with `.x`… only on the vector
ones).  The names and the shared verdicts are worked out per function in bulk (see flush and
check_names): most of a file is plain instructions.

A text that does not start with `.version` is a fragment (a list of instructions, as in tests
and snippets): its instructions are checked alone, names are not resolved, and a `.version` or
`.target` line anywhere applies to the lines after it.

Every result carries its line and column (from 1); errors are one line.
"""

from itertools import repeat

from . import directives as D
from .check import check_instruction
from .lexer import LexError, Offsets, Position, blank_comments, chunks, first_char, first_non_ascii, run_offsets, where
from .operand_types import MEMORY, TYPED, memory_error, operand_error, vector_error

TYPE_CHECKING = False  # (scopes is imported at a function's first late or nested declaration: start-up)
if TYPE_CHECKING:
    from .scopes import Visibility

SREG_VECTOR = {"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid", "%nclusterid", "%cluster_ctaid",
               "%cluster_nctaid"}
SREG_SCALAR = {"%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%lanemask_eq", "%lanemask_le",
               "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%clock", "%clock_hi", "%clock64", "%globaltimer",
               "%globaltimer_lo", "%globaltimer_hi", "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size",
               "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
               "%reserved_smem_offset_0", "%reserved_smem_offset_1", "%current_graph_exec",
               "%is_explicit_cluster", "%cluster_ctarank", "%cluster_nctarank"}
SREG_SCALAR |= {f"%pm{i}" for i in range(8)} | {f"%pm{i}_64" for i in range(8)} | {f"%envreg{i}" for i in range(32)}
PREDEFINED = {"WARP_SZ", "_"}
SPECIAL = SREG_VECTOR | SREG_SCALAR | PREDEFINED
VECTOR_FIELDS = {".x", ".y", ".z", ".w"}
PART = 1024  # instructions checked together at most (flush: pass by pass over lists that fit the caches)
DIGITS = "0123456789"
SEPARATORS = str.maketrans(",[]{}()+-*/|!@<>&^~=:", " " * 21)  # operand punctuation: not in names
NO_DIGITS = str.maketrans("", "", "0123456789ABCDEF")  # and upper-case hex digits: 0f3F800000 -> 0f
VECTOR_ELEMENT = r"(%[\w$]+)\.[xyzwrgba]\b"  # (vector registers, a rare path: compiled on first use, re's cache)


def _result(error: str, kind: str = "directive") -> dict:
    return {"valid": False, "name": None, "form": None, "error": error, "min_target": None, "ptx_version": None,
            "kind": kind}


class Module:
    """One pass over a module's statements; ``results`` holds (offset, result) in text order."""

    def __init__(self, text: str, target: str | None = None, version: str | None = None):
        self.text = text
        self.target_override, self.version_override = target, version
        self.target, self.version = target, version
        self.results: list[tuple[int, dict]] = []
        self.strict = False
        self.depth = 0  # brace depth
        self.func_depth: int | None = None  # depth of the current function body, or None
        self.symbols: set = set()  # module-level names: variables, functions
        self.func_names: set = set()
        self.params: set = set()  # parameters of the current function  # labels, parameters and local variables of the current function
        self.module_pending: list[tuple[int, str]] = []
        self.protos: dict = {}  # functions declared without a body -> declared .extern
        self.defined: set = set()  # functions defined (with a body)
        self.relocatable = False  # ptxas -c: an .extern function may stay undefined
        self.seen: dict = {}
        self.batch: list[str] = []  # instructions read since the last flush (their texts)
        # where they are: [first batch index, offset, the run's raw texts (None: one statement), its offsets]
        self.batch_marks: list[list] = []
        self.flushed = False  # whether a part of the current function's instructions was checked already
        self.name_texts: list[str] = []  # operand texts of the current function's valid instructions
        self.final: dict = {}  # canonical statement -> verdict with operand typing, per function
        self.bad: set = set()  # statements found invalid in the current function
        self.vector_regs: set = set()  # vector registers (.reg .v4 .b16 %v) of the current function
        self.visibility: Visibility | None = None  # where the current function's late or nested registers are seen
        self.keep_valid = True  # keep valid instructions' results (check_module), not only errors
        self.regs: dict = {}  # registers declared in the current function (any of its scopes) -> type
        self.reg_ranges: dict = {}  # prefix -> (count, type)
        self.func_start = 0
        self.count = 0  # instructions checked
        self.code = ""
        self.header_done = 0  # 0: expect .version; 1: expect .target; 2: expect .address_size/others

    # ------------------------------------------------------------------ driver
    def run(self) -> "Module":
        text = self.text
        try:
            code = blank_comments(text)
        except LexError as exc:
            self.results.append((exc.offset, _result(exc.message, "syntax")))
            return self
        bad = first_non_ascii(text)
        if bad >= 0:  # ptxas 13 reads ASCII only, comments included (measured)
            self.results.append((bad, _result(f"non-ASCII character U+{ord(text[bad]):04X} (ptxas reads ASCII "
                                              "only, comments included)", "syntax")))
            code = "".join(c if ord(c) < 128 else " " for c in code)
        self.strict = code.lstrip().startswith(".version")
        self.code = code
        for off, stmt, end in chunks(code):
            if end == "run":  # plain instructions: (texts, raw texts) from the offset of the first
                if self.func_depth is not None:
                    self.batch_marks.append([len(self.batch), off, stmt[1], None])
                    self.batch += stmt[0]  # (multi-line ones are joined at the flush)
                    if len(self.batch) >= PART:  # (checked a part at a time: its lists stay in the caches)
                        self.flush()
                        self.flushed = True
                else:
                    for o, s in zip(run_offsets(off, stmt[1]), stmt[0]):
                        self.instruction(o, s)
            elif end == ";":
                c = stmt[:1]
                if c == "." or not c:
                    self.directive(off, stmt) if c else self.add_error(off, "an empty statement (a `;` alone)",
                                                                        "syntax")
                elif self.func_depth is not None:
                    self.batch_marks.append([len(self.batch), off, None, None])
                    self.batch.append(stmt)  # an instruction (multi-line ones are joined at the flush)
                else:
                    self.instruction(off, stmt)
            elif end == "line":
                self.line_directive(off, stmt)
            elif end == ":":
                self.label(off, stmt)
            elif end == "{":
                self.open(off, stmt)
            elif end == "}":
                if stmt:
                    self.missing_semicolon(off, stmt)
                self.close(off)
            elif end == "section":
                self.section(off, stmt)
            elif stmt:
                self.missing_semicolon(off, stmt)
        self.flush()
        if self.strict:
            self.check_names(self.func_start)
            if self.depth:
                self.results.append((len(text), _result("unexpected end of file: a `{` is not closed", "syntax")))
            self.resolve(self.module_pending)
        self.results.sort(key=lambda r: r[0])
        return self

    def section(self, off: int, stmt: str) -> None:
        bad = D.check_section(stmt, self.version)
        if bad:  # (the statement's body is the code's text after its `{`)
            body = self.code.find("{", off) + 1
            self.add_error(body + bad[0] - (stmt.index("{") + 1), bad[1])

    def add_error(self, off: int, err: str | None, kind: str = "directive") -> None:
        if err:
            self.results.append((off, _result(err, kind)))

    def missing_semicolon(self, off: int, stmt: str) -> None:
        first = stmt.split(None, 1)[0]
        self.results.append((off, _result(f"missing `;` after `{first[:40]}…`" if len(stmt) > len(first)
                                          else f"missing `;` after `{first[:40]}`", "syntax")))

    # ------------------------------------------------------------------ scopes
    def open(self, off: int, header: str) -> None:
        if header:
            err, name, params, _ = D.check_header(header)
            self.add_error(off, err)
            if self.depth:
                self.add_error(off, "a function cannot be defined inside another")
            if name:
                self.symbols.add(name)
                self.defined.add(name)
            self.func_names = set(params)
            self.params = set(params)
            self.flush()
            self.regs, self.reg_ranges, self.final, self.bad, self.vector_regs = {}, {}, {}, set(), set()
            self.visibility = None
            self.flushed = False
            self.func_start = off
            self.func_depth = self.depth + 1
            self.need_header(off)
        elif self.depth == 0 and self.strict:
            self.add_error(off, "a `{` block outside a function", "syntax")
        elif self.func_depth is not None and self.visibility is not None:
            self.visibility.open_block()
        self.depth += 1

    def close(self, off: int) -> None:
        if self.depth == 0:
            self.add_error(off, "`}` without a matching `{`", "syntax")
            return
        if self.depth == self.func_depth:
            self.func_depth = None
            self.flush()
            if self.strict:
                used = self.check_names(self.func_start)
                for at, msg in self.visibility.errors(self.code, self.func_start, off, used) if self.visibility else ():
                    self.results.append((at, _result(msg, "name")))
        elif self.func_depth is not None and self.depth > self.func_depth and self.visibility is not None:
            self.visibility.close_block(off)
        self.depth -= 1

    def label(self, off: int, name: str) -> None:
        if self.func_depth is None and self.strict:
            self.symbols.add(name)
        self.func_names.add(name)

    # ------------------------------------------------------------------ directives
    def need_header(self, off: int) -> None:
        if self.strict and self.header_done < 2:
            self.add_error(off, "`.version` and `.target` must come first" if self.header_done == 0
                           else "`.target` must follow `.version`")
            self.header_done = 2

    def line_directive(self, off: int, stmt: str) -> None:
        word = stmt.split(None, 1)[0]
        if word == ".version":
            if self.strict and self.header_done:
                self.add_error(off, "a second `.version`")
                return
            err, v = D.check_version(stmt)
            self.add_error(off, err)
            if self.version_override is None and v:
                self.flush()
                self.version = v
                self.seen, self.final = {}, {}
            self.header_done = max(self.header_done, 1)
        elif word == ".target":
            if self.strict and self.header_done != 1:
                self.add_error(off, "`.target` must follow `.version`" if self.header_done == 0 else "a second `.target`")
            err, t = D.check_target(stmt, self.version)
            self.add_error(off, err)
            if self.target_override is None and t:
                self.flush()
                self.target = t
                self.seen, self.final = {}, {}
            self.header_done = 2
        elif word == ".address_size":
            self.add_error(off, D.check_address_size(stmt))
        elif word == ".loc":
            self.add_error(off, D.check_loc(stmt))
        elif word == ".file":
            self.add_error(off, D.check_file_directive(stmt))

    def directive(self, off: int, stmt: str) -> None:
        if stmt[:4] == ".reg":  # most directives: register declarations, repeated in inline-asm blocks
            hit = _REG_DECLS.get(stmt)
            if hit is None:
                hit = _REG_DECLS[stmt] = _reg_decl(stmt)
            err, names, rtype, vector = hit
            if err is None:
                self.registers(off, names, rtype, vector)
                return
        word = stmt.split(None, 1)[0].split("(")[0]
        if word == ".pragma":
            if not D.pragma_strings(stmt):
                self.add_error(off, '`.pragma` takes "strings"')
            else:
                self.add_error(off, D.pragma_error(stmt, self.version))
            return
        if word in (".callprototype", ".calltargets", ".branchtargets"):
            if self.func_depth is None and self.strict:
                self.add_error(off, f"`{word}` outside a function")
            return
        if word in (".entry", ".func") or ".func" in stmt.split("(")[0].split() or ".entry" in stmt.split("(")[0].split():
            err, name, _, _ = D.check_header(stmt)  # a declaration (prototype) without a body
            self.add_error(off, err)
            if name:
                self.symbols.add(name)
                self.protos[name] = ".extern" in stmt.split("(")[0].split()
            self.need_header(off)
            return
        if word in (".alias",):
            return
        err, names, space = D.check_decl(stmt)
        self.add_error(off, err)
        if err is None and self.strict and self.depth == 0:
            self.need_header(off)
        if space == ".reg":
            _, names, rtype, vector = _reg_decl(stmt)
            self.registers(off, names, rtype, vector)
        elif self.func_depth is None:
            self.symbols.update(n for n, _ in names)
        else:
            self.func_names.update(n for n, _ in names)
            if space == ".param":
                self.params.update(n for n, _ in names)

    def registers(self, off: int, names: list, rtype: str | None, vector: bool) -> None:
        """Declare registers of the current function: names with a range count or None, their type."""
        if self.func_depth is None:
            if self.strict:
                self.add_error(off, ".reg declarations are only allowed inside a function")
            return
        if vector:
            self.vector_regs.update(n for n, _ in names)
        nested, late = self.depth > self.func_depth, bool(self.batch) or self.flushed
        if self.visibility is None and (nested or late):  # (those before: all at the function's top)
            from .scopes import Visibility

            self.visibility = Visibility.begun(self.regs, self.reg_ranges, self.depth - self.func_depth)
        for name, count in names:
            if self.visibility is not None:
                self.visibility.declare(name, count, off, nested, late)
            if count is None:
                self.regs[name] = rtype
            else:
                self.reg_ranges[name] = (max(count, self.reg_ranges.get(name, (0,))[0]), rtype)

    # ------------------------------------------------------------------ instructions
    def instruction(self, off: int, stmt: str) -> None:
        """An instruction outside any function (inside one, run() adds it to the batch itself)."""
        self.batch_marks.append([len(self.batch), off, None, None])
        self.batch.append(stmt)
        if self.strict:
            self.add_error(off, "an instruction outside a function", "syntax")

    def flush(self) -> None:
        """Check the instructions read since the last flush.

        Statements that differ only in the digits of their operands (register numbers, immediates,
        upper-case hex digits of float literals) share a verdict when one of them is valid, unless a
        digit can matter (``_exact``): an operand selector (`.b0`, `%tid.x`), a guard, or a head with a
        fixed immediate set (`cp.async`'s cp-size).  The statements are split and keyed (one ``str.translate``
        over all operand texts) by C-level calls; the first statement of each key is checked in Python,
        then the others of the keys whose verdict is not shared.  The shared verdict includes the operand
        typing, so it is kept per function (its registers)."""
        stmts, marks = self.batch, self.batch_marks
        if not stmts:
            return
        self.batch, self.batch_marks = [], []
        offs = Offsets(marks)
        whole = "".join(stmts)  # (one C-level look for line breaks and guards)
        if "\n" in whole:  # a statement over lines: its blanks made one space
            stmts = [" ".join(s.split()) if "\n" in s else s for s in stmts]
        split = list(map(str.split, stmts, repeat(None), repeat(1)))
        any(map(list.append, split, repeat("")))  # [opcode, operands, ""] or [opcode, ""]
        columns = zip(*split)  # (the lists' first items, their second items, ...)
        opcodes, operands = list(next(columns)), list(next(columns))
        joined = "\n".join(operands)
        # the shared key: the opcode and the operands without digits (C-level, no Python loop)
        keys = list(zip(opcodes, joined.translate(NO_DIGITS).split("\n")))
        first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))  # key -> its first statement
        final = self.final
        own: set = set()  # keys whose statements are checked one by one
        all_valid = True
        for key, i in first.items():  # (in any order: a verdict does not depend on those before it)
            if key in final:
                continue
            r = self.verdict(stmts[i], opcodes[i], operands[i])
            if r["valid"] and not _exact(opcodes[i], operands[i]):
                final[key] = r  # only a valid verdict of a statement whose digits cannot matter
                continue
            own.add(key)
            all_valid = self.record(offs, i, stmts[i], r) and all_valid
        if self.keep_valid:
            self.results += [(o, r) for o, r in zip(offs.all(), map(final.get, keys)) if r is not None]
        all_valid = (not own or self.check_own(own, keys, first, stmts, opcodes, operands, offs)) and all_valid
        self.count += len(stmts)
        if self.strict:
            self.names_of(all_valid, whole, split, opcodes, operands, joined, stmts)

    def record(self, offs: Offsets, i: int, stmt: str, r: dict) -> bool:
        """Keep the verdict of the batch's statement ``i`` (valid: with ``keep_valid``); whether it is valid."""
        if r["valid"]:
            if self.keep_valid:
                self.results.append((offs[i], r))
            return True
        self.report(offs[i], stmt, r)
        return False

    def check_own(self, own: set, keys: list, first: dict, stmts: list, opcodes: list, operands: list,
                  offs: Offsets) -> bool:
        """The statements of the keys in ``own`` after their first, in text order, each with its own
        verdict until one is shared (as ``flush``); whether all are valid."""
        final, all_valid = self.final, True
        at: list[int] = []
        where(list(map(own.__contains__, keys)), True, at)
        for i in at:
            key = keys[i]
            if first[key] == i:
                continue
            r = final.get(key)
            if r is None:
                r = self.verdict(stmts[i], opcodes[i], operands[i])
                if r["valid"] and not _exact(opcodes[i], operands[i]):
                    final[key] = r
            all_valid = self.record(offs, i, stmts[i], r) and all_valid
        return all_valid

    def names_of(self, all_valid: bool, whole: str, split: list, opcodes: list, operands: list, joined: str,
                 stmts: list) -> None:
        """The operand texts (and guards) of the valid instructions, for ``check_names``."""
        if all_valid and "@" not in whole:  # (no guard)
            self.name_texts.append(joined)
        elif all_valid:  # only the guarded ones' names made again: the guard and the operands, not the opcode
            guarded: list[int] = []
            where(list(map(str.startswith, opcodes, repeat("@"))), True, guarded)
            for i in guarded:
                operands[i] = _name_text(split[i]) if len(split[i]) > 2 else ""
            self.name_texts.append("\n".join(operands))
        else:
            bad = self.bad
            self.name_texts += [_name_text(p) for s, p in zip(stmts, split) if len(p) > 2 and s not in bad]

    def verdict(self, stmt: str, opcode: str, ops: str) -> dict:
        """The instruction checker's result, then (whole modules) the operand checks of the front end."""
        if self.vector_regs and "." in ops:  # an element of a vector register (%v.x) is a plain operand
            import re  # (functions with vector registers only: re is not imported at start-up)

            stmt = re.sub(VECTOR_ELEMENT, lambda m: m.group(1) if m.group(1) in self.vector_regs else m.group(), stmt)
        r = self.seen.get(stmt)
        if r is None:
            r = self.seen[stmt] = dict(check_instruction(stmt, self.target, self.version), kind="instruction")
        if not r["valid"]:
            self.bad.add(stmt)
            return r
        if not self.strict:
            return r
        name = r["name"]
        err = None
        if "[" in ops and opcode[:2] in ("ld", "st") and ".param" not in opcode:
            err = self.param_access(opcode, ops)
        if err is None and name in MEMORY:
            err = memory_error(name, opcode, ops, self.reg_type)
        if err is None and ("{" in ops or "|" in ops):
            err = vector_error(ops, self.reg_type, opcode)
        if err is None and name in TYPED:
            err = operand_error(name, opcode, r["_form"], ops, self.reg_type)
        if err:
            self.bad.add(stmt)
            r = dict(r, valid=False, error=err, kind="type")
        return r

    def report(self, off: int, stmt: str, r: dict) -> None:
        """An invalid instruction: at the part its error names, or a missing `;` where a statement
        spread over lines is two (frontend_report.place)."""
        from .frontend_report import place

        at, split = place(self.code, self.text, off, stmt, r["error"], self.func_names)
        self.results.append((at, _result("missing `;` at the end of this line (the next line starts another "
                                         "statement)", "syntax") if split else r))

    def check_names(self, start: int) -> set:
        """The names the function's instructions use, read at its end: all its operand texts at once,
        separators made blanks by ``str.translate`` and split, then set operations in C; numbers and
        `name.field` tokens are dropped from what is left.  The set returned holds every name used."""
        texts, self.name_texts = self.name_texts, []
        if not texts:
            return set()
        names = set("\n".join(texts).translate(SEPARATORS).split())
        ranged = D.range_names(self.reg_ranges)  # (a range's names: slices of digit tables, no int -> str each)
        rest = names.difference(self.regs.keys(), SPECIAL, ranged)
        pairs = [tuple(t.split(".", 1)) for t in rest if "." in t and t[0] not in DIGITS]  # (no register has a `.`)
        bases = {n for n, _ in pairs} - names
        names |= bases
        rest |= bases.difference(self.regs.keys(), SPECIAL, ranged) if bases else bases
        rest = {t for t in rest if t[:1] not in DIGITS and "." not in t}
        for name, field in sorted(pairs):
            field = "." + field
            if name in SREG_SCALAR:
                self.name_error(start, name + field, f"`{name}` has no field `{field}`")
            elif name in SREG_VECTOR and field not in VECTOR_FIELDS:
                self.name_error(start, name + field, f"`{field}` is not a field of `{name}`; allowed: .x, .y, .z, .w")
        for name in sorted(rest):
            if name[0] == "%":
                self.name_error(start, name, f"`{name}` is not a declared register or a special register")
            elif name not in self.func_names:
                self.module_pending.append((self.first_use(start, name), name))
        return names

    def param_access(self, opcode: str, ops: str) -> str | None:
        """A parameter of the current function read or written without `.param`."""
        inner = ops[ops.index("[") + 1:].split("]", 1)[0].split("+", 1)[0].strip()
        if inner in self.params:
            return f"`{inner}` is a parameter: {opcode.split('.', 1)[0]} it with `.param` ({opcode} names another space)"
        return None

    def reg_type(self, name: str) -> str | None:
        """The declared type of a register of the current function (".b32"), or None."""
        t = self.regs.get(name)
        if t is None:
            stem = name.rstrip(DIGITS)
            if stem != name:
                hit = self.reg_ranges.get(stem)
                if hit and int(name[len(stem):]) < hit[0]:
                    t = hit[1]
        return t

    def first_use(self, start: int, token: str) -> int:
        """Offset of a name's first use in the function's code (from ``start``)."""
        from .frontend_report import first_use

        return first_use(self.code, start, token)

    def name_error(self, start: int, token: str, msg: str) -> None:
        self.results.append((self.first_use(start, token), _result(msg, "name")))

    def resolve(self, pending: list[tuple[int, str]]) -> None:
        unresolved = {n for n in self.protos if n not in self.defined and n not in SYSTEM_FUNCS
                      and not (self.relocatable and self.protos[n])}
        for at, name in pending:
            if name not in self.symbols:
                self.results.append((at, _result(f"`{name}` is not declared (no variable, function, label "
                                                 "or parameter of that name)", "name")))
            elif name in unresolved:  # ptxas: fatal, whole-program (an .extern one: not with ptxas -c)
                unresolved.discard(name)
                extern = " (.extern: ptxas -c, relocatable code, accepts it; --relocatable)" if self.protos[name] else ""
                self.results.append((at, _result(f"function `{name}` is used but not defined in this file{extern}",
                                                 "name")))


_REG_DECLS: dict = {}  # .reg statement -> _reg_decl(statement)
SYSTEM_FUNCS = {"vprintf", "malloc", "free", "__assertfail"}  # ptxas provides them (measured)


def _reg_decl(stmt: str) -> tuple:
    """(error, names, type, whether vector registers) of a `.reg` declaration (vectors: not typed)."""
    err, names, _ = D.check_decl(stmt)
    words = stmt.split()
    vector = words[1:2] in ([".v2"], [".v4"], [".v8"])
    rtype = None if vector else next((w for w in words if w in D.TYPES), None)
    return err, names, rtype, vector


def _name_text(parts: list) -> str:
    """The names part of a split statement: its operands, and the guard of a guarded one."""
    if parts[0][0] != "@":
        return parts[1]
    rest = parts[1].split(None, 1)
    return parts[0] + " " + (rest[1] if len(rest) > 1 else "")


_EXACT: dict = {}
_EXACT_OPCODE: dict = {}


def _exact(opcode: str, ops: str) -> bool:
    """Whether a digit of the statement can matter to its verdict: a guard, an operand selector or
    field (`.b0`, `%tid.x`), or a head with a fixed immediate set."""
    if opcode[0] == "@" or "." in ops:
        return True
    hit = _EXACT_OPCODE.get(opcode)
    if hit is None:
        hit = _EXACT_OPCODE[opcode] = _exact_immediates(opcode)
    return hit


def _exact_immediates(opcode: str) -> bool:
    """Whether some form of the opcode's head takes only listed immediates in an operand."""
    head = opcode.split(".", 1)[0]
    hit = _EXACT.get(head)
    if hit is None:
        from . import catalog

        hit = _EXACT[head] = catalog.head_forms(head).exact
    return hit


def check_module(text: str, target: str | None = None, version: str | None = None) -> list[tuple[int, int, dict]]:
    """(line, column, result) of every instruction and every other error of a .ptx text, in text
    order; results are shared between identical statements (copy what you change)."""
    mod = Module(text, target, version).run()
    pos = Position(text)
    code = mod.code or text
    return [(*pos.line_col(first_char(code, off)), r) for off, r in mod.results]


def errors(text: str, target: str | None = None, version: str | None = None,
           relocatable: bool = False) -> tuple[int, list[dict]]:
    """(number of instructions, [error result with line and col]): positions are worked out for
    the errors only; ``relocatable``: as ``ptxas -c`` (.extern functions may stay undefined)."""
    mod = Module(text, target, version)
    mod.keep_valid = False
    mod.relocatable = relocatable
    mod.run()
    pos = Position(text)
    out = []
    code = mod.code or text
    for off, r in mod.results:
        if not r["valid"]:
            line, col = pos.line_col(first_char(code, off))
            out.append({**r, "line": line, "col": col})
    return mod.count, out


def check_file(text: str, target: str | None = None, version: str | None = None) -> list[dict]:
    """Every instruction of a .ptx text, and every other error (directives, names, syntax), with
    its line and column (frontend.check_module); .version/.target directives apply when no override
    is given."""
    return [{**r, "line": line, "col": col} for line, col, r in check_module(text, target, version)]
