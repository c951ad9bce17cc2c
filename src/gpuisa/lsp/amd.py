"""AMDGPU assembly (LLVM's syntax, as llc/clang emit it): target, instructions, labels, problems.

Target: ``.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"`` in the file, else a first-line comment
``; arch: rdna3`` (optionally ``wave64``), else the server's setting (``--arch`` or the
``arch`` initialization option).  Every instruction line is assembled by gpuisa's encoder
(``gpuisa.codec.encoder``); one that does not assemble gets the encoder's reason, ranged on the
token it names.  Branch targets are resolved to SIMM16 offsets where every instruction in between
has a known size.
"""

from __future__ import annotations

import re

from .. import archs
from .model import LABEL_DEF, Analysis, Inst, Label, Problem, Symbol, find_token

TARGET_RE = re.compile(r'^\s*\.amdgcn_target\s+"[^"]*?--(gfx[0-9a-z]+)')
ARCH_COMMENT = re.compile(r"^\s*(?:;|//|#)\s*arch\s*[:=]\s*([\w.]+)(.*)$", re.I)
BLOCKS = {".amdgpu_metadata": ".end_amdgpu_metadata", ".amdhsa_kernel": ".end_amdhsa_kernel",
          ".amd_kernel_code_t": ".end_amd_kernel_code_t", ".amdgpu_pal_metadata": ".end_amdgpu_pal_metadata"}
BRANCH = re.compile(r"^(s_(?:branch|cbranch_\w+))\s+([A-Za-z_.$][\w.$]*)\s*$")
SYMREF = re.compile(r"(?<![\w.$])([A-Za-z_.$][\w.$]*@[\w@]+(?:[+-]\d+)?)")
ALIGN = (".p2align", ".align", ".balign")
UNSUPPORTED = "not supported by the encoder yet"
INTERNAL = "gpuisa's encoder failed on this line"


def strip_comment(line: str) -> tuple[str, int]:
    """(code, its end column) without a ';' or '//' comment."""
    cut = len(line)
    for mark in (";", "//"):
        i = line.find(mark)
        if 0 <= i < cut:
            cut = i
    return line[:cut], len(line[:cut].rstrip())


def detect_target(lines: list[str], setting: str | None) -> tuple[str | None, str, bool, Problem | None]:
    """(arch key, where it came from, wave64, a problem with the target) of an AMD file."""
    wave64 = False
    found, source, problem = None, "", None
    for n, line in enumerate(lines):
        m = TARGET_RE.match(line)
        if m:
            found, source = m.group(1), f".amdgcn_target {m.group(1)} (line {n + 1})"
            col = line.find(m.group(1))
            if "wavefrontsize64" in line:
                wave64 = True
            try:
                return archs.resolve_arch(found).name, source, wave64 or _wave64_directive(lines), None
            except archs.UnknownArch:
                problem = Problem(n, col, col + len(found), f"{found} is not an architecture gpuisa knows "
                                  f"(allowed: {', '.join(archs.arch_names())})", "warning")
                return None, "", False, problem
    if lines:
        m = ARCH_COMMENT.match(lines[0])
        if m:
            try:
                return (archs.resolve_arch(m.group(1)).name, f"first-line comment arch: {m.group(1)}",
                        "wave64" in m.group(2).lower() or _wave64_directive(lines), None)
            except archs.UnknownArch as exc:
                col = lines[0].find(m.group(1))
                return None, "", False, Problem(0, col, col + len(m.group(1)), str(exc), "warning")
    if setting:
        return archs.resolve_arch(setting).name, f"setting arch={setting}", _wave64_directive(lines), None
    return None, "", False, None


def _wave64_directive(lines: list[str]) -> bool:
    return any(re.match(r"^\s*\.amdhsa_wavefront_size32\s+0\b", x) for x in lines)


def parse(lines: list[str], setting: str | None = None) -> Analysis:
    """Structure of the file (no assembling yet): instructions, labels, kernels, directives."""
    an = Analysis("amdgpu", lines)
    an.arch, an.arch_source, an.wave64, problem = detect_target(lines, setting)
    if problem:
        an.problems.append(problem)
    block_end = None
    func: Symbol | None = None
    for n, raw in enumerate(lines):
        code, end = strip_comment(raw)
        stripped = code.strip()
        if block_end:
            if stripped.startswith(block_end):
                block_end = None
            continue
        first = stripped.split(None, 1)[0] if stripped else ""
        if first in BLOCKS:
            block_end = BLOCKS[first]
            if first == ".amdhsa_kernel" and len(stripped.split()) > 1:
                _kernel(an, stripped.split()[1], n, raw)
            continue
        pos = 0
        while True:
            m = LABEL_DEF.match(code[pos:])
            if not m:
                break
            name = m.group(1)
            col = pos + m.start(1)
            an.labels.setdefault(name, Label(name, n, col))
            if not name.startswith(".L"):
                func = Symbol(name, "function", n, col, n)
                an.symbols.append(func)
            elif func is not None and not name.startswith(".Lfunc_end"):  # LLVM's end-of-function marker
                an.symbols.append(Symbol(name, "label", n, col, n))
            pos += m.end()
        rest = code[pos:]
        text = rest.strip()
        if not text:
            continue
        if text.startswith("."):
            if text.startswith(".size"):  # the end of the function: later labels are not its own
                func = None
            continue
        start = pos + (len(rest) - len(rest.lstrip()))
        mn = text.split()[0]
        an.insts.append(Inst(n, start, start + len(mn), end, mn.lower(), text))
        if func is not None:
            func.end_line = n
    return an


def _kernel(an: Analysis, name: str, line: int, raw: str) -> None:
    for s in an.symbols:
        if s.name == name:
            s.kind = "kernel"
            return
    col = raw.find(name)
    an.symbols.append(Symbol(name, "kernel", line, max(col, 0), line))


def assemble(an: Analysis, cache: dict) -> None:
    """Assemble every instruction: an.encoded (line -> hex) and problems; ``cache`` maps
    (arch, wave64, text) to (bytes, None) or (None, reason) across edits."""
    if an.arch is None:
        if an.insts and not an.problems:
            an.problems.append(Problem(0, 0, len(an.lines[0]) if an.lines else 0,
                                       'no AMD target: add .amdgcn_target "amdgcn-amd-amdhsa--gfx1100", a first-line '
                                       "comment '; arch: rdna3', or set the server's arch", "information"))
        return
    from ..codec.encoder import EncodeError, get_encoder

    enc = get_encoder(an.arch, an.wave64)
    sizes: dict[int, int | None] = {}
    branches = []
    for inst in an.insts:
        text = SYMREF.sub("0", inst.text)
        m = BRANCH.match(text)
        if m and m.group(2) in an.labels:
            branches.append((inst, m))
            text = f"{m.group(1)} 0"
        key = (an.arch, an.wave64, text)
        got = cache.get(key)
        if got is None:
            try:
                got = (enc.encode_line(text).data, None)
            except EncodeError as exc:
                got = (None, str(exc))
            except Exception as exc:  # noqa: BLE001 - an encoder bug must not stop the file's other diagnostics
                got = (None, f"{INTERNAL} ({type(exc).__name__}: {exc})")
            cache[key] = got
        data, reason = got
        sizes[inst.line] = len(data) if data is not None else _size_without_bytes(enc, inst.mnemonic)
        if data is not None:
            an.encoded[inst.line] = data.hex(" ")
        else:
            an.problems.append(_problem(an, inst, reason if reason is not None else INTERNAL))
    for inst, m in branches:
        _resolve_branch(an, inst, m, sizes, enc, cache)


def _size_without_bytes(enc, mnemonic: str) -> int | None:
    """The size of a line that did not assemble, where its instruction has one size whatever the
    operands (SOPP: 4 bytes, no literal), so branches over it still resolve."""
    try:
        cands = enc.candidates(mnemonic)
    except Exception:  # noqa: BLE001
        return None
    return 4 if cands and all(e.encoding == "SOPP" for e in cands) else None


def _resolve_branch(an: Analysis, inst: Inst, m, sizes: dict, enc, cache: dict) -> None:
    """Re-assemble a SOPP branch with its label's SIMM16 offset, where the distance is known."""
    target = an.labels[m.group(2)].line
    if inst.line not in an.encoded:
        return
    lo, hi = (inst.line + 1, target) if target > inst.line else (target, inst.line + 1)
    dist = 0
    for n in range(lo, hi):
        if n in sizes:
            if sizes[n] is None:
                an.encoded[inst.line] += "  (offset unresolved)"
                return
            dist += sizes[n]
        elif an.lines[n].strip().startswith(ALIGN):
            an.encoded[inst.line] += "  (offset unresolved)"
            return
    delta = dist // 4 if target > inst.line else -dist // 4
    text = f"{m.group(1)} {delta & 0xFFFF}"
    key = (an.arch, an.wave64, text)
    if key not in cache:
        try:
            cache[key] = (enc.encode_line(text).data, None)
        except Exception as exc:  # noqa: BLE001 - keep the provisional bytes
            cache[key] = (None, str(exc))
    if cache[key][0] is not None:
        an.encoded[inst.line] = cache[key][0].hex(" ")


def _problem(an: Analysis, inst: Inst, reason: str) -> Problem:
    """The encoder's reason, ranged on the token it names (else the mnemonic)."""
    line = an.lines[inst.line]
    quoted = f"{inst.text!r} "
    message = reason
    for prefix in (quoted, f"{' '.join(inst.text.split())!r} "):
        if message.startswith(prefix):
            message = message[len(prefix):]
    if UNSUPPORTED in message or message.startswith(INTERNAL):
        return Problem(inst.line, inst.start, inst.end, f"gpuisa cannot check this line: {message}", "information")
    for tok in re.findall(r"'([^']+)'", message):
        hit = find_token(line, tok, inst.mn_end, inst.end)
        if hit:
            return Problem(inst.line, hit[0], hit[1], message)
    if re.search(r"unknown instruction|is not in |no operand syntax", message):
        return Problem(inst.line, inst.start, inst.mn_end, message)
    if "expects" in message and inst.end > inst.mn_end:
        ops_start = inst.mn_end + (len(line[inst.mn_end:inst.end]) - len(line[inst.mn_end:inst.end].lstrip()))
        return Problem(inst.line, ops_start, inst.end, message)
    return Problem(inst.line, inst.start, inst.end, message)


def analyse(lines: list[str], setting: str | None, cache: dict) -> Analysis:
    an = parse(lines, setting)
    assemble(an, cache)
    return an
