"""``gpuisa -v`` / ``-vv``: the package's diagnostics (``logging``) on stderr; silent without it."""

from __future__ import annotations

from conftest import run_cli


def test_verbose_shows_store_build_and_reuse(tmp_path):
    import os

    env = dict(os.environ, GPUISA_HOME=str(tmp_path / "home"))
    quiet = run_cli(["archs"], env)
    assert quiet.returncode == 0 and quiet.stderr == ""
    env["GPUISA_HOME"] = str(tmp_path / "fresh")
    first = run_cli(["-v", "archs"], env)
    assert first.returncode == 0
    assert "gpuisa: INFO gpuisa.store: building the store" in first.stderr
    assert "DEBUG" not in first.stderr
    again = run_cli(["-vv", "archs"], env)
    assert again.returncode == 0
    assert "gpuisa: DEBUG gpuisa.store: store " in again.stderr and "is current" in again.stderr
    assert "building the store" not in again.stderr


def test_damaged_cache_file_is_logged(tmp_path, monkeypatch):
    from gpuisa import cachefile, logs

    bad = tmp_path / "x.cache"
    bad.write_bytes(b"not a sealed file")
    seen = []
    monkeypatch.setattr(logs, "_log", lambda level, name, msg, args: seen.append((level, name, msg % args)))
    assert cachefile.read_sealed(bad) is None
    assert seen and seen[0][0] == 10 and seen[0][1] == "gpuisa.cachefile" and str(bad) in seen[0][2]
