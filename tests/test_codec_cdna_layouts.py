"""CDNA decoding against llvm-mc-22: the codec-side layouts (gfx908 EXP/VINTRP/MIMG, GFX9 FLAT offset)
and the GFX9 printing rules added for them, each checked on words llvm-mc-22 decodes at test time."""

from __future__ import annotations

import random

import pytest

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.decoder import get_decoder
from gpuisa.codec.layouts import GFX9_GRAPHICS, encoding_of
from gpuisa.codec.tables import load_arch_tables


def _agree(arch: str, words: list[bytes]) -> tuple[int, list[str]]:
    ref = oracle.disassemble(archs.by_name(arch).llvm_target, words)
    dec = get_decoder(arch)
    ok, bad = 0, []
    for i, (w, r) in enumerate(zip(words, ref)):
        theirs = r[0].text if r and r[0].offset == 0 else None
        mine = dec.decode_at(w + oracle.separator(i), 0)
        if (mine.text if mine.valid else None) == theirs:
            ok += 1
        else:
            bad.append(f"{w.hex()} ours={mine.text!r} llvm={theirs!r}")
    return ok, bad


def test_gfx9_graphics_layouts_are_whole_and_disjoint():
    # hand-checked facts of the GFX9 formats: fields never overlap, ENCODING values as AMD lists them
    want = {"EXP": 0b110001, "VINTRP": 0b110101, "MIMG": 0b111100}
    for name, (width, _, _) in GFX9_GRAPHICS.items():
        enc = encoding_of(name)
        seen = 0
        for f in enc.fields:
            bits = f.mask
            assert not seen & bits, (name, f.name)
            seen |= bits
        assert enc.field("ENCODING").value == want[name]
        assert enc.width == width


@pytest.mark.parametrize("encoding", ["EXP", "VINTRP", "MIMG"])
def test_gfx908_graphics_words_decode_like_llvm(llvm_mc, encoding):
    enc = load_arch_tables("cdna1").encodings[encoding]
    rng = random.Random(11)
    words = [((rng.getrandbits(enc.width) & ~enc.fixed_mask) | enc.fixed_value).to_bytes(enc.width // 8, "little")
             for _ in range(400)]
    ok, bad = _agree("cdna1", words)
    assert ok >= 0.98 * len(words), bad[:5]


def test_gfx908_knows_the_vintrp_bit_layout(llvm_mc):
    # v_interp_p2_f32 v7, v3, attr5.z: VDST=7, OP=1, ATTR=5, ATTRCHAN=2, VSRC=3 placed by hand
    word = (0b110101 << 26) | (7 << 18) | (1 << 16) | (5 << 10) | (2 << 8) | 3
    ref = oracle.disassemble("gfx908", [word.to_bytes(4, "little")])[0]
    assert ref[0].text == "v_interp_p2_f32_e32 v7, v3, attr5.z"
    assert get_decoder("cdna1").decode_at(word.to_bytes(4, "little") + b"\0" * 8, 0).text == ref[0].text


@pytest.mark.parametrize("arch", ["cdna1", "cdna2", "cdna3"])
def test_flat_offset_and_returning_atomics_like_llvm(llvm_mc, arch):
    t = load_arch_tables(arch)
    rng = random.Random(5)
    words = []
    for e in t.entries:
        if e.encoding in ("FLAT", "GLOBAL") and "atomic" in e.name:
            enc = t.encodings[e.encoding]
            for _ in range(3):
                words.append(((rng.getrandbits(64) & ~enc.fixed_mask & ~enc.field("OP").place(127))
                              | e.identifier).to_bytes(8, "little"))
    ok, bad = _agree(arch, words)
    assert ok >= 0.97 * len(words), bad[:5]


@pytest.mark.parametrize("arch", ["cdna1", "cdna3"])
def test_gfx9_scalar_immediates_and_16bit_literals_like_llvm(llvm_mc, arch):
    # s_sethalt / s_setprio print decimal up to 64 and hex above; f16 VOP2 literals print their low half
    sopp = [(0xBF8D0000 | v).to_bytes(4, "little") for v in (1, 16, 64, 65, 0x41F, 0xFFFF)]
    sopp += [(0xBF8F0000 | v).to_bytes(4, "little") for v in (3, 100)]
    lit = [bytes([0xFF, 0x02, 0x02, 0x3E]) + v.to_bytes(4, "little") for v in (0x5852340E, 0xBF800007, 0x3C00)]
    ok, bad = _agree(arch, sopp + lit)
    assert not bad, bad
