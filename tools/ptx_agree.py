"""File verdicts of `gpuisa ptx check` against ptxas 13 on a set of compiler-made .ptx files.

For each file: ptxas's verdict (``-arch`` the file's .target, sm_75 for older ones; ``-c`` with
--relocatable) and the lines it names; gpuisa's verdict and its first error's line.  They agree when
both accept, or both reject and gpuisa's first error is on a line ptxas names (or ptxas names none:
a fatal error such as an unresolved function; a .target the .version does not support, which ptxas
reports on its own '<macro util>' line, counts as the .target line).  A file ptxas crashes on (killed by a
signal: ptxas 13 does on some inputs) has no verdict and is counted apart.  Printed: each disagreement,
then the counts.
Run: .venv/bin/python tools/ptx_agree.py FILE.ptx ... [--relocatable] [--jobs N]
     (e.g. tests/data/ptx_corpus/*.ptx)
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def ptxas_verdict(path: Path, relocatable: bool) -> tuple[bool | None, set, str]:
    from gpuisa.ptx import ptxas

    text = path.read_text(errors="replace")
    m = re.search(r"^\.target\s+(sm_\w+)", text, re.M)
    arch = ptxas.arch_for(m.group(1)) if m else "sm_90"
    with tempfile.TemporaryDirectory(prefix="ptx-agree-") as tmp:
        cmd = [ptxas.find_ptxas() or "ptxas", *(["-c"] if relocatable else []), f"-arch={arch}", str(path), "-o",
               str(Path(tmp) / "out.cubin")]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode < 0:
        return None, set(), f"ptxas crashed (signal {-proc.returncode})"
    out = (proc.stdout + proc.stderr).strip()
    lines = {int(x) for x in re.findall(re.escape(str(path)) + r", line (\d+); (?:error|fatal)", out)}
    if "does not support .target" in out and "\n.target" in text:
        lines.add(text[:text.index("\n.target")].count("\n") + 2)
    return proc.returncode == 0, lines, out


def main() -> int:
    from gpuisa.ptx.frontend import errors

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--relocatable", action="store_true", help="as ptxas -c (nvcc -rdc=true)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with ThreadPoolExecutor(args.jobs) as pool:
        theirs = list(pool.map(lambda p: ptxas_verdict(p, args.relocatable), args.files))
    agree = instructions = accepted = crashed = 0
    for path, (ok, lines, out) in zip(args.files, theirs):
        if ok is None:
            crashed += 1
            print(f"{path.name}: {out} (no verdict)")
            continue
        count, bad = errors(path.read_text(errors="replace"), relocatable=args.relocatable)
        instructions += count
        accepted += ok
        same = (not bad) == ok and (ok or not lines or bad[0]["line"] in lines)
        agree += same
        if not same:
            first = f"line {bad[0]['line']}: {bad[0]['error']}" if bad else "accepted"
            print(f"{path.name}: ptxas {'accepts' if ok else 'rejects'} {sorted(lines)[:3]} {out[:160]!r}; gpuisa {first}")
    print(f"{agree}/{len(args.files) - crashed} files agree ({accepted} accepted by ptxas; ptxas crashed on {crashed} more);"
          f" {instructions} instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
