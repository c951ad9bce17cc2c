"""gpuisa decode's listing (the batch decoder, llvm-objdump's layout) and encode --file's error report.

Oracle tests (llvm-objdump-22 / llvm-mc-22) skip where LLVM is missing, except with CI=true, where they fail.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, need, run_cli

LINE = re.compile(r"^\t(.*?) *// ([0-9A-F]{12}): ((?:[0-9A-F]{8})(?: [0-9A-F]{8})*|[0-9A-F]{2}(?: [0-9A-F]{2})*)"
                  r"(?: <(.+)>)?$")

# small kernels of plain instructions: code before the first symbol (<.text>), two kernels, a label
# without a type (printed as the branch's operand), a branch to an offset inside a kernel, a second section
KERNELS = {
    "gfx1100": ["s_mov_b32 s0, s1", "v_add_f32 v0, v1, v2", "global_load_b32 v1, v[2:3], off",
                "s_waitcnt vmcnt(0)", "s_mov_b32 s2, 0x12345", "s_subvector_loop_begin s4, 4"],
    "gfx1200": ["s_mov_b32 s0, s1", "v_add_f32 v0, v1, v2", "global_load_b32 v1, v[2:3], off",
                "s_wait_loadcnt 0x0", "s_mov_b32 s2, 0x12345"],
    "gfx942": ["s_mov_b32 s0, s1", "v_add_f32 v0, v1, v2", "global_load_dword v1, v[2:3], off",
               "s_waitcnt vmcnt(0)", "s_mov_b32 s2, 0x12345", "s_cbranch_join s4", "s_cbranch_i_fork s[4:5], 4"],
}  # (a SOPK subvector loop gets its target printed, GFX9's fork and join do not)


def _source(insts: list[str]) -> str:
    body = "\n".join(f"  {i}" for i in insts)
    return (".text\n  s_nop 0\n.globl kern\n.p2align 8\n.type kern,@function\nkern:\n" + body +
            "\n  s_cbranch_scc0 .Lskip\n  s_nop 0\n.Lskip:\n  s_endpgm\n"
            ".globl kern2\n.p2align 6\n.type kern2,@function\nkern2:\n  s_branch loop\n" + body +
            "\nloop:\n  s_cbranch_execz loop\n  s_endpgm\n"
            '.section .text.other,"ax",@progbits\n.globl k3\nk3:\n  s_endpgm\n')


@pytest.fixture(scope="session")
def llvm_objdump() -> str:
    from gpuisa.sources.llvm import LLVM_MAJOR

    path = shutil.which(f"llvm-objdump-{LLVM_MAJOR}") or shutil.which(f"/usr/lib/llvm-{LLVM_MAJOR}/bin/llvm-objdump")
    need(path is not None, f"llvm-objdump-{LLVM_MAJOR} not installed (apt-get install -y llvm-{LLVM_MAJOR})")
    return path


def _assemble(llvm_mc: str, target: str, src: str, path) -> None:
    subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-filetype=obj", "-o", str(path)], input=src,
                   text=True, check=True)


@pytest.mark.parametrize("target", sorted(KERNELS))
def test_listing_equals_llvm_objdump(cli_env, llvm_mc, llvm_objdump, tmp_path, target):
    obj = tmp_path / "k.o"
    _assemble(llvm_mc, target, _source(KERNELS[target]), obj)
    ours = run_cli(["decode", "--arch", target, "--file", str(obj)], cli_env)
    assert ours.returncode == 0, ours.stderr
    theirs = subprocess.run([llvm_objdump, "-d", f"--mcpu={target}", str(obj)], capture_output=True, text=True,
                            check=True).stdout
    assert ours.stdout == theirs
    assert "<.text>:" in theirs and "s_branch loop" in theirs and "<kern+0x" in theirs  # (what the kernel covers)


def test_symbols_inside_instructions_and_a_cut_tail_as_llvm_objdump(cli_env, llvm_mc, llvm_objdump, tmp_path):
    # ``mid`` starts inside the literal of an instruction (printed whole; decoding starts again at ``mid``),
    # ``odd`` two bytes into one, which leaves two bytes at the end (printed one by one)
    src = (".text\n.globl kern\n.type kern,@function\nkern:\n  s_mov_b32 s0, s1\n  s_mov_b32 s2, 0x12345\n"
           "  v_add_f32 v0, v1, v2\n  s_endpgm\n.globl mid\n.set mid, kern+8\n.globl odd\n.set odd, kern+14\n")
    obj = tmp_path / "cut.o"
    _assemble(llvm_mc, "gfx1100", src, obj)
    ours = run_cli(["decode", "--arch", "gfx1100", "--file", str(obj)], cli_env)
    theirs = subprocess.run([llvm_objdump, "-d", str(obj)], capture_output=True, text=True, check=True).stdout
    assert ours.stdout == theirs and "<mid>:" in theirs and "B0 BF" in theirs


def _stream(arch: str) -> bytes:
    """Every 6th (instruction, encoding) of the architecture, its plan's own word; an invalid dword; a cut tail."""
    from gpuisa.codec.decoder import get_decoder
    from gpuisa.codec.tables import load_arch_tables
    from gpuisa.regen.examples import variant_words

    dec = get_decoder(arch)
    out = []
    for e in load_arch_tables(arch).entries[::6]:
        for _, data in variant_words(arch, e.name, e.encoding)[:1]:
            if dec.decode_at(data, 0).valid:
                out.append(data)
    return b"".join(out) + b"\xff\xff\xff\xff" + out[0][:2]


@pytest.mark.parametrize("arch,wave64", [("rdna3", False), ("rdna4", False), ("cdna3", False), ("rdna3", True)])
def test_listing_is_the_scalar_decoders(cli_env, tmp_path, arch, wave64):
    """Offsets follow the sizes, the dwords are the input's, each text is what ``decode_at`` gives there."""
    from gpuisa.codec.batch_render import invalid_line
    from gpuisa.codec.decoder import get_decoder

    data = _stream(arch)
    (tmp_path / "x.bin").write_bytes(data)
    flag = ["--wave64"] if wave64 else []
    r = run_cli(["decode", "--arch", arch, *flag, "--file", str(tmp_path / "x.bin")], cli_env)
    assert r.returncode == 0, r.stderr
    dec = get_decoder(arch, wave64)
    off = 0
    lines = r.stdout.splitlines()
    for line in lines:
        m = LINE.match(line)
        assert m, line
        text, at, words, _ = m.groups()
        d = dec.decode_at(data, off)
        size = len(d.data) if d.valid else min(4, len(data) - off)
        assert int(at, 16) == off, line
        chunk = data[off:off + size]
        want = " ".join(f"{int.from_bytes(chunk[i:i + 4], 'little'):08X}" for i in range(0, size, 4)) if size % 4 == 0 \
            else " ".join(f"{b:02X}" for b in chunk)  # (bytes short of a dword one by one, as llvm-objdump)
        assert words == want, line
        assert text == (d.text if d.valid else invalid_line(chunk)), line
        off += size
    assert off == len(data) and len(lines) > 100
    js = run_cli(["decode", "--arch", arch, *flag, "--json", "--file", str(tmp_path / "x.bin")], cli_env)
    objs = [json.loads(x) for x in js.stdout.splitlines()]
    assert [(o["offset"], o["text"]) for o in objs] == [(int(LINE.match(x).group(2), 16), LINE.match(x).group(1))
                                                         for x in lines]
    assert bytes.fromhex("".join(o["bytes"] for o in objs)) == data
    assert objs[-1]["valid"] is False and objs[-2]["valid"] is False and "error" in objs[-2]


BAD = """start:
  s_mov_b32 s0, s1   // fine
  v_add_f32 v1, v2, v[3:4]
  s_bogus s0
loop:  v_add_f32_e64 v1, v2, v3 bogus
  s_movk_i32 s1, 0x123456
  s_branch loop ; back
  v_add_f32 v1, v2
  s_endpgm
"""


def _positions(stderr: str, path) -> list[tuple[int, int]]:
    out = []
    for line in stderr.splitlines():
        m = re.match(re.escape(str(path)) + r":(\d+):(\d+): error: \S", line)
        assert m, line
        out.append((int(m.group(1)), int(m.group(2))))
    return out


def test_encode_file_reports_every_bad_line_as_llvm_mc(cli_env, llvm_mc, tmp_path):
    src = tmp_path / "bad.s"
    src.write_text(BAD)
    out = tmp_path / "out.bin"
    r = run_cli(["encode", "--arch", "gfx1100", "--file", str(src), "-o", str(out)], cli_env)
    assert r.returncode == 1 and not out.exists() and r.stdout == ""
    ours = _positions(r.stderr, src)
    mc = subprocess.run([llvm_mc, "-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj", "-o", str(tmp_path / "bad.o"),
                         str(src)], capture_output=True, text=True)
    assert mc.returncode == 1 and not (tmp_path / "bad.o").exists()
    theirs = [(int(a), int(b)) for a, b in re.findall(r":(\d+):(\d+): error:", mc.stderr)]
    assert ours == theirs == [(3, 21), (4, 3), (5, 33), (6, 18), (8, 3)]


def test_encode_file_labels_and_output(cli_env, llvm_mc, tmp_path):
    src = tmp_path / "a.s"
    src.write_text("top:\n  v_add_f32 v1, v2, v3 // add\nnext: s_cbranch_scc0 top ; loop\n  s_branch next\n  s_endpgm\n")
    out = tmp_path / "a.bin"
    r = run_cli(["encode", "--arch", "gfx1100", "--file", str(src), "-o", str(out)], cli_env)
    assert r.returncode == 0 and r.stderr == "" and r.stdout == ""
    _assemble(llvm_mc, "gfx1100", src.read_text(), tmp_path / "a.o")
    from gpuisa.codec.elf import code_sections

    assert code_sections((tmp_path / "a.o").read_bytes())[0].data == out.read_bytes()


def test_encode_file_label_errors(cli_env, tmp_path):
    src = tmp_path / "l.s"
    src.write_text("a:\n  s_nop 0\na: s_nop 1\n  s_branch nowhere\n  s_cbranch_scc1 a\n")
    r = run_cli(["encode", "--arch", "rdna3", "--file", str(src)], cli_env)
    assert r.returncode == 1
    assert _positions(r.stderr, src) == [(3, 1), (4, 12)]
    assert "already defined (line 1)" in r.stderr and "unknown label 'nowhere'" in r.stderr
    src.write_text("a:\n  s_cbranch_join s4\n  s_branch a\n")  # (a branch with a register operand is no label)
    r = run_cli(["encode", "--arch", "cdna3", "--file", str(src), "-o", str(tmp_path / "j.bin")], cli_env)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "j.bin").read_bytes() == bytes.fromhex("042e80be feff82bf")


def test_decode_start_up_imports_only_what_it_needs(cli_env, tmp_path):
    def imported(args: list[str]) -> set[str]:
        r = subprocess.run([sys.executable, "-X", "importtime", "-m", "gpuisa.cli", *args], capture_output=True,
                           text=True, env=cli_env, cwd=ROOT)
        return {ln.rsplit("|", 1)[1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")}

    usage = imported(["decode", "--arch", "rdna3", "zz"])  # (a usage error: nothing of the decoder)
    assert not usage & {"numpy", "gpuisa.store", "rich", "gpuisa.codec.decoder"}, usage
    listing = imported(["decode", "--arch", "rdna3", "00 00 80 bf"])
    # (the C accelerator's driver where the extension is built, else the numpy path's listing)
    assert listing & {"gpuisa.codec.accel", "gpuisa.codec.listing"} and not listing & {"rich", "elftools", "gpuisa.codec.fields"}


def test_command_line_modules_do_not_stale_the_batch_tables():
    """The listing and assembler-file modules print what the decoder gives: editing them must not make the
    precomputed batch tables stale (``batch_data.fingerprint``)."""
    from gpuisa.codec.batch_data import _source_files

    names = {p.name for p in _source_files("rdna3")}
    assert not names & {"cli.py", "listing.py", "listing_json.py", "fields.py", "asmfile.py", "elf.py"}


def test_damaged_code_objects_give_one_line(cli_env, llvm_mc, tmp_path, capsys, monkeypatch):
    """Every truncation and many byte flips of a real code object: sections, or one ``ElfError`` line."""
    import random

    from gpuisa.codec.elf import ElfError, code_sections

    obj = tmp_path / "k.o"
    _assemble(llvm_mc, "gfx1100", _source(KERNELS["gfx1100"]), obj)
    data = obj.read_bytes()
    rng = random.Random(3)
    cases = [data[:n] for n in range(0, len(data), 7)]
    for _ in range(400):
        b = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        cases.append(bytes(b))
    for case in cases:
        try:
            code_sections(case)
        except ElfError as exc:
            assert "\n" not in str(exc)
    from gpuisa.cli import main

    monkeypatch.setenv("GPUISA_HOME", cli_env["GPUISA_HOME"])
    for k, case in enumerate(cases[::12]):  # (the whole command, in this process)
        (tmp_path / "d.o").write_bytes(case)
        rc = main(["decode", "--arch", "gfx1100", "--file", str(tmp_path / "d.o")])
        err = capsys.readouterr().err
        assert rc in (0, 2) and len(err.splitlines()) <= 1 and "internal error" not in err, (k, err)
    x86 = bytearray(data)
    x86[18:20] = (62).to_bytes(2, "little")
    (tmp_path / "x86.o").write_bytes(bytes(x86))
    r = run_cli(["decode", "--arch", "rdna3", "--file", str(tmp_path / "x86.o")], cli_env)
    assert r.returncode == 2 and r.stderr.strip() == "gpuisa: not an AMD GPU code object (ELF machine 62, AMDGPU is 224)"
