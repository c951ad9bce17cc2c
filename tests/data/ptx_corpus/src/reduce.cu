// Reductions: warp shuffles, shared memory, atomics.
#include <cstdio>
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ int warp_max(int v) {
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
extern "C" __global__ void reduce_sum(const float* __restrict__ in, float* out, int n) {
  __shared__ float part[32];
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  s = warp_sum(s);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < (blockDim.x >> 5) ? part[threadIdx.x] : 0.f;
    s = warp_sum(s);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}
extern "C" __global__ void reduce_max(const int* in, int* out, int n) {
  int m = -2147483647;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) m = max(m, in[i]);
  m = warp_max(m);
  unsigned ballot = __ballot_sync(0xffffffffu, m > 0);
  if ((threadIdx.x & 31) == 0) { atomicMax(out, m); atomicOr((unsigned*)out + 1, ballot); }
}
extern "C" __global__ void reduce_double(const double* in, double* out, long long n) {
  extern __shared__ double buf[];
  double s = 0;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s = fma(in[i], in[i], s);
  buf[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) buf[threadIdx.x] += buf[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sqrt(buf[0]);
}
