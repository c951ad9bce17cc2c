"""Property-based tests: arbitrary bytes and arbitrary text never crash either direction."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpuisa.codec as codec
from gpuisa.codec.encoder import EncodeError

ARCHS = ["rdna1", "rdna3", "rdna4", "cdna3", "cdna4"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arch=st.sampled_from(ARCHS), data=st.binary(max_size=64))
def test_decode_arbitrary_bytes(arch, data):
    out = codec.decode(arch, data)
    off = 0
    for d in out:
        assert d.offset == off  # contiguous cover, resynchronising after invalid dwords
        assert d.data == data[off:off + len(d.data)] and d.data
        assert d.valid == (d.text is not None) and (d.valid or d.error)
        off += len(d.data)
    assert off == len(data)


@settings(max_examples=300, deadline=None)
@given(arch=st.sampled_from(ARCHS), text=st.text(max_size=60))
def test_encode_arbitrary_text(arch, text):
    try:
        out = codec.encode(arch, text)
    except EncodeError as exc:
        assert "\n" not in str(exc)
        return
    assert isinstance(out, bytes) and len(out) % 4 == 0


MNEMONICS = ["v_add_f32", "v_add_f32_e64", "s_mov_b32", "v_fma_f32", "global_load_b32", "ds_add_u32", "s_load_b32"]
TOKENS = ["v1", "v[2:3]", "s4", "s[4:5]", "-v1", "|v2|", "-|s3|", "0x10", "-1", "1.0", "0.5", "65", "vcc_lo", "off",
          "exec", "m0", "a1", "ttmp3", "offset:16", "clamp", "mul:2", "glc", "1e9", "v256", "s200", ""]


@settings(max_examples=300, deadline=None)
@given(arch=st.sampled_from(ARCHS), mn=st.sampled_from(MNEMONICS), ops=st.lists(st.sampled_from(TOKENS), max_size=5))
def test_encode_near_miss_text_round_trips_or_fails_cleanly(arch, mn, ops):
    text = mn + " " + ", ".join(ops)
    try:
        data = codec.encode(arch, text)
    except EncodeError as exc:
        assert "\n" not in str(exc)
        return
    d = codec.decode(arch, data + b"\0" * 8)[0]
    assert d.valid
