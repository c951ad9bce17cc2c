"""The named-field immediate tables the encoder reads backwards (``codec.simm16``: s_waitcnt's counters,
s_sendmsg's messages, s_delay_alu, s_waitcnt_depctr / s_wait_alu, s_version, s_set_gpr_idx_mode) are made
from the layout the decoder prints the field from, without decoding; for every such instruction of rdna3,
rdna4, cdna3 and gfx1250 the made table equals the one decoding all 65,536 values gives (the first value
printing each set of tokens), and a layout the decoder does not print as is refused."""

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
        assert made == simm16._decode_values(dec, key), f"{arch} {key}"


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
