// Stand-in for Transformer Engine's libtransformer_engine.so (te-wheel test fixture, not NVIDIA code).
//
// It exports TE's expert-parallel C API (ep.h: the eight nvte_ep_* functions) and the tensor functions a caller
// needs to make NVTETensor values, with TE's names and signatures. Errors are thrown as std::runtime_error, as
// TE's NVTE_CHECK does; nothing returns an error code.
//
// Like TE after its dlopen change it is linked with -z now and NEEDS libnccl.so.2 (TE calls ncclGetVersion,
// ncclCommCount and ncclGetErrorString itself) but not NCCL EP and not the CUDA driver: nvte_ep_initialize finds
// NCCL EP at run time (the provider below) and calls it through pointers resolved with dlsym, so NCCL EP's own
// dependencies only have to resolve for users who initialize EP.
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <nccl.h>
#include <nccl_ep.h>
#include <transformer_engine/ep.h>
#include <transformer_engine/transformer_engine.h>

#ifdef STANDIN_NEEDS_CUDA
#include <cuda.h>
#endif

#define TE_API extern "C" __attribute__((visibility("default")))

namespace {

// ---- errors, as TE reports them: "<file>:<line> in function <f>: <message>" ----------------------------------

void append(std::string &s, const char *v) { s += v == nullptr ? "(null)" : v; }
void append(std::string &s, const std::string &v) { s += v; }
template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
void append(std::string &s, T v) {
  s += std::to_string(v);
}

template <typename... Parts>
std::string concat(const Parts &...parts) {
  std::string s;
  (append(s, parts), ...);
  return s;
}

#define TE_ERROR(...) \
  throw std::runtime_error(concat(__FILE__, ":", __LINE__, " in function ", __func__, ": ", concat(__VA_ARGS__)))

#define TE_CHECK(expr, ...)                                       \
  do {                                                            \
    if (!(expr)) TE_ERROR("Assertion failed: " #expr ". ", concat(__VA_ARGS__)); \
  } while (false)

#define TE_CHECK_NCCL(expr)                                                  \
  do {                                                                       \
    const ncclResult_t status_ = (expr);                                     \
    if (status_ != ncclSuccess) TE_ERROR("NCCL Error: ", ncclGetErrorString(status_)); \
  } while (false)

// ---- tensors ---------------------------------------------------------------------------------------------------

constexpr uint64_t kTensorMagic = 0x54454e534f52ull;  // "TENSOR"

struct Tensor {
  uint64_t magic;
  NVTEScalingMode scaling_mode;
  NVTEBasicTensor params[kNVTENumTensorParams];
};

Tensor *tensor_of(NVTETensor handle) {
  if (handle == nullptr) return nullptr;
  auto *t = static_cast<Tensor *>(handle);
  TE_CHECK(t->magic == kTensorMagic, "not a tensor made by nvte_create_tensor");
  return t;
}

size_t type_size(NVTEDType type) {
  switch (type) {
    case kNVTEByte: case kNVTEFloat8E4M3: case kNVTEFloat8E5M2: case kNVTEFloat8E8M0: return 1;
    case kNVTEInt16: case kNVTEFloat16: case kNVTEBFloat16: return 2;
    case kNVTEInt32: case kNVTEFloat32: return 4;
    case kNVTEInt64: return 8;
    case kNVTEFloat4E2M1: TE_ERROR("typeToSize() does not support the FP4 data type.");
    default: TE_ERROR("Invalid type ", static_cast<int>(type));
  }
}

size_t numel(const NVTEShape &shape) {
  size_t n = 1;
  for (size_t i = 0; i < shape.ndim; i++) n *= shape.data[i];
  return n;
}

}  // namespace

TE_API NVTETensor nvte_create_tensor(NVTEScalingMode scaling_mode) {
  auto *t = new Tensor{};
  t->magic = kTensorMagic;
  t->scaling_mode = scaling_mode;
  for (auto &p : t->params) p.dtype = kNVTEFloat32;
  return t;
}

TE_API void nvte_destroy_tensor(NVTETensor tensor) {
  Tensor *t = tensor_of(tensor);
  if (t == nullptr) return;
  t->magic = 0;
  delete t;
}

TE_API void *nvte_tensor_data(const NVTETensor tensor) {
  Tensor *t = tensor_of(tensor);
  return t == nullptr ? nullptr : t->params[kNVTERowwiseData].data_ptr;
}

TE_API NVTEShape nvte_tensor_shape(const NVTETensor tensor) {
  Tensor *t = tensor_of(tensor);
  if (t == nullptr) TE_ERROR("Invalid tensor: received null pointer in nvte_tensor_shape");
  return t->params[kNVTERowwiseData].shape;
}

TE_API NVTEDType nvte_tensor_type(const NVTETensor tensor) {
  Tensor *t = tensor_of(tensor);
  return t == nullptr ? kNVTEFloat32 : t->params[kNVTERowwiseData].dtype;
}

TE_API void nvte_set_tensor_param(NVTETensor *tensor, NVTETensorParam param_name, const NVTEBasicTensor *param) {
  TE_CHECK(tensor != nullptr, "Tensor pointer can't be NULL.");
  Tensor *t = tensor_of(*tensor);
  TE_CHECK(t != nullptr, "Tensor is not allocated.");
  TE_CHECK(param_name >= 0 && param_name < kNVTENumTensorParams, "Unknown tensor parameter ",
           static_cast<int>(param_name));
  TE_CHECK(param != nullptr, "param must not be null");
  TE_CHECK(param->shape.ndim <= 15, "a shape has at most 15 dimensions, got ", param->shape.ndim);
  t->params[param_name] = *param;
}

namespace {

// ---- the NCCL EP provider: find the library, check it, resolve what the backend calls --------------------------

#define STR_(x) #x
#define STR(x) STR_(x)
constexpr const char *kEpSoname = "libnccl_ep.so." STR(NCCL_EP_MAJOR);

struct EpApi {
  decltype(&ncclEpGetVersion) GetVersion;
  decltype(&ncclEpCreateGroup) CreateGroup;
  decltype(&ncclEpGroupDestroy) GroupDestroy;
  decltype(&ncclEpHandleMemSize) HandleMemSize;
  decltype(&ncclEpInitHandle) InitHandle;
  decltype(&ncclEpUpdateHandle) UpdateHandle;
  decltype(&ncclEpDispatch) Dispatch;
  decltype(&ncclEpCombine) Combine;
  decltype(&ncclEpHandleDestroy) HandleDestroy;
};

// The folder holding this library, so a bundle works wherever it is unpacked.
[[maybe_unused]] std::string own_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&own_folder), &info) == 0 || info.dli_fname == nullptr) {
    TE_ERROR("dladdr cannot name the file of libtransformer_engine.so");
  }
  std::string path = info.dli_fname;
  if (path.empty() || path[0] != '/') {
    // Loaded by a relative name: anchor it, so NCCL_EP_HOME stays right if the working directory changes.
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) != nullptr) path = concat(cwd, "/", path);
  }
  size_t slash = path.rfind('/');
  return path.substr(0, slash);
}

[[maybe_unused]] bool read_at(int fd, void *buffer, size_t size, uint64_t offset) {
  return pread(fd, buffer, size, static_cast<off_t>(offset)) == static_cast<ssize_t>(size);
}

// DT_SONAME of an ELF file, read from the file before it is ever mapped, so a library this provider refuses
// never runs its constructors. Returns "" with `error` set when the file has none or cannot be read.
[[maybe_unused]] std::string file_soname(const std::string &path, std::string &error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = concat("cannot open: ", std::strerror(errno));
    return "";
  }
  std::string soname;
  ElfW(Ehdr) eh{};
  std::vector<ElfW(Phdr)> ph;
  const ElfW(Phdr) *dynamic = nullptr;
  std::vector<ElfW(Dyn)> dyn;
  uint64_t strtab = 0, name = 0;
  bool has_strtab = false, has_name = false;
  if (!read_at(fd, &eh, sizeof eh, 0) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    error = "not an ELF file";
  } else if (eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) || eh.e_phnum == 0 ||
             eh.e_phnum > 256 || eh.e_phentsize != sizeof(ElfW(Phdr))) {
    error = "not an ELF shared object of this process's class";
  } else {
    ph.resize(eh.e_phnum);
    if (!read_at(fd, ph.data(), ph.size() * sizeof(ElfW(Phdr)), eh.e_phoff)) error = "truncated program headers";
    for (const auto &p : ph) {
      if (p.p_type == PT_DYNAMIC) dynamic = &p;
    }
    if (error.empty() && dynamic == nullptr) error = "no dynamic section";
  }
  if (error.empty()) {
    dyn.resize(std::min<size_t>(dynamic->p_filesz / sizeof(ElfW(Dyn)), 4096));
    if (!read_at(fd, dyn.data(), dyn.size() * sizeof(ElfW(Dyn)), dynamic->p_offset)) error = "truncated dynamic section";
    for (const auto &d : dyn) {
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr, has_strtab = true;
      if (d.d_tag == DT_SONAME) name = d.d_un.d_val, has_name = true;
    }
    if (error.empty() && !has_name) error = "no DT_SONAME";
    if (error.empty() && !has_strtab) error = "no DT_STRTAB";
  }
  if (error.empty()) {
    // The string table is given as an address: find the file offset of the segment that holds it.
    bool mapped = false;
    for (const auto &p : ph) {
      if (p.p_type == PT_LOAD && strtab >= p.p_vaddr && strtab < p.p_vaddr + p.p_filesz) {
        char text[256] = {};
        uint64_t at = p.p_offset + (strtab - p.p_vaddr) + name;
        ssize_t got = pread(fd, text, sizeof text - 1, static_cast<off_t>(at));
        if (got > 0) soname.assign(text, strnlen(text, static_cast<size_t>(got)));
        mapped = true;
        break;
      }
    }
    if (!mapped || soname.empty()) error = "unreadable DT_SONAME";
  }
  close(fd);
  return soname;
}

// Finds and opens NCCL EP by the one selection rule: $NCCL_EP_HOME/lib/libnccl_ep.so.<MAJOR>,
// $NCCL_EP_HOME/lib/libnccl_ep.so, then the same two names beside this library. A candidate is accepted only if
// its SONAME is libnccl_ep.so.<MAJOR> and its ncclEpGetVersion reports that major; otherwise the next is tried.
EpApi load_nccl_ep() {
#ifdef STANDIN_UNDEFINED_EP_SYMBOLS
  // Defect: the backend bound to NCCL EP at link time, leaving undefined ncclEp* symbols that -z now must resolve
  // when this library loads.
  return EpApi{&ncclEpGetVersion, &ncclEpCreateGroup, &ncclEpGroupDestroy, &ncclEpHandleMemSize, &ncclEpInitHandle,
               &ncclEpUpdateHandle, &ncclEpDispatch, &ncclEpCombine, &ncclEpHandleDestroy};
#else
  const std::string own = own_folder();
  // Point NCCL EP's JIT at the headers shipped beside this library, unless the user chose a folder.
  setenv("NCCL_EP_HOME", (own + "/nccl_ep").c_str(), 0);
  std::vector<std::string> candidates;
  const char *home = std::getenv("NCCL_EP_HOME");
  if (home != nullptr && home[0] != '\0') {
    candidates.push_back(concat(home, "/lib/", kEpSoname));
    candidates.push_back(concat(home, "/lib/libnccl_ep.so"));
  }
  candidates.push_back(concat(own, "/", kEpSoname));
  candidates.push_back(concat(own, "/libnccl_ep.so"));

  std::string tried;
  void *library = nullptr;
  std::string chosen;
  for (const auto &path : candidates) {
    std::string why;
    if (access(path.c_str(), F_OK) != 0) {
      why = "no such file";
    } else {
      std::string soname = file_soname(path, why);
      if (why.empty() && soname != kEpSoname) why = concat("SONAME ", soname, ", not ", kEpSoname);
    }
    if (why.empty()) {
      library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (library == nullptr) {
        const char *text = dlerror();
        why = concat("dlopen failed: ", text == nullptr ? "(no dlerror)" : text);
      } else {
        auto get_version = reinterpret_cast<decltype(&ncclEpGetVersion)>(dlsym(library, "ncclEpGetVersion"));
        int version = 0;
        if (get_version == nullptr) {
          why = "no ncclEpGetVersion";
        } else if (get_version(&version) != ncclSuccess) {
          why = "ncclEpGetVersion failed";
        } else if (version / 10000 != NCCL_EP_MAJOR) {
          why = concat("ncclEpGetVersion reports ", version, ", not major ", NCCL_EP_MAJOR);
        }
        if (!why.empty()) {
          dlclose(library);
          library = nullptr;
        }
      }
    }
    if (library != nullptr) {
      chosen = path;
      break;
    }
    tried += concat(tried.empty() ? "" : "; ", path, " (", why, ")");
  }
  if (library == nullptr) {
    TE_ERROR("NCCL EP (", kEpSoname, ") could not be loaded. Tried: ", tried,
             ". Set NCCL_EP_HOME to the NCCL EP installation whose lib/ holds it.");
  }
  auto resolve = [&](const char *name) {
    dlerror();
    void *symbol = dlsym(library, name);
    if (symbol == nullptr) {
      const char *text = dlerror();
      TE_ERROR("NCCL EP library ", chosen, " does not define ", name, ": ", text == nullptr ? "" : text);
    }
    return symbol;
  };
  EpApi api{};
  api.GetVersion = reinterpret_cast<decltype(api.GetVersion)>(resolve("ncclEpGetVersion"));
  api.CreateGroup = reinterpret_cast<decltype(api.CreateGroup)>(resolve("ncclEpCreateGroup"));
  api.GroupDestroy = reinterpret_cast<decltype(api.GroupDestroy)>(resolve("ncclEpGroupDestroy"));
  api.HandleMemSize = reinterpret_cast<decltype(api.HandleMemSize)>(resolve("ncclEpHandleMemSize"));
  api.InitHandle = reinterpret_cast<decltype(api.InitHandle)>(resolve("ncclEpInitHandle"));
  api.UpdateHandle = reinterpret_cast<decltype(api.UpdateHandle)>(resolve("ncclEpUpdateHandle"));
  api.Dispatch = reinterpret_cast<decltype(api.Dispatch)>(resolve("ncclEpDispatch"));
  api.Combine = reinterpret_cast<decltype(api.Combine)>(resolve("ncclEpCombine"));
  api.HandleDestroy = reinterpret_cast<decltype(api.HandleDestroy)>(resolve("ncclEpHandleDestroy"));
  return api;
#endif
}

// ---- the EP backend, following TE's ep_backend.cpp -------------------------------------------------------------

ncclDataType_t nccl_type(NVTEDType type) {
  switch (type) {
    case kNVTEFloat32: return ncclFloat32;
    case kNVTEFloat16: return ncclFloat16;
    case kNVTEBFloat16: return ncclBfloat16;
    case kNVTEInt32: return ncclInt32;
    case kNVTEInt64: return ncclInt64;
    case kNVTEByte: return ncclUint8;
    case kNVTEFloat8E4M3: return ncclFloat8e4m3;
    case kNVTEFloat8E5M2: return ncclFloat8e5m2;
    case kNVTEFloat8E8M0: return ncclUint8;
    default: TE_ERROR("Unsupported NVTEDType for NCCL dtype conversion: ", static_cast<int>(type));
  }
}

enum class Part { kData, kScaleInv };

// An NCCL EP descriptor of a tensor's data or of its rowwise scale-inverse. `shape` backs desc.sizes and must
// outlive the NCCL EP call. A window in `win` replaces the data pointer.
ncclEpTensor_t descriptor(NVTETensor t, NVTEShape &shape, const NVTECommWindow &win = {}, Part part = Part::kData) {
  Tensor *tensor = tensor_of(t);
  TE_CHECK(tensor != nullptr, "tensor must not be null");
  const NVTEBasicTensor &source = tensor->params[part == Part::kData ? kNVTERowwiseData : kNVTERowwiseScaleInv];
  ncclEpTensor_t desc = NCCL_EP_TENSOR_INIT;
  shape = source.shape;
  desc.datatype = nccl_type(source.dtype);
  desc.ndim = static_cast<unsigned int>(shape.ndim);
  desc.sizes = shape.data;
  ncclWindow_t window = part == Part::kData ? win.window : win.scale_window;
  if (window != nullptr) {
    desc.win_hdl = window;
    desc.win_offset = part == Part::kData ? win.offset : win.scale_offset;
  } else {
    desc.data = source.data_ptr;
    TE_CHECK(desc.data != nullptr || numel(shape) == 0, "non-empty tensor data must not be null");
  }
  return desc;
}

struct HandleEntry {
  void *handle_mem;
  ncclEpHandle_t handle;
  NVTEEpLayerConfig layer;
  size_t mem_size;
};

class Backend {
 public:
  static Backend &instance() {
    static Backend backend;
    return backend;
  }

  static Backend &get() {
    Backend &b = instance();
    TE_CHECK(b.initialized_, "EPBackend not initialized. Call nvte_ep_initialize() first.");
    return b;
  }

  void initialize(ncclComm_t comm, const NVTEEpGroupConfig &config) {
    std::lock_guard<std::mutex> lock(mutex_);
    TE_CHECK(!initialized_, "EP already initialized. Call initialize only once per process.");
    TE_CHECK(comm != nullptr, "ep_comm must not be null");
    // TE's run-time gate, the NCCL its build was pinned to.
    constexpr int kMinNcclVersion = 23004;
    int nccl_version = 0;
    TE_CHECK_NCCL(ncclGetVersion(&nccl_version));
    TE_CHECK(nccl_version >= kMinNcclVersion, "NCCL EP requires NCCL >= 2.30.4, found ", nccl_version / 10000, ".",
             (nccl_version / 100) % 100, ".", nccl_version % 100, " at runtime.");
    validate(config);
    int comm_size = 0;
    TE_CHECK_NCCL(ncclCommCount(comm, &comm_size));
    TE_CHECK(comm_size == config.ep_size, "ep_comm size (", comm_size, ") must equal ep_size (", config.ep_size,
             "). Pass the EP sub-communicator, not the world comm.");
#ifdef STANDIN_NEEDS_CUDA
    // Defect: a direct call into the CUDA driver, which makes this library NEED libcuda.so.1.
    int driver = 0;
    TE_CHECK(cuDriverGetVersion(&driver) == CUDA_SUCCESS, "cuDriverGetVersion failed");
#endif
#ifdef STANDIN_WINDOW_REGISTER
    // Built against a newer NCCL: a call to ncclCommWindowRegister (NCCL 2.27+), which an older floor NCCL lacks.
    ncclWindow_t probe_window = nullptr;
    static char probe_byte;
    if (ncclCommWindowRegister(comm, &probe_byte, 1, &probe_window, 0) == ncclSuccess) {
      ncclCommWindowDeregister(comm, probe_window);
    }
#endif
    if (!api_) api_ = load_nccl_ep();

    ncclEpGroupConfig_t cfg = NCCL_EP_GROUP_CONFIG_INIT;
    cfg.algorithm = NCCL_EP_ALGO_HIGH_THROUGHPUT;
    cfg.num_experts = static_cast<unsigned int>(config.num_experts);
    cfg.max_dispatch_tokens_per_rank = static_cast<unsigned int>(config.max_tokens_per_rank);
    cfg.max_token_bytes = static_cast<unsigned int>(config.hidden_dim * type_size(config.max_token_dtype));
    cfg.rdma_buffer_size = NCCL_EP_AUTO;
    cfg.num_qp_per_rank = NCCL_EP_AUTO;
    cfg.num_channels = NCCL_EP_AUTO;
    cfg.max_num_sms = config.num_comm_sms > 0 ? static_cast<unsigned int>(config.num_comm_sms) : NCCL_EP_AUTO;
    cfg.max_recv_tokens_per_rank = static_cast<unsigned int>(config.max_recv_tokens_per_rank);
    cfg.zero_copy = config.zero_copy ? NCCL_EP_ZERO_COPY_ON : NCCL_EP_ZERO_COPY_OFF;
    cfg.num_topk = static_cast<unsigned int>(config.num_topk);
    cfg.overflow_policy = config.drop_on_overflow ? NCCL_EP_OVERFLOW_DROP : NCCL_EP_OVERFLOW_AUTO;
    TE_CHECK_NCCL(api_->CreateGroup(&group_, comm, &cfg));
    config_ = config;
    comm_ = comm;
    initialized_ = true;
  }

  void shutdown() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!initialized_) return;
    for (auto &entry : lru_) {
      if (entry.handle != nullptr) api_->HandleDestroy(entry.handle);
    }
    lru_.clear();
    index_.clear();
    fallback_layer_.reset();
    // The group reads the communicator while it is destroyed, so it goes first; the communicator is the caller's.
    if (group_ != nullptr) {
      api_->GroupDestroy(group_);
      group_ = nullptr;
    }
    comm_ = nullptr;
    initialized_ = false;
  }

  size_t handle_mem_size(const NVTEEpLayerConfig &layer) {
    TE_CHECK(layer.top_k > 0, "top_k must be > 0, got ", layer.top_k);
    std::lock_guard<std::mutex> lock(mutex_);
    TE_CHECK(initialized_, "EPBackend not initialized");
    ncclEpHandleConfig_t hcfg = NCCL_EP_HANDLE_CONFIG_INIT;
    hcfg.dispatch_output_per_expert_alignment = layer.dispatch_output_per_expert_alignment;
    size_t size = 0;
    TE_CHECK_NCCL(api_->HandleMemSize(group_, NCCL_EP_LAYOUT_EXPERT_MAJOR, &hcfg, &size, layer.top_k));
    return size;
  }

  void prepare(void *handle_mem, NVTETensor topk_idx, NVTETensor recv_tokens_per_expert,
               NVTETensor total_recv_tokens_per_rank, const NVTEEpLayerConfig &layer, cudaStream_t stream) {
    TE_CHECK(handle_mem != nullptr, "handle_mem must not be null");
    TE_CHECK(layer.top_k > 0, "top_k must be > 0, got ", layer.top_k);
    TE_CHECK(nvte_tensor_shape(topk_idx).ndim == 2, "topk_idx must be 2D [T, top_k]");
    NVTEShape idx_shape, counts_shape, total_shape;
    ncclEpTensor_t idx = descriptor(topk_idx, idx_shape);
    ncclEpTensor_t counts, total;
    ncclEpLayoutInfo_t info = NCCL_EP_LAYOUT_INFO_INIT;
    if (recv_tokens_per_expert != nullptr) {
      counts = descriptor(recv_tokens_per_expert, counts_shape);
      info.expert_counters = &counts;
    }
    if (total_recv_tokens_per_rank != nullptr) {
      total = descriptor(total_recv_tokens_per_rank, total_shape);
      info.recv_total_counter = &total;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    TE_CHECK(initialized_, "EPBackend not initialized");
    ncclEpHandle_t h = prepare_handle_locked(handle_mem, layer);
    TE_CHECK_NCCL(api_->UpdateHandle(h, &idx, &info, stream));
  }

  void dispatch(void *handle_mem, NVTETensor topk_idx, NVTETensor tokens, const NVTECommWindow &tokens_win,
                NVTETensor topk_weights, const NVTECommWindow &topk_weights_win, NVTETensor recv_tokens,
                const NVTECommWindow &recv_tokens_win, NVTETensor recv_topk_weights,
                const NVTECommWindow &recv_topk_weights_win, cudaStream_t stream) {
    TE_CHECK(handle_mem != nullptr, "handle_mem must not be null");
    TE_CHECK(nvte_tensor_shape(tokens).ndim == 2, "tokens must be 2D [T, hidden_dim]");
    TE_CHECK(nvte_tensor_shape(recv_tokens).ndim == 2, "recv_tokens must be 2D [recv_T, hidden_dim]");
    const NVTEDType token_type = nvte_tensor_type(tokens), recv_type = nvte_tensor_type(recv_tokens);
    TE_CHECK(type_size(token_type) <= type_size(config_.max_token_dtype), "tokens dtype (",
             static_cast<int>(token_type), ") wider than group max_token_dtype (",
             static_cast<int>(config_.max_token_dtype), ")");
    TE_CHECK(type_size(recv_type) <= type_size(config_.max_token_dtype), "recv_tokens dtype (",
             static_cast<int>(recv_type), ") wider than group max_token_dtype (",
             static_cast<int>(config_.max_token_dtype), ")");
    NVTEShape tokens_shape, recv_shape, w_shape, recv_w_shape, scales_shape, recv_scales_shape;
    ncclEpTensor_t in_tokens = descriptor(tokens, tokens_shape, tokens_win);
    ncclEpTensor_t out_tokens = descriptor(recv_tokens, recv_shape, recv_tokens_win);
    // The routing is in handle_mem since prepare; forward dispatch also carries the weights.
    const bool forward = topk_weights != nullptr;
    ncclEpTensor_t in_w, out_w;
    if (forward) {
      TE_CHECK(topk_idx != nullptr, "topk_idx required in forward dispatch");
      TE_CHECK(nvte_tensor_shape(topk_idx).ndim == 2, "topk_idx must be 2D [T, top_k]");
      TE_CHECK(nvte_tensor_shape(topk_weights).ndim == 2, "topk_weights must be 2D [T, top_k]");
      TE_CHECK(recv_topk_weights != nullptr, "recv_topk_weights must not be null in forward dispatch");
      TE_CHECK(nvte_tensor_shape(recv_topk_weights).ndim == 1, "recv_topk_weights must be 1D [recv_capacity]");
      in_w = descriptor(topk_weights, w_shape, topk_weights_win);
      out_w = descriptor(recv_topk_weights, recv_w_shape, recv_topk_weights_win);
    }
    // Block-scaled tokens (MXFP8) carry their rowwise scale-inverse along.
    const NVTEScalingMode mode = tensor_of(tokens)->scaling_mode;
    const bool scaled = mode != NVTE_DELAYED_TENSOR_SCALING;
    ncclEpTensor_t in_scales = NCCL_EP_TENSOR_INIT, out_scales = NCCL_EP_TENSOR_INIT;
    if (scaled) {
      TE_CHECK(mode == NVTE_MXFP8_1D_SCALING, "EP dispatch supports MXFP8 block scaling only; got scaling mode ",
               static_cast<int>(mode));
      TE_CHECK(tensor_of(recv_tokens)->scaling_mode == mode, "recv_tokens scaling mode must match tokens scaling mode");
      in_scales = descriptor(tokens, scales_shape, tokens_win, Part::kScaleInv);
      out_scales = descriptor(recv_tokens, recv_scales_shape, recv_tokens_win, Part::kScaleInv);
    } else {
      TE_CHECK(token_type != kNVTEFloat8E4M3 && token_type != kNVTEFloat8E5M2,
               "EP dispatch of FP8 tokens requires a block scaling mode (e.g. MXFP8); per-tensor (delayed) FP8 "
               "scaling is not supported");
    }
    ncclEpDispatchInputs_t in = NCCL_EP_DISPATCH_INPUTS_INIT;
    in.tokens = &in_tokens;
    in.topk_weights = forward ? &in_w : nullptr;
    in.scales = scaled ? &in_scales : nullptr;
    ncclEpDispatchOutputs_t out = NCCL_EP_DISPATCH_OUTPUTS_INIT;
    out.tokens = &out_tokens;
    out.topk_weights = forward ? &out_w : nullptr;
    out.scales = scaled ? &out_scales : nullptr;
    ncclEpDispatchConfig_t cfg = NCCL_EP_DISPATCH_CONFIG_INIT;
    cfg.pass_direction = forward ? NCCL_EP_FWD_PASS : NCCL_EP_BWD_PASS;
    cfg.quant_recipe = scaled ? NCCL_EP_DISP_QUANT_FWD : NCCL_EP_DISP_QUANT_NONE;
    std::lock_guard<std::mutex> lock(mutex_);
    TE_CHECK(initialized_, "EPBackend not initialized");
    ncclEpHandle_t h = lookup_handle_locked(handle_mem);
    TE_CHECK_NCCL(api_->Dispatch(h, &in, &out, nullptr, &cfg, stream));
  }

  void combine(void *handle_mem, NVTETensor expert_out, const NVTECommWindow &expert_out_win, NVTETensor result,
               cudaStream_t stream) {
    TE_CHECK(handle_mem != nullptr, "handle_mem must not be null");
    TE_CHECK(nvte_tensor_shape(expert_out).ndim == 2, "expert_out must be 2D [recv_T, hidden_dim]");
    TE_CHECK(nvte_tensor_shape(result).ndim == 2, "result must be 2D [T, hidden_dim]");
    NVTEShape in_shape, out_shape;
    ncclEpTensor_t x = descriptor(expert_out, in_shape, expert_out_win);
    ncclEpTensor_t y = descriptor(result, out_shape);
    ncclEpCombineInputs_t in = NCCL_EP_COMBINE_INPUTS_INIT;
    in.tokens = &x;
    ncclEpCombineOutputs_t out = NCCL_EP_COMBINE_OUTPUTS_INIT;
    out.tokens = &y;
    std::lock_guard<std::mutex> lock(mutex_);
    TE_CHECK(initialized_, "EPBackend not initialized");
    ncclEpHandle_t h = lookup_handle_locked(handle_mem);
    TE_CHECK_NCCL(api_->Combine(h, &in, &out, nullptr, stream));
  }

  // Backward of dispatch: a backward-pass combine that also gathers the weight gradients.
  void dispatch_bwd(void *handle_mem, NVTETensor grad, const NVTECommWindow &grad_win, NVTETensor g_recv_w,
                    const NVTECommWindow &g_recv_w_win, NVTETensor grad_tokens, NVTETensor grad_w,
                    cudaStream_t stream) {
    TE_CHECK(handle_mem != nullptr, "handle_mem must not be null");
    TE_CHECK(nvte_tensor_shape(grad).ndim == 2, "grad must be 2D [recv_capacity, hidden_dim]");
    TE_CHECK(nvte_tensor_shape(grad_tokens).ndim == 2, "grad_tokens must be 2D [T, hidden_dim]");
    TE_CHECK(nvte_tensor_shape(g_recv_w).ndim == 1,
             "g_recv_topk_weights must be 1D [recv_capacity]; caller must flatten leading dims");
    TE_CHECK(nvte_tensor_shape(grad_w).ndim == 2, "grad_topk_weights must be 2D [T, top_k]");
    NVTEShape s1, s2, s3, s4;
    ncclEpTensor_t tok_in = descriptor(grad, s1, grad_win);
    ncclEpTensor_t w_in = descriptor(g_recv_w, s2, g_recv_w_win);
    ncclEpTensor_t tok_out = descriptor(grad_tokens, s3);
    ncclEpTensor_t w_out = descriptor(grad_w, s4);
    ncclEpCombineInputs_t in = NCCL_EP_COMBINE_INPUTS_INIT;
    in.tokens = &tok_in;
    in.topk_weights = &w_in;
    ncclEpCombineOutputs_t out = NCCL_EP_COMBINE_OUTPUTS_INIT;
    out.tokens = &tok_out;
    out.topk_weights = &w_out;
    ncclEpCombineConfig_t cfg = NCCL_EP_COMBINE_CONFIG_INIT;
    cfg.pass_direction = NCCL_EP_BWD_PASS;
    std::lock_guard<std::mutex> lock(mutex_);
    TE_CHECK(initialized_, "EPBackend not initialized");
    ncclEpHandle_t h = lookup_handle_locked(handle_mem);
    TE_CHECK_NCCL(api_->Combine(h, &in, &out, &cfg, stream));
  }

  // Backward of combine: a backward-pass dispatch without weights.
  void combine_bwd(void *handle_mem, NVTETensor grad, const NVTECommWindow &grad_win, NVTETensor grad_expert_out,
                   const NVTECommWindow &grad_expert_out_win, cudaStream_t stream) {
    dispatch(handle_mem, nullptr, grad, grad_win, nullptr, NVTECommWindow{}, grad_expert_out, grad_expert_out_win,
             nullptr, NVTECommWindow{}, stream);
  }

 private:
  Backend() = default;

  // At process exit the communicator may be gone already: forget the state without calling NCCL EP.
  ~Backend() = default;

  static void validate(const NVTEEpGroupConfig &c) {
    TE_CHECK(c.ep_size > 0, "ep_size must be positive, got ", c.ep_size);
    TE_CHECK(c.num_experts > 0, "num_experts must be positive, got ", c.num_experts);
    TE_CHECK(c.max_tokens_per_rank > 0, "max_tokens_per_rank must be positive, got ", c.max_tokens_per_rank);
    TE_CHECK(c.max_recv_tokens_per_rank >= 0, "max_recv_tokens_per_rank must be non-negative, got ",
             c.max_recv_tokens_per_rank);
    TE_CHECK(!(c.zero_copy && c.max_recv_tokens_per_rank == 0),
             "zero-copy and eager (max_recv_tokens_per_rank = 0) modes are mutually exclusive");
    TE_CHECK(!(c.drop_on_overflow && c.max_recv_tokens_per_rank == 0),
             "drop_on_overflow is not supported in eager mode (max_recv_tokens_per_rank = 0)");
    TE_CHECK(c.hidden_dim > 0, "hidden_dim must be positive, got ", c.hidden_dim);
    TE_CHECK(c.max_token_dtype >= 0 && c.max_token_dtype < kNVTENumTypes, "max_token_dtype out of range, got ",
             static_cast<int>(c.max_token_dtype));
    const size_t row = static_cast<size_t>(c.hidden_dim) * type_size(c.max_token_dtype);
    TE_CHECK(row >= 16, "hidden_dim * sizeof(max_token_dtype) must be >= 16 (NCCL EP 16B row alignment); got hidden_dim=",
             c.hidden_dim, ", element_bytes=", type_size(c.max_token_dtype));
    TE_CHECK(row <= static_cast<size_t>(UINT_MAX), "hidden_dim * sizeof(max_token_dtype) exceeds 4 GiB; got ", row,
             " bytes");
    TE_CHECK(c.num_experts % c.ep_size == 0, "num_experts (", c.num_experts, ") must be divisible by ep_size (",
             c.ep_size, ")");
    TE_CHECK(c.num_comm_sms >= 0, "num_comm_sms must be >= 0 (0 = auto), got ", c.num_comm_sms);
    // TE also requires the current device to be SM_90 or newer (cuda::sm_arch()). The stand-in world has no GPU to
    // ask, so that check is left out.
  }

  size_t cache_cap_locked() {
    if (cache_cap_ == 0) {
      const char *env = std::getenv("NVTE_EP_HANDLE_CACHE_SIZE");
      if (env == nullptr) {
        cache_cap_ = 4096;
      } else {
        const long long v = std::atoll(env);
        TE_CHECK(v != 0, "NVTE_EP_HANDLE_CACHE_SIZE=0 is invalid; use -1 for unlimited or a positive cap.");
        cache_cap_ = v < 0 ? SIZE_MAX : static_cast<size_t>(v);
      }
    }
    return cache_cap_;
  }

  ncclEpHandle_t open_handle(void *handle_mem, size_t size, const NVTEEpLayerConfig &layer) {
    size_t sizes[1] = {size};
    ncclEpTensor_t mem = NCCL_EP_TENSOR_INIT;
    mem.ndim = 1;
    mem.datatype = ncclUint8;
    mem.data = handle_mem;
    mem.sizes = sizes;
    ncclEpHandleConfig_t hcfg = NCCL_EP_HANDLE_CONFIG_INIT;
    hcfg.dispatch_output_per_expert_alignment = layer.dispatch_output_per_expert_alignment;
    ncclEpHandle_t handle = nullptr;
    TE_CHECK_NCCL(api_->InitHandle(&handle, group_, NCCL_EP_LAYOUT_EXPERT_MAJOR, &hcfg, layer.top_k, &mem));
    return handle;
  }

  // Handles are cached by handle_mem address. The first prepare's layer config becomes the process-wide fallback,
  // used to reopen a handle when an op meets a handle_mem it has not seen (TE's workaround for relocated buffers).
  ncclEpHandle_t prepare_handle_locked(void *handle_mem, const NVTEEpLayerConfig &layer) {
    if (fallback_layer_) {
      TE_CHECK(fallback_layer_->top_k == layer.top_k, "EP prepare top_k=", layer.top_k,
               " disagrees with process-wide cached top_k=", fallback_layer_->top_k);
      TE_CHECK(fallback_layer_->dispatch_output_per_expert_alignment == layer.dispatch_output_per_expert_alignment,
               "EP prepare alignment=", layer.dispatch_output_per_expert_alignment,
               " disagrees with process-wide cached alignment=", fallback_layer_->dispatch_output_per_expert_alignment);
    } else {
      fallback_layer_ = layer;
    }
    auto found = index_.find(handle_mem);
    if (found != index_.end()) {
      lru_.splice(lru_.begin(), lru_, found->second);
      return found->second->handle;
    }
    ncclEpHandleConfig_t hcfg = NCCL_EP_HANDLE_CONFIG_INIT;
    hcfg.dispatch_output_per_expert_alignment = layer.dispatch_output_per_expert_alignment;
    size_t size = 0;
    TE_CHECK_NCCL(api_->HandleMemSize(group_, NCCL_EP_LAYOUT_EXPERT_MAJOR, &hcfg, &size, layer.top_k));
    ncclEpHandle_t handle = open_handle(handle_mem, size, layer);
    lru_.push_front(HandleEntry{handle_mem, handle, layer, size});
    index_.emplace(handle_mem, lru_.begin());
    while (lru_.size() > cache_cap_locked()) {
      HandleEntry &victim = lru_.back();
      if (victim.handle != nullptr) api_->HandleDestroy(victim.handle);
      index_.erase(victim.handle_mem);
      lru_.pop_back();
    }
    return handle;
  }

  ncclEpHandle_t lookup_handle_locked(void *handle_mem) {
    auto found = index_.find(handle_mem);
    if (found != index_.end()) {
      lru_.splice(lru_.begin(), lru_, found->second);
      return found->second->handle;
    }
    TE_CHECK(fallback_layer_.has_value(), "ep op on handle_mem=0x", reinterpret_cast<uintptr_t>(handle_mem),
             " with no cached entry and no prior nvte_ep_prepare; call prepare first.");
    return prepare_handle_locked(handle_mem, *fallback_layer_);
  }

  std::mutex mutex_;
  bool initialized_ = false;
  std::optional<EpApi> api_;
  NVTEEpGroupConfig config_{};
  ncclComm_t comm_ = nullptr;
  ncclEpGroup_t group_ = nullptr;
  std::list<HandleEntry> lru_;
  std::unordered_map<void *, std::list<HandleEntry>::iterator> index_;
  std::optional<NVTEEpLayerConfig> fallback_layer_;
  size_t cache_cap_ = 0;
};

// ep_api.cpp's config normalisation: struct_size 0 is the base layout; a caller's bytes beyond this library's
// struct are dropped, fields the caller lacks stay zero.
template <typename Config>
Config normalize(const Config *user, size_t min_size, const char *name) {
  TE_CHECK(user != nullptr, name, " must not be null");
  const size_t want = user->struct_size == 0 ? min_size : user->struct_size;
  TE_CHECK(want >= min_size, name, ".struct_size (", user->struct_size, ") is below the required minimum ", min_size,
           "; zero-initialize the struct or set struct_size via NVTE_EP_*_CONFIG_INIT");
  Config config{};
  std::memcpy(&config, user, std::min(want, sizeof(Config)));
  config.struct_size = sizeof(Config);
  return config;
}

constexpr size_t kGroupConfigMinSize = offsetof(NVTEEpGroupConfig, zero_copy) + sizeof(int);
constexpr size_t kLayerConfigMinSize =
    offsetof(NVTEEpLayerConfig, dispatch_output_per_expert_alignment) + sizeof(size_t);

void *handle_mem_ptr(NVTETensor mem) {
  void *p = nvte_tensor_data(mem);
  TE_CHECK(p != nullptr, "handle_mem tensor data must not be null");
  return p;
}

}  // namespace

TE_API void nvte_ep_initialize(void *ep_comm, const NVTEEpGroupConfig *group_config) {
  TE_CHECK(ep_comm != nullptr, "ep_comm must not be null");
  NVTEEpGroupConfig config = normalize(group_config, kGroupConfigMinSize, "group_config");
  Backend::instance().initialize(static_cast<ncclComm_t>(ep_comm), config);
}

TE_API void nvte_ep_shutdown(void) { Backend::instance().shutdown(); }

TE_API size_t nvte_ep_handle_mem_size(const NVTEEpLayerConfig *layer_cfg) {
  NVTEEpLayerConfig layer = normalize(layer_cfg, kLayerConfigMinSize, "layer_cfg");
  return Backend::get().handle_mem_size(layer);
}

TE_API void nvte_ep_prepare(NVTETensor handle_mem, NVTETensor topk_idx, NVTETensor recv_tokens_per_expert,
                            NVTETensor total_recv_tokens_per_rank, const NVTEEpLayerConfig *layer_cfg,
                            cudaStream_t stream) {
  NVTEEpLayerConfig layer = normalize(layer_cfg, kLayerConfigMinSize, "layer_cfg");
  Backend::get().prepare(handle_mem_ptr(handle_mem), topk_idx, recv_tokens_per_expert, total_recv_tokens_per_rank,
                         layer, stream);
}

TE_API void nvte_ep_dispatch(NVTETensor handle_mem, NVTETensor topk_idx, NVTETensor tokens, NVTECommWindow tokens_win,
                             NVTETensor topk_weights, NVTECommWindow topk_weights_win, NVTETensor recv_tokens,
                             NVTECommWindow recv_tokens_win, NVTETensor recv_topk_weights,
                             NVTECommWindow recv_topk_weights_win, cudaStream_t stream) {
  Backend::get().dispatch(handle_mem_ptr(handle_mem), topk_idx, tokens, tokens_win, topk_weights, topk_weights_win,
                          recv_tokens, recv_tokens_win, recv_topk_weights, recv_topk_weights_win, stream);
}

TE_API void nvte_ep_combine(NVTETensor handle_mem, NVTETensor expert_out, NVTECommWindow expert_out_win,
                            NVTETensor result, cudaStream_t stream) {
  Backend::get().combine(handle_mem_ptr(handle_mem), expert_out, expert_out_win, result, stream);
}

TE_API void nvte_ep_dispatch_bwd(NVTETensor handle_mem, NVTETensor grad, NVTECommWindow grad_win,
                                 NVTETensor g_recv_topk_weights, NVTECommWindow g_recv_topk_weights_win,
                                 NVTETensor grad_tokens, NVTETensor grad_topk_weights, cudaStream_t stream) {
  Backend::get().dispatch_bwd(handle_mem_ptr(handle_mem), grad, grad_win, g_recv_topk_weights,
                              g_recv_topk_weights_win, grad_tokens, grad_topk_weights, stream);
}

TE_API void nvte_ep_combine_bwd(NVTETensor handle_mem, NVTETensor grad, NVTECommWindow grad_win,
                                NVTETensor grad_expert_out, NVTECommWindow grad_expert_out_win, cudaStream_t stream) {
  Backend::get().combine_bwd(handle_mem_ptr(handle_mem), grad, grad_win, grad_expert_out, grad_expert_out_win, stream);
}
