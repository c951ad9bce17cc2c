"""``gpuisa decode``'s C accelerator (``codec/fastdecode.c``, ``codec/accel.py``) writes the same bytes as the
numpy path (``GPUISA_NO_ACCEL=1``, the reference), from a cold data folder and from its cache; llvm-objdump-22
agrees with it on a code object llvm-mc-22 made; a damaged cache is made again; a run from the cache needs
neither numpy nor the scalar decoder."""

from __future__ import annotations

import io
import os
import random
import shutil
import subprocess
import sys

import pytest
from conftest import IN_CI, ROOT, run_cli


@pytest.fixture(scope="session")
def llvm_objdump() -> str:
    from conftest import need

    from gpuisa.sources.llvm import LLVM_MAJOR

    path = shutil.which(f"llvm-objdump-{LLVM_MAJOR}")
    need(path is not None, f"llvm-objdump-{LLVM_MAJOR} not installed (apt-get install -y llvm-{LLVM_MAJOR})")
    return path


def _accel_built() -> bool:
    from gpuisa.codec import accel

    return accel.extension() is not None


needs_accel = pytest.mark.skipif(not _accel_built() and not IN_CI, reason="the C extension is not built "
                                 "(python setup.py build_ext --inplace)")


def test_ci_builds_the_extension():
    """CI must measure and test the accelerator, never the fallback without saying so."""
    if not IN_CI:
        pytest.skip("only asserted with CI=true")
    assert _accel_built(), "gpuisa.codec.fastdecode is not importable: .ci/run must build it (gcc, python3-dev)"


def _words(arch: str, seed: int) -> bytes:
    """Benchmark-like input: the plan words of every (instruction, encoding) with random low bits in both dwords
    (register fields, modifiers: also words no instruction has), some random dwords, a cut tail."""
    from gpuisa.codec.tables import load_arch_tables
    from gpuisa.regen.examples import variant_words

    rng = random.Random(seed)
    out = []
    for e in load_arch_tables(arch).entries[::2]:
        for _, data in variant_words(arch, e.name, e.encoding)[:1]:
            for _ in range(2):
                b = bytearray(data)
                for k in range(0, min(len(b), 8), 4):
                    b[k] ^= rng.randrange(256)
                    if rng.random() < 0.3:
                        b[k + 1] ^= rng.randrange(4)
                out.append(bytes(b))
            out.append(data)
    rng.shuffle(out)
    junk = bytes(rng.randrange(256) for _ in range(64))
    return b"".join(out[:len(out) // 2]) + junk + b"".join(out[len(out) // 2:]) + out[0][:3]


def _decode(args: list[str], env: dict, accel: bool) -> str:
    env = dict(env, GPUISA_NO_ACCEL="0" if accel else "1")
    r = run_cli(["decode", *args], env)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _listing(arch: str, wave64: bool, data: bytes, accel: bool) -> bytes:
    """The plain listing of raw bytes, in this process: the C loop (``accel.write_listing``) or the numpy path."""
    from gpuisa.codec.accel import write_listing
    from gpuisa.codec.decoder import get_decoder
    from gpuisa.codec.listing import write_raw

    out = io.BytesIO()
    if accel:
        assert write_listing(out, arch, arch, wave64, data, None, None)
    else:
        write_raw(out, get_decoder(arch, wave64), data, False)
    return out.getvalue()


@needs_accel
@pytest.mark.parametrize("arch,wave64", [("rdna3", False), ("rdna4", False), ("cdna3", False), ("rdna3", True)])
def test_accelerated_listing_is_the_numpy_paths(tmp_path, monkeypatch, arch, wave64):
    from gpuisa.codec.accel import snapshot_path

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    data = _words(arch, 7)
    ref = _listing(arch, wave64, data, accel=False)
    cold = _listing(arch, wave64, data, accel=True)  # (no cache yet: the batch decoder answers the C loop)
    assert os.path.exists(snapshot_path(arch, wave64))
    warm = _listing(arch, wave64, data, accel=True)  # (from the cache)
    assert cold == ref and warm == ref
    assert len(ref.splitlines()) > 300 and b".long 0x" in ref
    # a tail cut inside an instruction; the stream from an odd offset (new words: the cache learns them)
    for part in (data[:len(data) // 3 + 1], data[2:], data[:7]):
        assert _listing(arch, wave64, part, accel=True) == _listing(arch, wave64, part, accel=False)


_KERNELS = """.text
  s_nop 0
.globl kern
.p2align 8
.type kern,@function
kern:
  s_mov_b32 s0, s1
  v_add_f32 v0, v1, v2
  s_mov_b32 s2, 0x12345
  s_cbranch_scc0 .Lskip
  s_nop 0
.Lskip:
  s_endpgm
.globl table
table:
  .long 0xffffffff, 0x12345678
  .byte 0x80, 2, 3, 4, 5, 6
.globl kern2
.type kern2,@function
kern2:
  s_branch loop
  v_mul_f32 v3, v4, v5
loop:
  s_cbranch_execz loop
  s_endpgm
.globl mid
.set mid, kern+12
"""


@needs_accel
@pytest.mark.parametrize("target", ["gfx1100", "gfx1200", "gfx942"])
def test_code_object_with_data_between_kernels_as_llvm_objdump(cli_env, llvm_mc, llvm_objdump, tmp_path, target):
    obj = tmp_path / "k.o"
    subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-filetype=obj", "-o", str(obj)], input=_KERNELS,
                   text=True, check=True)
    theirs = subprocess.run([llvm_objdump, "-d", f"--mcpu={target}", str(obj)], capture_output=True, text=True,
                            check=True).stdout
    args = ["--arch", target, "--file", str(obj)]
    cold = _decode(args, cli_env, accel=True)
    warm = _decode(args, cli_env, accel=True)
    assert cold.splitlines() == theirs.splitlines() and warm == cold
    assert "<table>:" in theirs and "<mid>:" in theirs
    assert _decode(args, cli_env, accel=False) == cold


@needs_accel
def test_damaged_cache_is_made_again_and_a_warm_run_needs_no_numpy(cli_env, tmp_path):
    from gpuisa.codec.accel import snapshot_path

    path = tmp_path / "x.bin"
    path.write_bytes(_words("rdna3", 3)[:4000])
    args = ["--arch", "rdna3", "--file", str(path)]
    ref = _decode(args, cli_env, accel=False)
    assert _decode(args, cli_env, accel=True) == ref
    snap = os.path.join(cli_env["GPUISA_HOME"], "cache", os.path.basename(snapshot_path("rdna3", False)))
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "gpuisa.cli", "decode", *args], capture_output=True,
                       text=True, env=cli_env, cwd=ROOT)
    mods = {ln.rsplit("|", 1)[1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")}
    assert r.stdout == ref and "gpuisa.codec.accel" in mods
    assert not mods & {"numpy", "gpuisa.codec.decoder", "gpuisa.store", "sqlite3"}, mods & {"numpy", "sqlite3"}
    with open(snap, "r+b") as f:  # one byte changed: the seal refuses it, the cache is made again
        f.seek(-5, os.SEEK_END)
        b = f.read(1)
        f.seek(-5, os.SEEK_END)
        f.write(bytes([b[0] ^ 0x5A]))
    assert _decode(args, cli_env, accel=True) == ref
    with open(snap, "wb") as f:
        f.write(b"not a cache file")
    assert _decode(args, cli_env, accel=True) == ref
    assert _decode(args, cli_env, accel=True) == ref


def _heavy_imports(args: list[str], env: dict) -> tuple[str, set]:
    """The listing of ``gpuisa decode ARGS`` and which of numpy, the batch decoder, the scalar decoder and the store
    the process imported."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "gpuisa.cli", "decode", *args], capture_output=True,
                       text=True, env=env, cwd=ROOT)
    mods = {ln.rsplit("|", 1)[1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")}
    assert r.returncode == 0 and "gpuisa.codec.accel" in mods, r.stderr[-500:]
    return r.stdout, mods & {"numpy", "gpuisa.codec.batch_arch", "gpuisa.codec.decoder", "gpuisa.store"}


@needs_accel
def test_unseen_inputs_after_another_keep_the_cache(cli_env, tmp_path):
    """Inputs decoded from a cache another input made write the numpy path's bytes.  One whose words the cache
    knows in new places (B: A rotated) only adds scalar answers beside the cache, without numpy or the batch
    decoder and without writing the cache again; one of new words (C) makes the cache again; after both the
    cache still serves A, B and C with neither numpy, the batch decoder, the scalar decoder nor the store."""
    from gpuisa.codec.accel import added_path, snapshot_path

    words = _words("rdna4", 3)[:6000]
    inputs = {"a": words, "b": words[3000:] + words[:3000], "c": _words("rdna4", 11)[:6000]}
    args, ref = {}, {}
    for k, data in inputs.items():
        (tmp_path / f"{k}.bin").write_bytes(data)
        args[k] = ["--arch", "rdna4", "--file", str(tmp_path / f"{k}.bin")]
        ref[k] = _decode(args[k], cli_env, accel=False)
    assert _decode(args["a"], cli_env, accel=True) == ref["a"]
    snap = os.path.join(cli_env["GPUISA_HOME"], "cache", os.path.basename(snapshot_path("rdna4", False)))
    with open(snap, "rb") as f:
        made_by_a = f.read()
    out, heavy = _heavy_imports(args["b"], cli_env)
    assert out == ref["b"] and not heavy & {"numpy", "gpuisa.codec.batch_arch"}, heavy
    with open(snap, "rb") as f:
        assert f.read() == made_by_a  # (not written again: B's answers are beside it)
    assert os.path.exists(added_path(snap))
    assert _decode(args["c"], cli_env, accel=True) == ref["c"]
    for k in ("a", "b", "c", "a"):
        out, heavy = _heavy_imports(args[k], cli_env)
        assert out == ref[k] and not heavy, (k, heavy)


@needs_accel
@pytest.mark.parametrize("arch", ["rdna3", "rdna4"])
def test_exports_from_learned_formats_are_the_numpy_paths(tmp_path, monkeypatch, arch):
    """Exports (left to the scalar decoder by the batch path) of every enable mask and some targets, then the same
    with other source registers: the second listing comes from the formats the first one learned (no scalar
    decoder), byte for byte the numpy path's."""
    from gpuisa.codec import accel
    from gpuisa.codec.decoder import get_decoder

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    dec = get_decoder(arch)
    size, mask, cuts = accel.export_cut(dec)
    enc = dec.tables.encodings["EXP" if "EXP" in dec.tables.encodings else "VEXPORT"]
    base = int(enc.fixed_value)
    en, target, done = enc.field("EN"), enc.field("TARGET"), enc.field("DONE")
    rng = random.Random(5)

    def stream() -> bytes:
        out = b""
        for t in (0, 1, 7, 8, 12, 20, 32):
            for e in range(16):
                w = en.insert(target.insert(base, t), e)
                w = done.insert(w, e & 1)
                w |= sum(rng.randrange(256) << lo for lo, _ in cuts)
                out += w.to_bytes(size, "little") + bytes.fromhex("7e000280")  # (and a v_nop-like dword after)
        return out

    first, second, third = stream(), stream(), stream()
    for data in (first, second, second):
        assert _listing(arch, False, data, accel=True) == _listing(arch, False, data, accel=False)
    _, spec, answers = accel.load_current(arch, False)[:3]  # (new sources: no question for the scalar decoder)
    warm = accel.Warm(arch, False, answers)
    warm.spec = spec  # (the stream's last word from the tables, as a run does)
    accel._run(accel.extension().Tables(spec), third, None, None, warm, accel._Discard())
    assert warm.dec is None and not warm.new


@needs_accel
@pytest.mark.parametrize("arch", ["rdna3", "rdna4", "cdna3"])
def test_last_instruction_from_the_tables_is_the_scalar_decoders(tmp_path, monkeypatch, arch):
    """The tail loop's answer from the tables (``Warm.tail_answer``: each instruction alone, as a stream's last) is
    the scalar decoder's, where it is given; most are."""
    from gpuisa.codec import accel
    from gpuisa.codec.decoder import get_decoder

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    data = _words(arch, 5)
    _listing(arch, False, data[:3000], accel=True)
    spec = accel.load_snapshot(arch, False)[1]
    dec = get_decoder(arch)
    off, served, total = 0, 0, 0
    while off < len(data) and total < 400:
        d = dec.decode_at(data, off)
        size = len(d.data) if d.valid else 4
        warm = accel.Warm(arch, False, {})
        warm.spec = spec
        got = warm.tail_answer(data[off:off + size], 0)
        assert got is None or got == accel.scalar_answer(dec, data[off:off + size], 0, 1), data[off:off + size].hex()
        served += got is not None
        total += 1
        off += size
    assert served > total // 2, (served, total)


@needs_accel
@pytest.mark.parametrize("target", ["gfx1100", "gfx942"])
def test_json_through_the_c_loop_is_the_numpy_paths(cli_env, llvm_mc, tmp_path, target):
    """``--json`` from the committed base tables and from the cache (``accel_json.py``) writes the numpy path's
    objects: symbols (one inside an instruction), data between kernels (no instruction: their error), branch
    targets, bytes short of a dword; and random words as raw bytes; the object's run from the base imports no numpy."""
    obj = tmp_path / "k.o"
    subprocess.run([llvm_mc, "-arch=amdgcn", f"-mcpu={target}", "-filetype=obj", "-o", str(obj)], input=_KERNELS,
                   text=True, check=True)
    raw = tmp_path / "x.bin"
    raw.write_bytes(_words("rdna3" if target == "gfx1100" else "cdna3", 5)[:6000])
    for path in (obj, raw):
        args = ["--arch", target, "--file", str(path), "--json"]
        ref = _decode(args, cli_env, accel=False)
        env = dict(cli_env, GPUISA_HOME=str(tmp_path / f"home-{path.name}"))
        first, heavy = _heavy_imports(args, env)
        assert first == ref and (path == raw or "numpy" not in heavy), heavy  # (random words: a new kind of code)
        assert _decode(args, env, accel=True) == ref
    objs = _decode(["--arch", target, "--file", str(obj), "--json"], cli_env, accel=False)
    assert '"label": "kern2"' in objs and '"target": ' in objs and '"error": ' in objs
