// te-wheel stand-in for NCCL EP's shared host/device definitions (nccl_ep/include/common.hpp; not NVIDIA code).
// Its quoted includes are the real header's, so the JIT header tree resolves as the real one does.
#pragma once

#define NUM_MAX_LOCAL_EXPERTS 1024
#define NUM_BUFFER_ALIGNMENT_BYTES 128
#define MAX_NUM_TOPK 32

#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include "nccl.h"
#include "nccl_device.h"
#include "device/macros.cuh"
#include "ep_enums.h"

namespace nccl_ep {
// Round a byte count up to the library's buffer alignment.
inline constexpr size_t align_buffer(size_t bytes) {
  return (bytes + NUM_BUFFER_ALIGNMENT_BYTES - 1) / NUM_BUFFER_ALIGNMENT_BYTES * NUM_BUFFER_ALIGNMENT_BYTES;
}
}  // namespace nccl_ep
