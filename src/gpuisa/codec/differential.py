"""Differential checks against llvm-mc-19: random words through both decoders.

    python -m gpuisa.codec.differential [--words N] [--seed S] [arch ...]

Each random 64-bit word is decoded by both; what is compared is the list of
(offset, text or invalid) of the instructions starting inside its 8 bytes
(a literal or second half may extend past them into separator bytes that
both decoders see).  Disagreements go to ``artifacts/decode_<arch>.txt``.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

from .. import archs
from . import oracle
from .decoder import get_decoder



def ours(arch: str, probe: bytes, wave64: bool = False, index: int = 0) -> list[tuple[int, str | None]]:
    dec = get_decoder(arch, wave64)
    out = []
    for d in dec.decode(probe + oracle.separator(index)):
        if d.offset >= len(probe):
            break
        out.append((d.offset, d.text if d.valid else None))
    return out


def compare(arch: str, probes: list[bytes], wave64: bool = False):
    a = archs.by_name(arch)
    ref = oracle.disassemble(a.llvm_target, probes, wave64)
    rows = []
    for i, (p, r) in enumerate(zip(probes, ref)):
        theirs = [(it.offset, it.text) for it in r]
        mine = ours(arch, p, wave64, i)
        rows.append((p, mine, theirs, mine == theirs))
    return rows


def random_words(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.getrandbits(64).to_bytes(8, "little") for _ in range(n)]


def enc_of(arch: str, probe: bytes) -> str:
    d = get_decoder(arch).decode_at(probe + oracle.separator(0), 0)
    if d.encoding:
        return d.encoding
    return "invalid"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--words", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="artifacts")
    ap.add_argument("arch", nargs="*")
    args = ap.parse_args(argv)
    names = args.arch or [x.name for x in archs.AMD_ARCHS if x.llvm_target]
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    summary = {}
    for name in names:
        rows = compare(name, random_words(args.words, args.seed))
        per_enc = collections.defaultdict(lambda: [0, 0])
        lines = []
        for p, mine, theirs, ok in rows:
            e = enc_of(name, p)
            per_enc[e][0] += 1
            per_enc[e][1] += ok
            if not ok:
                lines.append(f"{p.hex()}\t{e}\tours={mine}\tllvm={theirs}")
        agree = sum(r[3] for r in rows)
        (out / f"decode_{name}.txt").write_text("\n".join(lines) + "\n")
        summary[name] = {"words": len(rows), "agree": agree, "pct": round(100 * agree / len(rows), 3),
                         "per_encoding": {k: {"words": v[0], "pct": round(100 * v[1] / v[0], 2)}
                                          for k, v in sorted(per_enc.items(), key=lambda kv: -kv[1][0])}}
        print(f"{name}: {summary[name]['pct']}% of {len(rows)} words agree", file=sys.stderr)
    (out / "decode_summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
