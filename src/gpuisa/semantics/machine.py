"""The state of one wave for running sequences of instructions: register files and memory.

``WaveState`` holds the VGPR file (and CDNA's AGPR file) as int64 arrays of shape
(registers, lanes) whose elements are 32-bit values, the scalar file as a list of Python
ints indexed by the scalar source encoding (0-105 SGPRs, 106/107 VCC, 108-123 TTMP, M0 and
NULL at 124/125 by generation, 126/127 EXEC), SCC, the LDS (64 KiB) and a sparse
byte-addressed global memory (``Memory``).  ``from_values`` builds a state from register
names such as ``V1``, ``V[2:3]``, ``S0``, ``S[4:7]``, ``A0``, ``VCC``, ``EXEC``, ``SCC``,
``M0`` and memory words ``MEM:0x1000`` / ``LDS:0x40``.
"""

from __future__ import annotations

import re

import numpy as np

from .. import archs
from . import floats

M32 = 0xFFFFFFFF
VGPRS = 256
SGPR_SLOTS = 128
VCC_LO, EXEC_LO = 106, 126
LDS_BYTES = 65536
PAGE = 4096
_REG = re.compile(r"^(V|S|A)(?:(\d+)|\[(\d+):(\d+)\])$", re.I)
_MEMKEY = re.compile(r"^(MEM|LDS):(0x[0-9a-f]+|\d+)$", re.I)


class MachineError(ValueError):
    """A bad state or a run-time fault (message is one line)."""


def is_gfx9(arch: str) -> bool:
    """GFX9 encodings (CDNA1-4; CDNA5 is encoded as GFX12)."""
    return archs.by_name(arch).features.encoding_family == "GFX9"


class Memory:
    """Sparse little-endian byte memory: 4 KiB pages created on first write; unwritten bytes read 0."""

    def __init__(self):
        self.pages: dict[int, np.ndarray] = {}

    def read(self, addr: int, n: int) -> bytes:
        out = bytearray()
        while n > 0:
            p, off = divmod(addr, PAGE)
            k = min(n, PAGE - off)
            page = self.pages.get(p)
            out += page[off:off + k].tobytes() if page is not None else bytes(k)
            addr, n = addr + k, n - k
        return bytes(out)

    def write(self, addr: int, data: bytes) -> None:
        i = 0
        while i < len(data):
            p, off = divmod(addr + i, PAGE)
            k = min(len(data) - i, PAGE - off)
            page = self.pages.get(p)
            if page is None:
                page = self.pages[p] = np.zeros(PAGE, dtype=np.uint8)
            page[off:off + k] = np.frombuffer(data[i:i + k], dtype=np.uint8)
            i += k

    def read_u32(self, addr: int, count: int = 1) -> list[int]:
        return list(np.frombuffer(self.read(addr, 4 * count), dtype="<u4").tolist())

    def nonzero_words(self) -> dict[int, int]:
        out = {}
        for p in sorted(self.pages):
            words = self.pages[p].view("<u4")
            for i in np.flatnonzero(words):
                out[p * PAGE + 4 * int(i)] = int(words[i])
        return out

    def copy(self) -> "Memory":
        m = Memory()
        m.pages = {k: v.copy() for k, v in self.pages.items()}
        return m


class LdsMemory(Memory):
    """The LDS: like ``Memory`` but bounded to 64 KiB (addresses wrap out of range: reads 0, writes dropped)."""

    def read(self, addr: int, n: int) -> bytes:
        if addr < 0 or addr + n > LDS_BYTES:
            return bytes(n)
        return super().read(addr, n)

    def write(self, addr: int, data: bytes) -> None:
        if 0 <= addr and addr + len(data) <= LDS_BYTES:
            super().write(addr, data)

    def copy(self) -> "LdsMemory":
        m = LdsMemory()
        m.pages = {k: v.copy() for k, v in self.pages.items()}
        return m


class WaveState:
    """One wave's registers and memory (see the module docstring)."""

    def __init__(self, arch: str, wave: int):
        self.arch, self.wave, self.L = arch, wave, wave
        self.gfx9 = is_gfx9(arch)
        self.m0_slot, self.null_slot = (124, 125) if self.gfx9 else (125, 124)
        self.v = np.zeros((VGPRS, wave), dtype=np.int64)
        self.a = np.zeros((VGPRS, wave), dtype=np.int64)
        self.s = [0] * SGPR_SLOTS
        self.scc = 0
        self.mem = Memory()
        self.lds = LdsMemory()
        self.scratch = Memory()  # private memory: lane * 2**32 + address
        self.steps = 0
        self.exec = (1 << wave) - 1

    # ---- wave-wide registers
    @property
    def exec(self) -> int:
        return self.s[EXEC_LO] | (self.s[EXEC_LO + 1] << 32 if self.wave == 64 else 0)

    @exec.setter
    def exec(self, value: int) -> None:
        self.s[EXEC_LO] = value & M32
        self.s[EXEC_LO + 1] = (value >> 32) & M32 if self.wave == 64 else self.s[EXEC_LO + 1]

    @property
    def vcc(self) -> int:
        return self.s[VCC_LO] | (self.s[VCC_LO + 1] << 32 if self.wave == 64 else 0)

    @vcc.setter
    def vcc(self, value: int) -> None:
        self.s[VCC_LO] = value & M32
        if self.wave == 64:
            self.s[VCC_LO + 1] = (value >> 32) & M32

    @property
    def m0(self) -> int:
        return self.s[self.m0_slot]

    def active(self) -> np.ndarray:
        """EXEC as one bool per lane."""
        return lanes_of(self.exec, self.L)

    def sgpr64(self, n: int) -> int:
        return self.s[n] | (self.s[n + 1] << 32)

    def set_sgpr(self, n: int, value: int, count: int = 1) -> None:
        """Write ``count`` consecutive scalar registers from n (NULL and out-of-range slots ignored)."""
        for k in range(count):
            slot = n + k
            if slot != self.null_slot and 0 <= slot < SGPR_SLOTS:
                self.s[slot] = (value >> (32 * k)) & M32

    # ---- copies and views
    def copy(self) -> "WaveState":
        c = WaveState.__new__(WaveState)
        c.__dict__.update(self.__dict__)
        c.v, c.a, c.s = self.v.copy(), self.a.copy(), list(self.s)
        c.mem, c.lds, c.scratch = self.mem.copy(), self.lds.copy(), self.scratch.copy()
        return c

    def __getitem__(self, name: str):
        """``state['V1']`` (uint32 per lane), ``state['V[2:3]']`` (uint64 per lane), ``state['S0']``,
        ``state['S[0:1]']``, ``state['VCC']``, ``state['EXEC']``, ``state['SCC']``, ``state['M0']`` (ints)."""
        key = name.strip().upper()
        fixed = {"VCC": lambda: self.vcc, "EXEC": lambda: self.exec, "SCC": lambda: self.scc, "M0": lambda: self.m0}
        if key in fixed:
            return fixed[key]()
        kind, first, count = parse_register(name)
        if kind == "S":
            return sum(self.s[first + k] << (32 * k) for k in range(count))
        f = self.v if kind == "V" else self.a
        if count == 1:
            return f[first].astype(np.uint32)
        if count == 2:
            return f[first].astype(np.uint64) | (f[first + 1].astype(np.uint64) << np.uint64(32))
        return [sum(int(f[first + k, lane]) << (32 * k) for k in range(count)) for lane in range(self.L)]

    def f32(self, name: str) -> np.ndarray:
        kind, first, _ = parse_register(name)
        return (self.v if kind == "V" else self.a)[first].astype(np.uint32).view(np.float32)

    def to_json(self, changed_only: "WaveState | None" = None) -> dict:
        """Registers as JSON: VGPRs/AGPRs as per-lane lists, scalars as ints, memory as {address: word}."""
        out: dict = {"arch": self.arch, "wave": self.wave, "steps": self.steps, "EXEC": self.exec, "VCC": self.vcc,
                     "SCC": self.scc, "M0": self.m0}
        base = changed_only
        for kind, f in (("V", self.v), ("A", self.a)):
            for n in range(VGPRS):
                if (base is None and f[n].any()) or (base is not None and not np.array_equal(f[n], getattr(base, kind.lower())[n])):
                    out[f"{kind}{n}"] = [int(x) for x in f[n]]
        for n in range(106):
            if (base is None and self.s[n]) or (base is not None and self.s[n] != base.s[n]):
                out[f"S{n}"] = self.s[n]
        mem = self.mem.nonzero_words()
        if mem:
            out["MEM"] = {hex(k): v for k, v in mem.items()}
        lds = self.lds.nonzero_words()
        if lds:
            out["LDS"] = {hex(k): v for k, v in lds.items()}
        return out


def lanes_of(mask: int, L: int) -> np.ndarray:
    """A lane mask (int) as one bool per lane."""
    return np.unpackbits(np.frombuffer(mask.to_bytes(8, "little"), np.uint8), bitorder="little")[:L].astype(bool)


def parse_register(name: str) -> tuple[str, int, int]:
    """'V1' -> ('V', 1, 1); 'S[4:7]' -> ('S', 4, 4); raises MachineError otherwise."""
    m = _REG.match(name.strip())
    if not m:
        raise MachineError(f"{name!r} is not a register (allowed: V0..V255, V[2:3], S0..S105, S[0:1], A0..A255, "
                           f"VCC, EXEC, SCC, M0, MEM:<address>, LDS:<address>)")
    kind = m.group(1).upper()
    if m.group(2) is not None:
        first, last = int(m.group(2)), int(m.group(2))
    else:
        first, last = int(m.group(3)), int(m.group(4))
    limit = 106 if kind == "S" else VGPRS
    if last < first or last >= limit or last - first >= 16:
        raise MachineError(f"register {name!r} is out of range (allowed: {kind}0..{kind}{limit - 1}, at most 16 in a range)")
    return kind, first, last - first + 1


def _bits(value, width: int, what: str) -> int:
    """A value given for a register of ``width`` bits -> raw bits (floats: f32, or f64 for 64 bits)."""
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if isinstance(value, str):
        t = value.strip().lower()
        try:
            if t.startswith(("0x", "-0x")):
                value = int(t, 16)
            elif t.startswith(("0b", "-0b")):
                value = int(t, 2)
            elif t.lstrip("+-").isdigit():
                value = int(t)
            else:
                value = float(t)
        except ValueError:
            raise MachineError(f"{what}={value!r} is not a number (allowed: decimal, 0x.., 0b.., a float such as 1.5)") from None
    if isinstance(value, (float, np.floating)):
        if width not in (32, 64):
            raise MachineError(f"{what}: a float fills 32 or 64 bits; give raw bits for {width}")
        fmt = ("f", 64) if width == 64 else ("f", 32)
        arr = floats.convert(np.array([float(value)]), ("f", 64), fmt)
        return int(floats.to_bits(arr, *fmt)[0]) & ((1 << width) - 1)
    if not isinstance(value, (int, np.integer)):
        raise MachineError(f"{what} has a value of type {type(value).__name__}; give an integer or a float")
    v = int(value)
    if v >= (1 << width) or v < -(1 << (width - 1)):
        raise MachineError(f"{what}={v:#x} does not fit its {width} bits")
    return v & ((1 << width) - 1)


def _words(value, what: str) -> bytes:
    """Memory contents: bytes, a numpy array (its raw bytes) or one/several 32-bit words."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, np.ndarray):
        return value.tobytes()
    vals = value if isinstance(value, (list, tuple)) else [value]
    return b"".join(_bits(x, 32, what).to_bytes(4, "little") for x in vals)


def from_values(arch: str, wave: int, values: dict | None) -> WaveState:
    """A fresh state with registers and memory set from ``values`` (see the module docstring)."""
    ws = WaveState(arch, wave)
    for key, val in (values or {}).items():
        set_value(ws, key, val)
    return ws


def set_value(ws: WaveState, key: str, val) -> None:
    k = key.strip().upper()
    m = _MEMKEY.match(k)
    if m:
        addr = int(m.group(2), 0)
        (ws.mem if m.group(1) == "MEM" else ws.lds).write(addr, _words(val, key))
        return
    if k in ("VCC", "EXEC"):
        if isinstance(val, (list, tuple)):
            raise MachineError(f"{k} is one value per wave; give a single value, not a list")
        bits = _bits(val, 64, k)
        if bits >> ws.wave:
            raise MachineError(f"{k}={bits:#x} has bits above lane {ws.wave - 1} of a wave{ws.wave}")
        setattr(ws, k.lower(), bits)
        return
    if k in ("SCC", "M0"):
        bits = _bits(val, 32, k)
        if k == "SCC":
            if bits > 1:
                raise MachineError(f"SCC={bits} (allowed: 0, 1)")
            ws.scc = bits
        else:
            ws.s[ws.m0_slot] = bits
        return
    kind, first, count = parse_register(key)
    width = 32 * count
    if kind == "S":
        if isinstance(val, (list, tuple)):
            raise MachineError(f"{key} is a scalar register; give one value, not a list")
        ws.set_sgpr(first, _bits(val, width, key), count)
        return
    f = ws.v if kind == "V" else ws.a
    vals = list(val) if isinstance(val, (list, tuple, np.ndarray)) else [val]
    if len(vals) not in (1, ws.L) and len(vals) > ws.L:
        raise MachineError(f"{key} has {len(vals)} values for a wave{ws.wave} (give one, or one per lane)")
    if isinstance(val, np.ndarray) and val.dtype.kind in "iu" and count == 1:
        f[first, :len(vals)] = np.asarray(val, dtype=np.int64) & M32
        return
    lane_bits = [_bits(x, width, key) for x in vals]
    if len(lane_bits) == 1:
        lane_bits = lane_bits * ws.L
    for j in range(count):
        f[first + j, :len(lane_bits)] = [(b >> (32 * j)) & M32 for b in lane_bits]
