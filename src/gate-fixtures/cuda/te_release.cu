// A Transformer Engine-shaped library in two releases, for te:diff-wheel. Its exports are real TE C API names and
// signatures (transformer_engine.h); the bodies are placeholders, since the fixture is only read, never run.
// GATE_V2 drops the deprecated nvte_set_tensor_param for nvte_set_tensor_param_v2 (an ABI break, as TE announced),
// and, through the makefile, gains a DT_NEEDED and loses an architecture.
#include <cuda_runtime.h>
#include <stddef.h>

typedef void *NVTETensor;

__global__ void zero_kernel(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 0.0f;
}

extern "C" void *nvte_tensor_data(const NVTETensor tensor) { return tensor; }

extern "C" void nvte_zero_tensor(const NVTETensor tensor, cudaStream_t stream) {
  zero_kernel<<<1, 256, 0, stream>>>(static_cast<float*>(tensor), 256);
}

#ifdef GATE_V2
extern "C" void nvte_set_tensor_param_v2(NVTETensor tensor, int param, const void *buf, size_t size_in_bytes) {
  (void)tensor; (void)param; (void)buf; (void)size_in_bytes;
}
#else
extern "C" void nvte_set_tensor_param(NVTETensor *tensor, int param_name, const void *param) {
  (void)tensor; (void)param_name; (void)param;
}
#endif
