target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.tcgen05.alloc.cg1(ptr, i32)
declare void @llvm.nvvm.tcgen05.alloc.shared.cg2(ptr addrspace(3), i32)
declare void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6), i32)
declare void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg2()
declare void @llvm.nvvm.tcgen05.fence.before.thread.sync()
declare void @llvm.nvvm.tcgen05.fence.after.thread.sync()
declare void @llvm.nvvm.tcgen05.wait.ld()
declare void @llvm.nvvm.tcgen05.wait.st()
declare void @llvm.nvvm.tcgen05.commit.cg1(ptr)
declare void @llvm.nvvm.tcgen05.commit.mc.shared.cg2(ptr addrspace(3), i16)
declare void @llvm.nvvm.tcgen05.shift.down.cg1(ptr addrspace(6))
declare <4 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x4(ptr addrspace(6), i1)
declare <2 x i32> @llvm.nvvm.tcgen05.ld.16x64b.x2(ptr addrspace(6), i1)
declare void @llvm.nvvm.tcgen05.st.16x128b.x1(ptr addrspace(6), <2 x i32>, i1)
declare void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6), i64)
declare void @llvm.nvvm.tcgen05.cp.64x128b_warpx2_02_13.b6x16_p32.cg2(ptr addrspace(6), i64)
declare void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6), i64, i64, i32, i1, i32, i32, i32)
declare void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3), i32, i32, i32, i32)
declare void @llvm.nvvm.stmatrix.sync.aligned.m16n8.x1.trans.b8.p3(ptr addrspace(3), i32)
declare {i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m16n16.x1.trans.b8.p3(ptr addrspace(3))
declare i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n16.x1.b8x16.b6x16_p32.p3(ptr addrspace(3))
declare void @llvm.nvvm.clusterlaunchcontrol.try_cancel.async.shared(ptr addrspace(3), ptr addrspace(3))
declare i1 @llvm.nvvm.clusterlaunchcontrol.query_cancel.is_canceled(i128)
declare i32 @llvm.nvvm.clusterlaunchcontrol.query_cancel.get_first_ctaid.x(i128)
define ptx_kernel void @k_tc_alloc(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.alloc.cg1(ptr %p, i32 32)
  ret void
}

define ptx_kernel void @k_tc_alloc_sh(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.alloc.shared.cg2(ptr addrspace(3) %s, i32 64)
  ret void
}

define ptx_kernel void @k_tc_dealloc(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.dealloc.cg1(ptr addrspace(6) %t, i32 32)
  ret void
}

define ptx_kernel void @k_tc_relinq(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.relinq.alloc.permit.cg2()
  ret void
}

define ptx_kernel void @k_tc_fence_b(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.fence.before.thread.sync()
  ret void
}

define ptx_kernel void @k_tc_fence_a(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.fence.after.thread.sync()
  ret void
}

define ptx_kernel void @k_tc_wait_ld(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.wait.ld()
  ret void
}

define ptx_kernel void @k_tc_wait_st(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.wait.st()
  ret void
}

define ptx_kernel void @k_tc_commit(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.commit.cg1(ptr %p)
  ret void
}

define ptx_kernel void @k_tc_commit_mc(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.commit.mc.shared.cg2(ptr addrspace(3) %s, i16 %s16)
  ret void
}

define ptx_kernel void @k_tc_shift(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.shift.down.cg1(ptr addrspace(6) %t)
  ret void
}

define ptx_kernel void @k_tc_ld(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call <4 x i32> @llvm.nvvm.tcgen05.ld.32x32b.x4(ptr addrspace(6) %t, i1 0)
  %r0 = extractelement <4 x i32> %r, i32 0
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_tc_ld16(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call <2 x i32> @llvm.nvvm.tcgen05.ld.16x64b.x2(ptr addrspace(6) %t, i1 1)
  %r0 = extractelement <2 x i32> %r, i32 0
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_tc_st(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.st.16x128b.x1(ptr addrspace(6) %t, <2 x i32> %iv, i1 0)
  ret void
}

define ptx_kernel void @k_tc_cp(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.cp.128x256b.cg1(ptr addrspace(6) %t, i64 %l)
  ret void
}

define ptx_kernel void @k_tc_cp_b6(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.cp.64x128b_warpx2_02_13.b6x16_p32.cg2(ptr addrspace(6) %t, i64 %l)
  ret void
}

define ptx_kernel void @k_tc_mma(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.tcgen05.mma.shared(ptr addrspace(6) %t, i64 %l, i64 %l, i32 %a, i1 1, i32 0, i32 1, i32 0)
  ret void
}

define ptx_kernel void @k_stmatrix_x4(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16.p3(ptr addrspace(3) %s, i32 %a, i32 %b, i32 %c , i32 %a)
  ret void
}

define ptx_kernel void @k_stmatrix_t(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.stmatrix.sync.aligned.m16n8.x1.trans.b8.p3(ptr addrspace(3) %s, i32 %a)
  ret void
}

define ptx_kernel void @k_ldmatrix_b8(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call {i32, i32} @llvm.nvvm.ldmatrix.sync.aligned.m16n16.x1.trans.b8.p3(ptr addrspace(3) %s)
  %r0 = extractvalue {i32, i32} %r, 0
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_ldmatrix_b6(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n16.x1.b8x16.b6x16_p32.p3(ptr addrspace(3) %s)
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_clc_try(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.clusterlaunchcontrol.try_cancel.async.shared(ptr addrspace(3) %s, ptr addrspace(3) %s)
  ret void
}

define ptx_kernel void @k_clc_q(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i1 @llvm.nvvm.clusterlaunchcontrol.query_cancel.is_canceled(i128 %q)
  %r0 = bitcast i1 %r to i1
  store i1 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_clc_qx(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.clusterlaunchcontrol.query_cancel.get_first_ctaid.x(i128 %q)
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}
