"""Per-instruction fidelity: exact (runs, and a property test checks its family against an
independent reference), untested (runs, no test covers its family) or unsupported (why).

``TESTED_FAMILIES`` names the families that ``tests/test_semantics_properties.py`` checks;
that test asserts each family listed here is exercised, so this table cannot claim more
than the tests do.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from . import sources

# Precomputed fidelity of every instruction the pseudocode source lists, so that pages never
# compile: regenerate with ``python -m gpuisa.semantics.fidelity --write`` (a test checks it is current).
TABLE_PATH = Path(__file__).with_name("fidelity_table.json")

_W = (16, 32, 64)
_CMP = ("lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt")
# family -> the instructions whose property tests compare them with an independent reference
TESTED_FAMILIES: dict[str, tuple[str, ...]] = {
    "integer add/sub/mul/mad": ("v_add_nc_u32", "v_sub_nc_u32", "v_subrev_nc_u32", "v_add_u32", "v_sub_u32",
                                "v_subrev_u32", "v_mul_lo_u32", "v_mul_hi_u32", "v_mul_hi_i32", "v_mul_u32_u24",
                                "v_mul_hi_u32_u24", "v_mul_i32_i24", "v_mul_hi_i32_i24", "v_mad_u32_u24",
                                "v_mad_i32_i24"),
    "integer min/max": ("v_min_u32", "v_max_u32", "v_min_i32", "v_max_i32"),
    "shifts": ("v_lshlrev_b32", "v_lshrrev_b32", "v_ashrrev_i32"),
    "bitfield extract/insert": ("v_bfe_u32", "v_bfe_i32", "v_bfi_b32"),
    "bit counts": ("v_bcnt_u32_b32", "v_clz_i32_u32", "v_ffbh_u32", "v_ctz_i32_b32", "v_ffbl_b32", "v_cls_i32",
                   "v_ffbh_i32", "v_bfrev_b32"),
    "SAD family": ("v_sad_u8", "v_msad_u8", "v_sad_hi_u8", "v_sad_u16", "v_sad_u32"),
    "float add/sub/mul": tuple(f"{p}_{op}_f{w}" for p in ("v", "s") for op in ("add", "sub", "mul") for w in _W
                               if not (p == "s" and w == 64)),
    "fused multiply-add": ("v_fma_f16", "v_fma_f32", "v_fma_f64"),
    "float min/max": ("v_min_f32", "v_max_f32", "s_min_f32", "s_max_f32", "v_min_num_f32", "v_max_num_f32",
                      "s_min_num_f32", "s_max_num_f32"),
    "float compare": tuple(f"v_cmp_{c}_f{w}" for c in _CMP for w in _W),
    "float class": tuple(f"v_cmp_class_f{w}" for w in _W),
    "conversions": ("v_cvt_f32_f16", "v_cvt_f16_f32", "v_cvt_i32_f32", "v_cvt_u32_f32", "v_cvt_i32_f64",
                    "v_cvt_u32_f64", "v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_f64_i32", "v_cvt_f64_u32",
                    "v_cvt_f64_f32", "v_cvt_f32_f64"),
    "packed 16-bit (VOP3P)": ("v_pk_add_u16", "v_pk_sub_u16", "v_pk_add_i16", "v_pk_sub_i16", "v_pk_mul_lo_u16",
                              "v_pk_mad_u16", "v_pk_mad_i16", "v_pk_min_u16", "v_pk_max_u16", "v_pk_min_i16",
                              "v_pk_max_i16", "v_pk_lshlrev_b16", "v_pk_lshrrev_b16", "v_pk_ashrrev_i16",
                              "v_pk_add_f16", "v_pk_mul_f16", "v_pk_fma_f16"),
    "scalar ALU with SCC": ("s_add_u32", "s_sub_u32", "s_add_i32", "s_sub_i32", "s_addc_u32", "s_subb_u32",
                            "s_and_b32", "s_or_b32", "s_xor_b32", "s_nand_b32", "s_nor_b32", "s_xnor_b32",
                            "s_lshl_b32", "s_lshr_b32", "s_ashr_i32", "s_min_i32", "s_max_u32", "s_bfe_u32",
                            "s_mul_hi_u32", "s_mul_i32", "s_cmp_lt_i32", "s_cmp_ge_u32", "s_cmp_eq_u32",
                            "s_bcnt1_i32_b32"),
    "lane select": ("v_cndmask_b32",),
    "VGPR file moves (M0-relative)": ("v_movrels_b32", "v_movreld_b32", "v_movrelsd_b32", "v_movrelsd_2_b32",
                                      "v_swaprel_b32"),
}


def family_of(name: str) -> str | None:
    for fam, names in TESTED_FAMILIES.items():
        if name in names:
            return fam
    return None


@functools.lru_cache(maxsize=None)
def check(arch: str, name: str) -> str | None:
    """None when the instruction's pseudocode parses, compiles and runs; else the reason (cached on disk)."""
    from . import cache

    key = f"check-{arch}-{cache.code_version()}.json"
    known = _disk.get(key)
    if known is None:
        known = _disk[key] = cache.load(key) or {}
    if name in known:
        return known[name]
    reason = _check(arch, name)
    known[name] = reason
    cache.save(key, known)
    return reason


_disk: dict = {}


def _check(arch: str, name: str) -> str | None:
    import numpy as np

    from . import compiler

    if sources.lookup(arch, name) is None:
        return sources.missing_reason(arch)
    try:
        prog = compiler.program(arch, name)
    except compiler.NoSemantics as exc:
        return str(exc)
    from . import wave

    ops = {r: (0x3F800000 + i) & ((1 << prog.widths[r]) - 1) for i, r in enumerate(sorted(prog.inputs))
           if r in wave.REQUIRED}
    if prog.vgpr_file or "SGPR0" in prog.widths:  # register numbers that, plus M0 (0), stay inside the file
        ops.update({r: 1 + i for i, r in enumerate(("SRC0", "DST")) if r in ops})
    try:
        with np.errstate(all="ignore"):
            wave.run(prog, None, wave.default_wave(arch), True, ops)
    except Exception as exc:  # noqa: BLE001 - a crash of the interpreter is a coverage finding, not a user error
        return f"runs into an interpreter error: {type(exc).__name__}: {exc}"
    return None


def fidelity(arch: str, name: str) -> tuple[str, str]:
    """(exact|untested|unsupported, reason)."""
    reason = check(arch, name)
    if reason is not None:
        return "unsupported", reason
    carried = sources.donor(arch, name)
    if carried is not None:  # the donor's fidelity, marked with where it comes from
        level, why = fidelity(*carried)
        return level, f"{sources.inferred_label(arch, name)}; {why}"
    from . import formulations

    own = formulations.fidelity(name)
    if own is not None:
        return own
    from . import matrix

    if matrix.is_matrix(name):
        return matrix.fidelity(arch, name)
    from . import hardware

    hw = hardware.fidelity(name)  # tests/test_semantics_hardware.py checks every one of these
    if hw is not None:
        return hw
    fam = family_of(name)
    if fam is None:
        return "untested", "executes; no property test covers its family yet"
    return "exact", f"executes; checked against an independent reference ({fam})"


def _source_tag() -> str:
    from ..sources import tinygrad as tg

    return f"tinygrad=={tg.TINYGRAD_VERSION}"


@functools.lru_cache(maxsize=1)
def table() -> dict:
    try:
        data = json.loads(TABLE_PATH.read_text())
    except (OSError, ValueError):
        return {}
    if data.get("source") != _source_tag():
        return {}
    rows = data["rows"]
    return {a: {n: rows[i] for n, i in names.items()} for a, names in data["archs"].items()}


def page_fidelity(arch: str, name: str) -> tuple[str, str]:
    """Fidelity for a page without compiling: the precomputed table, else the on-disk check cache."""
    row = table().get(arch, {}).get(name)
    if row is not None:
        return row[0], row[1]
    from . import cache

    known = cache.load(f"check-{arch}-{cache.code_version()}.json") or {}
    if name in known:
        return fidelity(arch, name)
    return "untested", "fidelity not precomputed for this source version; `gpuisa coverage semantics` computes it"


def build_table() -> dict:
    """{"source", "rows": [[fidelity, reason], ...], "archs": {arch: {name: row index}}} (rows shared)."""
    src = sources.default_source()
    rows: list[list[str]] = []
    index: dict[tuple[str, str], int] = {}
    archs: dict[str, dict[str, int]] = {}
    for a in sources.generations():
        archs[a] = {}
        names = set(src.entries(a)) | set(sources.inherited_entries(a))
        for n in sorted(names):
            row = fidelity(a, n)
            archs[a][n] = index.setdefault(row, len(rows))
            if archs[a][n] == len(rows):
                rows.append(list(row))
    return {"source": _source_tag(), "rows": rows, "archs": archs}


if __name__ == "__main__":
    import sys

    data = build_table()
    if "--write" in sys.argv:
        TABLE_PATH.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
        print(f"wrote {TABLE_PATH} ({sum(len(v) for v in data['archs'].values())} instructions)")
    else:
        print(json.dumps(data, indent=1))
