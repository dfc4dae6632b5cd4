/* te-wheel stand-in for NCCL's device API umbrella header (not NVIDIA code). The real one pulls in the device-side
 * implementation headers under nccl_device/; the stand-in has only the host-side part, nccl_device/core.h. */
#ifndef _NCCL_DEVICE_H_
#define _NCCL_DEVICE_H_

#include "nccl_device/core.h"

#endif /* _NCCL_DEVICE_H_ */
