#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
__global__ void smallfp(const float* f, const __half2* h, const __nv_bfloat162* b, unsigned* o, float* of, __half2* oh) {
  int i = threadIdx.x;
  float2 v = make_float2(f[i], f[i + 1]);
  o[0] = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
  o[1] = __nv_cvt_float2_to_fp8x2(v, __NV_NOSAT, __NV_E5M2);
  o[2] = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E5M2);
  o[3] = __nv_cvt_bfloat16raw2_to_fp8x2(b[i], __NV_SATFINITE, __NV_E4M3);
  o[4] = __nv_cvt_float_to_fp8(f[i], __NV_SATFINITE, __NV_E4M3);
  o[5] = __nv_cvt_double_to_fp8((double)f[i], __NV_SATFINITE, __NV_E5M2);
  __half2_raw hr = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)o[0], __NV_E4M3);
  oh[0] = __half2(hr);
  __nv_fp8x4_e4m3 q4(make_float4(f[0], f[1], f[2], f[3]));
  float4 back = float4(q4);
  of[0] = back.x + back.w;
  __nv_fp8_e5m2 e5(f[i]); of[1] = float(e5);
  o[6] = __nv_cvt_float2_to_fp6x2(v, __NV_E2M3, cudaRoundNearest);
  o[7] = __nv_cvt_float2_to_fp6x2(v, __NV_E3M2, cudaRoundNearest);
  o[8] = __nv_cvt_float2_to_fp4x2(v, __NV_E2M1, cudaRoundNearest);
  __half2_raw h6 = __nv_cvt_fp6x2_to_halfraw2((__nv_fp6x2_storage_t)o[6], __NV_E2M3);
  __half2_raw h4 = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)o[8], __NV_E2M1);
  oh[1] = __half2(h6); oh[2] = __half2(h4);
  o[9] = __nv_cvt_float2_to_e8m0x2(v, __NV_SATFINITE, cudaRoundPosInf);
  o[10] = __nv_cvt_float_to_e8m0(f[i], __NV_NOSAT, cudaRoundZero);
  __nv_fp4x4_e2m1 f4(make_float4(f[0], f[1], f[2], f[3]));
  float4 b4 = float4(f4); of[2] = b4.y;
  __nv_fp6x4_e3m2 f6(make_float4(f[0], f[1], f[2], f[3]));
  float4 b6 = float4(f6); of[3] = b6.z;
}
