"""Nothing lost, nothing blocked: the data folder under SIGKILL, concurrency, stray files, read-only and
damaged stores.  After every fault the folder must answer ``gpuisa show v_msad_u8`` with the last good
import, with no traceback on stderr.

Kill points: ``GPUISA_FAULT_KILLS`` (default 52, alternately in ``import-amd`` and ``build``), at random
times (seed: ``GPUISA_FAULT_SEED``, printed on failure) inside each command's measured run time.  The
commands run as forked children (tests/faultlab.py) over a store cut down to RDNA3.5, so a kill point costs
a fraction of a second; the read-only folders run the real ``python -m gpuisa.cli`` on the full store.
"""

from __future__ import annotations

import fcntl
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from faultlab import Lab

RDNA35 = "amdgpu_isa_rdna3_5.excerpt.xml"
KILLS = int(os.environ.get("GPUISA_FAULT_KILLS", "32"))  # (a new seed each run: the points differ run to run)
SEED = int(os.environ.get("GPUISA_FAULT_SEED", str(int(time.time()) % 100000)))
ORIGINAL = "Calculate the sum of absolute differences"


def gpuisa(args: list[str], home: Path, timeout: float = 120, **env) -> subprocess.CompletedProcess:
    e = dict(os.environ, GPUISA_HOME=str(home), **env)
    e.pop("GPUISA_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "gpuisa.cli", *args], capture_output=True, text=True, env=e,
                          cwd=ROOT, timeout=timeout)


@pytest.fixture(scope="module")
def releases(shared_dir, tmp_path_factory) -> dict[str, Path]:
    """Two releases of the RDNA3.5 excerpt, told apart by a marker in v_msad_u8's description."""
    text = (shared_dir / "fixtures" / "amd-mrisa" / RDNA35).read_text()
    assert ORIGINAL in text
    d = tmp_path_factory.mktemp("releases")
    out = {}
    for tag, date in (("A", "2026-03-01"), ("B", "2026-04-01")):
        p = d / f"rdna3_5_{tag}.xml"
        p.write_text(text.replace(ORIGINAL, f"RELEASE-{tag}: {ORIGINAL}", 1)
                     .replace("<ReleaseDate>2026-02-20", f"<ReleaseDate>{date}", 1))
        out[tag] = p
    return out


def marker_of_import(home: Path) -> str | None:
    p = home / "imports" / "amd" / "rdna3.5.json"
    if not p.exists():
        return None
    doc = json.loads(p.read_text())  # (must always be whole)
    inst = next(i for i in doc["instructions"] if i["name"] == "v_msad_u8")
    return inst["description"].split(":", 1)[0]


@pytest.fixture
def lab(tmp_path, monkeypatch):
    with Lab(tmp_path, monkeypatch) as lab:
        yield lab


def _timed(lab: Lab, args: list[str], home: Path) -> float:
    t0 = time.monotonic()
    r = lab.run(args, home)
    assert r.returncode == 0, r.stderr
    return time.monotonic() - t0


def test_sigkill_at_random_points_keeps_the_last_good_import(lab, tmp_path, releases):
    """SIGKILL at KILLS random points of `import-amd` and `build`; after each, the last good import answers."""
    rng = random.Random(SEED)
    home = tmp_path / "home"
    _timed(lab, ["import-amd", str(releases["A"])], home)
    span = {"import": _timed(lab, ["import-amd", "--force", str(releases["B"])], home),
            "build": _timed(lab, ["build"], home)}
    current, log = "RELEASE-B", []
    killed = i = 0
    while killed < KILLS and i < 3 * KILLS:  # (a run that finishes first is checked too, but is no kill point)
        kind = "import" if killed % 2 == 0 else "build"
        target = "A" if current == "RELEASE-B" else "B"
        args = ["import-amd", "--force", str(releases[target])] if kind == "import" else ["build"]
        delay = rng.uniform(0.0, span[kind])
        t0 = time.monotonic()
        r = lab.wait(*lab.start(args, home), kill_after=delay)
        if not r.killed:  # (the machine was faster than measured: aim within its real run time next)
            span[kind] = time.monotonic() - t0
        assert "Traceback" not in r.stderr, (SEED, r.stderr)
        found = marker_of_import(home)
        allowed = {current} if kind == "build" else {current, f"RELEASE-{target}"}
        if not r.killed and kind == "import":  # (it finished first)
            assert r.returncode == 0, r.stderr
            allowed = {f"RELEASE-{target}"}
        assert found in allowed, (SEED, kind, delay, found, allowed)
        assert lab.show_marker(home) == found, (SEED, kind, delay)
        log.append((kind, round(delay, 3), r.killed))
        current = found
        killed += r.killed
        i += 1
    assert killed >= KILLS, (SEED, log)
    # the killed processes' temporaries go with the next build; then only the lock remains hidden
    assert lab.run(["build"], home).returncode == 0
    hidden = sorted(p.name for p in home.rglob(".*"))
    assert hidden == [".gpuisa.lock"], hidden


def test_sigkill_of_the_real_command_on_the_full_store(tmp_path, releases):
    """A few kill points through `python -m gpuisa.cli` itself, over the full store (the lab's children
    share this process's start-up; these do not)."""
    home = tmp_path / "home"
    rng = random.Random(SEED)
    t0 = time.monotonic()
    assert gpuisa(["import-amd", str(releases["A"])], home).returncode == 0
    span = time.monotonic() - t0
    current = "RELEASE-A"
    for args, target in ((["import-amd", "--force", str(releases["B"])], "RELEASE-B"), (["build"], None)):
        e = dict(os.environ, GPUISA_HOME=str(home))
        e.pop("GPUISA_DEBUG", None)
        p = subprocess.Popen([sys.executable, "-m", "gpuisa.cli", *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=e, cwd=ROOT)
        try:
            p.wait(timeout=rng.uniform(0.3, 1.3) * span)
        except subprocess.TimeoutExpired:
            p.kill()
        _, err = p.communicate()
        assert "Traceback" not in err, err
        found = marker_of_import(home)
        assert found in {current, target}, (SEED, args, found)
        assert answers(home) == found
        current = found


def answers(home: Path) -> str:
    r = gpuisa(["show", "v_msad_u8", "--arch", "rdna3.5", "--json"], home)
    assert r.returncode == 0 and "Traceback" not in r.stderr and len(r.stderr.splitlines()) <= 1, r.stderr
    return json.loads(r.stdout)["description"].split(":", 1)[0]


def test_concurrent_imports_and_builds_queue(lab, tmp_path, releases):
    home = tmp_path / "home"
    runs = [lab.start(["import-amd", "--force", str(releases[t])], home) for t in "ABABA"]
    runs += [lab.start(["build"], home) for _ in range(3)]
    runs += [lab.start(["show", "v_msad_u8", "--arch", "rdna3.5"], home) for _ in range(2)]
    for pid, base in runs:
        r = lab.wait(pid, base)
        assert r.returncode == 0 and r.stderr == "", r.stderr
    assert marker_of_import(home) in {"RELEASE-A", "RELEASE-B"}
    assert lab.show_marker(home) == marker_of_import(home)
    assert sorted(p.name for p in (home / "imports" / "amd").iterdir()) == ["rdna3.5.json"]


def test_lock_held_too_long_is_a_one_line_refusal(lab, tmp_path, releases):
    home = tmp_path / "home"
    (home / "cache").mkdir(parents=True)
    with open(home / "cache" / ".gpuisa.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        r = lab.run(["import-amd", str(releases["A"])], home, GPUISA_LOCK_TIMEOUT="0.3")
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "another gpuisa process" in r.stderr and "GPUISA_LOCK_TIMEOUT" in r.stderr
    assert not (home / "imports" / "amd" / "rdna3.5.json").exists()


STRAY = {
    "truncated": ("cdna3.json", '{"arch": "cdna3", "instructions": [{"na'),
    "list": ("rdna4.json", "[]"),
    "empty object": ("cdna2.json", "{}"),
    "wrong arch inside": ("rdna3.json", None),  # the rdna3.5 import's text under another name
    "unknown arch": ("gfx999.json", "{}"),
    "copy": ("rdna3.5 (copy).json", "{}"),
    "not json": ("notes.txt", "hello"),
    "old temporary": (".rdna3.5-abcd1234.json", '{"arch": "rdna3.5", "instr'),
    "new temporary": (".rdna3.5.json.999999-00ff00ff.gpuisa-tmp", "{"),
}


def test_stray_files_are_ignored_and_reported_once(lab, tmp_path, releases):
    home = tmp_path / "home"
    assert lab.run(["import-amd", str(releases["A"])], home).returncode == 0
    imp = home / "imports" / "amd"
    good = (imp / "rdna3.5.json").read_text()
    for name, text in STRAY.values():
        (imp / name).write_text(good if text is None else text)
    (imp / "cdna1.json").mkdir()  # a folder where a file should be
    (home / "cache" / ".gpuisa-abcd.sqlite-journal").write_text("x")  # (an old build's leftover)
    for _ in range(2):
        r = lab.run(["show", "v_msad_u8", "--arch", "rdna3.5", "--json"], home)
        assert r.returncode == 0 and json.loads(r.stdout)["description"].startswith("RELEASE-A"), r.stderr
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("gpuisa: note: ignoring 8 unusable file(s)"), r.stderr
        for shown in ("'cdna3.json'", "'rdna4.json'", "'gfx999.json'", "'rdna3.5 (copy).json'", "'notes.txt'",
                      "'cdna1.json'", "'rdna3.json'", "'cdna2.json'"):
            assert shown in lines[0]
    for args in (["archs"], ["build"], ["search", "msad"], ["list", "--arch", "rdna3.5"]):
        r = lab.run(args, home)
        assert r.returncode == 0 and "Traceback" not in r.stderr and len(r.stderr.splitlines()) <= 1, r.stderr
    r = lab.run(["import-amd", "--force", str(releases["B"])], home)  # re-importing works alongside them
    assert r.returncode == 0, r.stderr
    assert lab.show_marker(home) == "RELEASE-B"


def test_read_only_mount_with_an_outdated_store(tmp_path, releases):
    """A truly read-only data folder (a read-only bind mount in a user namespace, where available)."""
    import shlex
    import shutil

    if not shutil.which("unshare") or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("no unprivileged user namespaces here (unshare -rm)")
    home = tmp_path / "home"
    assert gpuisa(["import-amd", str(releases["A"])], home).returncode == 0
    (home / "imports" / "amd" / "rdna3.5.json").touch()  # the store is now outdated
    (home / "imports" / "amd" / "cdna3.json").write_text("[]")
    out = tmp_path / "out"
    out.mkdir()
    commands = [["archs"], ["show", "v_msad_u8", "--arch", "rdna3.5", "--json"], ["search", "msad"],
                ["decode", "--arch", "rdna3", "0xbf800000"], ["encode", "--arch", "rdna3", "s_nop", "0"]]
    h = shlex.quote(str(home))
    script = [f"mount --bind {h} {h} && mount -o remount,ro,bind {h} {h} || exit 99", f"touch {h}/x 2>/dev/null && exit 98"]
    for i, args in enumerate(commands):
        cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "gpuisa.cli", *args])
        script.append(f"{cmd} >{out}/{i}.out 2>{out}/{i}.err; echo $? >{out}/{i}.rc")
    e = dict(os.environ, GPUISA_HOME=str(home))
    e.pop("GPUISA_DEBUG", None)
    r = subprocess.run(["unshare", "-rm", "sh", "-c", "\n".join(script)], env=e, cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    if r.returncode in (98, 99):
        pytest.skip(f"cannot make a read-only bind mount here ({r.returncode})")
    for i, args in enumerate(commands):
        rc, err = (out / f"{i}.rc").read_text().strip(), (out / f"{i}.err").read_text()
        assert rc == "0" and "Traceback" not in err and len(err.splitlines()) <= 1, (args, rc, err)
    shown = json.loads((out / "1.out").read_text())
    assert shown["description"].startswith("RELEASE-A")


def test_nothing_writable_at_all_builds_the_store_in_memory(lab, tmp_path):
    lab.patch("tempfile", "tempdir", "/dev/null/tmp")  # (no temporary folder either)
    for args in (["show", "v_msad_u8", "--arch", "rdna3.5"], ["search", "msad"], ["archs"]):
        r = lab.run(args, Path("/dev/null"))
        assert r.returncode == 0 and r.stderr == "" and r.stdout, (args, r.stderr)


def test_damaged_store_is_rebuilt(lab, tmp_path):
    home = tmp_path / "home"
    assert lab.run(["search", "msad"], home).returncode == 0
    db = home / "cache" / "default.sqlite"
    rng = random.Random(SEED)
    with open(db, "r+b") as f:  # whole pages of random bytes (what a bad disk or a stray writer leaves)
        pages = db.stat().st_size // 4096
        for _ in range(40):
            f.seek(rng.randrange(1, pages) * 4096)
            f.write(rng.randbytes(4096))
    r = lab.run(["search", "msad"], home)
    assert r.returncode == 0 and "Traceback" not in r.stderr and len(r.stderr.splitlines()) <= 1, r.stderr
    r = lab.run(["search", "msad"], home)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    db.write_bytes(b"not a database at all" * 100)
    r = lab.run(["show", "v_msad_u8"], home)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_read_only_or_odd_data_folders_still_answer(tmp_path):
    homes = {"dev-null": Path("/dev/null"), "cache is a file": tmp_path / "h1", "store is a folder": tmp_path / "h2"}
    (tmp_path / "h1").mkdir()
    (tmp_path / "h1" / "cache").write_text("")
    (tmp_path / "h2" / "cache" / "default.sqlite").mkdir(parents=True)
    if os.geteuid() != 0:  # (root writes anywhere: chmod cannot make a folder read-only for it)
        ro = tmp_path / "h3"
        assert gpuisa(["archs"], ro).returncode == 0
        (ro / "imports" / "amd").mkdir(parents=True)
        (ro / "imports" / "amd" / "cdna3.json").write_text("[]")  # the store is now outdated
        for p in (ro / "imports" / "amd", ro / "imports", ro / "cache", ro):
            p.chmod(0o555)
        homes["read-only, outdated store"] = ro
    every = (["archs"], ["show", "v_msad_u8"], ["search", "msad"], ["decode", "--arch", "rdna3", "0xbf800000"],
             ["encode", "--arch", "rdna3", "s_nop", "0"])
    for what, home in homes.items():
        for args in every if what == "dev-null" else every[1:3]:
            r = gpuisa(args, home)
            assert r.returncode == 0, (what, args, r.stderr)
            assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) <= 1, (what, args, r.stderr)
