// te-wheel stand-in JIT header (device/ht_ep_configs.cuh of NCCL EP; not NVIDIA code): high-throughput kernel
// configurations.
#pragma once

namespace nccl_ep {
namespace ht {
constexpr int kDispatchWarps = 4;
constexpr int kCombineWarps = 4;
}  // namespace ht
}  // namespace nccl_ep
