"""Regenerate the PTX corpus under tests/data/ptx_corpus/ from the sources in its src/ folder.

Every file there is compiler output, made by one of these commands (CUDA 13 nvcc, LLVM 22 llc):

    nvcc -ptx -arch=sm_XX src/NAME.cu -o NAME.sm_XX.ptx             (each .cu, each NVCC_ARCHS)
    nvcc -ptx -arch=sm_90 -lineinfo src/NAME.cu -o NAME.sm_90.lineinfo.ptx   (LINEINFO sources)
    llc-22 -march=nvptx64 -mcpu=sm_XX -mattr=+ptxNN src/NAME.ll -o NAME.sm_XX.ptxNN.ptx
                                                                     (each .ll, each LLC_TARGETS)

big.cu (over 20,000 distinct instructions) and mid.cu (about 2,500), for the speed benchmark, are
compiled for sm_90 only.
The commands are written at the top of each file as a `//` comment line.  ptxas's verdicts on the
corpus are tested in tests/test_ptx_frontend.py.
Run: .venv/bin/python tools/make_ptx_corpus.py [--jobs N]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "ptx_corpus"
NVCC_ARCHS = ("sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120")
LINEINFO = ("reduce", "printf_fnptr")
LLC_TARGETS = (("sm_75", "64"), ("sm_80", "70"), ("sm_86", "75"), ("sm_90", "80"), ("sm_100", "86"), ("sm_120", "87"))
BIG = ("big", "mid")


def jobs() -> list[tuple[list[str], Path]]:
    out = []
    for cu in sorted((CORPUS / "src").glob("*.cu")):
        archs = ("sm_90",) if cu.stem in BIG else NVCC_ARCHS
        for arch in archs:
            dst = CORPUS / f"{cu.stem}.{arch}.ptx"
            out.append((["nvcc", "-ptx", f"-arch={arch}", f"src/{cu.name}", "-o", dst.name], dst))
        if cu.stem in LINEINFO:
            dst = CORPUS / f"{cu.stem}.sm_90.lineinfo.ptx"
            out.append((["nvcc", "-ptx", "-arch=sm_90", "-lineinfo", f"src/{cu.name}", "-o", dst.name], dst))
    for ll in sorted((CORPUS / "src").glob("*.ll")):
        for sm, ptx in LLC_TARGETS:
            dst = CORPUS / f"{ll.stem}.{sm}.ptx{ptx}.ptx"
            out.append((["llc-22", "-march=nvptx64", f"-mcpu={sm}", f"-mattr=+ptx{ptx}", f"src/{ll.name}",
                         "-o", dst.name], dst))
    return out


def run(cmd: list[str], dst: Path) -> str | None:
    proc = subprocess.run(cmd, cwd=CORPUS, capture_output=True, text=True)
    if proc.returncode != 0:
        return f"{' '.join(cmd)}: {proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else proc.returncode}"
    dst.write_text(f"// made by: {' '.join(cmd)}\n" + dst.read_text())
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    for old in CORPUS.glob("*.ptx"):
        old.unlink()
    with ThreadPoolExecutor(args.jobs) as pool:
        errors = [e for e in pool.map(lambda j: run(*j), jobs()) if e]
    for e in errors:
        print(e, file=sys.stderr)
    files = sorted(CORPUS.glob("*.ptx"))
    print(f"{len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.2f} MB in {CORPUS}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
