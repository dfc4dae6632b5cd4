/* te-wheel stand-in for NCCL EP's public header (nccl_ep/include/nccl_ep.h of NVIDIA/nccl-extensions; not NVIDIA
 * code). It declares the real API: the same types, field order, values, macros and the 18 functions, so that
 * sizeof and offsetof agree with the real header on LP64. The comments are this project's.
 *
 * The version macros below are the single source of truth: the stand-in build parses them for the library's
 * SONAME and file name, as NCCL EP's build does. */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <cuda.h>
#include <nccl.h>
#include "nccl_ep/ep_enums.h"

/* NCCL reserves data type 12 for two packed 4-bit floats; NCCL EP names it for its byte-copy recipe. */
#ifndef ncclFloat4x2
#define ncclFloat4x2 ((ncclDataType_t)12)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define NCCL_EP_MAJOR 0
#define NCCL_EP_MINOR 1
#define NCCL_EP_PATCH 0

/* MAJOR*10000 + MINOR*100 + PATCH, what ncclEpGetVersion reports. */
#define NCCL_EP_VERSION_CODE (NCCL_EP_MAJOR * 10000 + NCCL_EP_MINOR * 100 + NCCL_EP_PATCH)

/* Every struct passed on its own starts with {unsigned size; unsigned magic}; the group config adds `version`.
 * Structs only grow at the end: the library accepts any size from the first released layout (V1) up, reads the
 * fields `size` covers, and gives the rest their defaults. */
#define NCCL_EP_API_VERSION 2
#define NCCL_EP_MAGIC 0xC00FFFEEu

#define NCCL_EP_STRUCT_INIT(type_, magic_) ((type_){.size = (unsigned int)sizeof(type_), .magic = (magic_)})
#define NCCL_EP_FIELD_END(type_, field_) ((unsigned int)(offsetof(type_, field_) + sizeof(((type_ *)0)->field_)))
#define NCCL_EP_HAS_FIELD(ptr_, type_, field_) ((ptr_) != NULL && (ptr_)->size >= NCCL_EP_FIELD_END(type_, field_))

#if defined(__cplusplus)
#define NCCL_EP_STATIC_ASSERT(cond_, msg_) static_assert((cond_), msg_)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define NCCL_EP_STATIC_ASSERT(cond_, msg_) _Static_assert((cond_), msg_)
#else
#define NCCL_EP_STATIC_ASSERT(cond_, msg_)
#endif

/* Writes NCCL_EP_VERSION_CODE of the loaded library. */
ncclResult_t ncclEpGetVersion(int *version);

/* An n-dimensional tensor descriptor. It owns nothing: data (or a window and offset) and the sizes array belong
 * to the caller and must outlive every call that sees the descriptor. Start from NCCL_EP_TENSOR_INIT. */
#define NCCL_EP_TENSOR_MAGIC 0xCAFECAFE
typedef struct ncclEpTensor {
  unsigned int size;        /* sizeof(ncclEpTensor_t) */
  unsigned int magic;       /* NCCL_EP_TENSOR_MAGIC, or the library's mark on ncclEpTensorAlloc's descriptors */
  unsigned int ndim;
  ncclDataType_t datatype;
  void *data;               /* device pointer, or NULL for a window-backed tensor */
  ncclWindow_t win_hdl;     /* NCCL window, or NULL */
  uint64_t win_offset;      /* byte offset of the data in win_hdl */
  size_t *sizes;            /* ndim extents, caller-owned */
} ncclEpTensor_t;

#define NCCL_EP_TENSOR_INIT_INLINE .size = (unsigned int)sizeof(ncclEpTensor_t), .magic = NCCL_EP_TENSOR_MAGIC
#define NCCL_EP_TENSOR_INIT ((ncclEpTensor_t){NCCL_EP_TENSOR_INIT_INLINE})
#define NCCL_EP_TENSOR_SIZE ((unsigned int)sizeof(ncclEpTensor_t))
#define NCCL_EP_TENSOR_V1_LAST_FIELD sizes
#define NCCL_EP_TENSOR_V1_SIZE 48u
#define NCCL_EP_TENSOR_CURRENT_VERSION 1

/* Options of ncclEpTensorAlloc (none yet); NULL means defaults. */
typedef struct {
  unsigned int size;
  unsigned int magic;
} ncclEpTensorAllocConfig_t;

#define NCCL_EP_TENSOR_ALLOC_CONFIG_INIT NCCL_EP_STRUCT_INIT(ncclEpTensorAllocConfig_t, NCCL_EP_MAGIC)
#define NCCL_EP_TENSOR_ALLOC_CONFIG_SIZE ((unsigned int)sizeof(ncclEpTensorAllocConfig_t))
#define NCCL_EP_TENSOR_ALLOC_CONFIG_V1_LAST_FIELD magic
#define NCCL_EP_TENSOR_ALLOC_CONFIG_V1_SIZE 8u
#define NCCL_EP_TENSOR_ALLOC_CONFIG_CURRENT_VERSION 1

/* Makes a descriptor (and its sizes array) for the shape; the caller sets data or a window. */
ncclResult_t ncclEpTensorAlloc(ncclEpTensor_t **tensor, unsigned int ndim, ncclDataType_t datatype,
                               const size_t *sizes, const ncclEpTensorAllocConfig_t *config);

/* Frees a descriptor made by ncclEpTensorAlloc; NULL is fine. */
ncclResult_t ncclEpTensorDestroy(ncclEpTensor_t *tensor);

/* A group's device memory allocator; context is passed through unchanged. */
typedef cudaError_t (*ncclEpAllocFn_t)(void **ptr, size_t size, void *context);
typedef cudaError_t (*ncclEpFreeFn_t)(void *ptr, void *context);

typedef struct {
  ncclEpAllocFn_t alloc_fn; /* NULL (with free_fn NULL) for the default allocator */
  ncclEpFreeFn_t free_fn;
  void *context;
} ncclEpAllocConfig_t;

/* What an EP group is for; start from NCCL_EP_GROUP_CONFIG_INIT. */
typedef struct {
  unsigned int size;
  unsigned int magic;
  unsigned int version;                   /* NCCL_EP_API_VERSION the caller was built with */
  ncclEpAlgorithm_t algorithm;
  unsigned int num_experts;               /* across all ranks */
  unsigned int max_dispatch_tokens_per_rank;
  unsigned int max_recv_tokens_per_rank;  /* high throughput: AUTO (0) selects eager mode */
  unsigned int max_token_bytes;           /* bytes of one token row; a multiple of 16 for high throughput */
  unsigned long int rdma_buffer_size;     /* low latency: AUTO or exact bytes */
  unsigned int num_qp_per_rank;
  unsigned int num_channels;
  unsigned int max_num_sms;               /* AUTO or at most the device's multiprocessors */
  ncclEpAllocConfig_t alloc;
  unsigned int enable_mask;               /* low latency: rank masking for fault tolerance */
  uint64_t timeout_ns;
  ncclEpZeroCopyMode_t zero_copy;
  ncclEpOverflowPolicy_t overflow_policy;
  unsigned int num_topk;                  /* upper bound on top-k of the group's handles; 0 unset */
  unsigned char padding_v2[4];
} ncclEpGroupConfig_t;

#define NCCL_EP_GROUP_CONFIG_INIT \
  ((ncclEpGroupConfig_t){.size = (unsigned int)sizeof(ncclEpGroupConfig_t), .magic = NCCL_EP_MAGIC, \
                         .version = NCCL_EP_API_VERSION})
#define NCCL_EP_GROUP_CONFIG_SIZE ((unsigned int)sizeof(ncclEpGroupConfig_t))
#define NCCL_EP_GROUP_CONFIG_V1_LAST_FIELD timeout_ns
#define NCCL_EP_GROUP_CONFIG_V1_SIZE 96u
#define NCCL_EP_GROUP_CONFIG_V2_LAST_FIELD padding_v2
#define NCCL_EP_GROUP_CONFIG_V2_SIZE 112u
#define NCCL_EP_GROUP_CONFIG_CURRENT_VERSION 2

typedef struct ncclEpGroup *ncclEpGroup_t;

/* Collective over comm's ranks. */
ncclResult_t ncclEpCreateGroup(ncclEpGroup_t *ep_group, ncclComm_t comm, const ncclEpGroupConfig_t *config);

/* Call before the communicator is destroyed. */
ncclResult_t ncclEpGroupDestroy(ncclEpGroup_t ep_group);

/* Counters a handle update or a dispatch writes; each tensor is optional. */
typedef struct {
  unsigned int size;
  unsigned int magic;
  ncclEpTensor_t *expert_counters;     /* [num_local_experts] int32 (int64 allowed for high throughput) */
  ncclEpTensor_t *src_rank_counters;   /* [num_ranks] int32, low-latency rank-major */
  ncclEpTensor_t *expert_offsets;      /* [num_local_experts] int32 or int64, high-throughput expert-major */
  ncclEpTensor_t *recv_total_counter;  /* [1] int32 or int64, high throughput */
  ncclEpExpertIdKind_t recv_topk_idx_kind;
  unsigned char padding_v2[4];
} ncclEpLayoutInfo_t;

#define NCCL_EP_LAYOUT_INFO_INIT NCCL_EP_STRUCT_INIT(ncclEpLayoutInfo_t, NCCL_EP_MAGIC)
#define NCCL_EP_LAYOUT_INFO_SIZE ((unsigned int)sizeof(ncclEpLayoutInfo_t))
#define NCCL_EP_LAYOUT_INFO_V1_LAST_FIELD recv_total_counter
#define NCCL_EP_LAYOUT_INFO_V1_SIZE 40u
#define NCCL_EP_LAYOUT_INFO_V2_LAST_FIELD padding_v2
#define NCCL_EP_LAYOUT_INFO_V2_SIZE 48u
#define NCCL_EP_LAYOUT_INFO_CURRENT_VERSION 2

typedef struct {
  unsigned int size;
  unsigned int magic;
  ncclEpTensor_t *tokens;        /* required: [num_tokens, hidden] */
  ncclEpTensor_t *topk_weights;  /* [num_tokens, top_k] float32 */
  ncclEpTensor_t *scales;        /* with NCCL_EP_DISP_QUANT_FWD */
} ncclEpDispatchInputs_t;

#define NCCL_EP_DISPATCH_INPUTS_INIT NCCL_EP_STRUCT_INIT(ncclEpDispatchInputs_t, NCCL_EP_MAGIC)
#define NCCL_EP_DISPATCH_INPUTS_SIZE ((unsigned int)sizeof(ncclEpDispatchInputs_t))
#define NCCL_EP_DISPATCH_INPUTS_V1_LAST_FIELD scales
#define NCCL_EP_DISPATCH_INPUTS_V1_SIZE 32u
#define NCCL_EP_DISPATCH_INPUTS_CURRENT_VERSION 1

typedef struct {
  unsigned int size;
  unsigned int magic;
  ncclEpTensor_t *tokens;        /* required: received tokens */
  ncclEpTensor_t *topk_weights;  /* received weights */
  ncclEpTensor_t *scales;        /* received scales */
  ncclEpTensor_t *topk_idx;      /* received expert ids (flat and rank-major layouts) */
} ncclEpDispatchOutputs_t;

#define NCCL_EP_DISPATCH_OUTPUTS_INIT NCCL_EP_STRUCT_INIT(ncclEpDispatchOutputs_t, NCCL_EP_MAGIC)
#define NCCL_EP_DISPATCH_OUTPUTS_SIZE ((unsigned int)sizeof(ncclEpDispatchOutputs_t))
#define NCCL_EP_DISPATCH_OUTPUTS_V1_LAST_FIELD topk_idx
#define NCCL_EP_DISPATCH_OUTPUTS_V1_SIZE 40u
#define NCCL_EP_DISPATCH_OUTPUTS_CURRENT_VERSION 1

typedef struct {
  unsigned int size;
  unsigned int magic;
  ncclEpTensor_t *tokens;        /* required: expert outputs, shaped as dispatch's output tokens */
  ncclEpTensor_t *topk_weights;  /* backward pass: weight gradients per received slot */
  ncclEpTensor_t *scales;        /* NVFP4 combine only */
} ncclEpCombineInputs_t;

#define NCCL_EP_COMBINE_INPUTS_INIT NCCL_EP_STRUCT_INIT(ncclEpCombineInputs_t, NCCL_EP_MAGIC)
#define NCCL_EP_COMBINE_INPUTS_SIZE ((unsigned int)sizeof(ncclEpCombineInputs_t))
#define NCCL_EP_COMBINE_INPUTS_V1_LAST_FIELD topk_weights
#define NCCL_EP_COMBINE_INPUTS_V1_SIZE 24u
#define NCCL_EP_COMBINE_INPUTS_V2_LAST_FIELD scales
#define NCCL_EP_COMBINE_INPUTS_V2_SIZE 32u
#define NCCL_EP_COMBINE_INPUTS_CURRENT_VERSION 2

typedef struct {
  unsigned int size;
  unsigned int magic;
  ncclEpTensor_t *tokens;        /* required: [num_tokens, hidden] in the original token order */
  ncclEpTensor_t *topk_weights;  /* [num_tokens, top_k] float32 */
} ncclEpCombineOutputs_t;

#define NCCL_EP_COMBINE_OUTPUTS_INIT NCCL_EP_STRUCT_INIT(ncclEpCombineOutputs_t, NCCL_EP_MAGIC)
#define NCCL_EP_COMBINE_OUTPUTS_SIZE ((unsigned int)sizeof(ncclEpCombineOutputs_t))
#define NCCL_EP_COMBINE_OUTPUTS_V1_LAST_FIELD topk_weights
#define NCCL_EP_COMBINE_OUTPUTS_V1_SIZE 24u
#define NCCL_EP_COMBINE_OUTPUTS_CURRENT_VERSION 1

typedef struct ncclEpHandle *ncclEpHandle_t;

typedef struct {
  unsigned int size;
  unsigned int magic;
  size_t dispatch_output_per_expert_alignment; /* expert-major: pad each expert's rows to a power of two */
} ncclEpHandleConfig_t;

#define NCCL_EP_HANDLE_CONFIG_INIT NCCL_EP_STRUCT_INIT(ncclEpHandleConfig_t, NCCL_EP_MAGIC)
#define NCCL_EP_HANDLE_CONFIG_SIZE ((unsigned int)sizeof(ncclEpHandleConfig_t))
#define NCCL_EP_HANDLE_CONFIG_V1_LAST_FIELD dispatch_output_per_expert_alignment
#define NCCL_EP_HANDLE_CONFIG_V1_SIZE 16u
#define NCCL_EP_HANDLE_CONFIG_CURRENT_VERSION 1

/* Bytes of the routing buffer (handle_mem) a handle of this layout and top-k needs. */
ncclResult_t ncclEpHandleMemSize(ncclEpGroup_t ep_group, ncclEpLayout_t layout, const ncclEpHandleConfig_t *config,
                                 size_t *size_out, int num_topk);

/* Makes a handle. handle_mem NULL: the library allocates and owns the routing buffer; else a caller-owned 1-D
 * ncclUint8 tensor of at least ncclEpHandleMemSize bytes. */
ncclResult_t ncclEpInitHandle(ncclEpHandle_t *handle, ncclEpGroup_t ep_group, ncclEpLayout_t layout,
                              const ncclEpHandleConfig_t *config, int num_topk, const ncclEpTensor_t *handle_mem);

/* Routes this step's tokens: topk_idx is [num_tokens, top_k] ncclInt32 or ncclInt64. */
ncclResult_t ncclEpUpdateHandle(ncclEpHandle_t handle, const ncclEpTensor_t *topk_idx,
                                const ncclEpLayoutInfo_t *layout_info, cudaStream_t stream);

/* ncclEpInitHandle (library-owned buffer) then ncclEpUpdateHandle. */
ncclResult_t ncclEpCreateHandle(ncclEpHandle_t *handle, ncclEpGroup_t ep_group, ncclEpLayout_t layout,
                                const ncclEpTensor_t *topk_idx, const ncclEpLayoutInfo_t *layout_info,
                                const ncclEpHandleConfig_t *config, cudaStream_t stream);

ncclResult_t ncclEpHandleDestroy(ncclEpHandle_t handle);

/* Quantization of dispatch: NONE moves tokens as they are; QUANT_FWD moves tokens and caller scales byte for
 * byte; DS_FP8E3M4 (low latency) quantizes bf16 tokens itself. */
typedef enum {
  NCCL_EP_DISP_QUANT_NONE = 0,
  NCCL_EP_DISP_QUANT_FWD = 1,
  NCCL_EP_DISP_QUANT_DS_FP8E3M4 = 2,
} ncclEpDispQuant_t;

typedef enum {
  NCCL_EP_COMB_QUANT_NONE = 0,
  NCCL_EP_COMB_QUANT_NVFP4 = 1, /* experimental, low latency */
} ncclEpCombQuant_t;

typedef struct {
  unsigned int size;
  unsigned int magic;
  unsigned int send_only;          /* low latency: start only, ncclEpComplete finishes */
  unsigned int round_scales;
  ncclEpPassDir_t pass_direction;
  ncclEpDispQuant_t quant_recipe;
} ncclEpDispatchConfig_t;

#define NCCL_EP_DISPATCH_CONFIG_INIT NCCL_EP_STRUCT_INIT(ncclEpDispatchConfig_t, NCCL_EP_MAGIC)
#define NCCL_EP_DISPATCH_CONFIG_SIZE ((unsigned int)sizeof(ncclEpDispatchConfig_t))
#define NCCL_EP_DISPATCH_CONFIG_V1_LAST_FIELD pass_direction
#define NCCL_EP_DISPATCH_CONFIG_V1_SIZE 20u
#define NCCL_EP_DISPATCH_CONFIG_V2_LAST_FIELD quant_recipe
#define NCCL_EP_DISPATCH_CONFIG_V2_SIZE 24u
#define NCCL_EP_DISPATCH_CONFIG_CURRENT_VERSION 2

/* Sends each token to its experts. Collective. config NULL means defaults. */
ncclResult_t ncclEpDispatch(ncclEpHandle_t handle, const ncclEpDispatchInputs_t *inputs,
                            const ncclEpDispatchOutputs_t *outputs, const ncclEpLayoutInfo_t *layout_info,
                            const ncclEpDispatchConfig_t *config, cudaStream_t stream);

typedef struct {
  unsigned int size;
  unsigned int magic;
  unsigned int send_only;
  ncclEpPassDir_t pass_direction;
  ncclEpCombQuant_t quant_recipe;
} ncclEpCombineConfig_t;

#define NCCL_EP_COMBINE_CONFIG_INIT NCCL_EP_STRUCT_INIT(ncclEpCombineConfig_t, NCCL_EP_MAGIC)
#define NCCL_EP_COMBINE_CONFIG_SIZE ((unsigned int)sizeof(ncclEpCombineConfig_t))
#define NCCL_EP_COMBINE_CONFIG_V1_LAST_FIELD pass_direction
#define NCCL_EP_COMBINE_CONFIG_V1_SIZE 16u
#define NCCL_EP_COMBINE_CONFIG_V2_LAST_FIELD quant_recipe
#define NCCL_EP_COMBINE_CONFIG_V2_SIZE 20u
#define NCCL_EP_COMBINE_CONFIG_CURRENT_VERSION 2

/* Brings expert outputs back to their tokens' ranks and sums them per token. Collective. */
ncclResult_t ncclEpCombine(ncclEpHandle_t handle, const ncclEpCombineInputs_t *inputs,
                           const ncclEpCombineOutputs_t *outputs, const ncclEpCombineConfig_t *config,
                           cudaStream_t stream);

typedef struct ncclEpCompleteConfig {
  unsigned int size;
  unsigned int magic;
} ncclEpCompleteConfig_t;

#define NCCL_EP_COMPLETE_CONFIG_INIT NCCL_EP_STRUCT_INIT(ncclEpCompleteConfig_t, NCCL_EP_MAGIC)
#define NCCL_EP_COMPLETE_CONFIG_SIZE ((unsigned int)sizeof(ncclEpCompleteConfig_t))
#define NCCL_EP_COMPLETE_CONFIG_V1_LAST_FIELD magic
#define NCCL_EP_COMPLETE_CONFIG_V1_SIZE 8u
#define NCCL_EP_COMPLETE_CONFIG_CURRENT_VERSION 1

/* Finishes a dispatch or combine started with send_only. */
ncclResult_t ncclEpComplete(ncclEpHandle_t handle, const ncclEpCompleteConfig_t *config, cudaStream_t stream);

/* Rank masks (groups made with enable_mask): int[nRanks], 1 active, 0 masked. */
ncclResult_t ncclEpMaskQuery(ncclEpGroup_t ep_group, int *mask_status, cudaStream_t stream);
ncclResult_t ncclEpMaskUpdate(ncclEpGroup_t ep_group, const int *mask, cudaStream_t stream);
ncclResult_t ncclEpMaskClean(ncclEpGroup_t ep_group, cudaStream_t stream);

/* The group's asynchronous error flag (enable_mask): 0 none, 1 a rank timed out. */
ncclResult_t ncclEpGetAsyncError(ncclEpGroup_t ep_group, int *error_out);
ncclResult_t ncclEpErrorClear(ncclEpGroup_t ep_group);

/* The layouts the real header freezes, checked wherever this header is compiled. */
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpTensor_t) == NCCL_EP_TENSOR_V1_SIZE, "ncclEpTensor_t layout");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpTensorAllocConfig_t) == NCCL_EP_TENSOR_ALLOC_CONFIG_V1_SIZE,
                      "ncclEpTensorAllocConfig_t layout");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpGroupConfig_t) == NCCL_EP_GROUP_CONFIG_V2_SIZE, "ncclEpGroupConfig_t layout");
NCCL_EP_STATIC_ASSERT(NCCL_EP_FIELD_END(ncclEpGroupConfig_t, timeout_ns) == NCCL_EP_GROUP_CONFIG_V1_SIZE,
                      "ncclEpGroupConfig_t V1 boundary");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpLayoutInfo_t) == NCCL_EP_LAYOUT_INFO_V2_SIZE, "ncclEpLayoutInfo_t layout");
NCCL_EP_STATIC_ASSERT(NCCL_EP_FIELD_END(ncclEpLayoutInfo_t, recv_total_counter) == NCCL_EP_LAYOUT_INFO_V1_SIZE,
                      "ncclEpLayoutInfo_t V1 boundary");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpDispatchInputs_t) == NCCL_EP_DISPATCH_INPUTS_V1_SIZE,
                      "ncclEpDispatchInputs_t layout");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpDispatchOutputs_t) == NCCL_EP_DISPATCH_OUTPUTS_V1_SIZE,
                      "ncclEpDispatchOutputs_t layout");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpCombineInputs_t) == NCCL_EP_COMBINE_INPUTS_V2_SIZE,
                      "ncclEpCombineInputs_t layout");
NCCL_EP_STATIC_ASSERT(NCCL_EP_FIELD_END(ncclEpCombineInputs_t, topk_weights) == NCCL_EP_COMBINE_INPUTS_V1_SIZE,
                      "ncclEpCombineInputs_t V1 boundary");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpCombineOutputs_t) == NCCL_EP_COMBINE_OUTPUTS_V1_SIZE,
                      "ncclEpCombineOutputs_t layout");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpHandleConfig_t) == NCCL_EP_HANDLE_CONFIG_V1_SIZE, "ncclEpHandleConfig_t layout");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpDispatchConfig_t) == NCCL_EP_DISPATCH_CONFIG_V2_SIZE,
                      "ncclEpDispatchConfig_t layout");
NCCL_EP_STATIC_ASSERT(NCCL_EP_FIELD_END(ncclEpDispatchConfig_t, pass_direction) == NCCL_EP_DISPATCH_CONFIG_V1_SIZE,
                      "ncclEpDispatchConfig_t V1 boundary");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpCombineConfig_t) == NCCL_EP_COMBINE_CONFIG_V2_SIZE,
                      "ncclEpCombineConfig_t layout");
NCCL_EP_STATIC_ASSERT(NCCL_EP_FIELD_END(ncclEpCombineConfig_t, pass_direction) == NCCL_EP_COMBINE_CONFIG_V1_SIZE,
                      "ncclEpCombineConfig_t V1 boundary");
NCCL_EP_STATIC_ASSERT(sizeof(ncclEpCompleteConfig_t) == NCCL_EP_COMPLETE_CONFIG_V1_SIZE,
                      "ncclEpCompleteConfig_t layout");

#ifdef __cplusplus
}
#endif
