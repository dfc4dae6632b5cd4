// A Transformer Engine-shaped library in two releases, for te:diff-wheel: GATE_V2 removes an export, adds one,
// and (through the makefile) gains a DT_NEEDED and loses an architecture.
#include <cuda_runtime.h>
#include <math.h>

__global__ void nvte_kernel(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 0.5f + 1.0f;
}

extern "C" int nvte_get_version(void) {
#ifdef GATE_V2
  return 2100;
#else
  return 2090;
#endif
}

extern "C" int nvte_launch(float* a, int n) {
  nvte_kernel<<<(n + 255) / 256, 256>>>(a, n);
  return (int)cudaGetLastError();
}

#ifdef GATE_V2
extern "C" double nvte_norm(double x) { return sqrt(x); }
#else
extern "C" int nvte_legacy_api(int x) { return x + 1; }
#endif
