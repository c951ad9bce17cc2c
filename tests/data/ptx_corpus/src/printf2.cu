#include <cstdio>
#include <cassert>
struct S { int a; double b; };
__device__ void show(const S& s, const char* tag) { printf("%s: a=%d b=%f p=%p\n", tag, s.a, s.b, &s); }
__global__ void prints(const S* in, long long big, unsigned short us, char c) {
  S s = in[threadIdx.x];
  assert(s.a >= 0);
  printf("tid %d big %lld us %hu c %c f %e g %g x %x\n", threadIdx.x, big, us, c, (float)s.b, s.b, s.a);
  show(s, "item");
  if (s.a > 100) __trap();
  if (s.a == 42) __brkpt();
}
