"""Which scalar ``cvt`` conversions ptxas 13 accepts, with which rounding, ``.ftz`` and ``.sat``
(measured on sm_80 and sm_90, PTX ISA 7.1/7.8/8.3: every pair of the twelve scalar types with
every rounding and ``.ftz``/``.sat``; the answers do not depend on the target beyond ``.bf16``'s).

* to an integer from a float an integer rounding (``.rni``…) is needed; to a float from an integer,
  or to a narrower float, a floating-point rounding (``.rn``…); between integers, and to a wider
  float, none; between equal float types none or an integer rounding;
* ``.ftz`` only when ``.f32`` is one of the two types;
* ``.sat`` not between integers when the destination holds every source value (``.u32.u16``,
  ``.s32.u16``, ``.s16.s16``), nor with ``.bf16``;
* ``.bf16`` never with 8-bit integers; ``.f32`` from ``.bf16`` (without ``.ftz``) and ``.bf16`` from
  ``.f32`` need sm_80 and PTX ISA 7.1 (the catalog's requirement), every other ``.bf16`` conversion
  sm_90 and 7.8.

The catalog's pairwise measurements of the general ``cvt`` forms miss combinations ptxas accepts
(``cvt.ftz.f64.f32`` under ``--use_fast_math``, ``cvt.rzi.u16.bf16`` on sm_90) and accept some it
refuses (``cvt.sat.u32.u16``, ``cvt.rn.f32.f16``), so this rule replaces them (``exempt``) — except
``.rn``/``.rz`` ``.bf16`` from ``.f32`` without ``.ftz``, which the catalog's own sm_80 form judges
(the general forms' sm_90 requirement of a ``.bf16`` destination is the source's sm_80 one:
``corrections``; the sm_90 conversions are asked for here).
"""

INTS = {".u8", ".u16", ".u32", ".u64", ".s8", ".s16", ".s32", ".s64"}
FLOATS = {".f16", ".bf16", ".f32", ".f64"}
WIDTH = {".f16": 16, ".bf16": 16, ".f32": 32, ".f64": 64}


def exempt(bind: dict) -> bool:
    """Whether this cvt is judged here rather than by the catalog's measured pairs."""
    d, a = bind.get(".dtype"), bind.get(".atype")
    if d is None or a is None:
        return False
    if (d, a) == (".bf16", ".f32"):
        return bool(bind.get(".ftz")) or bind.get(".frnd") in (".rm", ".rp")
    return True


def _int_bits(t: str) -> int:
    return int(t[2:])


def _holds(d: str, a: str) -> bool:
    """Whether integer type d holds every value of integer type a."""
    if d[1] == a[1]:
        return _int_bits(d) >= _int_bits(a)
    return d[1] == "s" and _int_bits(d) > _int_bits(a)


def _rounding(d: str, a: str, irnd: bool, frnd: bool) -> str | None:
    if d in INTS and a in INTS:
        need = "none"
    elif d in INTS:
        need = "integer"
    elif a in INTS or WIDTH[d] < WIDTH[a]:
        need = "float"
    elif d == a:
        need = "none or integer"
    else:
        need = "none"  # a wider float (or .f16 <-> .bf16: none or a float rounding)
        if {d, a} == {".f16", ".bf16"} or (a == ".bf16" and d in (".f32", ".f64")):
            need = "none or float"
    ok = {"none": not irnd and not frnd, "integer": irnd, "float": frnd, "none or integer": not frnd,
          "none or float": not irnd}[need]
    if ok:
        return None
    shown = {"none": "takes no rounding modifier", "integer": "needs an integer rounding (.rni, .rzi, .rmi, .rpi)",
             "float": "needs a floating-point rounding (.rn, .rz, .rm, .rp)",
             "none or integer": "takes no rounding or an integer rounding (.rni, .rzi, .rmi, .rpi)",
             "none or float": "takes no rounding or a floating-point rounding (.rn, .rz, .rm, .rp)"}[need]
    return f"cvt{d}{a} {shown}"


def error(bind: dict, target: str | None, version: str | None, sm, vkey) -> str | None:
    """The error ptxas gives this scalar cvt, or None (``.bf16``'s target and version rule included)."""
    d, a = bind.get(".dtype"), bind.get(".atype")
    if d is None or a is None:
        return None
    bf16 = ".bf16" in (d, a)
    other = a if d == ".bf16" else d
    if bf16 and other in (".u8", ".s8"):
        return "cvt: `.bf16` does not convert to or from 8-bit integers"
    ftz, sat = bool(bind.get(".ftz")), bool(bind.get(".sat"))
    if ftz and ".f32" not in (d, a):
        return f"cvt{d}{a}: `.ftz` applies only when one of the types is .f32"
    if sat and (bf16 or (d in INTS and a in INTS and _holds(d, a))):
        return f"cvt{d}{a}: `.sat` does not apply (every source value fits the destination)" if not bf16 \
            else "cvt: `.sat` does not apply to a `.bf16` conversion"
    err = _rounding(d, a, ".irnd" in bind, ".frnd" in bind)
    if err or not bf16 or (other == ".f32" and not (ftz and d == ".f32")):
        return err  # (.f32 <-> .bf16: sm_80 / 7.1, the catalog's requirement)
    feature = f"cvt{d}{a}{'.ftz' if ftz else ''}"
    if target and sm(target) < 90:
        return f"{feature} needs sm_90 or newer (got {target})"
    if version and vkey(version) < (7, 8):
        return f"{feature} needs PTX ISA .version 7.8 or later (got {version})"
    return None
