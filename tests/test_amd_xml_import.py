"""`gpuisa import-amd` on AMD's real XML excerpts: fidelity, cross-check, idempotence, fetch."""

from __future__ import annotations

import hashlib
import json
import shutil
import threading
import xml.etree.ElementTree as ET
from functools import partial
from http.server import HTTPServer, SimpleHTTPRequestHandler
from pathlib import Path

import pytest
from conftest import run_cli

RDNA35 = "amdgpu_isa_rdna3_5.excerpt.xml"
CDNA3 = "amdgpu_isa_cdna3.excerpt.xml"


@pytest.fixture
def home(tmp_path, cli_env):
    env = dict(cli_env)
    env["GPUISA_HOME"] = str(tmp_path / "home")
    return env


@pytest.fixture
def fixtures(shared_dir):
    return shared_dir / "fixtures" / "amd-mrisa"


def show_json(args: list[str], env: dict, monkeypatch, capsys) -> dict:
    """``gpuisa show ARGS --json`` on ``env``'s data folder, in this process (the commands that write the
    folder run as processes: these only read it)."""
    from gpuisa.cli import main

    monkeypatch.setenv("GPUISA_HOME", env["GPUISA_HOME"])
    capsys.readouterr()
    rc = main(["show", *args, "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def snapshot(env) -> dict:
    root = Path(env["GPUISA_HOME"])
    return {str(p.relative_to(root)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()} if root.exists() else {}


def test_parse_every_element_type(fixtures):
    from gpuisa.amdxml.parse import parse_file

    x = parse_file(fixtures / RDNA35)
    root = ET.parse(fixtures / RDNA35).getroot()  # the independent, whole-tree reading
    assert x.document == {c.tag: c.text for c in root.find("Document")}
    assert x.architecture == {"name": "AMD RDNA 3.5", "id": "9"}
    assert [e["name"] for e in x.encodings] == [e.findtext("EncodingName") for e in root.iter("Encoding")]
    vop3 = next(e for e in x.encodings if e["name"] == "ENC_VOP3")
    assert len(vop3["identifiers"]) == 13 and vop3["width"] == 64
    assert vop3["mask"] == int(root.find(".//Encoding[EncodingName='ENC_VOP3']/EncodingIdentifierMask").text, 2)
    vop2 = next(e for e in x.encodings if e["name"] == "ENC_VOP2")
    assert vop2["conditions"][0]["name"] == "default" and vop2["conditions"][0]["tree"][1] == ".notwithin"
    assert [i["name"] for i in x.instructions] == ["S_MOV_B32", "V_CNDMASK_B32", "V_MAD_I32_I24", "V_MSAD_U8"]
    cnd = x.instructions[1]
    assert cnd["group"] == "VALU" and cnd["subgroups"] == ["NOT_ASSIGNED"]
    assert set(cnd["flags"]) == {"IsBranch", "IsConditionalBranch", "IsIndirectBranch", "IsProgramTerminator",
                                 "IsImmediatelyExecuted"}
    vcc = cnd["encodings"][0]["operands"][-1]
    assert (vcc["field"], vcc["kind"], vcc["microcode_required"], vcc["input"]) == (None, "OPR_VCC", False, True)
    assert [d["name"] for d in x.data_formats] == ["FMT_NUM_B32", "FMT_NUM_I24", "FMT_NUM_I32", "FMT_NUM_M64", "FMT_NUM_U32"]
    counts = {t["name"]: len(t["values"]) for t in x.operand_types}  # SOURCE.md lists these counts
    assert counts == {"OPR_SDST": 128, "OPR_SRC": 480, "OPR_SREG": 125, "OPR_SSRC": 224, "OPR_VCC": 1, "OPR_VGPR": 256}
    assert len(x.functional_groups) == 9 and len(x.functional_subgroups) == 14
    assert x.unknown == {}


def test_condition_tree_evaluates(fixtures):
    from gpuisa.amdxml.conditions import evaluate
    from gpuisa.amdxml.parse import parse_file

    x = parse_file(fixtures / CDNA3)
    tree = next(e for e in x.encodings if e["name"] == "ENC_VOP2")["conditions"][0]["tree"]
    # CDNA3 VOP2 native form: SRC0 must not select DPP (250), SDWA (249) or a literal (255)
    assert evaluate(tree, {"SRC0": 1}) is True
    assert [evaluate(tree, {"SRC0": v}) for v in (249, 250, 255)] == [False, False, False]
    sop1 = next(e for e in x.encodings if e["name"] == "ENC_SOP1")["conditions"][0]["tree"]
    assert evaluate(sop1, {"SSRC0": 255}) is False and evaluate(sop1, {"SSRC0": 3}) is True


def test_import_pages_carry_amd_facts(home, fixtures, monkeypatch, capsys):
    r = run_cli(["import-amd", str(fixtures), "--report", str(Path(home["GPUISA_HOME"]) / "r.json")], home)
    assert r.returncode == 0, r.stderr
    assert "rdna3.5: imported; release 2026-02-20, schema 1.1.1: 3 encodings, 4 instructions" in r.stdout
    report = json.loads((Path(home["GPUISA_HOME"]) / "r.json").read_text())
    for arch in report:  # the offline default agrees with AMD on every fact both have
        assert arch["checked"] > 50 and arch["disagreements"] == [] and arch["identifier_problems"] == []
    root = ET.parse(fixtures / RDNA35).getroot()
    for inst in root.iter("Instruction"):
        name = inst.findtext("InstructionName").lower()
        page = show_json([name, "--arch", "rdna3.5"], home, monkeypatch, capsys)
        assert page["description"] == inst.findtext("Description")
        assert page["description_source"].startswith("AMD machine-readable ISA XML 2026-02-20")
        assert page["sources"][0]["source"] == "AMD machine-readable ISA XML"
        assert set(page["flags"]) >= {"IsBranch", "IsProgramTerminator"}
        native = inst.find("InstructionEncodings/InstructionEncoding")
        want = [op.findtext("DataFormatName") for op in native.iter("Operand")]
        assert [o["format"] for o in page["operands"]] == want
        assert not any(o["inferred"] for o in page["operands"])
        conds = {(e["name"], e["condition"]) for e in page["encodings"]}
        for ie in inst.iter("InstructionEncoding"):
            name_ = ie.findtext("EncodingName").removeprefix("ENC_")
            assert (name_, ie.findtext("EncodingCondition")) in conds
    fmt = json.loads(run_cli(["show", "FMT_NUM_I24", "--kind", "format", "--json"], home).stdout)  # (a process too)
    assert fmt["bits"] == 24 and fmt["fields"][0]["signedness"] == "Signed" and fmt["fields"][0]["ranges"] == [[23, 0]]
    opr = show_json(["OPR_SRC", "--kind", "operand-type", "--arch", "cdna3"], home, monkeypatch, capsys)
    values = {v["name"]: v["value"] for v in opr["values"]}
    assert values["M0"] == 124 and values["s0"] == 0  # CDNA3 encodes M0 as 124 (RDNA3.5: 125)


def test_reimport_is_a_noop_and_newer_release_replaces(home, fixtures, tmp_path):
    assert run_cli(["import-amd", str(fixtures / RDNA35)], home).returncode == 0
    before = snapshot(home)
    r = run_cli(["import-amd", str(fixtures / RDNA35)], home)
    assert r.returncode == 0 and "unchanged (same file already imported)" in r.stdout
    assert snapshot(home) == before
    newer = tmp_path / "newer.xml"
    newer.write_text((fixtures / RDNA35).read_text().replace("<ReleaseDate>2026-02-20", "<ReleaseDate>2026-09-01", 1))
    r = run_cli(["import-amd", str(newer)], home)
    assert "replaced release 2026-02-20" in r.stdout
    older = tmp_path / "older.xml"
    older.write_text((fixtures / RDNA35).read_text().replace("<ReleaseDate>2026-02-20", "<ReleaseDate>2025-01-01", 1))
    assert "skipped (release 2026-09-01 is already imported" in run_cli(["import-amd", str(older)], home).stdout


def test_disagreement_is_reported_and_xml_wins(home, fixtures, tmp_path, monkeypatch, capsys):
    tampered = tmp_path / "t.xml"
    text = (fixtures / RDNA35).read_text()
    assert text.count('<Opcode Radix="10">569</Opcode>') >= 1
    tampered.write_text(text.replace('<Opcode Radix="10">569</Opcode>', '<Opcode Radix="10">570</Opcode>', 1))
    rep = tmp_path / "rep.json"
    r = run_cli(["import-amd", str(tampered), "--report", str(rep)], home)
    assert r.returncode == 0 and "1 of" in r.stdout
    dis = json.loads(rep.read_text())[0]["disagreements"]
    assert dis == [{"what": "opcode", "encoding": "VOP3", "xml": 570, "default": 569, "instruction": "v_msad_u8"}]
    page = show_json(["v_msad_u8", "--arch", "rdna3.5"], home, monkeypatch, capsys)
    assert page["encodings"][0]["opcode"] == 570
    assert page["disagreements"][0]["default"] == 569


HOSTILE = {
    "billion_laughs.xml": '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><Spec>&b;</Spec>',
    "external.xml": '<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]><Spec>&x;</Spec>',
    "dtd.xml": '<?xml version="1.0"?><!DOCTYPE Spec SYSTEM "http://example.invalid/x.dtd"><Spec/>',
    "truncated.xml": "<Spec><Document><ReleaseDate>2026",
    "notxml.xml": "this is not XML at all\x00\x01",
    "empty_spec.xml": "<Spec><Other/></Spec>",
}


@pytest.fixture(scope="module")
def cdna3_imported(cli_env, shared_dir, tmp_path_factory) -> Path:
    """A data folder after one good import of the CDNA3 excerpt (made once; each test works on a copy)."""
    root = tmp_path_factory.mktemp("cdna3-imported") / "home"
    env = dict(cli_env, GPUISA_HOME=str(root))
    assert run_cli(["import-amd", str(shared_dir / "fixtures" / "amd-mrisa" / CDNA3)], env).returncode == 0
    return root


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_refused_store_untouched(home, fixtures, tmp_path, name, cdna3_imported):
    shutil.copytree(cdna3_imported, home["GPUISA_HOME"])
    before = snapshot(home)
    assert before and any("cdna3" in k for k in before), before
    bad = tmp_path / name
    bad.write_text(HOSTILE[name])
    r = run_cli(["import-amd", str(fixtures / RDNA35), str(bad)], home)  # a good file first: rolled back too
    assert r.returncode == 2, r.stdout
    assert len(r.stderr.strip().splitlines()) == 1 and str(bad) in r.stderr and "Traceback" not in r.stderr
    assert snapshot(home) == before


def test_zip_traversal_and_huge_file_refused(home, fixtures, tmp_path):
    import zipfile

    z = tmp_path / "evil.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("../../etc/evil.xml", "<Spec/>")
    r = run_cli(["import-amd", str(z)], home)
    assert r.returncode == 2 and "points outside the archive" in r.stderr
    big = tmp_path / "huge.xml"
    with open(big, "wb") as f:  # sparse: 2 GB without using the disk
        f.truncate(2 * 1024**3)
    r = run_cli(["import-amd", str(big)], home)
    assert r.returncode == 2 and "larger than the 256 MiB limit" in r.stderr
    assert snapshot(home) == {}


def test_zip_as_published_imports(home, fixtures, tmp_path):
    import zipfile

    z = tmp_path / "AMD_GPU_MR_ISA_XML_test.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in (RDNA35, CDNA3):
            zf.write(fixtures / f, f"isa/{f}")
    r = run_cli(["import-amd", str(z)], home)
    assert r.returncode == 0 and "cdna3: imported" in r.stdout and "rdna3.5: imported" in r.stdout


def test_fetch_from_local_server_verifies_hash(home, fixtures, tmp_path):
    import zipfile

    site = tmp_path / "site"
    site.mkdir()
    z = site / "isa.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.write(fixtures / CDNA3, CDNA3)
    digest = hashlib.sha256(z.read_bytes()).hexdigest()
    server = HTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(site)))
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/isa.zip"
        r = run_cli(["fetch", "amd", "--url", url, "--sha256", "0" * 64], home)
        assert r.returncode == 2 and "does not match" in r.stderr and snapshot(home) == {}
        r = run_cli(["fetch", "amd", "--url", url, "--sha256", digest], home)
        assert r.returncode == 0 and "cdna3: imported" in r.stdout
        r = run_cli(["fetch", "amd", "--url", z.as_uri(), "--sha256", digest], home)
        assert r.returncode == 0 and "unchanged" in r.stdout
    finally:
        server.shutdown()
    r = run_cli(["fetch", "amd"], home)
    assert r.returncode == 2 and "--sha256" in r.stderr


def test_unknown_elements_are_kept_and_reported_once(home, fixtures, tmp_path):
    from gpuisa.amdxml.parse import parse_file

    text = (fixtures / CDNA3).read_text()
    odd = tmp_path / "odd.xml"
    odd.write_text(text.replace("<InstructionName>", "<FutureThing Kind=\"x\">new</FutureThing><InstructionName>")
                   .replace("<DataFormats>", "<NewSection><Item/></NewSection><DataFormats>", 1))
    x = parse_file(odd)
    assert x.unknown["Instruction/FutureThing"] == {"tag": "FutureThing", "attrib": {"Kind": "x"}, "text": "new",
                                                    "children": []}
    assert "Spec/ISA/NewSection" in x.unknown
    r = run_cli(["import-amd", str(odd)], home)
    assert r.returncode == 0 and r.stdout.count("Instruction/FutureThing") == 1
