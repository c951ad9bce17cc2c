#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void tiles(const int* in, int* out) {
  cg::thread_block b = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(b);
  auto t8 = cg::tiled_partition<8>(t32);
  int x = in[b.group_index().x * b.size() + b.thread_rank()];
  int s = cg::reduce(t32, x, cg::plus<int>());
  int m = cg::reduce(t8, x, cg::greater<int>());
  int e = cg::exclusive_scan(t32, x);
  auto active = cg::coalesced_threads();
  if (x > 0) { auto c = cg::coalesced_threads(); s += c.shfl(x, 0) + c.size(); }
  out[b.thread_rank()] = s + m + e + t8.shfl_down(x, 1) + active.any(x > 3) + t32.ballot(x & 1);
  b.sync();
}
__global__ void gridsync(int* data, int n) {
  cg::grid_group g = cg::this_grid();
  for (int i = g.thread_rank(); i < n; i += g.size()) data[i] *= 2;
  g.sync();
  if (g.thread_rank() == 0) data[0] = g.num_blocks();
}
__global__ void async_copy(const float* in, float* out) {
  __shared__ float sh[256];
  cg::thread_block b = cg::this_thread_block();
  cg::memcpy_async(b, sh, in + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(b);
  out[blockIdx.x * 256 + threadIdx.x] = sh[255 - threadIdx.x];
}
#if __CUDA_ARCH__ >= 900
__global__ void __cluster_dims__(2, 1, 1) cluster_k(int* out) {
  __shared__ int sh[64];
  cg::cluster_group cl = cg::this_cluster();
  sh[threadIdx.x] = threadIdx.x + cl.block_rank();
  cl.sync();
  int* other = cl.map_shared_rank(sh, (cl.block_rank() + 1) % cl.num_blocks());
  out[blockIdx.x * 64 + threadIdx.x] = other[threadIdx.x];
  cl.sync();
}
#endif
