/* The functions a stand-in NCCL exports that c/nccl.c does not implement (te-wheel test fixture, not NVIDIA code).
 *
 * The build writes nccl_stubs.inc, one STUB(name) per name of the version's nccl-exports/<release>.list that
 * nccl.o does not define, so the library's export table is that version's. A stub exists to be bound, not called:
 * called, it records that in ncclGetLastError's text and returns ncclInvalidUsage, whatever the real signature. */
int ncclStandInUnsupported(const char *name);

#define STUB(name)                                                      \
  __attribute__((visibility("default"))) int name(void);                \
  __attribute__((visibility("default"))) int name(void) { return ncclStandInUnsupported(#name); }

#include "nccl_stubs.inc"
