// Math library: float, double, half, bf16 intrinsics and conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void fmath(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = sinf(v) + cosf(v) * expf(v) - logf(fabsf(v) + 1.f) + tanhf(v) + __fdividef(v, 3.f) + rsqrtf(v * v + 1.f)
       + __sinf(v) + __expf(v) + erff(v) + cbrtf(v) + atan2f(v, 2.f) + fminf(v, 1.f) + truncf(v) + roundf(v) + floorf(v);
}
extern "C" __global__ void dmath(const double* x, double* y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  y[i] = sin(v) + exp(v) / (1.0 + v * v) + log1p(fabs(v)) + pow(v, 2.5) + rint(v) + ceil(v) + (double)(int)v + (double)(long long)v;
}
extern "C" __global__ void hmath(const __half2* a, const __half2* b, __half2* c, const __nv_bfloat162* p, __nv_bfloat162* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 s = __hfma2(a[i], b[i], __hmul2(a[i], a[i]));
  s = __hmax2(s, __hneg2(b[i]));
  c[i] = h2exp(s);
  __half h = __hadd(__low2half(s), __high2half(s));
  c[i + n] = __halves2half2(hsqrt(h), __float2half_rn(__half2float(h) * 3.f + (float)i));
  q[i] = __hmul2(p[i], p[i]);
  q[i + n] = __floats2bfloat162_rn(__bfloat162float(p[i].x) + 1.f, (float)i);
}
extern "C" __global__ void conversions(const double* d, float* f, int* s, unsigned long long* u, short* h, signed char* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  f[i] = __double2float_rd(d[i]);
  s[i] = __double2int_rz(d[i]) + __float2int_rn(f[i]) + __float_as_int(f[i]);
  u[i] = __double2ull_ru(d[i]) + __double_as_longlong(d[i]) + __brevll(u[i]) + __popcll(u[i]) + __clzll(u[i]);
  h[i] = (short)s[i] + __byte_perm(s[i], i, 0x5140) + __funnelshift_l(s[i], i, 3);
  c[i] = (signed char)__sad(s[i], i, 7) + __vabsdiffu4(s[i], i) + __dp4a(s[i], i, 3);
}
