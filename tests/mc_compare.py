"""Our encoder against ``llvm-mc-22`` on lines of our own writing: the lines where the bytes differ (shared by the
codec class tests)."""

from __future__ import annotations

from gpuisa import archs
from gpuisa.codec import oracle
from gpuisa.codec.encoded import EncodeError
from gpuisa.codec.encoder import get_encoder


def encode_disagreements(arch: str, lines: list[str], wave64: bool = False) -> list[str]:
    """``arch: line: llvm <hex or its message>, ours <hex or None>`` for each line whose bytes differ."""
    return lines_disagreeing(archs.by_name(arch).llvm_target, get_encoder(arch, wave64), lines, wave64, arch)


def lines_disagreeing(target: str, enc, lines: list[str], wave64: bool = False, label: str | None = None) -> list[str]:
    """The lines ``enc`` (an encoder: a generation's, a processor's, a 16-bit syntax mode's) assembles to other
    bytes than llvm-mc-22 for ``target`` (an LLVM processor) under the oracle's current features."""
    ref = oracle.assemble(target, lines, wave64)
    bad = []
    for line, (want, msg) in zip(lines, ref):
        try:
            got: bytes | None = enc.encode_line(line).data
        except EncodeError:
            got = None
        if got != want:
            bad.append(f"{label or target}: {line!r}: llvm {want.hex() if want else msg!r}, "
                       f"ours {got.hex() if got else None}")
    return bad
