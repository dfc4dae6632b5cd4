/* te-wheel stand-in for the host side of NCCL's device API (nccl_device/core.h, not NVIDIA code): the types and
 * functions NCCL EP calls on the host to build device communicators, query a communicator and name teams. */
#ifndef _NCCL_DEVICE_CORE_H_
#define _NCCL_DEVICE_CORE_H_

#include <nccl.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t ncclDevResourceHandle;
typedef ncclDevResourceHandle ncclDevResourceHandle_t;
typedef uint32_t ncclGinSignal_t;
typedef uint32_t ncclGinCounter_t;

struct ncclMultimemHandle;
typedef struct ncclMultimemHandle ncclMultimemHandle_t;

/* A set of ranks: nRanks of them, this process being `rank`, neighbours `stride` world ranks apart. */
struct ncclTeam {
  int nRanks, rank, stride;
};
typedef struct ncclTeam ncclTeam_t;

typedef enum {
  NCCL_GIN_CONNECTION_NONE,
  NCCL_GIN_CONNECTION_FULL,
  NCCL_GIN_CONNECTION_RAIL,
} ncclGinConnectionType_t;

typedef struct ncclDevResourceRequirements ncclDevResourceRequirements_t;
struct ncclDevResourceRequirements {
  ncclDevResourceRequirements_t *next;
  size_t bufferSize, bufferAlign;
  ncclDevResourceHandle_t *outBufferHandle;
  int ginSignalCount;
  int ginCounterCount;
  ncclGinSignal_t *outGinSignalStart;
  ncclGinCounter_t *outGinCounterStart;
};

typedef struct ncclTeamRequirements ncclTeamRequirements_t;
struct ncclTeamRequirements {
  ncclTeamRequirements_t *next;
  ncclTeam_t team;
  bool multimem;
  ncclMultimemHandle_t *outMultimemHandle;
};

/* What a device communicator must provide; start from NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER. */
typedef struct ncclDevCommRequirements {
  size_t size;
  unsigned int magic;
  unsigned int version;
  ncclDevResourceRequirements_t *resourceRequirementsList;
  ncclTeamRequirements_t *teamRequirementsList;
  bool lsaMultimem;
  int barrierCount;
  int lsaBarrierCount;
  int railGinBarrierCount;
  int lsaLLA2ABlockCount, lsaLLA2ASlotCount;
  bool ginForceEnable;
  int ginContextCount;
  int ginSignalCount;
  int ginCounterCount;
  ncclGinConnectionType_t ginConnectionType;
  bool ginExclusiveContexts;
  int ginQueueDepth;
  int ginTrafficClass;
  int worldGinBarrierCount;
  bool ginStrongSignalsRequired;
  bool ginVaSignalsRequired;
} ncclDevCommRequirements_t;

#define NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER                                                                 \
  {                                                                                                            \
    sizeof(ncclDevCommRequirements_t), NCCL_API_MAGIC, NCCL_VERSION_CODE, NULL, NULL, false, 0, 0, 0, 0, 0,    \
        false, 4, 0, 0, NCCL_GIN_CONNECTION_NONE, false, 0, NCCL_CONFIG_UNDEF_INT, 0, true, true                \
  }

/* A device communicator, filled by ncclDevCommCreate. The real struct goes on with window tables, barrier and
 * GIN handles that only device code reads; the stand-in has the leading fields. */
typedef struct ncclDevComm {
  unsigned int magic;
  unsigned int version;
  int rank, nRanks;
  uint32_t nRanks_rcp32;
  int lsaRank, lsaSize;
  uint32_t lsaSize_rcp32;
} ncclDevComm_t;

typedef enum {
  NCCL_GIN_TYPE_NONE = 0,
  NCCL_GIN_TYPE_PROXY = 2,
  NCCL_GIN_TYPE_GDAKI = 3,
  NCCL_GIN_TYPE_GPI = 4,
} ncclGinType_t;

/* What ncclCommQueryProperties reports; start from NCCL_COMM_PROPERTIES_INITIALIZER. */
typedef struct ncclCommProperties {
  size_t size;
  unsigned int magic;
  unsigned int version;
  int rank;
  int nRanks;
  int cudaDev;
  int nvmlDev;
  bool deviceApiSupport;
  bool multimemSupport;
  ncclGinType_t ginType;
  int nLsaTeams;
  bool hostRmaSupport;
  ncclGinType_t railedGinType;
} ncclCommProperties_t;

#define NCCL_COMM_PROPERTIES_INITIALIZER \
  { sizeof(ncclCommProperties_t), NCCL_API_MAGIC, NCCL_VERSION_CODE }

ncclResult_t ncclCommQueryProperties(ncclComm_t comm, ncclCommProperties_t *props);
ncclResult_t ncclDevCommCreate(ncclComm_t comm, ncclDevCommRequirements_t const *reqs, ncclDevComm_t *outDevComm);
ncclResult_t ncclDevCommDestroy(ncclComm_t comm, ncclDevComm_t const *devComm);
ncclResult_t ncclGetPeerDevicePointer(ncclWindow_t window, size_t offset, int peer, void **outPtr);

ncclTeam_t ncclTeamWorld(ncclComm_t comm);
ncclTeam_t ncclTeamLsa(ncclComm_t comm);
ncclTeam_t ncclTeamRail(ncclComm_t comm);
int ncclTeamRankToWorld(ncclComm_t comm, ncclTeam_t team, int rank);

#ifdef __cplusplus
}
#endif

#endif /* _NCCL_DEVICE_CORE_H_ */
