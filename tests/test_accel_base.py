"""The C accelerator's committed base tables (``codec/accel_base.py``, made by ``python -m gpuisa.regen --steps
accel``): current for every architecture (made by the code present from the batch file present, byte for byte
what a regeneration writes); the first ``gpuisa decode`` in an empty data folder runs from them, without
numpy, the batch decoder, the scalar decoder or the store, and writes the numpy path's bytes; what a run learns
beyond them is kept beside them in the data folder; a file that is not current is not used."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import IN_CI, ROOT, run_cli

from gpuisa import archs
from gpuisa.codec import accel, accel_base

ARCHS = [a.name for a in archs.AMD_ARCHS if a.llvm_target]
# (and wave64 where the architecture has wave64 print plans: RDNA)
TARGETS = [(a, w) for a in ARCHS for w in (False, True)
           if not w or os.path.exists(os.path.join(accel_base.DATA, f"plans_{a}_wave64.json"))]
_REGEN = "python -m gpuisa.regen --steps accel"
needs_accel = pytest.mark.skipif(accel.extension() is None and not IN_CI,
                                 reason="the C extension is not built (python setup.py build_ext --inplace)")


@pytest.mark.parametrize("arch,wave64", TARGETS)
def test_committed_base_tables_are_current(arch, wave64):
    path = accel_base.base_path(arch, wave64)
    payload = accel_base.read_payload(path)
    assert payload is not None, f"{path} missing or damaged: run {_REGEN}"
    version, got_arch, got_wave64, batch_fp, code_fp, spec, answers = payload
    assert (version, got_arch, got_wave64) == (accel_base.VERSION, arch, wave64), f"{path}: run {_REGEN}"
    assert code_fp == accel_base.code_fingerprint(), f"{path} made by other code: run {_REGEN}"
    assert batch_fp == accel_base.base_fingerprint(arch, wave64), f"{path} made from another batch file: run {_REGEN}"
    assert batch_fp.startswith(accel_base.batch_fingerprint(arch))
    with open(path, "rb") as fh:
        assert fh.readline() == accel_base.header(arch, wave64)
    assert accel_base.load_base(arch, wave64) is not None


def test_base_tables_are_a_regeneration(monkeypatch, tmp_path):
    from gpuisa.regen.accel import build

    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    with open(accel_base.base_path("rdna3", False), "rb") as fh:
        assert fh.read() == build("rdna3"), f"accel_rdna3.bin is not what a regeneration writes: run {_REGEN}"


@pytest.fixture(scope="module")
def ref_home(tmp_path_factory) -> str:
    """One data folder for the numpy path's reference runs (its store built once)."""
    return str(tmp_path_factory.mktemp("ref-home"))


def _input(arch: str, wave64: bool = False) -> bytes:
    """Code of known kinds: the example word of every (instruction, encoding) the scalar decoder takes, twice with
    other vector registers (as ``benchmarks/bench_decode.py`` makes its input)."""
    from gpuisa.codec.decoder import get_decoder
    from gpuisa.codec.plans import load_plans
    from gpuisa.codec.tables import load_arch_tables
    from gpuisa.regen.examples import variant_words

    t, plans, dec = load_arch_tables(arch), load_plans(arch, wave64), get_decoder(arch, wave64)
    out = []
    for n, e in enumerate(t.entries):
        for _, data in variant_words(arch, e.name, e.encoding)[:1]:
            enc, plan = t.encodings[e.encoding], plans.get(f"{e.name}|{e.encoding}")
            word = int.from_bytes(data[:enc.width // 8], "little")
            for spec in plan.operands if plan is not None else ():
                if spec.kind == "vreg" and spec.count == 1:
                    word = enc.field(spec.field).insert(word, (n * 7 + 3) % 128)
            for cand in (data, word.to_bytes(enc.width // 8, "little") + data[enc.width // 8:]):
                d = dec.decode_at(cand, 0)
                if d.valid and len(d.data) == len(cand):
                    out.append(cand)
    return b"".join(out)


def _run(args: list[str], home: str, accel_on: bool = True) -> tuple[str, set]:
    """``gpuisa decode ARGS`` in data folder ``home``: the listing and which heavy modules the process imported."""
    env = dict(os.environ, GPUISA_HOME=home, GPUISA_NO_ACCEL="0" if accel_on else "1")
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "gpuisa.cli", "decode", *args], capture_output=True,
                       text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-500:]
    mods = {ln.rsplit("|", 1)[1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")}
    return r.stdout, mods & {"numpy", "gpuisa.codec.batch_arch", "gpuisa.codec.decoder", "gpuisa.store", "sqlite3"}


@needs_accel
@pytest.mark.parametrize("arch,wave64", [("rdna3", False), ("rdna4", False), ("cdna3", False), ("rdna3", True)])
def test_first_run_in_an_empty_data_folder_needs_nothing_but_the_base(tmp_path, ref_home, arch, wave64):
    path = tmp_path / "k.bin"
    path.write_bytes(_input(arch, wave64))
    args = ["--arch", arch, "--file", str(path)] + (["--wave64"] if wave64 else [])
    ref = run_cli(["decode", *args], dict(os.environ, GPUISA_HOME=ref_home, GPUISA_NO_ACCEL="1"))
    assert ref.returncode == 0 and len(ref.stdout.splitlines()) > 1000
    out, heavy = _run(args, str(tmp_path / "home"))
    assert out == ref.stdout and not heavy, heavy
    cache = tmp_path / "home" / "cache"
    assert not (cache.is_dir() and [p for p in os.listdir(cache) if p.startswith("decode-")])  # (nothing to keep)


@needs_accel
def test_answers_beyond_the_base_are_kept_beside_it(tmp_path, ref_home, monkeypatch):
    """Words the base tables leave to the scalar decoder: answered by it in the first run and kept beside the base
    (the ``.add`` file, tied to the base's key; no cache file made), so the second run needs no scalar decoder."""
    known = _input("rdna3")[:2000]
    odd = bytes.fromhex("ffffffff" "00000000" "7e000280" "12345678")  # (words no table holds, in a known stream)
    path = tmp_path / "k.bin"
    path.write_bytes(known + odd + known)
    args = ["--arch", "rdna3", "--file", str(path)]
    ref, _ = _run(args, ref_home, accel_on=False)
    home = str(tmp_path / "home")
    first, heavy = _run(args, home)
    assert first == ref and "gpuisa.codec.decoder" in heavy and "numpy" not in heavy, heavy
    monkeypatch.setenv("GPUISA_HOME", home)
    snap = accel.snapshot_path("rdna3", False)
    assert not os.path.exists(snap) and os.path.exists(accel.added_path(snap))
    second, heavy = _run(args, home)
    assert second == ref and not heavy, heavy
    cur = accel.load_current("rdna3", False)
    assert cur is not None and cur[5][0] == "base" and cur[4]


def test_a_base_not_current_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    assert accel_base.load_base("rdna3", False) is not None
    assert accel_base.load_base("rdna3", True) is not None
    data = tmp_path / "data"  # (wave64: the print plans it was made with changed)
    data.mkdir()
    for name in ("batch_rdna3.json", "accel_rdna3-wave64.bin", "plans_rdna3_wave64.json"):
        with open(os.path.join(accel_base.DATA, name), "rb") as fh:
            (data / name).write_bytes(fh.read())
    monkeypatch.setattr(accel_base, "DATA", str(data))
    assert accel_base.load_base("rdna3", True) is not None
    (data / "plans_rdna3_wave64.json").write_bytes((data / "plans_rdna3_wave64.json").read_bytes() + b" ")
    assert accel_base.load_base("rdna3", True) is None
    monkeypatch.undo()
    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    assert accel_base.load_base("../rdna3", False) is None and accel_base.load_base("nosuch", False) is None
    imports = tmp_path / "imports" / "amd"  # the user's own facts: the store holds other instructions
    imports.mkdir(parents=True)
    (imports / "rdna3.json").write_text("{}")
    assert accel_base.load_base("rdna3", False) is None
    (imports / "rdna3.json").unlink()
    monkeypatch.setattr(accel_base, "batch_fingerprint", lambda arch: "another")  # (the batch file regenerated)
    assert accel_base.load_base("rdna3", False) is None
    monkeypatch.undo()
    monkeypatch.setenv("GPUISA_HOME", str(tmp_path))
    damaged = tmp_path / "accel_rdna3.bin"
    with open(accel_base.base_path("rdna3", False), "rb") as fh:
        blob = bytearray(fh.read())
    blob[len(blob) // 2] ^= 0x55
    damaged.write_bytes(bytes(blob))
    monkeypatch.setattr(accel_base, "base_path", lambda arch, wave64: str(damaged))
    assert accel_base.load_base("rdna3", False) is None
