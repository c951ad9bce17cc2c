"""Agreement of gpuisa's AMD encoder/decoder with llvm-mc-22 on LLVM's own MC test files.

    GPUISA_HOME=/tmp/gpuisa-home-mc .venv/bin/python tools/mc_agreement.py [DIR] [--out artifacts/mc_agreement]

DIR (default /tmp/llvm-mc-tests) holds copies of llvm/test/MC/AMDGPU/*.s and
llvm/test/MC/Disassembler/AMDGPU/*.txt.  Those files are LLVM's text: they are
read from DIR and never copied into this repository.

Each file's ``RUN:`` lines give the llvm-mc invocations (-mcpu or an amdgpuXX.YY
triple, -mattr with +wavefrontsize64 / +-real-true16, -show-encoding or
-disassemble); every distinct (cpu, features, mode) is one run.  llvm-mc-22
itself is the truth: the input lines go through it in one process per run, and

* assembler files (.s): for lines llvm-mc-22 assembles, our encoder's bytes
  must equal its bytes (encode agreement); for lines it rejects, our encoder
  must raise EncodeError (rejection agreement);
* disassembler files (.txt): our decoder's text of the line's bytes must equal
  llvm-mc-22 -disassemble's text (decode agreement; invalid words count as
  agreeing when both call them invalid).

CHECK lines are ignored, so a test's expectations that llvm-mc-22 no longer
reproduces do not count.  CPUs we have no architecture for are skipped and
listed.  Runs whose -mattr departs from LLVM 22's default 16-bit syntax
(true16 on GFX11, fake16 on GFX12/GFX12.5) run our codec in that mode
(``archs.syntax16_mode``: the plans' true16/fake16 overlays) and are reported
apart, under ``<arch>-fake16`` or ``<arch>-true16``; wave64 runs of a
wave32-only target under ``<arch>-w64`` (every line should be rejected).

Figures per file and per target go to stdout; disagreements to
``OUT/<target>.txt`` (one line each: file:line, kind, input, llvm, ours).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

LLVM_MC = os.environ.get("GPUISA_LLVM_MC", "llvm-mc-22")
LABEL = "gpuisa_mc_line_"
_ENC = re.compile(r"^\s*(.*?)\s*;\s*encoding:\s*\[([^\]]*)\]")
_ERR = re.compile(r"^<stdin>:(\d+):(\d+):\s*(warning|error):\s*(.*)$")
_HEXTOK = re.compile(r"^(0x[0-9a-fA-F]{1,2})$")
SEP_DWORDS = 6


# ----------------------------------------------------------------------------------------------------------------
# RUN lines


def run_lines(text: str) -> list[str]:
    out, cur = [], None
    for raw in text.splitlines():
        m = re.match(r"^\s*(?://|#|;)+\s*RUN:\s?(.*)$", raw)
        if not m:
            if cur is not None:
                out.append(cur)
                cur = None
            continue
        body = m.group(1).rstrip()
        cur = body if cur is None else cur + " " + body
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        out.append(cur)
        cur = None
    if cur is not None:
        out.append(cur)
    return out


def parse_run(cmd: str, is_txt: bool) -> dict | None:
    """The llvm-mc invocation of one RUN line (the first pipeline stage naming llvm-mc), or None."""
    stage = next((s for s in cmd.split("|") if re.search(r"\bllvm-mc\b", s)), None)
    if stage is None:
        return None
    toks = stage.split()
    cpu, attrs, triple = None, [], None
    disasm = False
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        for key in ("-mcpu", "--mcpu"):
            if t == key:
                cpu = nxt
            elif t.startswith(key + "="):
                cpu = t.split("=", 1)[1]
        for key in ("-mattr", "--mattr"):
            if t == key:
                attrs += nxt.split(",")
            elif t.startswith(key + "="):
                attrs += t.split("=", 1)[1].split(",")
        for key in ("-triple", "--triple", "-arch", "--arch"):
            if t.startswith(key + "="):
                triple = t.split("=", 1)[1]
            elif t == key:
                triple = nxt
        if t in ("-disassemble", "--disassemble", "-disassemble-all"):
            disasm = True
    if triple and not cpu:
        m = re.match(r"^amdgpu(\d+)\.(\d)(\w)", triple)  # amdgpu11.00 -> gfx1100 (newer LLVM's subarch triples)
        if m:
            cpu = f"gfx{m.group(1)}{m.group(2)}{m.group(3)}"
    if triple and not (triple.startswith("amdgcn") or triple.startswith("amdgpu")):
        return None  # r600
    if "-filetype=obj" in stage or "--filetype=obj" in stage:
        return None
    attrs = [a.strip().strip("'\"") for a in attrs if a.strip()]
    return {"cpu": cpu or "", "attrs": tuple(sorted(set(attrs))), "mode": "dis" if (disasm or is_txt) else "asm"}


def target_of(run: dict) -> tuple[str | None, bool, str]:
    """(our codec's architecture or processor or None, wave64, report key: the architecture's name)."""
    from gpuisa import archs

    try:
        a = archs.resolve_arch(run["cpu"])
    except archs.UnknownArch:
        return None, False, run["cpu"] or "?"
    attrs = {x.lower() for x in run["attrs"]}  # (llvm-mc takes feature names in any case: +WavefrontSize64)
    wave64 = "+wavefrontsize64" in attrs and a.features.encoding_family != "GFX9"
    key = a.name
    true16 = bool(getattr(a.features, "true16", False))  # LLVM 22's default: true16 syntax on GFX11 only
    if "-real-true16" in attrs and true16:
        key += "-fake16"
    elif "+real-true16" in attrs and not true16:
        key += "-true16"
    if wave64 and 64 not in a.features.waves:
        key += "-w64"  # a wave size the target does not have: every line should be rejected
    return archs.codec_key(run["cpu"]), wave64, key  # (gfx1011's own codec: a processor with feature flags)


def syntax16_of(run: dict) -> str | None:
    """The RUN line's 16-bit register syntax (true16/fake16) where it departs from the target's default, else None."""
    from gpuisa import archs

    a = archs.resolve_arch(run["cpu"])
    attrs = {x.lower() for x in run["attrs"]}
    mode = next((archs.MATTR_MODES[x] for x in attrs if x in archs.MATTR_MODES), None)
    return archs.syntax16_mode(a, mode) if mode in a.features.syntax16 else None


# ----------------------------------------------------------------------------------------------------------------
# input lines


def strip_comment(line: str) -> str:
    for mark in ("//", ";", "#"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip()


def asm_inputs(text: str) -> list[tuple[int, str]]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw)
        if not line or line.startswith(".") or re.match(r"^[\w.$]+:$", line) or "=" in line.split()[0]:
            continue
        out.append((n, line))
    return out


def txt_inputs(text: str) -> list[tuple[int, bytes]]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw).replace("[", " ").replace("]", " ")
        toks = [t for t in re.split(r"[\s,]+", line) if t]
        if not toks or not all(_HEXTOK.match(t) for t in toks):
            continue
        out.append((n, bytes(int(t, 16) for t in toks)))
    return out


# ----------------------------------------------------------------------------------------------------------------
# llvm-mc-22


_CPU_OK: dict[str, bool] = {}


def llvm_cpu(cpu: str, arch: str) -> str:
    """The RUN line's cpu, or our architecture's LLVM target where llvm-mc-22 no longer knows it (gfx940/941 -> gfx942)."""
    if cpu not in _CPU_OK:
        proc = subprocess.run([LLVM_MC, "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"], input="s_nop 0\n",
                              capture_output=True, text=True)
        _CPU_OK[cpu] = "not a recognized processor" not in proc.stderr
    if _CPU_OK[cpu]:
        return cpu
    from gpuisa import archs

    return archs.by_name(arch).llvm_target


def mc_cmd(run: dict, extra: list[str]) -> list[str]:
    cmd = [LLVM_MC, "-arch=amdgcn", f"-mcpu={run.get('llvm_cpu') or run['cpu']}"]
    if run["attrs"]:
        cmd.append("-mattr=" + ",".join(run["attrs"]))
    return cmd + extra


def llvm_assemble(run: dict, lines: list[str]) -> list[tuple[bytes | None, str]]:
    """Each line between labels: (bytes, printed text) or (None, error); a line with a fixup is (None, 'fixup')."""
    src = []
    for i, line in enumerate(lines):
        src.append(f"{LABEL}{i}:")
        src.append(line)
    proc = subprocess.run(mc_cmd(run, ["-show-encoding"]), input="\n".join(src) + "\n", capture_output=True, text=True)
    errors: dict[int, str] = {}
    for ln in proc.stderr.splitlines():
        m = _ERR.match(ln)
        if m and m.group(3) == "error":
            k = int(m.group(1)) - 1
            if k % 2 == 1:
                errors.setdefault(k // 2, m.group(4))
    got: dict[int, list] = collections.defaultdict(list)
    cur = -1
    for ln in proc.stdout.splitlines():
        s = ln.strip()
        if s.startswith(LABEL) and s.endswith(":"):
            cur = int(s[len(LABEL):-1])
            continue
        m = _ENC.match(ln)
        if m and cur >= 0:
            got[cur].append((" ".join(m.group(1).split()), m.group(2)))
        elif "fixup" in s and cur >= 0:
            got[cur].append(("", "fixup"))
    res = []
    for i in range(len(lines)):
        if i in errors:
            res.append((None, errors[i]))
        elif not got.get(i):
            res.append((None, "no output"))
        elif any(x[1] == "fixup" or "A" in x[1] for x in got[i]):
            res.append((None, "fixup"))
        else:
            data = b"".join(bytes(int(b, 16) for b in enc.split(",") if b.strip()) for _, enc in got[i])
            res.append((data, "; ".join(t for t, _ in got[i])))
    return res


def _sep(i: int) -> bytes:
    return (0xBF800007 - (i & 1)).to_bytes(4, "little") * SEP_DWORDS


def llvm_disassemble(run: dict, probes: list[bytes]) -> list[tuple[list[str], int] | None]:
    """Per probe: (texts of the instructions llvm-mc prints for it, number of invalid positions); None if llvm-mc crashed."""
    lines = []
    for i, p in enumerate(probes):
        lines.append(" ".join(f"0x{b:02x}" for b in p))
        lines.append(" ".join(f"0x{b:02x}" for b in _sep(i)))
    proc = subprocess.run(mc_cmd(run, ["-disassemble"]), input="\n".join(lines) + "\n", capture_output=True, text=True)
    if proc.returncode != 0 and "Stack dump" in proc.stderr:
        if len(probes) == 1:
            return [None]
        mid = len(probes) // 2
        a = llvm_disassemble(run, probes[:mid])
        b = llvm_disassemble(run, probes[mid:]) if mid % 2 == 0 else _shifted(run, probes[mid:])
        return a + b
    invalid = collections.Counter()
    for ln in proc.stderr.splitlines():
        m = _ERR.match(ln)
        if m and "invalid instruction encoding" in m.group(4):
            k = int(m.group(1)) - 1
            if k % 2 == 0:
                invalid[k // 2] += 1
    texts = [" ".join(ln.split()) for ln in proc.stdout.splitlines() if ln.strip() and not ln.strip().startswith(".")]
    chunks: list[list[str]] = []
    cur: list[str] = []
    j = 0
    while j < len(texts):
        sep = f"s_nop {7 - (len(chunks) & 1)}"
        if texts[j] == sep and j + 1 < len(texts) and texts[j + 1] == sep:
            while j < len(texts) and texts[j] == sep:
                j += 1
            chunks.append(cur)
            cur = []
            continue
        cur.append(texts[j])
        j += 1
    return [(chunks[i] if i < len(chunks) else [], invalid[i]) for i in range(len(probes))]


def _shifted(run: dict, probes: list[bytes]) -> list:
    # keep separator parity: prepend a dummy probe so that probes[0] gets index 1
    return llvm_disassemble(run, [b"\x00\x00\x80\xbf"] + probes)[1:]


# ----------------------------------------------------------------------------------------------------------------
# one (file, run)


def check(job: tuple[str, str, dict]) -> dict:
    path, kind, run = job
    from gpuisa.codec.decoder import get_decoder
    from gpuisa.codec.encoder import EncodeError, get_encoder
    from gpuisa.codec.processor_codec import decoder_for, encoder_for

    arch, wave64, key = target_of(run)
    mode = syntax16_of(run)  # the RUN line's 16-bit syntax where it is not LLVM 22's default: the codec's mode
    text = Path(path).read_text(errors="replace")
    name = Path(path).name
    res = {"file": name, "cpu": run["cpu"], "llvm_cpu": run.get("llvm_cpu"), "attrs": list(run["attrs"]), "target": key, "mode": run["mode"],
           "enc_total": 0, "enc_ok": 0, "rej_total": 0, "rej_ok": 0, "dec_total": 0, "dec_ok": 0,
           "fixup": 0, "llvm_crash": 0, "bad": []}
    if run["mode"] == "asm":
        items = asm_inputs(text)
        ref = llvm_assemble(run, [t for _, t in items])
        enc = encoder_for(arch, wave64) if mode is None else get_encoder(arch, wave64, mode)
        for (n, line), (rb, rtext) in zip(items, ref):
            if rb is None and rtext == "fixup":
                res["fixup"] += 1
                continue
            try:
                mine, err = enc.encode_line(line).data, None
            except EncodeError as exc:
                mine, err = None, str(exc)
            except Exception as exc:  # a crash in the encoder counts as a disagreement of its own kind
                mine, err = None, f"CRASH {type(exc).__name__}: {exc}"
            if rb is not None:
                res["enc_total"] += 1
                if mine == rb:
                    res["enc_ok"] += 1
                elif mine is None:
                    res["bad"].append([f"{name}:{n}", "enc-rejected", line, f"{rtext} [{rb.hex()}]", err])
                else:
                    res["bad"].append([f"{name}:{n}", "enc-bytes", line, f"{rtext} [{rb.hex()}]", mine.hex()])
            else:
                res["rej_total"] += 1
                if mine is None:
                    res["rej_ok"] += 1
                else:
                    res["bad"].append([f"{name}:{n}", "rej-accepted", line, f"error: {rtext}", mine.hex()])
    else:
        items = txt_inputs(text)
        ref = llvm_disassemble(run, [b for _, b in items])
        dec = decoder_for(arch, wave64) if mode is None else get_decoder(arch, wave64, mode)
        for i, ((n, data), r) in enumerate(zip(items, ref)):
            if r is None:
                res["llvm_crash"] += 1
                continue
            rtexts, rinv = r
            try:
                ds = [d for d in dec.decode(data + _sep(i)) if d.offset < len(data)]
                mtexts = [" ".join(d.text.split()) for d in ds if d.valid and d.text]
                minv = sum(1 for d in ds if not d.valid)
            except Exception as exc:
                mtexts, minv = [f"CRASH {type(exc).__name__}: {exc}"], 0
            res["dec_total"] += 1
            if mtexts == rtexts and (minv > 0) == (rinv > 0):
                res["dec_ok"] += 1
            else:
                lt = " | ".join(rtexts + (["<invalid>"] if rinv else []))
                mt = " | ".join(mtexts + (["<invalid>"] if minv else []))
                res["bad"].append([f"{name}:{n}", "dec-text", data.hex(" "), lt, mt])
    return res


# ----------------------------------------------------------------------------------------------------------------


def form_of(text: str) -> str:
    """The syntactic form of an instruction text (what an encoder path is usually chosen by)."""
    if " :: " in text:
        return "vopd"
    if "dpp8:" in text:
        return "dpp8"
    if "quad_perm:" in text or "row_" in text:
        return "dpp16"
    if "_sdwa" in text.split(" ")[0] or "_sel:" in text:
        return "sdwa"
    first = text.split(" ")[0]
    return "e64" if first.endswith("_e64") else "e32" if first.endswith("_e32") else ""


def classify(row: list[str]) -> tuple[str, str, str, str]:
    """A disagreement's class: (kind, form, mnemonic family or '*', our reason with names, registers and quoted text blanked)."""
    loc, attrs, kind, inp, llvm, ours = (row + [""] * 6)[:6]
    text = llvm if kind == "dec-text" else inp
    mn = (text.split() or ["?"])[0]
    mn = re.sub(r"_(e32|e64|dpp|sdwa|e64_dpp)$", "", mn)
    fam = "_".join(mn.split("_")[:2])
    reason = ""
    if kind == "enc-rejected":
        reason = re.sub(r"'[^']*'", "'X'", ours)
        reason = re.sub(r"^\S+ is not in (\S+); it exists in .*$", r"M is not in \1 (exists elsewhere)", reason)
        reason = re.sub(r"^unknown instruction \S+", "unknown instruction M", reason)
        reason = re.sub(r"\b[vsa]\[?\d+(:\d+)?\]?", "R", reason)[:120]
        if reason.startswith("M "):
            fam = "*"
    return kind, form_of(text), fam, reason


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir", nargs="?", default="/tmp/llvm-mc-tests")
    ap.add_argument("--out", default=str(ROOT / "artifacts" / "mc_agreement"))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", help="regular expression on file names")
    ap.add_argument("--top", type=int, default=8, help="disagreement classes to print per target (0: none)")
    args = ap.parse_args(argv)
    t0 = time.time()
    jobs, skipped = [], collections.defaultdict(list)
    from gpuisa import archs  # noqa: F401  (fail early outside the venv)

    for p in sorted(Path(args.dir).iterdir()):
        if p.suffix not in (".s", ".txt") or (args.only and not re.search(args.only, p.name)):
            continue
        text = p.read_text(errors="replace")
        seen = set()
        for cmd in run_lines(text):
            run = parse_run(cmd, p.suffix == ".txt")
            if run is None:
                continue
            arch, _, key = target_of(run)
            if arch is None:
                skipped[key].append(p.name)
                continue
            k = (arch, key, run["attrs"], run["mode"])  # gfx1030..gfx1036 in one file: one run for rdna2
            if k in seen:
                continue
            seen.add(k)
            run["llvm_cpu"] = llvm_cpu(run["cpu"], arch)
            jobs.append((str(p), p.suffix, run))
    # the largest files first so that the pool ends together
    jobs.sort(key=lambda j: -Path(j[0]).stat().st_size)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = list(ex.map(check, jobs))
    results.sort(key=lambda r: (r["target"], r["file"], r["attrs"]))

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    per = collections.defaultdict(lambda: collections.Counter())
    bad = collections.defaultdict(list)
    print(f"{'file':40} {'cpu':14} {'target':14} {'attrs':34} {'encode':>18} {'reject':>16} {'decode':>18}")
    for r in results:
        cpu = r["cpu"] + (f">{r['llvm_cpu']}" if r.get("llvm_cpu") and r["llvm_cpu"] != r["cpu"] else "")
        print(f"{r['file'][:40]:40} {cpu:14} {r['target']:14} {','.join(r['attrs'])[:34]:34} "
              f"{pct(r['enc_ok'], r['enc_total']):>18} {pct(r['rej_ok'], r['rej_total']):>16} "
              f"{pct(r['dec_ok'], r['dec_total']):>18}")
        c = per[r["target"]]
        for k in ("enc_total", "enc_ok", "rej_total", "rej_ok", "dec_total", "dec_ok", "fixup", "llvm_crash"):
            c[k] += r[k]
        c["files"] += 1
        bad[r["target"]] += [[*b[:1], ",".join(r["attrs"]), *b[1:]] for b in r["bad"]]
    print()
    print(f"{'target':16} {'runs':>5} {'encode':>22} {'reject':>20} {'decode':>22}")
    summary = {}
    for t, c in sorted(per.items()):
        print(f"{t:16} {c['files']:>5} {pct(c['enc_ok'], c['enc_total']):>22} {pct(c['rej_ok'], c['rej_total']):>20} "
              f"{pct(c['dec_ok'], c['dec_total']):>22}" + (f"  (fixup lines skipped: {c['fixup']})" if c["fixup"] else "")
              + (f"  (llvm-mc crashed: {c['llvm_crash']})" if c["llvm_crash"] else ""))
        summary[t] = dict(c)
        lines = ["\t".join(str(x) for x in b) for b in bad[t]]
        (out / f"{t}.txt").write_text("# file:line\tattrs\tkind\tinput\tllvm-mc-22\tours\n" + "\n".join(lines) + "\n")
    if args.top:
        for t in sorted(bad):
            groups = collections.defaultdict(list)
            for b in bad[t]:
                groups[classify(b)].append(b)
            if not groups:
                continue
            print(f"\n{t}: top disagreement classes (of {len(bad[t])} lines)")
            for (kind, form, fam, reason), rows in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:args.top]:
                ex = rows[0]
                if fam == "*":
                    names = collections.Counter(r[3].split()[0] for r in rows)
                    fam = ",".join(list(names)[:3]) + (",..." if len(names) > 3 else "")
                print(f"  {len(rows):4}  {kind:12} {form:5} {fam:18} {reason}")
                print(f"        e.g. {ex[0]}: {ex[3][:90]}  | llvm: {ex[4][:90]}  | ours: {ex[5][:90]}")
    if skipped:
        print("\nskipped (no gpuisa architecture for the cpu): "
              + "; ".join(f"{k}: {len(v)} run(s) ({', '.join(sorted(set(v))[:4])}{'...' if len(set(v)) > 4 else ''})"
                          for k, v in sorted(skipped.items())))
    (out / "summary.json").write_text(json.dumps({"targets": summary, "skipped": {k: sorted(set(v)) for k, v in skipped.items()},
                                                  "runs": [{k: v for k, v in r.items() if k != "bad"} for r in results]},
                                                 indent=1) + "\n")
    print(f"\n{len(jobs)} runs in {time.time() - t0:.0f}s; disagreements in {out}/<target>.txt", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
