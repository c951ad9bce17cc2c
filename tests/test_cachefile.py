"""Cache files are written whole or not at all, and an unwritable cache folder is no error."""

from __future__ import annotations

import os

from gpuisa.cachefile import write_cache_file


def test_cache_file_is_written_whole_with_its_folder(tmp_path):
    path = tmp_path / "new" / "folder" / "c.bin"
    assert write_cache_file(path, b"first")
    assert path.read_bytes() == b"first"
    assert write_cache_file(str(path), b"second, longer")  # (replaced, not appended)
    assert path.read_bytes() == b"second, longer"
    assert sorted(os.listdir(path.parent)) == ["c.bin"]  # (no temporary file left)


def test_cache_path_under_a_file_is_no_error(tmp_path):
    """A cache folder that cannot be made (a file is in the way) is reported as False, not raised."""
    (tmp_path / "blocker").write_text("a file")
    assert write_cache_file(tmp_path / "blocker" / "c.bin", b"x") is False
