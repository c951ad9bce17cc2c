"""Measure PTX instruction latency on an sm_90 GPU (H100/H200) as the SASS it compiles to, and record it as
*measured* facts (never run in CI: it needs the GPU, the CUDA driver and ``pip install cuda-python``).

Method, per case: one thread runs a chain of N dependent copies of the instruction (each reads the previous
result; the other operands, loaded from memory before the timing, rotate through 8 registers so ptxas can
neither cancel nor fold the chain away), between two ``%clock64`` reads.  Two chain lengths (N1, N2) are timed, each launch repeated and the minimum kept, and the
latency is (cycles(N2) - cycles(N1)) / (N2 - N1): the clock reads, the launch and the loop-free set-up cancel.
With ``ptxas`` and ``cuobjdump`` on PATH the kernel is compiled to an sm_90 cubin first, and the SASS between the
two clock reads (``CS2R ... SR_CLOCKLO``) is counted and recorded, so each number says which SASS instruction it
is the latency of and whether the chain survived compilation (a case whose SASS chain is shorter than N is
recorded with ``"valid": false``; without cuobjdump the SASS count comes from the two cubins' .text sizes).

Run (about a minute):  .venv/bin/python tools/ptx_latency_sm90.py [--out src/gpuisa/data/ptx/measured/latency_sm90.json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

N1, N2 = 64, 320
REPEATS = 7
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "src" / "gpuisa" / "data" / "ptx" / "measured" / "latency_sm90.json"

# label -> (register type, instruction with x = the chained register, y/z = parameter values)
CASES: dict[str, tuple[str, str]] = {
    "add.s32": ("s32", "add.s32 x, x, y;"),
    "sub.s32": ("s32", "sub.s32 x, x, y;"),
    "mul.lo.s32": ("s32", "mul.lo.s32 x, x, y;"),
    "mad.lo.s32": ("s32", "mad.lo.s32 x, x, y, z;"),
    "mul.hi.u32": ("u32", "mul.hi.u32 x, x, y;"),
    "min.s32": ("s32", "min.s32 x, x, y;"),
    "and.b32": ("b32", "and.b32 x, x, y;"),
    "xor.b32": ("b32", "xor.b32 x, x, y;"),
    "shl.b32": ("b32", "shl.b32 x, x, y;"),
    "shf.l.wrap.b32": ("b32", "shf.l.wrap.b32 x, x, y, 3;"),
    "lop3.b32": ("b32", "lop3.b32 x, x, y, z, 0x96;"),
    "prmt.b32": ("b32", "prmt.b32 x, x, y, 0x3210;"),
    "popc.b32": ("b32", "popc.b32 x, x;"),
    "brev.b32": ("b32", "brev.b32 x, x;"),
    "bfe.u32": ("u32", "bfe.u32 x, x, 3, 17;"),
    "add.s64": ("s64", "add.s64 x, x, y;"),
    "mul.lo.s64": ("s64", "mul.lo.s64 x, x, y;"),
    "add.f32": ("f32", "add.f32 x, x, y;"),
    "mul.f32": ("f32", "mul.f32 x, x, y;"),
    "fma.rn.f32": ("f32", "fma.rn.f32 x, x, y, z;"),
    "max.f32": ("f32", "max.f32 x, x, y;"),
    # rcp(rcp(x)) folds to x: timed with an add between (subtract add.f32's latency)
    "rcp.approx.ftz.f32+add.f32": ("f32", "rcp.approx.ftz.f32 x, x; add.f32 x, x, y;"),
    "sqrt.approx.ftz.f32": ("f32", "sqrt.approx.ftz.f32 x, x;"),
    "rsqrt.approx.ftz.f32": ("f32", "rsqrt.approx.ftz.f32 x, x;"),
    "ex2.approx.ftz.f32": ("f32", "ex2.approx.ftz.f32 x, x;"),
    "lg2.approx.ftz.f32": ("f32", "lg2.approx.ftz.f32 x, x;"),
    "sin.approx.ftz.f32": ("f32", "sin.approx.ftz.f32 x, x;"),
    "tanh.approx.f32": ("f32", "tanh.approx.f32 x, x;"),
    "add.f64": ("f64", "add.f64 x, x, y;"),
    "fma.rn.f64": ("f64", "fma.rn.f64 x, x, y, z;"),
    "add.f16": ("f16", "add.f16 x, x, y;"),
    "fma.rn.f16x2": ("f16x2", "fma.rn.f16x2 x, x, y, z;"),
    "fma.rn.bf16x2": ("bf16x2", "fma.rn.bf16x2 x, x, y, z;"),
}

_REG = {"s32": ("b32", "u32"), "u32": ("b32", "u32"), "b32": ("b32", "u32"), "s64": ("b64", "u64"),
        "f32": ("f32", "f32"), "f64": ("f64", "f64"), "f16": ("b16", "u16"), "f16x2": ("b32", "u32"),
        "bf16x2": ("b32", "u32")}


YS = 8  # distinct y registers the chain rotates through (x op y0 op y0 would let ptxas cancel or fold it)
_SIZE = {"b32": 4, "b64": 8, "f32": 4, "f64": 8, "b16": 2}


def kernel_ptx(label: str, n: int) -> str:
    """A kernel timing ``n`` dependent copies of the case: x is chained, the k-th copy reads y<k mod 8> and z, all
    loaded from the input buffer before the first clock read (so nothing is known to ptxas)."""
    typ, inst = CASES[label]
    reg, ld = _REG[typ]
    size = _SIZE[reg]
    stmts = []
    for st in (t.strip() for t in inst.split(";") if t.strip()):
        mnemonic, operands = st.split(" ", 1)
        stmts.append((mnemonic, re.sub(r"\b([xz])\b", r"%\1", operands)))  # (whole operands only: not 0x96)
    chain = "\n".join(f"  {m} " + re.sub(r"\by\b", f"%y{k % YS}", ops) + ";" for k in range(n) for m, ops in stmts)
    loads = "\n".join(f"  ld.global.{ld} %y{i}, [%q+{(i + 1) * size}];" for i in range(YS))
    return f""".version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in) {{
  .reg .u64 %p, %q, %t0, %t1, %dt;
  .reg .{reg} %x, %z, %y<{YS}>;
  ld.param.u64 %p, [out];
  ld.param.u64 %q, [in];
  cvta.to.global.u64 %p, %p;
  cvta.to.global.u64 %q, %q;
  ld.global.{ld} %x, [%q];
{loads}
  ld.global.{ld} %z, [%q+{(YS + 1) * size}];
  mov.u64 %t0, %clock64;
{chain}
  mov.u64 %t1, %clock64;
  sub.s64 %dt, %t1, %t0;
  st.global.u64 [%p], %dt;
  st.global.{ld} [%p+8], %x;
  ret;
}}
"""


# x, y0..y7, z: values that keep every chain finite and away from denormals (f16x2/bf16x2: two halves)
INPUTS = {"b32": [0x3F800001 + 2 * i for i in range(YS + 2)], "b64": [3 + 2 * i for i in range(YS + 2)],
          "f32": [1.0001 - 0.00002 * i for i in range(YS + 2)], "f64": [1.0001 - 0.00002 * i for i in range(YS + 2)],
          "b16": [0x3C01 + i for i in range(YS + 2)]}


def _inputs(typ: str) -> np.ndarray:
    reg = _REG[typ][0]
    dtype = {"b32": np.uint32, "b64": np.uint64, "f32": np.float32, "f64": np.float64, "b16": np.uint16}[reg]
    vals = INPUTS[reg]
    if typ in ("f16x2", "bf16x2"):
        vals = [(0x3C01 + i) * 0x10001 if typ == "f16x2" else (0x3F81 + i) * 0x10001 for i in range(YS + 2)]
    return np.array(vals, dtype=dtype)


def sass_chain(cubin: Path) -> list[str] | None:
    """SASS opcodes between the two clock reads of a compiled kernel (None without cuobjdump)."""
    tool = shutil.which("cuobjdump")
    if tool is None:
        return None
    out = subprocess.run([tool, "-sass", str(cubin)], capture_output=True, text=True).stdout
    ops, inside = [], False
    for line in out.splitlines():
        m = re.search(r"/\*[0-9a-f]{4}\*/\s+(@!?P\d\s+)?([A-Z0-9_.]+)", line)
        if not m:
            continue
        op = m.group(2)
        if "SR_CLOCKLO" in line or "SR_CLOCK" in line:
            if inside:
                return ops
            inside = True
            continue
        if inside:
            ops.append(op)
    return ops if inside else None


def text_bytes(cubin: bytes) -> int:
    """Bytes of the cubin's .text sections (ELF64 little-endian): 16 per sm_90 SASS instruction."""
    import struct

    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    heads = [struct.unpack_from("<IIQQQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    strtab = heads[shstrndx][4]

    def name(h) -> bytes:
        return cubin[strtab + h[0]:cubin.index(b"\0", strtab + h[0])]

    return sum(h[5] for h in heads if name(h).startswith(b".text"))


def compile_ptx(ptx: str, tmp: Path, name: str) -> tuple[bytes, list[str] | None]:
    """(image to load, SASS chain): a cubin from ptxas when present, else the PTX for the driver's JIT."""
    ptxas = shutil.which("ptxas")
    if ptxas is None:
        return ptx.encode() + b"\0", None
    src, cubin = tmp / f"{name}.ptx", tmp / f"{name}.cubin"
    src.write_text(ptx)
    subprocess.run([ptxas, "-arch=sm_90", "-O3", str(src), "-o", str(cubin)], check=True)
    return cubin.read_bytes(), sass_chain(cubin)


def sass_per_ptx(label: str, tmp: Path) -> float | None:
    """SASS instructions per chained PTX instruction, from the two cubins' .text sizes (None without ptxas):
    below 1 means ptxas folded part of the chain and the case cannot be timed this way."""
    if shutil.which("ptxas") is None:
        return None
    sizes = [text_bytes(compile_ptx(kernel_ptx(label, n), tmp, f"{label}_{n}_size")[0]) for n in (N1, N2)]
    return (sizes[1] - sizes[0]) / 16 / (N2 - N1)


def time_kernel(cu, image: bytes, typ: str) -> int:
    """Minimum over REPEATS launches of the clock64 difference the kernel wrote."""
    err, mod = cu.cuModuleLoadData(image)
    if err != cu.CUresult.CUDA_SUCCESS:
        raise RuntimeError(f"module load failed: {err}")
    _, fn = cu.cuModuleGetFunction(mod, b"k")
    _, dout = cu.cuMemAlloc(64)
    data = _inputs(typ)
    _, din = cu.cuMemAlloc(data.nbytes)
    cu.cuMemcpyHtoD(din, data.ctypes.data, data.nbytes)
    params = [np.array([int(dout)], dtype=np.uint64), np.array([int(din)], dtype=np.uint64)]
    pp = np.array([p.ctypes.data for p in params], dtype=np.uint64)
    best = None
    host = np.zeros(1, dtype=np.uint64)
    for _ in range(REPEATS):
        cu.cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, pp.ctypes.data, 0)
        cu.cuCtxSynchronize()
        cu.cuMemcpyDtoH(host.ctypes.data, dout, 8)
        best = int(host[0]) if best is None else min(best, int(host[0]))
    cu.cuMemFree(dout)
    cu.cuMemFree(din)
    cu.cuModuleUnload(mod)
    return best


def measure(cu, labels: list[str]) -> dict:
    out = {}
    with tempfile.TemporaryDirectory(prefix="ptx-lat-") as tmp:
        for label in labels:
            typ = CASES[label][0]
            cycles, chains = [], []
            for n in (N1, N2):
                image, chain = compile_ptx(kernel_ptx(label, n), Path(tmp), f"{label}_{n}")
                cycles.append(time_kernel(cu, image, typ))
                chains.append(chain)
            lat = (cycles[1] - cycles[0]) / (N2 - N1)
            rec = {"ptx": CASES[label][1], "latency_cycles_per_ptx": round(lat, 1), "chain": [N1, N2],
                   "cycles": cycles}
            if chains[1] is not None:  # cuobjdump: the SASS between the clock reads
                rec["sass"] = sorted(set(chains[1]))
                per = (len(chains[1]) - len(chains[0])) / (N2 - N1)
            else:
                per = sass_per_ptx(label, Path(tmp))
            if per is not None:
                # ptxas may fuse two chained PTX adds into one 3-input SASS op (IADD3, LOP3) or expand one into
                # several: the latency of the SASS instruction is the cycles per SASS instruction of the chain
                rec.update({"sass_per_ptx": round(per, 2), "valid": per > 0,
                            "latency_cycles_per_sass": round(lat / per, 1) if per > 0 else None})
            out[label] = rec
            print(f"{label:22s} {lat:7.1f} cycles/PTX  {rec.get('latency_cycles_per_sass')} cycles/SASS  "
                  f"{rec.get('sass_per_ptx')} SASS/PTX  {' '.join(rec.get('sass', []))}", flush=True)
    return out


def _driver():
    try:
        from cuda.bindings import driver as cu
    except ImportError:
        try:
            from cuda import cuda as cu  # older cuda-python
        except ImportError:
            return None
    return cu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the measured facts")
    ap.add_argument("--only", nargs="*", help="case labels to measure (default: all)")
    ap.add_argument("--print-ptx", metavar="LABEL", help="print one case's kernel (N1 copies) and exit")
    args = ap.parse_args(argv)
    if args.print_ptx:
        print(kernel_ptx(args.print_ptx, N1))
        return 0
    cu = _driver()
    if cu is None:
        print("skipped: cuda-python is not installed (pip install cuda-python)")
        return 0
    err, = cu.cuInit(0)
    err2, count = cu.cuDeviceGetCount()
    if err != cu.CUresult.CUDA_SUCCESS or err2 != cu.CUresult.CUDA_SUCCESS or count == 0:
        print("skipped: no NVIDIA GPU")
        return 0
    _, dev = cu.cuDeviceGet(0)
    _, major = cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)
    _, minor = cu.cuDeviceGetAttribute(cu.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev)
    if (major, minor) != (9, 0):
        print(f"skipped: the GPU is sm_{major}{minor}, not sm_90")
        return 0
    _, name = cu.cuDeviceGetName(64, dev)
    _, ctx = cu.cuCtxCreate(0, dev)
    labels = args.only or list(CASES)
    unknown = [x for x in labels if x not in CASES]
    if unknown:
        print(f"unknown case {unknown[0]} (allowed: {', '.join(CASES)})", file=sys.stderr)
        return 2
    results = measure(cu, labels)
    _, drv = cu.cuDriverGetVersion()
    ptxas = shutil.which("ptxas")
    ptxas_v = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1] \
        if ptxas else None
    doc = {"source": "measurement", "target": "sm_90", "generated_by": "tools/ptx_latency_sm90.py",
           "device": name.split(b"\0")[0].decode(), "driver_version": drv, "ptxas": ptxas_v,
           "method": f"dependent chain of N copies between two %clock64 reads, one thread; latency per PTX = "
                     f"(cycles(N={N2}) - cycles(N={N1})) / {N2 - N1}, minimum of {REPEATS} launches; per SASS = "
                     "that / SASS instructions per PTX instruction of the compiled chain",
           "note": "measured on one device and driver; SASS as compiled by the ptxas named here",
           "instructions": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out} ({len(results)} cases)")
    cu.cuCtxDestroy(ctx)
    return 0


if __name__ == "__main__":
    sys.exit(main())
