"""The ptxas probes of the PTX catalog generator (``generate.py``): the targets every form is tried on, one
instance of a form as text, and the measurements of ptxas's leniencies the validator follows -- pairs of
values re-tested inside accepted instances (``verify_pairs``), tokens ptxas ignores
(``measure_ignored_tokens``), modifiers taken in any order (``measure_order``) and last operands it lets
one omit (``measure_optional_last_operand``).  Run only by ``python -m gpuisa.data.ptx.generate``.
"""

from __future__ import annotations

import random
import sys
from collections import defaultdict

from gpuisa.ptx import instances, instances_typed, ptxas

PROBE_TARGETS = ("sm_20", "sm_30", "sm_32", "sm_35", "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70",
                 "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a",
                 "sm_100f", "sm_103a", "sm_110a", "sm_120", "sm_120a")


def target_key(t: str) -> tuple:
    import re

    m = re.match(r"sm_(\d+)([af]?)", t)
    return (int(m.group(1)), m.group(2)) if m else (0, "")


def instance_text(form: dict, opcode: str, strategy: str, seed: int, optional: bool = False) -> str:
    ops = instances.operand_text(form, opcode, strategy, random.Random(seed), with_optional=optional)
    return opcode + (" " + ops if ops else "") + ";"


def candidate_pairs(form: dict) -> list[tuple[str, str]]:
    """Pairs of values never accepted together in the derivation instances (before verification)."""
    acc = form.get("_accepted", {})
    seen: dict[str, list[int]] = defaultdict(list)
    for ci, (_, bind) in enumerate(form["_combos"]):
        for k, v in bind.items():
            seen[f"{k}={v}"].append(ci)
    keys = [k for k, cis in seen.items() if any(ci in acc for ci in cis)]
    out = []
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a.split("=")[0] == b.split("=")[0]:
                continue
            both = set(seen[a]) & set(seen[b])
            if both and not any(ci in acc for ci in both):
                out.append((a, b))
    return out


def verify_pairs(tool: str, forms: list[dict], cache: ptxas.Cache) -> None:
    """A pair is a real rejection only if ptxas also rejects it inside an otherwise accepted instance.

    For each candidate pair (a, b): take accepted instances holding a, put b into its slot (and the
    other way round) and compile them on a target where both values were accepted.  Rejections in
    the derivation instances often come from a third value; this clears those pairs.
    """
    lines: list[str] = []
    owners: list[tuple[int, tuple[str, str]]] = []
    targets: list[str] = []
    for fi, f in enumerate(forms):
        acc = f.get("_accepted") or {}
        if not acc:
            continue
        with_key: dict[str, list[int]] = defaultdict(list)
        for ci in sorted(acc):
            for k, v in f["_combos"][ci][1].items():
                with_key[f"{k}={v}"].append(ci)
        for a, b in candidate_pairs(f):
            for base_key, other in ((a, b), (b, a)):
                for ci in with_key.get(base_key, [])[:2]:
                    slot, value = other.split("=", 1)
                    want = dict(f["_combos"][ci][1])
                    want[slot] = value
                    opcode, bind = instances.render_bind(f, want)
                    if f"{slot}={bind.get(slot)}" != other or bind.get(base_key.split("=")[0]) != base_key.split("=", 1)[1]:
                        continue
                    ok_a = {t for c in with_key.get(a, []) for t in acc[c]}
                    ok_b = {t for c in with_key.get(b, []) for t in acc[c]}
                    common = [t for t in PROBE_TARGETS if t in ok_a & ok_b]
                    if not common:
                        continue
                    lines.append(instance_text(f, opcode, f["operand_strategy"], ci))
                    owners.append((fi, (a, b)))
                    targets.append(common[-1])
    cleared = 0
    for i, errs in verdicts_by_target(tool, lines, targets, cache):
        if not errs:
            fi, pair = owners[i]
            forms[fi].setdefault("_pairs_accepted", set()).add(pair)
            cleared += 1
    print(f"  pair checks: {len(lines)} instances, {cleared} accepted (pairs cleared)", file=sys.stderr)


IGNORE_HOST_HEADS = ("add", "atom", "bar", "cvt", "ld", "mov", "setp", "st", "vadd", "mul", "bfind", "cp", "red",
                     "shfl", "prmt", "selp")


def measure_ignored_tokens(tool: str, forms: list[dict], cache: ptxas.Cache) -> dict:
    """Modifier tokens ptxas accepts (and ignores) anywhere: appended to the opcode of accepted instances
    of many different instructions ptxas accepts them all, and inserted right after the instruction
    name it accepts them in at least 80% of those (a few instructions parse their leading types apart)."""
    hosts, names = [], []
    for head in IGNORE_HOST_HEADS:
        for f in forms:
            acc = f.get("_accepted") or {}
            ci = next((c for c in sorted(acc) if "sm_90" in acc[c]), None)
            if f["name"].split(".")[0] == head and ci is not None:
                hosts.append(instance_text(f, f["_combos"][ci][0], f["operand_strategy"], ci))
                names.append(f["name"])
                break
    tokens = sorted({lit for f in forms for lit in instances.literals(f)})
    lines, owners = [], []
    for h, name in zip(hosts, names):
        opcode, _, rest = h.rstrip(";").partition(" ")
        rest = (rest + ";") if rest else ";"
        toks = instances.dot_tokens(opcode)
        after_name = len(instances.dot_tokens(name))
        for tok in tokens:
            for where, at in (("end", len(toks)), ("name", after_name)):
                lines.append("".join(toks[:at] + [tok] + toks[at:]) + " " + rest)
                owners.append((tok, where))
    tally: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for (tok, where), errs in zip(owners, ptxas.verdicts(tool, lines, "sm_90", "9.0", cache)):
        tally[tok][where].append(not errs)
    ignored = sorted(t for t, v in tally.items() if all(v["end"]) and sum(v["name"]) >= 0.8 * len(v["name"]))
    print(f"  ignored tokens: {len(ignored)} of {len(tokens)} accepted anywhere in {len(hosts)} hosts", file=sys.stderr)
    return {"ignored_tokens": ignored, "hosts": hosts, "target": "sm_90", "version": "9.0"}


ORDER_PROBES = 3


def _permutations(opcode: str) -> list[str]:
    """Reorderings of an opcode that keep the head and the relative order of its type tokens."""
    toks = instances.dot_tokens(opcode)
    head, rest = toks[:1], toks[1:]
    is_type = [bool(instances_typed.TYPE_RE.match(t)) or t == ".pred" for t in rest]
    mods = [t for t, ty in zip(rest, is_type) if not ty]
    types = [t for t, ty in zip(rest, is_type) if ty]
    out = []
    if len(mods) >= 2:  # modifiers reversed among their own positions
        it = iter(mods[::-1])
        out.append("".join(head + [next(it) if not ty else t for t, ty in zip(rest, is_type)]))
    if mods and types:  # types first, modifiers after them
        out.append("".join(head + types + mods))
    return [o for o in out if o != opcode]


def measure_order(tool: str, forms: list[dict], cache: ptxas.Cache) -> None:
    """A form is order-free when ptxas accepts reordered modifiers of its accepted instances."""
    lines, owners, targets = [], [], []
    for fi, f in enumerate(forms):
        acc = f.get("_accepted") or {}
        for ci in sorted(acc)[:ORDER_PROBES]:
            for perm in _permutations(f["_combos"][ci][0]):
                lines.append(instance_text(f, perm, f["operand_strategy"], ci))
                owners.append(fi)
                targets.append(max(acc[ci], key=target_key))
    verdict = _all_accepted(tool, lines, owners, targets, cache)
    for fi, free in verdict.items():
        forms[fi]["_order_free"] = free
    print(f"  order: {sum(verdict.values())} of {len(verdict)} probed forms accept reordered modifiers",
          file=sys.stderr)


def verdicts_by_target(tool: str, lines: list[str], targets: list[str], cache: ptxas.Cache):
    """(index, ptxas's errors) for each of ``lines``, each checked on its target (one ptxas batch per target)."""
    by_target: dict[str, list[int]] = defaultdict(list)
    for i, t in enumerate(targets):
        by_target[t].append(i)
    for t, idx in by_target.items():
        yield from zip(idx, ptxas.verdicts(tool, [lines[i] for i in idx], t, "9.0", cache))


def _all_accepted(tool: str, lines: list[str], owners: list[int], targets: list[str],
                  cache: ptxas.Cache) -> dict[int, bool]:
    """Per owner (form index): whether ptxas accepts every one of its probe lines, each on its target."""
    verdict: dict[int, bool] = {}
    for i, errs in verdicts_by_target(tool, lines, targets, cache):
        verdict[owners[i]] = verdict.get(owners[i], True) and not errs
    return verdict


def measure_optional_last_operand(tool: str, forms: list[dict], cache: ptxas.Cache) -> None:
    """Forms whose last operand ptxas lets one leave out (every accepted probe still accepted without it)."""
    lines, owners, targets = [], [], []
    for fi, f in enumerate(forms):
        acc = f.get("_accepted") or {}
        required = [o for o in f["operands"] if not o["optional"]]
        if len(required) < 2 or required[-1] is not f["operands"][-1]:
            continue
        accepted = sorted(acc)
        for ci in accepted[::max(1, len(accepted) // 8)][:8]:
            text = instance_text(f, f["_combos"][ci][0], f["operand_strategy"], ci)
            ops = instances.split_operands(text.rstrip(";").partition(" ")[2])
            lines.append(f["_combos"][ci][0] + " " + ", ".join(ops[:-1]) + ";")
            owners.append(fi)
            targets.append(max(acc[ci], key=target_key))
    verdict = _all_accepted(tool, lines, owners, targets, cache)
    for fi, ok in verdict.items():
        if ok:
            forms[fi]["operands"][-1]["optional"] = True
            forms[fi]["operands"][-1]["optional_by_ptxas"] = True
    print(f"  optional last operand: {sum(verdict.values())} of {len(verdict)} probed forms", file=sys.stderr)
