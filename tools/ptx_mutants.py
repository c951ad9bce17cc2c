"""One-edit mutants of the real PTX corpus (tests/data/ptx_corpus): `gpuisa ptx check` vs ptxas.

Each mutant changes one instruction statement of a compiler-made file in one of these ways:
a modifier of the opcode replaced by another one seen in the corpus (at the same place of the
same instruction, three times in ten, or anywhere), dropped, or misspelled (a
letter doubled or dropped); the opcode's first word misspelled; the last operand dropped or an
operand repeated; a register renamed to one that is not declared, or replaced by a register of
another class (%r, %rd, %rs, %f, %fd, %p: another type or size, twice in twenty); a branch label renamed; the
`;` dropped.  Both tools judge the whole mutated file; printed: how often the verdicts agree
and, where both reject, how often gpuisa's first error is on the edited line.
Run: .venv/bin/python tools/ptx_mutants.py [--count N] [--seed S] [--jobs J] [--dir FOLDER]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "ptx_corpus"
SKIP = ("big.", "mid.")  # the speed files: slow for ptxas, nothing new for the checker
LINE_RE = re.compile(r"line (\d+);")
KINDS = ("swap", "swap_same", "swap_same", "swap_same", "drop_mod", "typo_mod", "typo_op", "drop_operand", "dup_operand",
         "undeclared", "other_class", "other_class", "label", "no_semicolon")


def corpus_files(folder: Path = CORPUS) -> list[Path]:
    """The corpus files ptxas accepts (gpuisa agrees on which: tests/test_ptx_frontend.py); in
    another folder, the files gpuisa accepts."""
    from gpuisa.ptx.frontend import errors

    return [p for p in sorted(folder.glob("*.ptx")) if not p.name.startswith(SKIP) and not errors(p.read_text())[1]]


def instruction_lines(text: str) -> list[int]:
    """0-based indexes of lines holding one whole instruction (`opcode operands;`)."""
    out = []
    for i, line in enumerate(text.split("\n")):
        s = line.strip()
        if s.endswith(";") and s[:1].isalpha() or s[:1] == "@":
            if s.count(";") == 1 and not s.startswith(("prototype", "call")) and "." in s.split()[0]:
                out.append(i)
    return out


def _typo(word: str, rng: random.Random) -> str:
    k = rng.randrange(len(word))
    return word[:k] + word[k] + word[k:] if rng.random() < 0.5 else word[:k] + word[k + 1:]


def mutate(line: str, kind: str, rng: random.Random, modifiers: list[str], same: dict) -> str | None:
    """The line with one edit of the kind, or None when the kind does not apply."""
    lead = line[:len(line) - len(line.lstrip())]
    s = line.strip()
    guard = ""
    if s.startswith("@"):
        guard, s = s.split(None, 1)
        guard += " "
    parts = s.split(None, 1)
    opcode, ops = parts[0], (parts[1] if len(parts) > 1 else ";")
    toks = opcode.split(".")
    if kind in ("swap", "drop_mod", "typo_mod"):
        if len(toks) < 2:
            return None
        k = rng.randrange(1, len(toks))
        if kind == "swap":
            toks[k] = rng.choice(modifiers)
        elif kind == "swap_same":
            others = sorted(same.get((toks[0], k), set()) - {toks[k]})
            if not others:
                return None
            toks[k] = rng.choice(others)
        elif kind == "drop_mod":
            del toks[k]
        else:
            toks[k] = _typo(toks[k], rng)
        opcode = ".".join(toks)
    elif kind == "typo_op":
        toks[0] = _typo(toks[0], rng)
        opcode = ".".join(toks)
    elif kind in ("drop_operand", "dup_operand"):
        items = [x.strip() for x in ops.rstrip(";").split(",")]
        if "{" in ops or "(" in ops or not items[0]:
            return None
        if kind == "drop_operand":
            if len(items) < 2:
                return None
            items.pop()
        else:
            items.append(rng.choice(items))
        ops = ", ".join(items) + ";"
    elif kind == "undeclared":
        regs = re.findall(r"%[a-z]+\d+", ops)
        if not regs:
            return None
        r = rng.choice(regs)
        ops = ops.replace(r, re.sub(r"\d+", "9999", r), 1)
    elif kind == "other_class":
        regs = re.findall(r"%(?:rd|r|rs|f|fd|p)\d+", ops)
        if not regs:
            return None
        r = rng.choice(regs)
        other = rng.choice([c for c in ("%r", "%rd", "%rs", "%f", "%fd", "%p") if not re.fullmatch(c + r"\d+", r)])
        ops = ops.replace(r, other + "1", 1)
    elif kind == "label":
        m = re.search(r"\$L__\w+", ops)
        if not m:
            return None
        ops = ops.replace(m.group(), m.group() + "x", 1)
    elif kind == "no_semicolon":
        ops = ops.rstrip().rstrip(";")
    return f"{lead}{guard}{opcode}\t{ops}"


def ptxas_verdict(text: str, target: str) -> tuple[bool, set[int]]:
    from gpuisa.ptx import ptxas

    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as fh:
        fh.write(text)
    proc = subprocess.run([ptxas.find_ptxas(), f"-arch={ptxas.arch_for(target)}", fh.name, "-o", fh.name + ".cubin"],
                          capture_output=True, text=True)
    Path(fh.name).unlink()
    Path(fh.name + ".cubin").unlink(missing_ok=True)
    lines = {int(m.group(1)) for m in LINE_RE.finditer(proc.stdout + proc.stderr)}
    return proc.returncode == 0, lines


def gpuisa_verdict(text: str) -> tuple[bool, list[int]]:
    from gpuisa.ptx.frontend import errors

    _, bad = errors(text)
    return not bad, [r["line"] for r in bad]


def make_mutants(count: int, seed: int, folder: Path = CORPUS) -> list[tuple[str, str, int, str, str]]:
    """(file name, kind, edited line (1-based), target, mutated text)."""
    rng = random.Random(seed)
    files = [(p.name, t) for p in corpus_files(folder) if instruction_lines(t := p.read_text())]
    modifiers = sorted({t for _, text in files for i in instruction_lines(text)
                        for t in text.split("\n")[i].strip().lstrip("@%!p0123456789 ").split()[0].split(".")[1:]})
    same: dict = {}
    for _, text in files:
        for i in instruction_lines(text):
            s = text.split("\n")[i].strip()
            op = (s.split(None, 1)[1] if s.startswith("@") else s).split()[0].split(".")
            for k, t in enumerate(op[1:], 1):
                same.setdefault((op[0], k), set()).add(t)
    out = []
    while len(out) < count:
        name, text = rng.choice(files)
        lines = text.split("\n")
        idx = rng.choice(instruction_lines(text))
        kind = rng.choice(KINDS)
        new = mutate(lines[idx], kind, rng, modifiers, same)
        if new is None or new == lines[idx]:
            continue
        target = re.search(r"^\.target (sm_\w+)", text, re.M).group(1)
        out.append((name, kind, idx + 1, target, "\n".join(lines[:idx] + [new] + lines[idx + 1:])))
    return out


def judge(m: tuple) -> dict:
    name, kind, line, target, text = m
    theirs, their_lines = ptxas_verdict(text, target)
    ours, our_lines = gpuisa_verdict(text)
    return {"file": name, "kind": kind, "line": line, "ptxas": theirs, "gpuisa": ours,
            "ptxas_lines": sorted(their_lines), "gpuisa_lines": our_lines,
            "text": text.split("\n")[line - 1].strip()}


def run(count: int, seed: int, jobs: int, folder: Path = CORPUS) -> list[dict]:
    mutants = make_mutants(count, seed, folder)
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(judge, mutants))


def summary(results: list[dict]) -> tuple[float, float]:
    agree = sum(r["ptxas"] == r["gpuisa"] for r in results) / len(results)
    both_bad = [r for r in results if not r["ptxas"] and not r["gpuisa"]]
    on_line = sum(r["gpuisa_lines"][:1] == [r["line"]] for r in both_bad) / max(1, len(both_bad))
    return agree, on_line


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true", help="print each disagreement")
    ap.add_argument("--dir", type=Path, default=CORPUS, help="a folder of compiler-made .ptx files (default: the corpus)")
    args = ap.parse_args()
    results = run(args.count, args.seed, args.jobs, args.dir)
    agree, on_line = summary(results)
    for r in results:
        if args.verbose and (r["ptxas"] != r["gpuisa"] or (not r["gpuisa"] and r["gpuisa_lines"][:1] != [r["line"]])):
            print(f"{r['file']}:{r['line']} [{r['kind']}] ptxas={'ok' if r['ptxas'] else 'error'} "
                  f"gpuisa={'ok' if r['gpuisa'] else 'error'} lines {r['gpuisa_lines'][:3]}: {r['text']}")
    rejected = sum(not r["ptxas"] for r in results)
    print(f"{len(results)} one-edit mutants ({rejected} rejected by ptxas): verdicts agree {agree:.1%}; "
          f"both reject: gpuisa's first error on the edited line {on_line:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
