// Stand-in JIT header (te-wheel test fixture): warp-level primitives.
#pragma once
#include "macros.cuh"
#include "cuda_compat_shims.cuh"
#include "nccl_device.h"

EP_DEVICE int ep_lane_id() { return threadIdx.x % 32; }
