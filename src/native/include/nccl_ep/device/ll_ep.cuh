// Stand-in JIT header (te-wheel test fixture): low-latency dispatch and combine.
#pragma once
#include "nccl_ep.h"
#include "common.hpp"
#include "ll_ep_smem.cuh"
#include "device_primitives.cuh"
