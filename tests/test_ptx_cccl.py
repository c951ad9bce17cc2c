"""ptx check against ptxas 13 on the instructions CCCL's cuda::ptx wrappers emit (issue 15).

The CUDA toolkit's CCCL headers (``cuda/__ptx/instructions/generated/*.h``) hold the inline-assembly
templates nvcc writes into PTX for TMA, mbarrier, tcgen05, multimem, fences, bulk copies and
reductions and more.  Read at test time from the installed toolkit (nothing of them is stored
here), each template with register operands (``"r"``/``"l"``/``"h"``/``"f"``/``"d"`` constraints; those
with immediates are left out: their values are fixed by the wrapper) becomes one ``{ … }`` block of
a kernel; ptxas and gpuisa judge the kernel for several targets, and the blocks each rejects must be
the same.
"""

from __future__ import annotations

import bisect
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import need

from gpuisa.ptx import ptxas
from gpuisa.ptx.frontend import errors

REG = {"r": "%r{}", "l": "%rd{}", "h": "%h{}", "f": "%f{}", "d": "%fd{}"}
ASM_RE = re.compile(r"\basm\s*(?:volatile\s*)?\(")
STRING_RE = re.compile(r'\s*"((?:[^"\\]|\\.)*)"')
CONSTRAINT_RE = re.compile(r'"[=+&]*([a-z])"\s*\(')
# target -> PTX ISA version -> templates ptxas and gpuisa may disagree on (left: ptxas refuses
# TMA gather4 with .multicast::cluster on sm_120a, gpuisa takes it)
TARGETS = {"sm_90a": ("8.6", 0), "sm_100a": ("8.8", 0), "sm_103a": ("8.8", 0), "sm_120a": ("8.8", 1)}


def cccl_dir() -> Path | None:
    nvcc = shutil.which("nvcc")
    if not nvcc:
        return None
    text = Path(nvcc).read_text(errors="replace") if Path(nvcc).stat().st_size < 4096 else ""
    m = re.search(r"(/\S+)/bin/nvcc", text)  # a wrapper script naming the real nvcc
    root = Path(m.group(1)) if m else Path(nvcc).resolve().parents[1]
    d = root / "include" / "cccl" / "cuda" / "__ptx" / "instructions" / "generated"
    return d if d.is_dir() else None


def _template(src: str, i: int) -> str | None:
    """The template of the asm statement whose strings start at ``i``, operands made registers."""
    parts = []
    while (s := STRING_RE.match(src, i)) is not None:
        parts.append(s.group(1))
        i = s.end()
    if not parts:
        return None
    depth, j = 1, i
    while depth and j < len(src):
        depth += {"(": 1, ")": -1}.get(src[j], 0)
        j += 1
    cons = CONSTRAINT_RE.findall(src[i:j - 1])
    if any(c not in REG for c in cons):
        return None
    text = "".join(parts).replace("\\n", "\n").replace("\\t", " ")
    text = re.sub(r"(?<!%)%(\d+)", lambda m: REG[cons[int(m.group(1))]].format(int(m.group(1)) + 1)
                  if int(m.group(1)) < len(cons) else m.group(0), text)
    return text.replace("%%", "%").strip()


def templates(folder: Path) -> list[str]:
    out: dict[str, None] = {}
    for h in sorted(folder.glob("*.h")):
        src = h.read_text()
        for m in ASM_RE.finditer(src):
            t = _template(src, m.end())
            if t:
                out[t] = None
    return list(out)


HEAD = ("\t.reg .b32 %r<200>;\n\t.reg .b64 %rd<200>;\n\t.reg .b16 %h<200>;\n\t.reg .f32 %f<200>;\n"
        "\t.reg .f64 %fd<200>;\n")


def module(ts: list[str], target: str, version: str) -> tuple[str, list[int]]:
    text = f".version {version}\n.target {target}\n.address_size 64\n.visible .entry k()\n{{\n" + HEAD
    starts = []
    for t in ts:
        starts.append(text.count("\n") + 1)
        text += "{\n" + t + "\n}\n"
    return text + "\tret;\n}\n", starts


def _ptxas_blocks(ts: list[str], target: str, version: str, tmp_path) -> set:
    """The blocks ptxas rejects (after a parse error, ptxas stops: the rest is judged again)."""
    bad: set = set()
    start = 0
    while start < len(ts):
        text, starts = module(ts[start:], target, version)
        path = tmp_path / "cccl.ptx"
        path.write_text(text)
        proc = subprocess.run([ptxas.find_ptxas(), f"-arch={target}", str(path), "-o", "/dev/null"],
                              capture_output=True, text=True)
        lines = [int(x) for x in re.findall(r"cccl\.ptx, line (\d+); (?:error|fatal)", proc.stderr)]
        found = {bisect.bisect_right(starts, n) - 1 + start for n in lines if n >= starts[0]}
        bad |= found
        if "Parsing error" not in proc.stderr or not found:
            break
        start = max(found) + 1
    return bad


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_cccl_templates_agree_with_ptxas(target, tmp_path):
    tool = ptxas.find_ptxas()
    folder = cccl_dir()
    need(tool is not None and folder is not None, "ptxas and the CUDA toolkit's CCCL headers not installed")
    assert folder is not None
    ts = templates(folder)
    assert len(ts) > 1000
    version, allowed = TARGETS[target]
    theirs = _ptxas_blocks(ts, target, version, tmp_path)
    text, starts = module(ts, target, version)
    ours = {bisect.bisect_right(starts, b["line"]) - 1 for b in errors(text)[1] if b["line"] >= starts[0]}
    wrong = sorted(ours ^ theirs)
    assert len(wrong) <= allowed, [(ts[i][:120], i in theirs) for i in wrong[:10]]
