target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @aw(ptr addrspace(1) %p, ptr addrspace(3) %s, ptr %g, i8 %b, i16 %h, i32 %w, i64 %l, float %f, double %d, half %hf, bfloat %bf) {
  %a1 = atomicrmw add ptr addrspace(1) %p, i8 %b monotonic
  %a2 = atomicrmw xchg ptr addrspace(3) %s, i16 %h acquire
  %a3 = atomicrmw nand ptr addrspace(1) %p, i32 %w seq_cst
  %a4 = atomicrmw umax ptr %g, i64 %l syncscope("block") release
  %a5 = atomicrmw min ptr addrspace(1) %p, i16 %h syncscope("device") acq_rel
  %a6 = atomicrmw fadd ptr addrspace(1) %p, double %d syncscope("block") monotonic
  %a7 = atomicrmw fadd ptr addrspace(3) %s, half %hf monotonic
  %a8 = atomicrmw fadd ptr addrspace(1) %p, bfloat %bf monotonic
  %a9 = atomicrmw fsub ptr addrspace(1) %p, float %f seq_cst
  %a10 = atomicrmw fmax ptr addrspace(1) %p, float %f monotonic
  %a11 = atomicrmw uinc_wrap ptr addrspace(1) %p, i32 %w monotonic
  %a12 = atomicrmw udec_wrap ptr addrspace(3) %s, i32 %w syncscope("block") monotonic
  %a13 = atomicrmw sub ptr addrspace(1) %p, i64 %l syncscope("cluster") monotonic
  %c1 = cmpxchg ptr addrspace(1) %p, i8 %b, i8 3 acq_rel monotonic
  %c2 = cmpxchg ptr addrspace(3) %s, i16 %h, i16 7 seq_cst seq_cst
  %c3 = cmpxchg weak ptr %g, i64 %l, i64 9 syncscope("block") acquire acquire
  %c4 = cmpxchg ptr addrspace(1) %p, i32 %w, i32 1 syncscope("cluster") release monotonic
  fence syncscope("cluster") seq_cst
  fence syncscope("device") release
  %ld = load atomic i64, ptr addrspace(1) %p syncscope("block") acquire, align 8
  store atomic i16 %h, ptr addrspace(3) %s seq_cst, align 2
  %ldv = load atomic volatile i32, ptr %g monotonic, align 4
  %x1 = zext i8 %a1 to i64
  %x2 = zext i16 %a2 to i64
  %x3 = zext i32 %a3 to i64
  %s1 = add i64 %x1, %x2
  %s2 = add i64 %s1, %x3
  %s3 = add i64 %s2, %a4
  %s4 = add i64 %s3, %ld
  %c3v = extractvalue { i64, i1 } %c3, 0
  %s5 = add i64 %s4, %c3v
  %fa = fptosi double %a6 to i64
  %s6 = add i64 %s5, %fa
  %q = getelementptr i8, ptr addrspace(1) %p, i64 64
  store i64 %s6, ptr addrspace(1) %q, align 8
  ret void
}
