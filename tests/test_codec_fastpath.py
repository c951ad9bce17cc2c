"""The fast path (caches, compiled plans, numpy dword split) must print exactly what the generic
renderer prints: random words and a stream of real-looking instructions through both."""

from __future__ import annotations

import random

import pytest

from gpuisa.codec.decoder import Decoder

TARGETS = ["rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna1", "cdna2", "cdna3", "cdna4"]


def _slow(dec: Decoder, buf: bytes, off: int):
    d = dec._decode_slow(buf, off)
    return d.text, len(d.data), d.valid, d.encoding, d.fields


@pytest.mark.parametrize("arch", TARGETS)
def test_fast_path_prints_what_the_generic_renderer_prints(arch):
    dec = Decoder(arch)
    rng = random.Random(3)
    tail = bytes.fromhex("070080bf") * 4
    words = [rng.getrandbits(64).to_bytes(8, "little") + rng.getrandbits(32).to_bytes(4, "little") for _ in range(4000)]
    # repeat some words with other register fields so templates are reused, not only built
    words += [bytes([rng.randrange(256)]) + w[1:] for w in words[:1500]]
    diffs = []
    for w in words:
        buf = w + tail
        for off in (0, 4):
            fast = dec.decode_at(buf, off)
            got = (fast.text, len(fast.data), fast.valid, fast.encoding, fast.fields)
            want = _slow(dec, buf, off)
            if got != want:
                diffs.append((buf.hex(), off, got[0], want[0]))
    assert not diffs, diffs[:5]


@pytest.mark.parametrize("arch", ["rdna3", "cdna3"])
def test_bulk_decode_matches_one_at_a_time(arch):
    dec = Decoder(arch)
    rng = random.Random(9)
    blob = bytes(rng.getrandbits(8) for _ in range(4 * 3001 + 3))  # a ragged tail too
    bulk = dec.decode(blob, base_offset=0x100)
    one, off = [], 0
    while off < len(blob):
        d = dec._decode_slow(blob, off) if len(blob) - off >= 8 else dec.decode_at(blob, off)
        one.append((d.offset + 0x100, d.text, d.data))
        off += len(d.data) if d.valid else min(4, len(blob) - off)
    assert [(d.offset, d.text, d.data) for d in bulk] == one
    assert sum(len(d.data) for d in bulk) == len(blob)


def test_page_extender_does_not_import_the_codec():
    """``gpuisa show`` runs codec.pages for every AMD page: it must not pay for the decoder, encoder or numpy."""
    import subprocess
    import sys

    code = ("import sys, gpuisa.codec.pages; "
            "print(sorted(m for m in ('gpuisa.codec.decoder', 'gpuisa.codec.encoder', 'gpuisa.codec.fastpath', "
            "'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize("arch,target", [("rdna3", "gfx1100"), ("rdna1", "gfx1010"), ("cdna3", "gfx942")])
def test_learned_operand_tables_print_like_llvm(llvm_mc, arch, target):
    """hwreg(...) and s_version operands for random 16-bit values: our text vs llvm-mc's."""
    from gpuisa.codec import oracle
    from gpuisa.codec.plans import load_plans

    dec = Decoder(arch)
    plans = load_plans(arch)
    rng = random.Random(5)
    words = []
    for key in ("s_getreg_b32|SOPK", "s_version|SOPK"):
        if key in plans:
            words += [(plans[key].word | rng.randrange(65536)).to_bytes(4, "little") for _ in range(400)]
    ref = oracle.disassemble(target, words)
    bad = [(w.hex(), dec.decode_at(w + b"\0" * 8, 0).text, r[0].text) for w, r in zip(words, ref)
           if dec.decode_at(w + b"\0" * 8, 0).text != r[0].text]
    assert len(words) >= 400 and not bad, bad[:5]
