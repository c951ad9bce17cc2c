__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__global__ void __launch_bounds__(384, 1) ws(float* out, const unsigned long long* desc, const void* tmap) {
  __shared__ alignas(1024) unsigned char buf[32768];
  __shared__ alignas(8) unsigned long long bar[2];
  unsigned warp = threadIdx.x / 128;
  float acc[8] = {0};
  if (warp == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(smem(buf)), "l"(tmap), "r"(0), "r"(threadIdx.x), "r"(smem(bar)) : "memory");
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];"
                 :: "l"(tmap), "r"(0), "r"(1), "r"(2), "r"(smem(buf)) : "memory");
    asm volatile("cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%0, {%1}], [%2];" :: "l"(tmap), "r"(4), "r"(smem(buf)));
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(tmap), "r"(1), "r"(2));
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" :: "l"(tmap));
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    unsigned long long d = desc[0];
    asm volatile("wgmma.fence.sync.aligned;");
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 1;"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]) : "l"(d), "l"(d + 2));
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%0, %1, %2, %3}, %4, %5, 1, 1, 1;"
                 : "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]), "+f"(acc[7]) : "l"(d), "l"(d + 4));
    unsigned a0 = 1, a1 = 2, a2 = 3, a3 = 4;
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1;"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(d));
    int ia[4] = {0};
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8.satfinite {%0, %1, %2, %3}, %4, %5, 1;"
                 : "+r"(ia[0]), "+r"(ia[1]), "+r"(ia[2]), "+r"(ia[3]) : "l"(d), "l"(d));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
    acc[0] += ia[0];
  }
  asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" :: "r"(smem(buf)), "l"(desc[1]));
  asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 2;" :: "r"(smem(buf)));
  asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, %1;" :: "r"(smem(buf)), "r"(64));
  asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" :: "r"(smem(buf)));
  asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" :: "l"(tmap), "r"(smem(buf)));
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.f32 %0, [%1];" : "=f"(acc[1]) : "l"(out));
  asm volatile("multimem.st.relaxed.gpu.global.v2.f32 [%0], {%1, %2};" :: "l"(out), "f"(acc[2]), "f"(acc[3]));
  asm volatile("multimem.red.release.gpu.global.add.u32 [%0], %1;" :: "l"(out), "r"(3));
  unsigned sp = 0;
  asm volatile("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]) : "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp));
  asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32.satfinite {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;"
               : "+r"(sp), "+r"(sp), "+r"(sp), "+r"(sp) : "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp), "r"(sp));
  out[threadIdx.x] = acc[0] + acc[1] + acc[4] + acc[7] + sp;
}
