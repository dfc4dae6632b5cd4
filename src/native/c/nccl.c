/* Stand-in for NCCL's libnccl.so.2 (te-wheel test fixture, not NVIDIA code).
 *
 * Real names, signatures and result codes (nccl.h, nccl_device.h). Its version is the NCCL_VERSION_CODE of the
 * nccl.h it is compiled against, which the build writes for the version asked of it (e.g. 23004). A communicator
 * lives in this process only: one rank (nranks == 1) is supported and collectives are copies. "Device memory" is
 * host memory, so callers can read what NCCL and NCCL EP wrote. Everything is synchronous; streams are accepted
 * and ignored. The functions a version exports are nccl-exports/<release>.list: the build hides the ones defined here
 * that the version lacks and stubs the ones it has that are not defined here (nccl_stubs.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nccl.h>
#include <nccl_device.h>

#define API __attribute__((visibility("default")))

/* The real library carries its release in read-only data ("NCCL version 2.30.4+cuda13.0"), the one fact that names
 * it when pip's wheel ships it as plain libnccl.so.2; te-wheel's SYMBOL-FLOOR reads it. */
#define STANDIN_TEXT(x) #x
#define STANDIN_NUMBER(x) STANDIN_TEXT(x)
__attribute__((used)) static const char release_text[] = "NCCL version " STANDIN_NUMBER(NCCL_MAJOR) "."
    STANDIN_NUMBER(NCCL_MINOR) "." STANDIN_NUMBER(NCCL_PATCH) "+cuda13.0";

/* Bytes 0..7 of an ncclUniqueId made here; anything else is not an id of ours. */
static const char ID_MAGIC[8] = {'t', 'e', 'w', 'h', 'e', 'e', 'l', 'N'};
#define COMM_MAGIC 0x4e43434cu /* "NCCL" */

struct ncclComm {
  unsigned int magic;
  int nranks;
  int rank;
  int cuda_dev;
  int finalized;
};

struct ncclWindow_vidmem {
  ncclComm_t comm;
  char *base;
  size_t size;
  int flags;
};

static char last_error[256];
static int group_depth;
static atomic_uint id_counter;

static ncclResult_t fail(ncclResult_t result, const char *what) {
  snprintf(last_error, sizeof last_error, "%s", what);
  return result;
}

/* Called by the stubs of c/nccl_stubs.c (hidden: only this library's own objects call it). */
__attribute__((visibility("hidden"))) int ncclStandInUnsupported(const char *name);
int ncclStandInUnsupported(const char *name) {
  char message[128];
  snprintf(message, sizeof message, "%s: not implemented by the NCCL stand-in", name);
  return fail(ncclInvalidUsage, message);
}

static int comm_ok(const struct ncclComm *comm) { return comm != NULL && comm->magic == COMM_MAGIC; }

static size_t type_size(ncclDataType_t type) {
  switch (type) {
    case ncclInt8: case ncclUint8: case ncclFloat8e4m3: case ncclFloat8e5m2: return 1;
    case ncclFloat16: case ncclBfloat16: return 2;
    case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
    case ncclInt64: case ncclUint64: case ncclFloat64: return 8;
    default: return 0;
  }
}

API ncclResult_t ncclGetVersion(int *version) {
  if (version == NULL) return fail(ncclInvalidArgument, "ncclGetVersion: version argument is NULL");
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

API const char *ncclGetErrorString(ncclResult_t result) {
  switch (result) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    case ncclTimeout: return "timeout";
    default: return "unknown result code";
  }
}

/* The text of the last failure, whichever communicator it concerned (NCCL, too, keeps one for the process). */
API const char *ncclGetLastError(ncclComm_t comm) {
  (void)comm;
  return last_error;
}

API ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId) {
  if (uniqueId == NULL) return fail(ncclInvalidArgument, "ncclGetUniqueId: uniqueId argument is NULL");
  memset(uniqueId, 0, sizeof *uniqueId);
  memcpy(uniqueId->internal, ID_MAGIC, sizeof ID_MAGIC);
  uint64_t pid = (uint64_t)getpid();
  unsigned int serial = atomic_fetch_add(&id_counter, 1u) + 1u;
  memcpy(uniqueId->internal + 8, &pid, sizeof pid);
  memcpy(uniqueId->internal + 16, &serial, sizeof serial);
  return ncclSuccess;
}

/* One rank joins in-process. Several ranks would need other processes to rendezvous with, which the stand-in
 * has not: nranks > 1 is ncclInvalidUsage. */
static ncclResult_t init_rank(ncclComm_t *comm, int nranks, const ncclUniqueId *id, int rank) {
  if (comm == NULL) return fail(ncclInvalidArgument, "ncclCommInitRank: comm argument is NULL");
  *comm = NULL;
  if (nranks < 1) return fail(ncclInvalidArgument, "ncclCommInitRank: invalid nranks");
  if (rank < 0 || rank >= nranks) return fail(ncclInvalidArgument, "ncclCommInitRank: rank out of range");
  if (memcmp(id->internal, ID_MAGIC, sizeof ID_MAGIC) != 0) {
    return fail(ncclInvalidArgument, "ncclCommInitRank: the unique id was not made by ncclGetUniqueId");
  }
  if (nranks > 1) {
    return fail(ncclInvalidUsage, "ncclCommInitRank: the stand-in NCCL supports one rank per communicator");
  }
  struct ncclComm *made = calloc(1, sizeof *made);
  if (made == NULL) return fail(ncclSystemError, "ncclCommInitRank: out of memory");
  made->magic = COMM_MAGIC;
  made->nranks = nranks;
  made->rank = rank;
  made->cuda_dev = 0;
  *comm = made;
  return ncclSuccess;
}

API ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank) {
  return init_rank(comm, nranks, &commId, rank);
}

API ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank,
                                        ncclConfig_t *config) {
  if (config != NULL && (config->magic != NCCL_API_MAGIC || config->size < offsetof(ncclConfig_t, blocking))) {
    return fail(ncclInvalidArgument, "ncclCommInitRankConfig: config was not set from NCCL_CONFIG_INITIALIZER");
  }
  return init_rank(comm, nranks, &commId, rank);
}

API ncclResult_t ncclCommFinalize(ncclComm_t comm) {
  if (!comm_ok(comm)) return fail(ncclInvalidArgument, "ncclCommFinalize: invalid communicator");
  comm->finalized = 1;
  return ncclSuccess;
}

API ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  if (comm == NULL) return ncclSuccess;
  if (!comm_ok(comm)) return fail(ncclInvalidArgument, "ncclCommDestroy: invalid communicator");
  comm->magic = 0;
  free(comm);
  return ncclSuccess;
}

API ncclResult_t ncclCommAbort(ncclComm_t comm) { return ncclCommDestroy(comm); }

API ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError) {
  if (!comm_ok(comm) || asyncError == NULL) return fail(ncclInvalidArgument, "ncclCommGetAsyncError: bad argument");
  *asyncError = ncclSuccess;
  return ncclSuccess;
}

API ncclResult_t ncclCommCount(const ncclComm_t comm, int *count) {
  if (!comm_ok(comm) || count == NULL) return fail(ncclInvalidArgument, "ncclCommCount: bad argument");
  *count = comm->nranks;
  return ncclSuccess;
}

API ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *device) {
  if (!comm_ok(comm) || device == NULL) return fail(ncclInvalidArgument, "ncclCommCuDevice: bad argument");
  *device = comm->cuda_dev;
  return ncclSuccess;
}

API ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank) {
  if (!comm_ok(comm) || rank == NULL) return fail(ncclInvalidArgument, "ncclCommUserRank: bad argument");
  *rank = comm->rank;
  return ncclSuccess;
}

/* Zeroed and aligned as NCCL's windows require. */
API ncclResult_t ncclMemAlloc(void **ptr, size_t size) {
  if (ptr == NULL) return fail(ncclInvalidArgument, "ncclMemAlloc: ptr argument is NULL");
  *ptr = NULL;
  if (size == 0) return fail(ncclInvalidArgument, "ncclMemAlloc: size is 0");
  size_t rounded = (size + NCCL_WIN_REQUIRED_ALIGNMENT - 1) / NCCL_WIN_REQUIRED_ALIGNMENT * NCCL_WIN_REQUIRED_ALIGNMENT;
  void *memory = NULL;
  if (posix_memalign(&memory, NCCL_WIN_REQUIRED_ALIGNMENT, rounded) != 0) {
    return fail(ncclSystemError, "ncclMemAlloc: out of memory");
  }
  memset(memory, 0, rounded);
  *ptr = memory;
  return ncclSuccess;
}

API ncclResult_t ncclMemFree(void *ptr) {
  free(ptr);
  return ncclSuccess;
}

API ncclResult_t ncclCommWindowRegister(ncclComm_t comm, void *buff, size_t size, ncclWindow_t *win, int winFlags) {
  if (!comm_ok(comm) || win == NULL || (buff == NULL && size > 0)) {
    return fail(ncclInvalidArgument, "ncclCommWindowRegister: bad argument");
  }
  struct ncclWindow_vidmem *made = calloc(1, sizeof *made);
  if (made == NULL) return fail(ncclSystemError, "ncclCommWindowRegister: out of memory");
  made->comm = comm;
  made->base = buff;
  made->size = size;
  made->flags = winFlags;
  *win = made;
  return ncclSuccess;
}

API ncclResult_t ncclCommWindowDeregister(ncclComm_t comm, ncclWindow_t win) {
  if (!comm_ok(comm) || win == NULL || win->comm != comm) {
    return fail(ncclInvalidArgument, "ncclCommWindowDeregister: bad argument");
  }
  free(win);
  return ncclSuccess;
}

API ncclResult_t ncclWinGetUserPtr(ncclComm_t comm, ncclWindow_t win, void **outUserPtr) {
  if (!comm_ok(comm) || win == NULL || outUserPtr == NULL) {
    return fail(ncclInvalidArgument, "ncclWinGetUserPtr: bad argument");
  }
  *outUserPtr = win->base;
  return ncclSuccess;
}

API ncclResult_t ncclGetPeerDevicePointer(ncclWindow_t window, size_t offset, int peer, void **outPtr) {
  if (window == NULL || outPtr == NULL || offset > window->size) {
    return fail(ncclInvalidArgument, "ncclGetPeerDevicePointer: bad argument");
  }
  if (peer != window->comm->rank) return fail(ncclInvalidArgument, "ncclGetPeerDevicePointer: no such peer");
  *outPtr = window->base + offset;
  return ncclSuccess;
}

/* With one rank every collective is a copy of this rank's contribution. */
static ncclResult_t copy_collective(const char *name, const void *sendbuff, void *recvbuff, size_t count,
                                    ncclDataType_t datatype, ncclComm_t comm) {
  char message[96];
  size_t size = type_size(datatype);
  if (!comm_ok(comm) || size == 0 || (count > 0 && (sendbuff == NULL || recvbuff == NULL))) {
    snprintf(message, sizeof message, "%s: bad argument", name);
    return fail(ncclInvalidArgument, message);
  }
  if (count > 0 && sendbuff != recvbuff) memmove(recvbuff, sendbuff, count * size);
  return ncclSuccess;
}

API ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  if ((int)op < 0 || op >= ncclNumOps) return fail(ncclInvalidArgument, "ncclAllReduce: invalid reduction");
  return copy_collective("ncclAllReduce", sendbuff, recvbuff, count, datatype, comm);
}

API ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, int root,
                               ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  if (comm_ok(comm) && (root < 0 || root >= comm->nranks)) return fail(ncclInvalidArgument, "ncclBroadcast: root");
  return copy_collective("ncclBroadcast", sendbuff, recvbuff, count, datatype, comm);
}

API ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                               ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  return copy_collective("ncclAllGather", sendbuff, recvbuff, sendcount, datatype, comm);
}

API ncclResult_t ncclGroupStart(void) {
  group_depth++;
  return ncclSuccess;
}

API ncclResult_t ncclGroupEnd(void) {
  if (group_depth == 0) return fail(ncclInvalidUsage, "ncclGroupEnd: not in a group call");
  group_depth--;
  return ncclSuccess;
}

/* The device API's host side. */

API ncclResult_t ncclCommQueryProperties(ncclComm_t comm, ncclCommProperties_t *props) {
  if (!comm_ok(comm) || props == NULL || props->magic != NCCL_API_MAGIC) {
    return fail(ncclInvalidArgument, "ncclCommQueryProperties: bad argument (use NCCL_COMM_PROPERTIES_INITIALIZER)");
  }
  ncclCommProperties_t known = {.size = props->size, .magic = props->magic, .version = props->version};
  known.rank = comm->rank;
  known.nRanks = comm->nranks;
  known.cudaDev = comm->cuda_dev;
  known.nvmlDev = comm->cuda_dev;
  known.deviceApiSupport = true;
  known.multimemSupport = false;
  known.ginType = NCCL_GIN_TYPE_NONE;
  known.nLsaTeams = 1;
  known.hostRmaSupport = false;
  known.railedGinType = NCCL_GIN_TYPE_NONE;
  /* An older caller's struct is shorter: fill what it has room for. */
  size_t room = props->size < sizeof known ? props->size : sizeof known;
  memcpy(props, &known, room);
  return ncclSuccess;
}

API ncclResult_t ncclDevCommCreate(ncclComm_t comm, ncclDevCommRequirements_t const *reqs, ncclDevComm_t *outDevComm) {
  if (!comm_ok(comm) || reqs == NULL || outDevComm == NULL || reqs->magic != NCCL_API_MAGIC) {
    return fail(ncclInvalidArgument, "ncclDevCommCreate: bad argument (use NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER)");
  }
  memset(outDevComm, 0, sizeof *outDevComm);
  outDevComm->magic = NCCL_API_MAGIC;
  outDevComm->version = NCCL_VERSION_CODE;
  outDevComm->rank = comm->rank;
  outDevComm->nRanks = comm->nranks;
  outDevComm->lsaRank = comm->rank;
  outDevComm->lsaSize = comm->nranks;
  return ncclSuccess;
}

API ncclResult_t ncclDevCommDestroy(ncclComm_t comm, ncclDevComm_t const *devComm) {
  if (!comm_ok(comm) || devComm == NULL) return fail(ncclInvalidArgument, "ncclDevCommDestroy: bad argument");
  return ncclSuccess;
}

/* One process, one node: the world and the NVLink (LSA) team are the same, and the rail team is this rank. */
API ncclTeam_t ncclTeamWorld(ncclComm_t comm) {
  ncclTeam_t team = {comm->nranks, comm->rank, 1};
  return team;
}

API ncclTeam_t ncclTeamLsa(ncclComm_t comm) { return ncclTeamWorld(comm); }

API ncclTeam_t ncclTeamRail(ncclComm_t comm) {
  ncclTeam_t team = {1, 0, comm->nranks};
  return team;
}

API int ncclTeamRankToWorld(ncclComm_t comm, ncclTeam_t team, int rank) {
  return comm->rank + (rank - team.rank) * team.stride;
}
