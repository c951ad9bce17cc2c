#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;
__global__ void wmma_types(const __nv_bfloat16* a, const __nv_bfloat16* b, float* c, const float* ta, const float* tb,
                           const signed char* ia, const signed char* ib, int* ic, const double* da, double* dc) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta_;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tb_;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
  wmma::load_matrix_sync(ta_, ta, 8); wmma::load_matrix_sync(tb_, tb, 16); wmma::fill_fragment(tc, 1.f);
  for (int i = 0; i < ta_.num_elements; i++) ta_.x[i] = wmma::__float_to_tf32(ta_.x[i]);
  wmma::mma_sync(tc, ta_, tb_, tc);
  wmma::store_matrix_sync(c + 256, tc, 16, wmma::mem_col_major);
  wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> i8a;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::col_major> i8b;
  wmma::fragment<wmma::accumulator, 8, 32, 16, int> i8c;
  wmma::load_matrix_sync(i8a, ia, 16); wmma::load_matrix_sync(i8b, ib, 16); wmma::fill_fragment(i8c, 0);
  wmma::mma_sync(i8c, i8a, i8b, i8c, true);
  wmma::store_matrix_sync(ic, i8c, 32, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> d_a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> d_b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> d_c;
  wmma::load_matrix_sync(d_a, da, 4); wmma::load_matrix_sync(d_b, da + 32, 4); wmma::fill_fragment(d_c, 0.0);
  wmma::mma_sync(d_c, d_a, d_b, d_c);
  wmma::store_matrix_sync(dc, d_c, 8, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> b1a;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> b1b;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> b1c;
  wmma::load_matrix_sync(b1a, (const void*)ia, 128); wmma::load_matrix_sync(b1b, (const void*)ib, 128); wmma::fill_fragment(b1c, 0);
  wmma::bmma_sync(b1c, b1a, b1b, b1c, wmma::experimental::bmmaBitOpAND);
  wmma::store_matrix_sync(ic + 512, b1c, 8, wmma::mem_row_major);
}
__global__ void mma_inline(const unsigned* A, const unsigned* B, float* C) {
  __shared__ __half tile[16 * 16];
  unsigned a[4], b[2]; float c[4] = {0, 0, 0, 0};
  unsigned sa = (unsigned)__cvta_generic_to_shared(tile + (threadIdx.x % 16) * 16);
  tile[threadIdx.x] = __float2half((float)A[threadIdx.x]);
  __syncthreads();
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(sa));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(sa));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  int d[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  float e[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+f"(e[0]), "+f"(e[1]), "+f"(e[2]), "+f"(e[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %0, 0; @p bar.sync 1, 64; }" :: "r"(d[0]));
  C[threadIdx.x] = c[0] + c[1] + c[2] + c[3] + d[0] + d[3] + e[2];
}
