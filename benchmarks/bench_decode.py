"""Decode throughput: the ``gpuisa decode`` command against ``llvm-objdump-22 -d`` and ``llvm-mc-22 -disassemble``.

    .venv/bin/python benchmarks/bench_decode.py [--arch rdna3[,rdna4,cdna3,...]] [--count 200000] [--repeat 5]

The input is built once: instructions drawn at random from every (instruction, encoding) the
architecture's plans know (the plan's own word, i.e. default modifiers), with their register fields
randomised (so most words are distinct, as in real code objects), checked valid by llvm-mc.  From it
the benchmark makes, at run time: a code object (``k.o``: a kernel ``kern`` whose ``.text`` is the stream
as ``.long`` lines, assembled by ``llvm-mc-22 -filetype=obj``), the raw bytes (``k.bin``) and the same
bytes as hex text, one instruction per line (llvm-mc's only input format).

Headline, printed first (goal: gpuisa >= 4x on each): whole processes, start-up included, each run a
fresh process, the tools interleaved so that all see the same machine load, outputs to /dev/null:

* ``gpuisa decode --arch A --file k.o`` vs ``llvm-objdump-22 -d --mcpu=gfxNNNN k.o`` (the same listing:
  the agreement of the two listings, line for line, is printed too);
* ``gpuisa decode --arch A --file k.bin`` vs ``llvm-mc-22 -disassemble`` on the hex text.

Wall and CPU time (user + system of the child process) as median and range, and the ratio of the
medians; the headline also says whether the C accelerator (``codec/fastdecode.c``, ``codec/accel.py``) was
used (built, and ``GPUISA_NO_ACCEL`` not set) and whether the precomputed batch tables were current (stale ones
are derived at run time: a slower first decode).  The ratios are of an input the data folder's decode
cache (``accel.snapshot_path``) has never seen: before each measured run the cache is put back as two
uncounted runs on ANOTHER input of the same kind (seed 17; the measured one is seed 5) left it,
so a run pays whatever it costs to meet new words (the scalar decoder, any cache writing: the whole process
is timed).  Printed on their own lines, not in the ratio: a cold
run (the decode cache removed first), a run in an empty data folder (a new ``GPUISA_HOME``: the first run
after install, from the committed base tables, ``codec/accel_base.py``) and a memo run (the measured input again right after: what the cache
memorised of it).  Then, secondary, ``gpuisa decode --file k.o --json``.
The gpuisa processes use a bytecode cache in a temporary folder, filled by one uncounted run first (as an
installed package has its modules compiled; this checkout may run with PYTHONDONTWRITEBYTECODE), and the
user's ``GPUISA_HOME`` (where the parsed batch tables are cached).

Secondary ("cold", the library without the command line): a fresh Python process that imports gpuisa and
makes a ``Decoder`` (loading the architecture's instruction tables from the store: reported on its own
line, not part of the ratio), then times its first ``decode_text`` of the input (the listing as one
string) -- which includes loading the batch decoder's precomputed tables (``codec/batch_data.py``) or,
when they are stale, deriving them -- against llvm-mc's whole process; the same for ``decode_listing``
((offset, text, size) tuples); "warm": the same input decoded again in one process, for
``decode_text``, ``decode_listing`` and ``decode`` (one ``Decoded`` per instruction); and the
single-instruction ``decode_at`` time in microseconds.

Each side's minor page faults are printed too (``getrusage``: llvm-mc's whole process, gpuisa's decode call):
on a virtual machine a fresh page costs 2-3 us, so they explain much of the gap between the wall-clock
ratio and the instruction-count one.

``--instructions`` also counts the machine instructions each side executes under ``valgrind
--tool=callgrind``: the whole processes of ``gpuisa decode --file k.o`` and ``llvm-objdump -d k.o``, and the
decode alone (llvm-mc less its run on empty input; the cold gpuisa process less the same process without the
decode call): ratios that the load of a shared machine does not move, unlike the times.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

from gpuisa import archs  # noqa: E402
from gpuisa.codec import oracle  # noqa: E402
from gpuisa.codec.decoder import Decoder, get_decoder  # noqa: E402
from gpuisa.codec.plans import load_plans  # noqa: E402
from gpuisa.codec.tables import load_arch_tables  # noqa: E402
from gpuisa.regen.examples import variant_words  # noqa: E402
from gpuisa.sources.llvm import LLVM_MAJOR, find_llvm_mc  # noqa: E402

# the fresh process of one cold gpuisa run: argv = arch, path of the input bytes, form (text or listing; none:
# everything but the decode, for ``--instructions``)
_CHILD = """
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from gpuisa.codec.decoder import Decoder
from gpuisa.codec.batch_arch import arch_batch
dec = Decoder(sys.argv[1])
t1, c1 = time.perf_counter(), time.process_time()
data = open(sys.argv[2], "rb").read()
f2 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
t2, c2 = time.perf_counter(), time.process_time()
out = dec.decode_text(data) if sys.argv[3] == "text" else dec.decode_listing(data) if sys.argv[3] == "listing" else ""
t3, c3 = time.perf_counter(), time.process_time()
f3 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
n = out.count("\\n") if sys.argv[3] in ("text", "none") else len(out)
print(json.dumps({"load_wall": t1 - t0, "load_cpu": c1 - c0, "wall": t3 - t2, "cpu": c3 - c2, "n": n, "faults": f3 - f2,
                  "tables": arch_batch(dec).precomputed if sys.argv[3] != "none" else None}))
"""


def build_input(arch: str, count: int, seed: int = 5) -> list[bytes]:
    rng = random.Random(seed)
    t = load_arch_tables(arch)
    plans = load_plans(arch)
    dec = get_decoder(arch)
    pool = []
    for e in t.entries:
        for _, data in variant_words(arch, e.name, e.encoding)[:1]:
            if dec.decode_at(data, 0).valid:
                pool.append((e, data))
    insts = []
    while len(insts) < count:
        e, data = rng.choice(pool)
        enc = t.encodings[e.encoding]
        plan = plans[f"{e.name}|{e.encoding}"]
        word = int.from_bytes(data[:enc.width // 8], "little")
        for spec in plan.operands:
            if spec.kind in ("vreg",) and spec.count == 1:
                f = enc.field(spec.field)
                word = f.insert(word, rng.randrange(0, 128))
        cand = word.to_bytes(enc.width // 8, "little") + data[enc.width // 8:]
        d = dec.decode_at(cand, 0)
        if d.valid and len(d.data) == len(cand):
            insts.append(cand)
    # keep only what llvm-mc also decodes as one instruction each
    ok = oracle.disassemble(archs.by_name(arch).llvm_target, insts[:2000])
    bad = sum(1 for r in ok if len(r) != 1 or r[0].text is None)
    if bad:
        print(f"note: {bad} of the first 2000 inputs are not single valid instructions for llvm-mc", file=sys.stderr)
    return insts


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="rdna3", help="an architecture, or several separated by commas")
    ap.add_argument("--count", type=int, default=200000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--instructions", action="store_true",
                    help="also count the machine instructions each side executes (valgrind --tool=callgrind): "
                         "a ratio that machine load does not move")
    args = ap.parse_args()
    mc = find_llvm_mc()
    objdump = shutil.which(f"llvm-objdump-{LLVM_MAJOR}") or shutil.which(f"/usr/lib/llvm-{LLVM_MAJOR}/bin/llvm-objdump")
    if mc is None or objdump is None:
        print(f"llvm-mc-{LLVM_MAJOR} or llvm-objdump-{LLVM_MAJOR} not found (apt-get install -y llvm-{LLVM_MAJOR})",
              file=sys.stderr)
        return 2
    for name in args.arch.split(","):
        run_one(mc, objdump, archs.resolve_arch(name.strip()), args)
    return 0


def _run_cmd(cmd: list[str], stdin_path: str | None = None, env: dict | None = None) -> tuple[float, float, int]:
    """Wall and CPU seconds and minor page faults of one run of ``cmd`` (its output to /dev/null)."""
    c0, t0 = _children_cpu(), time.perf_counter()
    f0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    with open(stdin_path or os.devnull) as inp:
        subprocess.run(cmd, stdin=inp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - t0, _children_cpu() - c0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - f0


def _gpuisa_cmd() -> list[str]:
    """The installed ``gpuisa`` command of this Python (``python -m gpuisa.cli`` where there is none)."""
    script = Path(sys.executable).parent / "gpuisa"
    return [str(script)] if script.exists() else [sys.executable, "-m", "gpuisa.cli"]


def _gpuisa_env(pycache: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONPYCACHEPREFIX": pycache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def make_object(mc: str, target: str, insts: list[bytes], path: str) -> None:
    """A code object whose kernel ``kern`` holds the instructions (``.long`` lines assembled by llvm-mc)."""
    lines = [".text", ".globl kern", ".p2align 8", ".type kern,@function", "kern:"]
    blob = b"".join(insts)
    lines += [".long 0x%08x" % w for w in memoryview(blob).cast("I")]
    subprocess.run([mc, "-arch=amdgcn", f"-mcpu={target}", "-filetype=obj", "-o", path], input="\n".join(lines) + "\n",
                   text=True, check=True)


def _agreement(objdump: str, arch, obj: str, env: dict) -> str:
    """How many lines of ``gpuisa decode``'s listing equal llvm-objdump's."""
    ours = subprocess.run(_gpuisa_cmd() + ["decode", "--arch", arch.name, "--file", obj], capture_output=True,
                          text=True, env=env, check=True).stdout.splitlines()
    theirs = subprocess.run([objdump, "-d", f"--mcpu={arch.llvm_target}", obj], capture_output=True, text=True,
                            check=True).stdout.splitlines()
    same = sum(a == b for a, b in zip(ours, theirs))
    return f"{same} of {len(theirs)} lines identical" + (f" (gpuisa printed {len(ours)})" if len(ours) != len(theirs) else "")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run_llvm(mc: str, target: str, hex_path: str) -> tuple[float, float, int]:
    """Wall and CPU seconds and minor page faults of one llvm-mc run."""
    c0, t0 = _children_cpu(), time.perf_counter()
    f0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    with open(hex_path) as inp:
        subprocess.run([mc, "-arch=amdgcn", f"-mcpu={target}", "-disassemble"], stdin=inp,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0, _children_cpu() - c0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - f0


def _run_cold(arch: str, bin_path: str, form: str, pycache: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONPYCACHEPREFIX": pycache}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    res = subprocess.run([sys.executable, "-c", _CHILD, arch, bin_path, form], capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def _callgrind(cmd: list[str], stdin_path: str | None = None, env: dict | None = None) -> int:
    """Machine instructions ``cmd`` executes, counted by ``valgrind --tool=callgrind``."""
    with open(stdin_path or os.devnull) as inp:
        res = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--cache-sim=no", *cmd],
                             stdin=inp, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, check=False)
    for line in res.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    raise RuntimeError(f"no instruction count from valgrind for {cmd[0]}: {res.stderr[-300:]}")


def count_instructions(mc: str, objdump: str, arch, paths: dict, pycache: str) -> None:
    """The instructions each side executes for the input.  Whole processes, start-up included: ``gpuisa
    decode --file k.o`` and ``llvm-objdump -d k.o``.  The decode alone: llvm-mc's process less its run on
    empty input; the gpuisa process (as a cold run: import, Decoder, first decode_text) less the same
    process without the decode call.  Deterministic up to a fraction of a percent, unlike times on a shared
    machine."""
    if shutil.which("valgrind") is None:
        print("instructions: valgrind not found (apt-get install -y valgrind)")
        return
    hex_path, bin_path, empty_path = paths["hex"], paths["bin"], paths["empty"]
    env = _gpuisa_env(pycache)
    dump = _callgrind([objdump, "-d", f"--mcpu={arch.llvm_target}", paths["obj"]])
    cli = _callgrind([sys.executable, "-m", "gpuisa.cli", "decode", "--arch", arch.name, "--file", paths["obj"]],
                     env=env)
    print(f"instructions executed (valgrind --tool=callgrind), whole processes: llvm-objdump -d k.o {dump / 1e6:.0f} M, "
          f"gpuisa decode --file k.o {cli / 1e6:.0f} M: ratio {dump / cli:.2f}x")
    llvm_cmd = [mc, "-arch=amdgcn", f"-mcpu={arch.llvm_target}", "-disassemble"]
    llvm = _callgrind(llvm_cmd, hex_path) - _callgrind(llvm_cmd, empty_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTHONPYCACHEPREFIX": pycache, "PYTHONHASHSEED": "0",
           "OPENBLAS_NUM_THREADS": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    child = [sys.executable, "-c", _CHILD, arch.name, bin_path]
    ours = _callgrind(child + ["text"], env=env) - _callgrind(child + ["none"], env=env)
    print(f"instructions executed (valgrind --tool=callgrind): llvm-mc {llvm / 1e6:.0f} M (less its start-up), "
          f"gpuisa first decode_text {ours / 1e6:.0f} M: ratio {llvm / ours:.2f}x")


def _spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.3f} s (range {min(xs):.3f}-{max(xs):.3f})"


def _inputs(mc: str, arch, count: int, tmp: str, tag: str, seed: int) -> dict:
    """One input of the benchmark (``build_input`` with ``seed``) as a code object, raw bytes and llvm-mc's hex text."""
    insts = build_input(arch.name, count, seed)
    paths = {"insts": insts, "hex": f"{tmp}/{tag}.txt", "bin": f"{tmp}/{tag}.bin", "obj": f"{tmp}/{tag}.o"}
    Path(paths["hex"]).write_text("\n".join(" ".join(f"0x{b:02x}" for b in i) for i in insts) + "\n")
    Path(paths["bin"]).write_bytes(b"".join(insts))
    make_object(mc, arch.llvm_target, insts, paths["obj"])
    return paths


def run_one(mc: str, objdump: str, arch, args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        # the measured input (seed 5) and another of the same kind (seed 17) that warms the data folder: the ratio
        # is of an input the decode cache has never seen, as a user's new file is
        warm_in = _inputs(mc, arch, args.count, tmp, "other", 17)
        main_in = _inputs(mc, arch, args.count, tmp, "input", 5)
        insts, hex_path, bin_path, obj = main_in["insts"], main_in["hex"], main_in["bin"], main_in["obj"]
        blob = b"".join(insts)
        Path(f"{tmp}/empty.txt").write_text("")
        setup = [_run_llvm(mc, arch.llvm_target, f"{tmp}/empty.txt")[0] for _ in range(3)]
        pycache = f"{tmp}/pycache"
        env = _gpuisa_env(pycache)
        cmd = _gpuisa_cmd() + ["decode", "--arch", arch.name, "--file"]
        cli_obj, cli_bin = cmd + [obj], cmd + [bin_path]
        dump = [objdump, "-d", f"--mcpu={arch.llvm_target}", obj]
        mc_cmd = [mc, "-arch=amdgcn", f"-mcpu={arch.llvm_target}", "-disassemble"]
        _clear_decode_cache(arch.name)
        _run_cmd(cmd + [warm_in["obj"]], env=env)  # (not counted: fills the bytecode cache and the decode cache with
        _run_cmd(cmd + [warm_in["bin"]], env=env)  # the other input, as earlier work of the user would)
        warmed = _save_decode_cache(arch.name)
        runs: dict[str, list] = {k: [] for k in ("objdump", "cli_obj", "mc", "cli_bin", "cli_json", "cold", "memo",
                                                 "empty")}
        cold, cold_listing = [], []
        for _ in range(args.repeat):  # interleaved, so that all see the same machine load
            runs["objdump"].append(_run_cmd(dump))
            _restore_decode_cache(arch.name, warmed)  # (the measured input never decoded in this data folder)
            runs["cli_obj"].append(_run_cmd(cli_obj, env=env))
            runs["memo"].append(_run_cmd(cli_obj, env=env))  # the same input again: what the cache memorised
            runs["mc"].append(_run_cmd(mc_cmd, hex_path))
            _restore_decode_cache(arch.name, warmed)
            runs["cli_bin"].append(_run_cmd(cli_bin, env=env))
            _restore_decode_cache(arch.name, warmed)
            runs["cli_json"].append(_run_cmd(cli_obj + ["--json"], env=env))
            _clear_decode_cache(arch.name)  # an empty data folder's decode cache (the store stays)
            runs["cold"].append(_run_cmd(cli_obj, env=env))
            runs["empty"].append(_run_cmd(cli_obj, env={**env, "GPUISA_HOME": tempfile.mkdtemp(dir=tmp)}))
            cold.append(_run_cold(arch.name, bin_path, "text", pycache))
            cold_listing.append(_run_cold(arch.name, bin_path, "listing", pycache))
        agree = _agreement(objdump, arch, obj, env)
        _report_cli(arch, insts, runs, agree, "; ".join(sorted({c["tables"] for c in cold})))
        paths = {"hex": hex_path, "bin": bin_path, "empty": f"{tmp}/empty.txt", "obj": obj}
        counted = (lambda: count_instructions(mc, objdump, arch, paths, pycache)) if args.instructions \
            else (lambda: None)
        _report(arch, insts, blob, setup, runs["mc"], cold, cold_listing, args)
        counted()  # (the temporary files are still there)


def _ratio_line(name: str, theirs: list, ours: list) -> str:
    tw, tc = [w for w, _, _ in theirs], [c for _, c, _ in theirs]
    ow, oc = [w for w, _, _ in ours], [c for _, c, _ in ours]
    return (f"{name}: wall {statistics.median(tw) / statistics.median(ow):.2f}x, "
            f"cpu {statistics.median(tc) / statistics.median(oc):.2f}x (goal >= 4x)")


def _accel_state() -> str:
    """Whether ``gpuisa decode`` runs its C accelerator here (``codec/accel.py``)."""
    from gpuisa.codec.accel import extension

    if os.environ.get("GPUISA_NO_ACCEL") == "1":
        return "not used (GPUISA_NO_ACCEL=1): the numpy path"
    return "used (gpuisa.codec.fastdecode)" if extension() is not None else \
        "NOT BUILT (python setup.py build_ext --inplace): the numpy path"


def _decode_cache_files(arch: str) -> list[str]:
    """The data folder's decode cache files of ``arch`` (``accel.snapshot_path`` and what sits beside it)."""
    from gpuisa.codec.accel import snapshot_path

    path = snapshot_path(arch, False)
    if path is None:
        return []
    folder, stem = os.path.dirname(path), f"decode-{arch}"
    try:
        return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                      if n.startswith((stem + ".marshal", stem + "-wave64.marshal")))
    except OSError:
        return []


def _clear_decode_cache(arch: str) -> None:
    """Removes the data folder's decode cache for ``arch`` (the next run is cold)."""
    for path in _decode_cache_files(arch):
        try:
            os.unlink(path)
        except OSError:
            pass


def _save_decode_cache(arch: str) -> dict[str, bytes]:
    out = {}
    for path in _decode_cache_files(arch):
        with open(path, "rb") as fh:
            out[path] = fh.read()
    return out


def _restore_decode_cache(arch: str, saved: dict[str, bytes]) -> None:
    """The decode cache as ``_save_decode_cache`` saw it (what a run after that added is removed)."""
    _clear_decode_cache(arch)
    for path, data in saved.items():
        Path(path).write_bytes(data)


def _report_cli(arch, insts, runs: dict, agree: str, tables: str) -> None:
    print(f"== {arch.name} ({arch.llvm_target}): {len(insts)} instructions, whole processes (start-up and any cache "
          f"writing included), fresh each run, interleaved, output to /dev/null; C accelerator: {_accel_state()}; "
          f"data folder: warmed by ANOTHER input of the same kind (seed 17), the measured one (seed 5) never decoded "
          f"there before each run; precomputed batch tables: {tables}")
    print(_ratio_line(f"RATIO gpuisa decode --file k.o / llvm-objdump-{LLVM_MAJOR} -d", runs["objdump"], runs["cli_obj"]))
    print(_ratio_line(f"RATIO gpuisa decode --file k.bin / llvm-mc-{LLVM_MAJOR} -disassemble", runs["mc"], runs["cli_bin"]))
    names = {"objdump": f"llvm-objdump-{LLVM_MAJOR} -d --mcpu={arch.llvm_target} k.o",
             "cli_obj": f"gpuisa decode --arch {arch.name} --file k.o (unseen)",
             "mc": f"llvm-mc-{LLVM_MAJOR} -disassemble < k.txt",
             "cli_bin": f"gpuisa decode --arch {arch.name} --file k.bin (unseen)"}
    for key, label in names.items():
        r = runs[key]
        print(f"  {label}: wall {_spread([w for w, _, _ in r])}   cpu {_spread([c for _, c, _ in r])}")
    print(f"  listing agreement, gpuisa vs llvm-objdump on k.o: {agree}")
    for key, label in (("cold", "cold: empty decode cache (removed before each run)"),
                       ("empty", "first run in an empty data folder (a new one each run, as after install)"),
                       ("memo", "memo: the same k.o again right after (what the cache memorised of it)")):
        r = runs[key]
        print(f"  not in the ratio, {label}: gpuisa decode --arch {arch.name} --file k.o: wall "
              f"{_spread([w for w, _, _ in r])}   cpu {_spread([c for _, c, _ in r])}   "
              + _ratio_line("vs llvm-objdump", runs["objdump"], r).split(": ", 1)[1].replace(" (goal >= 4x)", ""))
    r = runs["cli_json"]
    print(f"secondary: gpuisa decode --arch {arch.name} --file k.o --json (JSON Lines, unseen): wall "
          f"{_spread([w for w, _, _ in r])}   cpu {_spread([c for _, c, _ in r])}   "
          + _ratio_line("vs llvm-objdump", runs["objdump"], r).split(": ", 1)[1].replace(" (goal >= 4x)", ""))


def _report(arch, insts, blob, setup, llvm, cold, cold_listing, args) -> None:
    if any(c["n"] != len(insts) for c in cold + cold_listing):  # (an instruction that reads past its own bytes)
        print(f"note: the stream decodes as {cold[0]['n']} instructions, not {len(insts)} (an instruction that the "
              f"scalar decoder reads past its own bytes takes the next one's)", file=sys.stderr)
    lw, lc = [w for w, _, _ in llvm], [c for _, c, _ in llvm]
    gw, gc_ = [c["wall"] for c in cold], [c["cpu"] for c in cold]
    print(f"input: {len(insts)} instructions ({len(blob)} bytes, {len(set(insts))} distinct), {arch.name} ({arch.llvm_target})")
    print(f"secondary: llvm-mc-{LLVM_MAJOR} -disassemble (fresh process each run; start-up with its tables on empty input: "
          f"{statistics.median(setup):.3f} s wall)")
    print(f"  wall {_spread(lw)}   cpu {_spread(lc)}   minor page faults: median {statistics.median(f for _, _, f in llvm):.0f}")
    states = sorted({c["tables"] for c in cold})
    print(f"gpuisa cold: fresh process each run, first decode_text (precomputed tables: {'; '.join(states)})")
    print(f"  wall {_spread(gw)}   cpu {_spread(gc_)}   minor page faults of the decode: "
          f"median {statistics.median(c['faults'] for c in cold):.0f}")
    print(f"  not in the ratio: import + Decoder('{arch.name}') (instruction tables from the store): "
          f"wall {_spread([c['load_wall'] for c in cold])}   cpu {_spread([c['load_cpu'] for c in cold])}")
    rw = sorted(a / b for a, b in zip(lw, gw))
    rc = sorted(a / b for a, b in zip(lc, gc_))
    print(f"throughput ratio gpuisa/llvm-mc, cold (goal >= 4x): wall {statistics.median(lw) / statistics.median(gw):.2f}x "
          f"(per-run {rw[0]:.2f}-{rw[-1]:.2f}), cpu {statistics.median(lc) / statistics.median(gc_):.2f}x "
          f"(per-run {rc[0]:.2f}-{rc[-1]:.2f})")
    xw, xc = [c["wall"] for c in cold_listing], [c["cpu"] for c in cold_listing]
    print(f"secondary, gpuisa cold decode_listing ((offset, text, size) per instruction; same fresh-process runs): "
          f"wall {_spread(xw)}   cpu {_spread(xc)}   ratio wall {statistics.median(lw) / statistics.median(xw):.2f}x "
          f"cpu {statistics.median(lc) / statistics.median(xc):.2f}x")
    # warm: the same process decodes the input again
    warm: dict[str, list[float]] = {"decode_text": [], "decode_listing": [], "decode (objects)": []}
    dec = Decoder(arch.name)
    dec.decode_listing(blob)
    for form, key in ((dec.decode_text, "decode_text"), (dec.decode_listing, "decode_listing"),
                      (dec.decode, "decode (objects)")):
        for _ in range(args.repeat):
            out = None  # the previous result is freed before the clock starts
            t0 = time.process_time()
            out = form(blob)
            warm[key].append(time.process_time() - t0)
        del out
    for key, v in warm.items():
        print(f"gpuisa warm {key} (same process, again): cpu {_spread(v)}  ratio {statistics.median(lc) / statistics.median(v):.2f}x")
    single = []
    dec = get_decoder(arch.name)
    sample = insts[:20000]
    for _ in range(3):
        t0 = time.perf_counter()
        for i in sample:
            dec.decode_at(i, 0)
        single.append((time.perf_counter() - t0) / len(sample) * 1e6)
    print(f"single-instruction decode_at (warm): {statistics.median(single):.2f} us/instruction")


if __name__ == "__main__":
    raise SystemExit(main())
