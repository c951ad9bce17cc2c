"""gpuisa decode / encode: JSON contract, ELF code objects, labels, one-line errors (exit 2).

(The listing's agreement with llvm-objdump and ``encode --file``'s error report: test_codec_cli_listing.py.)"""

from __future__ import annotations

import json
import subprocess

from conftest import run_cli


def _lines(stdout: str) -> list[dict]:
    return [json.loads(x) for x in stdout.splitlines()]


def test_decode_json_contract(cli_env):
    r = run_cli(["decode", "--arch", "gfx1200", "--fields", "--json", "05 00 39 d6 01 05 0e 00"], cli_env)
    assert r.returncode == 0, r.stderr
    out = _lines(r.stdout)
    assert len(out) == 1
    d = out[0]
    assert set(d) >= {"offset", "bytes", "text", "encoding", "fields", "valid", "error"}
    assert d["bytes"] == "050039d601050e00" and d["text"] == "v_msad_u8 v5, v1, v2, s3"
    assert d["fields"]["VDST"] == 5 and d["valid"] is True and d["error"] is None
    r = run_cli(["decode", "--arch", "gfx1200", "--json", "05 00 39 d6 01 05 0e 00"], cli_env)  # (the batch path)
    assert _lines(r.stdout) == [{"offset": 0, "bytes": "050039d601050e00", "size": 8, "text": d["text"], "valid": True}]


def test_decode_input_spellings_agree(cli_env):
    outs = []
    for args in (["05 00 39 d6 01 05 0e 00"], ["0xd6390005", "0x000e0501"], ["050039d601050e00"]):
        r = run_cli(["decode", "--arch", "rdna4", "--json", *args], cli_env)
        assert r.returncode == 0, r.stderr
        outs.append(_lines(r.stdout))
    assert outs[0] == outs[1] == outs[2]


def test_decode_invalid_and_truncated_are_reported_and_resync(cli_env):
    # 0xbffeffff: SOPP opcode 126 does not exist on GFX11; then s_endpgm; then 3 stray bytes
    for extra in ([], ["--fields"]):
        r = run_cli(["decode", "--arch", "rdna3", "--json", *extra, "ff ff fe bf 00 00 b0 bf 01 02 03"], cli_env)
        out = _lines(r.stdout)
        assert [d["valid"] for d in out] == [False, True, False]
        assert "opcode" in out[0]["error"] and out[1]["text"] == "s_endpgm" and "truncated" in out[2]["error"]
        assert out[1]["offset"] == 4 and out[2]["bytes"] == "010203"
    plain = run_cli(["decode", "--arch", "rdna3", "ff ff fe bf 00 00 b0 bf 01 02 03"], cli_env).stdout.splitlines()
    assert [x.split("//")[0].strip() for x in plain] == [".long 0xbffeffff", "s_endpgm", ".byte 0x01, 0x02, 0x03"]


def test_encode_json_contract(cli_env):
    r = run_cli(["encode", "--arch", "rdna3", "--json", "v_msad_u8 v5, v1, v2, s3"], cli_env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["bytes"] == "050039d601050e00" and out["encoding"] == "VOP3" and out["fields"]["SRC2"] == 3


def test_encode_file_with_labels_matches_llvm(cli_env, llvm_mc, tmp_path):
    src = "top:\n  v_add_f32 v1, v2, v3 // add\n  s_cbranch_scc0 top ; loop\n  s_endpgm\n"
    (tmp_path / "a.s").write_text(src)
    r = run_cli(["encode", "--arch", "gfx1100", "--json", "--file", str(tmp_path / "a.s")], cli_env)
    assert r.returncode == 0, r.stderr
    ours = bytes.fromhex("".join(x["bytes"] for x in json.loads(r.stdout)))
    obj = tmp_path / "a.o"
    subprocess.run([llvm_mc, "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", "-o", str(obj)], input=src, text=True,
                   check=True)
    from gpuisa.codec.elf import code_sections

    assert code_sections(obj.read_bytes())[0].data == ours


def test_decode_elf_code_object(cli_env, llvm_mc, tmp_path):
    src = ".text\n.globl kern\n.type kern,@function\nkern:\n  v_add_f32 v1, v2, v3\nhere:\n  s_branch here\n  s_endpgm\n"
    obj = tmp_path / "k.o"
    subprocess.run([llvm_mc, "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", "-o", str(obj)], input=src, text=True,
                   check=True)
    for extra in ([], ["--fields"]):
        r = run_cli(["decode", "--arch", "gfx1100", "--json", *extra, "--file", str(obj)], cli_env)
        assert r.returncode == 0, r.stderr
        out = _lines(r.stdout)
        assert out[0]["label"] == "kern" and out[0]["text"] == "v_add_f32_e32 v1, v2, v3"
        assert out[1]["text"].startswith("s_branch") and out[1]["target"] == 4  # branch to itself
        assert out[2]["text"] == "s_endpgm" and {d["section"] for d in out} == {".text"}
    text = run_cli(["decode", "--arch", "gfx1100", "--file", str(obj)], cli_env).stdout
    # (``here`` is a symbol without a type: llvm-objdump prints its name as the branch's operand)
    assert "0000000000000000 <kern>:" in text and "\n0000000000000004 <here>:\n\ts_branch here " in text
    text = run_cli(["decode", "--arch", "gfx1100", "--fields", "--file", str(obj)], cli_env).stdout
    assert "kern:" in text and "SRC0[8:0]=258(v2)" in text


def test_errors_are_one_line_exit_2(cli_env, tmp_path):
    bad_elf = tmp_path / "bad.o"
    bad_elf.write_bytes(b"\x7fELF" + b"\x02\x01\x01" + b"\0" * 40)
    cases = [
        (["encode", "--arch", "rdna2", "v_dot2_f32_bf16 v1, v2, v3, v4"], "it exists in"),
        (["encode", "--arch", "rdna3", "v_add_f32 v1, v2"], "operand"),
        (["encode", "--arch", "rdna3", "v_add_f32_e64 v1, v2, v3 bogus"], "modifier"),
        (["encode", "--arch", "rdna3", "s_movk_i32 s1, 0x123456"], "range"),
        (["encode", "--arch", "rdna3", "v_add_f32 v1, v2, v[3:4]"], "operand"),
        (["decode", "--arch", "rdna3", "zz"], "hex"),
        (["decode", "--arch", "gfx9999", "00"], "unknown architecture"),
        (["decode", "--arch", "rdna3", "--file", str(bad_elf)], "corrupted ELF"),
        (["decode", "--arch", "rdna3", "--file", str(tmp_path / "missing.bin")], "cannot read"),
    ]
    for args, needle in cases:
        r = run_cli(args, cli_env)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0] and "Traceback" not in r.stderr, (args, r.stderr)
