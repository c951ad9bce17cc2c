#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
struct alignas(64) TMap { char bytes[128]; };
__global__ void tma_kernel(const __grid_constant__ TMap map, float* out, const float* in) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(128) float buf[1024];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {(int)blockIdx.x * 32, 0};
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, buf, &map, coords, &bar);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + 512, in, 2048, &bar);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 4096 + 2048);
  }
  uint64_t st = 0;
  if (threadIdx.x != 0) st = ptx::mbarrier_arrive(&bar);
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
  out[threadIdx.x] = buf[threadIdx.x] + (float)(st & 1);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    int32_t coords[2] = {(int)blockIdx.x * 32, 1};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &map, coords, buf);
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, out, buf, 1024);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
  uint32_t r = ptx::get_sreg_clusterid_x() + ptx::get_sreg_cluster_nctarank() + ptx::get_sreg_ctaid_x();
  out[1024 + threadIdx.x] = (float)r;
#endif
}
__global__ void wgmma_kernel(float* out, uint64_t da, uint64_t db) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  float d[8] = {};
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, 1, 1, 1, 0, 0;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  for (int i = 0; i < 8; i++) out[threadIdx.x * 8 + i] = d[i];
#endif
}
__global__ void cluster_misc(unsigned* out) {
#if __CUDA_ARCH__ >= 900
  __shared__ unsigned s[32];
  s[threadIdx.x % 32] = threadIdx.x;
  ptx::barrier_cluster_arrive(); ptx::barrier_cluster_wait();
  unsigned rank = ptx::get_sreg_cluster_ctarank();
  unsigned addr; asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(addr) : "r"((unsigned)__cvta_generic_to_shared(s)), "r"(rank ^ 1));
  unsigned v; asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], 1, [%1];" :: "r"(addr), "r"(addr + 64));
  unsigned e; asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; }" : "=r"(e));
  out[threadIdx.x] = v + e + ptx::getctarank(ptx::space_cluster, s);
  ptx::barrier_cluster_arrive(ptx::sem_relaxed); ptx::barrier_cluster_wait();
  asm volatile("griddepcontrol.launch_dependents;"); asm volatile("griddepcontrol.wait;");
#endif
}
