; Atomic read-modify-write, cmpxchg, fences and vector memory accesses.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @atomics(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(3) %s, ptr %g, i32 %v, i64 %w, float %f) {
  %a = atomicrmw add ptr addrspace(1) %p, i32 %v seq_cst
  %b = atomicrmw xchg ptr addrspace(1) %p, i32 %a monotonic
  %c = atomicrmw max ptr addrspace(1) %p, i32 %b acquire
  %d = atomicrmw umin ptr addrspace(3) %s, i32 %c release
  %e = atomicrmw add ptr addrspace(1) %q, i64 %w syncscope("block") monotonic
  %f2 = atomicrmw fadd ptr addrspace(1) %p, float %f monotonic
  %g2 = atomicrmw or ptr %g, i32 %d acq_rel
  %h = cmpxchg ptr addrspace(1) %p, i32 %g2, i32 7 seq_cst seq_cst
  %h0 = extractvalue { i32, i1 } %h, 0
  %i = cmpxchg ptr addrspace(1) %q, i64 %e, i64 9 monotonic monotonic
  %i0 = extractvalue { i64, i1 } %i, 0
  %j = atomicrmw and ptr addrspace(1) %q, i64 %i0 syncscope("device") monotonic
  fence syncscope("block") acquire
  fence seq_cst
  %k = load atomic i32, ptr addrspace(1) %p acquire, align 4
  store atomic i32 %k, ptr addrspace(1) %p release, align 4
  %vp = getelementptr i8, ptr addrspace(1) %p, i64 64
  %vec = load <4 x i32>, ptr addrspace(1) %vp, align 16
  %vec2 = add <4 x i32> %vec, <i32 1, i32 2, i32 3, i32 4>
  store <4 x i32> %vec2, ptr addrspace(1) %vp, align 16
  %hp = getelementptr i8, ptr addrspace(1) %p, i64 128
  %hv = load <2 x half>, ptr addrspace(1) %hp, align 4
  %hv2 = fadd <2 x half> %hv, %hv
  store <2 x half> %hv2, ptr addrspace(1) %hp, align 4
  %vl = load volatile i32, ptr addrspace(1) %p, align 4
  %sum = add i32 %vl, %h0
  %t = trunc i64 %j to i32
  %sum2 = add i32 %sum, %t
  %f3 = bitcast float %f2 to i32
  %sum3 = add i32 %sum2, %f3
  store volatile i32 %sum3, ptr addrspace(1) %p, align 4
  ret void
}
