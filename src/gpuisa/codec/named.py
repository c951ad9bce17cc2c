"""Named field values learned from llvm-mc-19 at generation time: hardware-register names,
buffer format names, export targets and export source slots, per architecture.

    python -m gpuisa.codec.named [arch ...]   # writes codec/data/named_<arch>.json

Each table is obtained by disassembling words built from a plan's base word with one field
set to every value it can take and reading back the token LLVM prints for it; nothing is
copied from LLVM's sources.  The decoder (``special.py``) turns the tables into operands.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path

from .. import archs
from .plans import DATA_DIR, DONOR, load_plans
from .syntax import split_operands
from .tables import load_arch_tables

_HWREG = re.compile(r"hwreg\(([A-Z_0-9]+)\)")


def _probe(arch_name: str, key: str, settings: list[dict[str, int]]) -> list[str | None]:
    """Text llvm-mc prints for the plan ``key``'s base word with each field setting applied."""
    from . import oracle

    t = load_arch_tables(arch_name)
    plan = load_plans(arch_name)[key]
    enc = t.encodings[key.split("|")[1]]
    words = []
    for s in settings:
        w = plan["w"]
        for fname, v in s.items():
            f = enc.field(fname)
            w = (w & ~f.place((1 << f.width) - 1)) | f.place(v)
        words.append(w.to_bytes(enc.width // 8, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).llvm_target, words)
    return [r[0].text if r and r[0].offset == 0 and r[0].size == len(w) else None for r, w in zip(got, words)]


def _first_key(arch_name: str, prefix: str, encoding: str) -> str | None:
    keys = sorted(k for k in load_plans(arch_name) if k.startswith(prefix) and k.endswith("|" + encoding))
    return keys[0] if keys else None


def build_arch(arch_name: str) -> dict:
    out: dict = {"arch": arch_name, "generated_by": "python -m gpuisa.codec.named"}
    key = _first_key(arch_name, "s_getreg_b32|", "SOPK")
    if key:
        texts = _probe(arch_name, key, [{"SIMM16": i | (31 << 11)} for i in range(64)])
        out["hwreg"] = {str(i): m.group(1) for i, t in enumerate(texts) if t and (m := _HWREG.search(t))}
    key = _first_key(arch_name, "tbuffer_load_format_x|", "MTBUF")
    if key:
        enc = load_arch_tables(arch_name).encodings["MTBUF"]
        names = [f.name for f in enc.fields if f.name in ("FORMAT", "DFMT", "NFMT")]
        if names == ["FORMAT"]:
            settings = [{"FORMAT": v} for v in range(128)]
        else:
            settings = [{"NFMT": v >> 4, "DFMT": v & 15} for v in range(128)]
        fmt = {}
        for v, text in enumerate(_probe(arch_name, key, settings)):
            if text is None:
                fmt[str(v)] = None
                continue
            mods = split_operands(text)[1]
            fmt[str(v)] = next((m for m in mods if m.startswith("format:")), "")
        out["format"] = fmt
    for enc_name, mn in (("EXP", "exp|"), ("VEXPORT", "export|")):
        key = _first_key(arch_name, mn, enc_name)
        if not key:
            continue
        texts = _probe(arch_name, key, [{"TARGET": v, "EN": 15} for v in range(64)])
        out["exp_target"] = {str(v): (t.split()[1].rstrip(",") if t else None) for v, t in enumerate(texts)}
        fields = [f.name for f in load_arch_tables(arch_name).encodings[enc_name].fields]
        has_compr = "COMPR" in fields
        settings = [{"EN": en, "VSRC0": 10, "VSRC1": 11, "VSRC2": 12, "VSRC3": 13, **({"COMPR": c} if has_compr else {})}
                    for c in ((0, 1) if has_compr else (0,)) for en in range(16)]
        slots = {}
        for s, text in zip(settings, _probe(arch_name, key, settings)):
            if text is None:
                continue
            ops, mods = split_operands(text)
            toks = ops[0].split()[1:] + ops[1:4]  # the target and the first source share the first operand
            slots[f"{s.get('COMPR', 0)}/{s['EN']}"] = [None if o == "off" else int(o[1:]) - 10 for o in toks]
        out["exp_slots"] = slots
        every = {f: 1 for f in ("DONE", "COMPR", "VM", "ROW") if f in fields}
        text = _probe(arch_name, key, [{"EN": 15, **every}])[0]
        out["exp_mods"] = split_operands(text)[1] if text else []
    return out


@functools.lru_cache(maxsize=None)
def load_named(arch_name: str) -> dict:
    path = DATA_DIR / f"named_{arch_name}.json"
    if not path.exists():
        donor = DONOR.get(arch_name)
        return load_named(donor) if donor else {}
    return json.loads(path.read_text())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    names = argv or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    for name in names:
        doc = build_arch(name)
        Path(DATA_DIR / f"named_{name}.json").write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n")
        print(f"{name}: {', '.join(k for k in doc if k not in ('arch', 'generated_by'))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
