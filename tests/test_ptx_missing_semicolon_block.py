"""A `;` dropped at the end of the line before a `{` block (nvcc's call sequences open one alone on its
line): ptxas refuses the file, and the front end reports the missing `;` on the edited line (it had
named the `{` line, found by one-edit mutants of the corpus)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import need

from gpuisa.ptx import ptxas
from gpuisa.ptx.frontend import errors

CORPUS = Path(__file__).parent / "data" / "ptx_corpus"


def test_missing_semicolon_before_block(tmp_path):
    tool = ptxas.find_ptxas()
    need(tool is not None, "ptxas not installed")
    done = 0
    for path in sorted(CORPUS.glob("*.ptx"))[:60]:
        lines = path.read_text().split("\n")
        at = next((i for i in range(1, len(lines)) if lines[i].strip().startswith("{")
                   and lines[i].split("//")[0].strip() == "{" and lines[i - 1].rstrip().endswith(";")
                   and lines[i - 1].strip()[:1] not in ".{}/"), None)
        if at is None:
            continue
        lines[at - 1] = lines[at - 1].rstrip()[:-1]
        text = "\n".join(lines)
        (tmp_path / "m.ptx").write_text(text)
        target = next(x.split()[1] for x in lines if x.startswith(".target"))
        proc = subprocess.run([tool, f"-arch={ptxas.arch_for(target)}", str(tmp_path / "m.ptx"), "-o",
                               str(tmp_path / "m.cubin")], capture_output=True, text=True)
        assert proc.returncode != 0, path.name
        bad = errors(text)[1]
        assert bad and bad[0]["line"] == at, (path.name, at, bad[:1])
        done += 1
        if done == 3:
            break
    assert done
