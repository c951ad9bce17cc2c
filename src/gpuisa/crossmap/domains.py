"""Input domains of the cross-vendor relations and the random vectors drawn from them.

A relation names its variables and gives each a domain: ``b32`` (any 32 bits), ``s24``
(a 32-bit register holding a sign-extended 24-bit value), ``u5`` (0..31), ``f32``
(any float32 bit pattern), ``f32.nodenorm`` (no denormal inputs), ``pred`` (0/1) or
``lanebit`` (a per-lane condition that AMD reads as this lane's bit of VCC).  Values
are raw bit patterns (non-negative ints).  Every generator puts the edge values of its
domain first (0, 1, -1, INT_MIN/MAX, all-ones, +-0.0, +-inf, NaNs, denormals, ...),
then random values, so small samples still touch the corners.

A *restricted* domain also has an outside: values of the register type that are not
in the domain, smallest departures first (``s24``: 0x00800000, 0x01000000, ...); the
prover looks there for a counterexample.
"""

from __future__ import annotations

import re

import numpy as np

FLOAT_BITS = {16: (5, 10), 32: (8, 23), 64: (11, 52)}


def _mask(bits: int) -> int:
    return (1 << bits) - 1


def _int_edges(bits: int) -> list[int]:
    m = _mask(bits)
    top = 1 << (bits - 1)
    vals = [0, 1, m, top, top - 1, 2, m - 1, top + 1, 3, 0x55555555 & m, 0xAAAAAAAA & m, 0xFF & m, 0x100 & m,
            0xFFFF & m, 0x10000 & m, 0x7FFF & m, 0x8000 & m, 0x00800000 & m, 0x00FFFFFF & m, 0xFF800000 & m,
            0xFFFFFF00 & m, 31, 32, 33, 63, 64]
    return list(dict.fromkeys(v & m for v in vals))


def _float_edges(bits: int, denormals: bool = True) -> list[int]:
    e, f = FLOAT_BITS[bits]
    sign = 1 << (bits - 1)
    exp_all = _mask(e) << f
    one = (_mask(e - 1)) << f
    pos = [0, exp_all, exp_all | (1 << (f - 1)), exp_all | 1, exp_all | _mask(f), one, one + (1 << f),
           one - (1 << f), one + 1, 1 << f, (exp_all - (1 << f)) | _mask(f), (one + (1 << f)) | (1 << (f - 1))]
    den = [1, _mask(f), 1 << (f - 1), 3]
    out = []
    for v in pos + (den if denormals else []):
        out += [v, v | sign]
    return list(dict.fromkeys(out))


def is_denormal(raw: int, bits: int) -> bool:
    e, f = FLOAT_BITS[bits]
    return ((raw >> f) & _mask(e)) == 0 and (raw & _mask(f)) != 0


def is_snan(raw: int, bits: int) -> bool:
    return is_nan(raw, bits) and not (raw >> (FLOAT_BITS[bits][1] - 1)) & 1


def is_nan(raw: int, bits: int) -> bool:
    e, f = FLOAT_BITS[bits]
    return ((raw >> f) & _mask(e)) == _mask(e) and (raw & _mask(f)) != 0


def _random_floats(rng: np.random.Generator, bits: int, n: int) -> list[int]:
    """Half raw random bit patterns, half ordinary magnitudes (small integers, fractions, wide exponents)."""
    raw = [int(x) for x in rng.integers(0, 1 << bits, size=n // 2, dtype=np.uint64 if bits == 64 else np.int64)]
    mags = rng.choice([1.0, 2.0 ** 10, 2.0 ** -10, 2.0 ** 40, 2.0 ** -40], size=n - len(raw))
    vals = rng.standard_normal(n - len(raw)) * mags
    ints = rng.integers(-300, 300, size=n - len(raw))
    pick = rng.random(n - len(raw)) < 0.25
    vals = np.where(pick, ints.astype(np.float64), vals)
    dt = {16: np.float16, 32: np.float32, 64: np.float64}[bits]
    it = {16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    with np.errstate(all="ignore"):
        conv = vals.astype(dt).view(it)
    return raw + [int(x) for x in conv]


DOMAIN_RE = re.compile(r"^(?:(?P<int>[bsu])(?P<ibits>\d+)(?P<nz>\.nz)?|k(?P<k>[0-9a-f]{1,16})"
                       r"|(?P<flt>f)(?P<fbits>16|32|64)(?P<nd>\.nodenorm)?(?P<ns>\.nosnan)?"
                       r"|(?P<pred>pred|lanebit))$")


class Domain:
    """One variable's domain: ``values(rng, n)`` inside it, ``outside(rng, n)`` just outside (restricted only)."""

    def __init__(self, spec: str, reg_bits: int | None = None):
        self.pair = spec.startswith("f16x2")
        if self.pair:  # two f16 halves in one 32-bit register, each drawn from the f16 domain
            spec = "f16" + spec[5:]
        m = DOMAIN_RE.match(spec)
        if not m:
            raise ValueError(f"unknown domain {spec!r} (allowed: bN/sN/uN, f16/f32/f64[.nodenorm], pred, lanebit)")
        self.spec = spec
        self.kind = "float" if m["flt"] else "pred" if m["pred"] else "const" if m["k"] else "int"
        self.nonzero = bool(m["nz"])
        if self.kind == "const":
            self.const = int(m["k"], 16)
            self.bits = self.reg_bits = 32
        elif self.kind == "int":
            self.bits = int(m["ibits"])
            self.sign = m["int"]
            self.reg_bits = reg_bits or (self.bits if self.bits in (8, 16, 32, 64) else 32)
        elif self.kind == "float":
            self.bits = int(m["fbits"])
            self.nodenorm = bool(m["nd"])
            self.nosnan = bool(m["ns"])
            self.reg_bits = self.bits
        else:
            self.bits = self.reg_bits = 1

    @property
    def restricted(self) -> bool:
        if self.kind == "const":
            return True
        if self.kind == "int":
            return self.bits != self.reg_bits or self.nonzero
        if self.kind == "float":
            return self.nodenorm or self.nosnan
        return self.spec == "lanebit"

    def _int_value(self, v: int) -> int:
        """A value of the narrow domain placed in the register (sign- or zero-extended)."""
        v &= _mask(self.bits)
        if self.sign == "s" and v >> (self.bits - 1):
            v -= 1 << self.bits
        return v & _mask(self.reg_bits)

    def edges(self) -> list[int]:
        if self.pair:
            self.pair = False
            try:
                e = self.edges()
            finally:
                self.pair = True
            return [x | (y << 16) for x, y in zip(e, e[1:] + e[:1])]
        return self._edges()

    def _edges(self) -> list[int]:
        if self.kind == "const":
            return [self.const]
        if self.nonzero:
            return [v for v in _int_edges(self.bits) if v]
        if self.kind == "pred":
            return [0, 1]
        if self.kind == "float":
            return [v for v in _float_edges(self.bits, not self.nodenorm) if not (self.nosnan and is_snan(v, self.bits))]
        if self.bits == self.reg_bits:
            return _int_edges(self.bits)
        top = 1 << (self.bits - 1)
        narrow = [0, 1, _mask(self.bits), 2, 3]
        narrow += [top, top - 1, top + 1] if self.sign == "s" else [top, _mask(self.bits) - 1]
        return list(dict.fromkeys(self._int_value(v) for v in narrow))

    def values(self, rng: np.random.Generator, n: int) -> list[int]:
        if self.pair:
            self.pair = False
            try:
                lo, hi = self.values(rng, n), self.values(rng, n)
            finally:
                self.pair = True
            rng.shuffle(hi)
            return [x | (y << 16) for x, y in zip(lo, hi)]
        edges = self.edges()
        k = max(0, n - len(edges))
        if self.kind == "const":
            return [self.const] * n
        if self.kind == "pred":
            rand = [int(x) for x in rng.integers(0, 2, size=k)]
        elif self.kind == "float":
            rand = _random_floats(rng, self.bits, k)
            if self.nodenorm:
                rand = [0 if is_denormal(v, self.bits) else v for v in rand]
            if self.nosnan:
                rand = [v | (1 << (FLOAT_BITS[self.bits][1] - 1)) if is_snan(v, self.bits) else v for v in rand]
        else:
            wide = rng.integers(0, 1 << min(self.bits, 63), size=k, dtype=np.int64)
            rand = [int(x) for x in wide]
            if self.bits == 64:
                tops = rng.integers(0, 2, size=k)
                rand = [v | (int(h) << 63) for v, h in zip(rand, tops)]
            small = rng.integers(-64, 64, size=k)
            pick = rng.random(k) < 0.2
            rand = [self._int_value(int(s)) if p else self._int_value(v) for v, s, p in zip(rand, small, pick)]
            if self.nonzero:
                rand = [v or 1 for v in rand]
        return (edges + rand)[:n]

    def outside(self, rng: np.random.Generator, n: int) -> list[int]:
        """Values of the register type outside the domain, the smallest departures first."""
        if self.pair:
            self.pair = False
            try:
                bad, good = self.outside(rng, n), self.values(rng, n)
            finally:
                self.pair = True
            return [(b << 16 | g) if i % 2 else (g << 16 | b) for i, (b, g) in enumerate(zip(bad, good))]
        if self.kind == "float" and self.nosnan:
            e, f = FLOAT_BITS[self.bits]
            sign = 1 << (self.bits - 1)
            base = [(_mask(e) << f) | 1, (_mask(e) << f) | 1 | sign, (_mask(e) << f) | _mask(f - 1)]
            rand = [(_mask(e) << f) | int(x) | (sign if rng.random() < 0.5 else 0)
                    for x in rng.integers(1, 1 << (f - 1), size=n)]
            return (base + rand)[:n]
        if self.kind == "float":
            e, f = FLOAT_BITS[self.bits]
            sign = 1 << (self.bits - 1)
            base = [1, 2, 3, 1 << (f - 1), _mask(f), 1 | sign, _mask(f) | sign]
            rand = [int(x) | (sign if rng.random() < 0.5 else 0) for x in rng.integers(1, 1 << f, size=n)]
            return (base + rand)[:n]
        if self.kind == "pred":
            return [0, 1] * (n // 2)
        if self.nonzero:
            return [0] * n
        if self.kind == "const":
            vals = _int_edges(32) + [int(x) for x in rng.integers(0, 1 << 32, size=n, dtype=np.int64)]
            return [v for v in vals if v != self.const][:n]
        regm = _mask(self.reg_bits)
        if self.sign == "s":
            base = [1 << (self.bits - 1), 1 << self.bits, (~(1 << (self.bits - 1))) & regm, 1 << (self.reg_bits - 1),
                    (1 << (self.reg_bits - 1)) - 1, ((1 << self.bits) | 1), regm ^ (1 << self.bits)]
        else:
            base = [1 << self.bits, (1 << self.bits) + 1, regm, 1 << (self.reg_bits - 1), ((1 << self.bits) | 3),
                    (1 << (self.bits + 1)) - 1]
        rand = []
        for x in rng.integers(0, 1 << min(self.reg_bits, 63), size=n, dtype=np.int64):
            v = int(x) & regm
            if self._int_value(v) == v:
                v ^= 1 << (self.reg_bits - 1)
            rand.append(v)
        return [v for v in base + rand if self._int_value(v) != v][:n]


def floats_close(a: int, b: int, bits: int, ulps: float) -> bool:
    """Two float bit patterns within ``ulps`` units in the last place (NaN matches NaN; inf only itself)."""
    if is_nan(a, bits) or is_nan(b, bits):
        return is_nan(a, bits) and is_nan(b, bits)
    return abs(_ordered(a, bits) - _ordered(b, bits)) <= ulps


def _ordered(raw: int, bits: int) -> int:
    """Float bits -> an integer that orders like the value (adjacent floats differ by 1)."""
    sign = 1 << (bits - 1)
    return -(raw & (sign - 1)) if raw & sign else raw
