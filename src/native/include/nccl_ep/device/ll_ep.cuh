// te-wheel stand-in JIT header (device/ll_ep.cuh of NCCL EP; not NVIDIA code): low-latency dispatch and combine
// kernels.
#pragma once
#include <cooperative_groups.h>
#include "nccl_ep.h"
#include "nccl_device.h"
#include "device_primitives.cuh"
#include "common.hpp"
#include "ll_ep_smem.cuh"
