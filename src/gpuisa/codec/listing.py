"""``gpuisa decode``'s listings from the batch decoder: plain (``llvm-objdump -d``'s layout) and JSON Lines.

Plain, one line per instruction, as llvm-objdump prints an AMDGPU code object::

    <TAB>text padded to 59 columns// 00000000001C: BFA10002 <kern+0x2c>

(the offset, the instruction's dwords as hex numbers, and for a SOPP branch its target as symbol+offset);
an ELF file gets llvm-objdump's headers (file format, ``Disassembly of section``, ``<symbol>:`` where a
symbol starts, ``<.text>`` for code before the first one).  Each symbol's range is decoded on its own, as
llvm-objdump does.  Raw bytes (hex on the command line or a file that is not ELF) get the lines alone.
JSON Lines: one object per instruction (offset, bytes, text, size, valid; section, label and target where
they apply).

The texts come from the batch decoder's stream walk (``batch._steps``, as ``Decoder.decode_text``): each
step of the stream is written as soon as it is decoded, its offset and byte columns made with numpy, its
lines with one ``%``.  Bytes that are no instruction print as the ``.long``/``.byte`` directive that makes
them (as llvm-objdump prints ``.long``).
"""

from __future__ import annotations

import bisect
import json

import numpy as np

from .batch import _steps
from .batch_render import invalid_line

_HEX = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)
_SHIFT8 = np.arange(28, -1, -4, dtype=np.uint32)  # a dword's 8 hex digits, most significant first
_SHIFT12 = np.arange(44, -1, -4, dtype=np.uint64)  # an offset's 12
_BRANCH = ("s_branch ", "s_cbranch_", "s_subvector_loop_")


class Symbols:
    """The labels of one section (section offset -> name, sorted) for branch targets' ``<sym+0x..>``."""

    def __init__(self, labels: dict[int, str], address: int):
        self.at = sorted(labels)
        self.names = [labels[o] for o in self.at]
        self.address = address

    def describe(self, target: int) -> str:
        """`` <sym+0x..>`` for an address (64-bit wrap-around, as llvm-objdump); empty before every symbol."""
        target &= (1 << 64) - 1
        i = bisect.bisect_right(self.at, target - self.address) - 1
        if i < 0 or target < self.address:
            i = len(self.at) - 1 if self.at and target >= self.address else -1
        if i < 0:
            return ""
        delta = (target - self.address - self.at[i]) & ((1 << 64) - 1)
        return f" <{self.names[i]}+0x{delta:x}>" if delta else f" <{self.names[i]}>"


class Step:
    """One decoded step of a stream: offsets (addresses), sizes in bytes, texts, dwords of the instructions."""

    def __init__(self, addr, sizes, texts: list, first, dws, blob: bytes, start: int):
        self.addr, self.sizes, self.texts, self.first, self.dws = addr, sizes, texts, first, dws
        self.blob, self.start = blob, start  # the bytes and the byte offset in them of the first dword

    def __len__(self) -> int:
        return len(self.texts)


def steps(dec, data: bytes, address: int, sink) -> None:
    """Calls ``sink(step)`` for each ``Step`` of ``data`` (placed at ``address``) as the batch decoder makes it."""

    def emit(pos, view, starts, tix, sizes, eids, scalar, seen):
        texts = seen.texts.take(tix).tolist()
        for j in np.flatnonzero(eids == 0).tolist():  # (the scalar path's: bytes that are no instruction)
            if texts[j] is None:
                texts[j] = invalid_line(scalar[int(starts[j])][3].data)
        dws = np.frombuffer(view, dtype="<u4", count=len(view) // 4)
        addr = (starts.astype(np.uint64) + np.uint64(pos)) * np.uint64(4) + np.uint64(address)
        sink(Step(addr, sizes.astype(np.int64), texts, starts, dws, view, 4 * pos))

    off = _steps(dec, data, emit)
    tail = []
    while off < len(data):
        d = dec.decode_at(data, off)
        size = len(d.data) if d.valid else min(4, len(data) - off)
        tail.append((off, size, d.text if d.valid else invalid_line(data[off:off + size])))
        off += size
    if tail:
        sink(_tail_step(tail, data, address))


def _tail_step(tail: list, data: bytes, address: int) -> Step:
    """The scalar tail loop's instructions (the last bytes: sizes need not be whole dwords)."""
    start = tail[0][0] & ~3
    chunk = data[start:]
    padded = chunk + b"\0" * (-len(chunk) % 4)
    dws = np.frombuffer(padded, dtype="<u4")
    first = np.array([(o - start) // 4 for o, _, _ in tail], dtype=np.int64)
    addr = np.array([o + address for o, _, _ in tail], dtype=np.uint64)
    sizes = np.array([s for _, s, _ in tail], dtype=np.int64)
    return Step(addr, sizes, [t for _, _, t in tail], first, dws, padded, start)


def _hex_columns(st: Step) -> list[bytes]:
    """Per instruction ``// OFFSET: DWORD DWORD..`` (llvm-objdump's comment column), as bytes."""
    n = len(st)
    ndw = (st.sizes + 3) >> 2
    k = int(ndw.max()) if n else 1
    width = 17 + 9 * k - 1
    rows = np.zeros((n, width), dtype=np.uint8)
    rows[:, 0:3] = np.frombuffer(b"// ", dtype=np.uint8)
    rows[:, 3:15] = _HEX.take((st.addr[:, None] >> _SHIFT12) & np.uint64(15))
    rows[:, 15:17] = np.frombuffer(b": ", dtype=np.uint8)
    last = len(st.dws) - 1
    for j in range(k):
        m = np.flatnonzero(ndw > j)
        if not len(m):
            break
        w = st.dws.take(np.minimum(st.first.take(m) + j, last))
        rows[m, 17 + 9 * j:25 + 9 * j] = _HEX.take((w[:, None] >> _SHIFT8) & np.uint32(15))
        if j:
            rows[m, 16 + 9 * j] = 32
    return rows.view(f"S{width}").ravel().tolist()  # (numpy drops the zero padding of short rows)


def _branch_rows(st: Step) -> list[int]:
    """Indices of the step's PC-relative branches, whose target llvm-objdump prints: SOPP branches (the first
    dword's top 9 bits 0x17f) and SOPK subvector loops (top 4 bits 0xb), told by their mnemonics."""
    w = st.dws.take(st.first)
    cand = np.flatnonzero(((w >> np.uint32(23)) == np.uint32(0x17F)) | ((w >> np.uint32(28)) == np.uint32(0xB)))
    return [i for i in cand.tolist() if st.texts[i].startswith(_BRANCH)]


def _target(st: Step, i: int) -> int:
    simm = int(st.dws[st.first[i]]) & 0xFFFF
    return int(st.addr[i]) + 4 + 4 * (simm - 0x10000 if simm & 0x8000 else simm)


def plain_lines(st: Step, symbols: Symbols | None) -> bytes:
    """The step's lines in llvm-objdump's layout."""
    cols = _hex_columns(st)
    if symbols is not None:
        for i in _branch_rows(st):
            cols[i] += symbols.describe(_target(st, i)).encode()
    args: list = [None] * (2 * len(st))
    args[0::2] = "\n".join(st.texts).encode().split(b"\n") if len(st) else []
    args[1::2] = cols
    return (b"\t%-59s%s\n" * len(st)) % tuple(args)


def json_lines(st: Step, section: str | None, labels: dict[int, str], sec_address: int) -> bytes:
    """The step's instructions as JSON Lines."""
    hexes = st.blob.hex()
    b0 = (st.first * 4).tolist()
    sizes = st.sizes.tolist()
    addrs = st.addr.tolist()
    extra = [""] * len(st)
    sec = "" if section is None else f', "section": {json.dumps(section)}'
    for i in _branch_rows(st):
        extra[i] = f', "target": {_target(st, i)}'
    if labels:
        for i, a in enumerate(addrs):
            lab = labels.get(a - sec_address)
            if lab is not None:
                extra[i] += f', "label": {json.dumps(lab)}'
    texts = st.texts
    joined = "".join(texts)
    if not (joined.isascii() and joined.isprintable()) or '"' in joined or "\\" in joined:
        texts = [json.dumps(t)[1:-1] for t in texts]
    valid = ["false" if t.startswith(".") else "true" for t in st.texts]
    return "".join(f'{{"offset": {a}, "bytes": "{hexes[2 * o:2 * (o + s)]}", "size": {s}, "text": "{t}", '
                   f'"valid": {v}{sec}{x}}}\n'
                   for a, o, s, t, v, x in zip(addrs, b0, sizes, texts, valid, extra)).encode()


def write_raw(out, dec, data: bytes, as_json: bool) -> None:
    """Raw bytes at offset 0: the lines alone."""
    steps(dec, data, 0, lambda st: out.write(json_lines(st, None, {}, 0) if as_json else plain_lines(st, None)))


def write_elf(out, dec, path: str, sections, as_json: bool) -> None:
    """An ELF file's executable sections, each symbol's range decoded on its own (as llvm-objdump)."""
    if not as_json:
        out.write(f"\n{path}:\tfile format elf64-amdgpu\n".encode())
    for sec in sections:
        labels = dict(sec.labels)
        if 0 not in labels and sec.data:
            labels[0] = sec.name  # (llvm-objdump names code before the first symbol by its section)
        symbols = Symbols(labels, sec.address)
        if not as_json:
            out.write(f"\nDisassembly of section {sec.name}:\n".encode())
        bounds = sorted(labels) + [len(sec.data)]
        for lo, hi in zip(bounds, bounds[1:]):
            if not as_json:
                out.write(f"\n{sec.address + lo:016x} <{labels[lo]}>:\n".encode())
            steps(dec, sec.data[lo:hi], sec.address + lo,
                  lambda st: out.write(json_lines(st, sec.name, sec.labels, sec.address) if as_json
                                       else plain_lines(st, symbols)))
