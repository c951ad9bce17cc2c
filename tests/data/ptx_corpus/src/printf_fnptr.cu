// printf, device function pointers (indirect calls with prototypes), recursion, local arrays.
#include <cstdio>
typedef float (*op_t)(float, float);
__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_pow(float a, float b) { return powf(a, b); }
__device__ op_t table[3] = {op_add, op_mul, op_pow};
__device__ __constant__ float coeffs[8] = {1.f, 0.5f, 0.25f, 0.125f, 2.f, 4.f, 8.f, 16.f};
__device__ int lookup[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
struct Pair { double x; int y; char tag[4]; };
__device__ __noinline__ Pair make_pair(double x, int y) { Pair p{x, y, {'a', 'b', 'c', 0}}; return p; }
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void apply(float* x, int which, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  op_t f = table[which % 3];
  x[i] = f(x[i], coeffs[i & 7]) + lookup[i & 15];
  Pair p = make_pair(x[i], i);
  if (i == 0) printf("x[%d]=%f pair=(%g,%d,%s) fib=%d\n", i, x[i], p.x, p.y, p.tag, fib(which));
}
extern "C" __global__ void local_array(int* out, int k) {
  int a[64];
  for (int j = 0; j < 64; ++j) a[j] = j * k;
  out[threadIdx.x] = a[(threadIdx.x * 7 + k) & 63];
  if (out[0] < 0) { printf("negative %lld %u\n", (long long)out[0], threadIdx.x); __trap(); }
  assert(k != 42);
}
