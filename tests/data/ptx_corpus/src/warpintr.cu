__global__ void warps(const int* in, int* out, unsigned long long* t, const float4* v4, float* fo) {
  int x = in[threadIdx.x];
  unsigned m = __activemask();
  int a = __shfl_sync(m, x, 3) + __shfl_up_sync(m, x, 1) + __shfl_down_sync(m, x, 2, 16) + __shfl_xor_sync(m, x, 4);
  unsigned b = __ballot_sync(m, x > 0);
  int al = __all_sync(m, x), an = __any_sync(m, x), un = __uni_sync(m, x);
  unsigned ma = __match_any_sync(m, x); int pred; unsigned mall = __match_all_sync(m, x, &pred);
  int ra = __reduce_add_sync(m, x); unsigned rm = __reduce_max_sync(m, (unsigned)x); int rmin = __reduce_min_sync(m, x);
  unsigned ro = __reduce_or_sync(m, (unsigned)x) ^ __reduce_and_sync(m, (unsigned)x) ^ __reduce_xor_sync(m, (unsigned)x);
  __syncwarp(m);
  __nanosleep(100);
  t[0] = clock64(); asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t[1])); t[2] = clock();
  float4 v = __ldg(&v4[threadIdx.x]);
  float c = __ldcs(&fo[threadIdx.x]) + __ldca(&fo[1]) + __ldcg(&fo[2]) + __ldlu(&fo[3]) + __ldcv(&fo[4]);
  __stcg(&fo[5], c); __stcs(&fo[6], c); __stwb(&fo[7], c); __stwt(&fo[8], v.x);
  unsigned lane; asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned smid; asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  out[threadIdx.x] = a + b + al + an + un + ma + mall + pred + ra + rm + rmin + ro + lane + smid + __popc(b) + __clz(x) + __ffs(x) + __brev(x)
    + __byte_perm(x, a, 0x3210) + __funnelshift_l(x, a, 3) + __funnelshift_rc(x, a, 5) + __sad(x, a, 1) + __mul24(x, a) + __umulhi(x, a)
    + __vabsdiffu4(x, a) + __vadd2(x, a) + __vcmpgeu4(x, a) + __dp4a(x, a, 1) + __dp2a_lo(x, a, 2) + __fns(b, 0, 1) + __hadd(x, a) + __rhadd(x, a);
  __syncthreads_count(x > 0); __syncthreads_and(x); __syncthreads_or(x);
}
