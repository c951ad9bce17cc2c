"""The wave model: run one instruction's compiled pseudocode on a simulated wave.

A vector (VALU) instruction runs on every lane of a wave32 or wave64 at once: each
per-lane register (S0, S1, S2, D0, ...) is an array with one value per lane, EXEC
selects the active lanes, and only active lanes write.  Wave-wide registers (VCC,
EXEC, SCC, M0, SGPR operands) hold one value; a compare or carry-out writes one bit
per active lane into VCC/EXEC/SDST and zero for inactive lanes.  A scalar (SALU)
instruction runs once.  V_MOVREL* address the VGPR file by a register number plus M0:
for them the file is given as operands V0..V255 (one value or one per lane), SRC0/DST
are the operands' VGPR numbers, and each VGPR written comes back as an output ``V<n>``.

``evaluate(arch, name, lanes=..., **operands)`` is the public entry point.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

import numpy as np

from .. import archs
from . import compiler, floats, registers, sources
from .compiled import EvalError
from .types import Ty

SCALAR_REGS = {"VCC", "EXEC", "SCC", "M0", "SIMM16", "SIMM32", "PC", "SRC0", "DST"} | set(compiler.MODIFIERS)
REQUIRED = ("S0", "S1", "S2", "S3", "SIMM16", "SIMM32", "VCC", "SCC", "SRC0", "DST")
VGPR_NAME = re.compile(r"^V(\d{1,3})$")  # a VGPR of the register file (V_MOVREL*): V0 .. V255
SGPR_NAME = re.compile(r"^SGPR\d{1,3}$")  # an SGPR of the register file (S_MOVREL*, see formulations)


@dataclass
class Context:
    L: int
    wave: int
    arch: str
    ieee: bool = True
    round_mode: int = floats.RNE
    state: dict = field(default_factory=dict)
    vgpr_written: set = field(default_factory=set)  # rows of R['VGPR'] written (V_MOVRELD and kin)

    def __post_init__(self):
        self.lane = np.arange(self.L, dtype=np.int64)
        self.lane_bit = np.left_shift(np.int64(1), self.lane)  # the lane's own bit (lane 63: the sign bit)
        self.lane_keep = ~self.lane_bit  # every bit but the lane's own
        self.w32 = self.wave == 32

    def call(self, name: str, args: list) -> np.ndarray:
        fn, zeros = _callee_setup(self.arch, name)
        regs = {r: np.zeros(self.L, dtype=dt) for r, dt in zeros}
        for r, a in zip(("S0", "S1", "S2"), args):
            regs[r] = np.asarray(a)
        fn(regs, None, self)
        return regs["D0"] if "D0" in regs else np.zeros(self.L, dtype=np.int64)

    def call_many(self, name: str, arglists: list) -> list:
        """``call`` for several argument lists; one run on their lanes side by side where the
        callee is lane-independent (see ``callbatch``), else one call each."""
        args = [[np.asarray(a) for a in al] for al in arglists]
        L = self.L
        if not batchable(self.arch, name) or any(a.shape != (L,) or a.dtype != args[0][j].dtype
                                                  for al in args for j, a in enumerate(al)):
            return [self.call(name, al) for al in args]
        wide = Context(L * len(args), self.wave, self.arch, self.ieee, self.round_mode, self.state, self.vgpr_written)
        d0 = wide.call(name, [np.concatenate(col) for col in zip(*args)])
        return [d0[i * L:(i + 1) * L].copy() for i in range(len(args))]


@functools.lru_cache(maxsize=None)
def batchable(arch: str, name: str) -> bool:
    """Whether a called instruction may run on several waves' lanes side by side (``callbatch``)."""
    from .callbatch import lane_independent

    def lookup(callee):
        try:
            return _callee(arch, callee)
        except compiler.NoSemantics:
            return None

    return lane_independent(lookup(name), lookup)


@functools.lru_cache(maxsize=None)
def _callee_setup(arch: str, name: str) -> tuple:
    """A called instruction's function and its registers' zero dtypes (looked up once)."""
    prog = _callee(arch, name)
    return prog.fn, tuple((r, object if w > 64 else np.int64) for r, w in prog.widths.items())


@functools.lru_cache(maxsize=None)
def _callee(arch: str, name: str) -> compiler.Program:
    name = compiler.CALL_ALIASES.get(name, name)
    for a in (arch,) + tuple(x for x in sources.default_source().archs() if x != arch):
        if sources.lookup(a, name) is not None:
            return compiler.program(a, name)
    raise compiler.NoSemantics(f"no pseudocode for {name}")


def default_wave(arch: str) -> int:
    return (archs.by_name(arch).features.waves or (32,))[0]  # CDNA1-4 wave64 only, CDNA5 wave32 only


def _parse_value(text, fmt: Ty | None, reg: str, width: int):
    """One operand value -> raw bits (int)."""
    if isinstance(text, bool):
        text = int(text)
    if isinstance(text, str):
        t = text.strip().lower()
        v: int | float
        try:
            if t.startswith(("0x", "-0x")):
                v = int(t, 16)
            elif t.startswith(("0b", "-0b")):
                v = int(t, 2)
            elif t.lstrip("-+").isdigit():
                v = int(t)
            else:
                v = float(t)
        except ValueError:
            raise EvalError(f"{reg}={text!r} is not a number (allowed: decimal, 0x.., 0b.., a float such as 1.5, -0.0, inf, nan)") from None
        text = v
    if isinstance(text, float):
        if fmt is None or not fmt.is_float:
            raise EvalError(f"{reg} is an integer operand; give an integer (a float {text!r} was given)")
        return int(floats.to_bits(floats.convert(np.array([text]), ("f", 64), (fmt.kind, fmt.width)),
                                  fmt.kind, fmt.width)[0]) & ((1 << width) - 1)  # (f64 bits come back signed)
    if not isinstance(text, (int, np.integer)):
        raise EvalError(f"{reg} has a value of type {type(text).__name__}; give an integer or a float")
    v = int(text)
    if v >= (1 << width) or v < -(1 << (width - 1)):
        raise EvalError(f"{reg}={v:#x} does not fit the operand's {width} bits")
    return v & ((1 << width) - 1)


def _interpret(bits: int, fmt: Ty | None):
    if fmt is None:
        return bits
    if fmt.is_float:
        v = float(floats.from_bits(np.array([bits], dtype=object), fmt.kind, fmt.width)[0])
        return v
    if fmt.kind == "i":
        w = fmt.width
        b = bits & ((1 << w) - 1)
        return b - (1 << w) if b >> (w - 1) else b
    return bits & ((1 << fmt.width) - 1) if fmt.width < 4096 else bits


def evaluate(arch: str, name: str, lanes: int | None = None, wave: int | None = None, ieee: bool = True,
             **operands) -> dict:
    """Run instruction ``name`` of ``arch`` and return {arch, name, lanes, wave, outputs, state, ...}.

    Operands are the pseudocode's names (S0, S1, S2, VCC, EXEC, SCC, M0, SIMM16, ...): an int
    (raw bits), a float (read in the operand's format), or a list with one value per lane.
    """
    try:
        akey = archs.resolve_arch(arch).name
    except archs.UnknownArch as exc:
        raise EvalError(str(exc)) from None
    have = sources.generations()
    if akey not in have:
        raise EvalError(f"no executable pseudocode for {archs.by_name(akey).title} "
                        f"(available: {', '.join(archs.by_name(a).title for a in have)})")
    key = name.strip().lower()
    entry = sources.lookup(akey, key)
    if entry is None:
        raise EvalError(f"no pseudocode for {key} in {archs.by_name(akey).title}: {sources.missing_reason(akey, key)}")
    try:
        prog = compiler.program(akey, key)
    except compiler.NoSemantics as exc:
        raise EvalError(f"{key} cannot be executed: {exc}") from None
    wave = wave or default_wave(akey)
    if wave not in (32, 64):
        raise EvalError(f"wave size {wave} (allowed: 32, 64)")
    allowed = archs.by_name(akey).features.waves or (32, 64)
    if wave not in allowed:
        only = " and ".join(f"wave{w}" for w in allowed)
        raise EvalError(f"wave size {wave} on {archs.by_name(akey).title}: it runs {only} only "
                        f"(allowed: {', '.join(map(str, allowed))})")
    res = run(prog, lanes, wave, ieee, operands)
    if entry.inherited_from:  # this generation has no pseudocode of its own (sources.donor)
        res["inferred_from"] = entry.inherited_from
    return res


SOURCES = ("S0", "S1", "S2")  # source operands an encoding may give though the pseudocode does not read them


def run(prog: compiler.Program, lanes: int | None, wave: int, ieee: bool, operands: dict) -> dict:
    operands, unused = _known_operands(prog, operands)
    lanes, L = _lanes(prog, lanes, wave, operands)
    ctx = Context(L, wave, prog.arch, ieee)
    regs, before = {}, {}
    for r, w in dict(prog.widths).items():
        v = operands.get(r)
        if r == "EXEC" and v is None:
            v = (1 << lanes) - 1
        regs[r] = _register(v, prog.formats.get(r), r, w, L)
        before[r] = regs[r].copy()
    if prog.vgpr_file:
        regs["VGPR"] = _vgpr_file(operands, L)
        before["VGPR"] = regs["VGPR"].copy()
    active = _active(prog, operands, lanes, L)
    mask = None if (prog.wave_level or prog.scalar or active.all()) else active
    from .matrix import MatrixLayoutError

    with np.errstate(all="ignore"):
        try:
            prog.fn(regs, mask, ctx)
        except (MatrixLayoutError, registers.VgprAddressError) as exc:
            raise EvalError(f"{prog.name}: {exc}") from None
    res = _result(prog, regs, before, active, lanes, wave, ctx)
    unused += sorted(r for r in SOURCES if r in operands and r not in prog.reads)
    if unused:
        res["unused"] = sorted(unused)
    return res


def _known_operands(prog: compiler.Program, operands: dict) -> tuple[dict, list[str]]:
    """(the operands the program reads, the sources given that it has no use for); errors for the others."""
    allowed = set(prog.widths) | {"EXEC"}
    unused = sorted(op for op in operands if op in SOURCES and op not in allowed)
    operands = {k: v for k, v in operands.items() if k not in unused}
    for op in operands:
        if op not in allowed and not (prog.vgpr_file and _vgpr_number(op) is not None):
            extra = ", V0..V255 (the VGPR file)" if prog.vgpr_file else ""
            raise EvalError(f"{prog.name} has no operand {op} (allowed: {', '.join(sorted(allowed))}{extra})")
    missing = [r for r in REQUIRED if r in prog.inputs and r not in operands]
    if missing:
        raise EvalError(f"{prog.name} needs {', '.join(missing)} (operands: {', '.join(sorted(allowed))})")
    return operands, unused


def _lanes(prog: compiler.Program, lanes: int | None, wave: int, operands: dict) -> tuple[int, int]:
    """(active lanes asked for, lanes simulated): one for a scalar instruction, else the wave."""
    per_lane_len = [len(v) for k, v in operands.items() if isinstance(v, (list, tuple))]
    if prog.scalar:
        if per_lane_len:
            raise EvalError(f"{prog.name} is a scalar instruction; give one value per operand, not a list")
        lanes, L = 1, 1
    else:
        if lanes is None:
            lanes = max(per_lane_len, default=1)
        if not 1 <= lanes <= wave:
            raise EvalError(f"--lanes {lanes} (allowed: 1..{wave} for wave{wave})")
        L = wave
    for k, v in operands.items():
        if isinstance(v, (list, tuple)):
            if k in SCALAR_REGS:
                raise EvalError(f"{k} is one value per wave; give a single value, not a list")
            if len(v) != lanes:
                raise EvalError(f"{k} has {len(v)} values for {lanes} lanes (give one per lane or a single value)")
    return lanes, L


def _register(v, fmt, r: str, w: int, L: int) -> np.ndarray:
    """Register ``r`` (``w`` bits) on ``L`` lanes from a value, a list of per-lane values or None (zero)."""
    if v is None:
        vals = [0]
    elif isinstance(v, (list, tuple)):
        if v and set(map(type, v)) == {int} and min(v) >= -(1 << (w - 1)) and max(v) < (1 << w):
            # plain integers in range: no per-value parsing
            if w < 64:
                arr = np.zeros(L, dtype=np.int64)
                arr[:len(v)] = np.array(v, dtype=np.int64) & ((1 << w) - 1)
                return arr
            m = (1 << w) - 1
            vals = [x & m for x in v] + [0] * (L - len(v))
        else:
            vals = [_parse_value(x, fmt, r, w) for x in v] + [0] * (L - len(v))
    else:
        vals = [_parse_value(v, fmt, r, w)]
    if len(vals) == 1:
        vals = vals * L
    if w <= 64:
        return np.array(vals, dtype=np.uint64).view(np.int64)
    return np.array(vals, dtype=object)


def _active(prog: compiler.Program, operands: dict, lanes: int, L: int) -> np.ndarray:
    """The lanes EXEC enables (one lane for a scalar instruction)."""
    if "EXEC" in operands:
        if isinstance(operands["EXEC"], (list, tuple)):
            raise EvalError("EXEC is one value per wave; give a single value, not a list")
        exec_bits = _parse_value(operands["EXEC"], None, "EXEC", 64)
    else:
        exec_bits = (1 << lanes) - 1
    if prog.scalar:
        return np.ones(1, bool)
    nbytes = max(8, -(-L // 8))
    bits = np.unpackbits(np.frombuffer(exec_bits.to_bytes(nbytes, "little"), np.uint8), bitorder="little")
    return bits[:L].astype(bool)


def _result(prog, regs, before, active, lanes, wave, ctx) -> dict:
    outputs, scalar_regs, changed = {}, [], []
    wave_mask = (1 << wave) - 1
    for r in sorted(prog.writes):
        w = prog.widths.get(r, 32)
        vals = _masked_list(regs[r], w)
        old = _masked_list(before[r], w)
        if r in prog.lane_masks and not prog.scalar:
            orig = old[0]
            bits = 0
            for lane in range(min(wave, len(vals))):
                if active[lane] and (vals[lane] >> lane) & 1:
                    bits |= 1 << lane
            value = (orig & ~wave_mask) | bits
            outputs[r] = [value]
            scalar_regs.append(r)
            if value != orig:
                changed.append(r)
        elif prog.scalar or r in SCALAR_REGS or (r == "D0" and prog.wave_level and "D0" not in _vgpr_written(prog)):
            outputs[r] = [vals[0]]
            scalar_regs.append(r)
            if vals[0] != old[0]:
                changed.append(r)
        else:
            outputs[r] = vals[:lanes]
            if vals[:lanes] != old[:lanes]:
                changed.append(r)
    for row in sorted(ctx.vgpr_written):
        r = f"V{row}"
        outputs[r] = _masked_list(regs["VGPR"][row], 32)[:lanes]
        if outputs[r] != _masked_list(before["VGPR"][row], 32)[:lanes]:
            changed.append(r)
    for r in [r for r in outputs if SGPR_NAME.match(r) and r not in changed]:  # the SGPR file (S_MOVREL*):
        del outputs[r]  # only the registers written with a new value are reported
        scalar_regs.remove(r)
    state = {k: v for k, v in ctx.state.items()}
    final = {}
    for r in ("EXEC", "VCC", "SCC", "M0"):
        if r in outputs:
            final[r] = outputs[r][0]
    return {"arch": prog.arch, "name": prog.name, "lanes": lanes, "wave": wave, "outputs": outputs,
            "scalar_registers": scalar_regs, "state": {"changed": changed, **final, **state},
            "formats": {r: _fmt_name(prog.formats.get(r)) for r in outputs},
            "interpreted": {r: _interpret_all(vals, prog.formats.get(r)) for r, vals in outputs.items()}}


def _vgpr_number(name: str) -> int | None:
    m = VGPR_NAME.match(name)
    return int(m.group(1)) if m and int(m.group(1)) < registers.VGPR_FILE_SIZE else None


def _vgpr_file(operands: dict, L: int) -> np.ndarray:
    """The VGPR file (registers x lanes) from operands V0..V255 (one value, or one per lane); others 0."""
    file = np.zeros((registers.VGPR_FILE_SIZE, L), dtype=np.int64)
    for k, v in operands.items():
        row = _vgpr_number(k)
        if row is None:
            continue
        vals = [_parse_value(x, None, k, 32) for x in v] if isinstance(v, (list, tuple)) else [_parse_value(v, None, k, 32)] * L
        file[row, :len(vals)] = vals
    return file


def _masked_list(arr, w: int) -> list[int]:
    """The low w bits of each element, as Python ints."""
    a = np.asarray(arr)
    if a.dtype == np.int64 and a.ndim == 1 and w <= 64:
        return (a.view(np.uint64) & np.uint64((1 << w) - 1)).tolist()
    m = (1 << w) - 1
    return [int(x) & m for x in a.ravel()]


def _interpret_all(vals: list[int], fmt: Ty | None) -> list:
    if fmt is not None and fmt.is_float and fmt.width <= 64:
        m = (1 << fmt.width) - 1
        bits = np.array([v & m for v in vals], dtype=np.uint64).view(np.int64)
        return [float(x) for x in floats.from_bits(bits, fmt.kind, fmt.width)]
    return [_interpret(v, fmt) for v in vals]


def _vgpr_written(prog) -> set:
    return {"D0"} if "VGPR[" in prog.text and "][VDST" in prog.text else set()


def _fmt_name(t: Ty | None) -> str | None:
    if t is None:
        return None
    return f"{t.kind}{t.width}" if t.kind not in ("fp8", "bf8", "fp6", "bf6", "fp4") else t.kind
