; NVVM intrinsics: shuffles, votes, math, bit operations, special registers; an indirect call; debug info.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.warpid()
declare i32 @llvm.nvvm.read.ptx.sreg.smid()
declare i64 @llvm.nvvm.read.ptx.sreg.clock64()
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i64 @llvm.bitreverse.i64(i64)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare float @llvm.sqrt.f32(float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare double @llvm.sqrt.f64(double)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.floor.f32(float)
declare double @llvm.fabs.f64(double)
declare void @llvm.nvvm.bar.warp.sync(i32)

define internal i32 @twice(i32 %x) noinline !dbg !8 {
  %y = shl i32 %x, 1, !dbg !10
  ret i32 %y, !dbg !10
}

define ptx_kernel void @intrinsics(ptr addrspace(1) %out, ptr addrspace(1) %fout, ptr addrspace(1) %dout, i32 %x, float %f, double %d, ptr %fn) !dbg !11 {
  %a = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %x, i32 4, i32 31), !dbg !12
  %b = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %f, i32 1, i32 31), !dbg !12
  %cmp = icmp sgt i32 %a, 3
  %c = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %cmp)
  %any = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %cmp)
  %lane = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %warp = call i32 @llvm.nvvm.read.ptx.sreg.warpid()
  %sm = call i32 @llvm.nvvm.read.ptx.sreg.smid()
  %clk = call i64 @llvm.nvvm.read.ptx.sreg.clock64()
  %pc = call i32 @llvm.ctpop.i32(i32 %c)
  %lz = call i32 @llvm.ctlz.i32(i32 %a, i1 false)
  %br = call i64 @llvm.bitreverse.i64(i64 %clk)
  %fs = call i32 @llvm.fshl.i32(i32 %a, i32 %lane, i32 %warp)
  %t = call i32 @twice(i32 %fs), !dbg !13
  %ind = call i32 %fn(i32 %t)
  %s1 = add i32 %pc, %lz
  %s2 = add i32 %s1, %ind
  %s3 = select i1 %any, i32 %s2, i32 %sm
  %brt = trunc i64 %br to i32
  %s4 = xor i32 %s3, %brt
  call void @llvm.nvvm.bar.warp.sync(i32 -1)
  store i32 %s4, ptr addrspace(1) %out, align 4
  %q = call float @llvm.sqrt.f32(float %b)
  %e = call float @llvm.nvvm.ex2.approx.f(float %q)
  %m = call float @llvm.minnum.f32(float %e, float %f)
  %m2 = call float @llvm.maxnum.f32(float %m, float 1.0)
  %fl = call float @llvm.floor.f32(float %m2)
  %fd = fdiv float %fl, %f
  store float %fd, ptr addrspace(1) %fout, align 4
  %ds = call double @llvm.sqrt.f64(double %d)
  %da = call double @llvm.fabs.f64(double %ds)
  %dd = fdiv double %da, %d
  %di = fptosi double %dd to i64
  %dc = sitofp i64 %di to double
  store double %dc, ptr addrspace(1) %dout, align 8
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "handwritten", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "intrinsics.cu", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 4}
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!8 = distinct !DISubprogram(name: "twice", scope: !1, file: !1, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DILocation(line: 4, column: 3, scope: !8)
!11 = distinct !DISubprogram(name: "intrinsics", scope: !1, file: !1, line: 8, type: !5, scopeLine: 8, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!12 = !DILocation(line: 9, column: 5, scope: !11)
!13 = !DILocation(line: 10, column: 7, scope: !11)
