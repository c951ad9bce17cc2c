#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void cgk(const int* in, int* out, float* fo, int n) {
  cg::thread_block blk = cg::this_thread_block();
  __shared__ int sh[512];
  cg::memcpy_async(blk, sh, in, sizeof(int) * 512);
  cg::wait(blk);
  auto t32 = cg::tiled_partition<32>(blk);
  auto t8 = cg::tiled_partition<8>(blk);
  auto t4 = cg::tiled_partition(blk, 4);
  int v = sh[threadIdx.x];
  out[0] = cg::reduce(t32, v, cg::plus<int>());
  out[1] = cg::reduce(t8, v, cg::greater<int>());
  out[2] = cg::reduce(t32, (unsigned)v, cg::bit_xor<unsigned>());
  fo[0] = cg::reduce(t32, (float)v, cg::plus<float>());
  fo[1] = cg::reduce(t8, (double)v, cg::less<double>());
  out[3] = cg::inclusive_scan(t32, v);
  out[4] = cg::exclusive_scan(t8, v, cg::bit_or<int>());
  out[5] = t8.shfl_down(v, 1) + t4.size() + t4.thread_rank() + t8.meta_group_rank();
  auto co = cg::coalesced_threads();
  if (v & 1) {
    auto act = cg::coalesced_threads();
    out[6] = cg::reduce(act, v, cg::plus<int>()) + act.num_threads();
    out[7] = cg::exclusive_scan(act, v);
  }
  auto lp = cg::labeled_partition(t32, v & 3);
  out[8] = lp.size() + cg::reduce(lp, v, cg::plus<int>());
  auto bp = cg::binary_partition(t32, v > 5);
  out[9] = bp.thread_rank() + t32.ballot(v > 3) + t32.any(v) + t32.all(v) + t32.match_any(v);
  out[10] = co.size();
  cg::sync(blk);
  auto grid = cg::this_grid();
  out[11] = grid.thread_rank() + grid.num_blocks() + grid.block_rank();
  blk.sync();
  cg::invoke_one(t32, [&] { atomicAdd(out + 12, v); });
  long long ll = cg::reduce(t32, (long long)v, cg::plus<long long>());
  out[13] = (int)ll;
}
__global__ void cggrid(int* out) {
  auto g = cg::this_grid();
  out[blockIdx.x] = 1;
  g.sync();
  out[0] += g.size();
}
