#include <cuda_bf16.h>
#include <cuda_fp16.h>
__global__ void bfm(__nv_bfloat162* x, const __nv_bfloat162* y, __half2* h, const __half2* g, __nv_bfloat16* s, float* f) {
  int i = threadIdx.x;
  __nv_bfloat162 a = x[i], b = y[i];
  __nv_bfloat162 r = __hfma2(a, b, a);
  r = __hfma2_relu(r, b, a);
  r = __hmax2_nan(r, b) + __hmin2_nan(a, r) + __hmax2(a, b) + __hmin2(a, b);
  r = __hmul2_rn(r, a) + __hadd2_rn(r, b) + __hsub2_rn(r, a) + __habs2(r) + __hneg2(b);
  r = h2exp(r) + h2exp2(a) + h2log(b) + h2sin(a) + h2cos(b) + h2sqrt(a) + h2rsqrt(b) + h2rcp(a) + h2floor(r) + h2ceil(b) + h2trunc(a) + h2rint(b);
  r = __hcmadd(a, b, r);
  r = __h2div(r, b) + __hadd2_sat(a, b) + __hfma2_sat(a, b, r);
  x[i] = r;
  __half2 p = h[i], q = g[i];
  __half2 t = __hmax2_nan(p, q) + __hmin2_nan(p, q) + __hfma2_relu(p, q, p) + __hcmadd(p, q, p);
  t = __hadd2_rn(t, q) + h2tanh(t) + h2exp10(q) + h2log10(p) + h2log2(q);
  t = __hmul2_sat(t, p) + __hsub2_sat(p, q);
  h[i] = t;
  __nv_bfloat16 u = __hmax(s[i], s[i + 1]) + __hmin_nan(s[i], s[i + 2]) + hexp(s[i]) + htanh(s[i]) + __hfma_relu(s[i], s[1], s[2]);
  s[i] = u;
  f[i] = __low2float(r) + __high2float(a) + __bfloat162float(u) + __half2float(__low2half(t));
  f[i + 1] = __int2bfloat16_rn(i) + __float2bfloat16_rz(f[i]) + __ushort2bfloat16_rn(i) + __double2bfloat16(f[i]);
  unsigned short us = __bfloat16_as_ushort(u);
  f[i + 2] = __bfloat162int_rz(u) + __bfloat162uint_rd(u) + __bfloat162short_rn(u) + us + __bfloat162ll_ru(u);
  f[i + 3] = (float)(__hisnan(u) + __hisinf(u) + __hbeq2(a, b) + __hbgtu2(a, b) + __hble2(a, b) + __hltu(s[0], u));
  __nv_bfloat162 sh = __shfl_xor_sync(~0u, r, 1);
  x[i + 1] = sh + __shfl_down_sync(~0u, a, 2);
  f[i + 1] = __bfloat162float(__int2bfloat16_rn(i)) + __bfloat162float(__float2bfloat16_rz(f[i])) + __bfloat162float(__ushort2bfloat16_rn(i)) + __bfloat162float(__double2bfloat16(f[i]));
  atomicAdd(x + 3, a); atomicAdd(h + 3, p); atomicAdd(s + 5, u);
  f[i + 5] = __bfloat162float(__ldg(s + 9)) + __half2float(__ldcg(g + 1).x);
}
