"""AMD GPU code objects (ELF, ``.hsaco``/``.co``/``.o``): executable sections and their symbols.

A small reader of 64-bit little-endian ELF (what every AMDGPU code object is) with ``struct``: no
dependency, and nothing to import at start-up.  A malformed file becomes one ``ElfError`` line that
says what is wrong, never a traceback.
"""

from __future__ import annotations

import struct

ELF_MAGIC = b"\x7fELF"
SHF_EXECINSTR = 0x4
SHT_PROGBITS, SHT_SYMTAB = 1, 2
ET_REL = 1
EM_AMDGPU = 224
# symbol types shown as labels, as llvm-objdump shows them: no type, object, function, AMD HSA kernel
_LABEL_TYPES = (0, 1, 2, 10)
_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_SECTION = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")


class ElfError(ValueError):
    pass


class CodeSection:
    """An executable section: name, address, bytes, ``labels`` (section offset -> symbol name) and ``plain``
    (section offset -> name of a symbol without a type, a plain label: llvm-objdump prints a branch to one with
    the name as its operand).  (A plain class: ``dataclasses`` costs a decode's start-up ~5 ms.)"""

    __slots__ = ("name", "address", "data", "labels", "plain")

    def __init__(self, name: str, address: int, data: bytes, labels: dict[int, str] | None = None,
                 plain: dict[int, str] | None = None):
        self.name, self.address, self.data = name, address, data
        self.labels: dict[int, str] = {} if labels is None else labels
        self.plain: dict[int, str] = {} if plain is None else plain

    def __repr__(self) -> str:
        return f"CodeSection({self.name!r}, {self.address:#x}, <{len(self.data)} bytes>, {len(self.labels)} labels)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CodeSection) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]


def is_elf(data: bytes) -> bool:
    return data[:4] == ELF_MAGIC


def _string(table: bytes, at: int) -> str:
    end = table.find(b"\0", at)
    if at >= len(table) or end < 0:
        raise ElfError(f"corrupted ELF code object: a name at {at} is outside its string table")
    return table[at:end].decode("utf-8", "replace")


def _headers(data: bytes) -> tuple[list[tuple], int, bool]:
    if len(data) < _HEADER.size:
        raise ElfError(f"corrupted ELF code object: {len(data)} bytes, shorter than the ELF header")
    ident = data[:16]
    if ident[4] != 2 or ident[5] != 1:
        raise ElfError("not a 64-bit little-endian ELF file (AMD GPU code objects are)")
    h = _HEADER.unpack_from(data)
    if h[2] != EM_AMDGPU:
        raise ElfError(f"not an AMD GPU code object (ELF machine {h[2]}, AMDGPU is {EM_AMDGPU})")
    shoff, shentsize, shnum, shstrndx = h[6], h[11], h[12], h[13]
    relocatable = h[1] == ET_REL
    if shnum == 0:
        return [], 0, relocatable
    if shentsize != _SECTION.size or shoff + shnum * shentsize > len(data):
        raise ElfError(f"corrupted ELF code object: section headers ({shnum} at {shoff}) run past the "
                       f"end of the file ({len(data)} bytes)")
    secs = [_SECTION.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
    if shstrndx >= shnum:
        raise ElfError(f"corrupted ELF code object: section-name table index {shstrndx} of {shnum}")
    return secs, shstrndx, relocatable


def _contents(data: bytes, sec: tuple, what: str) -> bytes:
    off, size = sec[4], sec[5]
    if off + size > len(data):
        raise ElfError(f"corrupted ELF code object: {what} ({size} bytes at {off}) runs past the end of the "
                       f"file ({len(data)} bytes)")
    return data[off:off + size]


def code_sections(data: bytes) -> list[CodeSection]:
    """The executable sections in file order, each with its labels (symbols in it, by section offset)."""
    secs, shstrndx, relocatable = _headers(data)
    if not secs:
        return []
    names = _contents(data, secs[shstrndx], "the section-name table")
    out: list[CodeSection] = []
    index: dict[int, CodeSection] = {}
    for i, s in enumerate(secs):
        if s[1] == SHT_PROGBITS and s[2] & SHF_EXECINSTR:
            name = _string(names, s[0])
            cs = CodeSection(name, s[3], _contents(data, s, f"section {name}"))
            out.append(cs)
            index[i] = cs
    for s in secs:
        if s[1] == SHT_SYMTAB:
            _add_labels(data, s, secs, index, relocatable)
    return out


def _add_labels(data: bytes, symtab: tuple, secs: list, index: dict[int, CodeSection], relocatable: bool) -> None:
    """Symbols of the code sections as labels: a relocatable object's symbol values are section offsets, a
    linked one's (a ``.hsaco``) addresses."""
    if symtab[9] != _SYMBOL.size or symtab[6] >= len(secs):
        raise ElfError("corrupted ELF code object: the symbol table's entry size or string table is wrong")
    table = _contents(data, symtab, "the symbol table")
    strings = _contents(data, secs[symtab[6]], "the symbol names")
    for at in range(0, len(table) - _SYMBOL.size + 1, _SYMBOL.size):
        st_name, info, _, shndx, value, _ = _SYMBOL.unpack_from(table, at)
        cs = index.get(shndx)
        if cs is None or not st_name or info & 0xF not in _LABEL_TYPES:
            continue
        off = value if relocatable else value - cs.address
        if 0 <= off < len(cs.data):
            name = _string(strings, st_name)
            if name:
                cs.labels.setdefault(off, name)
                if info & 0xF == 0:
                    cs.plain.setdefault(off, name)
