"""AMD GPU code objects (ELF, ``.hsaco``/``.co``): executable sections and their symbols.

pyelftools reads the ELF; a malformed file becomes one ``ElfError`` line with
the position, never a traceback.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

ELF_MAGIC = b"\x7fELF"
SHF_EXECINSTR = 0x4


class ElfError(ValueError):
    pass


@dataclass
class CodeSection:
    name: str
    address: int
    data: bytes
    labels: dict[int, str] = field(default_factory=dict)  # section offset -> symbol name


def is_elf(data: bytes) -> bool:
    return data[:4] == ELF_MAGIC


def code_sections(data: bytes) -> list[CodeSection]:
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        elf = ELFFile(io.BytesIO(data))
        out: list[CodeSection] = []
        index: dict[int, CodeSection] = {}
        for i, sec in enumerate(elf.iter_sections()):
            if sec["sh_type"] == "SHT_PROGBITS" and sec["sh_flags"] & SHF_EXECINSTR:
                cs = CodeSection(sec.name, sec["sh_addr"], sec.data())
                out.append(cs)
                index[i] = cs
        symtab = elf.get_section_by_name(".symtab")
        if symtab is not None:
            for sym in symtab.iter_symbols():
                shndx = sym["st_shndx"]
                if isinstance(shndx, int) and shndx in index and sym.name:
                    cs = index[shndx]
                    off = sym["st_value"] - cs.address
                    if 0 <= off < len(cs.data) and sym["st_info"]["type"] in ("STT_FUNC", "STT_NOTYPE", "STT_AMDGPU_HSA_KERNEL"):
                        cs.labels.setdefault(off, sym.name)
        return out
    except (ELFError, ValueError, KeyError, IndexError, OSError) as exc:
        raise ElfError(f"corrupted ELF code object: {exc}") from None
    except Exception as exc:  # pyelftools raises assorted errors on truncated files
        raise ElfError(f"corrupted ELF code object: {type(exc).__name__}: {exc}") from None
