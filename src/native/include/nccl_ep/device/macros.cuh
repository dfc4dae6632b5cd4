// te-wheel stand-in JIT header (device/macros.cuh of NCCL EP; not NVIDIA code): helper macros.
#pragma once
#include <exception>
#include <string>
#include <cuda_runtime.h>

#define EP_DEVICE_INLINE __device__ __forceinline__
#define EP_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
