"""`gpuisa export-data`: versioned tables whose counts match the store, schemas that validate, round trips."""

from __future__ import annotations

import importlib.util
import json

import pytest
from conftest import run_cli

from gpuisa import exportdata, timing


@pytest.fixture(scope="module")
def exported(store, tmp_path_factory):
    out = {}
    for fmt in ("json", "csv"):
        folder = tmp_path_factory.mktemp(f"export-{fmt}")
        counts = exportdata.export(folder, fmt, store=store)
        out[fmt] = (folder, counts)
    return out


def test_counts_match_the_store(store, exported):
    folder, counts = exported["json"]
    con = store.con
    assert counts["instructions"] == con.execute("SELECT count(*) FROM instructions").fetchone()[0]
    assert counts["instruction_encodings"] == con.execute("SELECT count(*) FROM inst_enc").fetchone()[0]
    assert counts["encodings"] == con.execute("SELECT count(*) FROM encodings").fetchone()[0]
    assert counts["archs"] == len(store.archs())
    operands = forms = fields = targets = 0
    for (page,) in con.execute("SELECT page FROM instructions"):
        page = json.loads(page)
        operands += sum(len(e.get("operands", [])) for e in page.get("encodings", []))
        forms += len(page.get("forms", [])) if "encodings" not in page else 0
        targets += sum(len(set(f.get("targets", []))) for f in page.get("forms", [])) if "encodings" not in page else 0
    for (f,) in con.execute("SELECT fields FROM encodings"):
        fields += len(json.loads(f))
    assert (counts["operands"], counts["ptx_forms"], counts["encoding_fields"]) == (operands, forms, fields)
    assert counts["ptx_form_targets"] == targets
    amd = [r["name"] for r in store.archs() if r["isa"] == "amdgpu"]
    assert counts["timing"] == sum(len(timing.load(a)["instructions"]) for a in amd)
    assert counts["timing_missing"] == sum(len(timing.load(a)["missing"]) for a in amd)
    relations = json.loads((exportdata.Path(exportdata.__file__).parent / "data/crossmap/relations.json").read_text())
    assert counts["crossmap"] == len(relations["relations"])
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["export_version"] == exportdata.EXPORT_VERSION
    assert {t: v["rows"] for t, v in manifest["tables"].items()} == counts


def test_schemas_validate(exported):
    for fmt, (folder, _) in exported.items():
        assert exportdata.validate(folder) == [], fmt
    folder = exported["json"][0]
    for table, (version, _, key, cols) in exportdata.TABLES.items():
        sch = json.loads((folder / "schemas" / f"{table}.schema.json").read_text())
        assert sch["x-version"] == version and sch["x-primary-key"] == list(key)
        assert sch["required"] == [c[0] for c in cols] and sch["additionalProperties"] is False


def test_validate_catches_a_bad_row(exported, tmp_path):
    import shutil

    bad = tmp_path / "bad"
    shutil.copytree(exported["json"][0], bad)
    rows = json.loads((bad / "timing.json").read_text())
    rows[0]["latency"] = "five"
    del rows[1]["uops"]
    (bad / "timing.json").write_text(json.dumps(rows))
    errors = exportdata.validate(bad)
    assert any("latency='five'" in e for e in errors) and any("uops" in e for e in errors)


def test_csv_round_trip_equals_json(exported):
    for table in exportdata.TABLES:
        a = exportdata.read_table(exported["json"][0], table, "json")
        b = exportdata.read_table(exported["csv"][0], table, "csv")
        assert a == b, table


def test_facts_in_the_tables(exported):
    folder = exported["json"][0]
    rows = exportdata.read_table(folder, "timing", "json")
    hit = {(r["arch"], r["name"], r["encoding"]): r for r in rows}
    r = hit[("cdna4", "v_mfma_f32_32x32x8_f16", "VOP3P_MFMA")]
    assert (r["latency"], r["rthroughput"], r["source"]) == (12, 8.0, "model")
    assert hit[("rdna3", "v_fma_f64", "VOP3")]["latency"] == 38
    forms = exportdata.read_table(folder, "ptx_forms", "json")
    assert any(f["name"] == "add" and f["ptx_version"] for f in forms)
    cross = exportdata.read_table(folder, "crossmap", "json")
    assert any(c["amd_name"] == "v_add_nc_u32" and c["ptx_form"] == "add.u32 d, a, b;" for c in cross)


def test_export_is_deterministic(store, exported, tmp_path):
    exportdata.export(tmp_path, "csv", store=store)
    first = exported["csv"][0]
    for p in sorted(first.rglob("*")):
        if p.is_file():
            assert (tmp_path / p.relative_to(first)).read_bytes() == p.read_bytes(), p.name


def test_cli_and_parquet(cli_env, tmp_path):
    proc = run_cli(["export-data", str(tmp_path / "x"), "--format", "parquet"], cli_env)
    if importlib.util.find_spec("pyarrow") is None:
        assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0
        assert "pip install pyarrow" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert exportdata.validate(tmp_path / "x") == []
    bad = run_cli(["export-data", str(tmp_path / "y"), "--format", "xml"], cli_env)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0
    (tmp_path / "file").write_text("")
    clash = run_cli(["export-data", str(tmp_path / "file")], cli_env)
    assert clash.returncode == 2 and "not a folder" in clash.stderr
