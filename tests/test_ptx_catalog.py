"""PTX catalog: forms against the grammars, versions/targets against ptxas, pages through the store."""

from __future__ import annotations

import json
import random

import pytest
from conftest import need, run_cli

from gpuisa.ptx import catalog, grammar, ptxas


@pytest.fixture(scope="module")
def ptxas_tool():
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed (CUDA 13, or pip install nvidia-cuda-nvcc)")
    return tool


def test_every_grammar_file_is_a_family(shared_dir):
    files = sorted(p.stem for p in (shared_dir / "reference/ptx-9.0/syntax").glob("*.txt"))
    assert sorted(f["family"] for f in catalog.families()) == files


def test_forms_match_the_grammar_text(shared_dir):
    # every form line of vop.txt appears in the catalog with its head substituted
    text = (shared_dir / "reference/ptx-9.0/syntax/vop.txt").read_text()
    lines = [ln.split(";")[0].strip() for ln in text.splitlines() if ln.startswith("vop.")]
    fam = next(f for f in catalog.families() if f["family"] == "vop")
    names = {i["name"] for i in fam["instructions"]}
    assert names == {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}
    vsub = next(i for i in fam["instructions"] if i["name"] == "vsub")
    got = [" ".join(f["syntax"].rstrip(";").split()) for f in vsub["forms"]]
    assert got == [" ".join(("vsub" + ln[3:]).split()) for ln in lines]
    assert vsub["forms"][0]["value_sets"][".dtype"] == [".u32", ".s32"]
    assert vsub["forms"][0]["value_sets"][".asel"] == [".b0", ".b1", ".b2", ".b3", ".h0", ".h1"]


def test_nested_value_sets_expand():
    sets = {".collector_usage": [".collector::buffer::op"], "::buffer": ["::a"], "::op": ["::fill", "::use"]}
    vals, rx = grammar.expand_values(".collector_usage", sets)
    assert vals == [".collector::a::fill", ".collector::a::use"] and rx is None


def test_about_180_instructions():
    names = [i["name"] for f in catalog.families() for i in f["instructions"]]
    assert len(names) == len(set(names)) and 170 <= len(names) <= 200
    assert not any(n.startswith(("v_", "s_", "ds_")) for n in names)


def _previous(t: str) -> str | None:
    order = list(catalog.PROBE_TARGETS)
    plain = [x for x in order[:order.index(t)] if not x.endswith(("a", "f"))]
    return plain[-1] if plain else None


def test_versions_and_targets_agree_with_ptxas(ptxas_tool):
    """A sample of forms: the stored example compiles at (min_target, ptx_version), not one version/target lower."""
    rng = random.Random(3)
    forms = [f for fam in catalog.families() for i in fam["instructions"] for f in i["forms"] if f.get("verified")]
    sample = rng.sample(forms, 60)
    versions = ["1.0", "1.4", "2.0", "2.2", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1",
                "6.2", "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1",
                "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0"]
    for f in sample:
        ex = f["examples"][0]
        assert ptxas.verdicts(ptxas_tool, [ex], f["min_target"], "9.0") == [[]], (ex, f["min_target"])
        prev = _previous(f["min_target"])
        if prev and not f["min_target"].endswith(("a", "f")):
            errs = ptxas.verdicts(ptxas_tool, [ex], prev, "9.0")[0]
            assert errs, f"{ex} also compiles on {prev}"
        # the form's PTX ISA version admits at least one of its examples (others may need more, e.g. generic
        # addressing), and one version lower admits none of them
        v = f["ptx_version"]
        errs = ptxas.verdicts(ptxas_tool, f["examples"], f["min_target"], v)
        fits = [x for x, e in zip(f["examples"], errs) if not any("requires PTX ISA" in m for m in e)]
        assert fits, (f["syntax"], v, errs)
        if v != "1.0":
            lower = max((x for x in versions if tuple(map(int, x.split("."))) < tuple(map(int, v.split(".")))),
                        key=lambda x: tuple(map(int, x.split("."))))
            errs = ptxas.verdicts(ptxas_tool, fits, f["min_target"], lower)
            assert all(errs), f"{fits} also compile under .version {lower}"


def test_show_vsub_json(cli_env):
    r = run_cli(["show", "vsub", "--isa", "ptx", "--json"], cli_env)
    assert r.returncode == 0, r.stderr
    page = json.loads(r.stdout)
    assert (page["name"], page["isa"], page["isa_kind"], page["vendor"]) == ("vsub", "ptx", "virtual", "NVIDIA")
    assert page["ptx_version"] == "2.0" and page["min_target"] == "sm_20"  # PTX ISA: video instructions, 2.0, sm_20
    assert len(page["forms"]) == 3
    for f in page["forms"]:
        assert {"syntax", "value_sets", "operands", "state_spaces", "modifiers", "ptx_version", "min_target"} <= set(f)


def test_show_vsub_text(cli_env):
    r = run_cli(["show", "vsub"], cli_env)
    assert r.returncode == 0, r.stderr
    assert "GPU Virtual ISA, NVIDIA" in r.stdout
    assert "PTX is a virtual ISA: no fixed binary encoding" in r.stdout
    assert "vsub.dtype.atype.btype{.sat}.op2 d, a{.asel}, b{.bsel}, c;" in r.stdout


def test_known_introductions():
    """Facts from NVIDIA's PTX ISA document (instruction pages' PTX ISA / target notes)."""
    def first(name):
        inst = next(i for f in catalog.families() for i in f["instructions"] if i["name"] == name)
        dated = [f for f in inst["forms"] if f["ptx_version"]]
        return min(dated, key=lambda f: tuple(map(int, f["ptx_version"].split("."))))
    assert (first("dp4a")["ptx_version"], first("dp4a")["min_target"]) == ("5.0", "sm_61")
    assert (first("lop3")["ptx_version"], first("lop3")["min_target"]) == ("4.3", "sm_50")
    assert (first("bmsk")["ptx_version"], first("bmsk")["min_target"]) == ("7.6", "sm_70")
    assert first("wgmma.fence")["min_target"] == "sm_90a"


def test_measured_ignored_tokens_are_ignored_by_ptxas(ptxas_tool):
    """Tokens stored as 'ignored anywhere' are accepted by ptxas in instructions the generator did not probe."""
    tokens = ["".join(t) for t in catalog.ignored_tokens()]
    assert tokens, "measured/ptxas.json lists no ignored tokens"
    hosts = [("sub.u32", " r1, r2, r3;"), ("ld.shared.b64", " rd1, [rd2];")]
    lines = [op + tok + ops for op, ops in hosts for tok in tokens]
    # a token that is not ignored (a type from elsewhere) is rejected in the same places: the probe can fail
    lines += [op + ".u16" + ops for op, ops in hosts]
    verdicts = ptxas.verdicts(ptxas_tool, lines, "sm_90", "9.0")
    assert all(not errs for errs in verdicts[:-2]), [ln for ln, e in zip(lines, verdicts) if e]
    assert all(errs for errs in verdicts[-2:])
