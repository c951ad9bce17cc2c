"""Measure which register classes ptxas takes in each plain register operand of the catalog's forms.

    made by: python -m gpuisa.data.ptx.measure_classes      (needs ptxas; about a minute)

For every example of every form (instances ptxas accepted when the catalog was generated) and every
operand that is one plain register or an integer, the operand is replaced by one of each other class the probe
kernel declares (``r`` .b32, ``rd`` .b64, ``h`` .b16, ``f`` .f32, ``fd`` .f64, ``p`` .pred, ``q`` .b128)
and ptxas 13 judges each variant on a target the form is available on (PTX ISA 9.0).  Written to
``measured/register_classes.json``: per instruction name, form syntax and the opcode's type tokens (the
classes an operand takes depend on them: ``bfind.u32`` / ``bfind.u64``), the operand index and the
classes ptxas accepted there, only for operands where it refused some class.  ``corrections.correct_forms``
attaches them to the forms (``reg_classes``) and ``operand_types.operand_error`` checks a declared
register against them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gpuisa.ptx import catalog, ptxas
from gpuisa.ptx.operand_types import CLASS_TYPES, split_operands

OUT = Path(__file__).parent / "measured" / "register_classes.json"
GENERATED_BY = "python -m gpuisa.data.ptx.measure_classes"
CLASSES = {"r": "r9", "rd": "rd9", "h": "h9", "f": "f9", "fd": "fd7", "p": "p7", "q": "q7"}
REG = re.compile(r"^(rd|fd|r|h|f|p|q)\d+$")


def type_key(opcode: str) -> str:
    """The opcode's type tokens, joined (the key the classes are stored under)."""
    return "".join("." + t for t in opcode.split(".")[1:] if "." + t in CLASS_TYPES)


def probes() -> list[tuple[str, str, str, int, str, str, str]]:
    """(name, syntax, type key, operand index, class, target, line) for every variant."""
    out = []
    for fam in catalog.families():
        for ins in fam["instructions"]:
            for form in ins["forms"]:
                targets = sorted(catalog.expand_targets(form.get("targets", [])), key=catalog.target_key)
                if not targets or not form.get("examples"):
                    continue
                target = "sm_100a" if "sm_100a" in targets else targets[-1]
                for ex in form["examples"]:
                    opcode, _, rest = ex.rstrip(";").partition(" ")
                    ops = split_operands(rest)
                    for i, op in enumerate(ops):
                        if not REG.match(op) and not op.lstrip("-").isdigit():
                            continue  # (an integer there: which registers may stand for it is measured too)
                        for cls, reg in CLASSES.items():
                            line = opcode + " " + ", ".join(ops[:i] + [reg] + ops[i + 1:]) + ";"
                            out.append((ins["name"], form["syntax"], type_key(opcode), i, cls, target, line))
    return out


def main() -> int:
    tool = ptxas.find_ptxas()
    if not tool:
        print("measure_classes: ptxas not found", file=sys.stderr)
        return 2
    todo = probes()
    by_target: dict = {}
    for k, p in enumerate(todo):
        by_target.setdefault(p[5], []).append(k)
    accepted = [False] * len(todo)
    for target, idx in by_target.items():
        errs = ptxas.compile_lines(tool, [todo[k][6] for k in idx], target, "9.0")
        for k, e in zip(idx, errs):
            accepted[k] = not e
    seen: dict = {}
    for (name, syntax, tkey, i, cls, _, _), good in zip(todo, accepted):
        entry = seen.setdefault((name, syntax, tkey, i), {})
        entry[cls] = entry.get(cls, False) or good
    table: dict = {}
    for (name, syntax, tkey, i), got in sorted(seen.items()):
        taken = sorted(c for c, v in got.items() if v)
        if taken and len(taken) < len(got):  # some class refused, some accepted
            table.setdefault(name, {}).setdefault(syntax, {}).setdefault(tkey, {})[str(i)] = taken
    body = ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}" for k, v in
                       sorted(table.items()))
    OUT.write_text(f'{{"generated_by": {json.dumps(GENERATED_BY)}, "ptxas": {json.dumps(ptxas.ptxas_version(tool))},\n'
                   f'"classes": {{\n{body}}}}}\n')
    print(f"{len(todo)} probes; {sum(len(t) for s in table.values() for t in s.values())} form/type entries -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
