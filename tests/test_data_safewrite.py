"""The one safe writer (gpuisa.cachefile): temporaries, stale clean-up, the folder lock; one-line errors."""

from __future__ import annotations

import fcntl
import os
import time

import pytest

from gpuisa.cachefile import (
    LOCK_NAME,
    LockTimeout,
    atomic_path,
    atomic_write,
    clean_legacy,
    clean_stale,
    is_temp_name,
    locked,
    temp_name,
)
from gpuisa.errors import UserError, echo, one_line


def test_temporaries_are_dot_files_no_loader_reads(tmp_path):
    name = os.path.basename(temp_name(tmp_path / "rdna3.5.json"))
    assert name.startswith(".rdna3.5.json.") and is_temp_name(name) and not name.endswith(".json")


def test_atomic_write_and_path_leave_nothing_behind(tmp_path):
    atomic_write(tmp_path / "a" / "f.json", b"{}", durable=True)
    assert (tmp_path / "a" / "f.json").read_bytes() == b"{}"
    with pytest.raises(ValueError):
        with atomic_path(tmp_path / "s.sqlite") as tmp:
            open(tmp, "w").write("half")
            open(tmp + "-journal", "w").write("j")
            raise ValueError
    (tmp_path / "dir.sqlite").mkdir()
    with pytest.raises(IsADirectoryError):
        with atomic_path(tmp_path / "dir.sqlite") as tmp:
            open(tmp, "w").write("whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "dir.sqlite"]
    with pytest.raises(OSError):  # (a file where its folder should be)
        atomic_write(tmp_path / "a" / "f.json" / "x", b"")


def test_clean_stale_keeps_live_writers(tmp_path):
    dead = tmp_path / f".x.json.{2**22 + 12345}-00000000.gpuisa-tmp"  # (above the default pid_max)
    live = tmp_path / f".x.json.{os.getpid()}-00000000.gpuisa-tmp"
    for p in (dead, live, tmp_path / (dead.name + "-journal"), tmp_path / "keep.json"):
        p.write_text("x")
    assert sorted(clean_stale(tmp_path)) == sorted([dead.name, dead.name + "-journal"])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, "keep.json"])
    old = tmp_path / ".gpuisa-abc.sqlite"
    old.write_text("x")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    clean_legacy(tmp_path, lambda n: n.startswith(".gpuisa-"))
    assert not old.exists()


def test_lock_queues_then_refuses_in_one_line(tmp_path, monkeypatch):
    with locked(tmp_path), locked(tmp_path):  # (re-entrant in one process)
        pass
    with open(tmp_path / LOCK_NAME, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        monkeypatch.setenv("GPUISA_LOCK_TIMEOUT", "0.2")
        t0 = time.monotonic()
        with pytest.raises(LockTimeout) as e:
            with locked(tmp_path, "import"):
                pass
        assert time.monotonic() - t0 >= 0.2
    assert isinstance(e.value, UserError) and "\n" not in str(e.value) and "to import" in str(e.value)
    (tmp_path / "file-in-the-way").write_text("")
    with locked(tmp_path / "file-in-the-way" / "x"):
        pass  # (a folder that cannot be made: nothing to lock, nothing can be written there either)


def test_one_line_and_echo():
    assert one_line("a\nb\x85c\u2028d\x00\udcff") == "a\\nb\\x85c\\u2028d\\x00\\udcff"
    assert len(one_line("x" * 10_000)) == 500
    assert echo("y" * 100, 20) == "'yyyyyyyyyyyyyyy...'" and len(echo("y" * 100, 20)) == 20
    assert echo("a\nb") == "'a\\nb'"
