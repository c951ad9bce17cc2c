target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @vecs(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(3) %s, <4 x float> %a, <2 x i64> %b, <8 x i8> %c) {
  %v = load <4 x float>, ptr addrspace(1) %p, align 16
  %w = fmul <4 x float> %v, %a
  %sh = shufflevector <4 x float> %w, <4 x float> %v, <4 x i32> <i32 3, i32 6, i32 1, i32 4>
  store <4 x float> %sh, ptr addrspace(1) %q, align 16
  %p2 = getelementptr i8, ptr addrspace(1) %p, i64 32
  %l = load <2 x i64>, ptr addrspace(1) %p2, align 16
  %m = mul <2 x i64> %l, %b
  store <2 x i64> %m, ptr addrspace(1) %p2, align 16
  %p3 = getelementptr i8, ptr addrspace(1) %p, i64 64
  %c2 = load <8 x i8>, ptr addrspace(1) %p3, align 8
  %c3 = add <8 x i8> %c2, %c
  %c4 = icmp ugt <8 x i8> %c3, %c
  %c5 = select <8 x i1> %c4, <8 x i8> %c3, <8 x i8> %c2
  store <8 x i8> %c5, ptr addrspace(1) %p3, align 8
  %sl = load <4 x i16>, ptr addrspace(3) %s, align 8
  %sx = sext <4 x i16> %sl to <4 x i32>
  %sr = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %sx)
  %p4 = getelementptr i8, ptr addrspace(1) %p, i64 96
  store i32 %sr, ptr addrspace(1) %p4, align 4
  %h = load <8 x half>, ptr addrspace(1) %p4, align 16
  %h2 = fadd <8 x half> %h, %h
  %hx = extractelement <8 x half> %h2, i32 5
  %hi = insertelement <8 x half> %h, half %hx, i32 0
  store <8 x half> %hi, ptr addrspace(3) %s, align 16
  %bf = load <4 x bfloat>, ptr addrspace(1) %q, align 8
  %bf2 = fmul <4 x bfloat> %bf, %bf
  store <4 x bfloat> %bf2, ptr addrspace(1) %q, align 8
  %v8 = load <8 x float>, ptr addrspace(1) %p, align 32
  %v82 = fadd <8 x float> %v8, %v8
  store <8 x float> %v82, ptr addrspace(1) %q, align 32
  ret void
}
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
