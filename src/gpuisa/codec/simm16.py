"""The encoder's side of the scalar instructions whose one operand is a 16-bit immediate printed as named
fields: ``s_waitcnt vmcnt(0) lgkmcnt(0)``, ``s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT)``,
``s_waitcnt_depctr depctr_va_vdst(0)``, ``s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)``, ``s_barrier_wait -1``.

The decoder prints every value of the immediate from the tables learned from llvm-mc (``rdna.py``,
``gfx9.py``); reading them backwards gives the encoder exactly LLVM's spelling of each value: all 65,536
values of the field are decoded once per instruction (about a second; kept in the data folder's cache for
the next process, remade when the decoder's fingerprint changes), keyed by
the set of their tokens, so the order of the fields and the separators (`` ``, ``&``, ``,``, ``|``) are free
and omitted counters take the value LLVM gives them (their maximum: nothing to wait for)."""

from __future__ import annotations

import functools
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
    """The table of ``key``'s immediate: from the data folder's cache where it was made by a decoder with the
    same fingerprint (all the decoder's output depends on), else decoded now and cached."""
    from ..cachefile import cache_path, read_stamped, write_stamped
    from .batch_data import fingerprint
    from .decoder import get_decoder

    dec = get_decoder(arch, wave64)
    stamp = (fingerprint(dec, cached=True), arch, wave64, key)
    path = cache_path(f"simm16-{arch}{'-wave64' if wave64 else ''}-{key.replace('|', '-')}.marshal")
    got = read_stamped(path, stamp)  # (missing, damaged, of another format or stale: None, made again)
    if isinstance(got, dict):
        return got
    out = _decode_values(dec, key)
    write_stamped(path, stamp, out)  # (not writable: this process keeps its own)
    return out


def _decode_values(dec, key: str) -> dict[tuple[str, ...], int]:
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


def _compose(table: dict[tuple[str, ...], int], tokens: tuple[str, ...]) -> int | None:
    """The value of a set of fields: LLVM's own spelling, else each field taken from the value that prints it
    alone (the others at their default) -- a field written at its default value (``depctr_hold_cnt(1)``,
    which LLVM leaves out) changes nothing -- checked by printing the result: every field it shows must have
    been given."""
    if tokens in table:
        return table[tokens]
    singles = {t[0]: v for t, v in table.items() if len(t) == 1}
    if not singles:
        return None
    bits = max(v.bit_length() for v in singles.values())
    default = sum(1 << b for b in range(bits) if 2 * sum(v >> b & 1 for v in singles.values()) > len(singles))
    names = {t.split("(")[0] for t in singles}
    v = default
    for t in tokens:
        if t in singles:
            v ^= (singles[t] ^ default)
        elif t.split("(")[0] not in names:
            return None
    shown = next((k for k, x in table.items() if x == v), None)
    return v if shown is not None and set(shown) <= set(tokens) else None


def encode(encoder, entry, plan: Plan, text: str):
    """Bytes of ``text`` for a ``special_form`` plan, or raise EncodeError naming what is not understood."""
    from .encoded import Encoded, EncodeError

    parts = text.split(None, 1)
    operand = parts[1] if len(parts) > 1 else ""
    key = f"{entry.name}|{entry.encoding}"
    enc = encoder.tables.encodings[entry.encoding]
    f = enc.field("SIMM16")
    try:
        n = int(operand.strip(), 0)
    except ValueError:
        n = None
    if n is not None:
        if not -(1 << 15) <= n < (1 << 16):
            raise EncodeError(f"{operand.strip()} does not fit the 16-bit immediate of {entry.name}")
        v = n & 0xFFFF
    else:
        composed = _compose(_values(encoder.arch, encoder.wave64, key), _norm(operand))
        if composed is None:
            raise EncodeError(f"{operand.strip()!r} is not an operand of {entry.name} (the fields LLVM prints for it,"
                              " e.g. vmcnt(0) lgkmcnt(0), in any order)")
        v = composed
    word = f.insert(encoder.plans[key].encode_word, v)
    return Encoded(word.to_bytes(4, "little"), entry.encoding, entry.name, {"SIMM16": v}, None)
