#include <cub/cub.cuh>
template <int BLOCK, int ITEMS, typename T>
__global__ void block_reduce_scan(const T* in, T* out, T* sums) {
  using Load = cub::BlockLoad<T, BLOCK, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<T, BLOCK, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<T, BLOCK>;
  using Red = cub::BlockReduce<T, BLOCK>;
  __shared__ union { typename Load::TempStorage l; typename Store::TempStorage s;
                     typename Scan::TempStorage sc; typename Red::TempStorage r; } tmp;
  T items[ITEMS];
  int off = blockIdx.x * BLOCK * ITEMS;
  Load(tmp.l).Load(in + off, items);
  __syncthreads();
  T agg;
  Scan(tmp.sc).ExclusiveSum(items, items, agg);
  __syncthreads();
  T r = Red(tmp.r).Reduce(items, cuda::maximum<>());
  if (threadIdx.x == 0) sums[blockIdx.x] = agg + r;
  __syncthreads();
  Store(tmp.s).Store(out + off, items);
}
template __global__ void block_reduce_scan<128, 4, int>(const int*, int*, int*);
template __global__ void block_reduce_scan<256, 2, float>(const float*, float*, float*);
template __global__ void block_reduce_scan<64, 8, double>(const double*, double*, double*);
template __global__ void block_reduce_scan<128, 4, unsigned long long>(const unsigned long long*, unsigned long long*, unsigned long long*);

__global__ void radix(unsigned* keys, float* vals) {
  using Sort = cub::BlockRadixSort<unsigned, 128, 4, float>;
  __shared__ typename Sort::TempStorage tmp;
  unsigned k[4]; float v[4];
  for (int i = 0; i < 4; ++i) { k[i] = keys[threadIdx.x * 4 + i]; v[i] = vals[threadIdx.x * 4 + i]; }
  Sort(tmp).SortBlockedToStriped(k, v);
  for (int i = 0; i < 4; ++i) { keys[threadIdx.x + i * 128] = k[i]; vals[threadIdx.x + i * 128] = v[i]; }
}

__global__ void warp_ops(const int* in, int* out) {
  using WR = cub::WarpReduce<int>;
  using WS = cub::WarpScan<int>;
  __shared__ typename WR::TempStorage wr[4];
  __shared__ typename WS::TempStorage ws[4];
  int w = threadIdx.x / 32;
  int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = WR(wr[w]).Sum(x);
  int p; WS(ws[w]).InclusiveScan(x, p, cuda::minimum<>());
  out[blockIdx.x * blockDim.x + threadIdx.x] = s + p;
}

__global__ void histo(const unsigned char* in, unsigned* bins) {
  using H = cub::BlockHistogram<unsigned char, 128, 4, 256>;
  __shared__ typename H::TempStorage tmp;
  __shared__ unsigned sh[256];
  unsigned char d[4];
  for (int i = 0; i < 4; ++i) d[i] = in[blockIdx.x * 512 + threadIdx.x * 4 + i];
  H(tmp).Histogram(d, sh);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 128) atomicAdd(&bins[i], sh[i]);
}
