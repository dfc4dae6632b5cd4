// te-wheel stand-in JIT header (device/ht_ep.cuh of NCCL EP; not NVIDIA code): high-throughput dispatch and
// combine kernels.
#pragma once
#include "nccl_ep.h"
#include "common.hpp"
#include "device_primitives.cuh"
#include "ht_ep_configs.cuh"
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include "nccl_device.h"
#include "cuda_compat_shims.cuh"
#include "scan_kernel.cuh"
