"""``gpuisa decode`` on real compiler output against ``llvm-objdump-22 -d``, whole processes.

    .venv/bin/python benchmarks/bench_decode_real.py [--arch rdna3,rdna4,cdna3,cdna2,cdna5] [--repeat 5] [--steps 300] [--wave64]

The input is made at run time: the IR this benchmark carries (``benchmarks/real_ir.py``: our own kernels --
loops, LDS reductions with ds_swizzle/DPP, atomics, global/buffer/flat/scratch memory, packed f16/bf16, a call,
MFMA/WMMA, an unrolled body of ``--steps`` steps: thousands of instructions) compiled by
``llc-22 -march=amdgcn -mcpu=gfxNNNN -filetype=obj`` (``k.o``; ``--wave64``: with ``-mattr=+wavefrontsize64``,
decoded with ``--wave64``, without the matrix kernel); the same module as assembly
(``llc-22 -filetype=asm``) assembled by ``llvm-mc-22 -filetype=obj`` (``k_mc.o``) is checked for equality too.

Per architecture, each run a fresh process, the tools interleaved so that all see the same load, outputs to
/dev/null, wall and CPU (user + system of the child) as median and range and the ratio of the medians:

* first run: ``gpuisa decode --arch A --file k.o`` in an empty data folder (a new ``GPUISA_HOME`` each repeat:
  the first run after install, from the committed base tables ``codec/data/accel_<arch>.bin``; in a checkout the
  store is built from the facts then);
* first run with the store: the same in a data folder holding only the store the warm run built (``pip install .``
  packages the store: what a first run after install costs there);
* warm: the same command again in a data folder the first run left (what a build script's next run costs);
* ``llvm-objdump-22 -d --mcpu=gfxNNNN k.o``.

Also printed: the listing's equality with llvm-objdump's, line for line (``k.o`` and ``k_mc.o``), and what the
first run left in its data folder: a decode cache (``decode-A.marshal``: the C loop met so much the base does not
hold that the batch decoder, i.e. numpy, was made), the scalar answers beside the base (``.add``: the scalar
decoder was made) and the store (``default.sqlite``: opened, built from the facts).  The gpuisa processes share a
bytecode cache in a temporary folder, filled by one uncounted run first (as an installed package has its
modules compiled).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import real_ir  # noqa: E402

from gpuisa import archs  # noqa: E402

_MAJOR = 22


def _tool(name: str) -> str | None:
    return shutil.which(f"{name}-{_MAJOR}") or shutil.which(f"/usr/lib/llvm-{_MAJOR}/bin/{name}")


def _gpuisa_cmd() -> list[str]:
    """The installed ``gpuisa`` command of this Python (``python -m gpuisa.cli`` where there is none)."""
    script = Path(sys.executable).parent / "gpuisa"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gpuisa.cli"]


def _env(pycache: str, home: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONPYCACHEPREFIX": pycache, "GPUISA_HOME": home}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _timed(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``cmd`` (its output to /dev/null)."""
    c0, t0 = _cpu(), time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - t0, _cpu() - c0


def _mattr(wave64: bool) -> list[str]:
    return ["-mattr=+wavefrontsize64"] if wave64 else []


def _dump_mattr(wave64: bool) -> list[str]:
    return ["--mattr=+wavefrontsize64"] if wave64 else []


def make_objects(llc: str, mc: str, target: str, steps: int, tmp: str, wave64: bool = False) -> dict:
    """``k.o`` (llc-22) and ``k_mc.o`` (llc-22's assembly through llvm-mc-22) of the carried IR for ``target``."""
    ir = os.path.join(tmp, "k.ll")
    Path(ir).write_text(real_ir.module(target, steps, wave64))
    out = {"k.o": os.path.join(tmp, "k.o"), "k_mc.o": os.path.join(tmp, "k_mc.o")}
    base = [llc, "-march=amdgcn", f"-mcpu={target}", *_mattr(wave64), ir]
    subprocess.run(base + ["-filetype=obj", "-o", out["k.o"]], check=True, capture_output=True)
    subprocess.run(base + ["-filetype=asm", "-o", os.path.join(tmp, "k.s")], check=True, capture_output=True)
    subprocess.run([mc, "-arch=amdgcn", f"-mcpu={target}", *_mattr(wave64), "-filetype=obj", "-o", out["k_mc.o"],
                    os.path.join(tmp, "k.s")], check=True, capture_output=True)
    return out


def agreement(objdump: str, arch, obj: str, env: dict, wave64: bool = False) -> tuple[int, int, bool]:
    """(lines of llvm-objdump's listing that ``gpuisa decode``'s has in the same order (a longest common
    subsequence: a line split in two does not shift the rest), llvm-objdump's lines, whether the two listings are
    byte-equal)."""
    flag = ["--wave64"] if wave64 else []
    ours = subprocess.run(_gpuisa_cmd() + ["decode", "--arch", arch.name, "--file", obj, *flag], capture_output=True,
                          env=env, check=False).stdout
    theirs = subprocess.run([objdump, "-d", f"--mcpu={arch.llvm_target}", *_dump_mattr(wave64), obj], capture_output=True,
                            check=False).stdout
    import difflib

    a, b = ours.splitlines(), theirs.splitlines()
    same = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return same, len(b), ours == theirs


def _left(home: str, arch: str) -> str:
    cache = Path(home) / "cache"
    names = {p.name.replace("-wave64", "") for p in cache.iterdir()} if cache.is_dir() else set()
    parts = [f"decode cache made (numpy, batch decoder): {'yes' if f'decode-{arch}.marshal' in names else 'no'}",
             f"scalar answers beside the base: {'yes' if f'decode-{arch}.marshal.add' in names else 'no'}",
             f"store opened: {'yes' if 'default.sqlite' in names else 'no'}"]
    return "; ".join(parts)


def _line(name: str, runs: list) -> str:
    w, c = [x for x, _ in runs], [x for _, x in runs]
    return (f"  {name}: wall median {statistics.median(w):.3f} s ({min(w):.3f}-{max(w):.3f}), "
            f"cpu median {statistics.median(c):.3f} s ({min(c):.3f}-{max(c):.3f})")


def _ratio(theirs: list, ours: list) -> str:
    tw, tc = statistics.median(x for x, _ in theirs), statistics.median(x for _, x in theirs)
    ow, oc = statistics.median(x for x, _ in ours), statistics.median(x for _, x in ours)
    return f"wall {tw / ow:.2f}x, cpu {tc / oc:.2f}x"


def run_one(tools: dict, arch, args) -> None:
    target = arch.llvm_target
    with tempfile.TemporaryDirectory(prefix="bench-decode-real-") as tmp:
        objs = make_objects(tools["llc"], tools["mc"], target, args.steps, tmp, args.wave64)
        pycache = os.path.join(tmp, "pycache")
        obj = objs["k.o"]
        cmd = _gpuisa_cmd() + ["decode", "--arch", arch.name, "--file", obj] + (["--wave64"] if args.wave64 else [])
        dump = [tools["objdump"], "-d", f"--mcpu={target}", *_dump_mattr(args.wave64), obj]
        warm_home = os.path.join(tmp, "warm")
        subprocess.run(cmd, stdout=subprocess.DEVNULL, env=_env(pycache, warm_home), check=False)  # (bytecode, warm)
        runs: dict[str, list] = {"objdump": [], "first": [], "store": [], "warm": []}
        first_home = ""
        for i in range(args.repeat):
            runs["objdump"].append(_timed(dump))
            first_home = os.path.join(tmp, f"first{i}")
            runs["first"].append(_timed(cmd, _env(pycache, first_home)))
            store_home = os.path.join(tmp, f"store{i}")  # (empty but for the store, as an installed package has it)
            os.makedirs(os.path.join(store_home, "cache"))
            shutil.copy(os.path.join(warm_home, "cache", "default.sqlite"), os.path.join(store_home, "cache"))
            runs["store"].append(_timed(cmd, _env(pycache, store_home)))
            runs["warm"].append(_timed(cmd, _env(pycache, warm_home)))
        insts = subprocess.run(dump, capture_output=True, text=True, check=False).stdout.count("// ")
        print(f"{arch.name} ({target}{', wave64' if args.wave64 else ''}): k.o from llc-22, {insts} instructions, "
              f"{os.path.getsize(obj):,} bytes")
        for name in ("k.o", "k_mc.o"):
            same, total, equal = agreement(tools["objdump"], arch, objs[name], _env(pycache, os.path.join(tmp, f"eq-{name}")),
                                           args.wave64)
            print(f"  listing vs llvm-objdump-{_MAJOR} -d ({name}): {same}/{total} lines equal"
                  f"{' (byte-equal)' if equal else ''}")
        print(f"  first run left: {_left(first_home, arch.name)}")
        print(_line(f"llvm-objdump-{_MAJOR} -d", runs["objdump"]))
        print(_line("gpuisa decode, first run (empty data folder)", runs["first"]))
        print(_line("gpuisa decode, first run (empty data folder but the store)", runs["store"]))
        print(_line("gpuisa decode, warm", runs["warm"]))
        print(f"  RATIO first run: {_ratio(runs['objdump'], runs['first'])};  with the store: "
              f"{_ratio(runs['objdump'], runs['store'])};  warm: {_ratio(runs['objdump'], runs['warm'])}"
              "  (llvm-objdump time / gpuisa time: above 1 is faster than llvm-objdump)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", default="rdna3,rdna4,cdna3,cdna2,cdna5")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=300, help="steps of the unrolled kernel")
    ap.add_argument("--wave64", action="store_true", help="wave64 code (RDNA: -mattr=+wavefrontsize64, decode --wave64)")
    args = ap.parse_args()
    tools = {"llc": _tool("llc"), "mc": _tool("llvm-mc"), "objdump": _tool("llvm-objdump")}
    if None in tools.values():
        print(f"llc-{_MAJOR}, llvm-mc-{_MAJOR} or llvm-objdump-{_MAJOR} not found (apt-get install -y llvm-{_MAJOR})",
              file=sys.stderr)
        return 2
    for name in args.arch.split(","):
        run_one(tools, archs.resolve_arch(name.strip()), args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
