"""Bad inputs: XML the importer must refuse in one line (nothing imported, nothing touched), bounds on
memory, and hypothesis-driven CLI arguments that must never give a traceback or a multi-line error."""

from __future__ import annotations

import hashlib
import os
import re
import zipfile
from pathlib import Path

import pytest
from faultlab import Lab
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RDNA35 = "amdgpu_isa_rdna3_5.excerpt.xml"


@pytest.fixture
def xml_text(shared_dir) -> str:
    return (shared_dir / "fixtures" / "amd-mrisa" / RDNA35).read_text()


def _sub(pattern: str, repl: str):
    def edit(t: str) -> str:
        out = re.sub(pattern, repl, t, count=1, flags=re.S)
        assert out != t, pattern
        return out
    return edit


def _dup_instruction(t: str) -> str:
    block = re.search(r"<Instruction>.*?</Instruction>", t, re.S).group(0)
    return t.replace(block, block + block, 1)


BAD_XML = {
    "radix 99": (_sub(r'<Opcode Radix="10">', '<Opcode Radix="99">'), "Radix='99'"),
    "order first": (_sub(r'<Range Order="\d+"', '<Range Order="first"'), "Range Order 'first'"),
    "bit offset x": (_sub(r"<BitOffset>\d+</BitOffset>", "<BitOffset>x</BitOffset>"), "BitOffset 'x'"),
    "2 in base 2": (_sub(r'(<EncodingIdentifier Radix="2">[01]*)[01]<', r"\g<1>2<"), "not a base-2 number"),
    "bogus encoding": (lambda t: '<?xml version="1.0" encoding="x-bogus"?>\n' + t, "cannot decode"),
    "duplicated instruction": (_dup_instruction, "is listed 2 times"),
    "190 bytes": (lambda t: "<Spec><Document><ReleaseDate>2099-01-01</ReleaseDate></Document><ISA><Architecture>"
                  "<ArchitectureName>AMD RDNA 3.5</ArchitectureName></Architecture></ISA></Spec>", "lists 0 instructions"),
    "no encodings": (_sub(r"<Encodings>.*</Encodings>", "<Encodings/>"), "lists no <Encoding>"),
    "deep nesting": (lambda t: t.replace("<Document>", "<Document>" + "<x>" * 40 + "</x>" * 40, 1), "nested 25 deep"),
    "huge text": (lambda t: t.replace("<Description>", "<Description>" + "y" * 300_000, 1), "characters; at most"),
    "huge record": (lambda t: t.replace("<Description>", "<Description>" + "<b>z</b>" * 600_000, 1),
                    "one record is larger than 4 MiB"),
    "huge attribute": (lambda t: t.replace("<Instruction>", f'<Instruction a="{"q" * 300_000}">', 1), "attributes"),
    "unknown architecture": (_sub(r"<ArchitectureName>[^<]*<", "<ArchitectureName>Vendor X 9<"), "unknown architecture"),
    "entity": (lambda t: '<!DOCTYPE S [<!ENTITY a "aaaa">]>' + t.replace("<Spec>", "<Spec>&a;", 1), "refused"),
}


def _snapshot(home: Path) -> dict:
    return {str(p.relative_to(home)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(home.rglob("*")) if p.is_file()} if home.exists() else {}


@pytest.fixture
def lab(tmp_path, monkeypatch):
    with Lab(tmp_path, monkeypatch) as lab:
        yield lab


@pytest.fixture
def imported(lab, tmp_path, xml_text):
    """A home with the RDNA3.5 excerpt imported."""
    home = tmp_path / "home"
    good = tmp_path / "good.xml"
    good.write_text(xml_text)
    r = lab.run(["import-amd", str(good)], home)
    assert r.returncode == 0, r.stderr
    return home


def _refused(r, *needles) -> None:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    for n in needles:
        assert n in r.stderr, r.stderr


def test_bad_xml_is_refused_in_one_line_and_the_import_kept(lab, imported, tmp_path, xml_text):
    before = _snapshot(imported)
    for name, (edit, needle) in BAD_XML.items():
        bad = tmp_path / f"{name.replace(' ', '_')}.xml"
        bad.write_text(edit(xml_text))
        r = lab.run(["import-amd", str(bad)], imported)
        _refused(r, needle, str(bad))
        assert _snapshot(imported) == before, name
    assert "RDNA3.5" in lab.run(["show", "v_msad_u8", "--arch", "rdna3.5"], imported).stdout


def test_zip_bombs_and_member_limits_are_refused_before_reading(lab, imported, tmp_path):
    before = _snapshot(imported)
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("isa/rdna3_5.xml", b"<Spec>" + b" " * (64 * 2**20) + b"</Spec>")
    _refused(lab.run(["import-amd", str(bomb)], imported), "zip bomb")
    many = tmp_path / "many.zip"
    with zipfile.ZipFile(many, "w") as zf:
        for i in range(5):
            zf.writestr(f"f{i}.xml", "<Spec/>")
    lab.patch("gpuisa.amdxml.sources", "MAX_MEMBERS", 4)
    _refused(lab.run(["import-amd", str(many)], imported), "5 members; at most 4")
    assert _snapshot(imported) == before


def test_record_and_element_caps(lab, imported, tmp_path, xml_text):
    from gpuisa.amdxml import parse

    lab.patch("gpuisa.amdxml.parse", "MAX_ELEMENTS", 2000)
    p = tmp_path / "x.xml"
    p.write_text(xml_text)
    _refused(lab.run(["import-amd", str(p)], imported), "more than 2000 XML elements")
    lab.patch("gpuisa.amdxml.parse", "MAX_ELEMENTS", 10**6)
    lab.patch("gpuisa.amdxml.parse", "MAX_RECORDS", {**parse.MAX_RECORDS, "instruction": 3})
    _refused(lab.run(["import-amd", str(p)], imported), "more than 3 <Instruction> records")


def test_a_worse_file_needs_force(lab, imported, tmp_path, xml_text):
    blocks = re.findall(r"\s*<Instruction>.*?</Instruction>", xml_text, re.S)
    assert len(blocks) == 4
    worse = xml_text.replace(blocks[0], "").replace(blocks[1], "").replace("<ReleaseDate>2026-02-20", "<ReleaseDate>2027-01-01")
    p = tmp_path / "worse.xml"
    p.write_text(worse)
    r = lab.run(["import-amd", str(p)], imported)
    assert r.returncode == 0 and "skipped (the imported file lists 4 instructions, this one 2; --force" in r.stdout
    r = lab.run(["import-amd", "--force", str(p)], imported)
    assert r.returncode == 0 and "replaced release 2026-02-20" in r.stdout


def test_parse_memory_is_bounded_by_the_caps(monkeypatch):
    """What stays alive is bounded by counts and sizes, not by the file: a file of endless small
    records is cut off at MAX_ELEMENTS, one endless record at MAX_RECORD_BYTES."""
    from gpuisa.amdxml import parse
    from gpuisa.amdxml.parse import MAX_RECORD_BYTES, XmlImportError, parse_stream

    class Endless:
        """A stream that never ends: ``head`` then ``unit`` repeated."""

        def __init__(self, head: bytes, unit: bytes):
            self.head, self.unit, self.sent = head, unit, 0

        def read(self, n: int = -1) -> bytes:
            chunk = self.head if self.sent == 0 else self.unit * max(1, n // len(self.unit))
            self.sent += len(chunk)
            return chunk

    assert MAX_RECORD_BYTES <= 8 * 2**20
    monkeypatch.setattr(parse, "MAX_RECORD_BYTES", 256 * 1024)  # (the same checks, reached sooner)
    with pytest.raises(XmlImportError, match="one record is larger"):
        parse_stream(Endless(b"<Spec><ISA><Instructions><Instruction>", b"<a>x</a>"), "endless")
    monkeypatch.setattr(parse, "MAX_ELEMENTS", 20_000)
    with pytest.raises(XmlImportError, match="XML elements"):
        parse_stream(Endless(b"<Spec><ISA><Instructions>", b"<Junk/>"), "many")


# --- CLI arguments -------------------------------------------------------------------------------------

COMMANDS = [["show"], ["search"], ["list"], ["diff"], ["archs"], ["decode"], ["encode"], ["eval"], ["port"],
            ["show", "--kind", "format"], ["ptx", "check"], ["import-amd"], ["coverage"], ["map"]]
OWN = ("show", "search", "list", "diff", "archs", "import-amd")
TOKENS = ["--arch", "--json", "--limit", "-5", "0", "rdna3", "rdna3.5", "gfx942", "cdna3", "--isa", "ptx",
          "--encoding", "VOP3", "v_msad_u8", "s_mov_b32", "0xbf800000", "--file", "--bogus", "-", "a\nb", "x" * 300,
          "\udcff", "%", "_", '"', "*", "--wave64", "v1=3", "--to", "amd"]


@pytest.fixture(scope="module")
def fuzz_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("fuzzhome")
    old = os.environ.get("GPUISA_HOME")
    os.environ["GPUISA_HOME"] = str(home)
    try:
        from gpuisa.cli import main

        assert main(["archs", "--json"]) == 0  # (the store, built once)
        yield home
    finally:
        if old is None:
            os.environ.pop("GPUISA_HOME", None)
        else:
            os.environ["GPUISA_HOME"] = old


@settings(max_examples=int(os.environ.get("GPUISA_FUZZ_EXAMPLES", "400")), deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(cmd=st.sampled_from(COMMANDS),
       rest=st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=30)), max_size=5))
def test_cli_arguments_never_give_a_traceback(fuzz_home, capsys, cmd, rest):
    from gpuisa.cli import main

    if cmd == ["import-amd"]:
        rest = [str(fuzz_home / "nothing-here" / a.replace("/", "_").replace("\x00", "")) for a in rest] or ["-"]
    argv = cmd + rest
    if cmd[0] in ("ptx", "decode", "encode") and "--file" in argv:
        argv = [a if a != "-" else "/nonexistent" for a in argv]  # (never read the test's stdin)
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc in (0, 1, 2), (argv, rc, err)
    err.encode("utf-8")
    lines = [ln for ln in err.splitlines() if not ln.startswith("gpuisa: note:")]
    assert len(lines) <= 1 and "Traceback" not in err, (argv, err)
    if rc == 2:
        assert lines and lines[0].startswith("gpuisa: "), (argv, err)
        if cmd[0] in OWN:  # (other packages' bugs still come out as one line; these must not be bugs at all)
            assert "internal error" not in lines[0], (argv, err)


@settings(max_examples=int(os.environ.get("GPUISA_FUZZ_EXAMPLES", "400")) // 4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(cmd=st.sampled_from([["encode", "--arch", "rdna3", "--file"], ["decode", "--arch", "rdna3", "--file"],
                            ["ptx", "check"], ["import-amd"]]),
       data=st.one_of(st.binary(max_size=300), st.text(max_size=200).map(lambda t: t.encode("latin-1", "replace")),
                      st.sampled_from([b"<Spec>", b"<?xml version='1.0' encoding='x-bogus'?><a/>", b"\xff\xfe<\x00",
                                       b"v_nop\n\xe9\n", b".version 8.0\n.target sm_90\n\x00"])))
def test_file_contents_never_give_a_traceback(fuzz_home, capsys, cmd, data):
    from gpuisa.cli import main

    path = fuzz_home / "input.bin"
    path.write_bytes(data)
    before = sorted((fuzz_home / "imports").rglob("*")) if (fuzz_home / "imports").exists() else []
    rc = main(cmd + [str(path)])
    _, err = capsys.readouterr()
    lines = [ln for ln in err.splitlines() if not ln.startswith("gpuisa: note:")]
    assert rc in (0, 1, 2) and "Traceback" not in err, (cmd, data, err)
    if rc == 2:
        assert len(lines) == 1 and lines[0].startswith("gpuisa: "), (cmd, data, err)
    if cmd == ["import-amd"]:  # (garbage is refused, and nothing is imported)
        after = sorted((fuzz_home / "imports").rglob("*")) if (fuzz_home / "imports").exists() else []
        assert rc == 2 and after == before, (data, err)
