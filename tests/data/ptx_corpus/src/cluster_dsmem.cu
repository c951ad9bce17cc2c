#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256, 1) dsmem(int* out) {
  __shared__ int sh[256];
  auto cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  sh[threadIdx.x] = threadIdx.x * (r + 1);
  cl.sync();
  int* peer = cl.map_shared_rank(sh, (r + 1) % cl.num_blocks());
  out[threadIdx.x + r * 256] = peer[threadIdx.x] + cl.query_shared_rank(peer) + cl.dim_blocks().x + cl.block_index().x;
  cl.barrier_arrive();
  cl.barrier_wait();
  out[0] += __clusterDimIsSpecified() + __clusterRelativeBlockRank() + __clusterSizeInBlocks() + cl.num_threads();
}
__global__ void __launch_bounds__(128, 2, 4) pdl(float* a, const float* b) {
  cudaGridDependencySynchronize();
  a[threadIdx.x] = b[threadIdx.x] * 2;
  cudaTriggerProgrammaticLaunchCompletion();
}
__global__ void __maxnreg__(40) mx(int* a) { a[threadIdx.x] *= 3; }
extern __shared__ int dyn[];
__global__ void dynsh(int* out) {
  dyn[threadIdx.x] = threadIdx.x;
  __syncthreads();
  unsigned s; asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(s));
  unsigned t; asm("mov.u32 %0, %%total_smem_size;" : "=r"(t));
  out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x] + s + t + __isShared(out) + __isGlobal(dyn) + __isLocal(out) + __isConstant(out);
  out[1] = (int)__cvta_generic_to_shared(dyn) + (int)(size_t)__cvta_shared_to_generic(8);
}
