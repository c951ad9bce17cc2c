"""Per-line verdicts of ptxas 13 against the checker's on a file of one instruction per line (ptxas reports
errors per line): shared by the PTX operand-class tests."""

from __future__ import annotations

import re
import subprocess

from conftest import need

from gpuisa.ptx import ptxas
from gpuisa.ptx.frontend import errors


def lines_disagreeing(tmp_path, head: str, lines: list[str], arch: str = "sm_100a") -> list[tuple[int, str]]:
    """(index, ptxas's verdict) of each line of ``lines`` (the body of the kernel ``head`` opens) where ptxas and
    the checker disagree.  Some lines must be refused by ptxas (the file is judged, not refused as a whole)."""
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed")
    text = head + "\n".join(lines) + "\nret;\n}\n"
    first = head.count("\n") + 1
    path = tmp_path / "lines.ptx"
    path.write_text(text)
    proc = subprocess.run([tool, f"-arch={arch}", str(path), "-o", str(tmp_path / "lines.cubin")],
                          capture_output=True, text=True)
    theirs = {int(m.group(1)) for m in re.finditer(r"line (\d+); error", proc.stdout + proc.stderr)}
    assert theirs, proc.stderr[-300:]
    ours = {r["line"] for r in errors(text)[1]}
    return [(i, "ptxas refuses" if first + i in theirs else "ptxas takes")
            for i in range(len(lines)) if (first + i in theirs) != (first + i in ours)]
