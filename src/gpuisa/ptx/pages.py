"""The Semantics section of PTX instruction pages (``page.ptx`` builds it into the page).

For a PTX page whose instruction has executable semantics (``semantics.COVERED``),
ptx_semantics(name, category) = {"source", "fidelity", "reason", "pseudocode": None, "description"}, where
the description is the project's own short formulation of what the instruction computes.
Value-computing instructions without semantics get fidelity "unsupported" with the reason.
"""

from __future__ import annotations

SOURCE = "gpuisa PTX semantics (project's own formulation)"
APPROXIMATE = {"sin", "cos", "lg2", "ex2", "tanh", "rsqrt", "rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64"}
HAS_APPROX_FORMS = {"div", "rcp", "sqrt"}
ROUNDED = "rounded once with .rn (default), .rz, .rm or .rp; .ftz flushes subnormals; .sat clamps to [0, 1]"

DESCRIPTIONS = {
    "add": "Integer: wrap-around sum (signed .sat clamps to 32-bit range). Float: exact sum " + ROUNDED + ".",
    "sub": "Integer: wrap-around difference. Float: exact difference " + ROUNDED + ".",
    "mul": "Integer: the low, high or full (.wide) part of the exact product. Float: exact product " + ROUNDED + ".",
    "mad": "Integer: product part plus c. Float: fused a*b+c rounded once.",
    "fma": "a*b+c computed exactly and " + ROUNDED + ".",
    "div": "Integer: quotient truncated toward zero. Float: .rn/.rz/.rm/.rp give the correctly rounded quotient; "
           ".approx and .full are within a stated ulp bound of it.",
    "rem": "Integer remainder with the sign of the dividend (a - trunc(a/b)*b).",
    "min": "The smaller operand; for floats a single NaN is ignored, -0 orders below +0, .NaN propagates NaN.",
    "max": "The larger operand; for floats a single NaN is ignored, +0 orders above -0, .NaN propagates NaN.",
    "abs": "Magnitude: integer absolute value (wraps at the minimum), float sign bit cleared.",
    "neg": "Negation: integer two's complement, float sign bit flipped.",
    "rcp": "1/x correctly rounded in the chosen mode; the .approx form is within 1 ulp.",
    "sqrt": "Square root correctly rounded in the chosen mode (negative non-zero inputs give NaN); .approx is "
            "within a stated relative error.",
    "rsqrt": "1/sqrt(x), approximate within a stated relative error.",
    "rcp.approx.ftz.f64": "Approximate double-precision reciprocal with subnormals flushed.",
    "rsqrt.approx.ftz.f64": "Approximate double-precision 1/sqrt(x) with subnormals flushed.",
    "copysign": "The magnitude of b with the sign of a.",
    "sin": "Approximate sine of a radian angle.",
    "cos": "Approximate cosine of a radian angle.",
    "lg2": "Approximate base-2 logarithm.",
    "ex2": "Approximate 2 raised to x.",
    "tanh": "Approximate hyperbolic tangent.",
    "testp": "1 when a float is of the tested class (finite, infinite, number, NaN, normal, subnormal).",
    "setp": "Compares a with b (ordered operators are false on NaN, unordered ones true), optionally combines "
            "with predicate c; writes p and, with p|q, the complement-based q.",
    "set": "Like setp but writes all ones (integer) or 1.0 (f32) for true and 0 for false.",
    "selp": "a when predicate c is true, else b.",
    "slct": "a when c >= 0 (signed integer or float), else b.",
    "cvt": "Converts between integer and float types: integers truncate or (.sat) clamp; float to integer rounds "
           "with .rni/.rzi/.rmi/.rpi, clamps and maps NaN to 0; to a float rounds once with the chosen mode, "
           "with .relu/.satfinite/.sat where given.",
    "add.cc": "Sum with the carry-out written to the condition code.",
    "addc": "Sum plus the incoming carry; with .cc also writes the carry-out.",
    "sub.cc": "Difference with the borrow-out written to the condition code.",
    "subc": "Difference minus the incoming borrow; with .cc also writes the borrow-out.",
    "mad.cc": "Low or high product half plus c, with the carry-out written to the condition code.",
    "madc": "Low or high product half plus c plus the incoming carry; .cc writes the carry-out.",
    "fns": "Bit position of the n-th set bit of mask counting up (n > 0) or down (n < 0) from base; "
           "all ones when there is none.",
    "vmad": "Product of selected bytes/halves plus c in a wide intermediate: the product or c may be negated, "
            ".po adds one, then an optional right shift by 7 or 15 and saturation.",
}


def _description(name: str) -> str:
    if name in DESCRIPTIONS:
        return DESCRIPTIONS[name]
    if name.startswith("v"):
        return "Video instruction: selected bytes/halves are widened, combined, optionally saturated and merged."
    return "Integer/bit operation on raw register values, evaluated bit-exactly."


def ptx_semantics(name: str, category: str) -> dict | None:
    """The Semantics section of a PTX page (the JSON of ``page.model.Semantics``), or None for an
    instruction that computes no value (loads, barriers...)."""
    from .semantics import COVERED, VALUE_CATEGORIES, VALUE_INSTRUCTIONS

    if name in COVERED:
        fidelity = "approximate" if name in APPROXIMATE else "exact"
        reason = ("evaluated as the correctly rounded real function; hardware may differ within the stated bound"
                  if fidelity == "approximate" else "bit-exact evaluation by gpuisa.ptx.semantics.evaluate_ptx")
        if name in HAS_APPROX_FORMS:
            reason += "; its .approx/.full forms are approximate"
        return {"source": SOURCE, "fidelity": fidelity, "reason": reason, "pseudocode": None,
                "description": _description(name)}
    if category in VALUE_CATEGORIES or name in VALUE_INSTRUCTIONS:
        return {"source": SOURCE, "fidelity": "unsupported", "pseudocode": None, "description": None,
                "reason": "no executable semantics for this instruction yet"}
    return None
