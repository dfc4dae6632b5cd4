// ep-flow: drives the Transformer Engine stand-in through one expert-parallel step on a 1-rank NCCL communicator
// and checks every number that comes back (te-wheel's own test program; StandInsTest runs it).
//
//   ep-flow <libtransformer_engine.so>                      initialize, handle_mem_size, prepare, dispatch, combine,
//                                                           dispatch_bwd, combine_bwd, shutdown; prints NCCL_EP_HOME
//   ep-flow <libtransformer_engine.so> --expect-throw TEXT  nvte_ep_initialize must throw a message containing TEXT
//
// The library is dlopened (RTLD_LOCAL), the way te-runtime loads it; libnccl.so.2, which it NEEDS, and libcuda.so.1,
// which NCCL EP NEEDS, come from LD_LIBRARY_PATH. Exit status 0 means every check held; failures say what differed.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <nccl.h>
#include <transformer_engine/ep.h>

namespace {

int failures = 0;

void expect(bool ok, const std::string &what) {
  if (!ok) {
    std::fprintf(stderr, "ep-flow: FAILED: %s\n", what.c_str());
    failures++;
  }
}

void *library;

template <typename F>
F symbol(const char *name) {
  void *s = dlsym(library, name);
  if (s == nullptr) {
    std::fprintf(stderr, "ep-flow: %s not found: %s\n", name, dlerror());
    std::exit(2);
  }
  return reinterpret_cast<F>(s);
}

#define FN(name) decltype(&::name) name = symbol<decltype(&::name)>(#name)

struct Api {
  FN(nvte_create_tensor);
  FN(nvte_destroy_tensor);
  FN(nvte_set_tensor_param);
  FN(nvte_ep_initialize);
  FN(nvte_ep_shutdown);
  FN(nvte_ep_handle_mem_size);
  FN(nvte_ep_prepare);
  FN(nvte_ep_dispatch);
  FN(nvte_ep_combine);
  FN(nvte_ep_dispatch_bwd);
  FN(nvte_ep_combine_bwd);
  FN(ncclGetUniqueId);
  FN(ncclCommInitRank);
  FN(ncclCommDestroy);
};

// A tensor over caller memory, as a framework would wrap its buffer.
NVTETensor tensor(const Api &api, void *data, NVTEDType type, std::vector<size_t> shape) {
  NVTETensor t = api.nvte_create_tensor(NVTE_DELAYED_TENSOR_SCALING);
  NVTEBasicTensor p{};
  p.data_ptr = data;
  p.dtype = type;
  p.shape.ndim = shape.size();
  for (size_t i = 0; i < shape.size(); i++) p.shape.data[i] = shape[i];
  api.nvte_set_tensor_param(&t, kNVTERowwiseData, &p);
  return t;
}

constexpr int kExperts = 4, kTopK = 2, kTokens = 5, kHidden = 4, kMaxTokens = 8, kMaxRecv = 16, kAlign = 4;
constexpr int kRecvRows = 20;  // more than the budget: rows past the padded total must stay untouched
constexpr float kUntouched = -7.0f;

NVTEEpGroupConfig group_config() {
  NVTEEpGroupConfig c = NVTE_EP_GROUP_CONFIG_INIT;
  c.ep_size = 1;
  c.num_experts = kExperts;
  c.max_tokens_per_rank = kMaxTokens;
  c.max_recv_tokens_per_rank = kMaxRecv;
  c.hidden_dim = kHidden;
  c.max_token_dtype = kNVTEFloat32;
  c.num_topk = kTopK;
  return c;
}

int run_flow(const Api &api, ncclComm_t comm) {
  NVTEEpGroupConfig config = group_config();
  api.nvte_ep_initialize(comm, &config);
  NVTEEpLayerConfig layer = NVTE_EP_LAYER_CONFIG_INIT;
  layer.top_k = kTopK;
  layer.dispatch_output_per_expert_alignment = kAlign;
  const size_t mem_size = api.nvte_ep_handle_mem_size(&layer);
  expect(mem_size > 0, "handle_mem size is positive");

  // Token t names experts topk[t]; -1 is "not routed" and token 3 names expert 2 twice.
  const long long topk[kTokens][kTopK] = {{1, 3}, {0, 1}, {3, -1}, {2, 2}, {0, 2}};
  std::vector<long long> idx(&topk[0][0], &topk[0][0] + kTokens * kTopK);
  std::vector<float> weights(kTokens * kTopK), tokens(kTokens * kHidden);
  for (int t = 0; t < kTokens; t++) {
    for (int j = 0; j < kTopK; j++) weights[t * kTopK + j] = t + 0.25f * (j + 1);
    for (int c = 0; c < kHidden; c++) tokens[t * kHidden + c] = 100.0f * t + c;
  }
  std::vector<unsigned char> handle_mem(mem_size);
  std::vector<int> counts(kExperts, -1), total(1, -1);
  NVTETensor mem_t = tensor(api, handle_mem.data(), kNVTEByte, {mem_size});
  NVTETensor idx_t = tensor(api, idx.data(), kNVTEInt64, {kTokens, kTopK});
  NVTETensor counts_t = tensor(api, counts.data(), kNVTEInt32, {kExperts});
  NVTETensor total_t = tensor(api, total.data(), kNVTEInt32, {1});
  api.nvte_ep_prepare(mem_t, idx_t, counts_t, total_t, &layer, nullptr);

  // The expected expert-major layout: expert zones in order, tokens ascending within, each zone padded to kAlign.
  std::vector<int> slot(kTokens * kTopK, -1), expected_counts(kExperts, 0), zone(kExperts + 1, 0);
  for (int e = 0; e < kExperts; e++) {
    int n = 0;
    for (int t = 0; t < kTokens; t++) {
      bool named = false;
      for (int j = 0; j < kTopK; j++) {
        if (topk[t][j] == e && !named) {
          slot[t * kTopK + j] = zone[e] + n++;
          named = true;
        }
      }
    }
    expected_counts[e] = (n + kAlign - 1) / kAlign * kAlign;
    zone[e + 1] = zone[e] + expected_counts[e];
  }
  const int padded_total = zone[kExperts];
  for (int e = 0; e < kExperts; e++) {
    expect(counts[e] == expected_counts[e], "recv_tokens_per_expert[" + std::to_string(e) + "] = " +
                                                std::to_string(counts[e]) + ", expected " +
                                                std::to_string(expected_counts[e]));
  }
  expect(total[0] == padded_total, "total_recv_tokens_per_rank = " + std::to_string(total[0]) + ", expected " +
                                       std::to_string(padded_total));

  std::vector<float> recv(kRecvRows * kHidden, kUntouched), recv_w(kRecvRows, kUntouched);
  NVTETensor tokens_t = tensor(api, tokens.data(), kNVTEFloat32, {kTokens, kHidden});
  NVTETensor weights_t = tensor(api, weights.data(), kNVTEFloat32, {kTokens, kTopK});
  NVTETensor recv_t = tensor(api, recv.data(), kNVTEFloat32, {kRecvRows, kHidden});
  NVTETensor recv_w_t = tensor(api, recv_w.data(), kNVTEFloat32, {kRecvRows});
  const NVTECommWindow none{};
  api.nvte_ep_dispatch(mem_t, idx_t, tokens_t, none, weights_t, none, recv_t, none, recv_w_t, none, nullptr);
  for (int r = 0; r < kRecvRows; r++) {
    int from = -1, choice = -1;
    for (int i = 0; i < kTokens * kTopK; i++) {
      if (slot[i] == r) from = i / kTopK, choice = i;
    }
    for (int c = 0; c < kHidden; c++) {
      float want = r >= padded_total ? kUntouched : from < 0 ? 0.0f : tokens[from * kHidden + c];
      expect(recv[r * kHidden + c] == want, "recv_tokens[" + std::to_string(r) + "][" + std::to_string(c) +
                                                "] = " + std::to_string(recv[r * kHidden + c]) + ", expected " +
                                                std::to_string(want));
    }
    float want_w = r >= padded_total ? kUntouched : choice < 0 ? 0.0f : weights[choice];
    expect(recv_w[r] == want_w, "recv_topk_weights[" + std::to_string(r) + "] = " + std::to_string(recv_w[r]) +
                                    ", expected " + std::to_string(want_w));
  }

  // An "expert" that doubles its input; combine sums each token's slots.
  std::vector<float> expert_out(recv.size()), result(kTokens * kHidden, kUntouched);
  for (size_t i = 0; i < recv.size(); i++) expert_out[i] = 2.0f * recv[i];
  NVTETensor expert_t = tensor(api, expert_out.data(), kNVTEFloat32, {kRecvRows, kHidden});
  NVTETensor result_t = tensor(api, result.data(), kNVTEFloat32, {kTokens, kHidden});
  api.nvte_ep_combine(mem_t, expert_t, none, result_t, nullptr);
  for (int t = 0; t < kTokens; t++) {
    int slots = 0;
    for (int j = 0; j < kTopK; j++) slots += slot[t * kTopK + j] >= 0;
    for (int c = 0; c < kHidden; c++) {
      float want = 2.0f * slots * tokens[t * kHidden + c];
      expect(result[t * kHidden + c] == want, "result[" + std::to_string(t) + "][" + std::to_string(c) + "] = " +
                                                  std::to_string(result[t * kHidden + c]) + ", expected " +
                                                  std::to_string(want));
    }
  }

  // Backward of dispatch: slot gradients summed per token, weight gradients gathered per (token, choice).
  std::vector<float> grad(kRecvRows * kHidden), g_recv_w(kRecvRows), grad_tokens(kTokens * kHidden, kUntouched),
      grad_w(kTokens * kTopK, kUntouched);
  for (int r = 0; r < kRecvRows; r++) {
    g_recv_w[r] = 1000.0f + r;
    for (int c = 0; c < kHidden; c++) grad[r * kHidden + c] = r + 0.5f;
  }
  NVTETensor grad_t = tensor(api, grad.data(), kNVTEFloat32, {kRecvRows, kHidden});
  NVTETensor g_recv_w_t = tensor(api, g_recv_w.data(), kNVTEFloat32, {kRecvRows});
  NVTETensor grad_tokens_t = tensor(api, grad_tokens.data(), kNVTEFloat32, {kTokens, kHidden});
  NVTETensor grad_w_t = tensor(api, grad_w.data(), kNVTEFloat32, {kTokens, kTopK});
  api.nvte_ep_dispatch_bwd(mem_t, grad_t, none, g_recv_w_t, none, grad_tokens_t, grad_w_t, nullptr);
  for (int t = 0; t < kTokens; t++) {
    float sum = 0;
    for (int j = 0; j < kTopK; j++) {
      int s = slot[t * kTopK + j];
      if (s >= 0) sum += s + 0.5f;
      float want_w = s < 0 ? 0.0f : g_recv_w[s];
      expect(grad_w[t * kTopK + j] == want_w, "grad_topk_weights[" + std::to_string(t) + "][" + std::to_string(j) +
                                                  "] = " + std::to_string(grad_w[t * kTopK + j]));
    }
    expect(grad_tokens[t * kHidden] == sum, "grad_tokens[" + std::to_string(t) + "][0] = " +
                                                std::to_string(grad_tokens[t * kHidden]) + ", expected " +
                                                std::to_string(sum));
  }

  // Backward of combine: each token's gradient copied to its slots, padding zero.
  std::vector<float> grad_out(kTokens * kHidden), grad_expert(kRecvRows * kHidden, kUntouched);
  for (int i = 0; i < kTokens * kHidden; i++) grad_out[i] = 0.5f * i;
  NVTETensor grad_out_t = tensor(api, grad_out.data(), kNVTEFloat32, {kTokens, kHidden});
  NVTETensor grad_expert_t = tensor(api, grad_expert.data(), kNVTEFloat32, {kRecvRows, kHidden});
  api.nvte_ep_combine_bwd(mem_t, grad_out_t, none, grad_expert_t, none, nullptr);
  for (int r = 0; r < padded_total; r++) {
    int from = -1;
    for (int i = 0; i < kTokens * kTopK; i++) {
      if (slot[i] == r) from = i / kTopK;
    }
    float want = from < 0 ? 0.0f : grad_out[from * kHidden + 1];
    expect(grad_expert[r * kHidden + 1] == want, "grad_expert_out[" + std::to_string(r) + "][1] = " +
                                                     std::to_string(grad_expert[r * kHidden + 1]) + ", expected " +
                                                     std::to_string(want));
  }

  for (NVTETensor t : {mem_t, idx_t, counts_t, total_t, tokens_t, weights_t, recv_t, recv_w_t, expert_t, result_t,
                       grad_t, g_recv_w_t, grad_tokens_t, grad_w_t, grad_out_t, grad_expert_t}) {
    api.nvte_destroy_tensor(t);
  }
  api.nvte_ep_shutdown();
  api.nvte_ep_shutdown();  // idempotent

  // A second life: initialize again after shutdown.
  api.nvte_ep_initialize(comm, &config);
  expect(api.nvte_ep_handle_mem_size(&layer) == mem_size, "handle_mem size after re-initialization");
  api.nvte_ep_shutdown();
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 4 && std::strcmp(argv[2], "--expect-throw") == 0)) {
    std::fprintf(stderr, "usage: ep-flow <libtransformer_engine.so> [--expect-throw TEXT]\n");
    return 2;
  }
  library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "ep-flow: cannot load %s: %s\n", argv[1], dlerror());
    return 2;
  }
  Api api;
  ncclUniqueId id;
  ncclComm_t comm = nullptr;
  if (api.ncclGetUniqueId(&id) != ncclSuccess || api.ncclCommInitRank(&comm, 1, id, 0) != ncclSuccess) {
    std::fprintf(stderr, "ep-flow: no 1-rank NCCL communicator\n");
    return 2;
  }
  try {
    if (argc == 4) {
      NVTEEpGroupConfig config = group_config();
      try {
        api.nvte_ep_initialize(comm, &config);
        expect(false, "nvte_ep_initialize returned instead of throwing");
        api.nvte_ep_shutdown();
      } catch (const std::runtime_error &e) {
        std::printf("nvte_ep_initialize threw: %s\n", e.what());
        expect(std::strstr(e.what(), argv[3]) != nullptr, std::string("the message names \"") + argv[3] + "\"");
      }
    } else {
      run_flow(api, comm);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "ep-flow: unexpected exception: %s\n", e.what());
    failures++;
  }
  api.ncclCommDestroy(comm);
  const char *home = std::getenv("NCCL_EP_HOME");
  std::printf("NCCL_EP_HOME=%s\n", home == nullptr ? "" : home);
  if (failures == 0) std::printf("ep-flow: OK\n");
  return failures == 0 ? 0 : 1;
}
