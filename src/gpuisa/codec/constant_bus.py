"""The constant bus limit of GFX9 and later (``Features.constant_bus``), as llvm-mc-22 enforces it.

Probed with llvm-mc-22 (gfx908, gfx942, gfx950, gfx1010, gfx1030, gfx1100, gfx1200, gfx1250) on lines of our own;
the checks are in ``tests/test_codec_constant_bus.py`` and ``tests/test_codec_mc_classes_lanes.py``:

* a VOP3 or VOP3P instruction reads at most ``constant_bus`` (2) scalar values through its sources: each distinct
  SGPR or special scalar register counts once (``null`` not at all) (``s3, s3`` is one value; ``s2`` and ``s[2:3]`` are two), inline
  constants and VGPRs do not count, a literal counts once per operand size it is read at (a 32-bit and a 64-bit
  operand with the same literal are two values);
* ``v_div_fmas_*`` reads VCC besides its sources: one value more, whatever the sources name (``vcc_lo`` too);
* GFX9 (one value): M0 as the lane select of ``v_writelane_b32`` does not count (``v_writelane_b32 v1, s7, m0``);
* the 64-bit shifts (``v_lshlrev_b64``, ``v_lshrrev_b64``, ``v_ashrrev_i64``) read at most
  ``constant_bus_shift64`` values (1 before gfx1250), ``v_lshlrev_b64`` one on gfx1250 too.

Written destinations (the SGPR carry out of ``v_mad_u64_u32``) do not count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .encoded import EncodeError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .plans import OperandPlan

_SHIFT64 = ("v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64")
_IMPLICIT_VCC = ("v_div_fmas_f32", "v_div_fmas_f64")
_LITERAL = 255


def _scalar(v: int, null: int) -> bool:
    """A source value that reads a scalar register: SGPRs, vcc, ttmp, m0, exec, the apertures, scc (not null)."""
    return (v < 128 and v != null) or 235 <= v <= 239 or 251 <= v <= 253


def check(features, name: str, encoding: str, specs: Sequence[OperandPlan], values: dict[str, int]) -> None:
    """EncodeError where the instruction reads more scalar values than the target's constant bus carries."""
    if not features.constant_bus or not encoding.startswith("VOP3") or "DPP" in encoding:
        return
    base = name.removesuffix("_e64")
    # (gfx1250: v_lshlrev_b64 still reads one, v_lshrrev_b64/v_ashrrev_i64 two)
    limit = 1 if base == "v_lshlrev_b64" else features.constant_bus_shift64 if base in _SHIFT64 else features.constant_bus
    used: set[tuple] = {("vcc",)} if base in _IMPLICIT_VCC else set()
    # (null reads nothing: 0x7d on GFX10, 0x7c later; GFX9 has none, 0x7c is M0 there)
    null = {"GFX9": -1, "GFX10": 125}.get(features.encoding_family, 124)
    for spec in specs:
        if spec.kind != "src" or not spec.field or spec.field not in values:
            continue
        v = values[spec.field]
        if limit == 1 and base == "v_writelane_b32" and spec.field == "SRC1" and v == 124:
            continue  # (GFX9: an M0 lane select is no constant-bus read)
        if v == _LITERAL:
            used.add(("lit", spec.count))
        elif _scalar(v, null):
            used.add(("reg", v, spec.count))
    if len(used) > limit:
        raise EncodeError(f"{name} reads {len(used)} scalar values (SGPRs, literals"
                          f"{', the implicit VCC' if base in _IMPLICIT_VCC else ''}); the constant bus carries {limit}")
