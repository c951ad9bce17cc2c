"""The named-field immediate tables the encoder reads backwards (``codec.simm16``: s_waitcnt's counters,
s_sendmsg's messages, s_delay_alu, s_waitcnt_depctr / s_wait_alu, s_version, s_set_gpr_idx_mode) are made
from the layout the decoder prints the field from, without decoding; for every such instruction of rdna3,
rdna4, cdna3 and gfx1250 the made table agrees with decoding (the first value printing each set of tokens), and
a layout the decoder does not print as is refused.

Decoding all 65,536 values of each of the 21 instructions costs ~17 s CPU; ``GPUISA_SIMM16_FULL=1`` still does
that (the made table equal to ``simm16._decode_values``).  By default the decoder is asked for a stratified set
of values that holds every way a table is made from a layout, about a tenth of the decodes:
- every value below 1,024: the message ids of s_sendmsg (bits 0-9), s_delay_alu's fields, s_version's code;
- every value with at most two bits set or at most two clear, and every run of adjacent set bits alone or as the
  only clear bits: each bit alone and in pairs decides whether a bit belongs to a counter, is a hex (numeric)
  bit or a flag, and runs are each counter at its maximum (LLVM's default, left out of the text) with the
  others at zero or at theirs: every field boundary;
- the values above bit 10 with message ids under them (every high part with ids 0-15, seven high parts with ids
  0-255: the messages kept by name above bit 10), and a seeded random sample of 2,048.
For each such value the decoder's tokens must be in the made table at a value no later, that prints the same
tokens; a seeded sample of 1,500 of the table's own entries must print their tokens, and 400 of them must print
something else with any one of their set bits cleared.  A wrong table is a wrong counter mask, default, hex bit,
flag or kept message (each shows on single bits, pairs, runs or the message values above), or an entry that is
not the first value printing its tokens: it has a bit no field reads set (clearing it prints the same tokens),
or its tokens' first value is among the values above.  (Mutants on rdna3, cdna3 and gfx1250: the entries whose
value has any one bit set dropped: all caught; one entry moved to a later value printing the same tokens: caught
where it is sampled or its first value is above; 413 of 460 mutants of both kinds; a rule that moves many is
caught.)"""

import os
import random

import pytest

from gpuisa.codec import simm16
from gpuisa.codec.decoder import get_decoder

ARCHS = ("rdna3", "rdna4", "cdna3", "cdna5")  # (cdna5: gfx1250)


def _keys(dec) -> list[str]:
    return sorted(k for k, p in dec.plans.items() if k.split("|")[1] in ("SOPP", "SOPK") and simm16.special_form(p))


@pytest.mark.parametrize("arch", ARCHS)
def test_made_tables_equal_the_full_decode(arch):
    dec = get_decoder(arch, False)
    keys = _keys(dec)
    assert {"s_sendmsg|SOPP", "s_sendmsghalt|SOPP"} <= set(keys)
    assert ("s_waitcnt|SOPP" in keys) == (arch != "cdna5")
    for key in keys:
        made = simm16._built_values(dec, key)
        assert made is not None, f"{arch} {key}: no layout"  # (every one of them has its layout here)
        if FULL:
            assert made == simm16._decode_values(dec, key), f"{arch} {key}"
            continue
        printed = _printer(dec, key)
        for v in STRATIFIED:
            tokens = printed(v)
            assert tokens is not None, f"{arch} {key} {v:#x}: not decoded as itself"
            assert made.get(tokens, 1 << 16) <= v, f"{arch} {key} {v:#x}: {tokens} missing or at a later value"
            assert printed(made[tokens]) == tokens, f"{arch} {key} {made[tokens]:#x} does not print {tokens}"
        for i, (tokens, u) in enumerate(random.Random(5).sample(sorted(made.items()), min(1500, len(made)))):
            assert printed(u) == tokens, f"{arch} {key} {u:#x} does not print {tokens}"
            lower = [u & ~(1 << b) for b in range(16) if u >> b & 1] if i < 400 else []  # (the first of its tokens?)
            assert all(printed(w) != tokens for w in lower), f"{arch} {key} {u:#x}: a lower value prints {tokens}"


FULL = os.environ.get("GPUISA_SIMM16_FULL") == "1"


def _printer(dec, key: str):
    """The decoder's tokens for a value of ``key``'s immediate (None where the word is not that instruction),
    as ``simm16._decode_values`` reads them (decode_at on the word, twelve zero bytes after it)."""
    f = dec.tables.encodings[key.split("|")[1]].field("SIMM16")
    base, name, memo = f.insert(dec.plans[key].word, 0), key.split("|")[0], {}

    def printed(v: int):
        if v not in memo:
            d = dec.decode_at(f.insert(base, v).to_bytes(4, "little") + b"\0" * 12, 0)
            parts = d.text.split(None, 1) if d.valid and d.name == name and len(d.data) == 4 else None
            memo[v] = None if parts is None else simm16._norm(parts[1] if len(parts) > 1 else "")
        return memo[v]
    return printed


def _stratified() -> list[int]:
    """The values the module docstring lists."""
    runs = [((1 << (j - i)) - 1) << i for i in range(16) for j in range(i + 1, 17)]
    few = [v for v in range(1 << 16) if bin(v).count("1") <= 2]
    values = set(range(1024)) | set(runs + few) | {0xFFFF ^ v for v in runs + few}
    values |= {h << 10 | m for h in range(64) for m in range(16)}
    values |= {h << 10 | m for h in (1, 2, 4, 8, 16, 32, 63) for m in range(256)}
    rng = random.Random(16)
    return sorted(values | {rng.getrandbits(16) for _ in range(2048)})


STRATIFIED = _stratified()


def test_a_layout_the_decoder_does_not_print_is_refused(monkeypatch):
    dec = get_decoder("rdna3", False)
    key = "s_waitcnt|SOPP"
    real = simm16._layout(dec, key)
    assert real is not None and simm16._built_values(dec, key) is not None
    printer, named, numeric, fmt = real
    wrong = (lambda v: printer(v ^ 1), named, numeric, fmt)  # (one bit off: the checking decodes disagree)
    monkeypatch.setattr(simm16, "_layout", lambda d, k: wrong)
    assert simm16._built_values(dec, key) is None


@pytest.mark.parametrize("arch,text,same", [
    ("rdna3", "s_waitcnt vmcnt(63) lgkmcnt(0)", "s_waitcnt lgkmcnt(0)"),  # (a counter at its maximum: left out)
    ("rdna3", "s_waitcnt_depctr depctr_hold_cnt(1) depctr_va_vdst(0)", "s_waitcnt_depctr depctr_va_vdst(0)"),
    ("rdna4", "s_wait_alu depctr_va_vdst(0) & depctr_sa_sdst(1)", "s_wait_alu depctr_va_vdst(0)"),
    ("cdna3", "s_waitcnt expcnt(7) lgkmcnt(0) vmcnt(0)", "s_waitcnt vmcnt(0) lgkmcnt(0)"),
])
def test_fields_at_their_default_compose_to_the_printed_spelling(arch, text, same):
    from gpuisa.codec.encoder import get_encoder

    enc = get_encoder(arch, False)
    got, want = enc.encode_line(text).data, enc.encode_line(same).data
    assert got == want
    assert get_decoder(arch, False).decode_at(got + b"\0" * 12, 0).text == same  # (the decoder prints the short one)
    assert enc.encode_line(text).data == want  # (again: from the table's kept derivation)
