target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@gtab = addrspace(1) global [4 x i32] [i32 1, i32 2, i32 3, i32 4], align 4
@fptrs = addrspace(1) global [2 x ptr] [ptr @helper, ptr @helper2], align 8
@cst = addrspace(4) constant [3 x float] [float 1.0, float 2.5, float -0.0], align 4
@sh = internal addrspace(3) global [256 x i32] undef, align 4
@wk = weak addrspace(1) global i32 7, align 4
@lo = linkonce_odr addrspace(1) global i64 9, align 8
@str = private unnamed_addr addrspace(1) constant [6 x i8] c"hello\00", align 1

define internal i32 @helper(i32 %x) noinline { %y = mul i32 %x, 3
  ret i32 %y }
define internal i32 @helper2(i32 %x) noinline { %y = add i32 %x, 3
  ret i32 %y }

define ptx_kernel void @k_atomics(ptr addrspace(1) %p, ptr addrspace(3) %s, ptr %g, float %f, double %d, i32 %i) "nvvm.maxntid"="128" "nvvm.minctasm"="2" {
  %a = atomicrmw add ptr addrspace(1) %p, i32 %i syncscope("block") monotonic
  %b = atomicrmw max ptr addrspace(1) %p, i32 %a syncscope("cluster") acquire
  %c = atomicrmw umin ptr addrspace(3) %s, i32 %b release
  %e = atomicrmw fadd ptr %g, float %f syncscope("device") seq_cst
  %gp = getelementptr i8, ptr %g, i64 8
  %dd = atomicrmw fadd ptr %gp, double %d acq_rel
  %x = atomicrmw xchg ptr addrspace(1) %p, i32 5 monotonic
  %cx = cmpxchg ptr addrspace(1) %p, i32 %x, i32 9 syncscope("block") acq_rel monotonic
  %cv = extractvalue { i32, i1 } %cx, 0
  %p16 = getelementptr i8, ptr addrspace(1) %p, i64 64
  %h = atomicrmw add ptr addrspace(1) %p16, i16 1 monotonic
  %cx16 = cmpxchg ptr addrspace(1) %p16, i16 %h, i16 2 seq_cst seq_cst
  %p8 = getelementptr i8, ptr addrspace(1) %p, i64 80
  %cx8 = cmpxchg ptr addrspace(1) %p8, i8 1, i8 2 monotonic monotonic
  %ld = load atomic i32, ptr addrspace(1) %p syncscope("block") acquire, align 4
  store atomic i32 %ld, ptr addrspace(1) %p release, align 4
  %vl = load volatile i32, ptr addrspace(3) %s
  fence syncscope("cluster") acq_rel
  fence seq_cst
  %sum = add i32 %cv, %vl
  store i32 %sum, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @k_control(ptr addrspace(1) %out, i32 %sel, i32 %n) "nvvm.maxnreg"="64" "nvvm.cluster_dim"="2,1,1" {
entry:
  %buf = alloca i32, i32 %n, align 4
  store i32 %sel, ptr %buf
  switch i32 %sel, label %def [ i32 0, label %a  i32 1, label %b  i32 2, label %c  i32 3, label %d  i32 4, label %e  i32 5, label %f ]
a: br label %j
b: br label %j
c: br label %j
d: br label %j
e: br label %j
f: br label %j
def: call void @llvm.trap()
  unreachable
j:
  %v = phi i32 [ 10, %a ], [ 20, %b ], [ 33, %c ], [ 47, %d ], [ 51, %e ], [ 68, %f ]
  %fi = getelementptr [2 x ptr], ptr addrspace(1) @fptrs, i64 0, i32 %sel
  %fp = load ptr, ptr addrspace(1) %fi
  %r0 = call i32 @helper(i32 %v)
  %fpi = ptrtoint ptr %fp to i32
  %r = add i32 %r0, %fpi
  %bl = load i32, ptr %buf
  %t = getelementptr [4 x i32], ptr addrspace(1) @gtab, i64 0, i32 %sel
  %tv = load i32, ptr addrspace(1) %t
  %cs = getelementptr [3 x float], ptr addrspace(4) @cst, i64 0, i32 %sel
  %cf = load float, ptr addrspace(4) %cs
  %ci = fptosi float %cf to i32
  %w = load i32, ptr addrspace(1) @wk
  %s1 = add i32 %r, %bl
  %s2 = add i32 %s1, %tv
  %s3 = add i32 %s2, %ci
  %s4 = add i32 %s3, %w
  %asm = call i32 asm sideeffect "{ .reg .b32 t; add.u32 t, $1, 7; mov.b32 $0, t; }", "=r,r"(i32 %s4)
  store i32 %asm, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_math(ptr addrspace(1) %o, float %f, double %d, half %h, <2 x half> %hv, bfloat %b, <2 x bfloat> %bv, i128 %q, i64 %l) {
  %s = call i32 @llvm.fptosi.sat.i32.f32(float %f)
  %u = call i16 @llvm.fptoui.sat.i16.f64(double %d)
  %fr = fsub double %d, 3.0
  %sq = call double @llvm.sqrt.f64(double %fr)
  %mn = call float @llvm.minimum.f32(float %f, float 2.0)
  %mx = call <2 x half> @llvm.maxnum.v2f16(<2 x half> %hv, <2 x half> %hv)
  %mh = call <2 x half> @llvm.minimum.v2f16(<2 x half> %hv, <2 x half> %mx)
  %ha = fadd half %h, %h
  %hm = fmul <2 x half> %mh, %hv
  %ba = fadd bfloat %b, %b
  %bm = fmul <2 x bfloat> %bv, %bv
  %bfma = call <2 x bfloat> @llvm.fma.v2bf16(<2 x bfloat> %bv, <2 x bfloat> %bm, <2 x bfloat> %bv)
  %qd = lshr i128 %q, 7
  %qm = mul i128 %qd, %q
  %qt = trunc i128 %qm to i64
  %pc = call i64 @llvm.ctpop.i64(i64 %l)
  %cz = call i64 @llvm.ctlz.i64(i64 %l, i1 false)
  %br = call i64 @llvm.bitreverse.i64(i64 %l)
  %fs = call i32 @llvm.fshl.i32(i32 %s, i32 7, i32 %s)
  %ab = call i32 @llvm.abs.i32(i32 %fs, i1 true)
  %sm = call i32 @llvm.smin.i32(i32 %ab, i32 -4)
  %bs = call i64 @llvm.bswap.i64(i64 %br)
  %cp = call float @llvm.copysign.f32(float %f, float %mn)
  %rd = call float @llvm.roundeven.f32(float %cp)
  %ex = fmul float %rd, %rd
  %lg = fadd half %ha, %ha
  %uu = zext i16 %u to i64
  %a1 = add i64 %qt, %pc
  %a2 = add i64 %a1, %cz
  %a3 = add i64 %a2, %bs
  %a4 = add i64 %a3, %uu
  %smz = sext i32 %sm to i64
  %a5 = add i64 %a4, %smz
  store i64 %a5, ptr addrspace(1) %o
  %o2 = getelementptr i8, ptr addrspace(1) %o, i64 8
  store double %sq, ptr addrspace(1) %o2
  %o3 = getelementptr i8, ptr addrspace(1) %o, i64 16
  store float %ex, ptr addrspace(1) %o3
  %o4 = getelementptr i8, ptr addrspace(1) %o, i64 20
  store <2 x half> %hm, ptr addrspace(1) %o4
  %o5 = getelementptr i8, ptr addrspace(1) %o, i64 24
  store <2 x bfloat> %bfma, ptr addrspace(1) %o5
  %o6 = getelementptr i8, ptr addrspace(1) %o, i64 28
  store bfloat %ba, ptr addrspace(1) %o6
  %o7 = getelementptr i8, ptr addrspace(1) %o, i64 30
  store half %lg, ptr addrspace(1) %o7
  %o8 = getelementptr i8, ptr addrspace(1) %o, i64 32
  %v8 = load <8 x half>, ptr addrspace(1) %o8, align 16
  %v8b = fadd <8 x half> %v8, %v8
  store <8 x half> %v8b, ptr addrspace(1) %o8, align 16
  %o9 = getelementptr i8, ptr addrspace(1) %o, i64 64
  %v4 = load <4 x i64>, ptr addrspace(1) %o9, align 32
  %v4b = add <4 x i64> %v4, %v4
  store <4 x i64> %v4b, ptr addrspace(1) %o9, align 32
  ret void
}
declare void @llvm.trap()
declare i32 @llvm.fptosi.sat.i32.f32(float)
declare i16 @llvm.fptoui.sat.i16.f64(double)
declare double @llvm.sqrt.f64(double)
declare float @llvm.minimum.f32(float, float)
declare <2 x half> @llvm.maxnum.v2f16(<2 x half>, <2 x half>)
declare <2 x half> @llvm.minimum.v2f16(<2 x half>, <2 x half>)
declare <2 x bfloat> @llvm.fma.v2bf16(<2 x bfloat>, <2 x bfloat>, <2 x bfloat>)
declare i64 @llvm.ctpop.i64(i64)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i64 @llvm.bitreverse.i64(i64)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.abs.i32(i32, i1)
declare i32 @llvm.smin.i32(i32, i32)
declare i64 @llvm.bswap.i64(i64)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.roundeven.f32(float)
declare float @llvm.exp2.f32(float)
declare half @llvm.log2.f16(half)
