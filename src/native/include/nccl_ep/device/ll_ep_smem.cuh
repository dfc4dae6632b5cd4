// te-wheel stand-in JIT header (device/ll_ep_smem.cuh of NCCL EP; not NVIDIA code): shared-memory layout of the
// low-latency kernels.
#pragma once
#include <cuda_runtime.h>
#include <cstdint>
