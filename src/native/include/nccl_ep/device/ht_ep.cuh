// Stand-in JIT header (te-wheel test fixture): high-throughput dispatch and combine.
#pragma once
#include "nccl_ep.h"
#include "common.hpp"
#include "ht_ep_configs.cuh"
#include "device_primitives.cuh"
#include "scan_kernel.cuh"
