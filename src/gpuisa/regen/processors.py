"""Processor variants within a generation, measured with llvm-mc-22 (generation time).

    python -m gpuisa.regen.processors          # writes src/gpuisa/codec/data/processors.json

LLVM's processors of one generation differ: gfx1011/gfx1012 have the dot instructions gfx1010 lacks, gfx1013 has
the ray-tracing image instructions.  For every processor of an architecture llvm-mc-22 knows, words of every
instruction form of its architecture and of the architectures of the same encoding family (``variant_words``:
varied registers, a literal) are disassembled by llvm-mc-22 for that processor and for each architecture's own
target.  An instruction of another architecture the processor prints exactly as that architecture's target does
is one it *adds* (with that architecture as its donor: same words, same text); an instruction of its own
architecture it never prints as the architecture's target does is one it *lacks*.  The texts of the added
words are assembled again for the processor and for the donor's target: the answers must be equal (else the
instruction is not added).
Only processors that differ from their architecture are written; ``measured`` lists every processor probed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from .. import archs
from ..codec import oracle
from ..codec.plans import load_plans
from ..sources.llvm import find_llvm_mc
from .examples import variant_words

OUT = Path(__file__).resolve().parents[1] / "codec" / "data" / "processors.json"


def _probes(arch: str) -> list[tuple[str, bytes]]:
    out = []
    for key in sorted(load_plans(arch)):
        name, encoding = key.split("|")
        out += [(name, data) for _, data in variant_words(arch, name, encoding)]
    return out


def _texts(target: str, probes: list[tuple[str, bytes]]) -> list[str | None]:
    """llvm-mc-22's text of each probe's first instruction when it spans the whole probe, else None."""
    got = oracle.disassemble(target, [d for _, d in probes])
    out: list[str | None] = []
    for (_, data), items in zip(probes, got):
        ok = len(items) == 1 and items[0].text not in (None, oracle.CRASHED) and items[0].size == len(data)
        out.append(items[0].text if ok else None)
    return out


def measure(arch: archs.Arch) -> dict[str, dict]:
    """{processor: {arch, adds: {name: donor}, lacks: [names]}} for the processors of ``arch`` that differ."""
    todo = [p for p in arch.targets if p != arch.llvm_target and _known(p)]
    if not todo:
        return {}
    group = [a for a in archs.AMD_ARCHS if a.llvm_target
             and a.features.encoding_family == arch.features.encoding_family]
    probes = {a.name: _probes(a.name) for a in group}
    own_names = {n for n, _ in probes[arch.name]}
    ref = {a.name: _texts(a.mc_target, probes[a.name]) for a in group}
    found: dict[str, dict] = {}
    for proc in todo:
        seen: dict[str, list[bool]] = defaultdict(list)
        adds: dict[str, str] = {}
        for a in group:
            mine = _texts(proc, probes[a.name])
            for (name, _), r, m in zip(probes[a.name], ref[a.name], mine):
                if r is None:
                    continue
                if a.name == arch.name:
                    seen[name].append(m == r)
                elif name not in own_names and m == r:
                    adds.setdefault(name, a.name)
        adds = _reassembled(proc, adds, probes, ref)
        lacks = sorted(n for n, v in seen.items() if v and not any(v))
        if adds or lacks:
            found[proc] = {"arch": arch.name, "adds": dict(sorted(adds.items())), "lacks": lacks}
    return found


def _reassembled(proc: str, adds: dict[str, str], probes: dict, ref: dict) -> dict[str, str]:
    """The added instructions whose texts llvm-mc-22 assembles for ``proc`` as for the donor's own target (the
    same bytes, or refused by both)."""
    keep = {}
    for name, donor in adds.items():
        texts = [t for (n, _), t in zip(probes[donor], ref[donor]) if n == name and t is not None]
        mine = oracle.assemble(proc, texts)
        theirs = oracle.assemble(archs.by_name(donor).mc_target, texts)
        if texts and all(a[0] == b[0] for a, b in zip(mine, theirs)):  # (both refusing a text agrees too)
            keep[name] = donor
    return keep


_KNOWN: dict[str, bool] = {}


def _known(cpu: str) -> bool:
    """Whether llvm-mc-22 knows the processor (it assembles for a generic one, with a warning, where not: gfx940)."""
    if cpu not in _KNOWN:
        proc = subprocess.run([find_llvm_mc() or "llvm-mc-22", "-arch=amdgcn", f"-mcpu={cpu}", "-show-encoding"],
                              input="s_nop 0\n",
                              capture_output=True, text=True)
        _KNOWN[cpu] = proc.returncode == 0 and "not a recognized processor" not in proc.stderr
    return _KNOWN[cpu]


def main(argv: list[str] | None = None) -> int:
    names = argv if argv is not None else sys.argv[1:]
    todo = [a for a in archs.AMD_ARCHS if a.llvm_target and len(a.targets) > 1 and (not names or a.name in names)]
    old = json.loads(OUT.read_text()) if OUT.exists() and names else {}
    procs: dict[str, dict] = dict(old.get("processors", {}))
    measured = set(old.get("measured", []))
    for a in todo:
        procs = {p: v for p, v in procs.items() if v["arch"] != a.name}
        measured -= set(a.targets)
        procs.update(measure(a))
        measured |= {t for t in a.targets if _known(t)}
        print(f"processors: {a.name}: {sum(1 for v in procs.values() if v['arch'] == a.name)} differ", file=sys.stderr)
    doc = {"generated_by": "python -m gpuisa.regen.processors", "measured": sorted(measured),
           "processors": dict(sorted(procs.items()))}
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
