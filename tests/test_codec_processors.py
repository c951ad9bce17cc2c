"""Processor variants within a generation (``archs.PROCESSOR_FEATURES``, ``codec/processors.py``,
``codec/processor_codec.py``): gfx1011/gfx1012 have the dot instructions, gfx1013 the ray-tracing and MSAA image
loads that gfx1010 lacks.  The encoder and decoder of such a processor are checked against llvm-mc-22 run for that
processor on lines and words of our own writing; the registry against the measured facts without a tool."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from gpuisa import archs
from gpuisa.codec import oracle, processors
from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.processor_codec import decoder_for, encoder_for

_DOT = ["v_dot2_f32_f16 v4, v7, v9, v11", "v_dot2_i32_i16 v1, s2, v3, v4 clamp", "v_dot2_u32_u16 v9, v8, 3, v7",
        "v_dot4_i32_i8 v2, v3, v4, v5", "v_dot4_u32_u8 v6, v7, v8, 0x1234", "v_dot8_i32_i4 v1, v2, v3, s4",
        "v_dot8_u32_u4 v10, v11, v12, v13 clamp", "v_dot2c_f32_f16 v3, v4, v5", "v_dot2c_f32_f16_e64 v3, v4, v5",
        "v_dot4c_i32_i8 v7, s1, v9", "v_dot2c_f32_f16 v3, v4, v5 dpp8:[1,0,3,2,5,4,7,6]",
        "v_dot2c_f32_f16 v3, v4, v5 quad_perm:[1,0,3,2] row_mask:0x3", "v_dot4c_i32_i8 v1, v2, v3 row_shr:2",
        "v_dot4c_i32_i8 v1, v2, v3 dpp8:[0,0,0,0,1,1,1,1] fi:1", "v_add_f32 v1, v2, v3", "v_mul_lo_u32 v1, v2, s3"]
_BVH = ["image_bvh_intersect_ray v[4:7], v[10:20], s[8:11]", "image_bvh_intersect_ray v[4:7], v[10:17], s[8:11] a16",
        "image_bvh64_intersect_ray v[4:7], v[10:21], s[8:11]",
        "image_msaa_load v[1:4], v[5:7], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA",
        "image_msaa_load v1, v[5:6], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA glc", "v_add_f32 v1, v2, v3"]


def _encode(proc: str, line: str) -> bytes | None:
    try:
        return encoder_for(proc).encode_line(line).data
    except EncodeError:
        return None


@pytest.mark.parametrize("proc,lines", [("gfx1011", _DOT), ("gfx1012", _DOT), ("gfx1013", _BVH),
                                        ("gfx1010", _DOT + _BVH), ("gfx1013", _DOT), ("gfx1011", _BVH)])
def test_processor_encoder_agrees_with_llvm_mc(llvm_mc, proc, lines):
    ref = oracle.assemble(proc, lines)
    bad = [f"{proc}: {line!r}: llvm {want.hex() if want else msg!r}, ours {(got or b'').hex() or None}"
           for line, (want, msg) in zip(lines, ref) if (got := _encode(proc, line)) != want]
    assert not bad, bad


@pytest.mark.parametrize("proc,lines", [("gfx1011", _DOT), ("gfx1013", _BVH)])
def test_processor_decoder_agrees_with_llvm_mc(llvm_mc, proc, lines):
    words = [b for b in (_encode(proc, line) for line in lines) if b]
    assert len(words) >= len(lines) - 2
    for target in (proc, "gfx1010"):
        ref = oracle.disassemble(target, words)
        dec = decoder_for(target)
        for data, items in zip(words, ref):
            want = (items[0].text, items[0].size)  # (the first: after an invalid dword LLVM reads past the word)
            d = dec.decode(data)[0]
            assert (d.text if d.valid else None, len(d.data) if d.valid else 4) == want, (target, data.hex())


def test_processor_cli_encodes_decodes_and_refuses(llvm_mc, cli_env):
    want = oracle.assemble("gfx1011", [_DOT[0]])[0][0]
    ok = run_cli(["encode", "--arch", "gfx1011", "--json", _DOT[0]], cli_env)
    assert ok.returncode == 0, ok.stderr
    assert want is not None and json.loads(ok.stdout)["bytes"] == want.hex()
    dec = run_cli(["decode", "--arch", "gfx1012", want.hex()], cli_env)
    assert dec.returncode == 0 and "v_dot2_f32_f16 v4, v7, v9, v11" in dec.stdout, dec.stdout + dec.stderr
    bad = run_cli(["encode", "--arch", "gfx1010", _DOT[0]], cli_env)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "gfx1011, gfx1012 only" in bad.stderr


def test_registry_flags_match_the_measured_facts():
    """A processor has feature flags exactly where the facts say it differs from its generation, and processors
    with the same flags add and lack the same instructions."""
    doc = json.loads(processors.PATH.read_text())
    facts = doc["processors"]
    measured = set(doc["measured"])
    flagged = {t for t, f in archs.PROCESSOR_FEATURES.items() if f and t in measured}
    assert flagged == set(facts)
    by_flags: dict = {}
    for t, v in facts.items():
        assert archs.resolve_arch(t).name == v["arch"]
        by_flags.setdefault(archs.PROCESSOR_FEATURES[t], []).append((tuple(v["adds"].items()), tuple(v["lacks"])))
    assert all(len(set(v)) == 1 for v in by_flags.values())
    assert archs.codec_key("gfx1011") == "gfx1011" and archs.codec_key("gfx1010") == "rdna1"
    assert archs.codec_key("GFX1031") == "rdna2" and archs.codec_key("rdna1") == "rdna1"
    assert archs.processors_with("rdna1", "dot") == ["gfx1011", "gfx1012"]
    assert processors.only_on("rdna1", "v_dot2_f32_f16") == ["gfx1011", "gfx1012"]
