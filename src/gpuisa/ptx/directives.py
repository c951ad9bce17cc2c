"""PTX directives as ptxas 13 reads them: module header, declarations, function headers, debug data.

Each ``check_*`` function takes one statement's text and returns an error (one line) or None, and
what it declares.  Facts here were measured with ptxas 13.0 (``ptxas -arch=sm_XX`` on small files):
the newest ``.version`` it reads, the ``.target`` names it knows and the ISA version each needs,
that 32-bit addressing is refused, that a label difference in a ``.section`` needs ISA 7.5.
"""

MAX_VERSION = (9, 0)
# .target -> the oldest .version ptxas 13 accepts it with (measured)
TARGET_MIN_VERSION = {
    "sm_10": "3.0", "sm_11": "3.0", "sm_12": "3.0", "sm_13": "3.0", "sm_20": "3.0", "sm_21": "3.0",
    "sm_30": "3.0", "sm_32": "4.0", "sm_35": "3.1", "sm_37": "4.1", "sm_50": "4.0", "sm_52": "4.1",
    "sm_53": "4.2", "sm_60": "5.0", "sm_61": "5.0", "sm_62": "5.0", "sm_70": "6.0", "sm_72": "6.1",
    "sm_75": "6.3", "sm_80": "7.0", "sm_86": "7.1", "sm_87": "7.4", "sm_88": "7.4", "sm_89": "7.8",
    "sm_90": "7.8", "sm_90a": "8.0", "sm_100": "8.6", "sm_100a": "8.6", "sm_100f": "8.8", "sm_103": "8.8",
    "sm_103a": "8.8", "sm_103f": "8.8", "sm_110": "9.0", "sm_110a": "9.0", "sm_110f": "9.0", "sm_120": "8.7",
    "sm_120a": "8.7", "sm_120f": "8.8", "sm_121": "8.8", "sm_121a": "8.8", "sm_121f": "8.8",
}
TARGET_OPTIONS = {"texmode_unified", "texmode_independent", "debug", "map_f64_to_f32"}
TYPES = {".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64",
         ".f16", ".f16x2", ".f32", ".f64", ".bf16", ".bf16x2", ".pred", ".e4m3", ".e5m2", ".tf32"}
OPAQUE = {".texref", ".samplerref", ".surfref"}
SPACES = {".reg", ".param", ".local", ".shared", ".global", ".const", ".tex"}
LINKING = {".visible", ".extern", ".weak", ".common"}
PERF = {".maxntid": 3, ".reqntid": 3, ".minnctapersm": 1, ".maxnctapersm": 1, ".maxnreg": 1,
        ".reqnctapercluster": 3, ".maxclusterrank": 1, ".explicitcluster": 0, ".noreturn": 0,
        ".blocksareclusters": 0, ".abi_preserve": 1, ".abi_preserve_control": 1}
NAME = r"[A-Za-z_$%][\w$]*"
# what decl_item reads (a pattern for the tests, not compiled here: start-up)
DECL_PATTERN = r"(?P<name>" + NAME + r")\s*(?:<\s*(?P<range>\d+)\s*>|(?P<dims>(?:\[\s*\w*\s*\]\s*)+))?\s*$"
# patterns used once a file or for debug sections: compiled on first use (re's cache), not at start-up
VERSION = r"^\d+\.\d+$"
SECTION_ITEM = r"^\.b(8|16|32|64)\s+(.+)$"
LABEL_DIFF = NAME + r"\s*-\s*" + NAME


NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$%")
FUNC_NAME_START = NAME_START - {"%"}
FUNC_PREFIXES = (".visible", ".extern", ".weak")


class Groups(dict):
    """The parts of a parse by name (or number), read as a regular expression's match: ``m.group(key)``."""

    def group(self, key):
        return self[key]


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _name_end(text: str, at: int) -> int:
    """The end of the run of ``[\\w$]`` characters from ``at``."""
    while at < len(text) and (text[at].isalnum() or text[at] == "_" or text[at] == "$"):
        at += 1
    return at


def decl_item(item: str) -> Groups | None:
    r"""One declared name (``%r<4>``, ``buf[16][2]``, ``x``): its ``name`` and ``range`` (digits or None);
    ``DECL_PATTERN`` matched at the start, by ``str`` methods (start-up: no pattern to compile)."""
    if not item or item[0] not in NAME_START:
        return None
    j = _name_end(item, 1)
    rest = item[j:].lstrip()
    out = Groups(name=item[:j], range=None, dims=None)
    if rest[:1] == "<":
        body, gt, after = rest[1:].partition(">")
        if not (gt and body.strip().isdecimal() and not after.strip()):
            return None
        out["range"] = body.strip()
    elif rest[:1] == "[":
        out["dims"] = rest.rstrip()
        while rest:
            inner, close, after = rest[1:].partition("]")
            if rest[0] != "[" or not close or not all(c.isalnum() or c == "_" for c in inner.strip()):
                return None
            rest = after.lstrip()
    elif rest:
        return None
    return out


def func_header(text: str) -> Groups | None:
    r"""The parts of an `.entry`/`.func` header: 1 (linking words), 2 (``entry``/``func``), ``ret``,
    ``name``, ``params`` (the texts in parentheses, or None) and ``rest`` (performance directives);
    ``FUNC_PATTERN`` matched, by ``str`` methods (start-up: no pattern to compile)."""
    pos, n = 0, len(text)
    while True:
        word = next((w for w in FUNC_PREFIXES if text.startswith(w, pos) and text[pos + len(w):pos + len(w) + 1].isspace()),
                    None)
        if word is None:
            break
        pos = _skip_space(text, pos + len(word))
    kind = "entry" if text.startswith(".entry", pos) else "func" if text.startswith(".func", pos) else None
    if kind is None:
        return None
    at = _skip_space(text, pos + len(kind) + 1)
    ret = None
    if text.startswith("(", at):
        close = text.find(")", at)
        if close < 0 or "(" in text[at + 1:close]:
            return None  # (a name cannot start at a `(`)
        ret, at = text[at + 1:close], _skip_space(text, close + 1)
    if at >= n or text[at] not in FUNC_NAME_START:
        return None
    end = _name_end(text, at + 1)
    params, rest = None, _skip_space(text, end)
    if text.startswith("(", rest):
        close = text.find(")", rest)
        if close >= 0 and "(" not in text[rest + 1:close]:
            params, rest = text[rest + 1:close], close + 1
    return Groups({1: text[:pos], 2: kind, "ret": ret, "name": text[at:end], "params": params, "rest": text[rest:]})


def _is_version(v: str) -> bool:
    r"""``^\d+\.\d+$`` (X.Y)."""
    major, dot, minor = v.partition(".")
    return bool(dot) and major.isdecimal() and minor.isdecimal()


def vkey(v: str) -> tuple:
    try:
        return tuple(int(x) for x in v.split("."))
    except ValueError:
        return (0,)


def check_version(text: str) -> tuple[str | None, str | None]:
    """(error, version) of a `.version X.Y` line."""
    parts = text.split()
    if len(parts) != 2 or not _is_version(parts[1]):
        return "`.version` needs a version X.Y", None
    if vkey(parts[1]) > MAX_VERSION:
        return (f"unsupported .version {parts[1]}; ptxas 13 reads up to "
                f"{MAX_VERSION[0]}.{MAX_VERSION[1]}"), parts[1]
    return None, parts[1]


def check_target(text: str, version: str | None) -> tuple[str | None, str | None]:
    """(error, target) of a `.target sm_NN[, option…]` line."""
    items = [x.strip() for x in text[len(".target"):].split(",")]
    if not items or not items[0]:
        return "`.target` needs a target name (sm_NN)", None
    target = items[0].replace("compute_", "sm_")
    if target not in TARGET_MIN_VERSION:
        return f"unsupported .target `{items[0]}`; known: sm_75 … sm_121f (and older sm_NN)", None
    for opt in items[1:]:
        if opt not in TARGET_OPTIONS:
            return f"`{opt}` is not a .target option; allowed: {', '.join(sorted(TARGET_OPTIONS))}", target
    need = TARGET_MIN_VERSION[target]
    if version and vkey(version) < vkey(need):
        return f".target {target} needs PTX ISA .version {need} or later (got {version})", target
    return None, target


def check_address_size(text: str) -> str | None:
    parts = text.split()
    if len(parts) != 2 or parts[1] not in ("32", "64"):
        return "`.address_size` takes 32 or 64"
    if parts[1] == "32":
        return "`.address_size 32`: 32-bit addressing is not supported by ptxas 13 (only 64)"
    return None


def split_decl(text: str) -> tuple[list[str], str]:
    """(directive words, with the number after `.align`; the names text) of a declaration."""
    words = []
    rest = text
    while rest.startswith("."):
        end = 1  # r"\.[\w:]+"
        while end < len(rest) and (rest[end].isalnum() or rest[end] in "_:"):
            end += 1
        if end == 1:
            break
        words.append(rest[:end])
        rest = rest[end:].lstrip()
        if words[-1] == ".align":
            end = 0  # r"\d+"
            while end < len(rest) and rest[end].isdecimal():
                end += 1
            words.append(rest[:end])
            rest = rest[end:].lstrip()
    return words, rest


def check_decl(text: str) -> tuple[str | None, list[tuple[str, int | None]], str | None]:
    """(error, [(name, register range or None)], state space) of a variable declaration statement."""
    init = None
    if "=" in text:
        text, init = text.split("=", 1)
    words, names = split_decl(text.strip())
    space = next((w for w in words if w in SPACES), None)
    types = [w for w in words if w in TYPES or w in OPAQUE]
    i = 0
    while i < len(words):
        w = words[i]
        if w == ".align":
            a = words[i + 1] if i + 1 < len(words) else ""
            if not a.isdigit() or int(a) & (int(a) - 1) or int(a) == 0:
                return f"`.align {a}`: the alignment must be a power of two", [], space
            i += 2
            continue
        if not (w in SPACES or w in LINKING or w in TYPES or w in OPAQUE or w in (".v2", ".v4", ".v8", ".ptr")
                or w in (".global", ".shared", ".const", ".local") or w.startswith(".shared::")):
            return f"`{w}` is not valid in a declaration", [], space
        i += 1
    if space is None:
        return "a declaration needs a state space (.reg, .param, .local, .shared, .global, .const)", [], None
    if len(types) != 1:
        return (f"a declaration needs one type; got {' '.join(types)}" if types
                else f"missing type in a {space} declaration"), [], space
    if init is not None and space not in (".global", ".const"):
        return f"only .global and .const variables take an initializer (not {space})", [], space
    if init is not None and init.count("{") != init.count("}"):
        return "unbalanced braces in the initializer", [], space
    out: list[tuple[str, int | None]] = []
    for item in names.split(","):
        m = decl_item(item.strip())
        if not m:
            return f"`{item.strip()}` is not a variable name", out, space
        if m.group("range") and space != ".reg":
            return f"`{item.strip()}`: a parameterized name <N> is only for .reg", out, space
        out.append((m.group("name"), int(m.group("range")) if m.group("range") else None))
    return None, out, space


# what func_header reads (a pattern for the tests, not compiled here: start-up)
FUNC_PATTERN = (r"^((?:\.(?:visible|extern|weak)\s+)*)\.(entry|func)\s*(?:\((?P<ret>[^()]*)\))?\s*"
                r"(?P<name>[A-Za-z_$][\w$]*)\s*(?:\((?P<params>[^()]*)\))?(?P<rest>[\s\S]*)$")


def check_header(text: str) -> tuple[str | None, str | None, list[str], str]:
    """(error, function name, parameter names, kind) of an `.entry`/`.func` header."""
    m = func_header(text)
    if not m:
        return "malformed function header", None, [], ""
    kind = m.group(2)
    names: list[str] = []
    for group in ("ret", "params"):
        body = m.group(group)
        if not body or not body.strip():
            continue
        if group == "ret" and kind == "entry":
            return "an .entry has no return parameters", m.group("name"), names, kind
        for p in body.split(","):
            err, declared, space = check_decl(" ".join(p.split()))
            if err:
                return f"parameter `{' '.join(p.split())}`: {err}", m.group("name"), names, kind
            if space not in (".param", ".reg"):
                return f"parameter `{' '.join(p.split())}` must be .param or .reg", m.group("name"), names, kind
            names += [n for n, _ in declared]
    rest = m.group("rest").split()
    i = 0
    while i < len(rest):
        w = rest[i].rstrip(",")
        if w not in PERF:
            return f"`{w}` is not a performance directive", m.group("name"), names, kind
        i += 1
        while i < len(rest) and (rest[i][:1].isdigit() or rest[i] == ","):
            i += 1
    return None, m.group("name"), names, kind


def check_section(text: str, version: str | None) -> tuple[int, str] | None:
    """A `.section name { items }` body: `.bN value, …` and labels (a label needs PTX ISA 7.0, a
    label difference 7.5: measured); (offset in ``text`` of the item, error) or None."""
    import re  # (debug sections only: not at start-up)

    at = text.index("{") + 1
    for line in text[at:text.rindex("}")].split("\n"):
        s = line.strip()
        pos, at = at + len(line) - len(line.lstrip()), at + len(line) + 1
        if not s:
            continue
        if s.endswith(":"):
            if version and vkey(version) < (7, 0):
                return pos, f"a label in .section needs PTX ISA .version 7.0 or later (got {version})"
            continue
        m = re.match(SECTION_ITEM, s)
        if not m:
            return pos, f"`{s[:40]}` is not a .section item (.b8/.b16/.b32/.b64 values or a label)"
        if version and vkey(version) < (7, 5) and re.search(LABEL_DIFF, m.group(2)):
            return pos, f"a label difference in .section needs PTX ISA .version 7.5 or later (got {version})"
    return None


PRAGMA_VERSION = {"used_bytes_mask": (8, 3), "enable_smem_spilling": (8, 7), "frequency": (9, 0)}  # measured


def pragma_error(stmt: str, version: str | None) -> str | None:
    """A `.pragma` ptxas knows that the file's PTX ISA version is too old for (others are ignored)."""
    for word, need in PRAGMA_VERSION.items():
        if f'"{word}' in stmt and version and vkey(version) < need:
            return f'`.pragma "{word}"` needs PTX ISA .version {need[0]}.{need[1]} or later (got {version})'
    return None


def pragma_strings(stmt: str) -> bool:
    r"""Whether a `.pragma` takes "strings": ``^\.pragma\s+"[^"]*"(\s*,\s*"[^"]*")*$``, by ``str`` methods."""
    rest = stmt[len(".pragma"):]
    if not rest[:1].isspace():
        return False
    rest = rest.lstrip()
    while rest[:1] == '"':
        close = rest.find('"', 1)
        if close < 0:
            return False
        rest = rest[close + 1:]
        if rest in ("", "\n"):
            return True
        rest = rest.lstrip()
        if rest[:1] != ",":
            return False
        rest = rest[1:].lstrip()
    return False


def check_loc(text: str) -> str | None:
    parts = text.replace(",", " ").split()
    if len(parts) < 4 or not all(p.isdigit() for p in parts[1:4]):
        return "`.loc` takes file, line and column numbers"
    return None


def check_file_directive(text: str) -> str | None:
    parts = text.split(None, 2)
    if len(parts) < 3 or not parts[1].isdigit() or not parts[2].startswith('"'):
        return '`.file` takes a number and a "file name"'
    return None


_DIGITS_K = ["0 1 2 3 4 5 6 7 8 9 "]  # [k-1]: every k-digit string (leading zeros too) in order, each one blank-ended


def _with_lead(d: str, k: int) -> str:
    """Every (k+1)-digit string that starts with the digit ``d``, in order, each one blank-ended."""
    while len(_DIGITS_K) < k:
        _DIGITS_K.append("".join(_with_lead(c, len(_DIGITS_K)) for c in "0123456789"))
    return (d + _DIGITS_K[k - 1].replace(" ", " " + d))[:-1]


def _numbers(n: int) -> str:
    """The decimal numbers 0 .. n-1, each followed by a blank, from slices of digit tables (the k-digit
    numbers from 10**(k-1) on, k+1 characters each): no int -> str per number.  Numbers of 5 digits and
    more are formatted one by one (a table of them would be 600 kB)."""
    parts, lo = [_DIGITS_K[0][:2 * min(n, 10)]], 10
    for k in (2, 3, 4):
        if lo >= n:
            break
        hi = min(n, 10 ** k)
        for d in range(lo // 10 ** (k - 1), (hi - 1) // 10 ** (k - 1) + 1):  # (the lead digits needed)
            start = d * 10 ** (k - 1)
            parts.append(_with_lead(str(d), k - 1)[(max(lo, start) - start) * (k + 1):(hi - start) * (k + 1)])
        lo = hi
    if lo < n:
        parts.append("%d " * (n - lo) % tuple(range(lo, n)))
    return "".join(parts)


def range_names(ranges: dict) -> list[str]:
    """Every name the `.reg` ranges declare (``%r<3>``: %r0 %r1 %r2), from ``ranges``: prefix -> (count, type)."""
    return "".join(p + _numbers(n)[:-1].replace(" ", " " + p) + " " for p, (n, _) in ranges.items() if n > 0).split()
