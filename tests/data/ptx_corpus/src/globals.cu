struct Cfg { int n; float scale; short s[3]; char name[8]; double d; };
__constant__ Cfg cfg = {4, 1.5f, {1, 2, 3}, "abc", 2.25};
__constant__ int lut[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
__device__ float gtab[3] = {1.0f, -0.0f, 3.4e38f};
__device__ double gd[2] = {1e-300, -2.5};
__device__ unsigned long long gull = 0xdeadbeefcafef00dull;
__device__ int* gptr = nullptr;
__device__ int garr[16];
__device__ int* gptr2 = &garr[3];
__device__ const char* gstr = "hello";
struct Base { __device__ virtual float f(float x) const { return x; } __device__ virtual ~Base() {} };
struct D1 : Base { __device__ float f(float x) const override { return 2 * x; } };
struct D2 : Base { float k = 3; __device__ float f(float x) const override { return k * x; } };
__device__ float (*fns[2])(float) = {nullptr, nullptr};
__device__ float sq(float x) { return x * x; }
__device__ float cb(float x) { return x * x * x; }
__device__ float (*fptr)(float) = sq;
extern __shared__ float dyn[];
__global__ void use_globals(float* out, int k) {
  __shared__ D1 d1; __shared__ int st[4];
  D2 d2;
  const Base* b = (k & 1) ? (const Base*)&d1 : (const Base*)&d2;
  dyn[threadIdx.x] = out[threadIdx.x];
  st[threadIdx.x & 3] = lut[k & 3][threadIdx.x & 3];
  __syncthreads();
  float (*g)(float) = k ? fptr : cb;
  out[threadIdx.x] = b->f(dyn[threadIdx.x ^ 1]) + cfg.scale * cfg.s[k % 3] + gtab[k % 3] + (float)gd[k & 1] + (float)(gull >> k)
                   + (gptr ? *gptr : garr[k]) + *gptr2 + gstr[k & 3] + g(out[k]) + st[k & 3] + cfg.name[k & 7];
}
__global__ void recursion(int* out, int n);
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void recursion(int* out, int n) { out[threadIdx.x] = fib(n + threadIdx.x); }
__device__ __noinline__ void bigstruct(float4 a, float4 b, int (&arr)[8], float* out) { for (int i = 0; i < 8; i++) out[i] = arr[i] * a.x + b.w; }
__global__ void callstruct(float* out) { int arr[8]; for (int i = 0; i < 8; i++) arr[i] = i * threadIdx.x; bigstruct(make_float4(1, 2, 3, 4), make_float4(5, 6, 7, 8), arr, out); }
