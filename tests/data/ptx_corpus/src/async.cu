// Asynchronous copies (pipeline, memcpy_async), cuda::barrier (mbarrier), clusters on sm_90+.
#include <cuda_pipeline.h>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
extern "C" __global__ void pipeline_copy(const float4* in, float4* out, int n) {
  __shared__ float4 stage[2][128];
  int t = threadIdx.x;
  for (int b = 0; b < n; b += 2 * 128) {
    __pipeline_memcpy_async(&stage[0][t], &in[b + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_memcpy_async(&stage[1][t], &in[b + 128 + t], sizeof(float4), 8);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    out[b + t] = stage[0][t];
    __pipeline_wait_prior(0);
    out[b + 128 + t] = stage[1][t];
  }
}
extern "C" __global__ void cg_memcpy(const int* in, int* out, int n) {
  __shared__ int tile[256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(int) * 256);
  cg::wait(block);
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
#if __CUDA_ARCH__ >= 800
extern "C" __global__ void barrier_copy(const int* in, int* out) {
  __shared__ int tile[256];
  #pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * 256, sizeof(int) * 256, bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x] * 2;
}
#endif
#if __CUDA_ARCH__ >= 900
extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_sum(const int* in, int* out) {
  __shared__ int smem[128];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  smem[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  cluster.sync();
  int* other = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 128 + threadIdx.x] = smem[threadIdx.x] + other[threadIdx.x];
  cluster.sync();
}
#endif
