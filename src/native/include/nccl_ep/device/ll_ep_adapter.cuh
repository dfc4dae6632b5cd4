// Stand-in JIT header (te-wheel test fixture): adapts low-latency kernels to the public API.
#pragma once
#include "ll_ep.cuh"
#include "ep_enums.h"
#include "nccl_device.h"
