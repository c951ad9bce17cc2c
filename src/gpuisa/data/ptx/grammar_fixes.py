"""Known transcription defects of the PTX ISA 9.0 grammar files (../shared/reference/ptx-9.0/syntax),
corrected before parsing: (old text, corrected text, why) per file; each fix must still apply."""

# Known transcription defects of the grammar files: (old text, corrected text, why).
FIXES = {
    "vset4.txt": [
        (".b1, .b10\n", ".b1, .b10,\n", "a comma is missing in the .mask list"),
        ("\ndefaults to .b3210\n", "\n", "a comment lost its '//'"),
        ("""{ .b00, .b01, .b02, .b03, .b04, .b05, .b06, .b07,
                  .b10, .b11, .b12, .b13, .b14, .b15, .b16, .b17,
                  .b20, .b21, .b22, .b23, .b24, .b25, .b26, .b27,
                  .b30, .b31, .b32, .b33, .b34, .b35, .b36, .b37,
                  .b40, .b41, .b42, .b43, .b44, .b45, .b46, .b47,
                  .b50, .b51, .b52, .b53, .b54, .b55, .b56, .b57,
                  .b60, .b61, .b62, .b63, .b64, .b65, .b66, .b67,
                  .b70, .b71, .b72, .b73, .b74, .b75, .b76, .b77
                  }""", "{ .b.n.n.n.n };\n.n = { 0, 1, 2, 3, 4, 5, 6, 7 }",
         "the byte selectors have four digits (.bxyzw), as in vop4"),
    ],
    "suld.txt": [
        ("suld.b.geom{.cop}.vec.dtype", "suld.b.geom{.cop}{.vec}.dtype", "the vector size is optional ('none' is no token)"),
        (".vec   = { none, .v2, .v4 };", ".vec   = { .v2, .v4 };", "the vector size is optional ('none' is no token)"),
    ],
    "sust.txt": [
        ("sust.b.dim{.cop}.vec.ctype", "sust.b.dim{.cop}{.vec}.ctype", "the vector size is optional ('none' is no token)"),
        ("sust.p.dim.vec.b32", "sust.p.dim{.vec}.b32", "the vector size is optional ('none' is no token)"),
        ("sust.b.adim{.cop}.vec.ctype", "sust.b.adim{.cop}{.vec}.ctype", "the vector size is optional ('none' is no token)"),
        (".vec   = { none, .v2, .v4 };", ".vec   = { .v2, .v4 };", "the vector size is optional ('none' is no token)"),
    ],
    "set.txt": [("set.CmpOp.BoolOp{.ftz}.dtype.f16     d, a, b, {!}c;\n.dtype  = { .u16, .s16, .u32, .s32};\n",
                 "set.CmpOp.BoolOp{.ftz}.dtype.f16     d, a, b, {!}c;\n.dtype  = { .u16, .s16, .u32, .s32};\n"
                 ".CmpOp  = { .eq, .ne, .lt, .le, .gt, .ge, .equ, .neu, .ltu, .leu, .gtu, .geu, .num, .nan };\n"
                 ".stype  = { .b16, .b32, .b64, .u16, .u32, .u64, .s16, .s32, .s64, .f16, .f32, .f64 };\n",
                 "the half-precision forms take the comparison and source type sets listed at the end of the "
                 "file (with .f16), not the first section's")],
    "mma.txt": [(".m8n84,", ".m8n8k4,", "the .f64 shape m8n8k4 lost its 'k'")],
    "red.txt": [(".noftz{.level::cache_hint}. vec_16_bit", ".noftz{.level::cache_hint}.vec_16_bit",
                 "a stray space splits the vector modifier from its dot")],
    "fma.txt": [("fma.rnd.oob{.relu}.type     d, a, b, c;\n", "fma.rnd.oob{.relu}.type     d, a, b, c;\n"
                 ".type = { .f16, .f16x2, .bf16, .bf16x2 };\n",
                 "the .oob form's .type set is not listed (its values measured with ptxas 13)")],
    "cp.reduce.async.bulk.txt": [("{ .shared::cta };\n%s\n.completion_mechanism = { .bulk_group };" % ("-" * 64),
                                  "{ .shared::cta };\n.completion_mechanism = { .bulk_group };",
                                  "a separator line splits the bulk_group form from its value sets")],
    "tensormap.cp_fenceproxy.txt": [
        ("cp_qualifiers.fence_qualifiers.sync", "cp_qualifiers.to_proxykind.release.scope.sync",
         "the fence qualifiers are a proxy kind, .release and a scope (a set nested in a value)"),
        (".fence_qualifiers = { .to_proxy::from_proxy.release.scope };\n.to_proxy::from_proxy  =",
         ".to_proxykind =", "the fence qualifiers are a proxy kind, .release and a scope (a set nested in a value)"),
    ],
}
