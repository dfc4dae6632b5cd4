/* te-wheel stand-in for Transformer Engine's ep.h (not NVIDIA code): the expert-parallel C API. Every function
 * reports errors by throwing std::runtime_error, never by a return value. */
#ifndef TRANSFORMER_ENGINE_EP_H_
#define TRANSFORMER_ENGINE_EP_H_

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>
#include <transformer_engine/comm_window.h>
#include <transformer_engine/transformer_engine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Both configs start with struct_size: 0 means the base layout; fields beyond it read as zero. */
typedef struct {
  size_t struct_size;
  int ep_size;                  /* ranks of the EP communicator */
  int num_experts;              /* across all ranks */
  int max_tokens_per_rank;      /* tokens a rank sends per dispatch, at most */
  int max_recv_tokens_per_rank; /* 0: eager mode, receive buffers sized per routing */
  int hidden_dim;
  int num_comm_sms;             /* 0: automatic */
  NVTEDType max_token_dtype;    /* widest token type the group dispatches */
  int zero_copy;                /* payloads in NVTECommWindow windows */
  int num_topk;                 /* needed in eager mode; 0 unset */
  int drop_on_overflow;
} NVTEEpGroupConfig;

typedef struct {
  size_t struct_size;
  int top_k;                                   /* experts per token, > 0 */
  size_t dispatch_output_per_expert_alignment; /* power of two; 0 or 1: no padding */
} NVTEEpLayerConfig;

#define NVTE_EP_GROUP_CONFIG_INIT {sizeof(NVTEEpGroupConfig)}
#define NVTE_EP_LAYER_CONFIG_INIT {sizeof(NVTEEpLayerConfig)}

/* Borrows ep_comm (an ncclComm_t of exactly ep_size ranks) until nvte_ep_shutdown. */
void nvte_ep_initialize(void *ep_comm, const NVTEEpGroupConfig *group_config);
void nvte_ep_shutdown(void);
size_t nvte_ep_handle_mem_size(const NVTEEpLayerConfig *layer_cfg);
void nvte_ep_prepare(NVTETensor handle_mem, NVTETensor topk_idx, NVTETensor recv_tokens_per_expert,
                     NVTETensor total_recv_tokens_per_rank, const NVTEEpLayerConfig *layer_cfg, cudaStream_t stream);
void nvte_ep_dispatch(NVTETensor handle_mem, NVTETensor topk_idx, NVTETensor tokens, NVTECommWindow tokens_win,
                      NVTETensor topk_weights, NVTECommWindow topk_weights_win, NVTETensor recv_tokens,
                      NVTECommWindow recv_tokens_win, NVTETensor recv_topk_weights,
                      NVTECommWindow recv_topk_weights_win, cudaStream_t stream);
void nvte_ep_combine(NVTETensor handle_mem, NVTETensor expert_out, NVTECommWindow expert_out_win, NVTETensor result,
                     cudaStream_t stream);
void nvte_ep_dispatch_bwd(NVTETensor handle_mem, NVTETensor grad, NVTECommWindow grad_win,
                          NVTETensor g_recv_topk_weights, NVTECommWindow g_recv_topk_weights_win,
                          NVTETensor grad_tokens, NVTETensor grad_topk_weights, cudaStream_t stream);
void nvte_ep_combine_bwd(NVTETensor handle_mem, NVTETensor grad, NVTECommWindow grad_win, NVTETensor grad_expert_out,
                         NVTECommWindow grad_expert_out_win, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* TRANSFORMER_ENGINE_EP_H_ */
