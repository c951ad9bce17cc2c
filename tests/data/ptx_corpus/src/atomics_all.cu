#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>
__global__ void atoms(int* i, unsigned* u, unsigned long long* ull, long long* ll, float* f, double* d,
                      __half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2, unsigned short* us) {
  int t = threadIdx.x;
  atomicAdd(i, t); atomicSub(i, t); atomicExch(i, t); atomicMin(i, t); atomicMax(i, t);
  atomicAnd(i, t); atomicOr(i, t); atomicXor(i, t); atomicCAS(i, t, t + 1);
  atomicInc(u, 100); atomicDec(u, 100);
  atomicAdd(ull, 1ull); atomicMin(ull, 5ull); atomicMax(ll, 7ll); atomicMin(ll, -3ll); atomicAnd(ull, 3ull);
  atomicCAS(ull, 1ull, 2ull); atomicExch(ull, 9ull);
  atomicAdd(f, 1.5f); atomicExch(f, 2.0f); atomicAdd(d, 2.5);
  atomicAdd(h, __float2half(1.f)); atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
  atomicAdd(b, __float2bfloat16(1.f)); atomicAdd(b2, __floats2bfloat162_rn(1.f, 2.f));
  atomicCAS(us, (unsigned short)1, (unsigned short)2);
  atomicAdd_block(i, 1); atomicAdd_system(i, 2); atomicCAS_block(i, 1, 2); atomicExch_system(f, 1.f);
  atomicMax_block(ull, 3ull); atomicAdd_system(d, 1.0);
#if __CUDA_ARCH__ >= 900
  atomicMax(ull, 1ull);
#endif
}
__global__ void scoped(int* p, unsigned long long* q, float* f) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*p);
  cuda::atomic_ref<int, cuda::thread_scope_block> bl(p[1]);
  cuda::atomic_ref<int, cuda::thread_scope_system> sy(p[2]);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> q1(*q);
  cuda::atomic_ref<float, cuda::thread_scope_device> fa(*f);
  a.fetch_add(1, cuda::memory_order_relaxed);
  a.fetch_or(2, cuda::memory_order_acquire);
  bl.fetch_xor(3, cuda::memory_order_release);
  sy.fetch_and(4, cuda::memory_order_acq_rel);
  int e = 5; a.compare_exchange_strong(e, 6, cuda::memory_order_seq_cst);
  q1.fetch_max(7, cuda::memory_order_relaxed);
  fa.fetch_add(1.f, cuda::memory_order_release);
  int v = a.load(cuda::memory_order_acquire);
  bl.store(v, cuda::memory_order_release);
  sy.exchange(v + 1);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  __threadfence(); __threadfence_block(); __threadfence_system();
}
__global__ void shared_atoms(int* out) {
  __shared__ int s[32]; __shared__ float sf[32]; __shared__ unsigned long long su[32];
  s[threadIdx.x % 32] = 0; sf[threadIdx.x % 32] = 0; su[threadIdx.x % 32] = 0; __syncthreads();
  atomicAdd(&s[threadIdx.x % 32], 1); atomicAdd(&sf[threadIdx.x % 32], 1.f); atomicAdd(&su[threadIdx.x % 32], 1ull);
  atomicCAS(&su[0], 0ull, 1ull); atomicMax(&s[1], threadIdx.x);
  __syncthreads(); out[threadIdx.x] = s[threadIdx.x % 32] + (int)sf[0] + (int)su[1];
}
