"""SDWA forms (GFX9, GFX10) learned from llvm-mc-22 at generation time (the runtime's use: ``codec/sdwa.py``).

    python -m gpuisa.regen.sdwa [arch ...]   # adds the key ``sdwa`` to codec/data/named_<arch>.json

Per instruction the SDWA mnemonic, which modifier words LLVM prints (``dst_sel``/``dst_unused``/``src0_sel``/
``src1_sel``) and which single bits and field values it accepts.
"""

from __future__ import annotations

import json
import sys

from .. import archs
from ..codec.sdwa import FIELDS, FLAG_BITS

DEFAULT = (6 << 8) | (6 << 16) | (6 << 24)  # every selector DWORD, dst_unused UNUSED_PAD


def sdwa_word(src: int = 5, extra: int = 0, clear: int = 0) -> int:
    return ((DEFAULT & ~clear) | src | extra) & 0xFFFFFFFF


def probe_sdwa(arch_name: str) -> dict:
    """{"mn": {key: mnemonic}, "mods": {key: [modifier names printed]}, "bits": {key: accepted flag bit mask},
    "sels": {key: {field: accepted value mask}}}."""
    from ..codec import oracle
    from .plans import plain_src0_forms

    target = archs.by_name(arch_name).mc_target
    keys, firsts = [], []
    for key, enc, w, _ in plain_src0_forms(arch_name, ("VOP1", "VOP2", "VOPC"), 4):
        keys.append(key)
        firsts.append((w | enc.field("SRC0").place(0xF9)).to_bytes(4, "little"))
    def variants(vop1: bool) -> list[int]:
        base = 7 << 24 if vop1 else 0  # VOP1 has no src1: its selector stays 0
        out = [sdwa_word(clear=base)] + [sdwa_word(extra=1 << b, clear=base) for b in FLAG_BITS]
        for _name, (lo, n) in FIELDS.items():
            out += [sdwa_word(extra=v << lo, clear=base | 7 << lo) for v in range(7 if n == 7 else 3)]  # 7: crash
        return out

    words = [w + v.to_bytes(4, "little") for w, key in zip(firsts, keys) for v in variants(key.endswith("|VOP1"))]
    nv = len(variants(False))
    got = oracle.disassemble(target, words)
    out: dict = {"mn": {}, "mods": {}, "bits": {}, "sels": {}}
    for i, key in enumerate(keys):
        rows = got[nv * i:nv * i + nv]
        texts = [r[0].text if r and r[0].offset == 0 and r[0].size == 8 else None for r in rows]
        if not texts[0] or "_sdwa" not in texts[0].split()[0]:
            continue
        out["mn"][key] = texts[0].split()[0]
        out["mods"][key] = [tok.split(":")[0] for tok in texts[0].split() if ":" in tok and tok.split(":")[0] in FIELDS]
        out["bits"][key] = sum(1 << b for b, tx in zip(FLAG_BITS, texts[1:]) if tx)
        k = 1 + len(FLAG_BITS)
        sels = {}
        for name, (_lo, n) in FIELDS.items():
            cnt = 7 if n == 7 else 3
            sels[name] = sum(1 << v for v in range(cnt) if texts[k + v])
            k += cnt
        out["sels"][key] = sels
    return out


def main(argv: list[str] | None = None) -> int:
    """Add the learned ``sdwa`` table to the named tables of the given (default: GFX9/GFX10) architectures."""
    from ..codec.plans import DATA_DIR

    names = (argv if argv is not None else sys.argv[1:]) or ["cdna1", "cdna2", "cdna3", "rdna1", "rdna2"]
    for name in names:
        path = DATA_DIR / f"named_{name}.json"
        doc = json.loads(path.read_text())
        doc["sdwa"] = probe_sdwa(name)
        path.write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n")
        print(name, len(doc["sdwa"]["mn"]), "SDWA forms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
