/* Stand-in for the CUDA driver, libcuda.so.1 (te-wheel test fixture, not NVIDIA code): the driver functions the
 * NCCL EP stand-in calls, with CUDA's signatures and CUresult values. It reports one device, ordinal 0, of
 * compute capability 9.0 with 132 multiprocessors (an H100), and needs cuInit first, as the real driver does. */
#include <stdio.h>

#include <cuda.h>

#define API __attribute__((visibility("default")))

#define DRIVER_VERSION 12090

static int initialized;

API CUresult cuInit(unsigned int Flags) {
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  initialized = 1;
  return CUDA_SUCCESS;
}

/* Allowed before cuInit. */
API CUresult cuDriverGetVersion(int *driverVersion) {
  if (driverVersion == NULL) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = DRIVER_VERSION;
  return CUDA_SUCCESS;
}

API CUresult cuGetErrorName(CUresult error, const char **pStr) {
  if (pStr == NULL) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
    case CUDA_SUCCESS: *pStr = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_INVALID_VALUE: *pStr = "CUDA_ERROR_INVALID_VALUE"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *pStr = "CUDA_ERROR_NOT_INITIALIZED"; break;
    case CUDA_ERROR_NO_DEVICE: *pStr = "CUDA_ERROR_NO_DEVICE"; break;
    case CUDA_ERROR_INVALID_DEVICE: *pStr = "CUDA_ERROR_INVALID_DEVICE"; break;
    default: *pStr = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

API CUresult cuGetErrorString(CUresult error, const char **pStr) {
  if (pStr == NULL) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
    case CUDA_SUCCESS: *pStr = "no error"; break;
    case CUDA_ERROR_INVALID_VALUE: *pStr = "invalid argument"; break;
    case CUDA_ERROR_NOT_INITIALIZED: *pStr = "initialization error"; break;
    case CUDA_ERROR_NO_DEVICE: *pStr = "no CUDA-capable device is detected"; break;
    case CUDA_ERROR_INVALID_DEVICE: *pStr = "invalid device ordinal"; break;
    default: *pStr = NULL; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetCount(int *count) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (count == NULL) return CUDA_ERROR_INVALID_VALUE;
  *count = 1;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (device == NULL) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (name == NULL || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  snprintf(name, (size_t)len, "%s", "te-wheel stand-in GPU (sm_90)");
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  if (!initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (pi == NULL) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = 132; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *pi = 9; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *pi = 0; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}
