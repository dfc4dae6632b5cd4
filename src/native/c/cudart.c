/* Stand-in for the CUDA 13 runtime, libcudart.so.13 (te-wheel test fixture, not NVIDIA code).
 *
 * A few functions TE imports from cudart, with their real names and signatures, exported under one version node,
 * libcudart.so.13, as NVIDIA's library versions every symbol (the build writes the version script from the API
 * lines below). Built twice: the newer one, and an older one compiled with -DSTANDIN_WITHOUT_<name> that lacks one
 * function (see the Makefile's CUDART_LACKING), so a library linked against the newer one fails to load against the
 * older one as it would on a machine with an older cudart. "Device memory" is host memory; streams are ignored. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNotSupported = 801,
} cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyDefault = 4 };
enum cudaDriverEntryPointQueryResult { cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1 };

/* CUDA 13.0, as cudaRuntimeGetVersion reports it (1000 * major + 10 * minor). */
#define RUNTIME_VERSION 13000

API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  if (runtimeVersion == NULL) return cudaErrorInvalidValue;
  *runtimeVersion = RUNTIME_VERSION;
  return cudaSuccess;
}

API cudaError_t cudaGetDeviceCount(int *count) {
  if (count == NULL) return cudaErrorInvalidValue;
  *count = 1;
  return cudaSuccess;
}

API cudaError_t cudaGetDevice(int *device) {
  if (device == NULL) return cudaErrorInvalidValue;
  *device = 0;
  return cudaSuccess;
}

API cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidValue; }

API cudaError_t cudaMalloc(void **devPtr, size_t size) {
  if (devPtr == NULL) return cudaErrorInvalidValue;
  *devPtr = size == 0 ? NULL : malloc(size);
  return size == 0 || *devPtr != NULL ? cudaSuccess : cudaErrorMemoryAllocation;
}

API cudaError_t cudaFree(void *devPtr) {
  free(devPtr);
  return cudaSuccess;
}

API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                cudaStream_t stream) {
  (void)kind;
  (void)stream;
  if (count > 0 && (dst == NULL || src == NULL)) return cudaErrorInvalidValue;
  if (count > 0) memmove(dst, src, count);
  return cudaSuccess;
}

API cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  (void)stream;
  return cudaSuccess;
}

API cudaError_t cudaGetLastError(void) { return cudaSuccess; }

API const char *cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNotSupported: return "operation not supported";
    default: return "unrecognized error code";
  }
}

#ifndef STANDIN_WITHOUT_cudaGetDriverEntryPointByVersion
/* There is no driver behind this runtime: every symbol is "not found". */
API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                 unsigned long long flags,
                                                 enum cudaDriverEntryPointQueryResult *driverStatus) {
  (void)cudaVersion;
  (void)flags;
  if (symbol == NULL || funcPtr == NULL) return cudaErrorInvalidValue;
  *funcPtr = NULL;
  if (driverStatus != NULL) *driverStatus = cudaDriverEntryPointSymbolNotFound;
  return cudaSuccess;
}
#endif
