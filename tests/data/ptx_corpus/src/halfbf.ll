target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @hb(ptr addrspace(1) %p, half %h, bfloat %b, float %f, double %d) {
  %x = load half, ptr addrspace(1) %p, align 2
  %y = fadd half %x, %h
  %z = fmul half %y, %h
  %w = call half @llvm.fma.f16(half %z, half %y, half %x)
  %n = fneg half %w
  %a = call half @llvm.fabs.f16(half %n)
  %mx = call half @llvm.maxnum.f16(half %a, half %x)
  %mn = call half @llvm.minimum.f16(half %mx, half %h)
  %c = fcmp olt half %mn, %x
  %s = select i1 %c, half %mn, half %x
  store half %s, ptr addrspace(1) %p, align 2
  %e = fpext half %s to float
  %e2 = fadd float %e, %f
  %bt = fptrunc float %e2 to bfloat
  %bm = fmul bfloat %bt, %b
  %ba = fadd bfloat %bm, %b
  %bf = call bfloat @llvm.fma.bf16(bfloat %ba, bfloat %b, bfloat %bm)
  %q = getelementptr i8, ptr addrspace(1) %p, i64 2
  store bfloat %bf, ptr addrspace(1) %q, align 2
  %dt = fptrunc double %d to half
  %bd = fptrunc double %d to bfloat
  %hi = fptosi half %dt to i32
  %bu = fptoui bfloat %bd to i16
  %hs = sitofp i32 %hi to half
  %q2 = getelementptr i8, ptr addrspace(1) %p, i64 4
  store half %hs, ptr addrspace(1) %q2, align 2
  %q3 = getelementptr i8, ptr addrspace(1) %p, i64 6
  store i16 %bu, ptr addrspace(1) %q3, align 2
  %sq = call float @llvm.sqrt.f32(float %e2)
  %ex = fmul float %sq, 3.0
  %lg = fadd float %ex, 1.0
  %tr = call float @llvm.trunc.f32(float %lg)
  %cp = call float @llvm.copysign.f32(float %tr, float %f)
  %q4 = getelementptr i8, ptr addrspace(1) %p, i64 8
  store float %cp, ptr addrspace(1) %q4, align 4
  %fr = frem double %d, 3.0
  %q5 = getelementptr i8, ptr addrspace(1) %p, i64 16
  store double %fr, ptr addrspace(1) %q5, align 8
  ret void
}
declare half @llvm.fma.f16(half, half, half)
declare half @llvm.fabs.f16(half)
declare half @llvm.maxnum.f16(half, half)
declare half @llvm.minimum.f16(half, half)
declare bfloat @llvm.fma.bf16(bfloat, bfloat, bfloat)
declare float @llvm.sqrt.f32(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.trunc.f32(float)
declare float @llvm.copysign.f32(float, float)
