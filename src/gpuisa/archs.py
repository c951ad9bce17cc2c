"""Registry of vendors, ISAs, architectures, gfx targets and their aliases.

Generation order follows LLVM's GFX numbering (GFX9 = CDNA1-4, GFX10 = RDNA1-2,
GFX11 = RDNA3/3.5, GFX12 = RDNA4, gfx1250 = CDNA5), so "newest" means the
highest GFX generation; within a generation, the later release.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace

from .model import Arch, Features

_GFX9 = Features(waves=(64,), encoding_family="GFX9", sdwa=True, accvgpr=True, memory_syntax="gfx9", constant_bus=1,
                 constant_bus_shift64=1)
_GFX90A = replace(_GFX9, accvgpr_memory=True)
_GFX940 = replace(_GFX90A, memory_syntax="gfx940")
_GFX10 = Features(waves=(32, 64), encoding_family="GFX10", sdwa=True, dpp8=True, vop3_literal=True,
                  memory_syntax="gfx10", constant_bus=2, constant_bus_shift64=1)
_GFX11 = Features(waves=(32, 64), encoding_family="GFX11", true16=True, syntax16=("true16", "fake16"), dpp8=True,
                  vopd=True, vop3_literal=True, memory_syntax="gfx10", src_vccz_execz=False, constant_bus=2,
                  constant_bus_shift64=1)
_GFX1150 = replace(_GFX11, dpp_src1_sgpr=True)  # (llvm-mc-22: gfx1100 refuses an SGPR or constant src1 with DPP)
_GFX12 = replace(_GFX1150, encoding_family="GFX12", true16=False, memory_syntax="gfx12")
# CDNA5 runs wave32 only (LLVM's assembler still accepts -mattr=+wavefrontsize64 for gfx1250)
_GFX1250 = replace(_GFX12, waves=(32,), literal64=True, constant_bus_shift64=2)
_GFX1200 = replace(_GFX12, nv_modifier=False)

AMD_ARCHS: tuple[Arch, ...] = (
    Arch("cdna1", "CDNA1", "AMD", "amdgpu", "native", "CDNA", 10, ("gfx908",), "gfx908", None, "GFX9", _GFX9),
    Arch("cdna2", "CDNA2", "AMD", "amdgpu", "native", "CDNA", 11, ("gfx90a",), "gfx90a", None, "GFX9", _GFX90A),
    Arch("cdna3", "CDNA3", "AMD", "amdgpu", "native", "CDNA", 12, ("gfx940", "gfx941", "gfx942"), "gfx942", None, "GFX9",
         _GFX940),
    Arch("cdna4", "CDNA4", "AMD", "amdgpu", "native", "CDNA", 13, ("gfx950",), "gfx950", "cdna", "GFX9", _GFX940),
    Arch("rdna1", "RDNA1", "AMD", "amdgpu", "native", "RDNA", 20,
         ("gfx1010", "gfx1011", "gfx1012", "gfx1013"), "gfx1010", None, "GFX10", _GFX10),
    Arch("rdna2", "RDNA2", "AMD", "amdgpu", "native", "RDNA", 21,
         ("gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"), "gfx1030", None, "GFX10",
         _GFX10),
    Arch("rdna3", "RDNA3", "AMD", "amdgpu", "native", "RDNA", 30,
         ("gfx1100", "gfx1101", "gfx1102", "gfx1103"), "gfx1100", None, "GFX11", _GFX11),
    Arch("rdna3.5", "RDNA3.5", "AMD", "amdgpu", "native", "RDNA", 31,
         ("gfx1150", "gfx1151", "gfx1152", "gfx1153"), "gfx1150", "rdna3", "GFX11", _GFX1150),
    Arch("rdna4", "RDNA4", "AMD", "amdgpu", "native", "RDNA", 40, ("gfx1200", "gfx1201"), "gfx1200", "rdna4", "GFX12",
         _GFX1200),
    Arch("cdna5", "CDNA5", "AMD", "amdgpu", "native", "CDNA", 50, ("gfx1250", "gfx1251"), "gfx1250", None, "GFX12.5",
         _GFX1250),
)


@dataclass(frozen=True)
class Processor:
    """One LLVM processor: its generation (architecture) and the feature flags that set it apart from the
    generation's default target.  What each flag adds or removes is measured with llvm-mc-22
    (``python -m gpuisa.regen.processors`` writes ``codec/data/processors.json``); the codec reads those facts
    for a processor that has flags, and the generation's own tables for one that has none."""

    target: str  # gfx1011
    arch: str  # rdna1
    features: frozenset[str] = frozenset()  # dot: the dot-product instructions; bvh: image_bvh*_intersect_ray


_DOT = frozenset({"dot"})
PROCESSOR_FEATURES: dict[str, frozenset[str]] = {"gfx1011": _DOT, "gfx1012": _DOT, "gfx1013": frozenset({"bvh"})}

# Architectures that exist only once imported from AMD's XML (none left: CDNA5 is swept from LLVM 22).
IMPORT_ONLY_ARCHS: tuple[Arch, ...] = ()

PTX_ARCH = Arch("ptx", "PTX", "NVIDIA", "ptx", "virtual", "PTX", 0, (), None, None, "")

ALL_ARCHS: tuple[Arch, ...] = AMD_ARCHS + IMPORT_ONLY_ARCHS + (PTX_ARCH,)

_BY_KEY: dict[str, Arch] = {}
for _a in ALL_ARCHS:
    _BY_KEY[_a.name] = _a
    _BY_KEY[_a.title.lower()] = _a
    for _t in _a.targets:
        _BY_KEY[_t] = _a
# Common spellings
_BY_KEY["rdna35"] = _BY_KEY["rdna3.5"]
_BY_KEY["rdna3_5"] = _BY_KEY["rdna3.5"]


class UnknownArch(ValueError):
    """An architecture name that is not a family name or gfx target."""


def arch_names() -> list[str]:
    return [a.name for a in AMD_ARCHS + IMPORT_ONLY_ARCHS]


def resolve_arch(text: str) -> Arch:
    """Family name (rdna3.5, CDNA3) or any gfx target (gfx942), case-insensitive."""
    key = text.strip().lower()
    if key in _BY_KEY:
        return _BY_KEY[key]
    close = difflib.get_close_matches(key, list(_BY_KEY), n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    allowed = ", ".join(arch_names())
    raise UnknownArch(f"unknown architecture {text!r}{hint} (allowed: {allowed}, or a gfx target such as gfx942)")


def resolve_amd(text: str) -> Arch:
    """``resolve_arch`` limited to AMD's architectures (PTX and other vendors' ISAs refused with the list)."""
    a = resolve_arch(text)
    if a.vendor != "AMD":
        raise UnknownArch(f"{text!r} is not an AMD architecture (allowed: {', '.join(arch_names())})")
    return a


def processor(text: str) -> Processor:
    """The processor a name stands for: a gfx target, or an architecture name (its default target)."""
    a = resolve_arch(text)
    key = text.strip().lower()
    target = key if key in a.targets else (a.llvm_target or key)
    return Processor(target, a.name, PROCESSOR_FEATURES.get(target, frozenset()))


def codec_key(text: str) -> str:
    """What the codec is built for: the processor's gfx target where its feature flags set it apart from its
    generation (gfx1011), else the architecture's name (gfx1010 -> rdna1)."""
    p = processor(text)
    return p.target if p.features else p.arch


def processors_with(arch: str, feature: str) -> list[str]:
    """The gfx targets of ``arch`` that have ``feature`` (``dot`` on rdna1: gfx1011, gfx1012)."""
    return [t for t in _BY_KEY[arch].targets if feature in PROCESSOR_FEATURES.get(t, frozenset())]


def by_name(name: str) -> Arch:
    return _BY_KEY[name]


def newest_first(names: list[str]) -> list[str]:
    return sorted(names, key=lambda n: -_BY_KEY[n].order)


def generation_order(names: list[str]) -> list[str]:
    return sorted(names, key=lambda n: _BY_KEY[n].order)


# -- 16-bit register syntax modes (LLVM's -mattr=+real-true16 / -real-true16) --------------------------------------
MATTR_MODES = {"+real-true16": "true16", "-real-true16": "fake16"}


def default_syntax16(arch: Arch) -> str | None:
    """LLVM 22's default 16-bit syntax of ``arch`` (measured by ``regen.plans``); None where it has no modes."""
    f = arch.features
    return ("true16" if f.true16 else "fake16") if f.syntax16 else None


def syntax16_mode(arch: Arch, mode: str | None) -> str | None:
    """The codec's 16-bit syntax key for ``mode`` (true16, fake16, or LLVM's +real-true16 / -real-true16):
    None for the architecture's default, else the mode's name; UnknownArch for a mode the generation lacks."""
    if mode is None:
        return None
    m = MATTR_MODES.get(mode.strip().lower(), mode.strip().lower())
    if m not in ("true16", "fake16"):
        raise UnknownArch(f"unknown 16-bit syntax {mode!r} (allowed: true16, fake16, +real-true16, -real-true16)")
    if m not in arch.features.syntax16:
        raise UnknownArch(f"{arch.name} has no {m} syntax (LLVM's real-true16 modes exist on GFX11 and later)")
    return None if m == default_syntax16(arch) else m


def parse_mattr(arch: Arch, text: str) -> tuple[bool, str | None]:
    """(wave64, 16-bit syntax key) of an LLVM -mattr list (``+real-true16,+wavefrontsize64``); UnknownArch for
    features the codec does not model."""
    wave64, mode = False, None
    for feat in (t.strip() for t in text.lower().split(",") if t.strip()):
        if feat in ("+wavefrontsize64", "-wavefrontsize32"):
            wave64 = True
        elif feat in ("+wavefrontsize32", "-wavefrontsize64"):
            wave64 = False
        elif feat in MATTR_MODES:
            mode = syntax16_mode(arch, feat)
        else:
            raise UnknownArch(f"unsupported -mattr feature {feat!r} (allowed: +/-real-true16, +/-wavefrontsize64)")
    return wave64, mode
