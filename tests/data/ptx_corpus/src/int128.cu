__global__ void i128(const unsigned __int128* a, unsigned __int128* o, __int128* s) {
  unsigned __int128 x = a[threadIdx.x], y = a[threadIdx.x + 1];
  o[threadIdx.x] = x * y + (x >> 7) - (y << 65) + (x ^ y) + (x > y ? x / 3 : y % 5);
  __int128 z = s[threadIdx.x];
  s[threadIdx.x] = z * -3 + (z >> 100) + (__int128)(z < 0) + z / 7;
}
