"""Golden corpora: (text, bytes) pairs produced by llvm-mc-22, per target (generation time).

    python -m gpuisa.regen.golden [arch ...]     # writes tests/golden/<llvm target>.jsonl

For every instruction form the codec knows (each print plan, and its wave64 variant where it has one), a few
words with every free field drawn at random (seeded: the same corpus every run) are disassembled by
llvm-mc-22; the texts LLVM prints cleanly are assembled again by llvm-mc-22, and a pair is kept where the
bytes decode back to the same text (LLVM's own round trip).  Each valid pair is one line
``{"m": "w32"|"w64", "text": ..., "hex": ...}``; invalid lines are the same texts with one operand replaced by
a register of another class or past the register file, kept with LLVM's error where llvm-mc-22 rejects them:
``{"m": ..., "text": ..., "error": ...}``.  The codec tests read these files without llvm-mc
(``tests/test_golden.py``); the live differential against llvm-mc-22 still runs in CI.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from .. import archs
from ..codec import oracle
from ..codec.plans import load_plans
from ..codec.syntax import split_operands
from ..codec.tables import load_arch_tables

OUT = Path(__file__).resolve().parents[3] / "tests" / "golden"
TRIES = 6  # random words per form
KEEP = 2  # valid pairs kept per form
_SWAP = {"v": "s", "s": "v", "a": "s"}


def _words(arch_name: str, wave64: bool, seed: int) -> list[tuple[str, bytes]]:
    tables = load_arch_tables(arch_name)
    plans = load_plans(arch_name, wave64)
    rng = random.Random(f"{arch_name}/{wave64}/{seed}")
    out = []
    for key in sorted(plans):
        enc = tables.encodings.get(key.split("|")[1])
        if enc is None:
            continue
        plan = plans[key]
        free = [f for f in enc.fields if f.value is None and f.name != enc.op_field and f.name not in ("OPX", "OPY")]
        nbytes = plan.size
        for _ in range(TRIES):
            w = plan.word
            for f in free:
                if rng.random() < 0.5:
                    w = f.insert(w, rng.getrandbits(f.width))
            tail = bytes(rng.getrandbits(8) for _ in range(max(0, nbytes - enc.width // 8) + 4))
            out.append((key, w.to_bytes(enc.width // 8, "little") + tail))
    return out


def _invalid(text: str, rng: random.Random) -> str | None:
    """``text`` with one register operand of another class, or one past the register file."""
    parts = text.split(None, 1)
    if len(parts) < 2:
        return None
    ops, mods = split_operands(text)
    regs = [i for i, o in enumerate(ops) if o[:1] in _SWAP and o[1:2].isdigit()]
    if not regs:
        return None
    i = rng.choice(regs)
    o = ops[i]
    ops[i] = _SWAP[o[0]] + o[1:] if rng.random() < 0.5 else o[0] + "300"
    return " ".join([parts[0], ", ".join(ops)] + mods)


def corpus(arch_name: str) -> list[dict]:
    arch = archs.by_name(arch_name)
    rows: list[dict] = []
    modes = [False] + ([True] if set(arch.features.waves) == {32, 64} else [])
    for wave64 in modes:
        m = "w64" if wave64 else "w32"
        if wave64:  # only the forms that print differently in wave64
            base = load_plans(arch_name)
            cands = [(k, b) for k, b in _words(arch_name, True, 1) if load_plans(arch_name, True).get(k) != base.get(k)]
        else:
            cands = _words(arch_name, False, 1)
        got = oracle.disassemble(arch.mc_target, [b for _, b in cands], wave64)
        texts: list[str] = []
        kept: dict[str, int] = {}
        for (key, _b), items in zip(cands, got):
            it = items[0] if items else None
            if it is None or it.offset or not it.text or it.text == oracle.CRASHED or "/*" in it.text:
                continue
            if kept.get(key, 0) >= KEEP or it.text in texts:
                continue
            kept[key] = kept.get(key, 0) + 1
            texts.append(it.text)
        asm = oracle.assemble(arch.mc_target, texts, wave64)
        pairs = [(t, data) for t, (data, canon) in zip(texts, asm) if data is not None and " ".join(canon.split()) == t]
        back = oracle.disassemble(arch.mc_target, [d for _, d in pairs], wave64)
        for (t, data), items in zip(pairs, back):
            if items and items[0].offset == 0 and items[0].text == t and items[0].size == len(data):
                rows.append({"m": m, "text": t, "hex": data.hex()})
        rng = random.Random(f"{arch_name}/{m}/invalid")
        bad = sorted({x for t, _ in pairs if (x := _invalid(t, rng)) is not None})
        for t, (refused, err) in zip(bad, oracle.assemble(arch.mc_target, bad, wave64)):
            if refused is None and err:
                rows.append({"m": m, "text": t, "error": err})
    return rows


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names:
        rows = corpus(name)
        target = archs.by_name(name).llvm_target
        head = {"generated_by": f"python -m gpuisa.regen.golden {name}", "arch": name, "target": target}
        lines = [json.dumps(head)] + [json.dumps(r, separators=(",", ":")) for r in rows]
        (OUT / f"{target}.jsonl").write_text("\n".join(lines) + "\n")
        print(f"{target}: {sum('hex' in r for r in rows)} pairs, {sum('error' in r for r in rows)} rejected lines",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
