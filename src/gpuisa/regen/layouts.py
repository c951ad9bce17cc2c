"""Opcodes of the codec-side GFX9 layouts learned from llvm-mc-22 at generation time (the layouts and their
use: ``codec/layouts.py``).

    python -m gpuisa.regen.layouts [arch ...]   # writes codec/data/layouts_<arch>.json

One word per opcode value is disassembled and the mnemonic read back; after regenerating, rerun
``python -m gpuisa.regen --steps plans,named --arch <arch>``.
"""

from __future__ import annotations

import json
import sys

from .. import archs
from ..codec.layouts import COMMAND, DATA_DIR, EXTRA, encoding_of, layout_of
from ..model import Encoding

# field values that make a probe word printable (registers inside their files, all channels on)
_FILL = {"DMASK": 0xF, "VDATA": 4, "VADDR": 6, "SRSRC": 2, "EN": 0xF, "VDST": 4, "VSRC": 6,
         "VSRC0": 1, "VSRC1": 2, "VSRC2": 3, "VSRC3": 4}


def _probe_word(enc: Encoding, opcode: int | None) -> int:
    w = enc.identifier(opcode)
    for f in enc.fields:
        if f.value is None and f.name in _FILL and f.name != enc.op_field:
            w |= f.place(_FILL[f.name])
    return w


def build_arch(arch_name: str) -> dict:
    from ..codec import oracle

    target = archs.by_name(arch_name).mc_target
    encodings, entries = {}, []
    for name in EXTRA.get(arch_name, []):
        enc = encoding_of(name, arch_name=arch_name)
        op = enc.field(enc.op_field) if enc.op_field else None
        opcodes = list(range(1 << op.width)) if op is not None else [None]
        words = [_probe_word(enc, o) for o in opcodes]
        got = oracle.disassemble(target, [w.to_bytes(enc.width // 8, "little") for w in words])
        for o, r, _w in zip(opcodes, got, words):
            if not r or r[0].offset != 0 or r[0].text is None or r[0].size != enc.width // 8:
                continue
            text = r[0].text
            mnemonic = text.split()[0]
            base = mnemonic[:-4] if mnemonic.endswith(("_e32", "_e64")) else mnemonic
            entries.append({"name": base, "encoding": name, "opcode": o, "syntax": text})
        encodings[name] = {"width": enc.width, "op_field": enc.op_field, "fields": layout_of(arch_name, name)[2]}
    return {"arch": arch_name, "target": target, "generated_by": COMMAND, "encodings": encodings, "entries": entries}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for name in argv or sorted(EXTRA):
        doc = build_arch(name)
        head = {k: v for k, v in doc.items() if k != "entries"}
        lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()] + ['  "entries": [']
        lines += [f"    {json.dumps(e)}" + ("," if j < len(doc["entries"]) - 1 else "") for j, e in enumerate(doc["entries"])]
        lines += ["  ]", "}"]
        (DATA_DIR / f"layouts_{name}.json").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(doc['entries'])} entries in {', '.join(doc['encodings'])}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
