"""Regenerate the PTX catalog (``src/gpuisa/data/ptx/<family>.json``) from the grammars and ptxas.

Facts only:
- forms, value sets, operands and modifiers: parsed from the PTX ISA 9.0 syntax
  grammars (``../shared/reference/ptx-9.0/syntax/*.txt``, see SOURCE.md there);
- PTX ISA version and targets of every form (and of values that need more than
  their form): measured with ptxas, which names the ``.version`` a feature needs
  and rejects it on targets that lack it;
- combinations of values ptxas rejects although each value is valid on its own
  (``rejects``), measured the same way;
- examples: instances of the form that ptxas accepted;
- ptxas's own leniencies, measured so the validator can follow them: pairs of values that looked
  incompatible are re-tested inside otherwise accepted instances (``verify_pairs``); forms whose
  modifiers ptxas takes in any order (``order_free``); last operands ptxas lets one omit; value
  combinations that need a further optional slot (``pair_requires``, e.g. a rounding modifier for an
  integer-to-float cvt); and tokens ptxas ignores in any instruction (``measured/ptxas.json``).
Summaries and categories are the project's own (``families.py``).

Run: ``python -m gpuisa.data.ptx.generate [--syntax DIR] [--cap N]`` (needs ptxas; about 5 minutes).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from gpuisa.data.ptx import families
from gpuisa.data.ptx.generate_probes import (
    PROBE_TARGETS,
    instance_text,
    measure_ignored_tokens,
    measure_optional_last_operand,
    measure_order,
    target_key,
    verdicts_by_target,
    verify_pairs,
)
from gpuisa.data.ptx.grammar_fixes import FIXES
from gpuisa.ptx import grammar, instances, ptxas

HERE = Path(__file__).parent
DEFAULT_SYNTAX = Path(__file__).resolve().parents[5] / "shared" / "reference" / "ptx-9.0" / "syntax"
TOP_TARGETS = ("sm_90a", "sm_100a", "sm_120a", "sm_110a")
VERSIONS = ("1.0", "1.4", "2.0", "2.2", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1", "6.2",
            "6.3", "6.4", "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2",
            "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0")
SOURCE = {"source": "PTX ISA 9.0 syntax grammars (ptx-90-parser b5d7089, MIT)", "version": "9.0"}


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
            combos = forms[fi]["_combos"]
            picked = combos[:6]
            if strategy == "shaped":  # the last strategy: also a spread over the other combinations
                picked += combos[6::max(1, (len(combos) - 6) // 24)][:24]
            for opcode, _ in picked:
                lines.append(instance_text(forms[fi], opcode, strategy, 1))
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
        for ci, (opcode, _bind) in enumerate(f["_combos"]):
            lines.append(instance_text(f, opcode, f["operand_strategy"], ci))
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
    if form.get("_order_free"):
        out["order_free"] = True
    # values (and optional modifiers) that need more than the form as a whole
    seen: dict[str, list[int]] = defaultdict(list)
    for ci, (_, bind) in enumerate(form["_combos"]):
        for k, v in bind.items():
            seen[f"{k}={v}"].append(ci)
    per, rejects = _value_requirements(form, seen, targets, out["ptx_version"])
    if per:
        out["value_requirements"] = per
    requires = _requires(form, seen, rejects)
    if requires:
        out["requires"] = requires
    if form.get("_pair_requires"):
        out["pair_requires"] = {k: sorted(v) for k, v in sorted(form["_pair_requires"].items())}
    pairs = _rejected_pairs(form, seen, rejects)
    if rejects:
        out["rejects"] = sorted(rejects)
    if pairs:
        out["rejected_pairs"] = pairs
    # the first example is an instance that needs no more than the form's version and target
    oldest = [ci for ci in sorted(acc) if form["_versions"].get(ci) == out["ptx_version"]
              and targets[0] in acc[ci]]
    ex = (oldest[:1] + [ci for ci in sorted(acc) if ci not in oldest[:1]])[:3]
    out["examples"] = [instance_text(form, form["_combos"][ci][0], form["operand_strategy"], ci) for ci in ex]
    if form["operand_strategy"] == "shaped":
        _mark_vectors(out, [instance_text(form, form["_combos"][ci][0], "shaped", ci) for ci in sorted(acc)])
    return out


def _value_requirements(form: dict, seen: dict[str, list[int]], targets: list[str],
                        version: str) -> tuple[dict[str, dict], list[str]]:
    """({slot=value: the targets/PTX version it needs beyond the form's}, [slot=value never accepted])."""
    acc = form.get("_accepted", {})
    per: dict[str, dict] = {}
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
        if v and _vkey(v) > _vkey(version):
            req["ptx_version"] = v
        if req:
            per[key] = req
    return per, rejects


def _requires(form: dict, seen: dict[str, list[int]], rejects: list[str]) -> dict[str, list[str]]:
    """{slot=value: the other optional slots ptxas accepts it only together with}."""
    acc = form.get("_accepted", {})
    requires: dict[str, list[str]] = {}
    for key, cis in seen.items():
        if key in rejects:
            continue
        ok = [ci for ci in cis if ci in acc]
        bad = [ci for ci in cis if ci not in acc]
        if not ok or not bad:
            continue
        slot = key.split("=")[0]
        for other in {k.split("=")[0] for ci in ok for k in form_keys(form, ci)} - {slot}:
            if all(other in form["_combos"][ci][1] for ci in ok) and any(other not in form["_combos"][ci][1]
                                                                         for ci in bad):
                if not all(other in b for _, b in form["_combos"]):
                    requires.setdefault(key, []).append(other)
    return {k: sorted(v) for k, v in requires.items()}


def _rejected_pairs(form: dict, seen: dict[str, list[int]], rejects: list[str]) -> list[list[str]]:
    """Pairs of values that ptxas never accepts together although each is accepted with others."""
    acc = form.get("_accepted", {})
    pairs = []
    keys = [k for k in seen if k not in rejects]
    cleared = form.get("_pairs_accepted", set())
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a.split("=")[0] == b.split("=")[0]:
                continue
            both = set(seen[a]) & set(seen[b])
            if both and (len(both) >= 2 or both & form.get("_pairmin", set())) and not any(ci in acc for ci in both):
                if (a, b) not in cleared:
                    pairs.append([a, b])
    return pairs


def _mark_vectors(entry: dict, accepted: list[str]) -> None:
    """Register operands that are vectors of two or more registers in every accepted instance (matrix
    fragments): the validator then rejects a scalar there, as ptxas does."""
    required = [p for p in entry["operands"] if not p["optional"]]
    vec_at = None
    for text in accepted:
        ops = instances.split_operands(text.rstrip(";").partition(" ")[2])
        here = {i for i, o in enumerate(ops) if o.startswith("{") and "," in o}
        vec_at = here if vec_at is None else vec_at & here
    for i in sorted(vec_at or ()):
        if i < len(required) and required[i]["kind"] == "reg":
            required[i]["vector"] = True


def measure_pair_requires(tool: str, forms: list[dict], cache: ptxas.Cache) -> None:
    """Two values that ptxas accepts together only with some optional slot present as well (e.g. an
    integer-to-float cvt needs a rounding modifier).  For each rejected pair-minimal instance (two
    values, everything else minimal) whose values are each accepted elsewhere, every optional slot is
    added in turn; the slots with which ptxas then accepts it are what the pair requires."""
    lines, owners, targets = [], [], []
    for fi, f in enumerate(forms):
        acc = f.get("_accepted") or {}
        if not acc:
            continue
        ok_targets: dict[str, set] = defaultdict(set)
        for ci in acc:
            for k, v in f["_combos"][ci][1].items():
                ok_targets[f"{k}={v}"] |= set(acc[ci])
        always = {k for k in {k for _, b in f["_combos"] for k in b} if all(k in b for _, b in f["_combos"])}
        optional: dict[str, list[str]] = {}
        for _, bind in f["_combos"]:
            for k, v in bind.items():
                if k not in always:
                    optional.setdefault(k, [])
                    if v not in optional[k] and len(optional[k]) < 2:
                        optional[k].append(v)
        for ci in sorted(f.get("_pairmin", set()) - set(acc)):
            bind = f["_combos"][ci][1]
            keys = [f"{k}={v}" for k, v in bind.items()]
            if not all(ok_targets.get(k) for k in keys):
                continue
            common = [t for t in PROBE_TARGETS if all(t in ok_targets[k] for k in keys)]
            if not common:
                continue
            for slot, values in optional.items():
                if slot in bind:
                    continue
                for v in values:
                    opcode, got = instances.render_bind(f, {**bind, slot: v})
                    if got.get(slot) != v or any(got.get(k) != bv for k, bv in bind.items()):
                        continue
                    lines.append(instance_text(f, opcode, f["operand_strategy"], ci))
                    owners.append((fi, "|".join(sorted(keys)), slot))
                    targets.append(common[-1])
    found = 0
    for i, errs in verdicts_by_target(tool, lines, targets, cache):
        if not errs:
            fi, pair, slot = owners[i]
            needs = forms[fi].setdefault("_pair_requires", {}).setdefault(pair, [])
            if slot not in needs:
                needs.append(slot)
                found += 1
    # keep a requirement only if no accepted derivation instance holds those values without the slots
    for f in forms:
        reqs = f.get("_pair_requires") or {}
        acc = f.get("_accepted") or {}
        for pair in list(reqs):
            keys = pair.split("|")
            for ci in acc:
                bind = f["_combos"][ci][1]
                if all(bind.get(k.split("=", 1)[0]) == k.split("=", 1)[1] for k in keys) and not any(
                        sl in bind for sl in reqs[pair]):
                    del reqs[pair]
                    found -= 1
                    break
    print(f"  pair requirements: {len(lines)} probes, {found} (pair, slot) requirements", file=sys.stderr)


def form_keys(form: dict, ci: int) -> list[str]:
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
    verify_pairs(tool, forms, cache)
    measure_order(tool, forms, cache)
    measure_optional_last_operand(tool, forms, cache)
    measure_pair_requires(tool, forms, cache)
    facts = measure_ignored_tokens(tool, forms, cache)
    facts["ptxas"] = tv
    (args.out / "measured").mkdir(exist_ok=True)
    (args.out / "measured" / "ptxas.json").write_text(json.dumps(facts, indent=1) + "\n")
    by_family: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for f in forms:
        by_family[f["family"]][f["name"]].append(summarise(f))
    provenance = [SOURCE, {"source": "ptxas", "version": tv,
                           "note": "PTX ISA versions, targets, rejected combinations and examples measured"}]
    for old in args.out.glob("*.json"):
        old.unlink()
    for fam, insts in sorted(by_family.items()):
        doc: dict = {"family": fam, "generated_by": "python -m gpuisa.data.ptx.generate", "grammar": f"syntax/{fam}.txt",
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
