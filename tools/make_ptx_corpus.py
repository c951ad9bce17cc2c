"""Regenerate the PTX corpus under tests/data/ptx_corpus/ from the sources in its src/ folder.

Every file there is compiler output, made by one of these commands (CUDA 13 nvcc, LLVM 22 llc):

    nvcc -ptx -arch=sm_XX src/NAME.cu -o NAME.sm_XX.ptx             (each .cu, each NVCC_ARCHS)
    nvcc -ptx -arch=sm_90 -lineinfo src/NAME.cu -o NAME.sm_90.lineinfo.ptx   (LINEINFO sources)
    llc-22 -march=nvptx64 -mcpu=sm_XX -mattr=+ptxNN src/NAME.ll -o NAME.sm_XX.ptxNN.ptx
                                                                     (each .ll, each LLC_TARGETS)

big.cu (over 20,000 distinct instructions) and mid.cu (about 2,500), for the speed benchmark, are
compiled for sm_90 only.  The sources in EXTRA (CUB block/warp algorithms, cooperative groups,
textures and surfaces, printf/assert, atomics of every width and scope, half/bfloat16/fp8 math,
inline assembly, wmma/mma/wgmma/TMA/tcgen05, virtual functions, __int128; LLVM IR with vectors,
i128, f16/bf16, byval structs, varargs, atomics with scopes, debug info; and what the second hunt for
disagreements added, see EXTRA) are compiled only with the archs and flags listed there (-G, -lineinfo,
--use_fast_math, -rdc=true, sm_90a/sm_100a/sm_120a/sm_110f/sm_121, compute_86), the
LLVM IR as NAME.sm_XX.ptxNN.ptx (-O0: NAME.sm_XX.ptxNN.O0.ptx).
The commands are written at the top of each file as a `//` comment line.  ptxas's verdicts on the
corpus are tested in tests/test_ptx_frontend.py.
Run: .venv/bin/python tools/make_ptx_corpus.py [--jobs N] [--only NAME.cu NAME.ll ...]
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
# source -> [(arch, extra flags)] (nvcc), or [(sm, ptx, extra flags)] (llc-22): compiled only so
EXTRA: dict[str, list] = {
    "cub_block.cu": [("sm_80", ()), ("sm_120", ())],
    "coop.cu": [("sm_90", ()), ("sm_75", ("-rdc=true",))],
    "texsurf.cu": [("sm_86", ())],
    "printf2.cu": [("sm_90", ()), ("sm_120", ("-G",))],
    "atomics_all.cu": [("sm_75", ()), ("sm_90", ())],
    "halfmath.cu": [("sm_80", ()), ("sm_90", ("--use_fast_math",))],
    "fp8.cu": [("sm_89", ()), ("sm_100", ())],
    "fp64.cu": [("sm_90", ("--use_fast_math",))],
    "inline_asm.cu": [("sm_75", ()), ("sm_90", ("-G",))],
    "warpintr.cu": [("sm_90", ("-lineinfo",))],
    "mma_asm.cu": [("sm_90", ())],
    "hopper.cu": [("sm_90a", ()), ("sm_100a", ())],
    "blackwell.cu": [("sm_100a", ())],
    "globals.cu": [("sm_90", ()), ("sm_80", ("-rdc=true",))],
    "rdc_b.cu": [("sm_90", ("-rdc=true",))],
    "templates.cu": [("sm_86", ())],
    "int128.cu": [("sm_90", ())],
    "vec.ll": [("sm_70", "63", ()), ("sm_90", "83", ())],
    "i128.ll": [("sm_80", "71", ())],
    "halfbf.ll": [("sm_90", "83", ()), ("sm_100", "88", ())],
    "byval.ll": [("sm_52", "64", ()), ("sm_120", "87", ())],
    "varargs.ll": [("sm_60", "65", ()), ("sm_90a", "85", ())],
    "atomics2.ll": [("sm_90", "83", ())],
    "dbg.ll": [("sm_52", "64", ()), ("sm_90", "83", ()), ("sm_80", "75", ("-O0",))],
    "nvvm_mma.ll": [("sm_90", "83", ())],
    # issue 15's second hunt: match/reduce/fns/nanosleep and SIMD video intrinsics, fp8/fp6/fp4/e8m0
    # conversions, bf16x2 math, cooperative_groups reduce/scan/memcpy_async, clusters with DSMEM and PDL,
    # cuda::atomic_ref/semaphore/annotated_ptr/memcpy_async, inline asm of many kinds (stmatrix, elect.sync,
    # bulk copies, mbarrier waits, createpolicy, multimem, mma.sp, wgmma with .satfinite, setmaxnreg,
    # tensormap.replace), LLVM IR with scoped atomics, jump tables, dynamic alloca, bf16/f16 vectors and
    # nvvm intrinsics (redux, fence.proxy, prmt modes, tcgen05, cp.async.bulk, stmatrix, clusterlaunchcontrol)
    "warp_sync.cu": [("sm_121", ()), ("compute_86", ())],
    "fp_small.cu": [("sm_100a", ()), ("sm_120a", ())],
    "bf16_pairs.cu": [("sm_90", ())],
    "cg_algos.cu": [("sm_90", ())],
    "cluster_dsmem.cu": [("sm_90", ()), ("sm_120", ("-rdc=true",))],
    "cuda_atomics.cu": [("sm_90", ())],
    "asm_kinds.cu": [("sm_90", ())],
    "asm_warpspec.cu": [("sm_90a", ())],
    "ir_misc.ll": [("sm_90", "78", ()), ("sm_100a", "88", ("-O0",))],
    "ir_intrinsics.ll": [("sm_100a", "88", ()), ("sm_103a", "90", ())],
    "ir_intrinsics2.ll": [("sm_100a", "88", ())],
    "vec_memory.cu": [("sm_90", ())],
}
FLAG_TAGS = {"-G": "G", "-lineinfo": "lineinfo", "--use_fast_math": "fastmath", "-rdc=true": "rdc", "-O0": "O0"}


def _tag(flags) -> str:
    return "".join("." + FLAG_TAGS[f] for f in flags)


def extra_jobs() -> list[tuple[list[str], Path]]:
    out = []
    for name, builds in EXTRA.items():
        stem = name.rsplit(".", 1)[0]
        for b in builds:
            if name.endswith(".cu"):
                arch, flags = b
                dst = CORPUS / f"{stem}.{arch}{_tag(flags)}.ptx"
                out.append((["nvcc", "-ptx", f"-arch={arch}", *flags, f"src/{name}", "-o", dst.name], dst))
            else:
                sm, ptx, flags = b
                dst = CORPUS / f"{stem}.{sm}.ptx{ptx}{_tag(flags)}.ptx"
                out.append((["llc-22", "-march=nvptx64", f"-mcpu={sm}", f"-mattr=+ptx{ptx}", *flags, f"src/{name}",
                             "-o", dst.name], dst))
    return out


def jobs() -> list[tuple[list[str], Path]]:
    out = extra_jobs()
    for cu in sorted((CORPUS / "src").glob("*.cu")):
        if cu.name in EXTRA:
            continue
        archs = ("sm_90",) if cu.stem in BIG else NVCC_ARCHS
        for arch in archs:
            dst = CORPUS / f"{cu.stem}.{arch}.ptx"
            out.append((["nvcc", "-ptx", f"-arch={arch}", f"src/{cu.name}", "-o", dst.name], dst))
        if cu.stem in LINEINFO:
            dst = CORPUS / f"{cu.stem}.sm_90.lineinfo.ptx"
            out.append((["nvcc", "-ptx", "-arch=sm_90", "-lineinfo", f"src/{cu.name}", "-o", dst.name], dst))
    for ll in sorted((CORPUS / "src").glob("*.ll")):
        if ll.name in EXTRA:
            continue
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
    ap.add_argument("--only", nargs="*", help="remake only the files of these sources (NAME.cu, NAME.ll)")
    args = ap.parse_args()
    todo = [j for j in jobs() if not args.only or j[0][-3].split("/")[-1] in args.only]
    for _, dst in todo if args.only else [(None, p) for p in CORPUS.glob("*.ptx")]:
        dst.unlink(missing_ok=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        errors = [e for e in pool.map(lambda j: run(*j), todo) if e]
    for e in errors:
        print(e, file=sys.stderr)
    files = sorted(CORPUS.glob("*.ptx"))
    print(f"{len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.2f} MB in {CORPUS}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
