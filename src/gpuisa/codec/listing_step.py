"""One decoded step of a stream (``Step``) and its branches, as the plain listing (``listing.py``) and the JSON
Lines listing (``listing_json.py``) both read them: here, below both, so neither imports the other's module."""

from __future__ import annotations

import numpy as np

_SOPP_BRANCH = ("s_branch ", "s_cbranch_")
_SOPK_BRANCH = "s_subvector_loop_"


class Step:
    """One decoded step of a stream: offsets (addresses), sizes in bytes, texts, dwords of the instructions."""

    def __init__(self, addr, sizes, texts: list, first, dws, blob: bytes, errors: dict[int, str]):
        self.addr, self.sizes, self.texts, self.first, self.dws = addr, sizes, texts, first, dws
        self.blob = blob  # the bytes (``first``: dword indices in them)
        self.errors = errors  # index -> why the bytes there are no instruction

    def __len__(self) -> int:
        return len(self.texts)

    def part(self, i: int, j: int) -> Step:
        """Instructions ``i`` to ``j`` (not included)."""
        errors = {k - i: e for k, e in self.errors.items() if i <= k < j}
        return Step(self.addr[i:j], self.sizes[i:j], self.texts[i:j], self.first[i:j], self.dws, self.blob, errors)


def branch_rows(st: Step) -> list[int]:
    """Indices of the step's PC-relative branches, whose target llvm-objdump prints: SOPP branches (the first
    dword's top 9 bits 0x17f; s_branch, s_cbranch_*) and SOPK subvector loops (top 4 bits 0xb; not the SOPK
    and SOP1 forks and joins of GFX9)."""
    w = st.dws.take(st.first)
    sopp = (w >> np.uint32(23)) == np.uint32(0x17F)
    cand = np.flatnonzero(sopp | ((w >> np.uint32(28)) == np.uint32(0xB))).tolist()
    sopp = sopp.tolist() if len(cand) else []
    texts = st.texts
    return [i for i in cand if texts[i].startswith(_SOPP_BRANCH if sopp[i] else _SOPK_BRANCH)]


def branch_target(st: Step, i: int) -> int:
    simm = int(st.dws[st.first[i]]) & 0xFFFF
    return int(st.addr[i]) + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)
