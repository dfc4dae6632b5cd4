// te-wheel stand-in JIT header (device/ll_ep_adapter.cuh of NCCL EP; not NVIDIA code): adapts the low-latency
// kernels to the public API.
#pragma once
#include "nccl_ep.h"
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include "nccl_device.h"
#include "ep_enums.h"
#include "common.hpp"
#include "ll_ep_smem.cuh"
