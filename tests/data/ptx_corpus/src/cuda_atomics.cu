#include <cuda/atomic>
#include <cuda/semaphore>
#include <cuda/latch>
#include <cuda/barrier>
#include <cuda/annotated_ptr>
#include <cuda/std/bit>
#include <cuda/std/cmath>
__device__ cuda::atomic<int, cuda::thread_scope_device> gcount;
__device__ cuda::atomic<unsigned long long, cuda::thread_scope_system> scount;
__device__ cuda::binary_semaphore<cuda::thread_scope_device> gsem;
__global__ void atoms(int* out, float* f, double* d, cuda::atomic<float, cuda::thread_scope_block>* fa) {
  cuda::atomic_ref<int, cuda::thread_scope_device> r(out[0]);
  r.fetch_add(1, cuda::std::memory_order_relaxed);
  r.fetch_max(threadIdx.x, cuda::std::memory_order_acq_rel);
  r.fetch_min(3, cuda::std::memory_order_release);
  int exp = 4; r.compare_exchange_strong(exp, 5, cuda::std::memory_order_acquire);
  r.compare_exchange_weak(exp, 6);
  out[1] = r.load(cuda::std::memory_order_seq_cst) + r.exchange(7, cuda::std::memory_order_consume);
  r.store(9, cuda::std::memory_order_release);
  cuda::atomic_ref<int, cuda::thread_scope_block> rb(out[2]); rb.fetch_or(8); rb.fetch_xor(1, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_system> rs(out[3]); rs.fetch_and(1); rs.fetch_sub(2, cuda::std::memory_order_acquire);
  cuda::atomic_ref<float, cuda::thread_scope_device> rf(f[0]); rf.fetch_add(1.5f); rf.fetch_max(2.f);
  cuda::atomic_ref<double, cuda::thread_scope_block> rd(d[0]); rd.fetch_add(1.0, cuda::std::memory_order_relaxed); rd.fetch_min(0.5);
  fa->fetch_add(2.f, cuda::std::memory_order_relaxed);
  gcount.fetch_add(1); scount.fetch_add(3, cuda::std::memory_order_relaxed);
  cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_block);
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_system);
  cuda::atomic_ref<short, cuda::thread_scope_device> r16(*(short*)(out + 8)); r16.fetch_add(1); short e16 = 0; r16.compare_exchange_strong(e16, 2);
  cuda::atomic_ref<char, cuda::thread_scope_device> r8(*(char*)(out + 9)); r8.store(1); out[10] = r8.load();
  gsem.acquire(); gsem.release();
  out[11] = gsem.try_acquire();
  r.wait(3); r.notify_all();
}
__global__ void annot(float* g, int n) {
  cuda::annotated_ptr<float, cuda::access_property::streaming> s(g);
  cuda::annotated_ptr<float, cuda::access_property::persisting> p(g + n);
  cuda::annotated_ptr<float, cuda::access_property> a(g, cuda::access_property(g, n * 4, n * 8, cuda::access_property::persisting{}, cuda::access_property::streaming{}));
  s[threadIdx.x] = p[threadIdx.x] * 2 + a[threadIdx.x];
  cuda::apply_access_property(g, n * 4, cuda::access_property::persisting{});
  cuda::discard_memory(g + 1024, 4096);
  unsigned x = threadIdx.x;
  g[1] = cuda::std::popcount(x) + cuda::std::countl_zero(x) + cuda::std::bit_width(x) + cuda::std::rotl(x, 3) + cuda::std::bit_floor(x) + cuda::std::has_single_bit(x);
  g[2] = cuda::std::fma(g[3], g[4], g[5]) + cuda::std::hypot(g[6], g[7]) + cuda::std::lerp(g[8], g[9], 0.5f) + cuda::std::cbrt(g[10]) + cuda::std::nextafter(g[11], 0.f);
}
__global__ void barrier_tx(int* gsrc, int* out) {
  __shared__ alignas(16) int buf[1024];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(buf, gsrc, cuda::aligned_size_t<16>(4096), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = buf[threadIdx.x];
  auto t = bar.arrive(2);
  bar.wait(cuda::std::move(t));
}
