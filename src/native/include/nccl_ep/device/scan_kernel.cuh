// te-wheel stand-in JIT header (device/scan_kernel.cuh of NCCL EP; not NVIDIA code): prefix sums over token counts.
#pragma once
#include "common.hpp"
#include "device_primitives.cuh"
#include <cooperative_groups.h>
