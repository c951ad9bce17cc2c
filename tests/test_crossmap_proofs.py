"""The cross-vendor map's recorded proofs still hold on both evaluators.

Every executed relation is re-run on a fresh sample (500 vectors, inputs drawn in its domain,
edge values first) on one of its recorded architectures: an equivalence that stops holding, or a
recorded counterexample that stops differing, fails here.  The truth is the two independent
evaluators (AMD pseudocode, PTX semantics) plus hand-computed values for the seeds.
"""

from __future__ import annotations

import numpy as np
import pytest

import gpuisa
from gpuisa.crossmap import execute, prove
from gpuisa.crossmap.domains import Domain
from gpuisa.crossmap.relations import proofs, relations

SAMPLE = 500
RELS = [r for r in relations() if r.get("check")]


def _proof(rel):
    p = proofs().get(rel["id"])
    assert p is not None, f"{rel['id']} has no entry in proofs.json (run python -m gpuisa.crossmap.prove)"
    return p


def test_proofs_cover_every_checked_relation_with_full_figures():
    for rel in RELS:
        p = _proof(rel)
        assert p["executed"], f"{rel['id']}: {p.get('reason')}"
        for arch, fig in p["archs"].items():
            assert fig["vectors"] >= 10_000, (rel["id"], arch)
            assert fig["agreed"] == fig["vectors"], (rel["id"], arch, fig["disagreements"][:1])
        if rel["kind"] == "equivalent with restrictions":
            assert p["counterexample"], f"{rel['id']}: no counterexample recorded outside the domain"


@pytest.mark.parametrize("index", range(len(RELS)), ids=[r["id"][:60] for r in RELS])
def test_sample_still_agrees(index):
    rel = RELS[index]
    p = _proof(rel)
    archs = sorted(p["archs"])
    arch = archs[index % len(archs)]  # rotate so every executable architecture is exercised
    rng = np.random.default_rng(1234 + index)
    doms = {v: Domain(d) for v, d in rel["check"]["vars"].items()}
    cols = execute.columns(rng, doms, SAMPLE)
    bad = execute.compare(rel["check"], arch, rel["amd"]["name"], cols, SAMPLE)
    assert not bad, f"{rel['id']} on {arch}: {prove._example(rel['check'], arch, rel, cols, bad[0])}"
    cx = p.get("counterexample")
    if cx:
        assert prove.recheck(rel, cx), f"{rel['id']}: the recorded counterexample {cx['inputs']} no longer differs"


def _rel(amd, ptx):
    hits = [r for r in relations() if r["amd"]["name"] == amd and r["ptx"]["form"] == ptx]
    assert len(hits) == 1, (amd, ptx, len(hits))
    return hits[0]


def test_seed_mad24():
    rel = _rel("v_mad_i32_i24", "mad24.lo.s32 d, a, b, c;")
    assert rel["kind"] == "equivalent with restrictions"
    assert rel["restriction"] == "inputs' top 8 bits are ignored by AMD; equal when a and b fit in signed 24 bits"
    assert rel["domain"] == {"a": "s24", "b": "s24"}
    # hand-computed: -1 * 2 + 5 = 3 inside the domain on both sides
    minus1 = 0xFFFFFFFF
    assert gpuisa.evaluate("rdna3.5", "v_mad_i32_i24", S0=minus1, S1=2, S2=5)["outputs"]["D0"] == [3]
    assert gpuisa.evaluate_ptx(rel["ptx"]["form"], {"a": minus1, "b": 2, "c": 5})["outputs"]["d"] == 3
    # just outside: 0x00800000 is +2^23 as a 32-bit value but -2^23 in the 24 bits AMD reads
    amd = gpuisa.evaluate("cdna4", "v_mad_i32_i24", S0=0x00800000, S1=1, S2=0)["outputs"]["D0"][0]
    assert amd == 0xFF800000
    assert gpuisa.evaluate_ptx("mad.lo.s32 d, a, b, c;", {"a": 0x00800000, "b": 1, "c": 0})["outputs"]["d"] == 0x00800000
    cx = proofs()[rel["id"]]["counterexample"]
    assert cx["outside"] in ("a", "b")


def test_seed_cndmask_selp():
    rel = _rel("v_cndmask_b32", "selp.b32 d, a, b, p;")
    assert rel["kind"] == "equivalent with restrictions"
    assert "predicate per thread" in rel["restriction"] and "VCC" in rel["restriction"]
    assert rel["domain"] == {"p": "lanebit"}
    # hand-computed: lanes 1 and 2 have their VCC bit set and take S1; PTX selp picks a when p is true
    out = gpuisa.evaluate("rdna4", "v_cndmask_b32", S0=[10, 10, 10, 10], S1=[20, 20, 20, 20], VCC=0b0110)
    assert out["outputs"]["D0"] == [10, 20, 20, 10]
    assert [gpuisa.evaluate_ptx("selp.b32 d, a, b, p;", {"a": 20, "b": 10, "p": p})["outputs"]["d"]
            for p in (0, 1, 1, 0)] == [10, 20, 20, 10]
    assert proofs()[rel["id"]]["counterexample"]["how"].startswith("p given as one wave-wide value")


def test_a_false_relation_is_caught():
    """The comparison can fail: add paired with sub, and mul24 without its domain, disagree."""
    wrong = {"vars": {"a": "b32", "b": "b32"}, "amd": {"S0": "a", "S1": "b"}, "ptx": ["sub.u32 d, a, b;"],
             "out": [["D0", "d", 32, "exact"]]}
    cols = execute.columns(np.random.default_rng(0), {v: Domain(d) for v, d in wrong["vars"].items()}, 200)
    assert len(execute.compare(wrong, "rdna3.5", "v_add_nc_u32", cols, 200)) > 100
    rel = _rel("v_mul_i32_i24", "mul24.lo.s32 d, a, b;")
    full = dict(rel["check"], ptx=["mul.lo.s32 d, a, b;"], vars={"a": "b32", "b": "b32"})
    cols = execute.columns(np.random.default_rng(1), {v: Domain(d) for v, d in full["vars"].items()}, 200)
    assert execute.compare(full, "rdna4", "v_mul_i32_i24", cols, 200)


def test_domains_edges_and_outside():
    s24 = Domain("s24")
    edges = s24.edges()
    assert 0 in edges and 1 in edges and 0xFFFFFFFF in edges and 0x007FFFFF in edges and 0xFF800000 in edges
    assert all(((v ^ (0xFFFFFFFF if v >> 23 & 1 else 0)) >> 24) == 0 for v in s24.values(np.random.default_rng(0), 300))
    out = s24.outside(np.random.default_rng(0), 50)
    assert out[0] == 0x00800000 and all(((v >> 23) & 0x1FF) not in (0, 0x1FF) for v in out)
    f32 = Domain("f32").edges()
    for v in (0x0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x3F800000, 0xBF800000):
        assert v in f32
    b32 = Domain("b32").edges()
    for v in (0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF):
        assert v in b32
    assert all(v & 0x7F800000 or not v & 0x7FFFFF for v in Domain("f32.nodenorm").values(np.random.default_rng(2), 500))
