// The large library of the GPU-ARCHS benchmark (gate-fixtures.mk's bench target): 20 kernels with long unrolled
// bodies, compiled for four architectures plus PTX; the makefile links 60 copies of the object into one library of
// about 280 MB, as large as TE's. Never committed as a binary; built when the benchmark sets up.
#include <cuda_runtime.h>

template <int N>
__global__ void big_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = in[i], b = in[(i + N) % n], c = 0.f;
#pragma unroll
  for (int k = 0; k < 1024; ++k) {
    c = fmaf(a, b + k * N, c);
    a = fmaf(c, 0.5f, (float)(k ^ N));
    if ((k & 63) == N % 64) b = in[(i + k) % n];
  }
  out[i] = a + b + c;
}

#define BIG_CASE(k) case k: big_kernel<k><<<1, 256>>>(o, in, n); break;

extern "C" int big_launch(float* o, const float* in, int n, int which) {
  switch (which) {
    BIG_CASE(0) BIG_CASE(1) BIG_CASE(2) BIG_CASE(3) BIG_CASE(4) BIG_CASE(5) BIG_CASE(6) BIG_CASE(7) BIG_CASE(8)
    BIG_CASE(9) BIG_CASE(10) BIG_CASE(11) BIG_CASE(12) BIG_CASE(13) BIG_CASE(14) BIG_CASE(15) BIG_CASE(16)
    BIG_CASE(17) BIG_CASE(18) BIG_CASE(19)
  }
  return (int)cudaGetLastError();
}
