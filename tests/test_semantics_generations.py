"""Semantics on every generation: generations without pseudocode of their own carry each
instruction's semantics by name from the nearest generation that has it, marked *inferred from*
that generation.  The independent references of ``test_semantics_properties`` (Python ints,
``fractions``, numpy IEEE arithmetic) are run here on every such generation at its own wave size,
and the spellings that differ between generations (GFX10's s_andn2/s_orn2, the legacy multiply,
CDNA1/2's MFMA names) are checked against references written here -- never against the evaluator.
"""

from __future__ import annotations

import math
import random
import struct

import pytest
from test_semantics_properties import (
    CMP,
    CVT,
    EDGE32,
    EDGE_F32,
    EDGES,
    FLOAT2,
    FMA,
    INT3,
    M32,
    MINMAX,
    PK,
    SALU,
    f16,
    f32,
    f64,
    fclass,
    fma_ref,
    same_float,
)

from gpuisa import archs
from gpuisa.semantics import evaluate, fidelity, sources
from gpuisa.semantics.wave import EvalError

pytestmark = pytest.mark.skipif(not sources.available(), reason="pseudocode source (tinygrad wheel) not installed")

CARRIED = tuple(a for a in archs.arch_names() if not sources.native(a))


def test_every_amd_generation_has_semantics():
    assert set(sources.generations()) == set(archs.arch_names())
    assert set(CARRIED) == {"rdna1", "rdna2", "rdna3", "cdna1", "cdna2", "cdna3", "cdna5"}


def test_donor_order_follows_encoding_family_then_product_line():
    assert sources.donors("rdna1")[:2] == ("rdna3.5", "rdna4")
    assert sources.donors("rdna2")[:2] == ("rdna3.5", "rdna4")
    assert sources.donors("rdna3")[0] == "rdna3.5"
    for a in ("cdna1", "cdna2", "cdna3"):
        assert sources.donors(a)[0] == "cdna4"
    assert sources.donors("cdna5")[:2] == ("rdna4", "cdna4")  # gfx1250 is GFX12-encoded, data-centre second
    assert sources.donors("rdna4")[0] == "rdna3.5"  # for the few instructions its own table lacks
    assert sources.donor("cdna4", "v_fma_mix_f32") == ("rdna3.5", "v_fma_mix_f32")  # CDNA4's table lists none
    assert sources.donor("rdna4", "v_add_f32") is None  # its own pseudocode


def _lanes(rng: random.Random, edges: list[int], bits: int, n: int) -> list[int]:
    return [rng.choice(edges) if rng.random() < 0.4 else rng.getrandbits(bits) for _ in range(n)]


def _wave(arch: str) -> int:
    return archs.by_name(arch).features.waves[0]


def _run(arch: str, name: str, **ops):
    w = _wave(arch)
    res = evaluate(arch, name, lanes=w, **ops)
    assert res["wave"] == w and res.get("inferred_from") == sources.lookup(arch, name).inherited_from
    return res["outputs"]


def _present(names, arch):
    return [n for n in sorted(names) if sources.lookup(arch, n) is not None]


@pytest.mark.parametrize("arch", CARRIED)
def test_integer_and_packed_references_on_every_generation(arch):
    from gpuisa.semantics import compiler

    rng = random.Random(f"int-{arch}")
    n = _wave(arch)
    names = _present(set(INT3) | set(PK), arch)
    assert names, arch
    for name in names:
        a, b, c = (_lanes(rng, EDGE32, 32, n) for _ in range(3))
        ref = INT3.get(name) or PK[name]
        inputs = compiler.program(arch, name).inputs
        ops = {r: v for r, v in zip(("S0", "S1", "S2"), (a, b, c)) if r in inputs}
        assert _run(arch, name, **ops)["D0"] == [ref(x, y, z) for x, y, z in zip(a, b, c)], (arch, name)


@pytest.mark.parametrize("arch", CARRIED)
def test_float_references_on_every_generation(arch):
    rng = random.Random(f"float-{arch}")
    n = _wave(arch)
    checked = 0
    for name in _present(set(FLOAT2) | set(FMA), arch):
        if name.startswith("s_"):
            continue
        w = FMA.get(name) or FLOAT2[name][1]
        a, b, c = (_lanes(rng, EDGES[w], w, n) for _ in range(3))
        if name in FMA:
            got = _run(arch, name, S0=a, S1=b, S2=c)["D0"]
            want = [fma_ref(x, y, z, w) for x, y, z in zip(a, b, c)]
        else:
            got = _run(arch, name, S0=a, S1=b)["D0"]
            want = [FLOAT2[name][0](x, y) for x, y in zip(a, b)]
        for x, g, v in zip(a, got, want):
            assert same_float(g & ((1 << w) - 1), v, w), (arch, name, hex(x), hex(g), hex(v))
        checked += 1
    assert checked >= 6, arch


@pytest.mark.parametrize("arch", CARRIED)
def test_compares_and_conversions_on_every_generation(arch):
    rng = random.Random(f"cmp-{arch}")
    n = _wave(arch)
    for w, dec in ((16, f16), (32, f32), (64, f64)):
        for cond in ("lt", "eq", "u", "nge"):
            name = f"v_cmp_{cond}_f{w}"
            if sources.lookup(arch, name) is None:
                continue
            a, b = _lanes(rng, EDGES[w], w, n), _lanes(rng, EDGES[w], w, n)
            want = sum(1 << i for i, (x, y) in enumerate(zip(a, b)) if CMP[cond](dec(x), dec(y)))
            out = _run(arch, name, S0=a, S1=b)
            assert out[next(iter(out))] == [want], (arch, name)
    for name in _present(CVT, arch):
        w, ref = CVT[name]
        a = _lanes(rng, EDGES.get(w, EDGE32), w, n)
        for x, g in zip(a, _run(arch, name, S0=a)["D0"]):
            want = ref(x)
            if want is not None:
                assert g == want, (arch, name, hex(x), hex(g))


@pytest.mark.parametrize("arch", CARRIED)
def test_min_max_and_class_on_every_generation(arch):
    """IEEE min/max (the NaN rule of the generation the semantics come from) and v_cmp_class."""
    rng = random.Random(f"minmax-{arch}")
    n = _wave(arch)
    for name in _present([m for m in MINMAX if m.startswith("v_")], arch):
        ref, is_min = MINMAX[name]
        a, b = _lanes(rng, EDGE_F32, 32, n), _lanes(rng, EDGE_F32, 32, n)
        donor = sources.lookup(arch, name).inherited_from
        assert _run(arch, name, S0=a, S1=b)["D0"] == [ref(x, y, is_min, donor) for x, y in zip(a, b)], (arch, name)
    for w in (16, 32, 64):
        name = f"v_cmp_class_f{w}"
        if sources.lookup(arch, name) is None:
            continue
        a = _lanes(rng, EDGES[w], w, n)
        m = [rng.getrandbits(10) for _ in range(n)]
        out = _run(arch, name, S0=a, S1=m)
        assert out[next(iter(out))] == [sum(1 << i for i, (x, k) in enumerate(zip(a, m)) if (k >> fclass(x, w)) & 1)]


@pytest.mark.parametrize("arch", CARRIED)
def test_scalar_alu_references_on_every_generation(arch):
    rng = random.Random(f"salu-{arch}")
    for name in _present(SALU, arch):
        for _ in range(4):
            a, b, scc = rng.choice(EDGE32 + [rng.getrandbits(32)]), rng.getrandbits(32), rng.getrandbits(1)
            want_d, want_scc = SALU[name](a, b, scc)
            ops = {"S0": a} if name == "s_bcnt1_i32_b32" else {"S0": a, "S1": b}
            if "c_" in name or "subb" in name:
                ops["SCC"] = scc
            out = evaluate(arch, name, **ops)["outputs"]
            if want_d is not None:
                assert out["D0"] == [want_d], (arch, name)
            if want_scc is not None:
                assert out["SCC"] == [want_scc], (arch, name)


# ------------------------------------------------------------------ spellings that differ

_EXEC_OPS = {  # GFX10 name -> new EXEC from (S0, old EXEC), 32-bit
    "s_andn1_saveexec_b32": lambda s, e: ~s & e & M32,
    "s_andn2_saveexec_b32": lambda s, e: s & ~e & M32,
    "s_orn1_saveexec_b32": lambda s, e: (~s | e) & M32,
    "s_orn2_saveexec_b32": lambda s, e: (s | ~e) & M32,
}


@pytest.mark.parametrize("arch", ["rdna1", "rdna2"])
@pytest.mark.parametrize("name", sorted(_EXEC_OPS))
def test_gfx10_saveexec_spellings(arch, name):
    rng = random.Random(name)
    for _ in range(6):
        s, e = rng.getrandbits(32), rng.getrandbits(32)
        out = evaluate(arch, name, S0=s, EXEC=e)["outputs"]
        new = _EXEC_OPS[name](s, e)
        assert out["D0"] == [e] and out["EXEC"][0] & M32 == new and out["SCC"] == [int(new != 0)], (name, hex(s), hex(e))
    assert "s_and_not" in sources.inferred_label(arch, name) or "s_or_not" in sources.inferred_label(arch, name)


@pytest.mark.parametrize("arch", ["rdna1", "rdna2"])
def test_gfx10_andn2_orn2(arch):
    rng = random.Random(arch)
    for name, ref in (("s_andn2_b32", lambda a, b: a & ~b & M32), ("s_orn2_b32", lambda a, b: (a | ~b) & M32)):
        for _ in range(6):
            a, b = rng.getrandbits(32), rng.getrandbits(32)
            out = evaluate(arch, name, S0=a, S1=b)["outputs"]
            assert out["D0"] == [ref(a, b)] and out["SCC"] == [int(ref(a, b) != 0)], name


def test_legacy_multiply_zero_rule_on_rdna():
    """GFX10's v_mul_legacy_f32 (GFX11: v_mul_dx9_zero_f32): a zero operand gives +0 even against inf and NaN."""
    pairs = [(0x00000000, 0x7F800000), (0x80000000, 0x7FC00000), (0x7F800000, 0x00000000), (0x3F800000, 0x40000000),
             (0xC0400000, 0x40800000), (0x7FC00000, 0x3F800000)]
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    got = evaluate("rdna1", "v_mul_legacy_f32", lanes=len(pairs), S0=a, S1=b)["outputs"]["D0"]
    for x, y, g in zip(a, b, got):
        fx, fy = f32(x), f32(y)
        if fx == 0 or fy == 0:
            assert g == 0, (hex(x), hex(y), hex(g))
        elif math.isnan(fx) or math.isnan(fy):
            assert math.isnan(f32(g))
        else:
            assert f32(g) == fx * fy


def test_mul_lo_i32_is_the_low_product():
    rng = random.Random(7)
    a, b = _lanes(rng, EDGE32, 32, 32), _lanes(rng, EDGE32, 32, 32)
    got = evaluate("rdna1", "v_mul_lo_i32", lanes=32, S0=a, S1=b)["outputs"]["D0"]
    assert got == [(x * y) & M32 for x, y in zip(a, b)]


_HALVES = {"f32": (0x3FC00000, 0xC0000000, 32), "f16": (0x3E00, 0xC000, 16), "bf16": (0x3FC0, 0xC000, 16)}


def _repeat(bits: int, w: int, total: int) -> int:
    return sum(bits << (w * i) for i in range(total // w))


@pytest.mark.parametrize("arch,name,k,fmt", [("cdna1", "v_mfma_f32_4x4x1f32", 1, "f32"),
                                             ("cdna1", "v_mfma_f32_32x32x2f32", 2, "f32"),
                                             ("cdna2", "v_mfma_f32_16x16x16f16", 16, "f16"),
                                             ("cdna2", "v_mfma_f32_32x32x8bf16_1k", 8, "bf16")])
def test_old_mfma_spellings(arch, name, k, fmt):
    """CDNA1/2 spell MFMAs without gfx940's separator.  A = 1.5, B = -2 and C = 0.25 in every element make
    every element of D = K*1.5*(-2) + 0.25, whatever the register layout."""
    from gpuisa.semantics import compiler

    widths = compiler.program(arch, name).widths
    a, b, w = _HALVES[fmt]
    res = evaluate(arch, name, S0=_repeat(a, w, widths["S0"]), S1=_repeat(b, w, widths["S1"]),
                   S2=_repeat(0x3E800000, 32, widths["S2"]))
    want = struct.unpack("<I", struct.pack("<f", k * 1.5 * -2.0 + 0.25))[0]
    for lane in res["outputs"]["D0"]:
        assert all((lane >> (32 * i)) & M32 == want for i in range(widths["D0"] // 32)), (name, hex(lane))
    assert res["inferred_from"] == "cdna4"
    assert "inferred from CDNA4" in fidelity.fidelity(arch, name)[1]


# ------------------------------------------------------------------ wave sizes and carries

def test_wave_sizes_come_from_the_registry():
    assert evaluate("cdna5", "v_add_f32", S0=1.0, S1=2.0)["wave"] == 32
    assert evaluate("cdna1", "v_add_f32", S0=1.0, S1=2.0)["wave"] == 64
    with pytest.raises(EvalError, match="wave32 only"):
        evaluate("cdna5", "v_add_f32", wave=64, S0=1.0, S1=2.0)
    with pytest.raises(EvalError, match="wave64 only"):
        evaluate("cdna2", "v_add_f32", wave=32, S0=1.0, S1=2.0)


@pytest.mark.parametrize("arch,name,wave", [("rdna1", "v_add_co_ci_u32", 32), ("rdna1", "v_add_co_ci_u32", 64),
                                            ("rdna2", "v_sub_co_ci_u32", 32), ("cdna1", "v_addc_co_u32", 64),
                                            ("cdna3", "v_subb_co_u32", 64)])
def test_vop2_carry_through_vcc(arch, name, wave):
    """Carry-in from VCC's lane bit and carry-out into it, over a whole wave32 or wave64."""
    rng = random.Random(name + str(wave))
    a, b = _lanes(rng, EDGE32, 32, wave), _lanes(rng, EDGE32, 32, wave)
    vcc = rng.getrandbits(wave)
    out = evaluate(arch, name, wave=wave, lanes=wave, S0=a, S1=b, VCC=vcc)["outputs"]
    sub = "sub" in name
    want_d, want_c = [], 0
    for i, (x, y) in enumerate(zip(a, b)):
        ci = (vcc >> i) & 1
        r = x - y - ci if sub else x + y + ci
        want_d.append(r & M32)
        want_c |= int(r < 0 or r > M32) << i
    assert out["D0"] == want_d
    assert out["VCC"][0] & ((1 << wave) - 1) == want_c


# ------------------------------------------------------------------ marks on pages, tables, coverage

def test_fidelity_and_pages_name_the_donor():
    level, why = fidelity.fidelity("rdna2", "v_msad_u8")
    assert level == "exact" and why.startswith("inferred from RDNA3.5")
    assert fidelity.page_fidelity("cdna3", "v_fma_f32") == fidelity.fidelity("cdna3", "v_fma_f32")
    assert "inferred from RDNA4" in fidelity.page_fidelity("cdna5", "v_add_f32")[1]
    assert fidelity.fidelity("rdna3.5", "v_msad_u8")[1].startswith("executes")  # native: no mark
    from gpuisa.semantics.pages import amd_semantics, generation_notes

    sem = amd_semantics("cdna5", "v_add_f32")
    assert sem["inferred_from"] == "rdna4" and sem["pseudocode"] and "inferred from RDNA4" in sem["source"]
    assert any("wave32 only" in n for n in sem["notes"])
    assert any("VCC_LO" in n for n in generation_notes("rdna1", "v_add_co_ci_u32"))
    assert any("zero times" in n for n in generation_notes("cdna1", "v_mad_legacy_f32"))
    sem = amd_semantics("cdna1", "v_exp_legacy_f32")
    assert sem["fidelity"] == "unsupported" and "CDNA4" in sem["reason"]
    sem = amd_semantics("cdna1", "v_mad_legacy_f32")  # the project's own formulation
    assert sem["fidelity"] == "untested" and sem["inferred_from"] is None and len(sem["notes"]) == 3


def test_coverage_counts_every_alu_instruction(store):
    from gpuisa.semantics.coverage import alu_instructions, semantics_coverage

    cov = semantics_coverage(store, ["rdna3.5", "cdna1"])
    r35 = cov["rdna3.5"]
    names = {n for n, _ in alu_instructions(store, "rdna3.5")}
    assert {"s_waitcnt_vmcnt", "s_waitcnt_expcnt", "s_waitcnt_lgkmcnt", "s_waitcnt_vscnt"} <= names
    failed = {f["name"] for f in r35["failed"]}
    assert r35["total"] == len(names) == r35["executable"] + len(failed)
    assert r35["pseudocode"] == "native" and set(r35["inferred_from"]) <= {"rdna4"}  # the few its table lacks
    c1 = cov["cdna1"]
    assert c1["pseudocode"] == "inferred" and c1["inferred_from"]["cdna4"] > 500
    assert c1["inferred"]["v_mfma_f32_4x4x1f32"] == "cdna4" and "v_accvgpr_read_b32" not in c1["inferred"]
    from gpuisa.semantics import formulations

    failed = {f["name"] for f in c1["failed"]}
    own = [n for n, _ in alu_instructions(store, "cdna1") if n not in failed and formulations.covers(n)
           and sources.donor("cdna1", n) is None]
    assert "v_accvgpr_read_b32" in own
    assert sum(c1["inferred_from"].values()) + len(own) == c1["executable"]


def test_cdna5_program_counter_spellings():
    """gfx1250 renames GFX12's s_getpc_b64/s_call_b64/...: carried from RDNA4 under the new names."""
    pc = 0x1234_5670
    assert evaluate("cdna5", "s_get_pc_i64", PC=pc)["outputs"]["D0"] == [pc + 4]
    for simm in (0, 5, 0xFFFF, 0x8000):
        out = evaluate("cdna5", "s_call_i64", PC=pc, SIMM16=simm)["outputs"]
        offset = (simm - 0x10000 if simm >> 15 else simm) * 4
        assert out["D0"] == [pc + 4] and out["PC"] == [pc + offset + 4]
    out = evaluate("cdna5", "s_swap_pc_i64", PC=pc, S0=0x4000)["outputs"]
    assert out["D0"] == [pc + 4] and out["PC"] == [0x4000]
    assert sources.inferred_label("cdna5", "s_set_pc_i64") == "inferred from RDNA4 (s_setpc_b64)"
