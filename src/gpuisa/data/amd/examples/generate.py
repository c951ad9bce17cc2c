"""Regenerate the committed page examples (one JSON file per architecture here).

    python -m gpuisa.data.amd.examples.generate      # needs llvm-mc-22 for the LLVM-known targets

Every example is produced by gpuisa's encoder/decoder (varied operands, a
literal where a source allows one), round-tripped, and for LLVM-known
targets assembled by llvm-mc-22: only examples whose bytes llvm-mc
reproduces are kept, labelled with that verdict.  Architectures LLVM 22 does
not know keep round-trip-only examples, labelled so.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ....archs import AMD_ARCHS
from ....codec import oracle
from ....codec.encoder import EncodeError, get_encoder
from ....regen.examples import build_examples
from ...diffable import dumps_one_per_line

HERE = Path(__file__).parent
COMMAND = "python -m gpuisa.data.amd.examples.generate"

# The seed pages' examples (issue 4): (text, wave64)
SEEDS = [("v_msad_u8 v5, v1, v2, s3", False), ("v_mad_i32_i24 v5, v1, v2, s3", False),
         ("v_cndmask_b32 v5, -1, v2, vcc", True)]


def seed_examples(arch) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for text, wave64 in SEEDS:
        try:
            e = get_encoder(arch.name, wave64).encode_line(text)
        except EncodeError:
            continue
        target = arch.llvm_target or arch.targets[0]
        mode = ", wave64" if wave64 and arch.family == "RDNA" else ""
        verdict = "round-trip only"
        if arch.llvm_target:
            rb, _ = oracle.assemble(arch.llvm_target, [text], wave64 and arch.family == "RDNA")[0]
            if rb != e.data:
                continue
            verdict = f"accepted by llvm-mc 22 ({arch.llvm_target}{mode}), bytes identical"
        out.setdefault(e.name, []).append({"text": text, "bytes": e.data.hex(" "), "target": target,
                                           "verified_by": verdict, "encoding": e.encoding,
                                           **({"mode": "wave64"} if mode else {})})
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for arch in AMD_ARCHS:
        if argv and arch.name not in argv:
            continue
        if arch.llvm_target and oracle.find_llvm_mc() is None:
            print("llvm-mc-22 not found (apt-get install -y llvm-22)", file=sys.stderr)
            return 2
        ex = build_examples(arch.name)
        for name, lst in seed_examples(arch).items():
            have = ex.setdefault(name, [])
            ex[name] = lst + [x for x in have if x["text"] not in {s["text"] for s in lst}]
        head = {"arch": arch.name, "generated_by": COMMAND}
        (HERE / f"{arch.name}.json").write_text(dumps_one_per_line(head, "examples", dict(sorted(ex.items()))))
        print(f"{arch.name}: examples for {len(ex)} instructions", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
