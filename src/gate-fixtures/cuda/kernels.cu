// Device code for the GPU-ARCHS fixtures: a few kernels so every fat-binary entry has real content.
#include <cuda_runtime.h>

__global__ void gate_add(float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}

__global__ void gate_scale(float* a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

extern "C" int gate_launch(float* a, const float* b, int n) {
  gate_add<<<(n + 255) / 256, 256>>>(a, b, n);
  gate_scale<<<(n + 255) / 256, 256>>>(a, 2.0f, n);
  return (int)cudaGetLastError();
}
