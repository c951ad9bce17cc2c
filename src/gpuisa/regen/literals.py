"""How LLVM 22 prints a literal dword, per instruction (generation time).

    python -m gpuisa.regen.literals [arch ...]   # adds "literal_types" to codec/data/named_<arch>.json

LLVM's disassembler prints a literal that an inline constant could have encoded as ``lit(0x...)`` (so the
text assembles back to the same bytes) and others in hex, a 16-bit operand's as its low half; which values
count as inline depends on the operand type LLVM gives the source (f16, bf16, i16, packed, 32/64-bit), which
the mnemonic does not always tell (``v_cvt_pk_f32_bf8`` reads an f16-typed source, ``v_pk_fma_f32`` a 32-bit
one).  For every instruction with a source that can hold the literal, its first such source is set to the
literal marker and a set of values chosen to separate the rules (``operands.LITERAL_TYPES``) is disassembled;
the rule that reproduces every printed token is kept where it differs from the decoder's default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import archs
from ..codec import operands as opd
from ..codec import oracle
from ..codec.decoder import default_literal_type
from ..codec.plans import load_plans
from ..codec.syntax import split_operands
from ..codec.tables import load_arch_tables
from .named_key import add_key

if TYPE_CHECKING:
    from ..codec.plans import Plan

# values inside and outside each rule's inline set (integers, f32/f16/bf16 constants, their neighbours)
VALUES = (0x1, 0x40, 0x41, 0xFFFFFFF0, 0xFFF0, 0x3C00, 0x12343C00, 0x3F800000, 0x3E22F983, 0x3118, 0x3FF00000,
          0x3FC45F30, 0x12345678, 0xBF800000, 0x10000, 0x3C003C00, 0x0, 0x3F80, 0x3E22, 0x40003C00, 0xFFF0FFF0,
          0x3FE00000, 0x00400040, 0x4000, 0x3F803F80)


def _source(plan: Plan) -> tuple[int, str] | None:
    """(operand position, field) of the plan's first source that can select the literal."""
    for i, sp in enumerate(plan.operands):
        if sp.kind in ("src", "ssrc") and sp.scale == 1 and sp.field.startswith(("SRC", "SSRC")):
            return i, sp.field
        table = sp.tables
        if len(table) == 1 and next(iter(table)).startswith(("SRC", "SSRC")) and "256" in next(iter(table.values())):
            return i, next(iter(table))
    return None


def probe(arch_name: str) -> dict[str, str]:
    """``{"mnemonic|ENCODING": literal type}`` where the learned rule differs from ``default_literal_type``."""
    arch = archs.by_name(arch_name)
    tables = load_arch_tables(arch_name)
    plans = load_plans(arch_name)
    todo: list[tuple[str, int, int]] = []
    words: list[bytes] = []
    for key, plan in sorted(plans.items()):
        src = _source(plan)
        enc = tables.encodings.get(key.split("|")[1])
        fld = enc.field(src[1]) if src is not None and enc is not None else None
        if src is None or enc is None or fld is None or fld.width < 8:
            continue
        if enc.width == 64 and not arch.features.vop3_literal:
            continue  # GFX9 VOP3 takes no literal (llvm-mc-22 crashes on one instead of rejecting it)
        size = plan.size
        word = fld.insert(plan.word, opd.LITERAL).to_bytes(enc.width // 8, "little")
        word += bytes(size - len(word))
        todo.append((key, src[0], size))
        words += [word + v.to_bytes(4, "little") for v in VALUES]
    got = oracle.disassemble(arch.mc_target, words)
    out: dict[str, str] = {}
    for j, (key, pos, size) in enumerate(todo):
        toks = []
        for r in got[j * len(VALUES):(j + 1) * len(VALUES)]:
            text = r[0].text if r and r[0].offset == 0 and r[0].text and r[0].size == size + 4 else None
            ops = split_operands(text)[0] if text else []
            toks.append(ops[pos] if pos < len(ops) else None)
        if None in toks:
            continue  # the literal is not accepted here (GFX9 VOP3) or the word is not this instruction
        default = default_literal_type(key.split("|")[0], plans[key].operands[pos], plans[key].mnemonic)
        rules = [default] + [t for t in opd.LITERAL_TYPES if t != default]
        found = next((t for t in rules if all(opd.literal_token(v, t) == tok for v, tok in zip(VALUES, toks))), None)
        if found is not None and found != default:
            out[key] = found
        elif found is None:
            out[key] = "?"  # no known rule: the decoder keeps its default; listed for review
    return out


def _summary(name: str, table: dict) -> str:
    unknown = sorted(k for k, v in table.items() if v == "?")
    return (f"{name}: {len(table)} literal types differ from the default"
            + (f", {len(unknown)} fit no rule: {', '.join(unknown[:8])}" if unknown else ""))


def main(argv: list[str] | None = None) -> int:
    return add_key("literal_types", probe, _summary, argv)


if __name__ == "__main__":
    raise SystemExit(main())
