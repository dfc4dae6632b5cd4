/* cuda13-probe.so: a -z now library linked against the newer stand-in cudart and cuBLASLt (te-wheel test fixture).
 * It imports what each older one lacks, so the loader must refuse it against either older library. */
#include <stddef.h>

#define API __attribute__((visibility("default")))

int cudaMalloc(void **devPtr, size_t size);
int cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                     unsigned long long flags, int *driverStatus);
size_t cublasLtGetVersion(void);
int cublasLtGroupedMatrixLayoutInit_internal(void);

API int cuda13_probe(void) {
  void *p = NULL;
  void *entry = NULL;
  int status = 0;
  return cudaMalloc(&p, 0) + cudaGetDriverEntryPointByVersion("cuInit", &entry, 13000, 0, &status) +
         (int)cublasLtGetVersion() + cublasLtGroupedMatrixLayoutInit_internal();
}
