"""Timing facts (LLVM 22's scheduling models) and `gpuisa timing`, checked against llvm-mca-22 at test time.

The kernel check compares llvm-mca-22's own ``Block RThroughput`` (its static throughput bound, printed to one
decimal) with gpuisa's sum over the committed facts, and every listing line's latency / reciprocal throughput /
micro-ops with llvm-mca's instruction-info view of the same listing.  ``Total Cycles`` (a simulation with
dependencies and waits) is not what gpuisa computes and is not compared.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import need, run_cli

sys.path.insert(0, str(Path(__file__).parent))
from timing_kernels import KERNELS, VOPD_KERNEL  # noqa: E402

from gpuisa import archs, timing  # noqa: E402
from gpuisa.regen.timing import find_llvm_mca, parse_report  # noqa: E402

# (arch, facts key, LLVM text, latency, reciprocal throughput): the checked values
CHECKED = [
    ("rdna3", "v_msad_u8|VOP3", "v_msad_u8 v0, v1, v2, v3", 5, 1.0),
    ("rdna3", "v_sqrt_f32|VOP1", "v_sqrt_f32 v0, v1", 10, 1.0),
    ("rdna3", "v_fma_f64|VOP3", "v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]", 38, 1.0),
    ("cdna4", "v_mfma_f32_32x32x8_f16|VOP3P_MFMA", "v_mfma_f32_32x32x8_f16 v[0:15], v[16:17], v[18:19], v[0:15]",
     12, 8.0),
]


@pytest.fixture(scope="module")
def mca() -> str:
    path = find_llvm_mca()
    need(path is not None, "llvm-mca-22 not installed (apt-get install -y llvm-22)")
    return path


@pytest.fixture(scope="module")
def llc() -> str:
    path = shutil.which("llc-22")
    need(path is not None, "llc-22 not installed (apt-get install -y llvm-22)")
    return path


def _mca(mca: str, cpu: str, path: Path, *extra: str) -> str:
    cpu, _, attr = cpu.partition(",")
    cmd = [mca, "-mtriple=amdgcn", f"-mcpu={cpu}", *([f"-mattr={attr}"] if attr else []), *extra, str(path)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-500:]
    return proc.stdout


def _compile(llc: str, cpu: str, ir: str, tmp: Path, name: str, obj: bool = False) -> Path:
    cpu, _, attr = cpu.partition(",")
    src = tmp / f"{name}.ll"
    src.write_text(ir)
    out = tmp / f"{name}.{'o' if obj else 's'}"
    cmd = [llc, "-mtriple=amdgcn", f"-mcpu={cpu}", *([f"-mattr={attr}"] if attr else []), str(src), "-o", str(out)]
    if obj:
        cmd.append("-filetype=obj")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-500:]
    return out


@pytest.mark.oracle  # (llvm-mca-22 / llc-22)
@pytest.mark.parametrize("arch,key,text,lat,rthr", CHECKED, ids=[c[1].split("|")[0] for c in CHECKED])
def test_checked_values(mca, tmp_path, arch, key, text, lat, rthr):
    """The committed facts hold the issue's values, and llvm-mca-22 reports the same today."""
    facts = timing.load(arch)
    assert facts["source"] == "model" and facts["llvm_version"].startswith("22")
    assert facts["instructions"][key][:2] == [lat, rthr]
    src = tmp_path / "one.s"
    src.write_text(text + "\n")
    row = parse_report(_mca(mca, archs.by_name(arch).llvm_target, src, "--instruction-info", "--iterations=1"))["rows"][0]
    assert (row[0], row[1]) == (lat, rthr)


@pytest.mark.oracle  # (llvm-mca-22 / llc-22)
@pytest.mark.parametrize("name", list(KERNELS))
def test_kernel_agrees_with_llvm_mca(mca, llc, tmp_path, name):
    """gpuisa's Block RThroughput (summed from the facts) == llvm-mca-22's, and every line's numbers match."""
    cpu, ir = KERNELS[name]
    listing = _compile(llc, cpu, ir, tmp_path, name)
    summary = _mca(mca, cpu, listing)
    theirs = float(re.search(r"Block RThroughput:\s+(\S+)", summary).group(1))
    arch = archs.resolve_arch(cpu.split(",")[0]).name
    est = timing.estimate(arch, timing.instruction_lines(listing.read_text()))
    assert est["unknown"] == [], est["unknown"]
    assert round(est["block_rthroughput"], 1) == theirs, (name, est["block_rthroughput"], theirs)
    rows = parse_report(_mca(mca, cpu, listing, "--instruction-info", "--iterations=1"))["rows"]
    assert len(rows) == len(est["lines"])
    for (lat, rthr, uops, text), mine in zip(rows, est["lines"]):
        assert (mine["latency"], mine["rthroughput"], mine["uops"]) == (lat, rthr, uops), (text, mine)


@pytest.mark.oracle  # (llvm-mca-22 / llc-22)
def test_cli_on_object_file_matches_listing(llc, cli_env, tmp_path):
    """`gpuisa timing` on the code object (decoded by the codec) gives the listing's numbers."""
    cpu, ir = KERNELS["saxpy"]
    s = _compile(llc, cpu, ir, tmp_path, "saxpy")
    o = _compile(llc, cpu, ir, tmp_path, "saxpy", obj=True)
    got = []
    for path in (s, o):
        proc = run_cli(["timing", "--arch", cpu, "--file", str(path), "--json"], cli_env)
        assert proc.returncode == 0, proc.stderr
        got.append(json.loads(proc.stdout))
    assert got[0]["block_rthroughput"] == got[1]["block_rthroughput"] == 17.0
    assert got[0]["source"] == "model" and "not a measurement" in got[0]["note"]
    assert [r["key"] for r in got[0]["lines"]] == [r["key"] for r in got[1]["lines"]]
    text = run_cli(["timing", "--arch", cpu, "--file", str(s)], cli_env)
    assert "Block RThroughput 17.00" in text.stdout and "not a measurement" in text.stdout


@pytest.mark.oracle  # (llvm-mca-22 / llc-22)
def test_vopd_pairs_documented_difference(mca, llc, tmp_path):
    """llvm-mca's summary counts VOPD pairs' micro-ops unlike its instruction-info and resource views; gpuisa
    follows the views (a pair: 2 micro-ops, 2 cycles of HWVALU), so here it equals the busiest resource of
    llvm-mca's 'Resource pressure per iteration' instead of its Block RThroughput."""
    cpu, ir = VOPD_KERNEL
    listing = _compile(llc, cpu, ir, tmp_path, "vopd")
    assert "v_dual_" in listing.read_text()
    report = parse_report(_mca(mca, cpu, listing, "--iterations=1"))
    busiest = max(sum(p.get(r, 0.0) for p in report["pressure"]) for r in report["resources"])
    est = timing.estimate("rdna3", timing.instruction_lines(listing.read_text()))
    assert est["unknown"] == []
    assert est["block_rthroughput"] == pytest.approx(busiest)


def test_page_and_json(store):
    from gpuisa.pages import build_page
    from gpuisa.render.text import render_page

    page = build_page(store, "v_fma_f64", "rdna3")
    t = page["timing"]
    assert (t["latency"], t["source"], t["target"]) == (38, "model", "gfx1100")
    assert "not a measurement" in t["note"]
    text = render_page(page)
    assert "Timing (model, not measurement" in text
    missing = build_page(store, "buffer_load_d16_b16", "rdna3")["timing"]
    assert missing["latency"] is None and "crashes" in missing["missing"][0]["reason"]
    assert "Not in the timing facts" in render_page(build_page(store, "buffer_load_d16_b16", "rdna3"))


def test_list_sort_latency(cli_env):
    proc = run_cli(["list", "--arch", "gfx950", "--sort", "latency", "--json"], cli_env)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    lats = [r["latency"] for r in rows if r["latency"] is not None]
    assert lats == sorted(lats, reverse=True) and rows[0]["timing_source"] == "model"
    assert any(r["name"] == "v_mfma_f32_32x32x8_f16" and r["latency"] == 12 for r in rows)


def test_unknown_lines_and_errors(cli_env, tmp_path):
    src = tmp_path / "k.s"
    src.write_text("v_msad_u8 v0, v1, v2, v3\n  v_not_an_instruction v0\nlabel:\n\t.p2align 8\ns_endpgm ; done\n")
    proc = run_cli(["timing", "--arch", "rdna3", "--file", str(src), "--json"], cli_env)
    est = json.loads(proc.stdout)
    assert est["instructions"] == 3 and est["timed"] == 2
    assert est["unknown"][0]["mnemonic"] == "v_not_an_instruction"
    plain = run_cli(["timing", "--arch", "rdna3", "--file", str(src)], cli_env)
    assert "Not in the timing facts (1 lines" in plain.stdout
    for args in (["--arch", "rdna3", "--file", str(tmp_path / "nope.s")], ["--arch", "ptx", "--file", str(src)]):
        bad = run_cli(["timing", *args], cli_env)
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


def test_web_page_section(store):
    """The web page shows the timing (the site's section for page keys it has no template for)."""
    pytest.importorskip("jinja2")
    from gpuisa.web.site import Site, instruction_path

    html = Site(store.path).render(instruction_path("rdna3", "v_sqrt_f32"))
    section = html[html.index('id="x-timing"'):]
    section = section[:section.index("</section>")]
    assert "not a measurement" in section and "gfx1100" in section and "<td>10</td>" in section


def _example_texts(arch: str) -> list[str]:
    path = Path(timing.__file__).parent / "data" / "amd" / "examples" / f"{arch}.json"
    texts: list[str] = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                texts.append(v) if k == "text" and isinstance(v, str) else walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(json.loads(path.read_text()) if path.exists() else [])
    return list(dict.fromkeys(texts))


@pytest.mark.oracle  # (llvm-mca-22 / llc-22)
@pytest.mark.parametrize("arch", [a.name for a in archs.AMD_ARCHS if a.llvm_target])
def test_every_example_line_matches_llvm_mca(mca, arch):
    """Each verified page example (other registers, modifiers and literals than the swept syntax), looked up by
    its printed mnemonic as `gpuisa timing` does, has llvm-mca-22's latency, reciprocal throughput and micro-ops."""
    from gpuisa.regen.timing import run_mca

    lines = _example_texts(arch)
    if not lines:
        pytest.skip(f"no committed examples for {arch} yet (data/amd/examples/{arch}.json)")
    while True:  # (lines llvm-mca rejects or crashes on are left out, as the sweep does)
        report, errors = run_mca(mca, archs.by_name(arch).llvm_target, lines)
        if not errors:
            break
        lines = [t for i, t in enumerate(lines) if i not in errors]
    rows = parse_report(report)["rows"]
    assert len(rows) == len(lines) > 500
    facts = timing.load(arch)["instructions"]
    wrong, unknown = [], []
    for lat, rthr, uops, text in rows:
        key = timing.lookup(arch, text.split()[0])
        if key is None:
            unknown.append(text)  # (GFX9 image and export forms: codec-side layouts the timing sweep does not cover)
        elif tuple(facts[key][:3]) != (lat, rthr, uops):
            wrong.append((text, key, facts[key][:3], (lat, rthr, uops)))
    assert wrong == [], wrong[:5]
    assert len(unknown) <= 0.1 * len(rows), unknown[:5]


@pytest.mark.oracle  # (llvm-mca-22 / llc-22)
def test_cli_llvm_mca_option(mca, llc, cli_env, tmp_path):
    """`--llvm-mca` runs llvm-mca-22 on the same lines (also for a code object): the same Block RThroughput."""
    cpu, ir = KERNELS["mfma_gfx942"]
    o = _compile(llc, cpu, ir, tmp_path, "mfma", obj=True)
    proc = run_cli(["timing", "--arch", cpu, "--file", str(o), "--json", "--llvm-mca"], cli_env)
    assert proc.returncode == 0, proc.stderr
    est = json.loads(proc.stdout)
    assert est["llvm_mca"]["block_rthroughput"] == round(est["block_rthroughput"], 1)
    assert est["llvm_mca"]["total_cycles"] > est["block_rthroughput"] and est["llvm_mca"]["iterations"] == 100
