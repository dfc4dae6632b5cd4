// te-wheel stand-in JIT header (device/device_primitives.cuh of NCCL EP; not NVIDIA code): warp-level primitives.
#pragma once
#include "common.hpp"
#include <cuda_fp16.h>
#include <cuda_bf16.h>

EP_DEVICE_INLINE int ep_lane_id() { return threadIdx.x % 32; }
