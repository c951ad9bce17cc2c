"""Per-architecture codec tables built from the store (the knowledge base).

An ``Entry`` is one (instruction, encoding) with its opcode, LLVM mnemonic
(with ``_e32``/``_e64``) and syntax example.  A ``DecodeClass`` groups the
encodings that share fixed bits and opcode field (VOP3 and VOP3SD share
them and differ by opcode), so decoding is: fixed bits -> class, opcode ->
entry.  Tables are built once per architecture and cached.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from .. import archs
from ..model import Encoding, Field
from .syntax import mnemonic_of


@dataclass
class Entry:
    name: str
    encoding: str
    opcode: int | None
    syntax: str
    mnemonic: str
    identifier: int
    width: int


@dataclass
class DecodeClass:
    name: str  # first encoding name
    width: int
    mask: int
    value: int
    op: Field | None
    entries: dict[int, Entry] = field(default_factory=dict)  # opcode -> entry (-1: no opcode field)
    encodings: list[str] = field(default_factory=list)


@dataclass
class ArchTables:
    arch: str
    gfx: str
    encodings: dict[str, Encoding]
    entries: list[Entry]
    classes: list[DecodeClass]
    by_name: dict[str, list[Entry]]
    by_mnemonic: dict[str, list[Entry]]
    prefix_index: list[list[DecodeClass]]  # by the first dword's bits 31:23
    store_path: str = ""  # the store they were read from


def codec_store():
    from ..store import Store

    return Store()


@functools.lru_cache(maxsize=None)
def load_arch_tables(arch_name: str) -> ArchTables:
    import json

    st = codec_store()
    arch = archs.by_name(arch_name)
    encs = {n: st.encoding(arch_name, n) for n in st.encoding_names(arch_name)}
    entries: list[Entry] = []
    for row in st.con.execute("SELECT name, page FROM instructions WHERE arch=? ORDER BY name", (arch_name,)):
        page = json.loads(row["page"])
        for ie in page.get("encodings", []):
            enc = encs.get(ie["encoding"])
            if enc is None:
                continue
            syntax = ie.get("syntax") or ""
            mn = mnemonic_of(syntax) if syntax else row["name"]
            entries.append(Entry(row["name"], enc.name, ie["opcode"], syntax, mn, enc.identifier(ie["opcode"]), enc.width))
    _add_codec_layouts(arch_name, encs, entries)
    classes: dict[tuple, DecodeClass] = {}
    for e in entries:
        enc = encs[e.encoding]
        op = enc.field(enc.op_field) if enc.op_field else None
        key = (enc.width, enc.fixed_mask, enc.fixed_value, op.ranges if op else None)
        dc = classes.get(key)
        if dc is None:
            dc = classes[key] = DecodeClass(enc.name, enc.width, enc.fixed_mask, enc.fixed_value, op)
        if enc.name not in dc.encodings:
            dc.encodings.append(enc.name)
        k = e.opcode if (op is not None and e.opcode is not None) else -1
        prev = dc.entries.get(k)
        if prev is None or (not prev.syntax and e.syntax):
            dc.entries[k] = e
    ordered = sorted(classes.values(), key=lambda c: (-bin(c.mask & 0xFFFFFFFF).count("1"), c.width))
    prefix: list[list[DecodeClass]] = []
    for p in range(512):
        word = p << 23
        prefix.append([c for c in ordered if (word ^ c.value) & c.mask & 0xFF800000 == 0])
    by_name: dict[str, list[Entry]] = {}
    by_mn: dict[str, list[Entry]] = {}
    for e in entries:
        by_name.setdefault(e.name, []).append(e)
        by_mn.setdefault(e.mnemonic, []).append(e)
    return ArchTables(arch_name, arch.gfx, encs, entries, ordered, by_name, by_mn, prefix, str(st.path))


def _add_codec_layouts(arch_name: str, encs: dict[str, Encoding], entries: list[Entry]) -> None:
    """Encodings the store lacks but LLVM decodes for this architecture (``layouts.py``, generated data)."""
    from .layouts import apply_splits, encoding_of, load_layouts, with_overrides

    for name in list(encs):
        encs[name] = with_overrides(arch_name, encs[name])
    apply_splits(arch_name, encs, entries)
    doc = load_layouts(arch_name)
    for name, d in doc.get("encodings", {}).items():
        if name not in encs:
            encs[name] = encoding_of(name, d)
    for e in doc.get("entries", []):
        enc = encs[e["encoding"]]
        entries.append(Entry(e["name"], enc.name, e["opcode"], e["syntax"], mnemonic_of(e["syntax"]),
                             enc.identifier(e["opcode"]), enc.width))
