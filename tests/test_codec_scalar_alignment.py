"""SGPR and ttmp tuples' alignment as llvm-mc-22 takes it, on lines of our own: two registers start on an even
register, three or more on a multiple of four, on every generation (found by LLVM's out-of-range-registers.s in a
held-out sample: misaligned tuples were assembled)."""

from __future__ import annotations

import pytest
from mc_compare import encode_disagreements

_LINES = {
    "GFX9": ["s_mov_b64 s[3:4], -1", "s_mov_b64 s[2:3], -1", "s_load_dwordx4 s[6:9], s[2:3], 0x0",
             "s_load_dwordx4 s[8:11], s[2:3], 0x0", "s_load_dwordx8 s[4:11], s[2:3], 0x0",
             "s_load_dwordx8 s[2:9], s[2:3], 0x0", "s_and_b64 s[0:1], ttmp[1:2], s[4:5]",
             "s_and_b64 s[0:1], ttmp[2:3], s[4:5]", "s_load_dwordx2 s[4:5], s[3:4], 0x0"],
    "GFX10": ["s_mov_b64 s[103:104], -1", "s_load_dwordx4 s[102:105], s[2:3], s4",
              "s_load_dwordx4 s[100:103], s[2:3], s4", "s_load_dwordx8 s[4:11], s[2:3], s4",
              "s_buffer_load_dwordx4 s[4:7], s[2:5], s4", "s_buffer_load_dwordx4 s[4:7], s[4:7], s4",
              "s_and_b64 s[0:1], s[3:4], s[4:5]", "s_cselect_b64 s[2:3], ttmp[4:5], ttmp[6:7]"],
    "GFX12": ["s_load_b96 s[2:4], s[2:3], s4", "s_load_b96 s[4:6], s[2:3], s4", "s_load_b512 s[4:19], s[2:3], s4",
              "s_load_b128 ttmp[2:5], s[2:3], s4", "s_load_b128 ttmp[4:7], s[2:3], s4",
              "s_load_b64 s[1:2], s[2:3], s4", "s_mov_b64 s[2:3], s[5:6]"],
}


@pytest.mark.parametrize("arch,family", [("cdna3", "GFX9"), ("rdna1", "GFX10"), ("rdna3", "GFX10"),
                                         ("rdna4", "GFX12"), ("cdna5", "GFX12")])
def test_scalar_tuples_start_where_llvm_mc_takes_them(llvm_mc, arch, family):
    assert not encode_disagreements(arch, _LINES[family])
