__global__ void texk(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3, cudaTextureObject_t tl,
                     cudaSurfaceObject_t s2, cudaSurfaceObject_t s3, float4* out, float x, float y) {
  int i = threadIdx.x;
  float a = tex1Dfetch<float>(t1, i);
  float4 b = tex2D<float4>(t2, x + i, y);
  float c = tex3D<float>(t3, x, y, i * 0.5f);
  float d = tex2DLod<float>(t2, x, y, 1.5f);
  float4 g = tex2Dgather<float4>(t2, x, y, 1);
  float l = tex2DLayered<float>(tl, x, y, 2);
  float gr = tex2DGrad<float>(t2, x, y, make_float2(1, 0), make_float2(0, 1));
  int q = tex1D<int>(t1, x);
  uchar4 u = tex1Dfetch<uchar4>(t1, i);
  float4 sv; surf2Dread(&sv, s2, i * 16, 3);
  surf2Dwrite(make_float4(a, c, d, l + gr), s2, i * 16, 0);
  surf3Dwrite(q + u.x, s3, i * 4, 1, 2, cudaBoundaryModeClamp);
  short sh; surf2Dread(&sh, s2, i * 2, 1, cudaBoundaryModeZero);
  out[i] = make_float4(b.x + g.y + sv.z, b.y + sh, b.z, b.w);
}
__global__ void cube(cudaTextureObject_t tc, float* out) {
  out[threadIdx.x] = texCubemap<float>(tc, 0.1f * threadIdx.x, 0.5f, 1.0f);
}
