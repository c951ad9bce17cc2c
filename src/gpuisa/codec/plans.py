"""Print plans: how an (instruction, encoding)'s fields become LLVM syntax.

A plan is derived from the probe record (``probe.py``): for each operand
position the field that selects its register or value and how (kind, register
count, scale), token templates that modifier fields apply (``-{}``, ``|{}|``),
modifier words per field value, field values LLVM rejects, and whether a
literal dword always follows.  Plans are plain JSON, built at generation time
(``python -m gpuisa.codec.plans``) and loaded by the decoder and encoder.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path

from .. import archs
from .operands import parse_reg
from .syntax import split_operands
from .tables import load_arch_tables

DATA_DIR = Path(__file__).parent / "data"
_NUM = re.compile(r"^-?(0x[0-9a-f]+|\d+)$")


def _is_value_token(tok: str) -> bool:
    return parse_reg(tok) is not None or bool(_NUM.match(tok))


def _template(base: str, new: str) -> str | None:
    i = new.find(base)
    if i < 0 or new == base:
        return None
    return new[:i] + "{}" + new[i + len(base):]


def _kind(field_width: int, base_tok: str, probes: dict[int, str], base_value: int) -> dict | None:
    """Classify how a field prints from the tokens seen for a few of its values."""
    seen = {base_value: base_tok, **probes}
    regs = {v: parse_reg(t) for v, t in seen.items()}
    counts = [r[2] for r in regs.values() if r is not None]
    n = max(counts) if counts else 1
    if field_width == 9 and any(r and r[0] == "v" for r in regs.values()):
        return {"k": "src", "n": n}
    r1 = regs.get(1)
    if r1 is not None:
        cls, idx, _ = r1
        if cls in ("v", "a"):
            return {"k": "vreg", "n": n, "c": cls}
        if cls == "s":
            return {"k": "ssrc", "n": n, "s": idx} if idx > 1 else {"k": "ssrc", "n": n}
    if all(_NUM.match(t) for t in seen.values()):
        t16 = seen.get(16, seen.get(1, "0"))
        top = seen.get(1 << (field_width - 1), "")
        return {"k": "imm", "hex": t16.startswith("0x") or t16.startswith("-0x"), "signed": top.startswith("-")}
    return None


def build_plan(enc, rec: dict) -> dict:
    base_word = rec["word"]
    ops, base_mods = split_operands(rec["text"])
    plan: dict = {"w": base_word, "m": rec["text"].split()[0], "ops": [{"t": t} for t in ops], "mods0": base_mods,
                  "size": rec.get("size", enc.width // 8)}
    tmpl: dict = {}
    mods: dict = {}
    bad: dict = {}
    by_field: dict[str, dict[int, dict]] = {}
    for key, d in rec["fields"].items():
        fname, v = key.split("=")
        by_field.setdefault(fname, {})[int(v)] = d
    for fname, vals in by_field.items():
        f = enc.field(fname)
        if f is None:
            continue
        base_v = f.extract(base_word)
        invalid = sorted(v for v, d in vals.items() if d.get("invalid") or d.get("other"))
        if invalid:
            bad[fname] = invalid if f.width <= 4 else ("nonzero" if len(invalid) == len(vals) else invalid)
        # operand tokens: a value field, or a template applied by a modifier field
        op_probes: dict[int, dict[int, str]] = {}
        for v, d in vals.items():
            for k, t in zip(d.get("ops", []), d.get("to", [])):
                op_probes.setdefault(k, {})[v] = t
        for k, probes in op_probes.items():
            base_tok = ops[k]
            if all(_is_value_token(t) for t in probes.values()) and _is_value_token(base_tok):
                kind = _kind(f.width, base_tok, probes, base_v)
                if kind is not None:
                    spec = plan["ops"][k]
                    if "f" not in spec or enc.field(spec["f"]).width < f.width:
                        spec.update(kind)
                        spec["f"] = fname
                    continue
            if base_tok == "off" and f.width == 1:
                plan["ops"][k].setdefault("alt", []).append(fname)
                continue
            if f.width <= 4:
                for v, t in probes.items():
                    tp = _template(base_tok, t)
                    if tp:
                        tmpl.setdefault(fname, {}).setdefault(str(v), []).append([k, tp])
            else:
                plan["ops"][k].setdefault("table", {}).setdefault(fname, {}).update({str(v): t for v, t in probes.items()})
        # modifier words
        if f.width <= 4:
            table = {}
            for v, d in vals.items():
                if d.get("add") or d.get("del"):
                    table[str(v)] = [d.get("add", []), d.get("del", [])]
            if table:
                mods[fname] = {"v": table, "base": base_v}
        else:
            adds = {v: d.get("add", []) for v, d in vals.items() if d.get("add")}
            if adds:
                one = adds.get(16) or next(iter(adds.values()))
                m = re.match(r"^([a-z_0-9]+):(-?)(0x)?([0-9a-f]+)$", one[0]) if len(one) == 1 else None
                top = adds.get(1 << (f.width - 1), [""])
                if m:
                    mods[fname] = {"name": m.group(1), "hex": bool(m.group(3)), "signed": top[0].split(":")[-1].startswith("-")}
                else:
                    mods[fname] = {"table": {str(v): a for v, a in adds.items()}}
    for spec in plan["ops"]:
        if "f" not in spec and "alt" not in spec and "table" not in spec and _NUM.match(spec["t"]) and plan["size"] > enc.width // 8:
            spec["k"] = "lit"
    if tmpl:
        plan["tmpl"] = tmpl
    if mods:
        plan["mods"] = mods
    if bad:
        plan["bad"] = bad
    return plan


def build_arch(arch_name: str) -> dict:
    tables = load_arch_tables(arch_name)
    probe = json.loads((DATA_DIR / f"probe_{arch_name}.json").read_text())
    plans = {}
    for key, rec in probe["entries"].items():
        name, enc_name = key.split("|")
        enc = tables.encodings.get(enc_name)
        if enc is None:
            continue
        plans[key] = build_plan(enc, rec)
    return {"arch": arch_name, "target": probe["target"], "generated_by": "python -m gpuisa.codec.plans", "plans": plans}


@functools.lru_cache(maxsize=None)
def load_plans(arch_name: str) -> dict[str, dict]:
    path = DATA_DIR / f"plans_{arch_name}.json"
    if not path.exists():
        donor = DONOR.get(arch_name)
        return load_plans(donor) if donor else {}
    return json.loads(path.read_text())["plans"]


# Architectures LLVM 19 does not know use the plans of their predecessor (same syntax family).
DONOR = {"cdna4": "cdna3"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    names = argv or [a.name for a in archs.AMD_ARCHS if a.llvm_target]
    for name in names:
        doc = build_arch(name)
        items = sorted(doc["plans"].items())
        lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in doc.items() if k != "plans"]
        lines.append('  "plans": {')
        for j, (k, v) in enumerate(items):
            lines.append(f"    {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" + ("," if j < len(items) - 1 else ""))
        lines += ["  }", "}"]
        (DATA_DIR / f"plans_{name}.json").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(items)} plans", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
