"""Our encoder against ``llvm-mc-22`` on lines of our own writing: the lines where the bytes differ (shared by the
codec class tests)."""

from __future__ import annotations

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.encoder import get_encoder


def encode_disagreements(arch: str, lines: list[str]) -> list[str]:
    """``arch: line: llvm <hex or its message>, ours <hex or None>`` for each line whose bytes differ."""
    ref = oracle.assemble(archs.by_name(arch).llvm_target, lines)
    enc = get_encoder(arch)
    bad = []
    for line, (want, msg) in zip(lines, ref):
        try:
            got: bytes | None = enc.encode_line(line).data
        except EncodeError:
            got = None
        if got != want:
            bad.append(f"{arch}: {line!r}: llvm {want.hex() if want else msg!r}, ours {got.hex() if got else None}")
    return bad
