"""Mnemonic aliases LLVM 22's assembler accepts for an architecture (generation time).

    python -m gpuisa.regen.aliases [arch ...]   # adds "aliases" to codec/data/named_<arch>.json

Candidates: every mnemonic another architecture uses that this one lacks (``v_mfma_f32_32x32x1f32`` on gfx942,
where its name is ``v_mfma_f32_32x32x1_2b_f32``; ``v_dot8_i32_i4`` on GFX11), and spellings derived from this
architecture's own mnemonics (without the ``_b32`` size suffix, an MFMA's type without its underscore).  Each
is assembled by llvm-mc-22 with the operand text of a form that has it; where LLVM accepts it and prints
another mnemonic, ``alias -> LLVM's mnemonic`` is recorded.  Nothing is copied from LLVM's sources."""

from __future__ import annotations

import re

from .. import archs
from ..codec import oracle
from ..codec.plans import load_plans
from ..sources.llvm import base_mnemonic
from .named_key import add_key
from .plans import SREG

_MFMA_TYPE = re.compile(r"^(v_s?mfmac?_\w+?\d+x\d+x\d+)_(\w+)$")


def _base_texts() -> dict[str, list[str]]:
    """Every mnemonic of every architecture with the plan base texts of its forms (a few)."""
    out: dict[str, list[str]] = {}
    for a in archs.AMD_ARCHS:
        for plan in load_plans(a.name).values():
            text = " ".join([plan.mnemonic, ", ".join(sp.text for sp in plan.operands)] + list(plan.base_mods))
            lst = out.setdefault(plan.mnemonic, [])
            if text not in lst and len(lst) < 3:
                lst.append(text)
    return out


def _derived(mnemonic: str) -> list[str]:
    out = []
    if mnemonic.endswith("_b32") and mnemonic.startswith("v_accvgpr_"):
        out.append(mnemonic[:-4])
    m = _MFMA_TYPE.match(mnemonic)
    if m:
        out.append(m.group(1) + m.group(2))
    return out


def probe(arch_name: str) -> dict[str, str]:
    arch = archs.by_name(arch_name)
    own = {p.mnemonic: p for p in load_plans(arch_name).values()}
    texts = _base_texts()
    cands: list[tuple[str, str]] = []
    for mn, lst in sorted(texts.items()):
        if mn not in own:
            cands += [(mn, t) for t in lst]
    for mn, plan in sorted(own.items()):
        ops = ", ".join(sp.text for sp in plan.operands)
        cands += [(alias, f"{alias} {ops}".strip()) for alias in _derived(mn) if alias not in own]
    cands += [(alias, SREG.sub(lambda m: "v" + m.group(1), t)) for alias, t in cands if SREG.search(t)]
    # GFX12 image atomics need a dmask the older texts leave out (image_atomic_add: image_atomic_add_uint)
    # (llvm-mc-22 reads dmask before dim)
    cands += [(alias, t.replace(" dim:", f" dmask:{d} dim:") if " dim:" in t else f"{t} dmask:{d}")
              for alias, t in cands if alias.startswith("image_atomic") and "dmask:" not in t for d in ("0x1", "0x3")]
    out: dict[str, str] = {}
    for (alias, _), (data, canon) in zip(cands, oracle.assemble(arch.mc_target, [t for _, t in cands])):
        got = canon.split()[0] if data is not None and canon else None
        if got and alias not in out and base_mnemonic(got) != base_mnemonic(alias):
            out[alias] = got
    return dict(sorted(out.items()))


def main(argv: list[str] | None = None) -> int:
    return add_key("aliases", probe, lambda name, t: f"{name}: {len(t)} aliases", argv)


if __name__ == "__main__":
    raise SystemExit(main())
