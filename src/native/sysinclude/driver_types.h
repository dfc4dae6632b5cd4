/* te-wheel stand-in, build only (never shipped): the CUDA runtime's error and stream types, as CUDA 12 spells
 * them. In the stand-in world a stream is an opaque pointer nobody dereferences; all work is synchronous. */
#ifndef TEWHEEL_SYSINCLUDE_DRIVER_TYPES_H
#define TEWHEEL_SYSINCLUDE_DRIVER_TYPES_H

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2
} cudaError_t;

typedef struct CUstream_st *cudaStream_t;

#endif /* TEWHEEL_SYSINCLUDE_DRIVER_TYPES_H */
