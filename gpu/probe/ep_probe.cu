// ep_probe: a one-process, one-GPU check of the real NCCL EP, written for te-wheel's gpu/ folder.
//
//   ep_probe abi   print the versions and the public structs' sizes and field offsets, as compiled
//                  from the installed nccl_ep.h (what te-runtime's FFM layouts must match)
//   ep_probe ll    one-rank communicator; Low-Latency group, EXPERT_MAJOR handle, dispatch, combine
//   ep_probe ht    the same with a High-Throughput group and a FLAT handle
//
// Data: token i of T carries the value i+1+(j%7) in element j (exact in bf16) and goes to top-K
// experts (i % E) and ((i + 3) % E). The "expert" is the identity: combine gets the dispatch output
// back, so every combined token must equal its input (LL weighs each of its K copies by 1/K; HT's
// FLAT layout holds one copy per token and rank). Exit status 0 only when every check passed.
// NCCL EP reports its own failures through assert(), which aborts: run each mode in its own process.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <nccl.h>
#include <nccl_ep.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

namespace {

constexpr int T = 16;      // tokens on this rank
constexpr int H = 1024;    // hidden size (LL wants a multiple of 128)
constexpr int E = 8;       // experts (all local: one rank)
constexpr int K = 2;       // top-k

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

#define CUDA_OK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #x, cudaGetErrorString(e_)); exit(3); } } while (0)
#define NCCL_OK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { \
    printf("FAIL %s: %d %s\n", #x, (int)r_, ncclGetErrorString(r_)); exit(4); } } while (0)

// step: run, wait for the stream, print the wall time
#define STEP(name, stream, call) do { double t0_ = now_ms(); NCCL_OK(call); \
    CUDA_OK(cudaStreamSynchronize(stream)); printf("  %-28s %9.1f ms\n", name, now_ms() - t0_); \
    fflush(stdout); } while (0)

struct Dev {
    void* p = nullptr;
    size_t bytes = 0;
    explicit Dev(size_t n) : bytes(n) { CUDA_OK(cudaMalloc(&p, n)); CUDA_OK(cudaMemset(p, 0, n)); }
    ~Dev() { cudaFree(p); }
};

// a caller-owned descriptor over caller-owned device memory (no ncclEpTensorAlloc)
struct Tensor {
    ncclEpTensor_t t = NCCL_EP_TENSOR_INIT;
    size_t dims[4] = {0, 0, 0, 0};
    Tensor(Dev& d, ncclDataType_t dt, std::initializer_list<size_t> shape) {
        unsigned n = 0;
        for (size_t s : shape) dims[n++] = s;
        t.ndim = n;
        t.datatype = dt;
        t.data = d.p;
        t.sizes = dims;
    }
};

void print_versions() {
    int nccl = 0, ep = 0, rt = 0, drv = 0, dev = 0;
    NCCL_OK(ncclGetVersion(&nccl));
    NCCL_OK(ncclEpGetVersion(&ep));
    CUDA_OK(cudaRuntimeGetVersion(&rt));
    CUDA_OK(cudaDriverGetVersion(&drv));
    CUDA_OK(cudaGetDevice(&dev));
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, dev));
    printf("ncclGetVersion %d (header NCCL_VERSION_CODE %d)\n", nccl, NCCL_VERSION_CODE);
    printf("ncclEpGetVersion %d (header %d.%d.%d)\n", ep, NCCL_EP_MAJOR, NCCL_EP_MINOR, NCCL_EP_PATCH);
    printf("CUDA runtime %d, driver %d; device %d: %s, sm_%d%d, %d SMs\n", rt, drv, dev, prop.name,
           prop.major, prop.minor, prop.multiProcessorCount);
}

int abi() {
    print_versions();
#define SZ(type) printf("sizeof %-26s %3zu\n", #type, sizeof(type))
#define OFF(type, f) printf("  offsetof %-24s %3zu\n", #f, offsetof(type, f))
    SZ(ncclEpTensor_t);
    OFF(ncclEpTensor_t, ndim); OFF(ncclEpTensor_t, datatype); OFF(ncclEpTensor_t, data);
    OFF(ncclEpTensor_t, win_hdl); OFF(ncclEpTensor_t, win_offset); OFF(ncclEpTensor_t, sizes);
    SZ(ncclEpGroupConfig_t);
    OFF(ncclEpGroupConfig_t, version); OFF(ncclEpGroupConfig_t, algorithm);
    OFF(ncclEpGroupConfig_t, num_experts); OFF(ncclEpGroupConfig_t, max_dispatch_tokens_per_rank);
    OFF(ncclEpGroupConfig_t, max_recv_tokens_per_rank); OFF(ncclEpGroupConfig_t, max_token_bytes);
    OFF(ncclEpGroupConfig_t, rdma_buffer_size); OFF(ncclEpGroupConfig_t, num_qp_per_rank);
    OFF(ncclEpGroupConfig_t, num_channels); OFF(ncclEpGroupConfig_t, max_num_sms);
    OFF(ncclEpGroupConfig_t, alloc); OFF(ncclEpGroupConfig_t, enable_mask);
    OFF(ncclEpGroupConfig_t, timeout_ns); OFF(ncclEpGroupConfig_t, zero_copy);
    OFF(ncclEpGroupConfig_t, overflow_policy); OFF(ncclEpGroupConfig_t, num_topk);
    SZ(ncclEpLayoutInfo_t);
    OFF(ncclEpLayoutInfo_t, expert_counters); OFF(ncclEpLayoutInfo_t, src_rank_counters);
    OFF(ncclEpLayoutInfo_t, expert_offsets); OFF(ncclEpLayoutInfo_t, recv_total_counter);
    OFF(ncclEpLayoutInfo_t, recv_topk_idx_kind);
    SZ(ncclEpDispatchInputs_t); SZ(ncclEpDispatchOutputs_t);
    SZ(ncclEpCombineInputs_t); SZ(ncclEpCombineOutputs_t);
    SZ(ncclEpHandleConfig_t); SZ(ncclEpDispatchConfig_t); SZ(ncclEpCombineConfig_t);
    OFF(ncclEpDispatchConfig_t, send_only); OFF(ncclEpDispatchConfig_t, round_scales);
    OFF(ncclEpDispatchConfig_t, pass_direction); OFF(ncclEpDispatchConfig_t, quant_recipe);
    OFF(ncclEpCombineConfig_t, send_only); OFF(ncclEpCombineConfig_t, pass_direction);
    OFF(ncclEpCombineConfig_t, quant_recipe);
    SZ(ncclEpCompleteConfig_t); SZ(ncclEpTensorAllocConfig_t); SZ(ncclEpAllocConfig_t);
    printf("NCCL_EP_MAGIC 0x%X NCCL_EP_TENSOR_MAGIC 0x%X NCCL_EP_API_VERSION %d\n", NCCL_EP_MAGIC,
           (unsigned)NCCL_EP_TENSOR_MAGIC, NCCL_EP_API_VERSION);
    printf("enums: LL %d HT %d; layouts UNSET %d EXPERT_MAJOR %d RANK_MAJOR %d FLAT %d\n",
           NCCL_EP_ALGO_LOW_LATENCY, NCCL_EP_ALGO_HIGH_THROUGHPUT, NCCL_EP_LAYOUT_UNSET,
           NCCL_EP_LAYOUT_EXPERT_MAJOR, NCCL_EP_LAYOUT_RANK_MAJOR, NCCL_EP_LAYOUT_FLAT);
    printf("nccl types: Uint8 %d Int32 %d Int64 %d Float32 %d Bfloat16 %d\n", ncclUint8, ncclInt32,
           ncclInt64, ncclFloat32, ncclBfloat16);
    return 0;
}

float token_value(int i, int j) { return float(i + 1 + (j % 7)); }

int run(bool ht) {
    const char* mode = ht ? "HT/FLAT" : "LL/EXPERT_MAJOR";
    print_versions();
    CUDA_OK(cudaSetDevice(0));
    cudaStream_t s;
    CUDA_OK(cudaStreamCreate(&s));

    ncclUniqueId id;
    ncclComm_t comm;
    double t0 = now_ms();
    NCCL_OK(ncclGetUniqueId(&id));
    NCCL_OK(ncclCommInitRank(&comm, 1, id, 0));
    printf("  %-28s %9.1f ms\n", "ncclCommInitRank(1 rank)", now_ms() - t0);

    // host data
    std::vector<__nv_bfloat16> x(size_t(T) * H);
    for (int i = 0; i < T; i++)
        for (int j = 0; j < H; j++) x[size_t(i) * H + j] = __float2bfloat16(token_value(i, j));
    std::vector<int64_t> topk(size_t(T) * K);
    for (int i = 0; i < T; i++) { topk[i * K + 0] = i % E; topk[i * K + 1] = (i + 3) % E; }
    std::vector<float> w(size_t(T) * K, 1.0f / K);

    Dev dx(x.size() * 2), dtopk(topk.size() * 8), dw(w.size() * 4);
    CUDA_OK(cudaMemcpy(dx.p, x.data(), dx.bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dtopk.p, topk.data(), dtopk.bytes, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dw.p, w.data(), dw.bytes, cudaMemcpyHostToDevice));
    Tensor tx(dx, ncclBfloat16, {T, H}), ttopk(dtopk, ncclInt64, {T, K}), tw(dw, ncclFloat32, {T, K});

    ncclEpGroupConfig_t cfg = NCCL_EP_GROUP_CONFIG_INIT;
    cfg.algorithm = ht ? NCCL_EP_ALGO_HIGH_THROUGHPUT : NCCL_EP_ALGO_LOW_LATENCY;
    cfg.num_experts = E;
    cfg.max_dispatch_tokens_per_rank = T;
    cfg.max_token_bytes = H * 2;
    cfg.rdma_buffer_size = NCCL_EP_AUTO;
    cfg.num_qp_per_rank = NCCL_EP_AUTO;
    cfg.num_channels = NCCL_EP_AUTO;
    cfg.timeout_ns = 20ull * 1000 * 1000 * 1000;   // a hung kernel gives up after 20 s, not ~100 s
    const int recv_slots = T * K;                  // HT static bound: ranks * tokens * top-k
    if (ht) { cfg.max_recv_tokens_per_rank = recv_slots; cfg.num_topk = K; }
    else cfg.max_recv_tokens_per_rank = NCCL_EP_AUTO;

    ncclEpGroup_t group;
    STEP("ncclEpCreateGroup", s, ncclEpCreateGroup(&group, comm, &cfg));

    int failures = 0;
    std::vector<__nv_bfloat16> y(size_t(T) * H);
    ncclEpHandle_t handle;
    if (!ht) {
        STEP("ncclEpCreateHandle", s,
             ncclEpCreateHandle(&handle, group, NCCL_EP_LAYOUT_EXPERT_MAJOR, &ttopk.t, nullptr, nullptr, s));
        Dev drecv(size_t(E) * T * H * 2), dcnt(E * 4), dy(y.size() * 2);
        Tensor trecv(drecv, ncclBfloat16, {E, T, H}), tcnt(dcnt, ncclInt32, {E}), ty(dy, ncclBfloat16, {T, H});
        ncclEpDispatchInputs_t din = NCCL_EP_DISPATCH_INPUTS_INIT;
        din.tokens = &tx.t;
        ncclEpDispatchOutputs_t dout = NCCL_EP_DISPATCH_OUTPUTS_INIT;
        dout.tokens = &trecv.t;
        ncclEpLayoutInfo_t info = NCCL_EP_LAYOUT_INFO_INIT;
        info.expert_counters = &tcnt.t;
        ncclEpDispatchConfig_t dcfg = NCCL_EP_DISPATCH_CONFIG_INIT;
        STEP("ncclEpDispatch (1st)", s, ncclEpDispatch(handle, &din, &dout, &info, &dcfg, s));
        STEP("ncclEpComplete", s, ncclEpComplete(handle, nullptr, s));
        STEP("ncclEpDispatch (2nd)", s, ncclEpDispatch(handle, &din, &dout, &info, &dcfg, s));
        STEP("ncclEpComplete", s, ncclEpComplete(handle, nullptr, s));

        std::vector<int> cnt(E);
        std::vector<__nv_bfloat16> recv(size_t(E) * T * H);
        CUDA_OK(cudaMemcpy(cnt.data(), dcnt.p, E * 4, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(recv.data(), drecv.p, drecv.bytes, cudaMemcpyDeviceToHost));
        for (int e = 0; e < E; e++) {
            std::multiset<int> want, got;
            for (int i = 0; i < T; i++)
                for (int k = 0; k < K; k++)
                    if (topk[i * K + k] == e) want.insert(i);
            for (int r = 0; r < cnt[e] && r < T; r++) {
                const __nv_bfloat16* row = &recv[(size_t(e) * T + r) * H];
                int i = int(__bfloat162float(row[0])) - 1;
                got.insert(i);
                for (int j = 0; j < H && i >= 0 && i < T; j++)
                    if (__bfloat162float(row[j]) != token_value(i, j)) { failures++; break; }
            }
            printf("  expert %d: received %d token(s)%s\n", e, cnt[e], got == want ? "" : "  MISMATCH with routing");
            if (got != want || cnt[e] != int(want.size())) failures++;
        }
        ncclEpCombineInputs_t cin = NCCL_EP_COMBINE_INPUTS_INIT;
        cin.tokens = &trecv.t;                        // identity expert
        ncclEpCombineOutputs_t cout = NCCL_EP_COMBINE_OUTPUTS_INIT;
        cout.tokens = &ty.t;
        cout.topk_weights = &tw.t;                    // LL expert-major weighs on the receive side
        ncclEpCombineConfig_t ccfg = NCCL_EP_COMBINE_CONFIG_INIT;
        STEP("ncclEpCombine (1st)", s, ncclEpCombine(handle, &cin, &cout, &ccfg, s));
        STEP("ncclEpComplete", s, ncclEpComplete(handle, nullptr, s));
        STEP("ncclEpCombine (2nd)", s, ncclEpCombine(handle, &cin, &cout, &ccfg, s));
        STEP("ncclEpComplete", s, ncclEpComplete(handle, nullptr, s));
        CUDA_OK(cudaMemcpy(y.data(), dy.p, dy.bytes, cudaMemcpyDeviceToHost));
        STEP("ncclEpHandleDestroy", s, ncclEpHandleDestroy(handle));
    } else {
        Dev dtotal(4), decnt(E * 4);
        Tensor ttotal(dtotal, ncclInt32, {1}), tecnt(decnt, ncclInt32, {E});
        ncclEpLayoutInfo_t hinfo = NCCL_EP_LAYOUT_INFO_INIT;
        hinfo.recv_total_counter = &ttotal.t;
        hinfo.expert_counters = &tecnt.t;
        STEP("ncclEpCreateHandle", s,
             ncclEpCreateHandle(&handle, group, NCCL_EP_LAYOUT_FLAT, &ttopk.t, &hinfo, nullptr, s));
        int total = -1;
        CUDA_OK(cudaMemcpy(&total, dtotal.p, 4, cudaMemcpyDeviceToHost));
        std::vector<int> ecnt(E);
        CUDA_OK(cudaMemcpy(ecnt.data(), decnt.p, E * 4, cudaMemcpyDeviceToHost));
        printf("  recv_total_counter %d (want %d); expert_counters", total, T);
        for (int e = 0; e < E; e++) printf(" %d", ecnt[e]);
        printf("\n");
        if (total != T) failures++;

        Dev drecv(size_t(recv_slots) * H * 2), drw(size_t(recv_slots) * K * 4), dri(size_t(recv_slots) * K * 8),
            dy(y.size() * 2);
        Tensor trecv(drecv, ncclBfloat16, {size_t(recv_slots), H}), trw(drw, ncclFloat32, {size_t(recv_slots), K}),
            tri(dri, ncclInt64, {size_t(recv_slots), K}), ty(dy, ncclBfloat16, {T, H});
        ncclEpDispatchInputs_t din = NCCL_EP_DISPATCH_INPUTS_INIT;
        din.tokens = &tx.t;
        din.topk_weights = &tw.t;
        ncclEpDispatchOutputs_t dout = NCCL_EP_DISPATCH_OUTPUTS_INIT;
        dout.tokens = &trecv.t;
        dout.topk_weights = &trw.t;
        dout.topk_idx = &tri.t;
        ncclEpDispatchConfig_t dcfg = NCCL_EP_DISPATCH_CONFIG_INIT;
        STEP("ncclEpDispatch (1st)", s, ncclEpDispatch(handle, &din, &dout, nullptr, &dcfg, s));
        STEP("ncclEpDispatch (2nd)", s, ncclEpDispatch(handle, &din, &dout, nullptr, &dcfg, s));
        std::vector<__nv_bfloat16> recv(size_t(recv_slots) * H);
        CUDA_OK(cudaMemcpy(recv.data(), drecv.p, drecv.bytes, cudaMemcpyDeviceToHost));
        std::multiset<int> got;
        int n = total > 0 && total <= recv_slots ? total : 0;
        for (int r = 0; r < n; r++) {
            const __nv_bfloat16* row = &recv[size_t(r) * H];
            int i = int(__bfloat162float(row[0])) - 1;
            got.insert(i);
            for (int j = 0; j < H && i >= 0 && i < T; j++)
                if (__bfloat162float(row[j]) != token_value(i, j)) { failures++; break; }
        }
        std::multiset<int> want;
        for (int i = 0; i < T; i++) want.insert(i);
        printf("  dispatch: %d row(s) received, %s\n", n, got == want ? "one per token, rows intact" : "MISMATCH");
        if (got != want) failures++;
        ncclEpCombineInputs_t cin = NCCL_EP_COMBINE_INPUTS_INIT;
        cin.tokens = &trecv.t;                        // identity expert
        ncclEpCombineOutputs_t cout = NCCL_EP_COMBINE_OUTPUTS_INIT;
        cout.tokens = &ty.t;
        ncclEpCombineConfig_t ccfg = NCCL_EP_COMBINE_CONFIG_INIT;
        STEP("ncclEpCombine (1st)", s, ncclEpCombine(handle, &cin, &cout, &ccfg, s));
        STEP("ncclEpCombine (2nd)", s, ncclEpCombine(handle, &cin, &cout, &ccfg, s));
        CUDA_OK(cudaMemcpy(y.data(), dy.p, dy.bytes, cudaMemcpyDeviceToHost));
        STEP("ncclEpHandleDestroy", s, ncclEpHandleDestroy(handle));
    }

    int bad = 0;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < H; j++)
            if (__bfloat162float(y[size_t(i) * H + j]) != token_value(i, j)) {
                if (bad < 3) printf("  combine: token %d element %d is %g, want %g\n", i, j,
                                    __bfloat162float(y[size_t(i) * H + j]), token_value(i, j));
                bad++;
            }
    printf("  combine: %d of %d element(s) differ from the input\n", bad, T * H);
    if (bad) failures++;

    STEP("ncclEpGroupDestroy", s, ncclEpGroupDestroy(group));
    NCCL_OK(ncclCommDestroy(comm));
    printf("RESULT %s 1-rank dispatch+combine: %s\n", mode, failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    const char* m = argc > 1 ? argv[1] : "";
    if (!strcmp(m, "abi")) return abi();
    if (!strcmp(m, "ll")) return run(false);
    if (!strcmp(m, "ht")) return run(true);
    fprintf(stderr, "usage: %s abi|ll|ht\n", argv[0]);
    return 2;
}
