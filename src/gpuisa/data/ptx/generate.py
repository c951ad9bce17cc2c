"""Regenerate the PTX catalog (``src/gpuisa/data/ptx/<family>.json``) from the grammars and ptxas.

Facts only:
- forms, value sets, operands and modifiers: parsed from the PTX ISA 9.0 syntax
  grammars (``../shared/reference/ptx-9.0/syntax/*.txt``, see SOURCE.md there);
- PTX ISA version and targets of every form (and of values that need more than
  their form): measured with ptxas, which names the ``.version`` a feature needs
  and rejects it on targets that lack it;
- combinations of values ptxas rejects although each value is valid on its own
  (``rejects``), measured the same way;
- examples: instances of the form that ptxas accepted.
Summaries and categories are the project's own (``families.py``).

Run: ``python -m gpuisa.data.ptx.generate [--syntax DIR] [--cap N]`` (needs ptxas; about 5 minutes).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

from gpuisa.ptx import grammar, instances, ptxas
from gpuisa.data.ptx import families

HERE = Path(__file__).parent
DEFAULT_SYNTAX = Path(__file__).resolve().parents[5] / "shared" / "reference" / "ptx-9.0" / "syntax"
PROBE_TARGETS = ("sm_20", "sm_30", "sm_32", "sm_35", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70",
                 "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
                 "sm_100f", "sm_103a", "sm_110a", "sm_120", "sm_120a")
TOP_TARGETS = ("sm_90a", "sm_100a", "sm_120a", "sm_110a")
VERSIONS = ("1.0", "1.4", "2.0", "2.2", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1", "6.2",
            "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2",
            "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0")
# Known transcription defects of the grammar files: (old text, corrected text, why).
FIXES = {
    "vset4.txt": [
        (".b1, .b10\n", ".b1, .b10,\n", "a comma is missing in the .mask list"),
        ("\ndefaults to .b3210\n", "\n", "a comment lost its '//'"),
        ("""{ .b00, .b01, .b02, .b03, .b04, .b05, .b06, .b07,
                  .b10, .b11, .b12, .b13, .b14, .b15, .b16, .b17,
                  .b20, .b21, .b22, .b23, .b24, .b25, .b26, .b27,
                  .b30, .b31, .b32, .b33, .b34, .b35, .b36, .b37,
                  .b40, .b41, .b42, .b43, .b44, .b45, .b46, .b47,
                  .b50, .b51, .b52, .b53, .b54, .b55, .b56, .b57,
                  .b60, .b61, .b62, .b63, .b64, .b65, .b66, .b67,
                  .b70, .b71, .b72, .b73, .b74, .b75, .b76, .b77
                  }""", "{ .b.n.n.n.n };\n.n = { 0, 1, 2, 3, 4, 5, 6, 7 }",
         "the byte selectors have four digits (.bxyzw), as in vop4"),
    ],
}
SOURCE = {"source": "PTX ISA 9.0 syntax grammars (ptx-90-parser b5d7089, MIT)", "version": "9.0"}


def target_key(t: str) -> tuple:
    import re

    m = re.match(r"sm_(\d+)([af]?)", t)
    return (int(m.group(1)), m.group(2)) if m else (0, "")


def _instance_text(form: dict, opcode: str, strategy: str, seed: int, optional: bool = False) -> str:
    ops = instances.operand_text(form, opcode, strategy, random.Random(seed), with_optional=optional)
    return opcode + (" " + ops if ops else "") + ";"


def _structural(errors: list[str]) -> bool:
    return any(not ptxas.is_availability(e) for e in errors)


def choose_strategies(tool: str, forms: list[dict], cache: ptxas.Cache) -> None:
    """Per form, the first operand strategy with an instance ptxas accepts on one of the newest targets."""
    pending = list(range(len(forms)))
    for strategy in instances.STRATEGIES:
        if not pending:
            break
        lines, owners = [], []
        for fi in pending:
            for opcode, _ in forms[fi]["_combos"][:6]:
                lines.append(_instance_text(forms[fi], opcode, strategy, 1))
                owners.append(fi)
        ok = set()
        for t in TOP_TARGETS:
            for fi, errs in zip(owners, ptxas.verdicts(tool, lines, t, "9.0", cache)):
                if not errs:
                    ok.add(fi)
        for fi in ok:
            forms[fi]["operand_strategy"] = strategy
        pending = [fi for fi in pending if fi not in ok]
        print(f"  strategy {strategy}: {len(ok)} forms accepted, {len(pending)} left", file=sys.stderr)


def measure(tool: str, forms: list[dict], cache: ptxas.Cache) -> None:
    """Targets and versions of every derivation instance of every verified form."""
    lines, owners = [], []
    for fi, f in enumerate(forms):
        if not f.get("operand_strategy"):
            continue
        for ci, (opcode, bind) in enumerate(f["_combos"]):
            lines.append(_instance_text(f, opcode, f["operand_strategy"], ci))
            owners.append((fi, ci))
    accepted: dict[tuple, list[str]] = defaultdict(list)
    structural: dict[tuple, int] = defaultdict(int)
    for t in PROBE_TARGETS:
        for key, errs in zip(owners, ptxas.verdicts(tool, lines, t, "9.0", cache)):
            if not errs:
                accepted[key].append(t)
            elif _structural(errs):
                structural[key] += 1
        print(f"  probed {t}", file=sys.stderr)
    acc_keys = [k for k in owners if accepted.get(k)]
    index = {k: i for i, k in enumerate(owners)}
    acc_lines = [lines[index[k]] for k in acc_keys]
    # the .version each accepted instance needs: ptxas names it when compiled under .version 1.0 ...
    versions: dict[tuple, str | None] = {}
    for key, errs in zip(acc_keys, _at_min_target(tool, acc_keys, acc_lines, accepted, "1.0", cache)):
        reqs = [m.group(1) for e in errs for m in [ptxas.VERSION_REQ.search(e)] if m]
        other = [e for e in errs if not ptxas.VERSION_REQ.search(e) and not ptxas.is_availability(e)]
        versions[key] = max(reqs, key=lambda v: tuple(map(int, v.split(".")))) if reqs and not other else (
            "1.0" if not errs else None)
    # ... and where it does not (a parse error under the old version), by trying each version.
    unknown = [k for k in acc_keys if versions.get(k) is None]
    for v in VERSIONS[1:]:
        if not unknown:
            break
        idx = {k: i for i, k in enumerate(acc_keys)}
        res = _at_min_target(tool, unknown, [acc_lines[idx[k]] for k in unknown], accepted, v, cache)
        still = []
        for k, errs in zip(unknown, res):
            if any(not ptxas.is_availability(e) or "PTX ISA" in e for e in errs):
                still.append(k)
            else:
                versions[k] = v
        unknown = still
    for fi, f in enumerate(forms):
        f["_accepted"] = {ci: accepted[(fi, ci)] for ci in range(len(f["_combos"])) if accepted.get((fi, ci))}
        f["_versions"] = {ci: versions.get((fi, ci)) for ci in f["_accepted"]}


def _at_min_target(tool, keys, lines, accepted, version, cache):
    by_target: dict[str, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        by_target[min(accepted[k], key=target_key)].append(i)
    out: list[list[str]] = [[] for _ in keys]
    for t, idxs in by_target.items():
        for i, errs in zip(idxs, ptxas.verdicts(tool, [lines[i] for i in idxs], t, version, cache)):
            out[i] = errs
    return out


def _vkey(v: str | None) -> tuple:
    return tuple(map(int, v.split("."))) if v else (99,)


def summarise(form: dict) -> dict:
    """The catalog entry of a form from its measurements."""
    acc = form.get("_accepted", {})
    out = {k: form[k] for k in ("syntax", "opcode", "operands", "value_sets", "value_patterns") if form.get(k) or k in (
        "operands", "value_sets")}
    out["state_spaces"] = _state_spaces(form)
    out["modifiers"] = _modifiers(form)
    if not acc:
        out.update({"ptx_version": "", "min_target": "", "targets": [], "verified": False,
                    "note": "no instance of this form was accepted by ptxas with the generated operands"})
        return out
    targets = sorted({t for ts in acc.values() for t in ts}, key=target_key)
    versions = [v for v in form["_versions"].values() if v]
    out["ptx_version"] = min(versions, key=_vkey) if versions else ""
    out["min_target"] = targets[0]
    out["targets"] = [t for t in PROBE_TARGETS if t in targets]
    if out["targets"] == [t for t in PROBE_TARGETS if target_key(t) >= target_key(targets[0])]:
        out["targets"] = ["all from " + targets[0]]
    out["verified"] = True
    out["operand_strategy"] = form["operand_strategy"]
    # values (and optional modifiers) that need more than the form as a whole
    per: dict[str, dict] = {}
    seen: dict[str, list[int]] = defaultdict(list)
    for ci, (_, bind) in enumerate(form["_combos"]):
        for k, v in bind.items():
            seen[f"{k}={v}"].append(ci)
    rejects = []
    for key, cis in seen.items():
        ok = [ci for ci in cis if ci in acc]
        if not ok:
            if len(cis) >= 2:
                rejects.append(key)
            continue
        ts = sorted({t for ci in ok for t in acc[ci]}, key=target_key)
        vs = [form["_versions"][ci] for ci in ok if form["_versions"].get(ci)]
        req: dict = {}
        if set(ts) != set(targets):
            req["targets"] = [t for t in PROBE_TARGETS if t in ts]
        v = min(vs, key=_vkey) if vs else ""
        if v and _vkey(v) > _vkey(out["ptx_version"]):
            req["ptx_version"] = v
        if req:
            per[key] = req
    if per:
        out["value_requirements"] = per
    # a value that ptxas accepts only together with some value of another optional slot
    requires = {}
    for key, cis in seen.items():
        if key in rejects:
            continue
        ok = [ci for ci in cis if ci in acc]
        bad = [ci for ci in cis if ci not in acc]
        if not ok or not bad:
            continue
        slot = key.split("=")[0]
        for other in {k.split("=")[0] for ci in ok for k in _keys(form, ci)} - {slot}:
            if all(other in form["_combos"][ci][1] for ci in ok) and any(other not in form["_combos"][ci][1]
                                                                         for ci in bad):
                if not all(other in b for _, b in form["_combos"]):
                    requires.setdefault(key, []).append(other)
    if requires:
        out["requires"] = requires
    # pairs of values that ptxas never accepts together although each is accepted with others
    pairs = []
    keys = [k for k in seen if k not in rejects]
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a.split("=")[0] == b.split("=")[0]:
                continue
            both = set(seen[a]) & set(seen[b])
            if both and (len(both) >= 2 or both & form.get("_pairmin", set())) and not any(ci in acc for ci in both):
                pairs.append([a, b])
    if rejects:
        out["rejects"] = sorted(rejects)
    if pairs:
        out["rejected_pairs"] = pairs
    # the first example is an instance that needs no more than the form's version and target
    oldest = [ci for ci in sorted(acc) if form["_versions"].get(ci) == out["ptx_version"]
              and targets[0] in acc[ci]]
    ex = (oldest[:1] + [ci for ci in sorted(acc) if ci not in oldest[:1]])[:3]
    out["examples"] = [_instance_text(form, form["_combos"][ci][0], form["operand_strategy"], ci) for ci in ex]
    return out


def _keys(form: dict, ci: int) -> list[str]:
    return [f"{k}={v}" for k, v in form["_combos"][ci][1].items()]


def _state_spaces(form: dict) -> list[str]:
    spaces = (".global", ".shared", ".local", ".const", ".param", ".shared::cta", ".shared::cluster", ".tex",
              ".param::entry", ".param::func")
    found = []
    for vals in form["value_sets"].values():
        found += [v for v in vals if v in spaces]

    def walk(es):
        for e in es:
            if e.get("lit") in spaces:
                found.append(e["lit"])
            if "opt" in e:
                walk(e["opt"])
    walk(form["opcode"])
    return sorted(set(found), key=found.index)


def _modifiers(form: dict) -> list[str]:
    mods = []

    def walk(es, opt):
        for e in es[1:] if not opt else es:
            if "lit" in e:
                mods.append(("{%s}" if opt else "%s") % e["lit"])
            elif "set" in e:
                mods.append(("{%s}" if opt else "%s") % e["set"])
            else:
                walk(e["opt"], True)
    walk(form["opcode"], False)
    return mods


def load_forms(syntax_dir: Path) -> list[dict]:
    forms = []
    for path in sorted(syntax_dir.glob("*.txt")):
        fixes = [(o, n) for o, n, _ in FIXES.get(path.name, [])]
        for f in grammar.parse_file(path, fixes):
            f["family"] = path.stem
            f["name"] = f["head"] or path.stem
            forms.append(f)
    return forms


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--syntax", type=Path, default=DEFAULT_SYNTAX)
    ap.add_argument("--cap", type=int, default=120, help="derivation instances per form")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args(argv)
    tool = ptxas.find_ptxas()
    if tool is None:
        print("generate: ptxas is required (CUDA 13, or pip install nvidia-cuda-nvcc)", file=sys.stderr)
        return 2
    tv = ptxas.ptxas_version(tool)
    forms = load_forms(args.syntax)
    for i, f in enumerate(forms):
        combos = dict(instances.opcode_combos(f, args.cap, seed=i))
        pm = instances.pair_minimal(f)
        for text, bind in pm:
            combos.setdefault(text, bind)
        f["_combos"] = list(combos.items())
        pm_texts = {t for t, _ in pm}
        f["_pairmin"] = {ci for ci, (t, _) in enumerate(f["_combos"]) if t in pm_texts}
    cache = ptxas.Cache()
    print(f"{len(forms)} forms; choosing operand strategies", file=sys.stderr)
    choose_strategies(tool, forms, cache)
    measure(tool, forms, cache)
    by_family: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for f in forms:
        by_family[f["family"]][f["name"]].append(summarise(f))
    provenance = [SOURCE, {"source": "ptxas", "version": tv,
                           "note": "PTX ISA versions, targets, rejected combinations and examples measured"}]
    for old in args.out.glob("*.json"):
        old.unlink()
    for fam, insts in sorted(by_family.items()):
        doc = {"family": fam, "generated_by": "python -m gpuisa.data.ptx.generate", "grammar": f"syntax/{fam}.txt",
               "sources": provenance,
               "source_corrections": [w for _, _, w in FIXES.get(fam + ".txt", [])],
               "instructions": []}
        for name, fs in insts.items():
            cat, summary = families.info(name)
            doc["instructions"].append({"name": name, "category": cat, "summary": summary, "forms": fs})
        (args.out / f"{fam}.json").write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    n_ver = sum(1 for f in forms if f.get("_accepted"))
    print(f"wrote {len(by_family)} families, {len(forms)} forms ({n_ver} verified by ptxas {tv})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
