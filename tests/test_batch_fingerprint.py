"""The batch tables' fingerprint follows what the code does, not its bytes (issue 14 item 5: editing a
comment does not rewrite megabytes of committed JSON): ``batch_data.code_digest`` on a copy of the codec."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuisa.codec import batch_data

PKG = Path(batch_data.__file__).resolve().parents[1]  # src/gpuisa


@pytest.fixture()
def codec(tmp_path) -> Path:
    """A copy of the codec's modules and of the shared modules it reads (archs.py, model.py)."""
    dst = tmp_path / "gpuisa" / "codec"
    dst.mkdir(parents=True)
    for p in (PKG / "codec").glob("*.py"):
        shutil.copy(p, dst / p.name)
    for name in ("archs.py", "model.py"):
        shutil.copy(PKG / name, dst.parent / name)
    return dst


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1))


def test_copy_digests_like_the_package(codec):
    assert batch_data.code_digest(codec) == batch_data.code_digest()


def test_comments_docstrings_and_layout_do_not_count(codec):
    before = batch_data.code_digest(codec)
    _edit(codec / "decoder.py", '"""Table-driven AMD GPU disassembler', '"""An edited docstring.\n\nTable-driven AMD GPU disassembler')
    _edit(codec / "decoder.py", "class Decoder:\n", "# a new comment\nclass Decoder:\n    \"\"\"A new class docstring.\"\"\"\n\n")
    _edit(codec / "decode_render.py", "def render(", "# another comment\n\n\ndef render(")
    _edit(codec / "decoded.py", "def fmt_imm(v: int, width: int, hexa: bool | int, signed: bool) -> str:",
          "def fmt_imm(v: int,\n             width: int, hexa: bool | int,\n             signed: bool) -> str:  # wrapped")
    _edit(codec.parent / "model.py", '"""', '"""Model docstring edited. ', )
    assert batch_data.code_digest(codec) == before


def test_code_changes_count(codec):
    before = batch_data.code_digest(codec)
    _edit(codec / "decode_render.py", '_VOP_32 = ("VOP1", "VOP2", "VOPC")', '_VOP_32 = ("VOP1", "VOP2")')
    changed = batch_data.code_digest(codec)
    assert changed != before
    _edit(codec.parent / "archs.py", "from __future__ import annotations", "from __future__ import annotations\nX_NEW = 1")
    assert batch_data.code_digest(codec) not in (before, changed)


def test_modules_the_decoder_does_not_import_do_not_count(codec):
    """The command line, listings and the bulk loop use the decoder; their code does not shape the tables."""
    before = batch_data.code_digest(codec)
    for name in ("cli.py", "listing.py", "batch_text.py"):
        (codec / name).write_text((codec / name).read_text() + "\nNEW_CONSTANT = 1\n")
    assert batch_data.code_digest(codec) == before
    names = {p.name for p in batch_data._source_files("rdna3")}
    assert {"decoder.py", "decode_render.py", "batch_arch.py", "archs.py", "model.py", "plans_rdna3.json"} <= names
    assert not names & {"cli.py", "listing.py", "batch_text.py", "oracle.py", "pages.py"}
