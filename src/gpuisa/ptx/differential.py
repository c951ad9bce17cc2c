"""`gpuisa ptx check` against ptxas on generated instances (valid combinations and deliberate mistakes).

Run the full differential: ``python -m gpuisa.ptx.differential [--per-form N] [--out artifacts/ptx_differential.md]``.
Instances are compiled at each form's minimum target under ``.version 9.0``; our
verdict is the validator's with the same target and version.  Disagreements are
written to the artifacts report.  The instances use different random draws from
those the catalog generator measured.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

from . import catalog, instances, ptxas
from .check import check_instruction

ROOT = Path(__file__).resolve().parents[3]


def build(per_form: int, seed: int = 7, forms_limit: int | None = None) -> list[dict]:
    """[{text, target, kind, name, form}] over every ptxas-verified form."""
    rng = random.Random(seed)
    out = []
    allforms = [(inst["name"], f) for fam in catalog.families() for inst in fam["instructions"] for f in inst["forms"]
                if f.get("verified")]
    if forms_limit:
        allforms = rng.sample(allforms, min(forms_limit, len(allforms)))
    lits_all = sorted({lit for _, f in allforms for lit in instances.literals(f)})
    for fi, (name, f) in enumerate(allforms):
        target = f["min_target"]
        combos = instances.opcode_combos(f, per_form, seed=seed * 1000 + fi)
        for ci, (opcode, bind) in enumerate(combos):
            ops = instances.operand_text(f, opcode, f["operand_strategy"], random.Random(seed + ci))
            text = opcode + (" " + ops if ops else "") + ";"
            out.append({"text": text, "target": target, "kind": "combination", "name": name, "form": f["syntax"]})
            if ci % 3 == 0:
                for kind, bad in instances.mutations(f, opcode, bind, ops, rng.sample(lits_all, 3), rng):
                    out.append({"text": bad, "target": target, "kind": kind, "name": name, "form": f["syntax"]})
    return out


def run(items: list[dict], tool: str, cache: ptxas.Cache | None = None) -> dict:
    by_target: dict[str, list[int]] = defaultdict(list)
    for i, it in enumerate(items):
        by_target[it["target"]].append(i)
    for t, idx in by_target.items():
        for i, errs in zip(idx, ptxas.verdicts(tool, [items[i]["text"] for i in idx], t, "9.0", cache)):
            items[i]["ptxas"] = not errs
            items[i]["ptxas_errors"] = errs[:2]
    agree = 0
    per_kind: Counter = Counter()
    per_kind_agree: Counter = Counter()
    disagreements = []
    for it in items:
        r = check_instruction(it["text"], it["target"], "9.0")
        it["ours"] = r["valid"]
        it["our_error"] = r["error"]
        per_kind[it["kind"]] += 1
        if it["ours"] == it["ptxas"]:
            agree += 1
            per_kind_agree[it["kind"]] += 1
        else:
            disagreements.append(it)
    return {"instances": len(items), "agree": agree, "ratio": agree / max(1, len(items)),
            "per_kind": {k: [per_kind_agree[k], n] for k, n in per_kind.items()},
            "accepted_by_ptxas": sum(1 for it in items if it["ptxas"]), "disagreements": disagreements}


def write_report(res: dict, path: Path, tool_version: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# PTX validator vs ptxas {tool_version}", "",
             f"{res['agree']} of {res['instances']} instances agree ({res['ratio']:.2%}); "
             f"ptxas accepted {res['accepted_by_ptxas']}.", "", "| kind | agree | instances |", "| --- | --- | --- |"]
    lines += [f"| {k} | {a} | {n} |" for k, (a, n) in sorted(res["per_kind"].items())]
    lines += ["", "## Disagreements", "", "| instruction | target | ptxas | ours | ptxas says | we say |",
              "| --- | --- | --- | --- | --- | --- |"]
    for d in res["disagreements"][:2000]:
        lines.append(f"| `{d['text']}` | {d['target']} | {'accept' if d['ptxas'] else 'reject'} | "
                     f"{'accept' if d['ours'] else 'reject'} | {'; '.join(d['ptxas_errors'])[:120]} | "
                     f"{(d['our_error'] or '')[:120]} |")
    path.write_text("\n".join(lines) + "\n")
    path.with_suffix(".json").write_text(json.dumps({k: v for k, v in res.items() if k != "disagreements"}
                                                    | {"disagreements": res["disagreements"][:2000]}, indent=1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="ptx check vs ptxas on generated instances")
    ap.add_argument("--per-form", type=int, default=120)
    ap.add_argument("--forms", type=int, default=None, help="sample this many forms")
    ap.add_argument("--out", type=Path, default=ROOT / "artifacts" / "ptx_differential.md")
    args = ap.parse_args(argv)
    tool = ptxas.find_ptxas()
    if not tool:
        print("ptxas not found", file=sys.stderr)
        return 2
    items = build(args.per_form, forms_limit=args.forms)
    res = run(items, tool, ptxas.Cache())
    write_report(res, args.out, ptxas.ptxas_version(tool))
    print(f"{res['agree']}/{res['instances']} agree ({res['ratio']:.2%}); report: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
