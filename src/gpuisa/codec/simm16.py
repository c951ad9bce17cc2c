"""The encoder's side of the scalar instructions whose one operand is a 16-bit immediate printed as named
fields: ``s_waitcnt vmcnt(0) lgkmcnt(0)``, ``s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT)``,
``s_waitcnt_depctr depctr_va_vdst(0)``, ``s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)``, ``s_barrier_wait -1``.

The decoder prints every value of the immediate from the tables learned from llvm-mc (``rdna.py``,
``gfx9.py``, ``special.py``); reading them backwards gives the encoder exactly LLVM's spelling of each value:
a table from the set of tokens each value prints to the first value printing it, so the order of the fields
and the separators (`` ``, ``&``, ``,``, ``|``) are free and omitted counters take the value LLVM gives them
(their maximum: nothing to wait for).  The table is made from the layout the decoder prints the field from
(``_built_values``: the counters' bits, the message names below bit 10, the version code and flags, the GPR
index modes; each counter's values printed alone and combined, values printed as numbers written without
printing; tens of milliseconds), checked by decoding zero, each bit alone and all bits, and equal to decoding
all 65,536 values (``_decode_values``, about a second; what an instruction no layout covers still gets; the
equality is tested on rdna3, rdna4, cdna3 and gfx1250); it is kept in the data folder's cache for the next
process, remade when a file the decoder's printing depends on changes size or time."""

from __future__ import annotations

import functools
import itertools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .plans import Plan

_SPLIT = re.compile(r"[\s,&|]+")


def _norm(operands: str) -> tuple[str, ...]:
    return tuple(sorted(t for t in _SPLIT.split(operands.strip()) if t))


def special_form(plan: Plan) -> bool:
    """A plan whose operand text is the named fields of SIMM16 (not a plain number)."""
    ops = plan.operands
    return len(ops) == 1 and ("SIMM16" in ops[0].tables or "SIMM16" in plan.modifiers) \
        and ops[0].kind is None


@functools.lru_cache(maxsize=64)
def _values(arch: str, wave64: bool, key: str) -> dict[tuple[str, ...], int]:
    """The table of ``key``'s immediate: from the data folder's cache where it was made from the same sources
    (``_sources``), else made now (``_built_values``, or decoded where no layout here covers the instruction)
    and cached."""
    from ..cachefile import cache_path, read_stamped, write_stamped
    from .decoder import get_decoder

    dec = get_decoder(arch, wave64)
    stamp = (_sources(dec), arch, wave64, key)
    path = cache_path(f"simm16-{arch}{'-wave64' if wave64 else ''}-{key.replace('|', '-')}.marshal")
    got = read_stamped(path, stamp)  # (missing, damaged, of another format or stale: None, made again)
    if isinstance(got, dict):
        return got
    out = _built_values(dec, key)
    if out is None:
        out = _decode_values(dec, key)
    write_stamped(path, stamp, out)  # (not writable: this process keeps its own)
    return out


def _sources(dec) -> list:
    """Sizes and modification times of what the decoder's output depends on (``accel.stamp``, shared with the
    decode cache): stat calls, where the decoder's fingerprint parses its modules (a fifth of a second in a new
    data folder, several times the table)."""
    from .accel import stamp

    return stamp(dec.arch)


def _decode_values(dec, key: str) -> dict[tuple[str, ...], int]:
    """The table by brute force: each of the 65,536 values decoded, the first value printing each set of
    tokens kept (the reference ``_built_values`` is tested against)."""
    enc = dec.tables.encodings[key.split("|")[1]]
    f = enc.field("SIMM16")
    base = f.insert(dec.plans[key].word, 0)
    name = key.split("|")[0]
    out: dict[tuple[str, ...], int] = {}
    pad = b"\0" * 12
    for v in range(1 << f.width):
        d = dec.decode_at(f.insert(base, v).to_bytes(4, "little") + pad, 0)
        if d.valid and d.name == name and len(d.data) == 4:
            parts = d.text.split(None, 1)
            out.setdefault(_norm(parts[1] if len(parts) > 1 else ""), v)
    return out


# -- the same table from the layout the decoder prints the field from -------------------------------------
# A layout (printer, named, numeric, fmt): ``printer(v)`` is the operand text the decoder prints for value v;
# ``named`` gives (tokens, value) for the values that print names (those of the named bits, the other bits 0:
# a value outside ``numeric`` prints as the one with its named bits), and a value in ``numeric`` prints
# ``fmt(v)`` (``str`` or ``hex``), one token no other value prints.
def _built_values(dec, key: str) -> dict[tuple[str, ...], int] | None:
    """``_decode_values``'s table made from the instruction's learned layout (counters, messages, version
    codes, GPR index modes) without decoding: its named values printed (a counter list: each counter's values
    alone, then combined), its numeric ones written as numbers; None where no layout here covers the
    instruction, or where the decoder does not print what the layout says for the values that check it (zero,
    each bit alone, all bits)."""
    layout = _layout(dec, key)
    if layout is None:
        return None
    printer, named, numeric, fmt = layout
    f = dec.tables.encodings[key.split("|")[1]].field("SIMM16")
    base = f.insert(dec.plans[key].word, 0)
    name, pad = key.split("|")[0], b"\0" * 12
    for v in [0, 0xFFFF] + [1 << b for b in range(16)]:
        d = dec.decode_at(f.insert(base, v).to_bytes(4, "little") + pad, 0)
        if not (d.valid and d.name == name and len(d.data) == 4 and d.text.split(None, 1)[-1] == printer(v)):
            return None
    out: dict[tuple[str, ...], int] = dict(zip(zip(map(fmt, numeric)), numeric))  # ({(fmt(v),): v}, faster)
    for k, u in named:
        if out.get(k, 1 << 16) > u:  # (the first value printing each text)
            out[k] = u
    return out


def _printed(printer, values):
    return ((_norm(printer(u)), u) for u in values)


def _counter_list(printer, masks: list[int]):
    """(tokens, value) of every combination of counter values: each counter at its default (all its bits) is
    left out, the others are named as when alone, and all are named when all are at their default."""
    top = sum(masks)
    alone = [[(x, () if x == m else _norm(printer(x | top & ~m))) for x in _subsets(m)] for m in masks]
    every = _norm(printer(top))
    for combo in itertools.product(*alone):
        yield tuple(sorted(t for _, ts in combo for t in ts)) or every, sum(x for x, _ in combo)


def _subsets(mask: int) -> list[int]:
    """Every value made of ``mask``'s bits."""
    vals = [0]
    for b in range(16):
        if mask >> b & 1:
            vals += [x | 1 << b for x in vals]
    return vals


def _layout(dec, key: str):
    """The layout (see above) of the rule the decoder prints ``key``'s field with; None where none here applies."""
    from . import gfx9, rdna

    name, encoding = key.split("|")
    plan = dec.plans[key]
    f = dec.tables.encodings[encoding].field("SIMM16")
    if f is None or f.width != 16 or plan.alternatives or plan.rejected or dec.named.bad_values.get(key) \
            or dec.named.must_zero.get(encoding, 0) & f.insert(0, 0xFFFF):
        return None  # (some values rejected, or printed from another operand list: decoded)
    entry = next(e for e in dec.tables.entries if e.name == name and e.encoding == encoding)
    if dec.gfx == "GFX9" and name in gfx9.SCALAR_TEXT:  # (the decoder's whole-text forms, in its order)
        def whole(v: int) -> str:
            return (gfx9.scalar_text(dec, name, {"SIMM16": v}) or "").split(None, 1)[-1]
        if name == "s_waitcnt":  # GFX9's fixed counters: the bits whose flip alone changes the text
            bits = sum(1 << b for b in range(16) if whole(1 << b) != whole(0))
            return whole, _printed(whole, _subsets(bits)), [], str
    elif encoding == "SOPP" and dec.gfx != "GFX9" and name in rdna.SOPP_PRINTED:
        def whole(v: int) -> str:
            return (rdna.scalar_text(dec, entry, {"SIMM16": v}) or "").split(None, 1)[-1]
        spec = dec.named.counters.get(name)
        if spec is not None:  # learned counters: their bits; a value with a hex bit set prints in hex
            hexa = spec.get("hex_bits", 0)
            masks = [sum(1 << b for b in field[1]) & ~hexa for field in spec["fields"]]
            named = _counter_list(whole, masks) if spec["form"] == "list" else _printed(whole, _subsets(sum(masks)))
            return whole, named, [v for v in range(1 << 16) if v & hexa], hex
    else:
        return _operand_layout(dec, entry, plan)
    table = dec.named.sendmsg.get(name)
    if table is not None:  # the low 10 bits name a message; above them only the kept messages print by name
        kept = {k for k in table["keep"] if str(k) in table["low"]}
        return whole, _printed(whole, range(1024)), [v for v in range(1024, 1 << 16) if v & 1023 not in kept], str
    return None


def _operand_layout(dec, entry, plan: Plan):
    """s_version's code and flag bits (hex with any other bit); GFX9's s_set_gpr_idx_mode's mode (probed
    below 256, else hex; the plan's own values from its table)."""
    from . import special

    spec = plan.operands[0]
    if plan.modifiers or set(spec.tables) != {"SIMM16"}:
        return None
    if spec.text.startswith("UC_VERSION") and dec.named.version_codes:
        bits = 0xFF | sum(1 << b for b, _ in dec.named.version_flags)
        def version(v: int) -> str:
            return special.version_text(dec.named, v)
        return version, _printed(version, _subsets(bits)), [v for v in range(1 << 16) if v & ~bits], hex
    if dec.gfx == "GFX9" and spec.text == "gpr_idx()" and dec.named.gpr_idx:
        def printer(v: int) -> str:
            fields = {"SIMM16": v}
            return special.operand(dec, entry, spec, fields) or special.fallback(dec, entry, spec, fields, plan) or ""
        own = {int(k) for k in spec.tables["SIMM16"]}
        own.add(dec.tables.encodings[entry.encoding].field("SIMM16").extract(plan.word))
        return printer, _printed(printer, own | set(range(256))), [v for v in range(256, 1 << 16) if v not in own], hex
    return None


def _compose(table: dict[tuple[str, ...], int], tokens: tuple[str, ...], derived=None) -> int | None:
    """The value of a set of fields: LLVM's own spelling, else each field taken from the value that prints it
    alone (the others at their default) -- a field written at its default value (``depctr_hold_cnt(1)``,
    which LLVM leaves out) changes nothing -- checked by printing the result: every field it shows must have
    been given.  ``derived()``: the table's ``_derive``, where it is kept (made from the table otherwise)."""
    if tokens in table:
        return table[tokens]
    singles, default, names, shown_by_value = derived() if derived is not None else _derive(table)
    if not singles:
        return None
    v = default
    for t in tokens:
        if t in singles:
            v ^= (singles[t] ^ default)
        elif t.split("(")[0] not in names:
            return None
    shown = shown_by_value.get(v)
    if shown is not None and set(shown) <= set(tokens):
        return v
    # every field given at its default (``s_waitcnt_depctr depctr_hold_cnt(1)``): LLVM's value is the default,
    # which it prints with all the fields
    at_default = set(shown_by_value.get(default, ()))
    return v if v == default and all(t in at_default for t in tokens) else None


def _derive(table: dict[tuple[str, ...], int]):
    """What ``_compose`` reads of a table beyond its keys: the one-field entries (values printed as a number, as
    invalid ones are, left out), the default value (each bit as most of them have it), the field names, and the
    tokens of each value (the first entry printing it)."""
    singles = {t[0]: v for t, v in table.items() if len(t) == 1 and "(" in t[0]}  # (fields, not numbers)
    bits = max((v.bit_length() for v in singles.values()), default=0)
    counts = [0] * bits
    for v in singles.values():
        for b in range(v.bit_length()):
            counts[b] += v >> b & 1
    default = sum(1 << b for b in range(bits) if 2 * counts[b] > len(singles))
    shown_by_value: dict[int, tuple[str, ...]] = {}
    for k, x in table.items():
        shown_by_value.setdefault(x, k)
    return singles, default, {t.split("(")[0] for t in singles}, shown_by_value


@functools.lru_cache(maxsize=64)
def _derived(arch: str, wave64: bool, key: str):
    return _derive(_values(arch, wave64, key))


def encode(encoder, entry, plan: Plan, text: str):
    """Bytes of ``text`` for a ``special_form`` plan, or raise EncodeError naming what is not understood."""
    from .encoded import Encoded, EncodeError

    parts = text.split(None, 1)
    operand = parts[1] if len(parts) > 1 else ""
    if not operand.strip():  # (llvm-mc-22: "too few operands", every target)
        raise EncodeError(f"{entry.name} takes an operand (a number or its named fields)")
    key = f"{entry.name}|{entry.encoding}"
    enc = encoder.tables.encodings[entry.encoding]
    f = enc.field("SIMM16")
    try:
        n = int(operand.strip(), 0)
    except ValueError:
        n = None
    if n is None and plan.operands and plan.operands[0].text.startswith("UC_VERSION"):  # (s_version)
        n = version_expression(encoder.named, operand)
        if n is None:
            raise EncodeError(f"{operand.strip()!r}: s_version takes an expression over integers and the"
                              " UC_VERSION_* names")
    if n is not None:
        if not -(1 << 15) <= n < (1 << 16):
            raise EncodeError(f"{operand.strip()} does not fit the 16-bit immediate of {entry.name}")
        v = n & 0xFFFF
    else:
        composed = _compose(_values(encoder.arch, encoder.wave64, key), _norm(operand),
                            lambda: _derived(encoder.arch, encoder.wave64, key))
        if composed is None:
            raise EncodeError(f"{operand.strip()!r} is not an operand of {entry.name} (the fields LLVM prints for it,"
                              " e.g. vmcnt(0) lgkmcnt(0), in any order)")
        v = composed
    word = f.insert(encoder.plans[key].encode_word, v)
    return Encoded(word.to_bytes(4, "little"), entry.encoding, entry.name, {"SIMM16": v}, None)


_EXPR_TOKEN = re.compile(r"\s*(?:(0x[0-9a-fA-F]+|\d+)|([A-Za-z_][A-Za-z0-9_]*)|([|&^+\-~()]))")


def version_expression(named, operand: str) -> int | None:
    """``s_version``'s operand as LLVM's assembler reads it: an expression over integers and the names of the
    version codes and flags (``UC_VERSION_GFX12 | UC_VERSION_W64_BIT``: names as the decoder's tables give them,
    case-sensitive; probed with llvm-mc-22 on gfx1100/gfx1200/gfx1250); None if it is not one."""
    symbols = {name: int(code) for code, name in named.version_codes.items()}
    symbols.update({name: 1 << int(bit) for bit, name in named.version_flags})
    pieces, pos, text = [], 0, operand.strip()
    while pos < len(text):
        m = _EXPR_TOKEN.match(text, pos)
        if m is None:
            return None
        num, name, op = m.groups()
        if name is not None and name not in symbols:
            return None
        pieces.append(str(int(num, 0)) if num else str(symbols[name]) if name else op)
        pos = m.end()
    try:
        value = eval(" ".join(pieces), {"__builtins__": {}}, {})  # noqa: S307 (numbers and | & ^ + - ~ only)
    except (SyntaxError, TypeError, ValueError, ZeroDivisionError):
        return None
    return value if isinstance(value, int) else None
