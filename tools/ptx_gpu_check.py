"""Run evaluable PTX forms on an NVIDIA GPU and compare every result with gpuisa's evaluator.

One kernel holds every instruction under test; thread i reads input i of each
operand from global arrays, executes each instruction once and writes each
result to its own output array.  The PTX is loaded with the CUDA driver API
(``pip install cuda-python``).  Prints agreement per form; exits 0 with a
message when no GPU or driver binding is present (CI skips it that way).

Run: .venv/bin/python tools/ptx_gpu_check.py [--n 65536]   (about a minute on an H200)
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from gpuisa.ptx.semantics import evaluate_ptx

SELS = ["", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"]


def forms() -> list[str]:
    """Instruction templates over a, b, c (32-bit) writing d."""
    out = []
    for op in ("vadd", "vsub", "vabsdiff", "vmin", "vmax"):
        for dt in (".u32", ".s32"):
            for at in (".u32", ".s32"):
                for sat in ("", ".sat"):
                    out.append(f"{op}{dt}{at}.s32{sat} d, a, b.b1;")
                    out.append(f"{op}{dt}.u32{at}{sat}.add d, a.h1, b, c;")
                    out.append(f"{op}{dt}{at}{at}{sat} d.b2, a.b3, b.h0, c;")
    for op in ("vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vadd4", "vsub4", "vavrg4", "vabsdiff4",
               "vmin4", "vmax4"):
        for t in (".u32", ".s32"):
            out.append(f"{op}{t}{t}{t}.sat d, a, b, c;")
            out.append(f"{op}{t}{t}{t}.add d, a, b, c;")
    out += ["vset.u32.s32.lt d, a.b0, b.b1;", "vset2.s32.s32.ge.add d, a, b, c;", "vshl.u32.u32.u32.clamp d, a, b;",
            "vshr.s32.s32.u32.wrap d, a, b;", "mul.hi.s32 d, a, b;", "mad.lo.u32 d, a, b, c;", "mul24.hi.u32 d, a, b;",
            "sad.s32 d, a, b, c;", "bfe.s32 d, a, b, c;", "prmt.b32 d, a, b, c;", "lop3.b32 d, a, b, c, 0xE8;",
            "dp4a.s32.u32 d, a, b, c;", "dp2a.lo.u32.s32 d, a, b, c;", "popc.b32 d, a;", "clz.b32 d, a;",
            "brev.b32 d, a;", "add.sat.s32 d, a, b;",
            "vmad.u32.u32.u32 d, a.h0, b.h1, c;", "vmad.s32.s32.u32.sat d, a, b.b2, -c;",
            "vmad.s32.s32.s32.shr15 d, -a, b.h0, c;", "vmad.u32.u32.u32.po.sat.shr7 d, a.b1, b, c;",
            "vmad.u32.u32.u32.sat d, -a, b, c;", "vmad.s32.u32.s32 d, a.b3, -b.b0, c;",
            "fns.b32 d, a, 5, c;", "fns.b32 d, a, 31, -3;", "fns.b32 d, a, 0, 0;"]
    return out


def kernel_ptx(insts: list[str]) -> str:
    body = []
    for k, inst in enumerate(insts):
        opcode, ops = inst.rstrip(";").split(" ", 1)
        names = {"d": "%rdo", "a": "%ra", "b": "%rb", "c": "%rc"}
        merge = ops.startswith("d.")
        new_ops = []
        for o in ops.split(","):
            o = o.strip()
            neg = "-" if o.startswith("-") else ""
            base, _, sel = o.lstrip("-").partition(".")
            base = "%rdm" if (base == "d" and merge) else names.get(base, base)
            new_ops.append(neg + base + ("." + sel if sel else ""))
        text = opcode + " " + ", ".join(new_ops) + ";"
        body.append(f"mov.b32 %rdm, %rc;\n{text}\n"
                    f"ld.param.u64 %pout, [outs+{8 * k}];\ncvta.to.global.u64 %pout, %pout;\n"
                    f"add.u64 %pout, %pout, %off;\nst.global.u32 [%pout], {'%rdm' if merge else '%rdo'};")
    return (".version 8.0\n.target sm_90\n.address_size 64\n"
            ".visible .entry k(.param .u64 ina, .param .u64 inb, .param .u64 inc, .param .align 8 .b8 outs["
            f"{8 * len(insts)}])\n{{\n.reg .b32 %ra, %rb, %rc, %rdo, %rdm, %i, %nt, %ct;\n"
            ".reg .b64 %off, %p, %pout;\nmov.u32 %i, %tid.x;\nmov.u32 %nt, %ntid.x;\nmov.u32 %ct, %ctaid.x;\n"
            "mad.lo.u32 %i, %ct, %nt, %i;\nmul.wide.u32 %off, %i, 4;\n"
            + "".join(f"ld.param.u64 %p, [in{n}];\ncvta.to.global.u64 %p, %p;\nadd.u64 %p, %p, %off;\n"
                      f"ld.global.u32 %r{n}, [%p];\n" for n in "abc")
            + "\n".join(body) + "\nret;\n}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=65536)
    args = ap.parse_args(argv)
    try:
        from cuda.bindings import driver as cu
    except ImportError:
        try:
            from cuda import cuda as cu  # older cuda-python
        except ImportError:
            print("skipped: cuda-python is not installed (pip install cuda-python)")
            return 0
    err, = cu.cuInit(0)
    err2, count = cu.cuDeviceGetCount()
    if err != cu.CUresult.CUDA_SUCCESS or err2 != cu.CUresult.CUDA_SUCCESS or count == 0:
        print("skipped: no NVIDIA GPU")
        return 0
    insts = forms()
    n = args.n
    rng = np.random.default_rng(1)
    edge = np.array([0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF], np.uint32)
    ins = {k: np.concatenate([np.resize(edge, 121), rng.integers(0, 2**32, n - 121, dtype=np.uint32)]) for k in "abc"}
    ins["b"] = np.concatenate([np.repeat(edge, 11), ins["b"][121:]])
    _, dev = cu.cuDeviceGet(0)
    _, ctx = cu.cuCtxCreate(0, dev)
    ptx = kernel_ptx(insts).encode()
    err, mod = cu.cuModuleLoadData(ptx)
    if err != cu.CUresult.CUDA_SUCCESS:
        print(f"module load failed: {err}")
        return 1
    _, fn = cu.cuModuleGetFunction(mod, b"k")
    dptr = {}
    for k in "abc":
        _, dptr[k] = cu.cuMemAlloc(4 * n)
        cu.cuMemcpyHtoD(dptr[k], ins[k].ctypes.data, 4 * n)
    outs = []
    for _ in insts:
        _, p = cu.cuMemAlloc(4 * n)
        outs.append(p)
    out_arr = np.array([int(p) for p in outs], dtype=np.uint64)
    params = [np.array([int(dptr[k])], dtype=np.uint64) for k in "abc"] + [out_arr]
    pp = np.array([p.ctypes.data for p in params], dtype=np.uint64)
    block = 256
    cu.cuLaunchKernel(fn, n // block, 1, 1, block, 1, 1, 0, 0, pp.ctypes.data, 0)
    cu.cuCtxSynchronize()
    sample = random.Random(2).sample(range(n), min(n, 4096)) + list(range(121))
    total_bad = 0
    for inst, p in zip(insts, outs):
        got = np.empty(n, np.uint32)
        cu.cuMemcpyDtoH(got.ctypes.data, p, 4 * n)
        bad = 0
        for i in sample:
            want = evaluate_ptx(inst, {"a": int(ins["a"][i]), "b": int(ins["b"][i]), "c": int(ins["c"][i])})
            if int(got[i]) != list(want["outputs"].values())[0] & 0xFFFFFFFF:
                bad += 1
        total_bad += bad
        print(f"{inst:48s} {len(sample) - bad}/{len(sample)} agree")
    print(f"{len(insts)} forms, {total_bad} disagreements")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
