"""Measure which register classes ptxas takes in each plain register operand of the catalog's forms.

    made by: python -m gpuisa.data.ptx.measure_classes      (needs ptxas; about a minute)

For every example of every form (instances ptxas accepted when the catalog was generated, and EXTRA_EXAMPLES) and every
operand that is one plain register or an integer, the operand is replaced by one of each other class the probe
kernel declares (``r`` .b32, ``rd`` .b64, ``h`` .b16, ``f`` .f32, ``fd`` .f64, ``p`` .pred, ``q`` .b128)
and ptxas 13 judges each variant on a target the form is available on (PTX ISA 9.0).  Written to
``measured/register_classes.json``: per instruction name, form syntax and the opcode's type tokens (the
classes an operand takes depend on them: ``bfind.u32`` / ``bfind.u64``), the operand index and the
classes ptxas accepted there, only for operands where it refused some class.  ``corrections.correct_forms``
attaches them to the forms (``reg_classes``) and ``operand_types.operand_error`` checks a declared
register against them.

Optional trailing operands have no examples (``tails``): an operand that comes with a modifier
(cache-policy with ``.L2::cache_hint``, ctaMask with ``.multicast::cluster``, byteMask with ``.cp_mask``)
or a form's one optional last operand (tcgen05.mma.ws's zero-column-mask-desc) is added to each example
(with its modifier) as a register of each class; written per instruction and form syntax as
``[values of the modifier, classes]`` in syntax order, where some class was refused.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from gpuisa.ptx import catalog, ptxas
from gpuisa.ptx.corrections import OPERAND_MODIFIERS, VECTOR_OPTIONAL
from gpuisa.ptx.instances import render_bind
from gpuisa.ptx.match import dot_tokens, match_opcode
from gpuisa.ptx.operand_types import CLASS_TYPES, split_operands

OUT = Path(__file__).parent / "measured" / "register_classes.json"
GENERATED_BY = "python -m gpuisa.data.ptx.measure_classes"
CLASSES = {"r": "r9", "rd": "rd9", "h": "h9", "f": "f9", "fd": "fd7", "p": "p7", "q": "q7"}
REG = re.compile(r"^(rd|fd|r|h|f|p|q)\d+$")


# examples of types the catalog's examples lack (taken by ptxas 13 as written): measured like the others, in
# the forms whose opcode they match
EXTRA_EXAMPLES = {"mapa": ["mapa.u64 rd1, rd2, r1;", "mapa.shared::cluster.u64 rd1, rd2, r1;"],
                  "getctarank": ["getctarank.u64 r1, rd1;", "getctarank.shared::cluster.u64 r1, rd1;"]}


def examples(name: str, form: dict) -> list[str]:
    """The form's examples and those of EXTRA_EXAMPLES its opcode takes."""
    extra = [e for e in EXTRA_EXAMPLES.get(name, ()) if match_opcode(form, dot_tokens(e.split(" ", 1)[0]))[0] is not None]
    return list(form.get("examples") or ()) + extra


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
                for ex in examples(ins["name"], form):
                    opcode, _, rest = ex.rstrip(";").partition(" ")
                    ops = split_operands(rest)
                    for i, op in enumerate(ops):
                        if not REG.match(op) and not op.lstrip("-").isdigit():
                            continue  # (an integer there: which registers may stand for it is measured too)
                        for cls, reg in CLASSES.items():
                            line = opcode + " " + ", ".join(ops[:i] + [reg] + ops[i + 1:]) + ";"
                            out.append((ins["name"], form["syntax"], type_key(opcode), i, cls, target, line))
    return out


def tail_operands(form: dict) -> list[tuple[str, list[str]]]:
    """(operand name, values of the modifier it comes with; [] for none) of a form's optional trailing
    operands: all of them modifier operands, or one optional last operand."""
    ops = form["operands"]
    opt = [o for o in ops if o["optional"]]
    if not opt or any(o["optional"] for o in ops[:len(ops) - len(opt)]) or any(o["kind"] != "reg" for o in opt):
        return []
    vectors = [o for o in opt if o["name"] in VECTOR_OPTIONAL]  # (left out: the tail is the linked ones)
    linked = opt[len(vectors):] if opt[:len(vectors)] == vectors else opt
    if all(o["name"] in OPERAND_MODIFIERS for o in linked):
        keys = [OPERAND_MODIFIERS[o["name"]][:-1] for o in linked]
        # (cp.reduce.async.bulk.tensor's grammar leaves .level::cache_hint a literal: corrections makes it a set)
        return [(o["name"], form["value_sets"].get(k, [".L2::cache_hint"] if k == ".level::cache_hint" else [k]))
                for o, k in zip(linked, keys)]
    if len(opt) != 1 or not re.search(r"\{\s*,\s*" + re.escape(opt[0]["name"]) + r"\s*\}", form["syntax"]):
        return []  # (atom's c: optional in the catalog, but not written as {, c})
    return [(opt[0]["name"], [])]


def tail_probes() -> list[tuple[str, str, int, str, str, str]]:
    """(name, syntax, tail index, class, target, line): each example with one tail operand added."""
    out = []
    for fam in catalog.families():
        for ins in fam["instructions"]:
            for form in ins["forms"]:
                tails = tail_operands(form)
                targets = sorted(catalog.expand_targets(form.get("targets", [])), key=catalog.target_key)
                if not tails or not targets or not form.get("examples"):
                    continue
                target = "sm_100a" if "sm_100a" in targets else targets[-1]
                need = sum(1 for o in form["operands"] if not o["optional"])
                for ex in form["examples"][:4]:
                    opcode, _, rest = ex.rstrip(";").partition(" ")
                    ops = split_operands(rest)
                    bind = match_opcode(form, dot_tokens(opcode))[0]
                    if len(ops) != need or bind is None:
                        continue
                    for k, (_, values) in enumerate(tails):
                        key = OPERAND_MODIFIERS[tails[k][0]][:-1] if values else ""
                        text = render_bind(form, dict(bind, **{key: values[0]}))[0] if values else opcode
                        text = text.replace(".level::cache_hint", ".L2::cache_hint")
                        for cls, reg in CLASSES.items():
                            out.append((ins["name"], form["syntax"], k, cls, target, text + " " + ", ".join(ops + [reg]) + ";"))
    return out


def measure_tails(tool: str) -> dict:
    """name -> syntax -> [[modifier values, classes taken]] for the tail operands where a class was refused."""
    todo = tail_probes()
    accepted = judge(tool, [(t[4], t[5]) for t in todo])
    seen: dict = {}
    for (name, syntax, k, cls, _, _), good in zip(todo, accepted):
        entry = seen.setdefault((name, syntax), {}).setdefault(k, {})
        entry[cls] = entry.get(cls, False) or good
    table: dict = {}
    for (name, syntax), by_k in sorted(seen.items()):
        form = next(f for fam in catalog.families() for i in fam["instructions"] if i["name"] == name
                    for f in i["forms"] if f["syntax"] == syntax)
        tails = tail_operands(form)
        rows = [[tails[k][1], sorted(c for c, v in got.items() if v)] for k, got in sorted(by_k.items())]
        if any(taken and len(taken) < len(CLASSES) for _, taken in rows) and all(t for _, t in rows):
            table.setdefault(name, {})[syntax] = rows
    print(f"{len(todo)} tail probes; {sum(len(t) for t in table.values())} forms")
    return table


def judge(tool: str, todo: list[tuple[str, str]]) -> list[bool]:
    """ptxas's verdict on each (target, line)."""
    by_target: dict = {}
    for k, (target, _) in enumerate(todo):
        by_target.setdefault(target, []).append(k)
    accepted = [False] * len(todo)
    for target, idx in by_target.items():
        errs = ptxas.compile_lines(tool, [todo[k][1] for k in idx], target, "9.0")
        for k, e in zip(idx, errs):
            accepted[k] = not e
    return accepted


def main() -> int:
    tool = ptxas.find_ptxas()
    if not tool:
        print("measure_classes: ptxas not found", file=sys.stderr)
        return 2
    todo = probes()
    accepted = judge(tool, [(p[5], p[6]) for p in todo])
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
    tails = ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}" for k, v in
                        sorted(measure_tails(tool).items()))
    OUT.write_text(f'{{"generated_by": {json.dumps(GENERATED_BY)}, "ptxas": {json.dumps(ptxas.ptxas_version(tool))},\n'
                   f'"classes": {{\n{body}}},\n"tails": {{\n{tails}}}}}\n')
    print(f"{len(todo)} probes; {sum(len(t) for s in table.values() for t in s.values())} form/type entries -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
