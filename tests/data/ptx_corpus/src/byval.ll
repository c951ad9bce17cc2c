target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%S = type { i32, float, [4 x i16], double }
%Big = type { [16 x i32] }
define internal %S @make(i32 %a, float %b) noinline {
  %s0 = insertvalue %S poison, i32 %a, 0
  %s1 = insertvalue %S %s0, float %b, 1
  %s2 = insertvalue %S %s1, double 1.5, 3
  ret %S %s2
}
define internal float @take(ptr byval(%S) align 8 %s, ptr byval(%Big) align 4 %b, i32 %k) noinline {
  %f = getelementptr %S, ptr %s, i32 0, i32 1
  %v = load float, ptr %f, align 4
  %e = getelementptr %Big, ptr %b, i32 0, i32 0, i32 %k
  %x = load i32, ptr %e, align 4
  %xf = sitofp i32 %x to float
  %r = fadd float %v, %xf
  ret float %r
}
define ptx_kernel void @kern(ptr byval(%S) align 8 %s, ptr byval(%Big) align 4 %big, ptr addrspace(1) %out, i32 %k) {
  %st = call %S @make(i32 %k, float 2.0)
  %tmp = alloca %S, align 8
  store %S %st, ptr %tmp, align 8
  %r1 = call float @take(ptr byval(%S) align 8 %tmp, ptr byval(%Big) align 4 %big, i32 %k)
  %r2 = call float @take(ptr byval(%S) align 8 %s, ptr byval(%Big) align 4 %big, i32 3)
  %sum = fadd float %r1, %r2
  %arr = alloca [8 x float], align 4
  %slot = getelementptr [8 x float], ptr %arr, i32 0, i32 %k
  store float %sum, ptr %slot, align 4
  %slot2 = getelementptr [8 x float], ptr %arr, i32 0, i32 1
  %v = load float, ptr %slot2, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}
