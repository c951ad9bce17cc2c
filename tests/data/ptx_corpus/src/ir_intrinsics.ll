target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare void @llvm.nvvm.barrier.cluster.arrive.aligned()
declare void @llvm.nvvm.barrier.cluster.wait()
declare {i32, i1} @llvm.nvvm.elect.sync(i32)
declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32)
declare void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32)
declare void @llvm.nvvm.griddepcontrol.wait()
declare void @llvm.nvvm.griddepcontrol.launch.dependents()
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare {i32, i1} @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare {i32, i1} @llvm.nvvm.shfl.sync.bfly.i32p(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.activemask()
declare void @llvm.nvvm.nanosleep(i32)
declare i1 @llvm.nvvm.isspacep.shared(ptr)
declare i1 @llvm.nvvm.isspacep.shared.cluster(ptr)
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare i32 @llvm.nvvm.getctarank(ptr)
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.nclusterid.y()
declare i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
declare i32 @llvm.nvvm.read.ptx.sreg.globaltimer.lo()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
declare i32 @llvm.nvvm.read.ptx.sreg.pm3()
define ptx_kernel void @k_cluster_arrive_al(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  ret void
}

define ptx_kernel void @k_cluster_wait(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

define ptx_kernel void @k_elect(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call {i32, i1} @llvm.nvvm.elect.sync(i32 -1)
  %r0 = extractvalue {i32, i1} %r, 0
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_setmaxnreg(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 256)
  ret void
}

define ptx_kernel void @k_setmaxnreg_dec(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 24)
  ret void
}

define ptx_kernel void @k_gdc_wait(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.griddepcontrol.wait()
  ret void
}

define ptx_kernel void @k_gdc_launch(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.griddepcontrol.launch.dependents()
  ret void
}

define ptx_kernel void @k_match_any64(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.match.any.sync.i64(i32 -1, i64 %l)
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_match_all(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call {i32, i1} @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %a)
  %r0 = extractvalue {i32, i1} %r, 0
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_vote_uni(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %p1)
  %r0 = bitcast i1 %r to i1
  store i1 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_shfl_bfly_p(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call {i32, i1} @llvm.nvvm.shfl.sync.bfly.i32p(i32 -1, i32 %a, i32 1, i32 31)
  %r0 = extractvalue {i32, i1} %r, 0
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_shfl_idx_f(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %f, i32 %a, i32 31)
  %r0 = bitcast float %r to float
  store float %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_activemask(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.activemask()
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_nanosleep(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  call void @llvm.nvvm.nanosleep(i32 %a)
  ret void
}

define ptx_kernel void @k_isspacep_sh(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i1 @llvm.nvvm.isspacep.shared(ptr %p)
  %r0 = bitcast i1 %r to i1
  store i1 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_isspacep_clu(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i1 @llvm.nvvm.isspacep.shared.cluster(ptr %p)
  %r0 = bitcast i1 %r to i1
  store i1 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_mapa_sh(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %s, i32 %a)
  %r0 = addrspacecast ptr addrspace(7) %r to ptr
  store ptr %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_getctarank(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.getctarank(ptr %p)
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_sreg_cl(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_sreg_ncl(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.nclusterid.y()
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_sreg_gt(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i64 @llvm.nvvm.read.ptx.sreg.globaltimer()
  %r0 = bitcast i64 %r to i64
  store i64 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_sreg_gtlo(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.globaltimer.lo()
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_sreg_lm(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.lanemask.gt()
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @k_sreg_pm(i32 %a, i32 %b, i32 %c, i64 %l, float %f, double %d, half %hs, <2 x half> %hv, bfloat %bs, <2 x bfloat> %bv, ptr %p, ptr addrspace(1) %g, ptr addrspace(3) %s, ptr addrspace(6) %t, ptr addrspace(7) %cl, i16 %s16, i1 %p1, <2 x i32> %iv, i128 %q, ptr addrspace(1) %out) {
  %r = call i32 @llvm.nvvm.read.ptx.sreg.pm3()
  %r0 = bitcast i32 %r to i32
  store i32 %r0, ptr addrspace(1) %out
  ret void
}
