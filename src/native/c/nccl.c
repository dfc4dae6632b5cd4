/* Stand-in for NCCL's libnccl.so.2 (te-wheel test fixture, not NVIDIA code).
 * Reports the version chosen at build time: NCCL_VERSION_CODE = MAJOR*10000 + MINOR*100 + PATCH. */
#ifndef STANDIN_NCCL_VERSION
#define STANDIN_NCCL_VERSION 23004
#endif

typedef enum { ncclSuccess = 0, ncclInvalidArgument = 4 } ncclResult_t;

__attribute__((visibility("default"))) ncclResult_t ncclGetVersion(int *version) {
  if (version == 0) return ncclInvalidArgument;
  *version = STANDIN_NCCL_VERSION;
  return ncclSuccess;
}
