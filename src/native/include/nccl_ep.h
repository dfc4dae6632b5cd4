/* Stand-in for NCCL EP's public header (te-wheel test fixture, not NVIDIA code).
 * The version macros below are the single source of truth: the stand-in build parses them for the
 * library's SONAME and file name, as the NCCL EP build does. */
#ifndef NCCL_EP_H_
#define NCCL_EP_H_

#define NCCL_EP_MAJOR 0
#define NCCL_EP_MINOR 1
#define NCCL_EP_PATCH 0
#define NCCL_EP_VERSION_CODE(major, minor, patch) ((major) * 10000 + (minor) * 100 + (patch))
#define NCCL_EP_VERSION NCCL_EP_VERSION_CODE(NCCL_EP_MAJOR, NCCL_EP_MINOR, NCCL_EP_PATCH)

#include "nccl_ep/ep_enums.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ncclEpComm *ncclEpComm_t;

/* Writes MAJOR*10000 + MINOR*100 + PATCH of the loaded library. */
ncclEpResult_t ncclEpGetVersion(int *version);
ncclEpResult_t ncclEpCommInit(ncclEpComm_t *comm, int rank, int nranks);
ncclEpResult_t ncclEpCommDestroy(ncclEpComm_t comm);
ncclEpResult_t ncclEpDispatch(ncclEpComm_t comm, const void *input, void *output, unsigned long count);
ncclEpResult_t ncclEpCombine(ncclEpComm_t comm, const void *input, void *output, unsigned long count);
const char *ncclEpGetErrorString(ncclEpResult_t result);

#ifdef __cplusplus
}
#endif

#endif /* NCCL_EP_H_ */
