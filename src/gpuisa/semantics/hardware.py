"""Hardware formulations: instructions whose pseudocode, run literally, gives another result
than the hardware.

The manuals' pseudocode describes some instructions by a recipe that is right for most
inputs but not all: rounding to nearest even as ``floor(x + 0.5)`` computed in the format's
own precision (wrong where ``x + 0.5`` rounds), ``fract`` without its clamp below 1.0, an
f16 ``ldexp`` whose scale is made an f16 first (overflowing at 2**16), ``sin``/``cos``
multiplying by 2*pi before reducing, exponents of zeros and denormals read from the raw
exponent field, a ``div_scale`` that leaves D0 unwritten when nothing is scaled.  For these
the evaluator runs the formulation written here instead (the compiled pseudocode stays
available as ``Program.reference_fn``) and the fidelity report says why (``reason``).
tests/test_semantics_hardware.py checks each against values computed independently.
"""

from __future__ import annotations

import re

import numpy as np

from . import floats, runtime as rt
from .types import Ty

_MANT = {16: 10, 32: 23, 64: 52}


def _f(R, reg: str, w: int):
    """Register ``reg`` read as a float of w bits."""
    return floats.from_bits(rt.view_u(np.asarray(R[reg]), w), "f", w)


def _store(R, _m, bits, w: int):
    """D0's low w bits replaced by ``bits`` in the active lanes."""
    old = R["D0"]
    R["D0"] = rt.merge(_m, rt.setbits(old, 0, w, np.asarray(bits, dtype=np.int64)), old)
    return R


def _float_out(R, _m, y, w: int):
    y = rt.quiet(np.asarray(y).astype(floats.dtype("f", w)), Ty("f", w))
    return _store(R, _m, floats.to_bits(y, "f", w), w)


def _rndne(w: int):
    def run(R, _m, C):
        return _float_out(R, _m, np.rint(_f(R, "S0", w)), w)  # exact round half to even; keeps -0
    return run


def _round_half_up_i32(R, _m, C):
    x = _f(R, "S0", 32).astype(np.float64)  # x + 0.5 is exact in binary64 for every f32 x
    return _store(R, _m, rt.f_to_int(np.floor(x + 0.5), Ty("f", 64), 32, True), 32)


def _fract(w: int):
    def run(R, _m, C):
        x = _f(R, "S0", w)
        y = x - np.floor(x)  # one rounding in the format (f16: exact in numpy's f32 step, then rounded)
        below_one = np.nextafter(np.array(1.0, dtype=x.dtype), np.array(0.0, dtype=x.dtype))
        return _float_out(R, _m, np.where(np.isfinite(y) & (y >= 1), below_one, y), w)
    return run


def _ldexp_f16(R, _m, C):
    n = rt.view_i(np.asarray(R["S1"]), 16)
    return _float_out(R, _m, rt.ldexp(_f(R, "S0", 16), n, Ty("f", 16)), 16)


def _frexp_exp(w: int, out: int):
    def run(R, _m, C):
        _, e = np.frexp(_f(R, "S0", w).astype(np.float64))  # 0 for zeros, infinities and NaN
        return _store(R, _m, e.astype(np.int64), out)
    return run


def _trig(cos: bool, w: int):
    """sin/cos of x turns: x mod 1 (exact), then as half turns u = 2(x mod 1) split exactly into k
    quarter turns plus |f| <= 1/4, so that multiples of a quarter turn give exact zeros and ones."""
    def run(R, _m, C):
        x = _f(R, "S0", w).astype(np.float64)
        u = 2 * np.fmod(x, 1.0)
        k = np.rint(2 * u)
        f = np.pi * (u - k / 2)  # u - k/2 is exact
        q = (np.nan_to_num(k).astype(np.int64) + (1 if cos else 0)) & 3
        y = np.choose(q, [np.sin(f), np.cos(f), -np.sin(f), -np.cos(f)])
        y = np.where(y == 0, np.copysign(0.0, 1.0 if cos else x), y)  # zeros: sin keeps x's sign, cos gives +0
        return _float_out(R, _m, floats.convert(y, ("f", 64), ("f", w)), w)
    return run


def _div_scale(reference):
    def run(R, _m, C):
        R["D0"] = rt.merge(_m, np.array(R["S0"], copy=True), R["D0"])  # the result is S0 unless scaled
        return reference(R, _m, C)
    return run


_WHY_RNDNE = ("AMD's pseudocode computes floor(x+0.5) in working precision; the hardware rounds half to even "
              "exactly (x+0.5 may round up, and -0.5 <= x <= -0 must give -0)")
_WHY_NEAREST = ("AMD's pseudocode computes floor(x+0.5) in working precision, where x+0.5 may round up; "
                "the hardware adds 0.5 exactly before taking the floor")
_WHY_FRACT = ("AMD's pseudocode computes x - floor(x), which rounds to 1.0 for tiny negative x; the hardware "
              "clamps the result to the largest value below 1.0")
_WHY_LDEXP16 = ("AMD's pseudocode converts 2**S1 to f16 before the multiply, so a scale of 2**16 or more "
                "overflows (and 0 * inf gives NaN); the hardware scales exactly and rounds once")
_WHY_FREXP = ("AMD's pseudocode reads the raw exponent field, wrong for zeros (must give 0) and denormals "
              "(must give their true exponent, as v_frexp_mant does); the hardware gives frexp's exponent")
_WHY_TRIG = ("AMD's pseudocode multiplies by 2*pi before reducing, losing accuracy for large |x|; the input "
             "counts turns, so the hardware reduction x mod 1 is exact")
_WHY_DIV_SCALE = ("AMD's pseudocode leaves D0 unwritten where no operand needs scaling; the hardware then "
                  "writes S0 unchanged")

# name pattern -> (builder(match, reference_fn) -> fn, reason)
_RULES: list[tuple[re.Pattern, object, str]] = [
    (re.compile(r"^[vs]_rndne_f(16|32|64)$"), lambda m, ref: _rndne(int(m.group(1))), _WHY_RNDNE),
    (re.compile(r"^v_cvt_(nearest|rpi)_i32_f32$"), lambda m, ref: _round_half_up_i32, _WHY_NEAREST),
    (re.compile(r"^v_fract_f(16|32|64)$"), lambda m, ref: _fract(int(m.group(1))), _WHY_FRACT),
    (re.compile(r"^v_ldexp_f16$"), lambda m, ref: _ldexp_f16, _WHY_LDEXP16),
    (re.compile(r"^v_frexp_exp_i(16|32)_f(16|32|64)$"),
     lambda m, ref: _frexp_exp(int(m.group(2)), int(m.group(1))), _WHY_FREXP),
    (re.compile(r"^v_(sin|cos)_f(16|32)$"),
     lambda m, ref: _trig(m.group(1) == "cos", int(m.group(2))), _WHY_TRIG),
    (re.compile(r"^v_div_scale_f(32|64)$"), lambda m, ref: _div_scale(ref), _WHY_DIV_SCALE),
]


def _rule(name: str):
    for pat, build, why in _RULES:
        m = pat.match(name)
        if m:
            return m, build, why
    return None


APPROXIMATE = re.compile(r"^v_(sin|cos)_f")  # the hardware approximates these; not modelled bit for bit


def reason(name: str) -> str | None:
    """Why ``name`` runs a hardware formulation instead of its pseudocode (None: it runs the pseudocode)."""
    r = _rule(name)
    return r[2] if r else None


def fidelity(name: str) -> tuple[str, str] | None:
    """(exact|untested, reason) for an instruction that runs a hardware formulation, else None."""
    why = reason(name)
    if why is None:
        return None
    head = f"executes the project's formulation of the hardware result, not the pseudocode run literally: {why}"
    if APPROXIMATE.match(name):
        return "untested", f"{head}; the hardware's own approximation is not modelled bit for bit"
    return "exact", f"{head}; checked against an independent reference"


def attach(prog) -> bool:
    """Run the hardware formulation of ``prog`` where one is listed here (pseudocode kept as reference_fn)."""
    r = _rule(prog.name)
    if r is None:
        return False
    m, build, _ = r
    prog.reference_fn = prog.fn
    prog.fn = build(m, prog.reference_fn)
    return True
