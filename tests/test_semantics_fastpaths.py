"""Faster forms of compiled pseudocode give the same bits as the plain compiled pseudocode:
the vectorised pk32 FP6/BF6 conversions, and calls of another instruction run side by side
(``callbatch``) against one call each.

The reference is AMD's own pseudocode for each instruction, compiled statement by
statement (``Program.reference_fn``); inputs are random bits mixed with special values
(zeros of both signs, infinities, quiet and signalling NaNs, denormals, values beyond the
formats' range) and several scales.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from conftest import need

from gpuisa.semantics import compiler, fastpaths, sources, wave


@pytest.fixture(autouse=True)
def _pseudocode_source():
    """Skips without the tinygrad wheel outside CI; in CI (where it is a dependency) its absence fails."""
    need(sources.available(), "pseudocode source (tinygrad wheel) not installed")

SPECIAL16 = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7D00, 0x0001, 0x03FF, 0x3C00, 0xBC00, 0x7BFF, 0x5BFF]
SPECIAL32 = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00000, 1, 0x007FFFFF, 0x3F800000,
             0xC1200000, 0x7F7FFFFF, 0x40E00000]
SCALES = [0x3F800000, 0x40000000, 0x3E800000, 0x00000000, 0x7F800000, 0x7F000000, 0x01000000]


def _names():
    if not sources.available():
        return []
    return sorted(n for n in sources.default_source().entries("cdna4") if fastpaths.PK32.match(n))


def _field_bits(name: str) -> int:
    src = fastpaths.PK32.match(name).group(3)
    return {"f32": 32, "f16": 16, "bf16": 16}.get(src, 6)


@pytest.mark.parametrize("name", _names())
def test_fast_path_matches_compiled_pseudocode(name):
    rng = random.Random(name)
    prog = compiler.program("cdna4", name)
    assert prog.reference_fn is not None
    fb = _field_bits(name)
    special = SPECIAL32 if fb == 32 else SPECIAL16 if fb == 16 else list(range(64))
    for trial in range(4):
        regs = {}
        for r, w in prog.widths.items():
            if r == "S0":
                vals = []
                for _ in range(64):
                    v = 0
                    for e in range(32):
                        f = rng.choice(special) if rng.random() < 0.5 else rng.getrandbits(fb)
                        v |= (f & ((1 << fb) - 1)) << (e * fb)
                    vals.append(v)
            else:
                vals = [rng.choice(SCALES) if rng.random() < 0.7 else rng.getrandbits(32) for _ in range(64)]
            regs[r] = np.array(vals, dtype=object if w > 64 else np.int64)
        ctx = wave.Context(64, 64, "cdna4")
        with np.errstate(all="ignore"):
            fast = prog.fn(dict(regs), None, ctx)["D0"]
            ref = prog.reference_fn(dict(regs), None, ctx)["D0"]
        m = (1 << prog.widths["D0"]) - 1
        assert [int(x) & m for x in fast] == [int(x) & m for x in ref], (name, trial)


def test_fast_path_keeps_inactive_lanes():
    r = wave.evaluate("cdna4", "v_cvt_scalef32_pk32_f32_fp6", S0=[0b001000] * 4, S1=1.0, D0=[5, 5, 5, 5],
                      EXEC=0b0101)
    d = r["outputs"]["D0"]
    # fp6 E2M3 code 0b001000 = 1.0 (exponent 1, bias 1); scale exponent 127 -> 2^0: lane 0 field 0 = 1.0f
    assert d[0] & 0xFFFFFFFF == 0x3F800000 and d[1] == 5 and d[3] == 5


PERMLANES = [(a, n) for a in ("rdna3.5", "rdna4") for n in ("v_permlane16_b32", "v_permlanex16_b32",
                                                           "v_permlane16_var_b32", "v_permlanex16_var_b32",
                                                           "v_permlane64_b32")
             if sources.available() and sources.lookup(a, n) is not None]


@pytest.mark.parametrize("wave_size", (32, 64))
@pytest.mark.parametrize("arch,name", PERMLANES)
def test_permlane_fast_path_matches_compiled_pseudocode(arch, name, wave_size):
    rng = random.Random(f"{name}{wave_size}")
    prog = compiler.program(arch, name)
    assert prog.reference_fn is not None
    for trial in range(6):
        regs = {}
        for r in prog.widths:
            if r in ("S1", "S2") and "_var" not in name:
                vals = [rng.getrandbits(32)] * 64  # scalar lane selects: one value per wave
            elif r == "EXEC":
                vals = [rng.choice([(1 << wave_size) - 1, rng.getrandbits(wave_size)])] * 64
            else:
                vals = [rng.getrandbits(32) for _ in range(64)]
            regs[r] = np.array([v - (1 << 64) if v >> 63 else v for v in vals], dtype=np.int64)
        ctx = wave.Context(wave_size, wave_size, arch)
        regs = {r: v[:wave_size].copy() for r, v in regs.items()}
        fast = prog.fn(dict(regs), None, ctx)["D0"]
        ref = prog.reference_fn(dict(regs), None, ctx)["D0"]
        assert list(fast) == list(ref), (name, trial)


def test_permlane16_hand_computed():
    # lane select 0x...FEDCBA9876543210 reversed: lane i of each row takes row lane 15 - i
    sel = sum((15 - i) << (4 * i) for i in range(16))
    r = wave.evaluate("rdna4", "v_permlane16_b32", S0=list(range(100, 132)), S1=sel & 0xFFFFFFFF, S2=sel >> 32,
                      lanes=32)
    assert r["outputs"]["D0"][:3] == [115, 114, 113] and r["outputs"]["D0"][16:18] == [131, 130]


# A call of another instruction in pseudocode is its name (letters, '_', digits) and '(': batching needs two.
_CALL = re.compile(r"\b[a-z]+_\w+\s*\(", re.I)


def _batching_programs():
    """The programs whose code batches calls (compiling only those whose text calls instructions twice:
    collecting this module then compiles about a hundred programs, not all 3,400)."""
    if not sources.available():
        return []
    out = []
    for arch in sources.default_source().archs():
        for name in sorted(sources.default_source().entries(arch)):
            entry = sources.lookup(arch, name)
            if entry is None or len(_CALL.findall(entry.text or "")) < 2:
                continue
            try:
                if "C.call_many(" in compiler.program(arch, name).code:
                    out.append((arch, name))
            except compiler.NoSemantics:
                pass
    return out


@pytest.mark.parametrize(("arch", "name"), _batching_programs())
def test_batched_instruction_calls_match_one_call_each(arch, name, monkeypatch):
    """Programs whose calls to another instruction run side by side (``callbatch``) give the
    bits the same pseudocode compiled with one call each gives (wave32 and wave64, all lanes
    and a partial EXEC mask, random bits mixed with the special values of each width)."""
    from gpuisa.semantics import callbatch

    prog = compiler.program(arch, name)
    entry = sources.lookup(arch, name)
    monkeypatch.setattr(callbatch, "batch_calls", lambda cache_lines, lines, *rest: (cache_lines, lines))
    plain = compiler.compile_text(entry.text, False, lambda callee: wave._callee(arch, callee), name, arch)
    assert "call_many" not in plain.code and "call_many" in prog.code
    rng = random.Random(name + arch)
    specials = SPECIAL16 + [s | (t << 16) for s, t in zip(SPECIAL16, reversed(SPECIAL16))] + SPECIAL32
    for lanes in (32, 64):
        for mask in (None, np.array([rng.random() < 0.5 for _ in range(lanes)])):
            regs = {}
            for r, w in prog.widths.items():
                vals = [rng.choice(specials) if rng.random() < 0.4 else rng.getrandbits(min(w, 32)) for _ in range(lanes)]
                regs[r] = np.array(vals, dtype=np.int64)
            outs = []
            for fn in (prog.fn, plain.fn):
                with np.errstate(all="ignore"):
                    got = fn(dict(regs), mask, wave.Context(lanes, lanes, arch))
                outs.append({r: np.asarray(v).tolist() for r, v in got.items()})
            assert outs[0] == outs[1], (arch, name, lanes, mask is None)
