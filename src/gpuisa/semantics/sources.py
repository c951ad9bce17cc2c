"""Where pseudocode comes from: adapters that load vendor pseudocode at run time.

The repository carries no vendor pseudocode.  An adapter reads it from an installed
source and hands out :class:`PcodeEntry` records keyed by (architecture, instruction
name) in the store's spelling.  Today there is one adapter, :class:`TinygradPcode`,
reading the ``PCODE`` tables (AMD's ISA-manual pseudocode) shipped in the pinned
tinygrad wheel for RDNA3.5 (``rdna3`` there), RDNA4 and CDNA4 (``cdna``).  The file
is parsed with :mod:`ast` and never imported, so no tinygrad code runs.  A later
adapter (for instance one reading AMD's manuals for other generations) only has to
implement :meth:`PcodeSource.entries`.

Every other generation (RDNA1-3, CDNA1-3, CDNA5) carries each of its instructions'
semantics by name from the nearest generation that has pseudocode for it (:func:`donors`:
same encoding family first, then the same product line, then the nearest encoding
generation), also under the older spellings GFX9/10 used (:func:`spellings`); so does a
generation with pseudocode for the few instructions its own table lacks.  Such entries carry
``inherited_from`` (the donor), shown as *inferred from <generation>* on pages, in
``gpuisa eval --json`` and in ``gpuisa coverage semantics``.  Instructions no table lists
but :mod:`.formulations` runs get an entry labelled as the project's formulation.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

from ..sources import tinygrad as tg


@dataclass(frozen=True)
class PcodeEntry:
    arch: str  # store architecture key (rdna3.5, rdna4, cdna4)
    name: str  # store spelling: lower case, _E32/_E64 dropped
    op_class: str  # AMD opcode table the text is listed under (VOP3Op, SOP2Op, ...)
    text: str  # the pseudocode exactly as the source gives it
    source: str  # label for pages: what it is and which version
    inherited_from: str | None = None  # donor generation when this generation's source has no pseudocode
    donor_name: str | None = None  # the donor's spelling of the instruction (old MFMA and SALU names differ)


class PcodeSource:
    """Interface of a pseudocode adapter."""

    label: str = ""

    def archs(self) -> tuple[str, ...]:
        raise NotImplementedError

    def entries(self, arch: str) -> dict[str, list[PcodeEntry]]:
        """name -> entries (one per opcode table that lists the instruction)."""
        raise NotImplementedError


# Among several tables listing one name (VOP1 and its VOP3 form), which text to prefer:
# the native one of the store's first encoding decides elsewhere; this is the fallback order.
TABLE_PREFERENCE = ("VOP3Op", "VOP3SDOp", "VOP1Op", "VOP2Op", "VOPCOp", "VOP3POp", "VOPDOp", "VINTERPOp",
                    "SOP1Op", "SOP2Op", "SOPCOp", "SOPKOp", "SOPPOp")


class TinygradPcode(PcodeSource):
    """AMD pseudocode as shipped in tinygrad's ``autogen/amd/<folder>/str_pcode.py``."""

    def __init__(self, root: Path | None = None):
        self._root = root
        self.label = f"AMD ISA manual pseudocode via tinygrad=={tg.TINYGRAD_VERSION} wheel (str_pcode.py, loaded at run time)"

    def archs(self) -> tuple[str, ...]:
        return tuple(tg.FOLDER_ARCH.values())

    def _path(self, arch: str) -> Path:
        folder = {v: k for k, v in tg.FOLDER_ARCH.items()}[arch]
        root = self._root or tg.autogen_dir()
        return root / folder / "str_pcode.py"

    @functools.lru_cache(maxsize=None)  # noqa: B019  (sources live as long as the process)
    def entries(self, arch: str) -> dict[str, list[PcodeEntry]]:
        if arch not in self.archs():
            return {}
        path = self._path(arch)
        from . import cache

        key = f"pcode-{arch}-{cache.file_key(path)}.json"
        cached = cache.load(key)
        if cached is not None:
            return {n: [PcodeEntry(arch, n, oc, text, self.label) for oc, text in lst] for n, lst in cached.items()}
        out = self._parse(arch, path)
        cache.save(key, {n: [[e.op_class, e.text] for e in lst] for n, lst in out.items()})
        return out

    def _parse(self, arch: str, path: Path) -> dict[str, list[PcodeEntry]]:
        tree = ast.parse(path.read_text())
        out: dict[str, list[PcodeEntry]] = {}
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)):
                continue
            if not any(isinstance(t, ast.Name) and t.id == "PCODE" for t in node.targets):
                continue
            for key, value in zip(node.value.keys, node.value.values):
                if not (isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name)):
                    continue
                if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                    continue
                name = tg._canonical(key.attr).lower()
                out.setdefault(name, []).append(PcodeEntry(arch, name, key.value.id, value.value, self.label))
        for lst in out.values():
            lst.sort(key=lambda e: TABLE_PREFERENCE.index(e.op_class) if e.op_class in TABLE_PREFERENCE else 99)
        return out


def _index_path():
    """One SQLite file per source version holding every (arch, name) entry: a page needs a
    handful of rows, and a point query costs far less than loading whole tables."""
    from . import cache

    src = default_source()
    keys = "-".join(cache.file_key(src._path(a)) for a in src.archs()) if isinstance(src, TinygradPcode) else "x"
    return cache.cache_dir() / f"pcode-index-{keys}.sqlite"


@functools.lru_cache(maxsize=1)
def _index():
    import sqlite3

    from ..cachefile import atomic_path

    path = _index_path()
    if not path.exists():
        from ..logs import info

        info(__name__, "indexing the pseudocode of %s into %s", ", ".join(default_source().archs()), path)
        with atomic_path(path) as tmp:  # the one safe writer: a reader never sees a half-built index
            con = sqlite3.connect(tmp)
            con.execute("CREATE TABLE pcode (arch TEXT, name TEXT, rank INTEGER, op_class TEXT, text TEXT)")
            src = default_source()
            for arch in src.archs():
                for name, lst in src.entries(arch).items():
                    con.executemany("INSERT INTO pcode VALUES (?, ?, ?, ?, ?)",
                                    [(arch, name, i, e.op_class, e.text) for i, e in enumerate(lst)])
            con.execute("CREATE INDEX pcode_name ON pcode (name)")
            con.commit()
            con.close()
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


def lookup_all(name: str) -> dict[str, PcodeEntry]:
    """{arch: preferred entry} for one instruction across the source's generations (fast path for pages)."""
    name = name.lower()
    label = default_source().label
    try:
        rows = _index().execute("SELECT arch, op_class, text FROM pcode WHERE name = ? AND rank = 0", (name,)).fetchall()
        if not rows and name.startswith("v_dual_"):
            rows = _index().execute("SELECT arch, op_class, text FROM pcode WHERE name = ? AND rank = 0",
                                    ("v_" + name[7:],)).fetchall()
            label += f"; the entry of v_{name[7:]}, which each half of a VOPD pair executes"
    except Exception:  # noqa: BLE001 - an unreadable cache falls back to the full tables
        return {a: e for a in default_source().archs() if (e := lookup(a, name)) is not None}
    return {arch: PcodeEntry(arch, name, oc, text, label) for arch, oc, text in rows}


@functools.lru_cache(maxsize=1)
def default_source() -> PcodeSource:
    return TinygradPcode()


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether the pinned wheel with the pseudocode is installed."""
    try:
        tg.autogen_dir()
    except RuntimeError:
        return False
    return True


def lookup(arch: str, name: str, prefer: str | None = None) -> PcodeEntry | None:
    """The pseudocode entry for an instruction; ``prefer`` an encoding name (VOPC, VOP3...).

    Where the source has no entry for the generation's instruction (no pseudocode for the whole
    generation, or none for this instruction), the entry is carried by name from the nearest
    generation that has it (:func:`donor`), marked with ``inherited_from``."""
    name = name.lower()
    return _own(arch, name, prefer) or _inherited(arch, name, prefer) or _formulated(arch, name)


def _own(arch: str, name: str, prefer: str | None = None) -> PcodeEntry | None:
    """The source's own entry for the generation (VOPD halves: their VOP1/VOP2 counterpart's)."""
    if arch not in default_source().archs():
        return None
    lst = default_source().entries(arch).get(name)
    if not lst and name.startswith("v_dual_"):
        # Each half of a VOPD dual issue runs its VOP1/VOP2 counterpart's operation.
        lst = default_source().entries(arch).get("v_" + name[len("v_dual_"):])
        if lst:
            e = lst[0]
            return PcodeEntry(e.arch, name, e.op_class, e.text,
                              e.source + f"; the entry of v_{name[7:]}, which each half of a VOPD pair executes")
    if not lst:
        return None
    if prefer:
        want = prefer.upper() + "OP"
        for e in lst:
            if e.op_class.upper() == want:
                return e
    return lst[0]


# ------------------------------------------------------------------ generations without pseudocode

def generations() -> tuple[str, ...]:
    """Every AMD generation with semantics: the source's own, and those carried from a donor."""
    from .. import archs

    return tuple(archs.arch_names())


def native(arch: str) -> bool:
    return arch in default_source().archs()


def _gfx(arch: str) -> int:
    from .. import archs

    m = re.match(r"GFX(\d+)", archs.by_name(arch).features.encoding_family)
    return int(m.group(1)) if m else 0


@functools.lru_cache(maxsize=None)
def donors(arch: str) -> tuple[str, ...]:
    """Generations with pseudocode, nearest first, for one without: the same encoding family first
    (CDNA5 = gfx1250 is GFX12: RDNA4 before CDNA4), then the same product line (CDNA, RDNA), then the
    nearest encoding generation, newest first among equals."""
    from .. import archs

    have = [a for a in default_source().archs() if a != arch]
    me = archs.by_name(arch)

    def key(d: str):
        a = archs.by_name(d)
        return (a.features.encoding_family != me.features.encoding_family, a.family != me.family,
                abs(_gfx(d) - _gfx(arch)), -a.order)

    return tuple(sorted(have, key=key))


# GFX10 -> GFX11 renames of identical operations (the older spelling on the left).
_RENAMES = ((re.compile(r"^s_andn1_"), "s_and_not0_"), (re.compile(r"^s_andn2_"), "s_and_not1_"),
            (re.compile(r"^s_orn1_"), "s_or_not0_"), (re.compile(r"^s_orn2_"), "s_or_not1_"),
            (re.compile(r"^v_(mul|fma|fmac)_legacy_f32$"), r"v_\1_dx9_zero_f32"),
            (re.compile(r"^v_mul_lo_i32$"), "v_mul_lo_u32"),  # the low 32 bits do not depend on signedness
            (re.compile(r"^v_ffbh_u32$"), "v_clz_i32_u32"), (re.compile(r"^v_ffbl_b32$"), "v_ctz_i32_b32"),
            (re.compile(r"^v_ffbh_i32$"), "v_cls_i32"), (re.compile(r"^v_cvt_flr_i32_f32$"), "v_cvt_floor_i32_f32"),
            (re.compile(r"^v_cvt_rpi_i32_f32$"), "v_cvt_nearest_i32_f32"),
            (re.compile(r"^v_cvt_pkrtz_f16_f32$"), "v_cvt_pk_rtz_f16_f32"),
            (re.compile(r"^v_cvt_pknorm_"), "v_cvt_pk_norm_"), (re.compile(r"^s_ff1_i32_"), "s_ctz_i32_"),
            (re.compile(r"^s_flbit_i32_b(32|64)$"), r"s_clz_i32_u\1"), (re.compile(r"^s_flbit_i32$"), "s_cls_i32"),
            (re.compile(r"^s_flbit_i32_i64$"), "s_cls_i32_i64"),
            # gfx1250 (CDNA5) renames of GFX12's program-counter instructions
            (re.compile(r"^s_(get|set|swap)_pc_i64$"), r"s_\1pc_b64"), (re.compile(r"^s_call_i64$"), "s_call_b64"),
            (re.compile(r"^s_rfe_i64$"), "s_rfe_b64"))
# Same name, another operation: GFX9/10's v_interp_* (VINTRP, attribute reads) are not GFX11's VINTERP forms.
_NOT_ACROSS_FAMILIES = re.compile(r"^v_interp_")
# FP8/BF8 are OCP's E4M3/E5M2 on gfx950 (CDNA4) and GFX12 (RDNA4), whose pseudocode the source has, but the FNUZ
# variants (bias 8/16, 0x80 the only NaN, no -0) on gfx940-942 (CDNA3): their conversions and matrix operations
# are not carried across (the conversions run the FNUZ formulation of :mod:`.fnuz` instead).
_FP8 = re.compile(r"fp8|bf8")
_FNUZ_FP8 = frozenset({"cdna3"})
_WHY_FNUZ = ("CDNA3 (gfx940-942) reads and writes FP8/BF8 in the FNUZ formats (E4M3 bias 8, E5M2 bias 16, 0x80 the "
             "only NaN, no -0); the pseudocode source describes only the OCP formats of CDNA4 and RDNA4, so it is not "
             "carried to CDNA3")
# CDNA1/2 spell MFMAs without the separator gfx940 added: v_mfma_f32_32x32x1f32 = v_mfma_f32_32x32x1_2b_f32
# (the block count is not in the old name); the old bf16 forms with ``_1k`` are the newer bf16 forms.
_OLD_MFMA = re.compile(r"^v_mfma_(f32|i32|f64)_(\d+x\d+x\d+)(f32|f16|bf16_1k|i8|f64)$")


def spellings(name: str, donor_names) -> list[str]:
    """The instruction's name and the donor's spellings of the same operation."""
    out = [name]
    for pat, new in _RENAMES:
        if pat.search(name):
            out.append(pat.sub(new, name))
    m = _OLD_MFMA.match(name)
    if m:
        out_t, shape, ty = m.groups()
        ty = ty.removesuffix("_1k")
        wanted = re.compile(rf"^v_mfma_{out_t}_{shape}(_\d+b)?_{ty}$")
        out += sorted(n for n in donor_names if wanted.match(n))
    return out


@functools.lru_cache(maxsize=None)
def arch_names(arch: str) -> frozenset[str] | None:
    """Instruction names of a generation from its facts (the user's import first); None if unreadable."""
    import json

    from .. import store

    paths = store.fact_sources().get(arch)
    if not paths:
        return None
    from . import cache

    key = f"names-{arch}-{cache.file_key(paths[0])}.json"
    cached = cache.load(key)
    if cached is not None:
        return frozenset(cached["names"])
    try:
        names = sorted({i["name"] for i in json.loads(paths[0].read_text())["instructions"]})
    except (OSError, ValueError, KeyError, TypeError):
        return None
    cache.save(key, {"names": names})
    return frozenset(names)


@functools.lru_cache(maxsize=None)
def donor(arch: str, name: str) -> tuple[str, str] | None:
    """(donor generation, donor's spelling) whose pseudocode ``name`` of ``arch`` carries, if any."""
    known = arch_names(arch)
    if known is not None and name not in known:
        return None  # the generation has no such instruction
    if _own(arch, name) is not None:
        return None  # the source's own pseudocode
    for d in donors(arch):
        if _NOT_ACROSS_FAMILIES.match(name) and _gfx(d) != _gfx(arch):
            continue
        if _FP8.search(name) and (arch in _FNUZ_FP8) != (d in _FNUZ_FP8):
            continue
        have = default_source().entries(d)
        for spelled in spellings(name, have):
            if _own(d, spelled) is not None:
                return d, spelled
    return None


def _inherited(arch: str, name: str, prefer: str | None) -> PcodeEntry | None:
    from .. import archs

    if arch not in generations():
        return None
    found = donor(arch, name)
    if found is None:
        return None
    d, spelled = found
    e = lookup(d, spelled, prefer)
    assert e is not None  # donor() chose a generation with its own pseudocode for ``spelled``
    what = (f"{archs.by_name(arch).title} has no pseudocode " + ("in the source" if not native(arch) else
            "for this instruction in the source") + f"; inferred from {archs.by_name(d).title}")
    if spelled != name:
        what += f" ({spelled})"
    return PcodeEntry(arch, name, e.op_class, e.text, f"{e.source}; {what}", d, spelled)


def inherited_entries(arch: str) -> dict[str, PcodeEntry]:
    """Every instruction of a generation that the source has no entry for but whose semantics a donor
    carries, or that the project's formulations run."""
    out = {}
    for name in sorted(arch_names(arch) or ()):
        e = _inherited(arch, name, None) if _own(arch, name) is None else None
        e = e or (_formulated(arch, name) if _own(arch, name) is None else None)
        if e is not None:
            out[name] = e
    return out


def carried(prog, entry: PcodeEntry):
    """The donor's compiled program as the program of ``entry``'s generation and spelling."""
    import dataclasses

    return dataclasses.replace(prog, arch=entry.arch, name=entry.name, source=entry.source)


def inferred_label(arch: str, name: str) -> str | None:
    """``inferred from CDNA4`` (with the donor's spelling where it differs), or None for native semantics."""
    from .. import archs

    found = donor(arch, name)
    if found is None:
        return None
    d, spelled = found
    return f"inferred from {archs.by_name(d).title}" + (f" ({spelled})" if spelled != name else "")


def missing_reason(arch: str, name: str = "") -> str:
    from .. import archs

    if arch in _FNUZ_FP8 and _FP8.search(name):
        return _WHY_FNUZ
    looked = ", ".join(archs.by_name(d).title for d in donors(arch))
    if native(arch):
        return f"the pseudocode source has no entry for this instruction, for this or any other generation ({looked})"
    return (f"no pseudocode source for {archs.by_name(arch).title}, and no generation with pseudocode "
            f"({looked}) has this instruction")


FORMULATION_LABEL = "gpuisa's own formulation (the pseudocode source lists no entry for this instruction)"
FNUZ_LABEL = "gpuisa's own formulation (the pseudocode source describes these conversions only in the OCP formats)"


def _formulated(arch: str, name: str) -> PcodeEntry | None:
    """An entry for an instruction no generation's source lists but :mod:`.formulations` runs (or CDNA3's
    FNUZ conversions, :mod:`.fnuz`)."""
    from . import fnuz, formulations

    if fnuz.covers(arch, name):
        return PcodeEntry(arch, name, fnuz.program(arch, name, None).op_class, fnuz.description(name), FNUZ_LABEL)
    if not formulations.covers(name):
        return None
    known = arch_names(arch)
    if known is not None and name not in known:
        return None
    return PcodeEntry(arch, name, "SOP1Op" if name.startswith("s_") else "VOP1Op", _formulated_text(name),
                      FORMULATION_LABEL)


def _formulated_text(name: str) -> str:
    """What a formulated instruction shows instead of pseudocode: a bf16 form derived from RDNA4's pseudocode
    its derived text, any other the formulations' description."""
    from . import formulations
    from . import formulations_cdna5 as cdna5

    base = cdna5.DERIVED.get(name)
    if base is None:
        return formulations.description(name)
    entry = lookup("rdna4", base)
    return cdna5.derived_text(entry.text) if entry is not None else ""
