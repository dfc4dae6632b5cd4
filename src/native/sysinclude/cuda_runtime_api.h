/* te-wheel stand-in, build only (never shipped): what the stand-ins take from the CUDA runtime API header. */
#ifndef TEWHEEL_SYSINCLUDE_CUDA_RUNTIME_API_H
#define TEWHEEL_SYSINCLUDE_CUDA_RUNTIME_API_H

#define CUDART_VERSION 12090

#include "driver_types.h"

#endif /* TEWHEEL_SYSINCLUDE_CUDA_RUNTIME_API_H */
