"""``gpuisa decode --json``: JSON Lines from the batch decoder's steps (``listing.py``), one object per
instruction::

    {"offset": 256, "bytes": "010080be", "size": 4, "text": "s_mov_b32 s0, s1", "valid": true,
     "section": ".text", "label": "kern"}

``section`` in an ELF file; ``error`` where the bytes are no instruction (``valid`` false), ``label`` where a
symbol starts, ``target`` for a branch.  As the plain listing, a step's lines are one %-format made with
numpy (offsets and sizes as decimal digits, the bytes as hex), the texts its arguments.
"""

from __future__ import annotations

import json

import numpy as np

from .listing_step import Step, branch_rows, branch_target

_U8 = np.uint8


def _lit(text: str):
    return np.frombuffer(text.encode(), dtype=_U8)


def _decimal(vals, width: int):
    """(n, width) ASCII digits of ``vals`` (uint64, below 10**width), right-aligned, zero bytes before the
    first digit."""
    v = vals.astype(np.uint64)
    out = np.empty((len(v), width), dtype=_U8)
    ten = np.uint64(10)
    for p in range(width - 1, -1, -1):
        v, d = np.divmod(v, ten)
        out[:, p] = d
    out += _U8(48)
    if width > 1:
        powers = ten ** np.arange(width - 1, 0, -1, dtype=np.uint64)
        out[:, :-1][vals[:, None] < powers] = 0
    return out


def _extras(st: Step, labels: dict[int, str], sec_address: int) -> dict[int, str]:
    """Per instruction that has them, its error, label and target members."""
    extra: dict[int, str] = {i: f', "error": {json.dumps(err)}' for i, err in st.errors.items()}
    if labels and len(st):
        want = np.array([sec_address + o for o in labels], dtype=np.uint64)
        at = np.minimum(np.searchsorted(st.addr, want), len(st) - 1)
        for i, a in zip(at.tolist(), want.tolist()):
            if int(st.addr[i]) == a:
                extra[i] = extra.get(i, "") + f', "label": {json.dumps(labels[a - sec_address])}'
    for i in branch_rows(st):
        extra[i] = extra.get(i, "") + f', "target": {branch_target(st, i)}'
    return extra


def _format(st: Step, section: str | None, marked: list[int]) -> str:
    """The step's objects as one %-format: the text and (at ``marked``) the extra members are arguments."""
    n = len(st)
    ndw = st.sizes >> 2
    k = int(ndw.max())
    sec = b"" if section is None else f', "section": {json.dumps(section)}'.replace("%", "%%").encode()
    digits, sdigits = len(str(int(st.addr.max()))), len(str(int(st.sizes.max())))
    parts = [(b'{"offset": ', None), (None, digits), (b', "bytes": "', None), (None, 8 * k), (b'", "size": ', None),
             (None, sdigits), (b', "text": "%s", "valid": ', None), (None, 5), (sec, None), (None, 2), (b"}\n", None)]
    at, cols = 0, []
    for lit, width in parts:
        w = len(lit) if lit is not None else width
        assert w is not None  # each part is a literal or a column of a width
        cols.append((at, lit))
        at += w
    rows = np.zeros((n, at), dtype=_U8)
    for (a, lit), _part in zip(cols, parts):
        if lit:
            rows[:, a:a + len(lit)] = np.frombuffer(lit, dtype=_U8)
    rows[:, cols[1][0]:cols[1][0] + digits] = _decimal(st.addr, digits)
    rows[:, cols[5][0]:cols[5][0] + sdigits] = _decimal(st.sizes, sdigits)
    hex8 = np.frombuffer(st.blob[:len(st.blob) & ~3].hex().encode(), dtype="<u8")  # (each dword's bytes in hex)
    last, h0 = len(hex8) - 1, cols[3][0]
    rows[:, h0:h0 + 8] = hex8.take(st.first).view(_U8).reshape(n, 8)
    for j in range(1, k):
        m = np.flatnonzero(ndw > j)
        rows[m, h0 + 8 * j:h0 + 8 * j + 8] = hex8.take(np.minimum(st.first.take(m) + j, last)).view(_U8).reshape(-1, 8)
    v0 = cols[7][0]
    rows[:, v0:v0 + 4] = _lit("true")
    if st.errors:
        rows[list(st.errors), v0:v0 + 5] = _lit("false")
    if marked:
        rows[marked, cols[9][0]:cols[9][0] + 2] = _lit("%s")
    flat = rows.ravel()
    return flat[flat != 0].tobytes().decode("ascii")


def _escaped(texts: list) -> list:
    joined = "".join(texts)
    if joined.isascii() and joined.isprintable() and '"' not in joined and "\\" not in joined:
        return texts
    return [json.dumps(t)[1:-1] for t in texts]


def json_lines(st: Step, section: str | None, labels: dict[int, str], sec_address: int) -> bytes:
    """The step's instructions as JSON Lines."""
    if not len(st):
        return b""
    extra = _extras(st, labels, sec_address)
    texts = _escaped(st.texts)
    if (st.sizes & 3).any():  # (bytes at the end that are not whole dwords: a few objects, one at a time)
        return "".join(_one(st, i, texts[i], section, extra.get(i, "")) for i in range(len(st))).encode()
    marked = sorted(extra)
    args, prev = [], 0
    for i in marked:
        args += texts[prev:i + 1]
        args.append(extra[i])
        prev = i + 1
    args += texts[prev:]
    return (_format(st, section, marked) % tuple(args)).encode()


def _one(st: Step, i: int, text: str, section: str | None, extra: str) -> str:
    size, at = int(st.sizes[i]), 4 * int(st.first[i])
    sec = "" if section is None else f', "section": {json.dumps(section)}'
    valid = "false" if i in st.errors else "true"
    return (f'{{"offset": {int(st.addr[i])}, "bytes": "{st.blob[at:at + size].hex()}", "size": {size}, '
            f'"text": "{text}", "valid": {valid}{sec}{extra}}}\n')
