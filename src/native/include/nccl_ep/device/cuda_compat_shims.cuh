// te-wheel stand-in JIT header (device/cuda_compat_shims.cuh of NCCL EP; not NVIDIA code): shims across CUDA 12.x
// releases.
#pragma once
#include <cuda/ptx>
