/* Stand-in for NCCL's libnccl.so.2 (te-wheel test fixture, not NVIDIA code).
 *
 * Real names, signatures and result codes (nccl.h, nccl_device.h). Its version is the NCCL_VERSION_CODE of the
 * nccl.h it is compiled against, which the build writes for the version asked of it (e.g. 23004). A communicator of
 * one rank lives in its process and its collectives are copies. A communicator of several ranks joins processes of
 * one host (one rank per process) through a POSIX shared-memory segment that the unique id names: rank 0 creates it
 * owner-only (0600) in ncclCommInitRank, the others attach, and it is unlinked as soon as every rank has joined.
 * Collectives move data through it for real, in chunks, between barriers in the segment; a barrier gives up when a
 * peer process has exited (ncclRemoteError), a peer aborted, or TE_STANDIN_NCCL_TIMEOUT_S (default 300) passed
 * (ncclTimeout). "Device memory" is host memory, so callers can read what NCCL and NCCL EP wrote. Everything is
 * synchronous; streams are accepted and ignored. The functions a version exports are nccl-exports/<release>.list:
 * the build hides the ones defined here that the version lacks and stubs the ones it has that are not defined here
 * (nccl_stubs.c). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
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

struct shared; /* the segment of a communicator of several ranks */

struct ncclComm {
  unsigned int magic;
  int nranks;
  int rank;
  int cuda_dev;
  int finalized;
  struct shared *shared; /* NULL with one rank */
  size_t shared_bytes;
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
  /* 8 random bytes, so that no other user can guess the segment's name and create it first */
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  ssize_t got = fd < 0 ? -1 : read(fd, uniqueId->internal + 20, 8);
  if (fd >= 0) close(fd);
  if (got != 8) return fail(ncclSystemError, "ncclGetUniqueId: cannot read /dev/urandom");
  return ncclSuccess;
}

/* --- several ranks: the shared segment ----------------------------------------------------------------------- */

#define SHARED_MAGIC 0x74656e63636c3031ull /* "tenccl01" */
#define MAX_RANKS 64
#define HEADER_BYTES 4096
#define SLOT_BYTES ((size_t)4 << 20)

struct shared {
  _Atomic uint64_t magic; /* SHARED_MAGIC once rank 0 has laid the segment out */
  int32_t nranks;
  _Atomic int32_t joined;
  _Atomic int32_t arrived;
  _Atomic uint32_t generation;
  _Atomic int32_t aborted; /* 1 + the rank that called ncclCommAbort */
  _Atomic int32_t pids[MAX_RANKS];
};
_Static_assert(sizeof(struct shared) <= HEADER_BYTES, "the header must fit its page");

static char *slot_of(const struct ncclComm *comm, int rank) {
  return (char *)comm->shared + HEADER_BYTES + (size_t)rank * SLOT_BYTES;
}

static void segment_name(const ncclUniqueId *id, char *name, size_t size) {
  uint64_t pid, nonce;
  uint32_t serial;
  memcpy(&pid, id->internal + 8, sizeof pid);
  memcpy(&serial, id->internal + 16, sizeof serial);
  memcpy(&nonce, id->internal + 20, sizeof nonce);
  snprintf(name, size, "/te-wheel-nccl-%llu-%u-%016llx", (unsigned long long)pid, serial, (unsigned long long)nonce);
}

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double timeout_seconds(void) {
  const char *text = getenv("TE_STANDIN_NCCL_TIMEOUT_S");
  double value = text != NULL && text[0] != '\0' ? strtod(text, NULL) : 0;
  return value > 0 ? value : 300;
}

static void pause_briefly(unsigned int round) {
  if (round < 64) {
    sched_yield();
    return;
  }
  struct timespec ts = {0, round < 1024 ? 20000 : 200000};
  nanosleep(&ts, NULL);
}

/* Gone, or a zombie its parent has not reaped yet. */
static int process_exited(pid_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  char path[64], text[256];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  const char *state = strrchr(text, ')'); /* the command name may hold spaces and parentheses */
  return state != NULL && state[1] == ' ' && (state[2] == 'Z' || state[2] == 'X');
}

/* Why waiting for the other ranks cannot succeed, or ncclSuccess while it still can. */
static ncclResult_t peers_state(const struct ncclComm *comm, double deadline, const char *what) {
  char message[192];
  int aborted = atomic_load(&comm->shared->aborted);
  if (aborted != 0) {
    snprintf(message, sizeof message, "%s: rank %d aborted the communicator", what, aborted - 1);
    return fail(ncclRemoteError, message);
  }
  for (int r = 0; r < comm->nranks; r++) {
    pid_t pid = (pid_t)atomic_load(&comm->shared->pids[r]);
    if (r != comm->rank && pid > 0 && process_exited(pid)) {
      snprintf(message, sizeof message, "%s: rank %d (pid %d) exited", what, r, (int)pid);
      return fail(ncclRemoteError, message);
    }
  }
  if (seconds_now() > deadline) {
    snprintf(message, sizeof message, "%s: the other ranks did not arrive within %.0f s (TE_STANDIN_NCCL_TIMEOUT_S)",
             what, timeout_seconds());
    return fail(ncclTimeout, message);
  }
  return ncclSuccess;
}

/* A central barrier: the last rank to arrive starts the next generation. */
static ncclResult_t barrier(struct ncclComm *comm, const char *what) {
  struct shared *s = comm->shared;
  uint32_t generation = atomic_load(&s->generation);
  if (atomic_fetch_add(&s->arrived, 1) == comm->nranks - 1) {
    atomic_store(&s->arrived, 0);
    atomic_fetch_add(&s->generation, 1u);
    return ncclSuccess;
  }
  double deadline = seconds_now() + timeout_seconds();
  for (unsigned int round = 0; atomic_load(&s->generation) == generation; round++) {
    if (round % 256 == 255) {
      ncclResult_t r = peers_state(comm, deadline, what);
      if (r != ncclSuccess) return r;
    }
    pause_briefly(round);
  }
  return ncclSuccess;
}

/* Rank 0 creates the segment (O_EXCL, mode 0600); the others wait for it, refuse one that is not owner-only and
 * this user's, and attach. Once all have joined, rank 0 unlinks it: nothing is left in /dev/shm. */
static ncclResult_t join_segment(struct ncclComm *comm, const ncclUniqueId *id) {
  char name[96], message[256];
  segment_name(id, name, sizeof name);
  size_t bytes = HEADER_BYTES + (size_t)comm->nranks * SLOT_BYTES;
  double deadline = seconds_now() + timeout_seconds();
  int fd;
  if (comm->rank == 0) {
    fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, S_IRUSR | S_IWUSR);
    if (fd < 0) {
      snprintf(message, sizeof message, "ncclCommInitRank: cannot create shared memory %s: %s", name, strerror(errno));
      return fail(ncclSystemError, message);
    }
    if (fchmod(fd, S_IRUSR | S_IWUSR) != 0 || ftruncate(fd, (off_t)bytes) != 0) {
      snprintf(message, sizeof message, "ncclCommInitRank: cannot size shared memory %s: %s", name, strerror(errno));
      close(fd);
      shm_unlink(name);
      return fail(ncclSystemError, message);
    }
  } else {
    struct stat st;
    for (unsigned int round = 0;; round++) {
      fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
      if (fd >= 0 && fstat(fd, &st) == 0 && (size_t)st.st_size >= bytes) break;
      if (fd >= 0) close(fd);
      if (fd < 0 && errno != ENOENT) {
        snprintf(message, sizeof message, "ncclCommInitRank: cannot open shared memory %s: %s", name,
                 strerror(errno));
        return fail(ncclSystemError, message);
      }
      if (seconds_now() > deadline) {
        snprintf(message, sizeof message, "ncclCommInitRank: rank 0 did not create %s of %zu bytes within %.0f s",
                 name, bytes, timeout_seconds());
        return fail(ncclTimeout, message);
      }
      pause_briefly(round + 64);
    }
    if (st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
      snprintf(message, sizeof message, "ncclCommInitRank: shared memory %s has owner %u and mode %03o; it must be"
               " this user's (%u) with mode 600", name, (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777),
               (unsigned)geteuid());
      close(fd);
      return fail(ncclInvalidUsage, message);
    }
  }
  void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (base == MAP_FAILED) {
    if (comm->rank == 0) shm_unlink(name);
    snprintf(message, sizeof message, "ncclCommInitRank: cannot map %s: %s", name, strerror(errno));
    return fail(ncclSystemError, message);
  }
  comm->shared = base;
  comm->shared_bytes = bytes;
  struct shared *s = comm->shared;
  if (comm->rank == 0) {
    s->nranks = comm->nranks;
    atomic_store(&s->pids[0], (int32_t)getpid());
    atomic_store(&s->joined, 1);
    atomic_store(&s->magic, SHARED_MAGIC);
  } else {
    for (unsigned int round = 0; atomic_load(&s->magic) != SHARED_MAGIC; round++) {
      if (seconds_now() > deadline) {
        snprintf(message, sizeof message, "ncclCommInitRank: %s was never laid out by rank 0", name);
        return fail(ncclTimeout, message);
      }
      pause_briefly(round);
    }
    if (s->nranks != comm->nranks) {
      snprintf(message, sizeof message, "ncclCommInitRank: rank 0 made a communicator of %d ranks, this rank asked for"
               " %d", s->nranks, comm->nranks);
      return fail(ncclInvalidUsage, message);
    }
    int32_t none = 0;
    if (!atomic_compare_exchange_strong(&s->pids[comm->rank], &none, (int32_t)getpid())) {
      snprintf(message, sizeof message, "ncclCommInitRank: rank %d already joined (pid %d)", comm->rank, (int)none);
      return fail(ncclInvalidUsage, message);
    }
    atomic_fetch_add(&s->joined, 1);
  }
  ncclResult_t r = barrier(comm, "ncclCommInitRank");
  if (comm->rank == 0) shm_unlink(name);
  return r;
}

static void leave_segment(struct ncclComm *comm) {
  if (comm->shared != NULL) munmap(comm->shared, comm->shared_bytes);
  comm->shared = NULL;
}

/* One rank joins in-process; several join through the segment the id names (join_segment). */
static ncclResult_t init_rank(ncclComm_t *comm, int nranks, const ncclUniqueId *id, int rank) {
  if (comm == NULL) return fail(ncclInvalidArgument, "ncclCommInitRank: comm argument is NULL");
  *comm = NULL;
  if (nranks < 1) return fail(ncclInvalidArgument, "ncclCommInitRank: invalid nranks");
  if (rank < 0 || rank >= nranks) return fail(ncclInvalidArgument, "ncclCommInitRank: rank out of range");
  if (memcmp(id->internal, ID_MAGIC, sizeof ID_MAGIC) != 0) {
    return fail(ncclInvalidArgument, "ncclCommInitRank: the unique id was not made by ncclGetUniqueId");
  }
  if (nranks > MAX_RANKS) return fail(ncclInvalidUsage, "ncclCommInitRank: the stand-in NCCL has at most 64 ranks");
  struct ncclComm *made = calloc(1, sizeof *made);
  if (made == NULL) return fail(ncclSystemError, "ncclCommInitRank: out of memory");
  made->magic = COMM_MAGIC;
  made->nranks = nranks;
  made->rank = rank;
  made->cuda_dev = 0; /* one stand-in device per process, as CUDA_VISIBLE_DEVICES would leave it */
  if (nranks > 1) {
    ncclResult_t r = join_segment(made, id);
    if (r != ncclSuccess) {
      leave_segment(made);
      free(made);
      return r;
    }
  }
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
  leave_segment(comm);
  comm->magic = 0;
  free(comm);
  return ncclSuccess;
}

/* Peers waiting in a collective of this communicator give up with ncclRemoteError. */
API ncclResult_t ncclCommAbort(ncclComm_t comm) {
  if (comm_ok(comm) && comm->shared != NULL) {
    int32_t none = 0;
    atomic_compare_exchange_strong(&comm->shared->aborted, &none, comm->rank + 1);
  }
  return ncclCommDestroy(comm);
}

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

/* With one rank every collective is a copy of this rank's contribution; with several, data goes through each
 * rank's slot of the segment, SLOT_BYTES at a time: write your part, barrier, read what you need, barrier. */
static ncclResult_t check_collective(const char *name, const void *sendbuff, void *recvbuff, size_t count,
                                     ncclDataType_t datatype, ncclComm_t comm) {
  char message[96];
  if (!comm_ok(comm) || type_size(datatype) == 0 || (count > 0 && (sendbuff == NULL || recvbuff == NULL))) {
    snprintf(message, sizeof message, "%s: bad argument", name);
    return fail(ncclInvalidArgument, message);
  }
  return ncclSuccess;
}

static ncclResult_t copy_collective(const char *name, const void *sendbuff, void *recvbuff, size_t count,
                                    ncclDataType_t datatype, ncclComm_t comm) {
  ncclResult_t r = check_collective(name, sendbuff, recvbuff, count, datatype, comm);
  if (r != ncclSuccess) return r;
  if (count > 0 && sendbuff != recvbuff) memmove(recvbuff, sendbuff, count * type_size(datatype));
  return ncclSuccess;
}

#define REDUCE_AS(T)                                                                                          \
  do {                                                                                                        \
    T *out = (T *)(void *)dst;                                                                                \
    for (size_t i = 0; i < n; i++) {                                                                          \
      T acc;                                                                                                  \
      memcpy(&acc, slot_of(comm, 0) + i * sizeof(T), sizeof acc);                                             \
      for (int r = 1; r < comm->nranks; r++) {                                                                \
        T v;                                                                                                  \
        memcpy(&v, slot_of(comm, r) + i * sizeof(T), sizeof v);                                               \
        switch (op) {                                                                                         \
          case ncclProd: acc = (T)(acc * v); break;                                                           \
          case ncclMax: acc = v > acc ? v : acc; break;                                                       \
          case ncclMin: acc = v < acc ? v : acc; break;                                                       \
          default: acc = (T)(acc + v); break;                                                                 \
        }                                                                                                     \
      }                                                                                                       \
      if (op == ncclAvg) acc = (T)(acc / (T)comm->nranks);                                                    \
      memcpy(out + i, &acc, sizeof acc);                                                                      \
    }                                                                                                         \
  } while (0)

/* dst[i] = op over the ranks' slots, in rank order (so every rank computes the same bits). */
static int reduce_slots(const struct ncclComm *comm, char *dst, size_t n, ncclDataType_t type, ncclRedOp_t op) {
  switch (type) {
    case ncclInt8: REDUCE_AS(int8_t); return 1;
    case ncclUint8: REDUCE_AS(uint8_t); return 1;
    case ncclInt32: REDUCE_AS(int32_t); return 1;
    case ncclUint32: REDUCE_AS(uint32_t); return 1;
    case ncclInt64: REDUCE_AS(int64_t); return 1;
    case ncclUint64: REDUCE_AS(uint64_t); return 1;
    case ncclFloat32: REDUCE_AS(float); return 1;
    case ncclFloat64: REDUCE_AS(double); return 1;
    default: return 0;
  }
}

API ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  if ((int)op < 0 || op >= ncclNumOps) return fail(ncclInvalidArgument, "ncclAllReduce: invalid reduction");
  if (!comm_ok(comm) || comm->shared == NULL) {
    return copy_collective("ncclAllReduce", sendbuff, recvbuff, count, datatype, comm);
  }
  ncclResult_t r = check_collective("ncclAllReduce", sendbuff, recvbuff, count, datatype, comm);
  if (r != ncclSuccess) return r;
  const size_t size = type_size(datatype), per_round = SLOT_BYTES / size;
  char probe[8] = {0};
  if (!reduce_slots(comm, probe, 0, datatype, op)) {
    return fail(ncclInvalidUsage, "ncclAllReduce: the stand-in NCCL reduces integer and float32/64 types only");
  }
  for (size_t done = 0; done < count || (count == 0 && done == 0); done += per_round) {
    size_t n = count - done < per_round ? count - done : per_round;
    if (n > 0) memcpy(slot_of(comm, comm->rank), (const char *)sendbuff + done * size, n * size);
    if ((r = barrier(comm, "ncclAllReduce")) != ncclSuccess) return r;
    if (n > 0) reduce_slots(comm, (char *)recvbuff + done * size, n, datatype, op);
    if ((r = barrier(comm, "ncclAllReduce")) != ncclSuccess) return r;
    if (count == 0) break;
  }
  return ncclSuccess;
}

API ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype, int root,
                               ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  if (comm_ok(comm) && (root < 0 || root >= comm->nranks)) return fail(ncclInvalidArgument, "ncclBroadcast: root");
  if (!comm_ok(comm) || comm->shared == NULL) {
    return copy_collective("ncclBroadcast", sendbuff, recvbuff, count, datatype, comm);
  }
  if (comm->rank != root && recvbuff == NULL && count > 0) return fail(ncclInvalidArgument, "ncclBroadcast: bad argument");
  ncclResult_t r = check_collective("ncclBroadcast", comm->rank == root ? sendbuff : recvbuff, recvbuff, count,
                                    datatype, comm);
  if (r != ncclSuccess) return r;
  const size_t bytes = count * type_size(datatype);
  for (size_t done = 0; done < bytes || done == 0; done += SLOT_BYTES) {
    size_t n = bytes - done < SLOT_BYTES ? bytes - done : SLOT_BYTES;
    if (comm->rank == root && n > 0) memcpy(slot_of(comm, root), (const char *)sendbuff + done, n);
    if ((r = barrier(comm, "ncclBroadcast")) != ncclSuccess) return r;
    if (n > 0) memcpy((char *)recvbuff + done, slot_of(comm, root), n);
    if ((r = barrier(comm, "ncclBroadcast")) != ncclSuccess) return r;
    if (bytes == 0) break;
  }
  return ncclSuccess;
}

API ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount, ncclDataType_t datatype,
                               ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  if (!comm_ok(comm) || comm->shared == NULL) {
    return copy_collective("ncclAllGather", sendbuff, recvbuff, sendcount, datatype, comm);
  }
  ncclResult_t r = check_collective("ncclAllGather", sendbuff, recvbuff, sendcount, datatype, comm);
  if (r != ncclSuccess) return r;
  const size_t bytes = sendcount * type_size(datatype);
  for (size_t done = 0; done < bytes || done == 0; done += SLOT_BYTES) {
    size_t n = bytes - done < SLOT_BYTES ? bytes - done : SLOT_BYTES;
    if (n > 0) memcpy(slot_of(comm, comm->rank), (const char *)sendbuff + done, n);
    if ((r = barrier(comm, "ncclAllGather")) != ncclSuccess) return r;
    for (int p = 0; p < comm->nranks && n > 0; p++) {
      memcpy((char *)recvbuff + (size_t)p * bytes + done, slot_of(comm, p), n);
    }
    if ((r = barrier(comm, "ncclAllGather")) != ncclSuccess) return r;
    if (bytes == 0) break;
  }
  return ncclSuccess;
}

/* recvbuff's block p = rank p's sendbuff block of this rank; count elements per block. */
API ncclResult_t ncclAlltoAll(const void *sendbuff, void *recvbuff, size_t count, ncclDataType_t datatype,
                              ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  if (!comm_ok(comm) || comm->shared == NULL) {
    return copy_collective("ncclAlltoAll", sendbuff, recvbuff, count, datatype, comm);
  }
  ncclResult_t r = check_collective("ncclAlltoAll", sendbuff, recvbuff, count, datatype, comm);
  if (r != ncclSuccess) return r;
  if (sendbuff == recvbuff && count > 0) {
    return fail(ncclInvalidUsage, "ncclAlltoAll: the stand-in NCCL does not run in place");
  }
  const size_t bytes = count * type_size(datatype), per_round = SLOT_BYTES / (size_t)comm->nranks;
  for (size_t done = 0; done < bytes || done == 0; done += per_round) {
    size_t n = bytes - done < per_round ? bytes - done : per_round;
    for (int p = 0; p < comm->nranks && n > 0; p++) {
      memcpy(slot_of(comm, comm->rank) + (size_t)p * per_round, (const char *)sendbuff + (size_t)p * bytes + done, n);
    }
    if ((r = barrier(comm, "ncclAlltoAll")) != ncclSuccess) return r;
    for (int p = 0; p < comm->nranks && n > 0; p++) {
      memcpy((char *)recvbuff + (size_t)p * bytes + done, slot_of(comm, p) + (size_t)comm->rank * per_round, n);
    }
    if ((r = barrier(comm, "ncclAlltoAll")) != ncclSuccess) return r;
    if (bytes == 0) break;
  }
  return ncclSuccess;
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
