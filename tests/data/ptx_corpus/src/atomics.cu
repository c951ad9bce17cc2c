// Atomics of every width and kind, fences, volatile and relaxed accesses.
#include <cuda_fp16.h>
#include <cuda/atomic>
extern "C" __global__ void atomics(int* i, unsigned* u, unsigned long long* ull, float* f, double* d, __half2* h2, __half* h) {
  int t = threadIdx.x;
  atomicAdd(i, t); atomicSub(i + 1, t); atomicExch(i + 2, t); atomicMin(i + 3, t); atomicMax(i + 4, t);
  atomicInc(u, 17u); atomicDec(u + 1, 17u); atomicCAS(u + 2, 3u, (unsigned)t); atomicAnd(u + 3, t); atomicXor(u + 4, t);
  atomicAdd(ull, 1ull); atomicCAS(ull + 1, 0ull, (unsigned long long)t); atomicMin(ull + 2, (unsigned long long)t);
  atomicAdd(f, 1.5f); atomicExch(f + 1, 2.0f);
#if __CUDA_ARCH__ >= 600
  atomicAdd(d, 0.25); atomicAdd_block(i + 5, 1); atomicAdd_system(i + 6, 1);
#endif
#if __CUDA_ARCH__ >= 700
  atomicAdd(h2, __halves2half2(__float2half(1.f), __float2half(2.f))); atomicAdd(h, __float2half(3.f));
#endif
  __threadfence(); __threadfence_block(); __threadfence_system();
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(i[7]);
  ref.fetch_add(2, cuda::memory_order_relaxed);
  int seen = ref.load(cuda::memory_order_acquire);
  ref.store(seen + 1, cuda::memory_order_release);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> r64(ull[3]);
  r64.fetch_or(1ull << (t & 63), cuda::memory_order_acq_rel);
  volatile int* vi = i + 8;
  *vi = *vi + 1;
}
extern "C" __global__ void histogram(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += blockDim.x * gridDim.x) atomicAdd(&local[data[k]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) if (local[b]) atomicAdd(&bins[b], local[b]);
}
