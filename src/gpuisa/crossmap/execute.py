"""Run one relation's two sides on the same input vectors and compare the results.

The AMD side runs on ``gpuisa.semantics`` (the compiled vendor pseudocode): a vector
instruction whose lanes are independent runs all vectors of a batch as the lanes of
one wide wave (thousands of vectors per call; the first 64 are re-run on an ordinary
wave64 through ``gpuisa.evaluate`` and must agree, so the wide wave cannot drift from
the public entry point); an instruction that reads or writes lane masks (VCC, compare
results) runs in wave64 batches through ``gpuisa.evaluate``; a scalar instruction runs
once per vector.  The PTX side runs ``gpuisa.evaluate_ptx`` once per vector (each
instruction of a sequence in turn, outputs feeding later inputs).

A relation's ``check`` block says how: ``vars`` (name -> domain, see domains.py),
``amd`` (AMD operand -> variable name or integer constant), ``ptx`` (instruction texts),
``out`` (list of [AMD register, PTX name, bits, comparison]); a comparison is ``exact``,
``float`` (bits equal, or both NaN) or ``ulp:N``.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .domains import floats_close, is_denormal, is_nan

WIDE = 4096
EXECUTABLE_ARCHS = ("rdna3.5", "rdna4", "cdna4")


class NotExecutable(RuntimeError):
    """A side of the relation has no executable semantics (message says which)."""


@functools.lru_cache(maxsize=None)
def _program(arch: str, name: str):
    from ..semantics import compiler, sources

    if sources.lookup(arch, name) is None:
        raise NotExecutable(f"{name} has no pseudocode for {arch}")
    try:
        return compiler.program(arch, name)
    except compiler.NoSemantics as exc:
        raise NotExecutable(f"{name} cannot be executed on {arch}: {exc}") from None


def amd_executable(arch: str, name: str) -> bool:
    try:
        _program(arch, name)
        return True
    except NotExecutable:
        return False


def _operands(bind: dict, cols: dict, lo: int, hi: int, lanebits: set, lanebit_mode: str) -> dict:
    ops: dict[str, int | list[int]] = {}
    for reg, src in bind.items():
        if isinstance(src, int):
            ops[reg] = src
        elif src in lanebits:
            bits = cols[src][lo:hi]
            if lanebit_mode == "lane":
                ops[reg] = sum(b << i for i, b in enumerate(bits))
            else:  # the predicate handed over as one wave-wide value (what the restriction forbids)
                ops[reg] = bits[0]
        else:
            ops[reg] = list(cols[src][lo:hi])
    return ops


def run_amd(arch: str, name: str, bind: dict, cols: dict, n: int, out_regs: list[str], lanebits: set,
            lanebit_mode: str = "lane") -> dict[str, list[int]]:
    """AMD results: {register: [value per vector]}; lane-mask registers give this lane's bit."""
    from ..semantics import wave

    prog = _program(arch, name)
    res: dict[str, list[int]] = {r: [] for r in out_regs}
    if prog.scalar:
        for i in range(n):
            ops = {r: (s if isinstance(s, int) else cols[s][i]) for r, s in bind.items()}
            out = wave.run(prog, None, 32, True, ops)["outputs"]
            for r in out_regs:
                res[r].append(out[r][0])
        return res
    masks = set(prog.lane_masks) | {"VCC", "EXEC", "SCC"}
    chunked = bool(lanebits & set(bind.values())) or bool(set(out_regs) & masks) or "VCC" in prog.inputs \
        or prog.wave_level
    step = 64 if chunked else WIDE
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        ops = _operands(bind, cols, lo, hi, lanebits, lanebit_mode)
        if chunked:
            out = wave.run(prog, hi - lo, 64, True, ops)["outputs"]
        else:
            out = wave.run(prog, hi - lo, max(64, hi - lo), True, ops)["outputs"]
            if lo == 0:
                _same_as_wave64(arch, name, bind, cols, lanebits, out, out_regs)
        for r in out_regs:
            vals = out[r]
            if r in prog.lane_masks or (r in masks and len(vals) == 1):
                word = vals[0]
                res[r].extend((word >> i) & 1 for i in range(hi - lo))
            else:
                res[r].extend(vals)
    return res


def _same_as_wave64(arch, name, bind, cols, lanebits, wide_out, out_regs) -> None:
    import gpuisa

    k = min(64, len(next(iter(cols.values()))))
    ops = _operands(bind, cols, 0, k, lanebits, "lane")
    ref = gpuisa.evaluate(arch, name, lanes=k, wave=64, **ops)["outputs"]
    for r in out_regs:
        if list(ref[r][:k]) != list(wide_out[r][:k]):
            raise RuntimeError(f"{name} on {arch}: the wide-wave run differs from gpuisa.evaluate on wave64")


def run_ptx(texts: list[str], cols: dict, n: int, out_names: list[str]) -> dict[str, list[int]]:
    import gpuisa

    from ..ptx.semantics import UnsupportedInstruction

    res: dict[str, list[int]] = {o: [] for o in out_names}
    names = list(cols)
    for i in range(n):
        env = {k: cols[k][i] for k in names}
        for t in texts:
            try:
                env.update(gpuisa.evaluate_ptx(t, env)["outputs"])
            except UnsupportedInstruction as exc:
                raise NotExecutable(f"PTX {t!r}: {exc}") from None
        for o in out_names:
            res[o].append(env[o])
    return res


def _signed(v: int, bits: int) -> int:
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def outputs_agree(x: int, y: int, bits: int, cmp: str) -> bool:
    m = (1 << bits) - 1
    x, y = int(x) & m, int(y) & m
    if cmp.endswith("+ftz"):  # denormal results count as zero of the same sign (PTX .ftz)
        sign = 1 << (bits - 1)
        x, y = [v & sign if is_denormal(v, bits) else v for v in (x, y)]
        cmp = cmp[:-4]
    if cmp == "exact":
        return x == y
    if cmp == "float":
        return x == y or (is_nan(x, bits) and is_nan(y, bits))
    if cmp == "value":  # same value: NaN matches NaN, +0 matches -0
        z = (1 << (bits - 1)) - 1
        return outputs_agree(x, y, bits, "float") or (x & z == 0 and y & z == 0)
    if cmp.startswith("within:"):  # integers at most N apart
        return abs(_signed(x, bits) - _signed(y, bits)) <= int(cmp[7:])
    if cmp == "f16x2":
        return all(outputs_agree(x >> k, y >> k, 16, "float") for k in (0, 16))
    if cmp.startswith("ulp:"):
        return floats_close(x, y, bits, float(cmp[4:]))
    raise ValueError(f"unknown comparison {cmp!r}")


def compare(check: dict, arch: str, amd_name: str, cols: dict, n: int, lanebit_mode: str = "lane") -> list[int]:
    """Indices of the vectors on which the two sides disagree."""
    lanebits = {v for v, d in check["vars"].items() if d == "lanebit"}
    out = check["out"]
    amd = run_amd(arch, amd_name, check["amd"], cols, n, [o[0] for o in out], lanebits, lanebit_mode)
    ptx = run_ptx(check["ptx"], cols, n, [o[1] for o in out])
    bad = []
    for i in range(n):
        for reg, pname, bits, cmp in out:
            if not outputs_agree(amd[reg][i], ptx[pname][i], bits, cmp):
                bad.append(i)
                break
    return bad


def sides(check: dict, arch: str, amd_name: str, cols: dict, i: int, lanebit_mode: str = "lane") -> dict:
    """Both sides' outputs for vector i (for a readable counterexample)."""
    lanebits = {v for v, d in check["vars"].items() if d == "lanebit"}
    out = check["out"]
    lo = i - i % 64 if lanebits else i
    sub = {k: v[lo:i + 1] for k, v in cols.items()}
    amd = run_amd(arch, amd_name, check["amd"], sub, i + 1 - lo, [o[0] for o in out], lanebits, lanebit_mode)
    one = {k: [v[i]] for k, v in cols.items()}
    ptx = run_ptx(check["ptx"], one, 1, [o[1] for o in out])
    m = lambda bits: (1 << bits) - 1  # noqa: E731
    return {"amd": {o[0]: hex(int(amd[o[0]][-1]) & m(o[2])) for o in out},
            "ptx": {o[1]: hex(int(ptx[o[1]][0]) & m(o[2])) for o in out}}


def columns(rng: np.random.Generator, domains: dict, n: int) -> dict[str, list[int]]:
    """n vectors: first every combination of the variables' edge values (or, when there are too many,
    a random quarter of them), then random values of each domain (which again start with the edges)."""
    names = list(domains)
    edges = [domains[v].edges() for v in names]
    total = 1
    for e in edges:
        total *= len(e)
    if total <= n // 2:
        block = list(itertools.product(*edges))
    else:
        block = [tuple(e[int(rng.integers(len(e)))] for e in edges) for _ in range(n // 4)]
    rest = n - len(block)
    cols = {v: [row[k] for row in block] + domains[v].values(rng, rest) for k, v in enumerate(names)}
    return cols
