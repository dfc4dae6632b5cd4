// Stand-in for NCCL EP's shared host/device definitions (te-wheel test fixture).
#pragma once

#include "nccl.h"
#include "nccl_device.h"
#include "device/macros.cuh"
#include "ep_enums.h"

namespace nccl_ep {
constexpr int kMaxRanks = 1024;
constexpr int kWarpSize = 32;
struct Buffer {
  void *ptr;
  unsigned long bytes;
};
}  // namespace nccl_ep
