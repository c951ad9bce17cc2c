target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
@gv = addrspace(1) global i32 0, align 4, !dbg !20
define internal float @helper(float %x, i32 %n) noinline !dbg !8 {
entry:
    #dbg_value(float %x, !30, !DIExpression(), !31)
  br label %loop, !dbg !10
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ], !dbg !10
  %acc = phi float [ %x, %entry ], [ %acc2, %loop ]
  %acc2 = fmul float %acc, 1.5, !dbg !14
  %i2 = add i32 %i, 1, !dbg !14
  %c = icmp slt i32 %i2, %n, !dbg !15
  br i1 %c, label %loop, label %done, !dbg !15
done:
  ret float %acc2, !dbg !16
}
define ptx_kernel void @dk(ptr addrspace(1) %out, float %x, i32 %n) !dbg !11 {
  %r = call float @helper(float %x, i32 %n), !dbg !12
  store float %r, ptr addrspace(1) %out, align 4, !dbg !13
  %g = load i32, ptr addrspace(1) @gv, align 4, !dbg !13
  %g2 = add i32 %g, 1, !dbg !17
  store i32 %g2, ptr addrspace(1) @gv, align 4, !dbg !17
  ret void, !dbg !17
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "handwritten", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !22)
!1 = !DIFile(filename: "dbg.cu", directory: "/src")
!2 = !DIFile(filename: "helper.h", directory: "/src/include")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 2}
!5 = !DISubroutineType(types: !6)
!6 = !{!7, !7}
!7 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!8 = distinct !DISubprogram(name: "helper", scope: !2, file: !2, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !29)
!10 = !DILocation(line: 4, column: 3, scope: !8)
!14 = !DILocation(line: 5, column: 9, scope: !8)
!15 = !DILocation(line: 6, column: 2, scope: !8)
!16 = !DILocation(line: 7, column: 1, scope: !8)
!11 = distinct !DISubprogram(name: "dk", scope: !1, file: !1, line: 8, type: !5, scopeLine: 8, spFlags: DISPFlagDefinition, unit: !0)
!12 = !DILocation(line: 9, column: 5, scope: !11, inlinedAt: !18)
!18 = !DILocation(line: 20, column: 1, scope: !11)
!13 = !DILocation(line: 10, column: 7, scope: !11)
!17 = !DILocation(line: 11, column: 7, scope: !11)
!19 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = !DIGlobalVariableExpression(var: !21, expr: !DIExpression())
!21 = distinct !DIGlobalVariable(name: "gv", scope: !0, file: !1, line: 1, type: !19, isLocal: false, isDefinition: true)
!22 = !{!20}
!29 = !{!30}
!30 = !DILocalVariable(name: "x", arg: 1, scope: !8, file: !2, line: 3, type: !7)
!31 = !DILocation(line: 3, column: 20, scope: !8)
