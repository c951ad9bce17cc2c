"""The Semantics page section stays cheap (no compiling at show time), its precomputed
fidelity table is current, and ``semantics_diff`` compares two generations' pseudocode."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import need

from gpuisa.errors import UserError
from gpuisa.semantics import sources


@pytest.fixture(autouse=True)
def _pseudocode_source():
    """Skips without the tinygrad wheel outside CI; in CI (where it is a dependency) its absence fails."""
    need(sources.available(), "pseudocode source (tinygrad wheel) not installed")


def test_fidelity_table_is_current():
    from gpuisa.semantics import fidelity

    committed = json.loads(fidelity.TABLE_PATH.read_text())
    live = fidelity.build_table()
    assert committed["source"] == live["source"]
    got = {a: {n: committed["rows"][i] for n, i in names.items()} for a, names in committed["archs"].items()}
    want = {a: {n: live["rows"][i] for n, i in names.items()} for a, names in live["archs"].items()}
    stale = [(a, n) for a in want for n in want[a] if got.get(a, {}).get(n) != want[a][n]]
    assert not stale, f"regenerate with python -m gpuisa.semantics.fidelity --write: {stale[:5]}"


def test_show_page_neither_compiles_nor_parses(cli_env):
    code = ("import sys\nfrom gpuisa.store import Store, default_db_path\nfrom gpuisa import pages\n"
            "p = pages.build_page(Store(default_db_path()), 'v_msad_u8', 'rdna3.5')\n"
            "s = p['semantics']\n"
            "print(s['fidelity'], 'gpuisa.semantics.compiler' in sys.modules, 'lark' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["exact", "False", "False"]


def test_page_shows_matrix_fidelity_from_the_table(cli_env):
    code = ("from gpuisa.store import Store, default_db_path\nfrom gpuisa import pages\n"
            "p = pages.build_page(Store(default_db_path()), 'v_wmma_f32_16x16x16_f16', 'rdna4')\n"
            "print(p['semantics']['fidelity'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=cli_env, timeout=120)
    assert out.stdout.strip() == "untested", out.stderr


def test_semantics_diff_partitions_the_names():
    from gpuisa.semantics.diffs import semantics_diff

    d = semantics_diff("rdna3.5", "rdna4")
    src = sources.default_source()
    a, b = set(src.entries("rdna3.5")), set(src.entries("rdna4"))
    differ = {x["name"] for x in d["differ"]}
    assert set(d["same"]) | differ | set(d["only_a"]) == a
    assert set(d["same"]) | differ | set(d["only_b"]) == b
    assert not set(d["same"]) & differ
    assert d["same"] and d["differ"] and d["only_a"] and d["only_b"]
    for x in d["differ"][:20]:
        ta = src.entries("rdna3.5")[x["name"]][0].text.strip()
        tb = src.entries("rdna4")[x["name"]][0].text.strip()
        assert ta != tb
        lines = x["diff"].splitlines()
        assert lines[0] == "--- RDNA3.5" and lines[1] == "+++ RDNA4"
        removed = [ln[1:] for ln in lines[2:] if ln.startswith("-")]
        added = [ln[1:] for ln in lines[2:] if ln.startswith("+")]
        assert all(r in ta.splitlines() for r in removed) and all(r in tb.splitlines() for r in added)
    # an instruction both generations define identically is listed as same
    for n in d["same"][:20]:
        assert src.entries("rdna3.5")[n][0].text.strip() == src.entries("rdna4")[n][0].text.strip()


@pytest.mark.parametrize("bad", ["rdna2", "gfx9000"])
def test_semantics_diff_rejects_generations_without_pseudocode(bad):
    from gpuisa.semantics.diffs import semantics_diff

    with pytest.raises(UserError):
        semantics_diff(bad, "rdna4")
