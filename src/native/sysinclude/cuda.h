/* te-wheel stand-in, build only (never shipped): the part of the CUDA driver API header that the stand-in
 * libraries compile against. Names, types and values follow CUDA 12's cuda.h; everything else is left out. */
#ifndef TEWHEEL_SYSINCLUDE_CUDA_H
#define TEWHEEL_SYSINCLUDE_CUDA_H

#define CUDA_VERSION 12090

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101
} CUresult;

typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef struct CUstream_st *CUstream;

typedef enum CUdevice_attribute_enum {
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
} CUdevice_attribute;

CUresult cuInit(unsigned int Flags);
CUresult cuDriverGetVersion(int *driverVersion);
CUresult cuGetErrorString(CUresult error, const char **pStr);
CUresult cuGetErrorName(CUresult error, const char **pStr);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);

#ifdef __cplusplus
}
#endif

#endif /* TEWHEEL_SYSINCLUDE_CUDA_H */
