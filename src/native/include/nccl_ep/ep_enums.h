/* te-wheel stand-in for NCCL EP's enums (nccl_ep/ep_enums.h of NVIDIA/nccl-extensions; not NVIDIA code).
 * The names and values are the real ones; see nccl_ep.h for how each is used. */
#pragma once

/* "Let the library choose": the zero value of every sizing field and of several enums below. */
#define NCCL_EP_AUTO 0

/* Communication algorithm of a group. */
typedef enum {
  NCCL_EP_ALGO_LOW_LATENCY = 0,
  NCCL_EP_ALGO_HIGH_THROUGHPUT = 1
} ncclEpAlgorithm_t;

/* What a high-throughput rank does with tokens beyond max_recv_tokens_per_rank (AUTO means TRAP). */
typedef enum {
  NCCL_EP_OVERFLOW_AUTO = NCCL_EP_AUTO,
  NCCL_EP_OVERFLOW_TRAP,
  NCCL_EP_OVERFLOW_DROP
} ncclEpOverflowPolicy_t;

/* Shape of dispatch's outputs (and of combine's inputs). UNSET must be replaced before a handle is made.
 * High throughput supports FLAT and EXPERT_MAJOR, low latency EXPERT_MAJOR and RANK_MAJOR. */
typedef enum {
  NCCL_EP_LAYOUT_UNSET = NCCL_EP_AUTO,
  NCCL_EP_LAYOUT_EXPERT_MAJOR,
  NCCL_EP_LAYOUT_RANK_MAJOR,
  NCCL_EP_LAYOUT_FLAT,
} ncclEpLayout_t;

/* Forward or backward pass of a dispatch or combine (high throughput only). */
typedef enum {
  NCCL_EP_FWD_PASS = 0,
  NCCL_EP_BWD_PASS = 1,
} ncclEpPassDir_t;

/* Whether token payloads may bypass the library's staging buffers through caller windows. */
typedef enum {
  NCCL_EP_ZERO_COPY_AUTO = NCCL_EP_AUTO,
  NCCL_EP_ZERO_COPY_OFF,
  NCCL_EP_ZERO_COPY_ON
} ncclEpZeroCopyMode_t;

/* Numbering of the expert ids dispatch writes to outputs->topk_idx (AUTO means LOCAL today). */
typedef enum {
  NCCL_EP_EXPERT_ID_AUTO = NCCL_EP_AUTO,
  NCCL_EP_EXPERT_ID_LOCAL = 1,
  NCCL_EP_EXPERT_ID_GLOBAL = 2,
} ncclEpExpertIdKind_t;
