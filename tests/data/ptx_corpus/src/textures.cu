// Texture and surface objects.
extern "C" __global__ void tex_sample(cudaTextureObject_t t2, cudaTextureObject_t t1, cudaTextureObject_t t3, float4* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float4 a = tex2D<float4>(t2, u, v);
  float4 b = tex2DLod<float4>(t2, u, v, 1.5f);
  float c = tex1Dfetch<float>(t1, x);
  float4 d = tex3D<float4>(t3, u, v, 0.5f);
  float4 g = tex2Dgather<float4>(t2, u, v, 1);
  out[y * w + x] = make_float4(a.x + b.y + d.z + g.w, c, a.z * b.x, d.w);
}
extern "C" __global__ void surf_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar4 p;
  surf2Dread(&p, src, x * 4, y);
  p.x = 255 - p.x;
  surf2Dwrite(p, dst, x * 4, y);
  float q;
  surf1Dread(&q, src, x * 4, cudaBoundaryModeClamp);
  surf1Dwrite(q * 2.f, dst, x * 4, cudaBoundaryModeZero);
}
