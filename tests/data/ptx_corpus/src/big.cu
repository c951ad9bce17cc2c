// Much straight-line code with many distinct instructions (speed measurements): unrolled
// polynomial and hash rounds over many constants, instantiated for several types.
#include <cstdint>
template <typename T, int R>
__device__ __forceinline__ T mix(T a, T b, const T* k) {
#pragma unroll
  for (int r = 0; r < R; ++r) {
    a = a * (T)(2 * r + 3) + b + k[r & 7];
    b = (b ^ (a >> (r % 13 + 1))) + (T)(r * 2654435761u);
    a = (a << (r % 7 + 1)) | (a >> (sizeof(T) * 8 - r % 7 - 1));
  }
  return a ^ b;
}
template <typename F, int R>
__device__ __forceinline__ F poly(F x, const F* c) {
  F acc = (F)0;
#pragma unroll
  for (int r = 0; r < R; ++r) acc = acc * x + c[r % 16] * (F)(r + 1) + (F)(0.5 * r);
  return acc;
}
extern "C" __global__ void big_hash32(const uint32_t* in, uint32_t* out, const uint32_t* k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix<uint32_t, 1200>(in[i], in[i + 1], k);
}
extern "C" __global__ void big_hash64(const uint64_t* in, uint64_t* out, const uint64_t* k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix<uint64_t, 900>(in[i], in[i + 1], k);
}
extern "C" __global__ void big_poly(const float* x, float* y, const float* c, const double* xd, double* yd, const double* cd) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = poly<float, 1500>(x[i], c);
  yd[i] = poly<double, 1500>(xd[i], cd);
}
extern "C" __global__ void big_mixed(const float* x, float* y, const float* c, const uint32_t* in, uint32_t* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = poly<float, 1000>(x[i] * 0.5f, c + 3);
  out[i] = mix<uint32_t, 700>(in[i] ^ 0x9e3779b9u, in[i + 2], in + 8);
}
