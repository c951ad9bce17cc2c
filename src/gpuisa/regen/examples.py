"""Operand variants per (instruction, encoding): page examples and encoder differential tests.

A variant is built as bytes first (the plan's base word with operand fields
set to varied registers/constants), printed by our decoder, assembled back
by our encoder (round trip) and - for LLVM-known targets - by llvm-mc-22,
whose bytes must be identical.  Nothing here is fabricated: the verdict is
what the tools returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import archs
from ..codec import oracle
from ..codec.decoder import get_decoder
from ..codec.encoder import EncodeError, get_encoder
from ..codec.plans import load_plans
from ..codec.tables import load_arch_tables

if TYPE_CHECKING:
    from ..codec.plans import OperandPlan

LITERAL = 0x3E9A0000  # a literal no inline constant equals


def _values(spec: OperandPlan, k: int, field_width: int, variant: int) -> int | None:
    kind = spec.kind
    n = spec.count
    align = 4 if n > 2 else n
    if kind == "vreg":
        return ((k + 1) * 4 + variant * 8) % 200 // align * align
    if kind == "src":
        if (k + variant) % 2:
            return 256 + ((k + 1) * 2 + variant * 8) // align * align
        return ((k + 1) * 4 + variant * 4) // align * align
    if kind == "ssrc":
        scale = spec.scale
        reg = ((k + 1) * 4 + variant * 8) // max(align, scale) * max(align, scale)
        return reg // scale if reg // scale < (1 << field_width) else None
    if kind == "imm":
        return 16 + variant * 4
    return None


def variant_words(arch: str, name: str, encoding: str) -> list[tuple[int, bytes]]:
    """(variant number, bytes) candidates: varied registers, then a literal where a source allows one."""
    t = load_arch_tables(arch)
    plan = load_plans(arch).get(f"{name}|{encoding}")
    if plan is None:
        return []
    enc = t.encodings[encoding]
    out = []
    for variant in range(2):
        word = plan.word
        for k, spec in enumerate(plan.operands):
            f = enc.field(spec.field) if spec.field else None
            if f is None:
                continue
            v = _values(spec, k, f.width, variant)
            if v is None or v >= 1 << f.width:
                continue
            word = f.insert(word, v)
        data = word.to_bytes(enc.width // 8, "little")
        if any(s.kind == "lit" for s in plan.operands):
            data += LITERAL.to_bytes(4, "little")
        out.append((variant, data))
    srcs = [s for s in plan.operands if s.kind == "src" and s.count == 1]
    if srcs and not any(s.kind == "lit" for s in plan.operands):
        f = enc.require_field(srcs[0].field)
        word = int.from_bytes(out[0][1][:enc.width // 8], "little")
        word = f.insert(word, 255)
        out.append((2, word.to_bytes(enc.width // 8, "little") + LITERAL.to_bytes(4, "little")))
    return out


def build_examples(arch: str, names: list[str] | None = None) -> dict[str, list[dict]]:
    """{name: [{text, bytes, target, verified_by, encoding}]} for an architecture."""
    a = archs.by_name(arch)
    t = load_arch_tables(arch)
    dec = get_decoder(arch)
    enc = get_encoder(arch)
    cands: list[tuple[str, str, str, bytes]] = []  # name, encoding, text, bytes
    for e in t.entries:
        if names is not None and e.name not in names:
            continue
        for _, data in variant_words(arch, e.name, e.encoding):
            d = dec.decode_at(data, 0)
            if not d.valid or d.text is None or len(d.data) != len(data) or d.name != e.name:
                continue
            try:
                again = enc.encode_line(d.text).data
            except EncodeError:
                continue
            if again != data:
                continue
            cands.append((e.name, e.encoding, d.text, data))
    verdict: dict[int, str] = {}
    target = a.llvm_target or a.targets[0]
    if a.llvm_target:
        ref = oracle.assemble(a.mc_target, [c[2] for c in cands])
        for i, (c, (rb, _)) in enumerate(zip(cands, ref)):
            verdict[i] = f"accepted by llvm-mc 22 ({a.llvm_target}), bytes identical" if rb == c[3] else ""
    out: dict[str, list[dict]] = {}
    for i, (name, encoding, text, data) in enumerate(cands):
        v = verdict.get(i, "round-trip only") if a.llvm_target else "round-trip only"
        if not v:
            continue  # llvm-mc disagrees: not shown as an example
        lst = out.setdefault(name, [])
        if sum(1 for x in lst if x["encoding"] == encoding) >= 2:
            continue
        lst.append({"text": text, "bytes": data.hex(" "), "target": target, "verified_by": v, "encoding": encoding})
    return out
