template <typename T, int R> struct Stencil {
  __device__ static T apply(const T* s, int i) { T acc = T(0); _Pragma("unroll") for (int k = -R; k <= R; ++k) acc += s[i + k] * T(R - (k < 0 ? -k : k) + 1); return acc; }
};
template <typename T, int R, int BS>
__global__ void stencil1d(const T* __restrict__ in, T* __restrict__ out, int n) {
  __shared__ T tile[BS + 2 * R];
  int g = blockIdx.x * BS + threadIdx.x;
  tile[threadIdx.x + R] = g < n ? in[g] : T(0);
  if (threadIdx.x < R) { tile[threadIdx.x] = g >= R ? in[g - R] : T(0); tile[threadIdx.x + BS + R] = g + BS < n ? in[g + BS] : T(0); }
  __syncthreads();
  if (g < n) out[g] = Stencil<T, R>::apply(tile, threadIdx.x + R);
}
template __global__ void stencil1d<float, 3, 256>(const float*, float*, int);
template __global__ void stencil1d<double, 2, 128>(const double*, double*, int);
template __global__ void stencil1d<int, 4, 64>(const int*, int*, int);
template __global__ void stencil1d<short, 1, 32>(const short*, short*, int);
template <typename T> __global__ void transpose(const T* in, T* out, int w, int h) {
  __shared__ T t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) if (x < w && y + j < h) t[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) if (x < h && y + j < w) out[(y + j) * h + x] = t[threadIdx.x][threadIdx.y + j];
}
template __global__ void transpose<float2>(const float2*, float2*, int, int);
template __global__ void transpose<char>(const char*, char*, int, int);
template __global__ void transpose<long long>(const long long*, long long*, int, int);
__global__ void matmul(const float* A, const float* B, float* C, int N) {
  __shared__ float As[16][16], Bs[16][16];
  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x; float acc = 0;
  for (int t = 0; t < N / 16; ++t) {
    As[threadIdx.y][threadIdx.x] = A[r * N + t * 16 + threadIdx.x]; Bs[threadIdx.y][threadIdx.x] = B[(t * 16 + threadIdx.y) * N + c];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[r * N + c] = acc;
}
__global__ void __launch_bounds__(128, 4) bounded(float4* v, const int4* i, char4* c, const double2* d, ushort2* u) {
  int t = threadIdx.x; float4 a = v[t]; int4 b = i[t]; double2 e = d[t];
  v[t] = make_float4(a.x + b.y, a.y * b.x, a.z - b.w, (float)e.y);
  c[t] = make_char4(b.x, b.y, b.z, b.w); u[t] = make_ushort2(b.x, (unsigned short)e.x);
}
__global__ void __maxnreg__(32) limited(float* f) { f[threadIdx.x] = sqrtf(f[threadIdx.x]) * 3.f; }
