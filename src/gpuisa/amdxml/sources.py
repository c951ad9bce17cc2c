"""Where AMD XML comes from: a published zip, a folder, single files, or a download.

Zip members are streamed, never extracted to disk; a member whose name is
absolute or climbs out of the archive (``..``) is refused, and so is a zip whose
declared sizes (checked before anything is read) are too large or too highly
compressed (a zip bomb).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.request
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator

from .parse import MAX_XML_BYTES, XmlImportError, XmlIsa, parse_stream

# The release gpuisa is pinned to (AMD GPUOpen "Machine-Readable ISA" bundle).
PINNED_URL = "https://gpuopen.com/download/AMD_GPU_MR_ISA_XML_2026_08_06.zip"
# Not recorded yet: no machine of this project could reach GPUOpen to hash the file.
# Until it is, `gpuisa fetch amd` asks for --sha256 (AMD's published hash) instead of guessing.
PINNED_SHA256: str | None = None
MAX_ZIP_BYTES = 512 * 1024 * 1024
MAX_MEMBERS = 256
MAX_RATIO = 200  # uncompressed : compressed; AMD's XML deflates about 20:1
MAX_ZIP_XML_BYTES = 1024 * 1024 * 1024


def _safe_member(name: str) -> bool:
    p = PurePosixPath(name.replace("\\", "/"))
    return not (p.is_absolute() or ".." in p.parts or (p.parts and ":" in p.parts[0]))


def iter_inputs(paths: list[str]) -> Iterator[tuple[str, Callable, int | None]]:
    """(label, opener, size) for every XML file named by the paths (zip, folder or file)."""
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise XmlImportError(f"{raw}: no such file or folder")
        if path.is_dir():
            files = sorted(p for p in path.rglob("*.xml") if p.is_file())
            if not files:
                raise XmlImportError(f"{raw}: the folder holds no .xml files")
            for p in files:
                yield str(p), (lambda p=p: open(p, "rb")), p.stat().st_size
        elif zipfile.is_zipfile(path):
            yield from _zip_members(path)
        else:
            yield str(path), (lambda p=path: open(p, "rb")), path.stat().st_size


def _zip_members(path: Path) -> Iterator[tuple[str, Callable, int | None]]:
    try:
        zf = zipfile.ZipFile(path)
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError) as exc:
        raise XmlImportError(f"{path}: not a readable zip ({exc})") from None
    bad = [i.filename for i in infos if not _safe_member(i.filename)]
    if bad:
        raise XmlImportError(f"{path}: refused: member name {bad[0]!r} points outside the archive")
    members = [i for i in infos if i.filename.lower().endswith(".xml") and not i.is_dir()]
    if not members:
        raise XmlImportError(f"{path}: the zip holds no .xml files")
    _check_members(path, infos, members)
    for info in members:
        yield f"{path}!{info.filename}", (lambda info=info: zf.open(info)), info.file_size


def _check_members(path: Path, infos: list, members: list) -> None:
    """Every member's declared sizes, before anything is read: too many, too large, or compressed more
    than XML ever is (a zip bomb) is refused.  (Reading is bounded again while streaming.)"""
    if len(infos) > MAX_MEMBERS:
        raise XmlImportError(f"{path}: {len(infos)} members; at most {MAX_MEMBERS} (refused)")
    for info in members:
        where = f"{path}!{info.filename}"
        if info.file_size > MAX_XML_BYTES:
            raise XmlImportError(f"{where}: {info.file_size} bytes is larger than the "
                                 f"{MAX_XML_BYTES // 2**20} MiB limit for one ISA file")
        if info.file_size > MAX_RATIO * max(info.compress_size, 1) and info.file_size > 1 << 20:
            raise XmlImportError(f"{where}: compressed {info.file_size // max(info.compress_size, 1)}:1, more than "
                                 f"{MAX_RATIO}:1 (XML compresses about 20:1); refused as a zip bomb")
    total = sum(i.file_size for i in members)
    if total > MAX_ZIP_XML_BYTES:
        raise XmlImportError(f"{path}: its XML files hold {total} bytes; at most {MAX_ZIP_XML_BYTES // 2**20} MiB (refused)")


def parse_input(label: str, opener: Callable, size: int | None, progress=None) -> XmlIsa:
    try:
        with opener() as stream:
            return parse_stream(stream, label, size, progress)
    except (OSError, zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError) as exc:
        raise XmlImportError(f"{label}: cannot read ({type(exc).__name__}: {exc})") from None


def download(url: str, sha256: str, progress: Callable[[int, int | None], None] | None = None) -> Path:
    """Download to a temporary file, verify its SHA-256; the caller removes the file."""
    fd, tmp = tempfile.mkstemp(prefix="gpuisa-amd-", suffix=".zip")
    h = hashlib.sha256()
    total = 0
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=60) as resp:  # noqa: S310 (URL is the user's)
            length = resp.headers.get("Content-Length")
            while True:
                chunk = resp.read(1 << 16)
                if not chunk:
                    break
                total += len(chunk)
                if total > MAX_ZIP_BYTES:
                    raise XmlImportError(f"{url}: larger than {MAX_ZIP_BYTES // 2**20} MiB; refused")
                h.update(chunk)
                out.write(chunk)
                if progress:
                    progress(total, int(length) if length else None)
    except XmlImportError:
        os.unlink(tmp)
        raise
    except (OSError, ValueError) as exc:
        os.unlink(tmp)
        raise XmlImportError(f"{url}: download failed ({exc})") from None
    if h.hexdigest() != sha256.lower():
        os.unlink(tmp)
        raise XmlImportError(f"{url}: SHA-256 {h.hexdigest()} does not match the expected {sha256.lower()}; nothing imported")
    return Path(tmp)
