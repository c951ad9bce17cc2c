"""``gpuisa decode``'s listings from the batch decoder: plain (``llvm-objdump -d``'s layout) and JSON Lines.

Plain, one line per instruction, as llvm-objdump prints an AMDGPU code object::

    <TAB>text padded to 59 columns// 00000000001C: BFA10002 <kern+0x2c>

(the address, the instruction's dwords as hex numbers, and for a branch its target as symbol+offset, or the
symbol's name as the operand where the target is a label without a type, as llvm-objdump's symbolizer does);
an ELF file gets llvm-objdump's headers (file format, ``Disassembly of section``, ``<symbol>:`` where a
symbol starts, ``<.text>`` for code before the first one).  Each symbol's range is decoded on its own, as
llvm-objdump does.  Raw bytes (hex on the command line or a file that is not ELF) get the lines alone.
JSON Lines: one object per instruction (offset, bytes, text, size, valid; section, label and target where
they apply).

The texts come from the batch decoder's stream walk (``batch.walk_steps``, as ``Decoder.decode_text``): each
step of the stream is written as soon as it is decoded, its offset and byte columns made with numpy, its
lines with one ``%``.  Bytes that are no instruction print as the ``.long``/``.byte`` directive that makes
them (as llvm-objdump prints ``.long``).
"""

from __future__ import annotations

import bisect

import numpy as np

from .batch import walk_steps
from .batch_render import invalid_line
from .listing_step import Step, branch_rows, branch_target


class Symbols:
    """The labels of one section (section offset -> name, sorted) for branch targets' ``<sym+0x..>``, and its
    symbols without a type (``plain``), whose names a branch to them prints as its operand."""

    def __init__(self, labels: dict[int, str], address: int, plain: dict[int, str] | None = None):
        self.at = sorted(labels)
        self.names = [labels[o] for o in self.at]
        self.address = address
        self.plain = plain or {}

    def describe(self, target: int) -> str:
        """`` <sym+0x..>`` for an address (64-bit wrap-around, as llvm-objdump); empty before every symbol."""
        off = (target & ((1 << 64) - 1)) - self.address  # (a branch backwards past 0 wraps around to the top)
        i = bisect.bisect_right(self.at, off) - 1 if off >= 0 else -1
        if i < 0:
            return ""
        delta = (target - self.address - self.at[i]) & ((1 << 64) - 1)
        return f" <{self.names[i]}+0x{delta:x}>" if delta else f" <{self.names[i]}>"


def steps(dec, data: bytes, address: int, sink) -> None:
    """Calls ``sink(step)`` for each ``Step`` of ``data`` (placed at ``address``) as the batch decoder makes it."""

    def emit(pos, view, starts, tix, sizes, eids, scalar, seen):
        texts = seen.texts.take(tix).tolist()
        errors = {}
        for j in np.flatnonzero(eids == 0).tolist():  # (the scalar path's: bytes that are no instruction)
            if texts[j] is None:
                d = scalar[int(starts[j])][3]
                texts[j], errors[j] = invalid_line(d.data), d.error
        dws = np.frombuffer(view, dtype="<u4", count=len(view) // 4)
        addr = (starts.astype(np.uint64) + np.uint64(pos)) * np.uint64(4) + np.uint64(address)
        sink(Step(addr, sizes.astype(np.int64), texts, starts, dws, view, errors))

    off = walk_steps(dec, data, emit)
    tail = []
    while off < len(data):
        d = dec.decode_at(data, off)
        size = len(d.data) if d.valid else min(4, len(data) - off)
        tail.append((off, size, d.text if d.valid else invalid_line(data[off:off + size]), None if d.valid else d.error))
        off += size
    if tail:
        sink(_tail_step(tail, data, address))


def _tail_step(tail: list, data: bytes, address: int) -> Step:
    """The scalar tail loop's instructions (the last bytes: sizes need not be whole dwords)."""
    start = tail[0][0] & ~3
    chunk = data[start:]
    padded = chunk + b"\0" * (-len(chunk) % 4)
    dws = np.frombuffer(padded, dtype="<u4")
    first = np.array([(t[0] - start) // 4 for t in tail], dtype=np.int64)
    addr = np.array([t[0] + address for t in tail], dtype=np.uint64)
    sizes = np.array([t[1] for t in tail], dtype=np.int64)
    errors = {i: t[3] for i, t in enumerate(tail) if t[3] is not None}
    return Step(addr, sizes, [t[2] for t in tail], first, dws, padded, errors)


def _format(st: Step, marked, headed) -> str:
    """The step's lines as one %-format: per instruction ``\t%-59s// OFFSET: DWORD DWORD..`` (llvm-objdump's
    comment column) and a newline; ``%s`` after the dwords at the indices ``marked`` (a branch's target) and
    before the line at the indices ``headed`` (a symbol's header).  Made with numpy as rows of bytes, the
    zero padding of short rows removed at the end."""
    n = len(st)
    ndw = (st.sizes + 3) >> 2
    k = int(ndw.max()) if n else 1
    width = 29 + 9 * k + 2  # (%s, \t%-59s, // OFFSET: , the dwords, %s, \n)
    rows = np.zeros((n, width), dtype=np.uint8)
    if len(headed):
        rows[headed, 0:2] = np.frombuffer(b"%s", dtype=np.uint8)
    rows[:, 2:8] = np.frombuffer(b"\t%-59s", dtype=np.uint8)
    rows[:, 8:11] = np.frombuffer(b"// ", dtype=np.uint8)
    # the address as %012X: 16 hex digits, the first 4 left out while zeros
    digits = np.frombuffer(st.addr.astype(">u8").tobytes().hex().upper().encode(), dtype=np.uint8).reshape(n, 16)
    rows[:, 11:27] = digits
    high = rows[:, 11:15]
    high[np.logical_and.accumulate(high == ord("0"), axis=1)] = 0
    rows[:, 27:29] = np.frombuffer(b": ", dtype=np.uint8)
    # each dword's 8 hex digits as one 64-bit value
    hex8 = np.frombuffer(st.dws.byteswap().tobytes().hex().upper().encode(), dtype="<u8")
    last = len(hex8) - 1
    for j in range(k):
        at = 29 + 9 * j
        if j == 0:
            rows[:, at:at + 8] = hex8.take(st.first).view(np.uint8).reshape(n, 8)
            continue
        m = np.flatnonzero(ndw > j)
        rows[m, at - 1] = 32
        rows[m, at:at + 8] = hex8.take(np.minimum(st.first.take(m) + j, last)).view(np.uint8).reshape(len(m), 8)
    if len(marked):
        rows[marked, -3:-1] = np.frombuffer(b"%s", dtype=np.uint8)
    rows[:, -1] = 10
    flat = rows.ravel()
    return flat[flat != 0].tobytes().decode("ascii")


def plain_lines(st: Step, symbols: Symbols | None, heads: dict[int, str] | None = None) -> bytes:
    """The step's lines in llvm-objdump's layout (``heads``: text printed before the line at an index)."""
    marked = branch_rows(st) if symbols is not None else []
    heads = heads or {}
    if not marked and not heads and not (st.sizes & 3).any():
        return (_format(st, marked, []) % tuple(st.texts)).encode()
    texts = list(st.texts)
    ends = {}  # index -> what its line's second %s prints (a branch's target)
    for i in marked:
        assert symbols is not None  # (branches are marked only where there are symbols)
        target = branch_target(st, i)
        name = symbols.plain.get(target - symbols.address)
        if name is None:
            ends[i] = symbols.describe(target)
        else:  # (the operand is the label's name, and there is no comment)
            texts[i] = texts[i].rsplit(" ", 1)[0] + " " + name
            ends[i] = ""
    if (st.sizes & 3).any():  # (bytes at the end that are not whole dwords: a few lines, made one at a time)
        return "".join(_line(st, i, texts[i], heads.get(i, ""), ends.get(i, "")) for i in range(len(st))).encode()
    args, prev = [], 0
    for i in sorted(set(ends) | set(heads)):  # (the texts with the extra arguments of the lines that have them)
        args += texts[prev:i]
        if i in heads:
            args.append(heads[i])
        args.append(texts[i])
        if i in ends:
            args.append(ends[i])
        prev = i + 1
    args += texts[prev:]
    return (_format(st, marked, sorted(heads)) % tuple(args)).encode()


def _line(st: Step, i: int, text: str, head: str, end: str) -> str:
    """One line (``_format``'s layout); bytes that are not whole dwords are printed one by one, as llvm-objdump."""
    size, at = int(st.sizes[i]), 4 * int(st.first[i])
    chunk = st.blob[at:at + size]
    if size & 3:
        words = " ".join(f"{b:02X}" for b in chunk)
    else:
        words = " ".join(f"{int.from_bytes(chunk[k:k + 4], 'little'):08X}" for k in range(0, size, 4))
    return f"{head}\t{text:<59}// {int(st.addr[i]):012X}: {words}{end}\n"


def write_raw(out, dec, data: bytes, as_json: bool) -> None:
    """Raw bytes at offset 0: the lines alone."""
    from .listing_json import json_lines

    steps(dec, data, 0, lambda st: out.write(json_lines(st, None, {}, 0) if as_json else plain_lines(st, None)))


class _Restart(Exception):
    """A symbol starts inside an instruction of the stream (``_Section``): decoding starts afresh there."""

    def __init__(self, at: int):
        super().__init__(at)
        self.at = at


class _Section:
    """One executable section written as llvm-objdump does: each symbol's range decoded on its own (from its
    start while the address is in the range, each instruction seeing the section's bytes past the range),
    a ``<symbol>:`` header at its start.  The section is decoded as one stream, which gives the same
    instructions wherever every symbol starts at an instruction; where one starts inside an instruction,
    that instruction is printed whole and the stream starts afresh at the symbol (``_Restart``)."""

    def __init__(self, out, dec, sec, as_json: bool):
        self.out, self.dec, self.sec, self.as_json = out, dec, sec, as_json
        labels = dict(sec.labels)
        if 0 not in labels and sec.data:
            labels[0] = sec.name  # (llvm-objdump names code before the first symbol by its section)
        self.labels = labels
        self.symbols = Symbols(labels, sec.address, sec.plain)
        self.bounds = sorted(labels)
        self.next = 0  # index in ``bounds`` of the next symbol to meet

    def header(self, off: int) -> str:
        return f"\n{self.sec.address + off:016x} <{self.labels[off]}>:\n"

    def run(self) -> None:
        data, start = self.sec.data, 0
        while start < len(data):
            try:
                steps(self.dec, data[start:], self.sec.address + start, self.sink)
                return
            except _Restart as again:
                start = again.at

    def write(self, st: Step, heads: dict[int, str] | None = None) -> None:
        sec = self.sec
        if self.as_json:
            from .listing_json import json_lines

            self.out.write(json_lines(st, sec.name, sec.labels, sec.address))
        else:
            self.out.write(plain_lines(st, self.symbols, heads))

    def sink(self, st: Step) -> None:
        """Writes the step, with the headers of the symbols that start at its instructions; a symbol inside
        one ends the stream after that instruction (``_Restart``)."""
        rel = (st.addr - np.uint64(self.sec.address)).astype(np.int64)
        n, heads = len(st), {}
        while self.next < len(self.bounds):
            b = self.bounds[self.next]
            j = int(np.searchsorted(rel, b))
            if j < n and rel[j] == b:  # (a symbol at an instruction)
                heads[j] = self.header(b)
                self.next += 1
                continue
            if j == n and (not n or rel[-1] + st.sizes[-1] <= b):  # (in a later step)
                break
            # instruction j - 1 runs past the symbol: the lines up to it, then a new stream at the symbol
            self.write(st.part(0, j), heads)
            raise _Restart(b)
        self.write(st, heads)


def write_elf(out, dec, path: str, sections, as_json: bool) -> None:
    """An ELF file's executable sections, as llvm-objdump prints them (headers unless JSON)."""
    if not as_json:
        out.write(f"\n{path}:\tfile format elf64-amdgpu\n".encode())
    for sec in sections:
        if not as_json:
            out.write(f"\nDisassembly of section {sec.name}:\n".encode())
        _Section(out, dec, sec, as_json).run()
