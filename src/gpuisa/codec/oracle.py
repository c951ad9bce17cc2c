"""llvm-mc-22 as the reference assembler/disassembler, driven in batches.

Used at generation time (operand maps, page examples) and by the
differential tests; never by ``gpuisa decode``/``encode`` themselves.

Batch disassembly: llvm-mc reads all input lines as one byte stream, prints
valid instructions on stdout (without offsets) and invalid positions on
stderr (``<stdin>:LINE:COL``).  Each probe is therefore written on its own line
followed by a separator line of six ``s_nop`` dwords: a literal, NSA words or a
64-bit half that runs past the probe's bytes eats at most four of them, so the
stdout lines before a run of the separator's ``s_nop`` lines belong to one probe
(separators alternate between ``s_nop 7`` and ``s_nop 6`` so empty probes stay visible).
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

from ..sources.llvm import find_llvm_mc

SEPARATOR = 0xBF800007  # s_nop 7 on GFX9..GFX12 (s_nop 6 for odd probes)


def separator(i: int) -> bytes:
    """Six s_nop dwords (room for NSA image forms) after probe ``i``: s_nop 7 after even probes, s_nop 6 after odd ones."""
    return (SEPARATOR - (i & 1)).to_bytes(4, "little") * 6


def sep_text(i: int) -> str:
    return f"s_nop {7 - (i & 1)}"
_OUT = re.compile(r"^\s*(.*?)\s*;\s*encoding:\s*\[([^\]]*)\]\s*$")
_ERR = re.compile(r"^<stdin>:(\d+):(\d+):\s*(warning|error):\s*(.*)$")


@dataclass
class OracleItem:
    """One instruction (or invalid position) llvm-mc reported inside a probe's bytes."""

    offset: int  # byte offset inside the probe
    text: str | None  # None: invalid instruction encoding
    size: int  # bytes of the (re-)encoding; 4 for invalid


# Features every run of this process adds (``features``: the 16-bit syntax mode a regen step probes).
_FEATURES: list[str] = []


@contextlib.contextmanager
def features(*attrs: str) -> Iterator[None]:
    """llvm-mc runs inside the block take these -mattr features too (``+real-true16``)."""
    was = list(_FEATURES)
    _FEATURES[:] = was + list(attrs)
    try:
        yield
    finally:
        _FEATURES[:] = was


def _mc(target: str, wave64: bool, extra: list[str]) -> list[str]:
    mc = find_llvm_mc()
    if mc is None:
        raise RuntimeError("llvm-mc-22 not found (apt-get install -y llvm-22)")
    cmd = [mc, "-arch=amdgcn", f"-mcpu={target}", *extra]
    attrs = (["+wavefrontsize64"] if wave64 else []) + _FEATURES
    if attrs:
        cmd.append("-mattr=" + ",".join(attrs))
    return cmd


def _hex_line(data: bytes) -> str:
    return " ".join(f"0x{b:02x}" for b in data)


CRASHED = "<llvm-mc crashed>"


def disassemble(target: str, probes: list[bytes], wave64: bool = False) -> list[list[OracleItem]]:
    """What llvm-mc decodes inside each probe's bytes (instructions starting in them).

    llvm-mc-22 itself crashes on some words.  Every run follows each probe's separator with a marker line
    (an invalid word): its warning goes to stderr at once, while the listing on stdout is lost with the
    crash, so the warnings say which probe it crashed on.  That probe is reported as one item with text
    ``CRASHED``, the probes before it are run again, and the scan goes on after it: two runs per crash.
    """
    out: list[list[OracleItem]] = []
    for start in range(0, len(probes), BLOCK):
        out += _scan(target, probes[start:start + BLOCK], wave64, start)
    return out


BLOCK = 4096  # probes per llvm-mc run
MARKER = b"\xff\xff\xff\xff"  # an invalid word on every target


def _scan(target: str, probes: list[bytes], wave64: bool, base: int) -> list[list[OracleItem]]:
    # ``base``: the index of probes[0] in the caller's list, so that each probe keeps its own separator
    # (the one ``separator(index)`` gives our decoder)
    out: list[list[OracleItem]] = []
    i = 0
    while i < len(probes):
        got, crash = _disassemble_batch(target, probes[i:], wave64, base + i)
        if got is not None:
            return out + got
        if crash:
            before, again = _disassemble_batch(target, probes[i:i + crash], wave64, base + i)
            if before is None:  # not the crash the markers said: one probe at a time from here
                crash = 0
            else:
                out += before
        out.append([OracleItem(0, CRASHED, len(probes[i + crash]))])
        i += crash + 1
    return out


def _disassemble_batch(target: str, probes: list[bytes], wave64: bool,
                       base: int = 0) -> tuple[list[list[OracleItem]] | None, int]:
    """(each probe's items, 0) or, where llvm-mc crashed, (None, the index of the probe it crashed on)."""
    lines = []
    for i, p in enumerate(probes):
        lines += [_hex_line(p), _hex_line(separator(base + i)), _hex_line(MARKER)]
    proc = subprocess.run(_mc(target, wave64, ["-disassemble", "-show-encoding"]), input="\n".join(lines) + "\n",
                          capture_output=True, text=True)
    if proc.returncode != 0 and "Stack dump" in proc.stderr:
        reached = -1
        for line in proc.stderr.splitlines():
            m = _ERR.match(line)
            if m and (int(m.group(1)) - 1) % 3 == 2:
                reached = max(reached, (int(m.group(1)) - 1) // 3)
        return None, min(reached + 1, len(probes) - 1)
    # invalid positions per probe
    invalid: dict[int, list[int]] = {}
    for line in proc.stderr.splitlines():
        m = _ERR.match(line)
        if m and "invalid instruction encoding" in m.group(4):
            ln, col = int(m.group(1)) - 1, int(m.group(2)) - 1
            if ln % 3 == 0:
                invalid.setdefault(ln // 3, []).append(col // 5)
    # stdout chunks: probe i ends at a run of >= 2 lines of its separator (s_nop 7 / s_nop 6 alternating);
    # a lone s_nop inside a probe's own bytes is not taken for a separator.
    parsed = []
    for line in proc.stdout.splitlines():
        m = _OUT.match(line)
        if m:
            parsed.append((" ".join(m.group(1).split()), len([x for x in m.group(2).split(",") if x.strip()])))
    chunks: list[list[tuple[str, int]]] = []
    cur: list[tuple[str, int]] = []
    j = 0
    while j < len(parsed):
        text, size = parsed[j]
        sep = sep_text(base + len(chunks))
        if text == sep and j + 1 < len(parsed) and parsed[j + 1][0] == sep:
            while j < len(parsed) and parsed[j][0] == sep:
                j += 1
            chunks.append(cur)
            cur = []
            continue
        cur.append((text, size))
        j += 1
    out: list[list[OracleItem]] = []
    for i, p in enumerate(probes):
        items = chunks[i] if i < len(chunks) else []
        out.append(_place(len(p), items, set(invalid.get(i, []))))
    return out, 0


def _place(length: int, items: list[tuple[str, int]], bad: set[int]) -> list[OracleItem]:
    """Offsets of a probe's valid items and invalid positions.

    An item's size comes from llvm-mc re-encoding the printed text, which can differ from the bytes it
    decoded (a 16-bit operand's inline constant printed as a literal re-encodes 4 bytes longer).  The
    stream itself settles it: no invalid position lies inside an instruction, and every item printed
    before the separator starts inside the probe.  The re-encoded size is kept where that fits.
    """

    def fit(off: int, k: int) -> list[OracleItem] | None:
        if off >= length:
            return [] if k == len(items) else None
        if off in bad:
            rest = fit(off + 4, k)
            return None if rest is None else [OracleItem(off, None, 4)] + rest
        if k == len(items):
            return None
        text, size = items[k]
        for s in [size] + [x for x in range(4, 20, 4) if x != size]:
            if any(off < b < off + s for b in bad):
                continue
            rest = fit(off + s, k + 1)
            if rest is not None:
                return [OracleItem(off, " ".join(text.split()), s)] + rest
        return None

    got = fit(0, 0)
    if got is not None:
        return got
    res: list[OracleItem] = []  # no consistent placement: the re-encoded sizes as they are
    off, k = 0, 0
    while off < length:
        if off in bad:
            res.append(OracleItem(off, None, 4))
            off += 4
            continue
        if k >= len(items):
            break
        text, size = items[k]
        k += 1
        res.append(OracleItem(off, " ".join(text.split()), size))
        off += size
    return res


ASM_MARKER = "s_nop 0"  # assembled after every line: the listing between two markers is that line's


def assemble(target: str, lines: list[str], wave64: bool = False) -> list[tuple[bytes | None, str]]:
    """Each line through llvm-mc's assembler: (bytes, canonical text) or (None, error message).

    llvm-mc can report an error on a line and still list an encoding for it (``nv`` on GFX12), so outputs
    are not matched to lines by counting: a marker instruction follows every line, and a line with an
    error is rejected whatever it listed."""
    src = []
    for line in lines:
        src += [line, ASM_MARKER]
    proc = subprocess.run(_mc(target, wave64, ["-show-encoding"]), input="\n".join(src) + "\n",
                          capture_output=True, text=True)
    errors: dict[int, str] = {}
    for line in proc.stderr.splitlines():
        m = _ERR.match(line)
        if m and m.group(3) == "error":
            errors.setdefault((int(m.group(1)) - 1) // 2, m.group(4))
    outs = []
    for line in proc.stdout.splitlines():
        m = _OUT.match(line)
        if m:
            outs.append((" ".join(m.group(1).split()), bytes(int(x, 16) for x in m.group(2).split(",") if x.strip())))
    res: list[tuple[bytes | None, str]] = []
    k = 0
    for i, line in enumerate(lines):
        mine: list[tuple[str, bytes]] = []
        while k < len(outs) and not (outs[k][0] == ASM_MARKER and not (line.strip().startswith("s_nop") and not mine)):
            mine.append(outs[k])
            k += 1
        k += 1  # the marker
        if i in errors:
            res.append((None, errors[i]))
        elif len(mine) == 1:
            res.append((mine[0][1], mine[0][0]))
        else:
            res.append((None, "no output" if not mine else "more than one instruction"))
    return res
