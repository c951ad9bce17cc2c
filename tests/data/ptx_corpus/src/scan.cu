// Block scan with cooperative groups; grid-wide sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
extern "C" __global__ void block_scan(const int* in, int* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int sums[32];
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  int incl = cg::inclusive_scan(warp, v);
  if (warp.thread_rank() == 31) sums[warp.meta_group_rank()] = incl;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int s = warp.thread_rank() < warp.meta_group_size() ? sums[warp.thread_rank()] : 0;
    sums[warp.thread_rank()] = cg::exclusive_scan(warp, s);
  }
  block.sync();
  if (i < n) out[i] = incl + sums[warp.meta_group_rank()];
}
extern "C" __global__ void tile_reduce(const unsigned* in, unsigned* out) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned v = in[threadIdx.x];
  unsigned r = cg::reduce(tile, v, cg::plus<unsigned>());
  unsigned m = cg::reduce(tile, v, cg::greater<unsigned>());
  auto active = cg::coalesced_threads();
  if (v & 1) out[active.thread_rank()] = r ^ m;
  if (tile.any(v > 7)) out[threadIdx.x + 64] = tile.ballot(v > 3);
}
extern "C" __global__ void grid_sum(int* data, int* total) {
  cg::grid_group g = cg::this_grid();
  atomicAdd(total, data[g.thread_rank()]);
  g.sync();
  data[g.thread_rank()] = *total;
}
