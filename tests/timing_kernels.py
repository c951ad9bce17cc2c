"""Ten small LLVM IR kernels for the timing agreement test: name -> ("cpu[,mattr]", IR).

None of them compiles to VOPD pairs (gfx11/gfx12 wave32 dual issue): llvm-mca's summary counts a VOPD pair's
micro-ops differently from its own instruction-info and resource views (see test_timing_kernels.py)."""

WID = "declare i32 @llvm.amdgcn.workitem.id.x()\n"

KERNELS: dict[str, tuple[str, str]] = {
    "saxpy": ("gfx1100", """
define amdgpu_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %px = getelementptr float, ptr addrspace(1) %x, i32 %id
  %py = getelementptr float, ptr addrspace(1) %y, i32 %id
  %vx = load float, ptr addrspace(1) %px
  %vy = load float, ptr addrspace(1) %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr addrspace(1) %py
  ret void
}
""" + WID),
    "loop_sum": ("gfx1030", """
define amdgpu_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [0, %entry], [%i1, %loop]
  %acc = phi float [0.0, %entry], [%acc1, %loop]
  %p = getelementptr float, ptr addrspace(1) %x, i32 %i
  %v = load float, ptr addrspace(1) %p
  %acc1 = fadd float %acc, %v
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %done
done:
  store float %acc1, ptr addrspace(1) %out
  ret void
}
"""),
    "f64_math": ("gfx90a", """
define amdgpu_kernel void @k(ptr addrspace(1) %x, double %a) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr double, ptr addrspace(1) %x, i32 %id
  %v = load double, ptr addrspace(1) %p
  %f = call double @llvm.fma.f64(double %v, double %a, double %v)
  %s = call double @llvm.sqrt.f64(double %f)
  store double %s, ptr addrspace(1) %p
  ret void
}
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.sqrt.f64(double)
""" + WID),
    "mfma_gfx942": ("gfx942", """
define amdgpu_kernel void @k(ptr addrspace(1) %out, <4 x half> %a, <4 x half> %b) {
  %c0 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %a, <4 x half> %b, <16 x float> zeroinitializer, i32 0, i32 0, i32 0)
  %c1 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %a, <4 x half> %b, <16 x float> %c0, i32 0, i32 0, i32 0)
  store <16 x float> %c1, ptr addrspace(1) %out
  ret void
}
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half>, <4 x half>, <16 x float>, i32, i32, i32)
"""),
    "mfma_gfx950": ("gfx950", """
define amdgpu_kernel void @k(ptr addrspace(1) %out, <4 x half> %a, <4 x half> %b, <4 x half> %c) {
  %c0 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %a, <4 x half> %b, <16 x float> zeroinitializer, i32 0, i32 0, i32 0)
  %c1 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %b, <4 x half> %c, <16 x float> %c0, i32 0, i32 0, i32 0)
  %c2 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %c, <4 x half> %a, <16 x float> %c1, i32 0, i32 0, i32 0)
  %c3 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %a, <4 x half> %c, <16 x float> %c2, i32 0, i32 0, i32 0)
  store <16 x float> %c3, ptr addrspace(1) %out
  ret void
}
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half>, <4 x half>, <16 x float>, i32, i32, i32)
"""),
    "lds_barrier": ("gfx1200", """
@lds = internal addrspace(3) global [256 x float] poison
define amdgpu_kernel void @k(ptr addrspace(1) %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %x, i32 %id
  %v = load float, ptr addrspace(1) %p
  %l = getelementptr [256 x float], ptr addrspace(3) @lds, i32 0, i32 %id
  store float %v, ptr addrspace(3) %l
  call void @llvm.amdgcn.s.barrier()
  %r = sub i32 255, %id
  %l2 = getelementptr [256 x float], ptr addrspace(3) @lds, i32 0, i32 %r
  %w = load float, ptr addrspace(3) %l2
  store float %w, ptr addrspace(1) %p
  ret void
}
declare void @llvm.amdgcn.s.barrier()
""" + WID),
    "transcendental": ("gfx1100", """
define amdgpu_kernel void @k(ptr addrspace(1) %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %x, i32 %id
  %v = load float, ptr addrspace(1) %p
  %a = call afn float @llvm.sin.f32(float %v)
  %b = call afn float @llvm.exp2.f32(float %a)
  %c = call afn float @llvm.log2.f32(float %b)
  %d = call afn float @llvm.sqrt.f32(float %c)
  store float %d, ptr addrspace(1) %p
  ret void
}
declare float @llvm.sin.f32(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare float @llvm.sqrt.f32(float)
""" + WID),
    "int_div": ("gfx1010", """
define amdgpu_kernel void @k(ptr addrspace(1) %x, i32 %d) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr i32, ptr addrspace(1) %x, i32 %id
  %v = load i32, ptr addrspace(1) %p
  %q = udiv i32 %v, %d
  %r = mul i32 %q, %v
  store i32 %r, ptr addrspace(1) %p
  ret void
}
""" + WID),
    "wmma_gfx1100_wave64": ("gfx1100,+wavefrontsize64", """
define amdgpu_kernel void @k(ptr addrspace(1) %out, <16 x half> %a, <16 x half> %b) {
  %c = call <4 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v4f32.v16f16(<16 x half> %a, <16 x half> %b, <4 x float> zeroinitializer)
  %d = call <4 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v4f32.v16f16(<16 x half> %a, <16 x half> %b, <4 x float> %c)
  store <4 x float> %d, ptr addrspace(1) %out
  ret void
}
declare <4 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v4f32.v16f16(<16 x half>, <16 x half>, <4 x float>)
"""),
    "atomic_gfx1250": ("gfx1250", """
define amdgpu_kernel void @k(ptr addrspace(1) %x, ptr addrspace(1) %cnt) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %x, i32 %id
  %v = load float, ptr addrspace(1) %p
  %m = fmul float %v, %v
  %o = atomicrmw add ptr addrspace(1) %cnt, i32 1 syncscope("agent") monotonic
  %f = uitofp i32 %o to float
  %s = fadd float %m, %f
  store float %s, ptr addrspace(1) %p
  ret void
}
""" + WID),
}

# A wave32 gfx1100 kernel that llc compiles with VOPD pairs (the documented difference).
VOPD_KERNEL = ("gfx1100", """
define amdgpu_kernel void @k(ptr addrspace(1) %out, <16 x half> %a, <16 x half> %b) {
  %c = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half> %a, <16 x half> %b, <8 x float> zeroinitializer)
  store <8 x float> %c, ptr addrspace(1) %out
  ret void
}
declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half>, <16 x half>, <8 x float>)
""")
