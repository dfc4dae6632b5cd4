/* Stand-in for Transformer Engine's libtransformer_engine.so (te-wheel test fixture, not NVIDIA code).
 *
 * Like the real library it is linked with -z now and has no DT_NEEDED on libnccl_ep: NCCL EP is opened
 * with dlopen on first use, the way TE's provider does it, so EP's dependencies only have to resolve for
 * users who touch EP. Search order: $NCCL_EP_HOME/lib/, then the folder holding this library (found with
 * dladdr). Only the NCCL EP major this library was built against is accepted. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccl_ep.h"

#define TE_API __attribute__((visibility("default")))
#define STR_(x) #x
#define STR(x) STR_(x)

/* Negative results of nvte_nccl_ep_version(). */
#define NVTE_EP_NOT_FOUND (-1)
#define NVTE_EP_NO_SYMBOL (-2)
#define NVTE_EP_WRONG_MAJOR (-3)
#define NVTE_EP_CALL_FAILED (-4)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *ep_handle;
static char last_error[PATH_MAX + 256];

/* The folder holding this library, so a bundle works wherever it is unpacked. */
static int own_folder(char *out, size_t size) {
  Dl_info info;
  if (dladdr((void *)&own_folder, &info) == 0 || info.dli_fname == NULL) return -1;
  if (snprintf(out, size, "%s", info.dli_fname) >= (int)size) return -1;
  char *slash = strrchr(out, '/');
  if (slash == NULL) return -1;
  *slash = '\0';
  return 0;
}

static void *try_open(const char *folder, const char *name) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", folder, name) >= (int)sizeof path) return NULL;
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) snprintf(last_error, sizeof last_error, "%s", dlerror());
  return handle;
}

static void *open_ep(void) {
  static const char *const names[] = {"libnccl_ep.so." STR(NCCL_EP_MAJOR), "libnccl_ep.so"};
  char folder[PATH_MAX];
  const char *home = getenv("NCCL_EP_HOME");
  for (size_t i = 0; home != NULL && i < sizeof names / sizeof names[0]; i++) {
    if (snprintf(folder, sizeof folder, "%s/lib", home) >= (int)sizeof folder) break;
    void *handle = try_open(folder, names[i]);
    if (handle != NULL) return handle;
  }
  if (own_folder(folder, sizeof folder) != 0) return NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    void *handle = try_open(folder, names[i]);
    if (handle != NULL) return handle;
  }
  return NULL;
}

/* Points NCCL EP's JIT at the headers shipped beside this library unless the user chose a folder. */
TE_API int nvte_set_nccl_ep_home(void) {
  char folder[PATH_MAX];
  if (own_folder(folder, sizeof folder) != 0) return -1;
  size_t used = strlen(folder);
  if (used + sizeof "/nccl_ep" > sizeof folder) return -1;
  memcpy(folder + used, "/nccl_ep", sizeof "/nccl_ep");
  return setenv("NCCL_EP_HOME", folder, 0);
}

/* The version NCCL EP reports (MAJOR*10000 + MINOR*100 + PATCH), or a negative NVTE_EP_* code. */
TE_API int nvte_nccl_ep_version(void) {
  int result;
  pthread_mutex_lock(&lock);
  if (ep_handle == NULL) ep_handle = open_ep();
  if (ep_handle == NULL) {
    result = NVTE_EP_NOT_FOUND;
  } else {
    ncclEpResult_t (*get_version)(int *) = (ncclEpResult_t(*)(int *))dlsym(ep_handle, "ncclEpGetVersion");
    int version = 0;
    if (get_version == NULL) {
      result = NVTE_EP_NO_SYMBOL;
    } else if (get_version(&version) != ncclEpSuccess) {
      result = NVTE_EP_CALL_FAILED;
    } else if (version / 10000 != NCCL_EP_MAJOR) {
      result = NVTE_EP_WRONG_MAJOR;
    } else {
      result = version;
    }
  }
  pthread_mutex_unlock(&lock);
  return result;
}

/* dlerror's text from the last failed attempt to open NCCL EP, or "". */
TE_API const char *nvte_nccl_ep_last_error(void) { return last_error; }

/* The NCCL EP major this library was built against. */
TE_API int nvte_nccl_ep_required_major(void) { return NCCL_EP_MAJOR; }

TE_API int nvte_get_version(void) { return 20900; }

#ifdef STANDIN_UNDEFINED_EP_SYMBOL
/* Defect: a direct call into NCCL EP leaves an undefined ncclEp* symbol that -z now must resolve at load. */
TE_API int nvte_direct_ep_version(void) {
  int version = 0;
  return ncclEpGetVersion(&version) == ncclEpSuccess ? version : -1;
}
#endif

#ifdef STANDIN_NEEDS_CUDA
extern int cuInit(unsigned int flags);
/* Defect: a direct call into the CUDA driver makes the library NEED libcuda.so.1. */
TE_API int nvte_cuda_init(void) { return cuInit(0); }
#endif
