__global__ void dmath(const double* a, double* o, const float* f, float* fo, long long* ll) {
  int i = threadIdx.x;
  double x = a[i];
  o[i] = sqrt(x) + rsqrt(x) + exp(x) + log1p(x) + sin(x) * cos(x) + pow(x, 1.5) + fma(x, x, 1.0) + __drcp_rn(x) + __dsqrt_rz(x)
       + __dadd_ru(x, 1.0) + __dmul_rd(x, 2.0) + __ddiv_rn(x, 3.0) + erf(x) + tgamma(x) + atan2(x, 1.0) + cbrt(x) + hypot(x, 2.0)
       + fmod(x, 3.0) + remainder(x, 2.0) + ldexp(x, 3) + logb(x) + trunc(x) + round(x) + rint(x) + nearbyint(x) + floor(x) + ceil(x)
       + (double)__double2ll_rz(x) + (double)__double2uint_ru(x) + __longlong_as_double(__double_as_longlong(x) ^ 1) + copysign(x, -1.0)
       + fmax(x, 1.0) + fmin(x, -1.0) + fabs(x) + (isnan(x) ? 1.0 : 0.0) + (isinf(x) ? 2.0 : 0.0) + __hiloint2double(__double2hiint(x), 3);
  float y = f[i];
  fo[i] = __fdividef(y, 3.f) + __expf(y) + __logf(y) + __sinf(y) + __cosf(y) + __tanf(y) + __powf(y, 2.f) + __saturatef(y)
        + __fmaf_rn(y, y, y) + __fmul_rz(y, y) + __frcp_rd(y) + __fsqrt_ru(y) + rsqrtf(y) + erfcf(y) + lgammaf(y) + normcdff(y)
        + (float)__float2ll_rn(y) + __int_as_float(__float_as_int(y) | 1) + __fadd_rn(y, 1.f) + exp10f(y) + __frsqrt_rn(y);
  ll[i] = llrint(x) + llround(y) + __mul64hi(ll[i], 7) + __umul64hi(ll[i], 9) + __clzll(ll[i]) + __popcll(ll[i]) + __ffsll(ll[i]) + __brevll(ll[i]);
}
