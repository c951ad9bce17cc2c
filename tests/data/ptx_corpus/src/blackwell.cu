#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
__global__ void tc05(float* out, uint64_t adesc, uint64_t bdesc, uint32_t idesc) {
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  __shared__ uint32_t taddr;
  __shared__ uint64_t bar;
  if (threadIdx.x < 32) ptx::tcgen05_alloc(ptx::cta_group_1, &taddr, 64u);
  ptx::tcgen05_fence_before_thread_sync();
  __syncthreads();
  ptx::tcgen05_fence_after_thread_sync();
  uint32_t t = taddr;
  if (threadIdx.x == 0) {
    ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, t, adesc, bdesc, idesc, false);
    ptx::tcgen05_commit(ptx::cta_group_1, &bar);
  }
  uint32_t r[4];
  ptx::tcgen05_ld_32x32b(r, t);
  ptx::tcgen05_wait_ld();
  ptx::tcgen05_st_32x32b(t, r);
  ptx::tcgen05_wait_st();
  out[threadIdx.x] = __uint_as_float(r[0] + r[3]);
  __syncthreads();
  if (threadIdx.x < 32) { ptx::tcgen05_dealloc(ptx::cta_group_1, t, 64u); ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1); }
#endif
}
__global__ void misc100(unsigned* o, float* f) {
#if __CUDA_ARCH__ >= 1000
  unsigned x = o[threadIdx.x];
  unsigned y; asm("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(y) : "r"(x));
  float m; asm("redux.sync.max.abs.NaN.f32 %0, %1, 0xffffffff;" : "=f"(m) : "f"(f[threadIdx.x]));
  unsigned short e; asm("{ .reg .b8 t; cvt.rn.satfinite.e2m1x2.f32 t, %1, %2; cvt.u16.u8 %0, t; }" : "=h"(e) : "f"(m), "f"(f[0]));
  o[threadIdx.x] = y + e + __float_as_uint(m);
#endif
}
