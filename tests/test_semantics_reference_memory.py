"""LDS addressing on the wave machine against a byte-array model: two-address stores and loads with dword
offsets and their stride-64 forms (RDNA's ds_*_2addr_stride64_*, GFX9's ds_write2st64/ds_read2st64_*: offsets
in units of 64 elements), sub-dword loads with zero or sign extension, in wave32 and wave64.
"""

from __future__ import annotations

import numpy as np
import pytest

import gpuisa
from gpuisa.semantics import sources

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

RNG = np.random.default_rng(7)
NAMES = {"rdna4": ("ds_store_2addr{st}_b{w}", "ds_load_2addr{st}_b{w}", "_stride64", "ds_load_{t}"),
         "cdna4": ("ds_write2{st}_b{w}", "ds_read2{st}_b{w}", "st64", "ds_read_{t}")}


def model_two(addr, d0, d1, o0, o1, unit, nbytes):
    """LDS bytes after each lane stores d0 at addr + o0 * unit and d1 at addr + o1 * unit (lane order)."""
    lds = bytearray(1 << 16)
    for a, x, y in zip(addr, d0, d1):
        for off, val in ((o0 * unit, x), (o1 * unit, y)):
            lds[a + off:a + off + nbytes] = int(val).to_bytes(nbytes, "little")
    return lds


@pytest.mark.parametrize("arch,wave", [("rdna4", 32), ("rdna4", 64), ("cdna4", 64)])
@pytest.mark.parametrize("w,stride", [(32, False), (32, True), (64, False), (64, True)])
def test_two_address_stores_and_loads(arch, wave, w, stride):
    store, load, st64, _ = NAMES[arch]
    nbytes, st = w // 8, st64 if stride else ""
    unit = nbytes * (64 if stride else 1)
    addr = [i * nbytes for i in range(wave)]
    o0, o1 = (1, 3) if stride else (5, 200)
    d0, d1 = ([int(x) for x in RNG.integers(0, 1 << w, wave, dtype=np.uint64)] for _ in range(2))
    lds = model_two(addr, d0, d1, o0, o1, unit, nbytes)
    k = w // 32
    data = {f"V{2 + j}": [(x >> (32 * j)) & 0xFFFFFFFF for x in d0] for j in range(k)}
    data.update({f"V{4 + j}": [(x >> (32 * j)) & 0xFFFFFFFF for x in d1] for j in range(k)})
    src0, src1 = ("v2", "v4") if k == 1 else ("v[2:3]", "v[4:5]")
    dst = "v[8:9]" if k == 1 else "v[8:11]"
    text = (f"{store.format(st=st, w=w)} v1, {src0}, {src1} offset0:{o0} offset1:{o1}\n"
            f"{load.format(st=st, w=w)} {dst}, v1 offset0:{o1} offset1:{o0}")
    got = gpuisa.run(arch, text, {"V1": addr, **data}, wave=wave)
    for lane, a in enumerate(addr):
        first = int.from_bytes(lds[a + o1 * unit:a + o1 * unit + nbytes], "little")
        second = int.from_bytes(lds[a + o0 * unit:a + o0 * unit + nbytes], "little")
        regs = [int(got[f"V{8 + j}"][lane]) for j in range(2 * k)]
        assert sum(r << (32 * j) for j, r in enumerate(regs[:k])) == first, (arch, w, stride, lane)
        assert sum(r << (32 * j) for j, r in enumerate(regs[k:])) == second, (arch, w, stride, lane)


@pytest.mark.parametrize("arch,wave", [("rdna4", 32), ("cdna4", 64)])
def test_sub_dword_loads_extend(arch, wave):
    words = [int(x) for x in RNG.integers(0, 1 << 32, wave)]
    addr = [4 * i for i in range(wave)]
    load = NAMES[arch][3]
    store = "ds_store_b32" if arch == "rdna4" else "ds_write_b32"
    for t, size, signed in (("u8", 1, False), ("i8", 1, True), ("u16", 2, False), ("i16", 2, True)):
        for off in (0, 1, 2) if size == 1 else (0, 2):
            st = gpuisa.run(arch, f"{store} v1, v2\n{load.format(t=t)} v3, v1 offset:{off}", {"V1": addr, "V2": words},
                            wave=wave)
            for x, g in zip(words, st["V3"]):
                raw = (x >> (8 * off)) & ((1 << (8 * size)) - 1)
                want = (raw - (1 << (8 * size)) if signed and raw >> (8 * size - 1) else raw) & 0xFFFFFFFF
                assert int(g) == want, (arch, t, off, hex(x), hex(int(g)))
