/* Stand-in for cuBLASLt 13, libcublasLt.so.13 (te-wheel test fixture, not NVIDIA code).
 *
 * A few functions TE imports from cuBLASLt, with their real names, exported under one version node,
 * libcublasLt.so.13, as NVIDIA's library versions every symbol (the build writes the version script from the API
 * lines below). Built twice: the newer one, and an older one compiled with -DSTANDIN_WITHOUT_<name> lacking
 * cublasLtGroupedMatrixLayoutInit_internal (the Makefile's CUBLASLT_LACKING), the symbol users saw missing when TE
 * was built against a newer cuBLAS than the one it pinned. Nothing multiplies: matmul is CUBLAS_STATUS_NOT_SUPPORTED. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define API __attribute__((visibility("default")))

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
} cublasStatus_t;
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct cublasLtMatrixLayoutOpaque_t { uint64_t data[8]; } *cublasLtMatrixLayout_t;
typedef struct cublasLtMatmulDescOpaque_t { uint64_t data[32]; } *cublasLtMatmulDesc_t;
typedef struct CUstream_st *cudaStream_t;
typedef int cudaDataType_t;
typedef int cublasComputeType_t;

/* cuBLASLt 13.0.0, as cublasLtGetVersion reports it (major * 10000 + minor * 100 + patch). */
#define LT_VERSION 130000

struct cublasLtContext {
  int unused;
};

API size_t cublasLtGetVersion(void) { return LT_VERSION; }

API cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle) {
  if (lightHandle == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *lightHandle = calloc(1, sizeof **lightHandle);
  return *lightHandle != NULL ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

API cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle) {
  free(lightHandle);
  return CUBLAS_STATUS_SUCCESS;
}

API cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType_t type, uint64_t rows,
                                              uint64_t cols, int64_t ld) {
  (void)type;
  (void)rows;
  (void)cols;
  (void)ld;
  if (matLayout == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *matLayout = calloc(1, sizeof **matLayout);
  return *matLayout != NULL ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

API cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
  free(matLayout);
  return CUBLAS_STATUS_SUCCESS;
}

API cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                            cudaDataType_t scaleType) {
  (void)computeType;
  (void)scaleType;
  if (matmulDesc == NULL) return CUBLAS_STATUS_INVALID_VALUE;
  *matmulDesc = calloc(1, sizeof **matmulDesc);
  return *matmulDesc != NULL ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

API cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
  free(matmulDesc);
  return CUBLAS_STATUS_SUCCESS;
}

API cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void *alpha,
                                  const void *A, cublasLtMatrixLayout_t Adesc, const void *B,
                                  cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                                  cublasLtMatrixLayout_t Cdesc, void *D, cublasLtMatrixLayout_t Ddesc,
                                  const void *algo, void *workspace, size_t workspaceSizeInBytes,
                                  cudaStream_t stream) {
  (void)lightHandle, (void)computeDesc, (void)alpha, (void)A, (void)Adesc, (void)B, (void)Bdesc, (void)beta;
  (void)C, (void)Cdesc, (void)D, (void)Ddesc, (void)algo, (void)workspace, (void)workspaceSizeInBytes, (void)stream;
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

#ifndef STANDIN_WITHOUT_cublasLtGroupedMatrixLayoutInit_internal
/* An internal entry point the grouped-GEMM layout macros of newer cublasLt.h expand to; its arguments are not
 * published, so the stand-in takes none and only exists to be bound. */
API cublasStatus_t cublasLtGroupedMatrixLayoutInit_internal(void) { return CUBLAS_STATUS_NOT_SUPPORTED; }
#endif
