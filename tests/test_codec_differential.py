"""Differential tests against llvm-mc-22: random words, operand variants, round trips.

The full measurement (100,000 words per target) is ``python -m gpuisa.regen.differential``;
here a smaller sample per target keeps the suite fast.  Floors are the agreement reached so far
(the issue's goal is 99.9%); a regression below them fails.
"""

from __future__ import annotations

import pytest

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.decoder import get_decoder
from gpuisa.codec.encoder import EncodeError, get_encoder
from gpuisa.regen import differential

TARGETS = ["rdna1", "rdna2", "rdna3", "rdna3.5", "rdna4", "cdna1", "cdna2", "cdna3", "cdna4", "cdna5"]
# The goal is 99.9% on every target (``python -m gpuisa.regen.differential``, 100,000 words); the
# floors here, on 3,000 words (seed 7), are below what was measured so that machine noise does not matter
# but a regression in a whole class of words does.
DECODE_FLOOR = {"rdna1": 99.5, "rdna2": 99.5, "rdna3": 99.2, "rdna3.5": 99.2, "rdna4": 99.2,
                "cdna1": 99.3, "cdna2": 99.3, "cdna3": 99.3, "cdna4": 99.3, "cdna5": 97.0}


@pytest.mark.parametrize("arch", TARGETS)
def test_random_words_agree_with_llvm(llvm_mc, arch, tmp_path):
    rows = differential.compare(arch, differential.random_words(3000, seed=7))
    agree = sum(r[3] for r in rows)
    pct = 100 * agree / len(rows)
    bad = [f"{p.hex()} ours={m} llvm={t}" for p, m, t, ok in rows if not ok]
    (tmp_path / f"decode_{arch}.txt").write_text("\n".join(bad))
    assert pct >= DECODE_FLOOR[arch], f"{arch}: {pct:.2f}% agreement; first: {bad[:3]}"


@pytest.mark.parametrize("arch", TARGETS)
def test_operand_variants_encode_and_print_like_llvm(llvm_mc, arch):
    r = differential.encode_agreement(arch, sample=250, seed=3)
    assert r["accepted"] > 300
    assert r["bytes_ok"] / r["accepted"] >= 0.99, r["disagreements"][:5]
    assert r["text_ok"] / r["accepted"] >= 0.98, r["disagreements"][:5]


@pytest.mark.parametrize("arch", ["rdna3", "cdna3", "rdna4", "rdna1"])
def test_round_trip_where_llvm_agrees(llvm_mc, arch):
    """encode(text(decode(b))) == b for random words both decoders print the same way."""
    rows = differential.compare(arch, differential.random_words(1500, seed=11))
    enc = get_encoder(arch)
    dec = get_decoder(arch)
    checked = ok = 0
    failures, refused = [], []
    for p, mine, _theirs, same in rows:
        if not same or not mine or mine[0][1] is None or "/*" in mine[0][1]:
            continue
        d = dec.decode_at(p + b"\0" * 16, 0)
        checked += 1
        try:
            again = enc.encode_line(d.text).data
        except EncodeError as exc:
            failures.append((d.text, str(exc)))
            refused.append(d.text)
            continue
        # bits LLVM ignores may differ; the decoded text must be the same
        if dec.decode_at(again + b"\0" * 16, 0).text == d.text:
            ok += 1
        else:
            failures.append((d.text, again.hex()))
    # llvm-mc-22 prints some words its own assembler rejects (GFX9: an SGPR with a literal or with vcc in a
    # VOP2 word, "violates constant bus restrictions"): texts that neither assembler takes are no round trip
    theirs = oracle.assemble(archs.by_name(arch).llvm_target, refused) if refused else []
    both = [text for text, (data, _) in zip(refused, theirs) if data is None]
    failures = [f for f in failures if f[0] not in set(both)]
    checked -= len(both)
    assert checked > 300
    assert ok / checked >= 0.97, failures[:5]
