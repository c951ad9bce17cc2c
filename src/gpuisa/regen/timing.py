"""Per-instruction timing from LLVM 22's scheduling models (generation time).

    python -m gpuisa.regen.timing [arch ...]   # writes data/amd/timing/<arch>.json

For every (instruction, encoding) of an architecture's facts, its LLVM syntax (the facts' ``syntax``, else the
codec print plan's base text) goes into one file, one line each, and ``llvm-mca-22 -mtriple=amdgcn
-mcpu=<target> --instruction-info --iterations=1`` reports per line the scheduling model's latency, reciprocal
throughput, micro-ops and the resource cycles it uses.  A line that LLVM's assembler rejects (disassembled
text such as ``image_atomic_add ... `` without a dmask, an SGPR where the operand class wants a VGPR) is
rewritten (``candidates``) and retried; one that still fails is listed under ``missing`` with the reason.
These are the model's numbers, not measurements: the file says so (``"source": "model"``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import archs

LLVM_MAJOR = "22"
OUT_DIR = Path(__file__).resolve().parents[1] / "data" / "amd" / "timing"
FACTS_DIR = Path(__file__).resolve().parents[1] / "data" / "amd"
_ERR = re.compile(r"^[^:\n]*:(\d+):\d+: error: (.*)$", re.M)
_SREG_COMMENT = re.compile(r"\bs(\d+|\[\d+:\d+\])/\*Invalid register, operand has '(\w+)'[^*]*\*/")
_SREG = re.compile(r"\bs(\d+|\[\d+:\d+\])")


def find_llvm_mca() -> str | None:
    for cand in (f"llvm-mca-{LLVM_MAJOR}", f"/usr/lib/llvm-{LLVM_MAJOR}/bin/llvm-mca"):
        path = shutil.which(cand)
        if path:
            return path
    return None


def llvm_mca_version(mca: str) -> str:
    out = subprocess.run([mca, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"LLVM version (\S+)", out)
    return m.group(1) if m else LLVM_MAJOR


def _vgpr(m: re.Match, t16: bool, agpr: bool = False) -> str:
    return ("a" if agpr else "v") + m.group(1) + (".l" if t16 and not m.group(1).startswith("[") else "")


def _vgprs(text: str) -> str:
    """SGPRs that the operand class says must be VGPRs, and every SGPR source, as the VGPRs of the same numbers
    (VOPD halves, v_swap, the constant-bus limit); ``.l`` halves where the instruction uses true16 operands."""
    t16 = ".l" in text
    text = _SREG_COMMENT.sub(lambda m: _vgpr(m, t16 or "_16" in m.group(2), m.group(2).startswith("AGPR")), text)
    head, _, rest = text.partition(" ")
    dst, sep, srcs = rest.partition(",")
    return f"{head} {dst}{sep}{_SREG.sub(lambda m: _vgpr(m, t16), srcs)}" if sep else text


def _image(text: str) -> str:
    """A dmask that matches the data registers (one bit for gathers), placed before dim:."""
    m = re.match(r"^(\w+) v(?:\[(\d+):(\d+)\]|\d+)", text)
    if not m or not text.startswith("image_") or " dim:" not in text:
        return text
    n = int(m.group(3)) - int(m.group(2)) + 1 if m.group(2) else 1
    mask = 1 if "gather" in m.group(1) or "msaa" in m.group(1) else (1 << min(n, 4)) - 1
    text = text.replace(" dim:", f" dmask:0x{mask:x} dim:")
    if "msaa" in m.group(1):
        text = re.sub(r"dim:\S+", "dim:SQ_RSRC_IMG_2D_MSAA", re.sub(r", v0, s\[", ", v[0:2], s[", text, count=1))
    return text


def candidates(text: str) -> list[str]:
    """Rewrites tried in turn on a line LLVM's assembler rejects (each keeps the mnemonic and operand sizes);
    a VOPD half is completed to a pair with ``v_dual_mov_b32`` (the timing is then the pair's)."""
    v = _vgprs(text)
    only = _SREG_COMMENT.sub(lambda m: _vgpr(m, "_16" in m.group(2), m.group(2).startswith("AGPR")), text)
    ops = text.split(", ")  # carry-in/out forms: dst, sdst, sources, carry -- the sources as VGPRs
    carry = ", ".join(ops[:2] + [_SREG.sub(lambda m: "v" + m.group(1), o) for o in ops[2:-1]] + ops[-1:])
    out = [only, v, v.replace("0xbf800000", "0x3c00"), v.replace(" op_sel_hi:[0,0,0]", ""), carry, _image(text),
           re.sub(r"^(s_waitcnt_\w+) s0,", r"\1 null,", text), re.sub(r"\bs0$", "-1", text),
           re.sub(r"\bs0$", "m0", text)]
    if text.startswith("v_dual_"):
        out += [f"{v} :: v_dual_mov_b32 v2, v3", f"v_dual_mov_b32 v2, v3 :: {v}"]
    return [c for i, c in enumerate(out) if c != text and c not in out[:i]]


def syntaxes(arch_name: str) -> dict[str, str]:
    """``{"name|ENCODING": LLVM text}`` of every encoding of the facts (print plans fill a missing syntax)."""
    facts = json.loads((FACTS_DIR / f"{arch_name}.json").read_text())
    from ..codec.plans import load_plans

    plans = load_plans(arch_name)
    out: dict[str, str] = {}
    for ins in facts["instructions"]:
        for enc in ins["encodings"]:
            key = f"{ins['name']}|{enc['encoding']}"
            text = enc.get("syntax")
            if not text and key in plans:
                p = plans[key]
                text = " ".join([p.mnemonic, ", ".join(o.text for o in p.operands if o.text)] + list(p.base_mods)).strip()
            if text:
                out.setdefault(key, text.strip())
    return out


def mca_process(mca: str, target: str, lines: list[str], skip: str = "none", iterations: int = 1,
                mattr: str | None = None) -> subprocess.CompletedProcess:
    """llvm-mca-22 run on ``lines`` for ``target`` (its completed process)."""
    with tempfile.TemporaryDirectory(prefix="gpuisa-mca-") as tmp:
        path = Path(tmp) / "in.s"
        path.write_text("\n".join(lines) + "\n")
        return subprocess.run([mca, "-mtriple=amdgcn", f"-mcpu={target}", *([f"-mattr={mattr}"] if mattr else []),
                               "--instruction-info", f"--iterations={iterations}", "--resource-pressure",
                               f"--skip-unsupported-instructions={skip}", str(path)], capture_output=True, text=True)


def mca_crashed(proc: subprocess.CompletedProcess) -> bool:
    """Whether llvm-mca died (a signal or LLVM's stack dump) rather than rejecting a line."""
    return proc.returncode < 0 or "Stack dump" in proc.stderr


def _crashers(mca: str, target: str, lines: list[str], chunk: int = 64) -> list[int]:
    """Lines on which llvm-mca itself crashes (LLVM 22 on gfx11's buffer_load_d16_*), found 64 at a time."""
    out = []
    for i in range(0, len(lines), chunk):
        if mca_crashed(mca_process(mca, target, lines[i:i + chunk], "parse-failure")):
            out += [i + j for j, ln in enumerate(lines[i:i + chunk]) if mca_crashed(mca_process(mca, target, [ln], "parse-failure"))]
    return out


CRASH = "llvm-mca-22 crashes on this line"


def run_mca(mca: str, target: str, lines: list[str]) -> tuple[str, dict[int, str]]:
    """(llvm-mca's report, {0-based line: error}) -- the report is empty when any line failed or crashed."""
    proc = mca_process(mca, target, lines)
    if mca_crashed(proc):
        bad = _crashers(mca, target, lines)
        if not bad:
            raise RuntimeError(f"llvm-mca crashed: {proc.stderr.strip()[:300]}")
        return "", {i: CRASH for i in bad}
    errors = {int(m.group(1)) - 1: m.group(2).strip() for m in _ERR.finditer(proc.stderr)}
    if proc.returncode and not errors:
        raise RuntimeError(f"llvm-mca failed: {proc.stderr.strip()[:300]}")
    return ("" if errors else proc.stdout), errors


def parse_report(report: str) -> dict:
    """Rows of the instruction-info and resource-pressure-by-instruction views, and the header numbers."""
    lines = report.splitlines()
    out: dict = {"rows": [], "pressure": [], "resources": []}
    for ln in lines:
        m = re.match(r"^(Dispatch Width|Block RThroughput|Total Cycles|Total uOps|Instructions):\s+(\S+)", ln)
        if m:
            out[m.group(1)] = float(m.group(2))
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("[1]") and ln.rstrip().endswith("Instructions:"):
            col = ln.index("Instructions:")
            i += 1
            while i < len(lines) and lines[i].strip():
                f = lines[i][:col].split()
                out["rows"].append((int(f[1]), float(f[2]), int(f[0]), lines[i][col:].strip()))
                i += 1
            continue
        if ln == "Resources:":
            i += 1
            while i < len(lines) and lines[i].strip():
                m = re.match(r"^\[([\d.]+)\]\s+-\s+(\S+)", lines[i])
                if m is None:
                    raise ValueError(f"llvm-mca's resource line not understood: {lines[i]!r}")
                out["resources"].append(m.group(2))
                i += 1
            continue
        if ln == "Resource pressure by instruction:":
            i += 1
            col = lines[i].index("Instructions:")
            i += 1
            while i < len(lines) and lines[i].strip():
                vals = lines[i][:col].split()
                out["pressure"].append({out["resources"][j]: float(v) for j, v in enumerate(vals) if v != "-"})
                i += 1
            continue
        i += 1
    return out


def _resource_units(names: list[str]) -> dict[str, int]:
    units: dict[str, int] = {}
    for n in names:
        units[n] = units.get(n, 0) + 1
    return units


def sweep(arch_name: str, mca: str) -> dict:
    """The timing facts of one architecture."""
    arch = archs.by_name(arch_name)
    texts = syntaxes(arch_name)
    keys = sorted(texts)
    current = dict(texts)
    tries = {k: candidates(texts[k]) for k in keys}  # rewrites left to try per line
    missing: dict[str, str] = {}
    first_error: dict[str, str] = {}
    while True:
        todo = [k for k in keys if k in current]
        report, errors = run_mca(mca, arch.mc_target, [current[k] for k in todo])
        if not errors:
            break
        for j, msg in errors.items():
            k = todo[j]
            first_error.setdefault(k, msg)
            if msg == CRASH:
                missing[k] = f"{CRASH}: {texts[k]!r}"
                del current[k]
                continue
            if tries[k]:
                current[k] = tries[k].pop(0)
            else:
                missing[k] = f"LLVM's assembler rejects {texts[k]!r}: {first_error[k]}"
                del current[k]
    return _document(arch, mca, keys, current, report, missing)


def _document(arch, mca: str, keys: list[str], current: dict[str, str], report: str, missing: dict[str, str]) -> dict:
    parsed = parse_report(report)
    todo = [k for k in keys if k in current]
    if len(parsed["rows"]) != len(todo) or len(parsed["pressure"]) != len(todo):
        raise RuntimeError(f"{arch.name}: llvm-mca reported {len(parsed['rows'])} rows for {len(todo)} lines")
    instructions: dict[str, list] = {}
    spellings: dict[str, str] = {}
    for k, (lat, rthr, uops, text), res in zip(todo, parsed["rows"], parsed["pressure"]):
        instructions[k] = [lat, rthr, uops, {r: c for r, c in sorted(res.items())}]
        spellings.setdefault(text.split()[0], k)
    return {
        "arch": arch.name,
        "target": arch.llvm_target,
        "generated_by": "python -m gpuisa.regen.timing",
        "source": "model",
        "model": f"LLVM {llvm_mca_version(mca)} scheduling model for -mcpu={arch.llvm_target} (llvm-mca "
                 "--instruction-info)",
        "llvm_version": llvm_mca_version(mca),
        "note": "numbers of LLVM's scheduling model, not measurements on hardware",
        "columns": ["latency", "rthroughput", "uops", "resources"],
        "dispatch_width": int(parsed.get("Dispatch Width", 1)),
        "resource_units": _resource_units(parsed["resources"]),
        "instructions": instructions,
        "spellings": dict(sorted(spellings.items())),
        "missing": dict(sorted(missing.items())),
    }


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    mca = find_llvm_mca()
    if mca is None:
        print("timing: llvm-mca-22 not installed (apt-get install -y llvm-22)", file=sys.stderr)
        return 2
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name in names:
        doc = sweep(name, mca)
        (OUT_DIR / f"{name}.json").write_text(json.dumps(doc, indent=0, sort_keys=False) + "\n")
        print(f"{name}: timing of {len(doc['instructions'])} encodings, {len(doc['missing'])} not accepted by "
              "LLVM's assembler", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
