; Plain kernel with a device function call, globals with initializers, shared memory and barriers.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) global [8 x i32] [i32 1, i32 2, i32 3, i32 5, i32 8, i32 13, i32 21, i32 34], align 4
@scale = addrspace(4) constant [4 x float] [float 1.0, float 0.5, float 0.25, float 0.125], align 4
@msg = private addrspace(1) constant [6 x i8] c"hello\00", align 1
@tile = internal addrspace(3) global [256 x float] undef, align 4
@ptrs = addrspace(1) global [2 x ptr addrspace(1)] [ptr addrspace(1) @table, ptr addrspace(1) getelementptr (i8, ptr addrspace(1) @table, i64 8)], align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.fma.f32(float, float, float)

define internal float @helper(float %a, float %b, i32 %k) noinline {
  %c = sitofp i32 %k to float
  %d = call float @llvm.fma.f32(float %a, float %b, float %c)
  %e = fdiv float %d, %b
  ret float %e
}

define ptx_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t0 = mul i32 %bid, %bdim
  %i = add i32 %t0, %tid
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %body, label %done
body:
  %idx = sext i32 %i to i64
  %px = getelementptr float, ptr addrspace(1) %x, i64 %idx
  %py = getelementptr float, ptr addrspace(1) %y, i64 %idx
  %vx = load float, ptr addrspace(1) %px, align 4
  %vy = load float, ptr addrspace(1) %py, align 4
  %k7 = and i32 %i, 7
  %k64 = zext i32 %k7 to i64
  %pt = getelementptr [8 x i32], ptr addrspace(1) @table, i64 0, i64 %k64
  %kv = load i32, ptr addrspace(1) %pt, align 4
  %r = call float @helper(float %vx, float %a, i32 %kv)
  %k3 = and i64 %k64, 3
  %ps = getelementptr [4 x float], ptr addrspace(4) @scale, i64 0, i64 %k3
  %sv = load float, ptr addrspace(4) %ps, align 4
  %r2 = fmul float %r, %sv
  %sum = fadd float %r2, %vy
  %tidx = zext i32 %tid to i64
  %sh = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %tidx
  store float %sum, ptr addrspace(3) %sh, align 4
  call void @llvm.nvvm.barrier0()
  %rev = sub i64 255, %tidx
  %sh2 = getelementptr [256 x float], ptr addrspace(3) @tile, i64 0, i64 %rev
  %o = load float, ptr addrspace(3) %sh2, align 4
  store float %o, ptr addrspace(1) %py, align 4
  br label %done
done:
  ret void
}
