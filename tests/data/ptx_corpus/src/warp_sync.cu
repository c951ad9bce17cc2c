#include <cuda_runtime.h>
__global__ void warpops(unsigned* o, const unsigned* a, int n) {
  unsigned x = a[threadIdx.x];
  unsigned m = __activemask();
  o[0] = __match_any_sync(m, x);
  int pred;
  o[1] = __match_all_sync(m, x, &pred); o[2] = pred;
  o[3] = __match_any_sync(m, (unsigned long long)x << 20);
  o[4] = __reduce_add_sync(m, x);
  o[5] = __reduce_min_sync(m, x);
  o[6] = __reduce_max_sync(m, (int)x);
  o[7] = __reduce_and_sync(m, x);
  o[8] = __reduce_or_sync(m, x);
  o[9] = __reduce_xor_sync(m, x);
  o[10] = __fns(m, threadIdx.x, 3);
  o[11] = __fns(x, 0, -2);
  __nanosleep(x);
  o[12] = __vadd4(x, m) ^ __vsub2(x, m) ^ __vabsdiffu4(x, m) ^ __vcmpgtu2(x, m) ^ __vmaxs4(x, m) ^ __vsetgeu4(x, m);
  o[13] = __vavgu2(x, m) ^ __vhaddu4(x, m) ^ __vneg4(x) ^ __vabsss2(x) ^ __vsads4(x, m) ^ __vcmpne4(x, m);
  o[14] = __dp4a(x, m, 7u) + __dp2a_lo(x, m, 3u) + __dp2a_hi((int)x, (int)m, 5);
  o[15] = __byte_perm(x, m, 0x3210 + threadIdx.x) + __funnelshift_l(x, m, n) + __funnelshift_rc(x, m, n);
  o[16] = __brev(x) + __clz(x) + __ffs(x) + __popc(x) + __ffsll((long long)x << 3) + __popcll((long long)x * x);
  o[17] = __usad(x, m, 9) + __sad((int)x, (int)m, 4) + __mul24((int)x, 3) + __umulhi(x, m) + __mulhi((int)x, (int)m);
  o[18] = (unsigned)__umul64hi(x, 0x123456789ull) + (unsigned)__mul64hi((long long)x, -5ll);
  o[19] = __hadd((int)x, (int)m) + __rhadd((int)x, 1) + __uhadd(x, m) + __urhadd(x, 2);
  unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  o[20] = (unsigned)clock64() + (unsigned)g + __ldg(a + 1) + __ldcg(a + 2) + __ldca(a + 3) + __ldcs(a + 4) + __ldlu(a + 5) + __ldcv(a + 6);
  __stwb(o + 21, x); __stcg(o + 22, x); __stcs(o + 23, x); __stwt(o + 24, x);
  __syncwarp(m);
  o[25] = __syncthreads_count(x & 1) + __syncthreads_and(x) + __syncthreads_or(x);
  __threadfence_system(); __threadfence_block();
  if (x == 77) __trap();
  if (x == 78) __brkpt();
  __prof_trigger(3);
  o[26] = __shfl_xor_sync(m, x, 4, 8) + __shfl_up_sync(m, x, 1, 16) + __shfl_down_sync(m, x, 2) + __shfl_sync(m, x, 5, 4);
  o[27] = __ballot_sync(m, x & 2) + __all_sync(m, x) + __any_sync(m, x) + __uni_sync(m, x);
  double d = __shfl_sync(m, (double)x, 3); o[28] = (unsigned)d;
  unsigned lm; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm)); o[29] = lm;
}
