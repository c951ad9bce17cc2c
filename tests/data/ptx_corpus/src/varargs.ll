target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@fmt = private unnamed_addr addrspace(1) constant [12 x i8] c"%d %f %lld\0A\00", align 1
@tbl = internal addrspace(1) global [4 x ptr] [ptr @f1, ptr @f2, ptr null, ptr @f1], align 8
@cst = internal addrspace(4) constant [3 x float] [float 1.0, float 0x7FF8000000000000, float -0.0], align 4
@sh = internal addrspace(3) global [64 x i32] undef, align 4
@ext = external addrspace(1) global i32, align 4
declare i32 @vprintf(ptr, ptr)
declare i32 @sum(i32, ...)
define internal i32 @f1(i32 %x) { %y = add i32 %x, 1 
  ret i32 %y }
define internal i32 @f2(i32 %x) { %y = mul i32 %x, 3 
  ret i32 %y }
define internal i32 @va_user(i32 %n, ...) noinline {
  %ap = alloca ptr, align 8
  call void @llvm.va_start.p0(ptr %ap)
  %a = va_arg ptr %ap, i32
  %b = va_arg ptr %ap, i64
  call void @llvm.va_end.p0(ptr %ap)
  %bt = trunc i64 %b to i32
  %r = add i32 %a, %bt
  ret i32 %r
}
define ptx_kernel void @k(ptr addrspace(1) %out, i32 %i, double %d, i64 %l) {
  %buf = alloca { i32, double, i64 }, align 8
  %g0 = getelementptr { i32, double, i64 }, ptr %buf, i32 0, i32 0
  store i32 %i, ptr %g0, align 4
  %g1 = getelementptr { i32, double, i64 }, ptr %buf, i32 0, i32 1
  store double %d, ptr %g1, align 8
  %g2 = getelementptr { i32, double, i64 }, ptr %buf, i32 0, i32 2
  store i64 %l, ptr %g2, align 8
  %fp = addrspacecast ptr addrspace(1) @fmt to ptr
  %r = call i32 @vprintf(ptr %fp, ptr %buf)
  %v = call i32 (i32, ...) @va_user(i32 2, i32 %i, i64 %l)
  %idx = and i32 %i, 3
  %slot = getelementptr [4 x ptr], ptr addrspace(1) @tbl, i32 0, i32 %idx
  %fn = load ptr, ptr addrspace(1) %slot, align 8
  %c = call i32 %fn(i32 %v)
  %cs = getelementptr [3 x float], ptr addrspace(4) @cst, i32 0, i32 %idx
  %cf = load float, ptr addrspace(4) %cs, align 4
  %ci = fptosi float %cf to i32
  %ss = getelementptr [64 x i32], ptr addrspace(3) @sh, i32 0, i32 %i
  store i32 %c, ptr addrspace(3) %ss, align 4
  %e = load i32, ptr addrspace(1) @ext, align 4
  %s1 = add i32 %c, %ci
  %s2 = add i32 %s1, %e
  %s3 = add i32 %s2, %r
  store i32 %s3, ptr addrspace(1) %out, align 4
  ret void
}
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
