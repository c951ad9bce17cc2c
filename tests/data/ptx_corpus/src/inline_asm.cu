__device__ __forceinline__ unsigned lop3(unsigned a, unsigned b, unsigned c) {
  unsigned d; asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d;
}
__global__ void asmk(unsigned* o, const unsigned* in, unsigned long long* w, float* f) {
  unsigned a = in[threadIdx.x], b = in[threadIdx.x + 32], r, s, t;
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(a));
  asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(s) : "r"(a), "r"(b));
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(t) : "r"(a), "r"(b), "r"(r));
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
  unsigned long long x;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(x) : "r"(a), "r"(b));
  asm("mad.hi.cc.u32 %0, %1, %2, %3;\n\taddc.u32 %1, %1, 0;" : "=r"(s), "+r"(t) : "r"(a), "r"(b));
  asm volatile("{\n\t.reg .b32 tmp;\n\tadd.cc.u32 tmp, %1, %2;\n\taddc.cc.u32 %0, %1, 1;\n\tsubc.u32 %0, %0, tmp;\n\t}" : "=r"(b) : "r"(a), "r"(t));
  unsigned v; asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(v) : "r"(a), "r"(b), "r"(0));
  unsigned q; asm("vmax2.u32.u32.u32 %0, %1, %2, %3;" : "=r"(q) : "r"(a), "r"(b), "r"(v));
  float g; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(g) : "f"(f[0]));
  float h; asm("tanh.approx.f32 %0, %1;" : "=f"(h) : "f"(g));
  float k; asm("cvt.rni.sat.f32.f32 %0, %1;" : "=f"(k) : "f"(h));
  unsigned m; asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(m) : "f"(g), "f"(h));
  unsigned short hh; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(hh) : "f"(k));
  asm volatile("prefetch.global.L2 [%0];" :: "l"(w));
  asm volatile("prefetchu.L1 [%0];" :: "l"(w + 8));
  unsigned pop; asm("popc.b64 %0, %1;" : "=r"(pop) : "l"(x));
  asm volatile("membar.gl;\n\tfence.acq_rel.gpu;");
  asm volatile("st.global.wb.u64 [%0], %1;" :: "l"(w), "l"(x));
  unsigned long long ld; asm volatile("ld.global.nc.L1::no_allocate.u64 %0, [%1];" : "=l"(ld) : "l"(w + 1));
  unsigned sel; asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(sel) : "r"(a), "r"(b), "r"((int)s));
  unsigned tst; asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(tst) : "f"(g));
  o[threadIdx.x] = lop3(r, s, t) + v + q + m + hh + pop + (unsigned)ld + sel + tst + __float_as_uint(k);
}
