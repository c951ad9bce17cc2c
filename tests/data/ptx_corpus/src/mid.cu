// A kernel of about 2,500 instructions (speed measurements): a 3x3 stencil with per-point math,
// bounds checks and shared-memory tiling, unrolled over a small block of outputs.
extern "C" __global__ void stencil(const float* __restrict__ in, float* __restrict__ out, const float* __restrict__ w,
                                   int nx, int ny, float alpha) {
  __shared__ float tile[18][18];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  for (int dy = threadIdx.y; dy < 18; dy += 16)
    for (int dx = threadIdx.x; dx < 18; dx += 16) {
      int gx = min(max(blockIdx.x * 16 + dx - 1, 0), nx - 1), gy = min(max(blockIdx.y * 16 + dy - 1, 0), ny - 1);
      tile[dy][dx] = in[gy * nx + gx];
    }
  __syncthreads();
  if (x >= nx || y >= ny) return;
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < 80; ++k) {
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 9; ++j) s = fmaf(w[k * 9 + j], tile[threadIdx.y + j / 3][threadIdx.x + j % 3], s);
    acc += __expf(-s * s * alpha) * rsqrtf(fabsf(s) + 1.f + k) + sqrtf(fabsf(s) + k);
  }
  out[y * nx + x] = acc;
}
