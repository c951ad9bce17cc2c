"""LLVM IR kernels (our own text) that ``benchmarks/bench_decode_real.py`` and ``tests/test_decode_real.py`` compile
with ``llc-22 -filetype=obj``: the kinds of code compilers make (loops, LDS reductions with ``ds_swizzle``/DPP,
atomics, global/buffer/scratch memory, packed f16/bf16 math, calls, matrix intrinsics, a large unrolled body)."""

from __future__ import annotations

_COMMON = """
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
declare float @llvm.fma.f32(float, float, float)
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare float @llvm.sqrt.f32(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.f32(float, <4 x i32>, i32, i32, i32)

@lds = internal addrspace(3) global [1024 x float] poison, align 4

define amdgpu_kernel void @saxpy(ptr addrspace(1) %out, ptr addrspace(1) %x, ptr addrspace(1) %y, float %a, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %bid = call i32 @llvm.amdgcn.workgroup.id.x()
  %base = mul i32 %bid, 256
  %i = add i32 %base, %tid
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %done
body:
  %px = getelementptr float, ptr addrspace(1) %x, i32 %i
  %py = getelementptr float, ptr addrspace(1) %y, i32 %i
  %vx = load float, ptr addrspace(1) %px
  %vy = load float, ptr addrspace(1) %py
  %r = call float @llvm.fma.f32(float %a, float %vx, float %vy)
  %s = call float @llvm.sqrt.f32(float %r)
  %e = call float @llvm.exp2.f32(float %s)
  %po = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float %e, ptr addrspace(1) %po
  br label %done
done:
  ret void
}

define amdgpu_kernel void @reduce(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %tid
  %v = load float, ptr addrspace(1) %p
  %lp = getelementptr [1024 x float], ptr addrspace(3) @lds, i32 0, i32 %tid
  store float %v, ptr addrspace(3) %lp
  call void @llvm.amdgcn.s.barrier()
  br label %loop
loop:
  %s = phi i32 [512, %entry], [%s2, %cont]
  %acc = phi float [%v, %entry], [%acc2, %cont]
  %cc = icmp ult i32 %tid, %s
  br i1 %cc, label %add, label %cont
add:
  %o = add i32 %tid, %s
  %op = getelementptr [1024 x float], ptr addrspace(3) @lds, i32 0, i32 %o
  %ov = load float, ptr addrspace(3) %op
  %mine = load float, ptr addrspace(3) %lp
  %sum = fadd float %ov, %mine
  store float %sum, ptr addrspace(3) %lp
  br label %cont
cont:
  %acc2 = phi float [%acc, %loop], [%sum, %add]
  call void @llvm.amdgcn.s.barrier()
  %s2 = lshr i32 %s, 1
  %d = icmp eq i32 %s2, 0
  br i1 %d, label %fin, label %loop
fin:
  %bits = bitcast float %acc2 to i32
  %sw = call i32 @llvm.amdgcn.ds.swizzle(i32 %bits, i32 31775)
  %dp = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %sw, i32 273, i32 15, i32 15, i1 false)
  %f = bitcast i32 %dp to float
  %q = fadd float %f, %acc2
  %z = icmp eq i32 %tid, 0
  br i1 %z, label %w, label %x
w:
  %old = atomicrmw fadd ptr addrspace(1) %out, float %q monotonic
  %ia = bitcast float %q to i32
  %pi = getelementptr i32, ptr addrspace(1) %out, i32 1
  %old2 = atomicrmw add ptr addrspace(1) %pi, i32 %ia seq_cst
  %pm = getelementptr i32, ptr addrspace(1) %out, i32 2
  %old3 = atomicrmw umax ptr addrspace(1) %pm, i32 %ia syncscope("agent") monotonic
  br label %x
x:
  ret void
}

define amdgpu_kernel void @packed(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %bin) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr <2 x half>, ptr addrspace(1) %in, i32 %tid
  %v = load <2 x half>, ptr addrspace(1) %p
  %r = call <2 x half> @llvm.fma.v2f16(<2 x half> %v, <2 x half> <half 1.5, half 2.0>, <2 x half> %v)
  %r2 = fmul <2 x half> %r, <half 0xH3C01, half 0xH4100>
  %q = getelementptr <2 x half>, ptr addrspace(1) %out, i32 %tid
  store <2 x half> %r2, ptr addrspace(1) %q
  %pb = getelementptr <2 x bfloat>, ptr addrspace(1) %bin, i32 %tid
  %b = load <2 x bfloat>, ptr addrspace(1) %pb
  %bf = fpext <2 x bfloat> %b to <2 x float>
  %b0 = extractelement <2 x float> %bf, i32 0
  %b1 = extractelement <2 x float> %bf, i32 1
  %bs = fadd float %b0, %b1
  %bt = fptrunc float %bs to bfloat
  %pbo = getelementptr bfloat, ptr addrspace(1) %bin, i32 %tid
  store bfloat %bt, ptr addrspace(1) %pbo
  ret void
}

define amdgpu_kernel void @buffers(<4 x i32> %rsrc, ptr addrspace(1) %out, i32 %k) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %off = shl i32 %tid, 2
  %a = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %rsrc, i32 %off, i32 0, i32 0)
  %b = call float @llvm.amdgcn.raw.buffer.load.f32(<4 x i32> %rsrc, i32 %off, i32 16, i32 0)
  %s = fadd float %a, %b
  call void @llvm.amdgcn.raw.buffer.store.f32(float %s, <4 x i32> %rsrc, i32 %off, i32 32, i32 0)
  %arr = alloca [16 x i32], align 4, addrspace(5)
  %i = and i32 %k, 15
  %ep = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %i
  store volatile i32 %tid, ptr addrspace(5) %ep
  %j = xor i32 %i, 7
  %eq = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %j
  %g = load volatile i32, ptr addrspace(5) %eq
  %fp = addrspacecast ptr addrspace(1) %out to ptr
  %fq = getelementptr i32, ptr %fp, i32 %tid
  store i32 %g, ptr %fq
  ret void
}

define hidden float @helper(float %a, float %b) #0 {
  %c = fmul float %a, %b
  %d = call float @llvm.sqrt.f32(float %c)
  ret float %d
}

define amdgpu_kernel void @caller(ptr addrspace(1) %out, float %a) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %f = uitofp i32 %tid to float
  %r = call float @helper(float %f, float %a)
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %r, ptr addrspace(1) %p
  ret void
}

attributes #0 = { noinline }
"""

_MFMA = """
declare <4 x float> @llvm.amdgcn.mfma.f32.4x4x1f32(float, float, <4 x float>, i32, i32, i32)
define amdgpu_kernel void @matrix(ptr addrspace(1) %out, float %a, float %b) {
  %acc = load <4 x float>, ptr addrspace(1) %out
  %r = call <4 x float> @llvm.amdgcn.mfma.f32.4x4x1f32(float %a, float %b, <4 x float> %acc, i32 0, i32 0, i32 0)
  %r2 = call <4 x float> @llvm.amdgcn.mfma.f32.4x4x1f32(float %b, float %a, <4 x float> %r, i32 0, i32 0, i32 0)
  store <4 x float> %r2, ptr addrspace(1) %out
  ret void
}
"""

_WMMA = """
declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.{ab}(<{n} x half>, <{n} x half>, <8 x float>)
define amdgpu_kernel void @matrix(ptr addrspace(1) %out, ptr addrspace(1) %in) {{
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr <{n} x half>, ptr addrspace(1) %in, i32 %tid
  %a = load <{n} x half>, ptr addrspace(1) %p
  %q = getelementptr <8 x float>, ptr addrspace(1) %out, i32 %tid
  %c = load <8 x float>, ptr addrspace(1) %q
  %r = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.{ab}(<{n} x half> %a, <{n} x half> %a, <8 x float> %c)
  store <8 x float> %r, ptr addrspace(1) %q
  ret void
}}
"""

# (the matrix kernel each target has: CDNA's MFMA, RDNA3's wave32 WMMA on 16 halves, RDNA4's on 8)
_MATRIX = {"gfx908": _MFMA, "gfx90a": _MFMA, "gfx942": _MFMA, "gfx950": _MFMA,
           "gfx1100": _WMMA.format(ab="v16f16", n=16), "gfx1150": _WMMA.format(ab="v16f16", n=16),
           "gfx1200": _WMMA.format(ab="v8f16", n=8)}


def unrolled(steps: int) -> str:
    """A kernel of ``steps`` dependent steps, each loading, mixing integer and float math and storing (thousands
    of instructions at a few hundred steps): the waitcnt-heavy straight-line code unrolled loops become."""
    lines = ["define amdgpu_kernel void @unrolled(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %k) {",
             "  %tid = call i32 @llvm.amdgcn.workitem.id.x()", "  %acc0 = uitofp i32 %tid to float", "  %h0 = add i32 %tid, 0"]
    for s in range(steps):
        lines += [f"  %i{s} = add i32 %h{s}, {s * 37 % 1000}",
                  f"  %p{s} = getelementptr float, ptr addrspace(1) %in, i32 %i{s}",
                  f"  %v{s} = load float, ptr addrspace(1) %p{s}",
                  f"  %m{s} = call float @llvm.fma.f32(float %v{s}, float {1.0 + s / 64:.6f}, float %acc{s})",
                  f"  %acc{s + 1} = fmul float %m{s}, %v{s}",
                  f"  %x{s} = xor i32 %h{s}, {s * 97 % 4096}",
                  f"  %h{s + 1} = mul i32 %x{s}, %k",
                  f"  %o{s} = getelementptr float, ptr addrspace(1) %out, i32 %x{s}",
                  f"  store float %acc{s + 1}, ptr addrspace(1) %o{s}"]
    lines += ["  ret void", "}"]
    return "\n".join(lines) + "\n"


def module(target: str, steps: int = 300, wave64: bool = False) -> str:
    """The IR module compiled for ``target`` (an ``-mcpu`` name; ``wave64``: for ``-mattr=+wavefrontsize64``, without
    the matrix kernel, whose WMMA form is wave32's)."""
    return _COMMON + ("" if wave64 else _MATRIX.get(target, "")) + unrolled(steps)
