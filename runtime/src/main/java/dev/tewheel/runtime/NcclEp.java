package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.runtime.internal.Config;
import dev.tewheel.runtime.internal.Symbols;
import dev.tewheel.runtime.internal.VersionGetter;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NCCL EP ({@code libnccl_ep.so.0}), loaded once per process by {@link TeRuntime#loadNcclEp()}: typed bindings for
 * the 18 functions of {@code nccl_ep.h}. Each returns normally on {@code ncclSuccess} and otherwise throws
 * {@link NcclEpException} with NCCL's {@code ncclGetErrorString} text. Structs are the layouts of
 * {@link NcclEpStructs}; a struct argument is checked (not NULL unless optional, large enough, the right magic)
 * before the call, because NCCL EP {@code assert}s on many bad inputs, which would end the process.
 *
 * <p>Handles ({@code ncclComm_t}, {@code ncclEpGroup_t}, {@code ncclEpHandle_t}, {@code cudaStream_t}) are
 * {@link MemorySegment} addresses; {@link MemorySegment#NULL} is the default stream.
 */
public final class NcclEp {
  /**
   * The functions a usable NCCL EP must define, from bundle's one list: availability refuses a library lacking any,
   * as TE's provider would.
   */
  public static final List<String> REQUIRED_FUNCTIONS = NcclEpFunctions.REQUIRED;

  private static final int TENSOR_ALLOC_DYNAMIC = 0xBEEFBEEF;

  /** The one instance of the process; written once by TeRuntime before any holder below is initialised. */
  private static volatile NcclEp instance;

  private final Config config;
  private final Path file;
  private final Path mappedFrom;
  private final NcclEpVersion version;
  private final Availability availability;
  private final Nccl nccl;
  private final Optional<EnvironmentSetting> ncclEpHome;
  private final Symbols symbols;
  private final Map<String, MethodHandle> spreaders = new ConcurrentHashMap<>();

  NcclEp(Config config, Path file, Path mappedFrom, NcclEpVersion version, Availability availability, Nccl nccl,
      Optional<EnvironmentSetting> ncclEpHome, Symbols symbols) {
    this.config = config;
    this.file = file;
    this.mappedFrom = mappedFrom;
    this.version = version;
    this.availability = availability;
    this.nccl = nccl;
    this.ncclEpHome = ncclEpHome;
    this.symbols = symbols;
  }

  static void publish(NcclEp ep) {
    instance = java.util.Objects.requireNonNull(ep);
  }

  Config config() {
    return config;
  }

  /** The file the selection rule chose. */
  public Path file() {
    return file;
  }

  /** The file the dynamic linker mapped, by dlinfo (the same file as {@link #file()}, maybe by another name). */
  public Path mappedFrom() {
    return mappedFrom;
  }

  /** What {@code ncclEpGetVersion} reported when the library was loaded. */
  public NcclEpVersion version() {
    return version;
  }

  /** The availability report the load was decided by. */
  public Availability availability() {
    return availability;
  }

  /**
   * What became of {@code NCCL_EP_HOME}, which NCCL EP's JIT reads to find the shipped headers: set before the load
   * (overwrite 0: a user's value wins) to the bundle's folder holding {@code include/nccl_ep/}, as TE's provider and
   * {@link TeRuntime#loadTransformerEngine()} set it; empty when the bundle ships no headers.
   */
  public Optional<EnvironmentSetting> ncclEpHome() {
    return ncclEpHome;
  }

  /** The NCCL this NCCL EP is bound to. */
  public Nccl nccl() {
    return nccl;
  }

  /**
   * {@code ncclEpGetVersion}: MAJOR*10000 + MINOR*100 + PATCH (100 for 0.1.0). A trivial getter, so a critical
   * downcall writing to a heap array: the cheapest call FFM makes.
   */
  public int getVersion() {
    int[] out = new int[1];
    int result;
    try {
      result = (int) GetVersion.HANDLE.invokeExact(MemorySegment.ofArray(out));
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
    check("ncclEpGetVersion", result);
    return out[0];
  }

  /**
   * {@code ncclEpTensorAlloc}: a tensor whose storage NCCL EP allocates; free it with {@link #tensorDestroy}.
   *
   * @param config an {@link NcclEpStructs#TENSOR_ALLOC_CONFIG}, or NULL for defaults
   * @return the {@code ncclEpTensor_t*}, sized as {@link NcclEpStructs#TENSOR}
   */
  @SuppressWarnings("restricted") // NCCL EP returns a pointer to an ncclEpTensor_t
  public MemorySegment tensorAlloc(int datatype, long[] sizes, MemorySegment config) {
    if (sizes.length == 0) {
      throw new IllegalArgumentException("ncclEpTensorAlloc: a tensor has at least one dimension");
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      MemorySegment dims = arena.allocateFrom(JAVA_LONG, sizes);
      check("ncclEpTensorAlloc", call("ncclEpTensorAlloc",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS), out, sizes.length, datatype,
          dims, sized("ncclEpTensorAlloc", "config", config, NcclEpStructs.TENSOR_ALLOC_CONFIG, true)));
      return out.get(ADDRESS, 0).reinterpret(NcclEpStructs.TENSOR.byteSize());
    }
  }

  /** {@code ncclEpTensorDestroy}, for a tensor from {@link #tensorAlloc}. */
  public void tensorDestroy(MemorySegment tensor) {
    check("ncclEpTensorDestroy", call("ncclEpTensorDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        sized("ncclEpTensorDestroy", "tensor", tensor, NcclEpStructs.TENSOR, false)));
  }

  /**
   * {@code ncclEpCreateGroup}, collective over {@code comm}: every rank calls it.
   *
   * @param config an {@link NcclEpStructs#GROUP_CONFIG}
   * @return the {@code ncclEpGroup_t}; destroy it with {@link #groupDestroy} before the communicator
   */
  public MemorySegment createGroup(NcclComm comm, MemorySegment config) {
    MemorySegment checked = sized("ncclEpCreateGroup", "config", config, NcclEpStructs.GROUP_CONFIG, false);
    groupConfigAsserts(checked);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      check("ncclEpCreateGroup", call("ncclEpCreateGroup", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS),
          out, comm.segment(), checked));
      return out.get(ADDRESS, 0);
    }
  }

  /**
   * {@code ncclEpCreateGroup} with a config checked when it was built, collective over {@code comm}: the group
   * owns itself; close it before the communicator.
   */
  public EpGroup createGroup(NcclComm comm, NcclEpGroupConfig config) {
    java.util.Objects.requireNonNull(config, "config");
    try (Arena arena = Arena.ofConfined()) {
      return new EpGroup(this, createGroup(comm, config.allocate(arena)), config);
    }
  }

  /**
   * {@code ncclEpTensorAlloc} with the default allocation config: a tensor whose storage NCCL EP allocates, freed
   * when it is closed.
   */
  public EpTensor allocateTensor(NcclDataType datatype, long... sizes) {
    java.util.Objects.requireNonNull(datatype, "datatype");
    return new EpTensor(this, tensorAlloc(datatype.code(), sizes, MemorySegment.NULL), datatype, sizes);
  }

  long handleMemSize(MemorySegment group, EpLayout layout, NcclEpHandleConfig config, int numTopk) {
    try (Arena arena = Arena.ofConfined()) {
      return handleMemSize(group, layout.code(), config.allocate(arena), numTopk);
    }
  }

  MemorySegment initHandle(MemorySegment group, EpLayout layout, NcclEpHandleConfig config, int numTopk,
      MemorySegment handleMem) {
    try (Arena arena = Arena.ofConfined()) {
      return initHandle(group, layout.code(), config.allocate(arena), numTopk, handleMem);
    }
  }

  /** {@code ncclEpGroupDestroy}. */
  public void groupDestroy(MemorySegment group) {
    check("ncclEpGroupDestroy", call("ncclEpGroupDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        handle("ncclEpGroupDestroy", "ep_group", group)));
  }

  /** {@code ncclEpHandleMemSize}: the bytes of the routing memory a handle of {@code layout} needs. */
  public long handleMemSize(MemorySegment group, int layout, MemorySegment config, int numTopk) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_LONG);
      check("ncclEpHandleMemSize", call("ncclEpHandleMemSize",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT),
          handle("ncclEpHandleMemSize", "ep_group", group), layout,
          sized("ncclEpHandleMemSize", "config", config, NcclEpStructs.HANDLE_CONFIG, true), out, numTopk));
      return out.get(JAVA_LONG, 0);
    }
  }

  /**
   * {@code ncclEpInitHandle}: a handle over caller-owned routing memory ({@code handleMem}, a 1-D uint8 tensor of
   * {@link #handleMemSize} bytes), or NULL for memory the library allocates.
   */
  public MemorySegment initHandle(MemorySegment group, int layout, MemorySegment config, int numTopk,
      MemorySegment handleMem) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      check("ncclEpInitHandle", call("ncclEpInitHandle",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), out,
          handle("ncclEpInitHandle", "ep_group", group), layout,
          sized("ncclEpInitHandle", "config", config, NcclEpStructs.HANDLE_CONFIG, true), numTopk,
          sized("ncclEpInitHandle", "handle_mem", handleMem, NcclEpStructs.TENSOR, true)));
      return out.get(ADDRESS, 0);
    }
  }

  /** {@code ncclEpUpdateHandle}: this step's routing ({@code topk_idx}, int64 [tokens, top_k]). */
  public void updateHandle(MemorySegment handle, MemorySegment topkIdx, MemorySegment layoutInfo,
      MemorySegment stream) {
    check("ncclEpUpdateHandle", call("ncclEpUpdateHandle",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
        handle("ncclEpUpdateHandle", "handle", handle),
        sized("ncclEpUpdateHandle", "topk_idx", topkIdx, NcclEpStructs.TENSOR, false),
        sized("ncclEpUpdateHandle", "layout_info", layoutInfo, NcclEpStructs.LAYOUT_INFO, true),
        NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpCreateHandle}: {@link #initHandle} and {@link #updateHandle} in one call. */
  public MemorySegment createHandle(MemorySegment group, int layout, MemorySegment topkIdx, MemorySegment layoutInfo,
      MemorySegment config, MemorySegment stream) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      check("ncclEpCreateHandle", call("ncclEpCreateHandle",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS), out,
          handle("ncclEpCreateHandle", "ep_group", group), layout,
          sized("ncclEpCreateHandle", "topk_idx", topkIdx, NcclEpStructs.TENSOR, false),
          sized("ncclEpCreateHandle", "layout_info", layoutInfo, NcclEpStructs.LAYOUT_INFO, true),
          sized("ncclEpCreateHandle", "config", config, NcclEpStructs.HANDLE_CONFIG, true),
          NativeCalls.orNull(stream)));
      return out.get(ADDRESS, 0);
    }
  }

  /** {@code ncclEpHandleDestroy}. */
  public void handleDestroy(MemorySegment handle) {
    check("ncclEpHandleDestroy", call("ncclEpHandleDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        handle("ncclEpHandleDestroy", "handle", handle)));
  }

  /** {@code ncclEpDispatch}: sends each token to the ranks of its experts. */
  public void dispatch(MemorySegment handle, MemorySegment inputs, MemorySegment outputs, MemorySegment layoutInfo,
      MemorySegment config, MemorySegment stream) {
    check("ncclEpDispatch", call("ncclEpDispatch",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
        handle("ncclEpDispatch", "handle", handle),
        sized("ncclEpDispatch", "inputs", inputs, NcclEpStructs.DISPATCH_INPUTS, false),
        sized("ncclEpDispatch", "outputs", outputs, NcclEpStructs.DISPATCH_OUTPUTS, false),
        sized("ncclEpDispatch", "layout_info", layoutInfo, NcclEpStructs.LAYOUT_INFO, true),
        sized("ncclEpDispatch", "config", config, NcclEpStructs.DISPATCH_CONFIG, true), NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpCombine}: brings the experts' outputs back to each token's rank and reduces them. */
  public void combine(MemorySegment handle, MemorySegment inputs, MemorySegment outputs, MemorySegment config,
      MemorySegment stream) {
    check("ncclEpCombine", call("ncclEpCombine",
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
        handle("ncclEpCombine", "handle", handle),
        sized("ncclEpCombine", "inputs", inputs, NcclEpStructs.COMBINE_INPUTS, false),
        sized("ncclEpCombine", "outputs", outputs, NcclEpStructs.COMBINE_OUTPUTS, false),
        sized("ncclEpCombine", "config", config, NcclEpStructs.COMBINE_CONFIG, true), NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpComplete}: finishes a dispatch or combine started with {@code send_only}. */
  public void complete(MemorySegment handle, MemorySegment config, MemorySegment stream) {
    check("ncclEpComplete", call("ncclEpComplete", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS),
        handle("ncclEpComplete", "handle", handle),
        sized("ncclEpComplete", "config", config, NcclEpStructs.COMPLETE_CONFIG, true), NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpMaskQuery}: writes the group's rank mask status into {@code maskStatus} (int per rank). */
  public void maskQuery(MemorySegment group, MemorySegment maskStatus, MemorySegment stream) {
    check("ncclEpMaskQuery", call("ncclEpMaskQuery", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS),
        handle("ncclEpMaskQuery", "ep_group", group), handle("ncclEpMaskQuery", "mask_status", maskStatus),
        NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpMaskUpdate}. */
  public void maskUpdate(MemorySegment group, MemorySegment mask, MemorySegment stream) {
    check("ncclEpMaskUpdate", call("ncclEpMaskUpdate", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS),
        handle("ncclEpMaskUpdate", "ep_group", group), handle("ncclEpMaskUpdate", "mask", mask),
        NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpMaskClean}. */
  public void maskClean(MemorySegment group, MemorySegment stream) {
    check("ncclEpMaskClean", call("ncclEpMaskClean", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS),
        handle("ncclEpMaskClean", "ep_group", group), NativeCalls.orNull(stream)));
  }

  /** {@code ncclEpGetAsyncError}: the group's pending asynchronous error, 0 when none. */
  public int getAsyncError(MemorySegment group) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      check("ncclEpGetAsyncError", call("ncclEpGetAsyncError", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS),
          handle("ncclEpGetAsyncError", "ep_group", group), out));
      return out.get(JAVA_INT, 0);
    }
  }

  /** {@code ncclEpErrorClear}. */
  public void errorClear(MemorySegment group) {
    check("ncclEpErrorClear", call("ncclEpErrorClear", FunctionDescriptor.of(JAVA_INT, ADDRESS),
        handle("ncclEpErrorClear", "ep_group", group)));
  }

  /**
   * A downcall handle for any function of the library, created once per (name, descriptor, options).
   *
   * @throws UnresolvedSymbolException {@code Unresolved symbol: <name>} when the library does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return symbols.function(name, descriptor, options);
  }

  /**
   * Calls {@code name} with {@code args}. The downcall handle is adapted once per function to take an Object[]
   * (spread, unboxed) and cached, so each call is one invokeExact, not invokeWithArguments' per-call adaptation.
   */
  private int call(String name, FunctionDescriptor descriptor, Object... args) {
    MethodHandle spread = spreaders.get(name); // get first: computeIfAbsent's capturing lambda allocates per call
    if (spread == null) {
      spread = spreaders.computeIfAbsent(name, n -> symbols.function(n, descriptor)
          .asType(MethodType.genericMethodType(args.length).changeReturnType(int.class))
          .asSpreader(Object[].class, args.length));
    }
    try {
      return (int) spread.invokeExact(args);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /** The group config fields NCCL EP assert()s on (ending the process); refused here with a Java exception. */
  @SuppressWarnings("restricted") // the config's declared size was checked by sized()
  private static void groupConfigAsserts(MemorySegment config) {
    MemorySegment c = config.byteSize() == 0 ? config.reinterpret(NcclEpStructs.GROUP_CONFIG.byteSize()) : config;
    int algorithm = c.get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, "algorithm"));
    String problem = algorithm != NcclEpStructs.ALGO_LOW_LATENCY && algorithm != NcclEpStructs.ALGO_HIGH_THROUGHPUT
        ? "algorithm " + algorithm + " is neither LOW_LATENCY (0) nor HIGH_THROUGHPUT (1)"
        : groupInt(c, "num_experts") <= 0 ? "num_experts must be greater than 0"
        : groupInt(c, "max_token_bytes") <= 0 ? "max_token_bytes must be greater than 0"
        : groupInt(c, "max_dispatch_tokens_per_rank") <= 0 ? "max_dispatch_tokens_per_rank must be set" : null;
    if (problem != null) {
      throw new IllegalArgumentException("ncclEpCreateGroup refused before the native call, which would assert: "
          + problem);
    }
  }

  private static int groupInt(MemorySegment config, String field) {
    return config.get(JAVA_INT, NcclEpStructs.offset(NcclEpStructs.GROUP_CONFIG, field));
  }

  private void check(String function, int result) {
    if (result != 0) {
      throw new NcclEpException(function, result, nccl.errorString(result));
    }
  }

  private static MemorySegment handle(String function, String parameter, MemorySegment handle) {
    if (handle == null || handle.equals(MemorySegment.NULL)) {
      throw new IllegalArgumentException(function + ": " + parameter + " must not be NULL");
    }
    return handle;
  }

  /** A sized NCCL EP struct: {@link NativeCalls#struct}'s checks, plus its {@code size} and {@code magic}. */
  @SuppressWarnings("restricted") // reads the two header fields of a struct the caller passes
  private static MemorySegment sized(String function, String parameter, MemorySegment struct, StructLayout layout,
      boolean optional) {
    MemorySegment checked = NativeCalls.struct(function, parameter, struct, layout, optional);
    if (checked.equals(MemorySegment.NULL)) {
      return checked;
    }
    MemorySegment head = checked.byteSize() == 0 ? checked.reinterpret(8) : checked;
    int size = head.get(JAVA_INT, 0);
    int magic = head.get(JAVA_INT, 4);
    int expected = layout == NcclEpStructs.TENSOR ? NcclEpStructs.TENSOR_MAGIC : NcclEpStructs.MAGIC;
    // ncclEpTensorAlloc marks the tensors it made with its own magic (nccl_ep.cc's NCCL_EP_TENSOR_ALLOC_DYNAMIC).
    boolean allocated = layout == NcclEpStructs.TENSOR && magic == TENSOR_ALLOC_DYNAMIC;
    if ((magic != expected && !allocated) || Integer.compareUnsigned(size, 8) < 0) {
      throw new IllegalArgumentException(String.format("%s: %s has size %d and magic 0x%08X; an initialised %s has"
          + " size %d and magic 0x%08X (make it with NcclEpStructs.allocate)", function, parameter,
          Integer.toUnsignedLong(size), magic, layout.name().orElse("struct"), layout.byteSize(), expected));
    }
    return checked;
  }

  // ncclEpGetVersion is the per-call overhead benchmark's subject: a static holder makes its handle a constant the
  // JIT inlines through (one NcclEp per process, published before first use).
  private static final class GetVersion {
    static final MethodHandle HANDLE = VersionGetter.at(instance.symbols.address("ncclEpGetVersion"));
  }
}
