/* ep-api: calls the NCCL and NCCL EP stand-ins directly, as a C application linked against them would, and checks
 * result codes and data (te-wheel's own test program; StandInsTest runs it with LD_LIBRARY_PATH set to the
 * stand-ins' nccl/lib and cuda folders). Exit status 0 means every check held. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccl.h>
#include <nccl_ep.h>

static int failures;

#define EXPECT(cond)                                                       \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "ep-api: FAILED at line %d: %s\n", __LINE__, #cond); \
      failures++;                                                          \
    }                                                                      \
  } while (0)

static ncclEpTensor_t tensor(void *data, ncclDataType_t type, unsigned int ndim, size_t *sizes) {
  ncclEpTensor_t t = NCCL_EP_TENSOR_INIT;
  t.ndim = ndim;
  t.datatype = type;
  t.data = data;
  t.sizes = sizes;
  return t;
}

static unsigned short bf16(float f) {
  unsigned int x;
  memcpy(&x, &f, sizeof x);
  return (unsigned short)(x >> 16);
}

static float from_bf16(unsigned short h) {
  unsigned int x = (unsigned int)h << 16;
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

static void nccl_checks(void) {
  int version = 0;
  EXPECT(ncclGetVersion(&version) == ncclSuccess && version == NCCL_VERSION_CODE);
  EXPECT(ncclGetVersion(NULL) == ncclInvalidArgument);
  EXPECT(strcmp(ncclGetErrorString(ncclInvalidUsage), "invalid usage (run with NCCL_DEBUG=WARN for details)") == 0);
  EXPECT(sizeof(ncclUniqueId) == 128);
  ncclUniqueId id;
  EXPECT(ncclGetUniqueId(&id) == ncclSuccess);
  ncclComm_t comm = NULL;
  /* rank 0 of 2 whose second rank never comes: it gives up after TE_STANDIN_NCCL_TIMEOUT_S and says why */
  setenv("TE_STANDIN_NCCL_TIMEOUT_S", "0.3", 1);
  EXPECT(ncclCommInitRank(&comm, 2, id, 0) == ncclTimeout && comm == NULL);
  EXPECT(strstr(ncclGetLastError(NULL), "did not arrive") != NULL);
  EXPECT(ncclCommInitRank(&comm, 2, id, 1) == ncclTimeout && comm == NULL); /* its segment is gone again */
  EXPECT(strstr(ncclGetLastError(NULL), "rank 0 did not create") != NULL);
  unsetenv("TE_STANDIN_NCCL_TIMEOUT_S");
  EXPECT(ncclCommInitRank(&comm, 1, id, 1) == ncclInvalidArgument);
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  EXPECT(ncclCommInitRankConfig(&comm, 1, id, 0, &config) == ncclSuccess);
  int n = 0, rank = -1, device = -1;
  EXPECT(ncclCommCount(comm, &n) == ncclSuccess && n == 1);
  EXPECT(ncclCommUserRank(comm, &rank) == ncclSuccess && rank == 0);
  EXPECT(ncclCommCuDevice(comm, &device) == ncclSuccess && device == 0);
  float *buffer = NULL;
  EXPECT(ncclMemAlloc((void **)&buffer, 4 * sizeof(float)) == ncclSuccess && buffer != NULL);
  for (int i = 0; i < 4; i++) buffer[i] = (float)i;
  EXPECT(ncclAllReduce(buffer, buffer + 2, 2, ncclFloat32, ncclSum, comm, NULL) == ncclSuccess && buffer[3] == 1.0f);
  EXPECT(ncclGroupStart() == ncclSuccess && ncclGroupEnd() == ncclSuccess);
  EXPECT(ncclGroupEnd() == ncclInvalidUsage);
  ncclWindow_t window = NULL;
  void *user = NULL;
  EXPECT(ncclCommWindowRegister(comm, buffer, 4 * sizeof(float), &window, NCCL_WIN_DEFAULT) == ncclSuccess);
  EXPECT(ncclWinGetUserPtr(comm, window, &user) == ncclSuccess && user == buffer);
  EXPECT(ncclCommWindowDeregister(comm, window) == ncclSuccess);
  EXPECT(ncclMemFree(buffer) == ncclSuccess);
  EXPECT(ncclCommFinalize(comm) == ncclSuccess && ncclCommDestroy(comm) == ncclSuccess);
}

static void ep_checks(void) {
  int version = 0;
  EXPECT(ncclEpGetVersion(&version) == ncclSuccess && version == NCCL_EP_VERSION_CODE && version == 100);
  ncclUniqueId id;
  ncclComm_t comm = NULL;
  EXPECT(ncclGetUniqueId(&id) == ncclSuccess && ncclCommInitRank(&comm, 1, id, 0) == ncclSuccess);

  /* Versioned structs: NULL, too small and a wrong magic are invalid arguments. */
  ncclEpGroup_t group = NULL;
  ncclEpGroupConfig_t config = NCCL_EP_GROUP_CONFIG_INIT;
  config.algorithm = NCCL_EP_ALGO_HIGH_THROUGHPUT;
  config.num_experts = 4;
  config.max_dispatch_tokens_per_rank = 4;
  config.max_recv_tokens_per_rank = 8;
  config.max_token_bytes = 32;
  EXPECT(ncclEpCreateGroup(&group, comm, NULL) == ncclInvalidArgument);
  ncclEpGroupConfig_t bad = config;
  bad.magic = 0;
  EXPECT(ncclEpCreateGroup(&group, comm, &bad) == ncclInvalidArgument);
  bad = config;
  bad.size = NCCL_EP_GROUP_CONFIG_V1_SIZE - 4;
  EXPECT(ncclEpCreateGroup(&group, comm, &bad) == ncclInvalidArgument);
  bad = config;
  bad.max_token_bytes = 20; /* high throughput wants multiples of 16 */
  EXPECT(ncclEpCreateGroup(&group, comm, &bad) == ncclInvalidArgument);
  bad = config;
  bad.max_num_sms = 1000; /* more than the device has */
  EXPECT(ncclEpCreateGroup(&group, comm, &bad) == ncclInvalidUsage);
  bad = config;
  bad.size = NCCL_EP_GROUP_CONFIG_V1_SIZE; /* a version-1 caller */
  bad.version = 1;
  EXPECT(ncclEpCreateGroup(&group, comm, &bad) == ncclSuccess && group != NULL);
  EXPECT(ncclEpGroupDestroy(group) == ncclSuccess);
  EXPECT(ncclEpCreateGroup(&group, comm, &config) == ncclSuccess && group != NULL);

  int flag = 0;
  EXPECT(ncclEpGetAsyncError(group, &flag) == ncclInvalidUsage); /* enable_mask was not set */
  EXPECT(ncclEpMaskClean(group, NULL) == ncclInvalidUsage);

  /* Descriptors from ncclEpTensorAlloc carry shape only. */
  size_t shape[2] = {3, 5};
  ncclEpTensor_t *made = NULL;
  EXPECT(ncclEpTensorAlloc(&made, 2, ncclFloat32, shape, NULL) == ncclSuccess && made != NULL);
  EXPECT(made->data == NULL && made->sizes != shape && made->sizes[1] == 5 && made->size == 48);
  EXPECT(ncclEpTensorAlloc(&made, 0, ncclFloat32, shape, NULL) == ncclInvalidArgument);
  ncclEpTensor_t stack = NCCL_EP_TENSOR_INIT;
  EXPECT(ncclEpTensorDestroy(&stack) == ncclInvalidArgument);
  EXPECT(ncclEpTensorDestroy(made) == ncclSuccess && ncclEpTensorDestroy(NULL) == ncclSuccess);

  /* One step in bfloat16: 3 tokens, top-2, hidden 8 (16-byte rows), int32 routing. */
  enum { T = 3, K = 2, H = 8, E = 4 };
  size_t size = 0;
  EXPECT(ncclEpHandleMemSize(group, NCCL_EP_LAYOUT_EXPERT_MAJOR, NULL, &size, K) == ncclSuccess && size > 0);
  int idx[T][K] = {{2, 0}, {2, -1}, {3, 1}};
  size_t idx_shape[2] = {T, K};
  ncclEpTensor_t idx_t = tensor(idx, ncclInt32, 2, idx_shape);
  long long counts[E], total[1];
  size_t counts_shape[1] = {E}, total_shape[1] = {1};
  ncclEpTensor_t counts_t = tensor(counts, ncclInt64, 1, counts_shape);
  ncclEpTensor_t total_t = tensor(total, ncclInt64, 1, total_shape);
  ncclEpLayoutInfo_t info = NCCL_EP_LAYOUT_INFO_INIT;
  info.expert_counters = &counts_t;
  info.recv_total_counter = &total_t;
  ncclEpHandle_t handle = NULL;
  EXPECT(ncclEpCreateHandle(&handle, group, NCCL_EP_LAYOUT_EXPERT_MAJOR, &idx_t, &info, NULL, NULL) == ncclSuccess);
  EXPECT(counts[0] == 1 && counts[1] == 1 && counts[2] == 2 && counts[3] == 1 && total[0] == 5);

  unsigned short x[T][H], recv[8][H], combined[T][H];
  float w[T][K] = {{0.5f, 0.25f}, {1.0f, 9.0f}, {0.125f, 2.0f}}, recv_w[8];
  for (int t = 0; t < T; t++) {
    for (int c = 0; c < H; c++) x[t][c] = bf16((float)(t + 1));
  }
  size_t x_shape[2] = {T, H}, recv_shape[2] = {8, H}, w_shape[2] = {T, K}, recv_w_shape[1] = {8};
  ncclEpTensor_t x_t = tensor(x, ncclBfloat16, 2, x_shape), recv_t = tensor(recv, ncclBfloat16, 2, recv_shape);
  ncclEpTensor_t w_t = tensor(w, ncclFloat32, 2, w_shape), recv_w_t = tensor(recv_w, ncclFloat32, 1, recv_w_shape);
  ncclEpDispatchInputs_t in = NCCL_EP_DISPATCH_INPUTS_INIT;
  in.tokens = &x_t;
  ncclEpDispatchOutputs_t out = NCCL_EP_DISPATCH_OUTPUTS_INIT;
  out.tokens = &recv_t;
  out.topk_weights = &recv_w_t;
  EXPECT(ncclEpDispatch(handle, &in, &out, NULL, NULL, NULL) == ncclInvalidArgument); /* forward needs weights */
  in.topk_weights = &w_t;
  ncclEpDispatchInputs_t old = in;
  old.size = 8;
  EXPECT(ncclEpDispatch(handle, &old, &out, NULL, NULL, NULL) == ncclInvalidArgument);
  EXPECT(ncclEpDispatch(handle, &in, &out, NULL, NULL, NULL) == ncclSuccess);
  /* Slots: expert 0 <- token 0; expert 1 <- token 2; expert 2 <- tokens 0, 1; expert 3 <- token 2. */
  const int from[5] = {0, 2, 0, 1, 2};
  const float weight[5] = {0.25f, 2.0f, 0.5f, 1.0f, 0.125f};
  for (int s = 0; s < 5; s++) {
    EXPECT(from_bf16(recv[s][H - 1]) == (float)(from[s] + 1));
    EXPECT(recv_w[s] == weight[s]);
  }
  ncclEpCombineInputs_t cin = NCCL_EP_COMBINE_INPUTS_INIT;
  cin.tokens = &recv_t;
  size_t combined_shape[2] = {T, H};
  ncclEpTensor_t combined_t = tensor(combined, ncclBfloat16, 2, combined_shape);
  ncclEpCombineOutputs_t cout = NCCL_EP_COMBINE_OUTPUTS_INIT;
  cout.tokens = &combined_t;
  EXPECT(ncclEpCombine(handle, &cin, &cout, NULL, NULL) == ncclSuccess);
  EXPECT(from_bf16(combined[0][0]) == 2.0f && from_bf16(combined[1][3]) == 2.0f && from_bf16(combined[2][7]) == 6.0f);
  ncclEpCompleteConfig_t complete = NCCL_EP_COMPLETE_CONFIG_INIT;
  EXPECT(ncclEpComplete(handle, &complete, NULL) == ncclSuccess);
  EXPECT(ncclEpHandleDestroy(handle) == ncclSuccess && ncclEpHandleDestroy(NULL) == ncclSuccess);
  EXPECT(ncclEpGroupDestroy(group) == ncclSuccess && ncclEpGroupDestroy(NULL) == ncclSuccess);

  /* A low-latency group with rank masks. */
  config.algorithm = NCCL_EP_ALGO_LOW_LATENCY;
  config.enable_mask = 1;
  EXPECT(ncclEpCreateGroup(&group, comm, &config) == ncclSuccess);
  int mask[1] = {-1};
  EXPECT(ncclEpMaskQuery(group, mask, NULL) == ncclSuccess && mask[0] == 1);
  mask[0] = 0;
  EXPECT(ncclEpMaskUpdate(group, mask, NULL) == ncclSuccess);
  EXPECT(ncclEpMaskQuery(group, mask, NULL) == ncclSuccess && mask[0] == 0);
  EXPECT(ncclEpGetAsyncError(group, &flag) == ncclSuccess && flag == 0 && ncclEpErrorClear(group) == ncclSuccess);
  EXPECT(ncclEpInitHandle(&handle, group, NCCL_EP_LAYOUT_RANK_MAJOR, NULL, 0, NULL) == ncclInvalidArgument);
  EXPECT(ncclEpInitHandle(&handle, group, NCCL_EP_LAYOUT_RANK_MAJOR, NULL, K, NULL) == ncclSuccess);
  EXPECT(ncclEpMaskClean(group, NULL) == ncclSuccess && ncclEpMaskQuery(group, mask, NULL) == ncclSuccess &&
         mask[0] == 1);
  EXPECT(ncclEpHandleDestroy(handle) == ncclSuccess);
  EXPECT(ncclEpGroupDestroy(group) == ncclSuccess);

  /* Low latency has no receive budget to overflow: 4 tokens routed to 2 experts each (8 copies) fit its per-expert
   * buffers although ranks * max_dispatch_tokens_per_rank is 4, as on the real library (a fixed high-throughput
   * budget of 4 would trap). */
  config.enable_mask = 0;
  config.max_recv_tokens_per_rank = NCCL_EP_AUTO;
  EXPECT(ncclEpCreateGroup(&group, comm, &config) == ncclSuccess);
  int ll_idx[4][K] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  size_t ll_shape[2] = {4, K};
  ncclEpTensor_t ll_t = tensor(ll_idx, ncclInt32, 2, ll_shape);
  EXPECT(ncclEpCreateHandle(&handle, group, NCCL_EP_LAYOUT_EXPERT_MAJOR, &ll_t, NULL, NULL, NULL) == ncclSuccess);
  EXPECT(ncclEpHandleDestroy(handle) == ncclSuccess);
  EXPECT(ncclEpGroupDestroy(group) == ncclSuccess);
  EXPECT(ncclCommDestroy(comm) == ncclSuccess);
}

int main(void) {
  nccl_checks();
  ep_checks();
  if (failures == 0) printf("ep-api: OK\n");
  return failures == 0 ? 0 : 1;
}
