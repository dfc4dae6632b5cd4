/* Stand-in for NCCL EP's enums (te-wheel test fixture). */
#ifndef NCCL_EP_ENUMS_H_
#define NCCL_EP_ENUMS_H_

typedef enum {
  ncclEpSuccess = 0,
  ncclEpInvalidArgument = 1,
  ncclEpNcclTooOld = 2,
  ncclEpInternalError = 3
} ncclEpResult_t;

typedef enum {
  ncclEpModeHighThroughput = 0,
  ncclEpModeLowLatency = 1
} ncclEpMode_t;

#endif /* NCCL_EP_ENUMS_H_ */
