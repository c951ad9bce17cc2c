"""Batching of calls to other instructions: one callee run on several argument sets at once.

A call such as ``v_max_f16(S1.f16, S2.f16)`` runs the callee's compiled pseudocode on a
whole wave; numpy's cost per operation hardly depends on the number of lanes, so k calls
of the same callee whose arguments are all known before the body runs (read-only inputs
and common subexpressions computed up front) cost about one call when their arguments are
laid side by side as k * L lanes.  V_MED3 calls V_MAX_* in three arms of an if chain,
the V_PK_* forms call the scalar instruction once per half.

The generator's output is regular (``C.call('name', [arg, ...])`` inside hoisted lines,
see ``expressions.hoist``), so this pass works on the generated lines: it finds such calls,
keeps those whose arguments name nothing but cached views (``c_*``), read-only registers
(``r_*``) and eagerly computed subexpressions (``h_*`` not computed lazily in an arm),
places one ``C.call_many`` after the last of their definitions and reads each result from
it.  The callee runs on the concatenated lanes only when it is lane-independent
(``wave.batchable``); otherwise ``call_many`` makes the calls one by one, so results are
the same either way.  A call inside an arm becomes an eager one: its callee is pure (no
state writes), so only the time of the computation changes, never a value.
"""

from __future__ import annotations

import re

_CALL = re.compile(r"C\.call\('(\w+)', \[")
_IDENT = re.compile(r"'[^']*'|(?<![\w.])[A-Za-z_]\w*")  # names, not attributes
_KNOWN = {"np", "rt", "fl", "Ty", "C", "True", "False", "None", "v_ROUND_MODE"}


def _calls(line: str):
    """(callee, call text, argument text) of each ``C.call('x', [...])`` in a line."""
    for m in _CALL.finditer(line):
        depth, i = 1, m.end()  # just inside the argument list's "["
        while i < len(line) and depth:
            depth += (line[i] in "([") - (line[i] in ")]")
            i += 1
        if depth == 0 and line[i:i + 1] == ")":
            yield m.group(1), line[m.start():i + 1], line[m.end():i - 1]


def _split_args(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [a for a in out if a]


def lane_independent(prog, lookup, seen: frozenset = frozenset()) -> bool:
    """Whether a called program treats every lane alike, with no effect but D0, and so do the
    instructions it calls (``lookup(name)`` gives their programs): then a run on several
    waves' lanes side by side gives each lane what a run of its own would."""
    if prog is None or (prog.wave_level or prog.scalar or prog.state_writes or prog.lane_masks or prog.vgpr_file
                        or prog.reference_fn is not None or prog.writes - {"D0"}
                        or not prog.code.startswith("def _prog")):
        return False
    if any(t in prog.code for t in ("C.lane", "rt.first(", "rt.lane_", "C.state[")):
        return False
    callees = {c for line in prog.code.splitlines() for c, _, _ in _calls(line)}
    callees |= set(re.findall(r"C\.call_many\('(\w+)'", prog.code))
    return all(c not in seen and lane_independent(lookup(c), lookup, seen | {prog.name}) for c in callees)


def batch_calls(cache_lines: list[str], lines: list[str], lazy: set[str], mode_written: bool,
                written: set[str], can_batch) -> tuple[list, list]:
    """The hoisted lines and the body with calls of one callee batched (see the module docstring);
    ``lazy`` names the subexpressions computed in arms, ``written`` the registers the program
    writes, ``can_batch(callee)`` says whether a callee is lane-independent."""
    counter = 0
    while True:
        defined: dict[str, int] = {}  # name -> its first defining line
        for i, line in enumerate(cache_lines):
            name = line.split(" = ", 1)[0]
            if name not in lazy or not line.endswith(" = None"):
                defined.setdefault(name, i)
        sites: dict[str, dict[str, tuple[int, list[str], set]]] = {}
        for line in cache_lines + lines:
            for callee, text, args in _calls(line):
                if "C.call" in args or "_cb" in args:
                    continue
                deps = [t for t in _IDENT.findall(args) if t[0] != "'" and t not in _KNOWN]
                if mode_written and "v_ROUND_MODE" in args:
                    continue
                if not all((t.startswith("r_") and t[2:] not in written)
                           or (t.startswith(("c_", "h_")) and t in defined and t not in lazy) for t in deps):
                    continue
                after = max([defined[t] + 1 for t in deps if t in defined], default=0)
                sites.setdefault(callee, {})[text] = (after, _split_args(args), set(deps))
        group = None
        for callee, found in sites.items():
            if len(found) < 2 or not can_batch(callee):
                continue
            chosen = dict(found)
            while len(chosen) >= 2:
                at = max(a for a, _, _ in chosen.values())
                moves = _moves(cache_lines, chosen, at)
                if moves is not None:
                    break
                del chosen[max(chosen, key=lambda t: chosen[t][0])]  # the call needing the latest inputs
            if len(chosen) >= 2:
                group = (callee, chosen, at, moves)
                break
        if group is None:
            return cache_lines, lines
        callee, chosen, at, moves = group
        assert moves is not None  # a group is made only with its moves
        name = f"_cb{counter}"
        counter += 1
        texts = list(chosen)
        arglists = ", ".join("[" + ", ".join(chosen[t][1]) + "]" for t in texts)
        moved = [cache_lines[i] for i in moves]
        kept = [line for i, line in enumerate(cache_lines) if i not in moves]
        at -= len(moves)
        cache_lines = kept[:at] + [f"{name} = C.call_many({callee!r}, [{arglists}])"] + moved + kept[at:]
        for k, t in enumerate(texts):
            cache_lines = [line.replace(t, f"{name}[{k}]") for line in cache_lines]
            lines = [line.replace(t, f"{name}[{k}]") for line in lines]


def _moves(cache_lines: list[str], chosen: dict, at: int) -> list[int] | None:
    """Indices of the hoisted lines before ``at`` that use one of the chosen calls and can
    move to just after the batch (nothing before ``at`` and no call's argument reads what
    they define), or None if one cannot."""
    moves = [i for i in range(at) if any(t in cache_lines[i] for t in chosen)]
    needed = set().union(*(deps for _, _, deps in chosen.values()))
    for i in moves:
        name = cache_lines[i].split(" = ", 1)[0]
        if name in needed or name == "v_ROUND_MODE":
            return None
        for j in range(i + 1, at):
            if j not in moves and name in _IDENT.findall(cache_lines[j]):
                return None
    return moves
