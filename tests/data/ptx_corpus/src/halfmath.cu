#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void hmath(const __half2* a, const __half2* b, __half2* o, const __nv_bfloat162* c, __nv_bfloat162* d, __half* hs, __nv_bfloat16* bs, float* f) {
  int i = threadIdx.x;
  __half2 x = a[i], y = b[i];
  __half2 r = __hfma2(x, y, __hmul2(x, x));
  r = __hadd2_sat(r, h2sqrt(x)); r = __hmax2(r, h2exp(y)); r = __hmin2_nan(r, h2log(x));
  r = __hfma2_relu(r, x, y); r = h2rcp(r); r = h2sin(r); r = __habs2(r); r = __hneg2(r);
  o[i] = __hbge2(r, x) ? r : __h2div(x, y);
  __nv_bfloat162 p = c[i];
  __nv_bfloat162 q = __hfma2(p, p, p); q = __hmax2(q, __hmul2(p, q)); q = h2exp(q); q = __hadd2(q, __habs2(p));
  d[i] = q;
  __half h = hs[i];
  h = __hdiv(h, __float2half_rz(f[i])); h = hsqrt(h); h = __hfma_sat(h, h, h);
  hs[i] = __hlt(h, hs[0]) ? h : __int2half_rn(i);
  __nv_bfloat16 bb = bs[i]; bb = __hfma(bb, bb, __float2bfloat16_rn(f[i])); bb = hrsqrt(bb);
  bs[i] = bb;
  f[i] = __half2float(h) + __bfloat162float(bb) + __low2float(r) + __high2float(__bfloat1622float2(q).x > 0 ? r : x)
       + (float)__half2int_rz(h) + (float)__bfloat162uint_rd(bb) + __half2float(__ushort_as_half(__half_as_ushort(h) ^ 0x8000));
}
