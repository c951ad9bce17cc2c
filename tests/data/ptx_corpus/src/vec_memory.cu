#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>
// vector loads and stores with cache operators, atomics of every type (float2/float4 vectors from sm_90),
// cuda::atomic_ref, warp shuffles/match/reduce and double rounding intrinsics (ptx check hunt, issue 15)
__global__ void k_ldst(const float4* __restrict__ a, float4* b, const int2* c, int2* d, const double2* e, double2* f,
                       const __half2* h, __half2* hh, const short4* s, short4* ss, const uchar4* u, uchar4* uu, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 x = __ldg(a + i); float4 y = __ldcs(a + i + 1); float4 z = __ldlu(a + i + 2); float4 w = __ldcv(a + i + 3);
    __stcs(b + i, x); __stwt(b + i + 1, y); __stcg(b + i + 2, z); __stwb(b + i + 3, w);
    int2 ci = __ldg(c + i); __stcs(d + i, ci);
    double2 ed = __ldg(e + i); __stcg(f + i, ed);
    __half2 hv = __ldg(h + i); __stcs(hh + i, __hadd2(hv, hv));
    short4 sv = __ldg(s + i); __stcs(ss + i, sv);
    uchar4 uv = __ldg(u + i); __stwt(uu + i, uv);
  }
}
__global__ void k_atom(float* f, double* d, __half2* h2, __nv_bfloat162* b2, __half* h, __nv_bfloat16* b,
                       unsigned long long* u64, int* i32, unsigned short* u16, float2* f2, float4* f4) {
  atomicAdd(f, 1.0f); atomicAdd(d, 2.0); atomicAdd(h2, __halves2half2(__float2half(1.f), __float2half(2.f)));
  atomicAdd(b2, __floats2bfloat162_rn(1.f, 2.f)); atomicAdd(h, __float2half(3.f)); atomicAdd(b, __float2bfloat16(4.f));
  atomicMax(u64, 5ull); atomicMin(i32, -3); atomicCAS(u16, (unsigned short)1, (unsigned short)2);
  atomicExch(f, 3.0f); atomicAnd(i32, 7); atomicOr(u64, 9ull); atomicXor(i32, 11); atomicInc((unsigned*)i32, 17u);
  atomicDec((unsigned*)i32, 19u); atomicAdd_block(f, 1.f); atomicAdd_system(d, 1.0);
#if __CUDA_ARCH__ >= 900
  atomicAdd(f2, make_float2(1.f, 2.f)); atomicAdd(f4, make_float4(1.f, 2.f, 3.f, 4.f));
#endif
  cuda::atomic_ref<float, cuda::thread_scope_device> r(*f); r.fetch_add(1.f); r.fetch_min(0.f); r.fetch_max(9.f);
  cuda::atomic_ref<int, cuda::thread_scope_block> ri(*i32); ri.fetch_sub(2, cuda::memory_order_acq_rel);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> ru(*u64); ru.compare_exchange_strong(*u64, 3ull);
}
__global__ void k_warp(float* out, const float* in, double* dd) {
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 1); v += __shfl_up_sync(0xffffffff, v, 2); v += __shfl_down_sync(0xffffffff, v, 4, 16);
  double d = dd[threadIdx.x]; d += __shfl_sync(0xffffffff, d, 3);
  unsigned m = __match_any_sync(0xffffffff, (int)v); unsigned ma; __match_all_sync(0xffffffff, 3, (int*)&ma);
#if __CUDA_ARCH__ >= 800
  unsigned r = __reduce_add_sync(0xffffffff, m) + __reduce_max_sync(0xffffffff, ma) + __reduce_or_sync(0xffffffff, m);
#else
  unsigned r = m + ma;
#endif
  unsigned b = __ballot_sync(0xffffffff, v > 0.f) + __activemask() + __popc(m) + __ffs(r) + __clz(b) + __brev(r);
  __nanosleep(100); __syncwarp(); out[threadIdx.x] = v + d + r + b + __funnelshift_l(b, r, 3) + __byte_perm(b, r, 0x3210);
  dd[threadIdx.x] = __dadd_rn(d, 1.0) + __fma_rz(d, 2.0, 3.0) + __drcp_rn(d) + __dsqrt_ru(d);
}
