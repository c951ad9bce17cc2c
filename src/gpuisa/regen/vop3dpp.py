"""GFX11/GFX12 VOP3 DPP forms learned from llvm-mc-22 at generation time (the runtime's use:
``codec/vop3dpp.py``).

    python -m gpuisa.regen.vop3dpp [arch ...]   # adds the key ``vop3dpp`` to codec/data/named_<arch>.json
"""

from __future__ import annotations

import json
import re
import sys

from .. import archs
from ..codec.vop3dpp import ENCODINGS

DPP16_ID = 5 | (0xE4 << 8) | (0xF << 24) | (0xF << 28)  # v5, quad_perm:[0,1,2,3], all rows and banks


DPP8_ID = 5 | sum(i << (8 + 3 * i) for i in range(8))  # v5, dpp8:[0,1,2,3,4,5,6,7]


def probe_vop3dpp(arch_name: str) -> dict:
    """{"dpp16": {key: mnemonic}, "dpp8": {key: mnemonic}}: forms whose text is ours with src0 = v5 and the
    mnemonic changed, followed by the identity DPP modifiers."""
    from ..codec import oracle
    from .plans import plain_src0_forms

    keys, words, wants = [], [], []
    for key, enc, w, text in plain_src0_forms(arch_name, ENCODINGS, 8):
        f = enc.field("SRC0")
        keys.append(key)
        wants.append(text)
        words.append((w | f.place(0xFA)).to_bytes(8, "little") + DPP16_ID.to_bytes(4, "little"))
        words.append((w | f.place(0xE9)).to_bytes(8, "little") + DPP8_ID.to_bytes(4, "little"))
    got = oracle.disassemble(archs.by_name(arch_name).mc_target, words)
    out: dict = {"dpp16": {}, "dpp8": {}, "vgpr": {}}
    tails = {"dpp16": " quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", "dpp8": " dpp8:[0,1,2,3,4,5,6,7]"}
    for i, (key, want) in enumerate(zip(keys, wants)):
        for j, kind in enumerate(("dpp16", "dpp8")):
            r = got[2 * i + j]
            text = r[0].text if r and r[0].offset == 0 and r[0].size == 12 else None
            if not text:
                continue
            mn = text.split()[0]
            if _NOTE.sub("", text) == mn + want[len(want.split()[0]):] + tails[kind]:
                out[kind][key] = mn
                out["vgpr"].update(_vgpr_only(key, text))
    return out


_NOTE = re.compile(r"/\*Invalid register, operand has '[A-Za-z0-9_]+' register class\*/")


def _vgpr_only(key: str, text: str) -> dict:
    """``{"key|k": note}`` for each source the DPP form prints with a register-class note where the plain form
    takes an SGPR (VOP3P DPP: src1/src2 of v_fma_mix* and v_dot4_f32_fp8*, VGPRs only)."""
    from ..codec.syntax import split_operands

    ops = split_operands(text)[0]
    return {f"{key}|{k}": m.group(0) for k, tok in enumerate(ops) if (m := _NOTE.search(tok))}


def main(argv: list[str] | None = None) -> int:
    """Add the learned ``vop3dpp`` table to the named tables of the given (default: GFX11/GFX12) architectures."""
    from ..codec.plans import DATA_DIR

    names = (argv if argv is not None else sys.argv[1:]) or ["rdna3", "rdna3.5", "rdna4"]
    for name in names:
        path = DATA_DIR / f"named_{name}.json"
        doc = json.loads(path.read_text())
        doc["vop3dpp"] = probe_vop3dpp(name)
        path.write_text(json.dumps(doc, indent=0, sort_keys=True) + "\n")
        print(name, len(doc["vop3dpp"]["dpp16"]), "DPP16 and", len(doc["vop3dpp"]["dpp8"]), "DPP8 VOP3 forms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
