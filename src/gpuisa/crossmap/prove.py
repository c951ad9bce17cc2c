"""Prove the cross-vendor map by execution: ``python -m gpuisa.crossmap.prove [--vectors N] [--only TEXT]``.

For every relation whose two sides execute, draw N input vectors inside the relation's
domain (edge values first), run them on the AMD evaluator (each executable architecture
that has the instruction) and on the PTX evaluator, and count agreements.  For a
relation with a restricted domain, also search just outside it (one restricted variable
at a time, smallest departures first) for an input on which the sides differ.  The
figures go to src/gpuisa/data/crossmap/proofs.json; nothing there is written by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

from . import execute
from .domains import Domain
from .relations import PROOFS, relations

DEFAULT_VECTORS = 10_000
OUTSIDE_VECTORS = 2_000


def executable_archs(rel: dict) -> list[str]:
    return [a for a in execute.EXECUTABLE_ARCHS if a in rel["amd"]["archs"] and execute.amd_executable(a, rel["amd"]["name"])]


def _domains(check: dict) -> dict[str, Domain]:
    return {v: Domain(d) for v, d in check["vars"].items()}


def _seed(rel_id: str, seed: int) -> int:
    return (seed * 1_000_003 + sum(ord(c) * (i + 1) for i, c in enumerate(rel_id))) % (2 ** 32)


def prove_relation(rel: dict, n: int = DEFAULT_VECTORS, seed: int = 0, outside_n: int = OUTSIDE_VECTORS) -> dict:
    """Figures for one relation: per architecture {vectors, agreed, first disagreements}, totals and a counterexample."""
    check = rel.get("check")
    if not check:
        return {"executed": False, "reason": "no executable check (listed sequence)"}
    archs = executable_archs(rel)
    if not archs:
        return {"executed": False, "reason": "no executable architecture has pseudocode for " + rel["amd"]["name"]}
    rng = np.random.default_rng(_seed(rel["id"], seed))
    doms = _domains(check)
    cols = execute.columns(rng, doms, n)
    out: dict[str, Any] = {"executed": True, "archs": {}, "vectors": 0, "agreed": 0}
    try:
        for arch in archs:
            bad = execute.compare(check, arch, rel["amd"]["name"], cols, n)
            out["archs"][arch] = {"vectors": n, "agreed": n - len(bad),
                                  "disagreements": [_example(check, arch, rel, cols, i) for i in bad[:3]]}
            out["vectors"] += n
            out["agreed"] += n - len(bad)
        out["counterexample"] = None
        if any(d.restricted for d in doms.values()):
            out["counterexample"] = find_counterexample(rel, archs[0], rng, outside_n)
    except execute.NotExecutable as exc:
        return {"executed": False, "reason": str(exc)}
    return out


def _example(check, arch, rel, cols, i, mode="lane") -> dict:
    inputs = {v: hex(cols[v][i]) for v in check["vars"]}
    ex = {"arch": arch, "inputs": inputs, **execute.sides(check, arch, rel["amd"]["name"], cols, i, mode)}
    if "lanebit" in check["vars"].values():
        ex["lane"] = i % 64  # a lane-mask input: the lane's position in its wave64 matters
    return ex


def recheck(rel: dict, example: dict, mode: str = "lane") -> bool:
    """Whether the two sides (or the named ``against`` form) still differ on a recorded example."""
    check = dict(rel["check"])
    if example.get("against"):
        check["ptx"] = rel["check"]["outside_reference"]
    lane = example.get("lane", 0)
    cols = {v: [int(example["inputs"][v], 16)] * (lane + 1) for v in check["vars"]}
    bad = execute.compare(check, example["arch"], rel["amd"]["name"], cols, lane + 1,
                          lanebit_mode="wave" if example.get("how") else mode)
    return lane in bad


def find_counterexample(rel: dict, arch: str, rng, n: int = OUTSIDE_VECTORS) -> dict | None:
    """The first input just outside the domain (one variable at a time) on which the sides differ.

    When the two sides agree outside the domain too (both ignore the same input bits), a relation
    may name ``outside_reference``: the full-width PTX form the restriction is about; the search
    then shows where the AMD instruction departs from that form, and says so (``against``).
    """
    found = _search_outside(rel, rel["check"], arch, rng, n)
    if found is None and rel["check"].get("outside_reference"):
        ref = dict(rel["check"], ptx=rel["check"]["outside_reference"])
        found = _search_outside(rel, ref, arch, rng, n)
        if found is not None:
            found["against"] = " ".join(ref["ptx"])
            found["note"] = (f"{' '.join(rel['check']['ptx'])} agreed with AMD on all {found['searched']} outside vectors too "
                             "(both read only the in-domain bits); the counterexample is against the full-width form")
    return found


def _search_outside(rel: dict, check: dict, arch: str, rng, n: int) -> dict | None:
    doms = _domains(check)
    for var, dom in doms.items():
        if not dom.restricted:
            continue
        cols = execute.columns(rng, doms, n)
        mode = "lane"
        if dom.kind == "pred":  # a per-lane condition handed over as one wave-wide value instead
            mode = "wave"
        else:
            cols[var] = dom.outside(rng, n)
            for other, odom in doms.items():  # the first outside values meet plain inputs (1) elsewhere
                if other != var and odom.kind == "int" and not odom.nonzero:
                    k = min(8, len(cols[other]))
                    cols[other][:k] = [1] * k
            n_eff = len(cols[var])
            cols = {k: v[:n_eff] for k, v in cols.items()}
        m = len(cols[var])
        bad = execute.compare(check, arch, rel["amd"]["name"], cols, m, lanebit_mode=mode)
        if bad:
            ex = _example(check, arch, rel, cols, bad[0], mode)
            ex["outside"] = var
            ex["searched"] = m
            if mode == "wave":
                ex["how"] = f"{var} given as one wave-wide value instead of this lane's bit"
            return ex
    return None


def _work(args):
    rel, n, seed = args
    t = time.time()
    res = prove_relation(rel, n, seed)
    res["seconds"] = round(time.time() - t, 2)  # printed, not stored (``main`` drops it)
    return rel["id"], res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gpuisa.crossmap.prove", description=__doc__.splitlines()[0])
    ap.add_argument("--vectors", type=int, default=DEFAULT_VECTORS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", help="prove only relations whose id contains this text (prints; writes only with --merge)")
    ap.add_argument("--merge", action="store_true", help="with --only: replace those relations' figures in proofs.json")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    rels = [r for r in relations() if not args.only or args.only in r["id"]]
    work = [(r, args.vectors, args.seed) for r in rels]
    results = {}
    if args.jobs > 1 and len(work) > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(args.jobs) as pool:
            for rid, res in pool.imap_unordered(_work, work):
                results[rid] = res
                _progress(rid, res)
    else:
        for w in work:
            rid, res = _work(w)
            results[rid] = res
            _progress(rid, res)
    if args.only and not args.merge:
        return 0
    if args.only:
        old = json.loads(PROOFS.read_text())
        if old.get("vectors_per_arch") != args.vectors or old.get("seed") != args.seed:
            print("--merge needs the same --vectors and --seed as proofs.json", file=sys.stderr)
            return 2
        merged = {k: v for k, v in old["relations"].items() if k in {r["id"] for r in relations()}}
        merged.update(results)
        results = merged
        rels = [r for r in relations() if r["id"] in results]
    doc = {"generated_by": "python -m gpuisa.crossmap.prove", "vectors_per_arch": args.vectors, "seed": args.seed,
           "summary": summary(results),
           # (no timings: the file must not change from run to run)
           "relations": {r["id"]: {k: v for k, v in results[r["id"]].items() if k != "seconds"} for r in rels}}
    PROOFS.write_text(json.dumps(doc, indent=1) + "\n")
    print(json.dumps(doc["summary"], indent=1))
    return 0


def _progress(rid: str, res: dict) -> None:
    if not res.get("executed"):
        print(f"skip  {rid}: {res.get('reason')}", file=sys.stderr)
        return
    flag = "ok  " if res["agreed"] == res["vectors"] else "DIFF"
    cx = res.get("counterexample")
    print(f"{flag} {rid}: {res['agreed']}/{res['vectors']} ({res.get('seconds')}s)"
          + (f" counterexample {cx['inputs']}" if cx else ""), file=sys.stderr)


def summary(results: dict) -> dict:
    rels = {r["id"]: r for r in relations()}
    by_kind: dict[str, int] = {}
    for rid in results:
        k = rels[rid]["kind"]
        by_kind[k] = by_kind.get(k, 0) + 1
    ran = [r for r in results.values() if r.get("executed")]
    restricted = [rid for rid, r in results.items() if r.get("executed") and rels[rid]["kind"] == "equivalent with restrictions"]
    return {"relations": len(results), "by_kind": by_kind, "executed": len(ran),
            "vectors": sum(r["vectors"] for r in ran), "agreed": sum(r["agreed"] for r in ran),
            "disagreeing_relations": sorted(rid for rid, r in results.items() if r.get("executed") and r["agreed"] != r["vectors"]),
            "restricted_executed": len(restricted),
            "restricted_with_counterexample": sum(1 for rid in restricted if results[rid].get("counterexample"))}


if __name__ == "__main__":
    sys.exit(main())
