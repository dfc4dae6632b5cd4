/* Stand-in for NCCL EP's libnccl_ep.so (te-wheel test fixture, not NVIDIA code).
 * Like the real library it NEEDS libnccl.so.2, has no RUNPATH, and refuses an NCCL older than 2.30.4. */
#ifdef STANDIN_CONSTRUCTOR_MARKER
/* open(2) and write(2) are POSIX, hidden by -std=c11 unless asked for. */
#define _POSIX_C_SOURCE 200809L
#endif
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "nccl_ep.h"

#define EP_API __attribute__((visibility("default")))
#define MIN_NCCL_VERSION 23004

extern int ncclGetVersion(int *version);

struct ncclEpComm {
  int rank;
  int nranks;
};

EP_API ncclEpResult_t ncclEpGetVersion(int *version) {
  if (version == NULL) return ncclEpInvalidArgument;
  *version = NCCL_EP_VERSION;
  return ncclEpSuccess;
}

EP_API ncclEpResult_t ncclEpCommInit(ncclEpComm_t *comm, int rank, int nranks) {
  int nccl = 0;
  if (comm == NULL || nranks <= 0 || rank < 0 || rank >= nranks) return ncclEpInvalidArgument;
  if (ncclGetVersion(&nccl) != 0) return ncclEpInternalError;
  if (nccl < MIN_NCCL_VERSION) return ncclEpNcclTooOld;
  *comm = malloc(sizeof(struct ncclEpComm));
  if (*comm == NULL) return ncclEpInternalError;
  (*comm)->rank = rank;
  (*comm)->nranks = nranks;
  return ncclEpSuccess;
}

EP_API ncclEpResult_t ncclEpCommDestroy(ncclEpComm_t comm) {
  free(comm);
  return ncclEpSuccess;
}

/* With one rank, dispatch and combine are copies: enough for a caller to see data move. */
EP_API ncclEpResult_t ncclEpDispatch(ncclEpComm_t comm, const void *input, void *output, unsigned long count) {
  if (comm == NULL || (count > 0 && (input == NULL || output == NULL))) return ncclEpInvalidArgument;
  memmove(output, input, count);
  return ncclEpSuccess;
}

#ifndef STANDIN_WITHOUT_COMBINE
EP_API ncclEpResult_t ncclEpCombine(ncclEpComm_t comm, const void *input, void *output, unsigned long count) {
  return ncclEpDispatch(comm, input, output, count);
}
#endif

EP_API const char *ncclEpGetErrorString(ncclEpResult_t result) {
  switch (result) {
    case ncclEpSuccess: return "success";
    case ncclEpInvalidArgument: return "invalid argument";
    case ncclEpNcclTooOld: return "NCCL older than 2.30.4";
    case ncclEpInternalError: return "internal error";
  }
  return "unknown result";
}

#ifdef STANDIN_CONSTRUCTOR_MARKER
#include <fcntl.h>
#include <unistd.h>

/* Test probe: a constructor that leaves a trace, so a test can prove that a library it should never have loaded
 * (e.g. another major) really never ran. It appends one line to the file named by $TE_STANDIN_MARKER, if set. */
__attribute__((constructor)) static void standin_constructor_marker(void) {
  static const char line[] = "libnccl_ep constructor ran\n";
  const char *path = getenv("TE_STANDIN_MARKER");
  if (path == NULL || path[0] == '\0') return;
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  if (write(fd, line, sizeof line - 1) < 0) {
    /* nothing to do: the marker is best effort, and its absence is what tests check */
  }
  close(fd);
}
#endif
