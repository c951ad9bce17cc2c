"""Bulk decode throughput: gpuisa vs ``llvm-mc-19 -disassemble`` on the same 200,000 instructions.

    .venv/bin/python benchmarks/bench_decode.py [--arch rdna3[,cdna3,...]] [--count 200000] [--repeat 5]

The input is built once: instructions drawn at random from every (instruction, encoding) the
architecture's plans know, with their register fields randomised (so nearly every word is distinct,
as in real code objects), checked valid by llvm-mc.  Both decoders get exactly these bytes (llvm-mc as
the hex text it needs, one instruction per line, which is its only input format; gpuisa as bytes).
Prints the median of ``--repeat`` runs for each and the throughput ratios (goal: gpuisa >= 4x) for
gpuisa's two bulk forms -- ``decode_listing`` (offset, text, size per instruction: what llvm-mc
produces) and ``decode`` (one ``Decoded`` object per instruction) -- each measured cold (a fresh
decoder per run: its word caches start empty, only repeats inside the input hit) and warm (the same
input decoded again by the same decoder, as a tool re-reading code objects would), and the
single-instruction decode time in microseconds.  Tables, and what the batch decoder derives from them
(per-plan format templates, operand-text tables), are loaded once per process: the first cold run of a
process pays for deriving them and is printed on its own line too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from gpuisa import archs  # noqa: E402
from gpuisa.codec import oracle  # noqa: E402
from gpuisa.codec.decoder import Decoder, get_decoder  # noqa: E402
from gpuisa.codec.examples import variant_words  # noqa: E402
from gpuisa.codec.plans import load_plans  # noqa: E402
from gpuisa.codec.tables import load_arch_tables  # noqa: E402
from gpuisa.sources.llvm import find_llvm_mc  # noqa: E402


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
        for spec in plan["ops"]:
            if spec.get("k") in ("vreg",) and spec.get("n", 1) == 1:
                f = enc.field(spec["f"])
                word = (word & ~f.place((1 << f.width) - 1)) | f.place(rng.randrange(0, 128))
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
    args = ap.parse_args()
    mc = find_llvm_mc()
    if mc is None:
        print("llvm-mc-19 not found (apt-get install -y llvm-19)", file=sys.stderr)
        return 2
    for name in args.arch.split(","):
        run_one(mc, archs.resolve_arch(name.strip()), args)
    return 0


def run_one(mc: str, arch, args) -> None:
    insts = build_input(arch.name, args.count)
    blob = b"".join(insts)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(" ".join(f"0x{b:02x}" for b in i) for i in insts) + "\n")
        hex_path = fh.name
    llvm_times = []
    ours: dict[str, list[float]] = {k: [] for k in ("listing cold", "listing warm", "objects cold", "objects warm")}
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        with open(hex_path) as inp:
            subprocess.run([mc, "-arch=amdgcn", f"-mcpu={arch.llvm_target}", "-disassemble"], stdin=inp,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        llvm_times.append(time.perf_counter() - t0)
        for form in ("listing", "objects"):
            dec = Decoder(arch.name)  # tables and plans are loaded once per process; the caches start empty
            run = dec.decode_listing if form == "listing" else dec.decode
            for state in ("cold", "warm"):
                out = None  # the previous result is freed before the clock starts, not inside the timed call
                t0 = time.perf_counter()
                out = run(blob)
                ours[f"{form} {state}"].append(time.perf_counter() - t0)
                assert len(out) == len(insts), (len(out), len(insts))
    single = []
    dec = get_decoder(arch.name)
    sample = insts[:20000]
    for _ in range(3):
        t0 = time.perf_counter()
        for i in sample:
            dec.decode_at(i, 0)
        single.append((time.perf_counter() - t0) / len(sample) * 1e6)
    lm = statistics.median(llvm_times)
    print(f"input: {len(insts)} instructions ({len(blob)} bytes, {len(set(insts))} distinct), {arch.name} ({arch.llvm_target})")
    print(f"llvm-mc-19 -disassemble:   median {lm:.3f} s  ({len(insts) / lm / 1e3:.0f} k inst/s)")
    for k, v in ours.items():
        om = statistics.median(v)
        print(f"gpuisa {k:13s}:     median {om:.3f} s  ({len(insts) / om / 1e3:.0f} k inst/s)  ratio {lm / om:.2f}x")
    print("throughput ratio gpuisa/llvm-mc (listing cold; goal >= 4x): "
          f"{lm / statistics.median(ours['listing cold']):.2f}x")
    per_run = sorted(a / b for a, b in zip(llvm_times, ours["listing cold"]))
    print(f"listing cold, per-run ratios: {' '.join(f'{r:.2f}' for r in per_run)}")
    first = ours["listing cold"][0]
    print(f"gpuisa listing cold, first run of the process: {first:.3f} s  ratio {lm / first:.2f}x")
    print(f"single-instruction decode (warm): {statistics.median(single):.2f} us/instruction")
    Path(hex_path).unlink()


if __name__ == "__main__":
    raise SystemExit(main())
