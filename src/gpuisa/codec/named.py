"""Named field values per architecture (hardware-register names, buffer formats, export targets, DPP, VOPD,
register counts, notes ...), learned from llvm-mc-22 at generation time (``python -m gpuisa.regen.named``,
``regen/named.py``) and loaded here for the decoder and encoder; the decoder (``special.py``) turns the
tables into operands.
"""

from __future__ import annotations

import functools
import json

from .plans import DATA_DIR, DONOR


def vaddr_list_text(regs: list[int], n: int) -> str:
    """An image address operand of ``n`` registers from the VADDR fields: each field one register, the last
    one used holding the rest (LLVM's spelling: a bare register when there is one)."""
    toks = [f"v{r}" for r in regs[:n]]
    if n > len(regs):
        last = regs[-1]
        toks[-1] = f"v[{last}:{last + n - len(regs)}]"
    return toks[0] if n == 1 else "[" + ", ".join(toks) + "]"


@functools.lru_cache(maxsize=None)
def load_named(arch_name: str) -> dict:
    path = DATA_DIR / f"named_{arch_name}.json"
    if not path.exists():
        donor = DONOR.get(arch_name)
        return load_named(donor) if donor else {}
    return json.loads(path.read_text())
