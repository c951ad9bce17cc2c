target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @wide(ptr addrspace(1) %p, i128 %a, i128 %b) {
  %x = load i128, ptr addrspace(1) %p, align 16
  %m = mul i128 %x, %a
  %s = shl i128 %m, 37
  %r = lshr i128 %s, 91
  %ar = ashr i128 %x, %b
  %ad = add i128 %r, %ar
  %sb = sub i128 %ad, %b
  %c = icmp ult i128 %sb, %a
  %sel = select i1 %c, i128 %sb, i128 %x
  %o = or i128 %sel, 18446744073709551617
  %bs = call i128 @llvm.bswap.i128(i128 %o)
  %pc = call i128 @llvm.ctpop.i128(i128 %bs)
  %q = getelementptr i8, ptr addrspace(1) %p, i64 16
  store i128 %pc, ptr addrspace(1) %q, align 16
  %t = trunc i128 %bs to i64
  %q2 = getelementptr i8, ptr addrspace(1) %p, i64 32
  store i64 %t, ptr addrspace(1) %q2, align 8
  ret void
}
declare i128 @llvm.bswap.i128(i128)
declare i128 @llvm.ctpop.i128(i128)
