/* te-wheel stand-in, build only (never shipped). */
#ifndef TEWHEEL_SYSINCLUDE_CUDA_RUNTIME_H
#define TEWHEEL_SYSINCLUDE_CUDA_RUNTIME_H
#include "cuda_runtime_api.h"
#endif /* TEWHEEL_SYSINCLUDE_CUDA_RUNTIME_H */
