"""Running NVIDIA's ``ptxas`` on many PTX instructions at once.

Instructions are wrapped, many per kernel, in one ``.ptx`` file with register
declarations of every class; ptxas reports errors per line, so one run judges
a whole batch.  A parse error is fatal and hides the lines after it: the batch
is then split after the failing line and the rest compiled again (bisection
on error).  Results are cached by (ptxas version, target, version, text) in a
JSON-lines file under ``build/ptxas-cache/`` (gitignored) or ``$GPUISA_PTXAS_CACHE``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# Register classes every wrapper declares; instance generators use these names.
REG_DECLS = (".reg .pred p<8>;\n.reg .b16 h<16>;\n.reg .b32 r<80>;\n.reg .b64 rd<40>;\n.reg .b128 q<8>;\n"
             ".reg .f32 f<16>;\n.reg .f64 fd<8>;\n")
# Fragment banks for register vectors (matrix fragments, texture coordinates): see instances_shaped.
VECTOR_DECLS = ".reg .b32 v<291>;\n.reg .b64 vd<61>;\n.reg .b16 vh<61>;\n.reg .b8 vb<9>;\n"
# Symbols that call and brx.idx instances name: functions (module level) and, inside the kernel,
# call-target lists, call prototypes and a branch-target list; declared only when a batch uses them.
SYMBOL_FUNCS = (".func (.param .b32 cr) fn_rp (.param .b32 ca)\n{\nret;\n}\n"
                ".func fn_p (.param .b32 ca)\n{\nret;\n}\n.func fn_0 ()\n{\nret;\n}\n")
SYMBOL_DECLS = ("CT_rp: .calltargets fn_rp;\nCT_p: .calltargets fn_p;\nCT_0: .calltargets fn_0;\n"
                "CP_rp: .callprototype (.param .b32 _) _ (.param .b32 _);\nCP_p: .callprototype _ (.param .b32 _);\n"
                "CP_0: .callprototype _ ();\nBT_all: .branchtargets L_end;\n")
SYMBOL_RE = re.compile(r"\b(?:fn_rp|fn_p|fn_0|CT_rp|CT_p|CT_0|CP_rp|CP_p|CP_0|BT_all)\b")
OLD_REG_DECLS = REG_DECLS.replace(".reg .b128 q<8>;", ".reg .b64 q<8>;")  # .b128 registers need sm_70
LINE_ERR = re.compile(r"^ptxas [^,]*, line (\d+); (error|fatal)\s*: (.*)$")
VERSION_REQ = re.compile(r"requires PTX ISA \.version (\d+\.\d+)")
AVAILABILITY = ("requires PTX ISA", "requires .target", "not supported on .target", "cannot be compiled for architecture",
                "supported only on", "not supported on")


def find_ptxas() -> str | None:
    return shutil.which("ptxas") or (os.path.exists("/usr/local/bin/ptxas") and "/usr/local/bin/ptxas") or None


def ptxas_version(ptxas: str) -> str:
    out = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release (\d+\.\d+), V([\d.]+)", out)
    return m.group(2) if m else "unknown"


def arch_for(target: str) -> str:
    """-arch for a .target: ptxas 13 compiles sm_75 and newer; older .targets are checked under sm_75."""
    m = re.match(r"sm_(\d+)", target)
    return target if m and int(m.group(1)) >= 75 else "sm_75"


def wrap(lines: list[str], target: str, version: str) -> str:
    return wrap_at(lines, target, version)[0]


def wrap_at(lines: list[str], target: str, version: str) -> tuple[str, int]:
    """(the kernel holding ``lines``, the file line number of the first of them)."""
    body = "".join(f"{ln}\n" for ln in lines)
    m = re.match(r"sm_(\d+)", target)
    new_enough = tuple(map(int, version.split("."))) >= (8, 3)  # .b128 registers need PTX ISA 8.3
    decls = (REG_DECLS if m and int(m.group(1)) >= 70 and new_enough else OLD_REG_DECLS) + VECTOR_DECLS
    funcs = ""
    if any(SYMBOL_RE.search(ln) for ln in lines):
        funcs, decls = SYMBOL_FUNCS, decls + SYMBOL_DECLS
    head = f".version {version}\n.target {target}\n.address_size 64\n{funcs}.visible .entry k()\n{{\n{decls}"
    return head + body + "L_end:\nret;\n}\n", head.count("\n") + 1


def compile_lines(ptxas: str, lines: list[str], target: str, version: str) -> list[list[str]]:
    """Errors (messages) per line: [] means ptxas accepted that line."""
    results: list[list[str] | None] = [None] * len(lines)
    start = 0
    with tempfile.TemporaryDirectory(prefix="gpuisa-ptxas-") as tmp:
        src = Path(tmp) / "k.ptx"
        while start < len(lines):
            chunk = lines[start:]
            text, first = wrap_at(chunk, target, version)
            src.write_text(text)
            proc = subprocess.run([ptxas, "-arch", arch_for(target), str(src), "-o", os.devnull],
                                  capture_output=True, text=True)
            errs: dict[int, list[str]] = {}
            fatal_at = None
            unplaced = []
            for line in (proc.stdout + proc.stderr).splitlines():
                m = LINE_ERR.match(line)
                if m:
                    idx = int(m.group(1)) - first
                    if 0 <= idx < len(chunk):
                        errs.setdefault(idx, []).append(m.group(3))
                        if m.group(2) == "fatal":
                            fatal_at = idx if fatal_at is None else min(fatal_at, idx)
                    elif m.group(2) == "error" and not is_availability(m.group(3)) and "does not support" not in m.group(3):
                        unplaced.append(m.group(3))  # a header error that is not about .version/.target
                elif line.startswith("ptxas fatal") and "aborted due to errors" not in line:
                    unplaced.append(line)
            if proc.returncode < 0 and not errs and fatal_at is None:
                # ptxas crashed (it does on some malformed lines) before reporting on this chunk
                if len(chunk) == 1:
                    results[start] = [f"ptxas crashed (signal {-proc.returncode})"]
                    start += 1
                    continue
                half = max(1, len(chunk) // 2)
                results[start:] = (compile_lines(ptxas, chunk[:half], target, version)
                                   + compile_lines(ptxas, chunk[half:], target, version))
                break
            if fatal_at is None and proc.returncode != 0 and not errs and unplaced:
                if len(chunk) == 1:
                    results[start] = unplaced
                    start += 1
                    continue
                # an error not tied to a line: bisect
                half = max(1, len(chunk) // 2)
                left = compile_lines(ptxas, chunk[:half], target, version)
                right = compile_lines(ptxas, chunk[half:], target, version)
                results[start:] = left + right
                break
            if unplaced and fatal_at is None:
                errs = {i: errs.get(i, []) + unplaced for i in range(len(chunk))}
            stop = len(chunk) if fatal_at is None else fatal_at + 1
            if fatal_at is None and proc.returncode != 0 and errs and not unplaced:
                # ptxas stopped early without a fatal message (it can crash on a malformed line): only the
                # lines up to the last one it reported on are decided; the rest is compiled again
                stop = max(errs) + 1
            for i in range(stop):
                results[start + i] = errs.get(i, [])
            start += stop
    return [r if r is not None else [] for r in results]


def is_availability(msg: str) -> bool:
    return any(a in msg for a in AVAILABILITY) and "Unknown" not in msg


class Cache:
    """JSON-lines cache of ptxas verdicts."""

    def __init__(self, path: Path | None = None):
        root = Path(os.environ.get("GPUISA_PTXAS_CACHE") or Path(__file__).resolve().parents[3] / "build" / "ptxas-cache")
        self.path = path or root / "verdicts.jsonl"
        self.data: dict[str, list[str]] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                try:
                    k, v = json.loads(line)
                    self.data[k] = v
                except ValueError:
                    continue
        self._new: list[tuple[str, list[str]]] = []

    @staticmethod
    def key(tool_version: str, target: str, version: str, text: str) -> str:
        return hashlib.sha1(f"{tool_version}|{target}|{version}|{text}".encode()).hexdigest()

    def get(self, k: str):
        return self.data.get(k)

    def put(self, k: str, v: list[str]) -> None:
        self.data[k] = v
        self._new.append((k, v))

    def save(self) -> None:
        if not self._new:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as fh:
            for k, v in self._new:
                fh.write(json.dumps([k, v]) + "\n")
        self._new = []


def verdicts(ptxas: str, lines: list[str], target: str, version: str = "9.0", cache: Cache | None = None,
             batch: int = 4000) -> list[list[str]]:
    """Errors per line, from the cache where known, compiling the rest in batches."""
    tv = ptxas_version(ptxas)
    out: list[list[str] | None] = [None] * len(lines)
    todo = []
    for i, ln in enumerate(lines):
        hit = cache.get(Cache.key(tv, target, version, ln)) if cache else None
        if hit is not None:
            out[i] = hit
        else:
            todo.append(i)
    for b in range(0, len(todo), batch):
        idx = todo[b:b + batch]
        res = compile_lines(ptxas, [lines[i] for i in idx], target, version)
        for i, r in zip(idx, res):
            out[i] = r
            if cache:
                cache.put(Cache.key(tv, target, version, lines[i]), r)
    if cache:
        cache.save()
    return [o or [] for o in out]
