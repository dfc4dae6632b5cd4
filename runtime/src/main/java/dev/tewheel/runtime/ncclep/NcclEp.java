package dev.tewheel.runtime.ncclep;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.runtime.error.NcclEpException;
import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.internal.LoadedLibrary;
import dev.tewheel.runtime.internal.NativeCalls;
import dev.tewheel.runtime.internal.NcclEpFunction;
import dev.tewheel.runtime.internal.VersionGetter;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.nccl.NcclDataType;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.EnvironmentSetting;
import dev.tewheel.runtime.report.NcclVersion;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * NCCL EP ({@code libnccl_ep.so.0}), loaded once per process by {@link dev.tewheel.runtime.TeRuntime#loadNcclEp()}:
 * typed bindings for
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

  /** Each thread's {@code size_t} out-parameter of ncclEpHandleMemSize, a heap segment made once per thread. */
  private static final ThreadLocal<MemorySegment> SIZE_OUT =
      ThreadLocal.withInitial(() -> MemorySegment.ofArray(new long[1]));


  /**
   * The NcclEp whose functions {@link Bound} binds: the process's one, published by its constructor before any
   * method can run (volatile: read by that holder's initialiser).
   */
  private static volatile NcclEp bound;

  private final NcclVersion version;
  private final Availability availability;
  private final LoadedLibrary library;
  private final Nccl nccl;

  /**
   * te-runtime's own: {@link dev.tewheel.runtime.TeRuntime#loadNcclEp()} makes the process's one NCCL EP after every
   * check of its load
   * (its {@link LoadedLibrary} is of te-runtime's internal package, which no application can name).
   */
  public NcclEp(LoadedLibrary library, Nccl nccl, NcclVersion version, Availability availability) {
    this.version = version;
    this.availability = availability;
    this.library = library;
    this.nccl = nccl;
    synchronized (NcclEp.class) {
      if (bound == null) {
        bound = this;
      }
    }
  }


  /** The file the selection rule chose. */
  public Path file() {
    return library.symbols().file();
  }

  /** The file the dynamic linker mapped, by dlinfo (the same file as {@link #file()}, maybe by another name). */
  public Path mappedFrom() {
    return library.mappedFrom();
  }

  /** What {@code ncclEpGetVersion} reported when the library was loaded. */
  public NcclVersion version() {
    return version;
  }

  /** The availability report the load was decided by. */
  public Availability availability() {
    return availability;
  }

  /**
   * What became of {@code NCCL_EP_HOME}, which NCCL EP's JIT reads to find the shipped headers: set before the load
   * (overwrite 0: a user's value wins) to the bundle's folder holding {@code include/nccl_ep/}, as TE's provider and
   * {@link dev.tewheel.runtime.TeRuntime#loadTransformerEngine()} set it; empty when the bundle ships no headers.
   */
  public Optional<EnvironmentSetting> ncclEpHome() {
    return library.ncclEpHome();
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
    int status;
    try {
      status = (int) BoundVersion.GET_VERSION.invokeExact(MemorySegment.ofArray(out));
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
    if (status != 0) {
      throw failure(NcclEpFunction.GET_VERSION.symbol, status);
    }
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
    NcclEpFunction f = NcclEpFunction.TENSOR_ALLOC;
    if (sizes.length == 0) {
      throw new IllegalArgumentException(f.symbol + ": a tensor has at least one dimension");
    }
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.TENSOR_ALLOC_CONFIG, true);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      MemorySegment dims = arena.allocateFrom(JAVA_LONG, sizes);
      try {
        Bound.TENSOR_ALLOC.invokeExact(out, sizes.length, datatype, dims, checked);
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
      return out.get(ADDRESS, 0).reinterpret(NcclEpStructs.TENSOR.byteSize());
    }
  }

  /** {@code ncclEpTensorDestroy}, for a tensor from {@link #tensorAlloc}. */
  public void tensorDestroy(MemorySegment tensor) {
    NcclEpFunction f = NcclEpFunction.TENSOR_DESTROY;
    MemorySegment checked = sized(f, "tensor", tensor, NcclEpStructs.TENSOR, false);
    call(Bound.TENSOR_DESTROY, checked);
  }

  /**
   * {@code ncclEpCreateGroup}, collective over {@code comm}: every rank calls it.
   *
   * @param config an {@link NcclEpStructs#GROUP_CONFIG}
   * @return the {@code ncclEpGroup_t}; destroy it with {@link #groupDestroy} before the communicator
   */
  public MemorySegment createGroup(NcclComm comm, MemorySegment config) {
    NcclEpFunction f = NcclEpFunction.CREATE_GROUP;
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.GROUP_CONFIG, false);
    groupConfigAsserts(checked);
    MemorySegment communicator = comm.segment();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      try {
        Bound.CREATE_GROUP.invokeExact(out, communicator, checked);
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
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
      return new EpGroup(this, createGroup(comm, config.allocate(arena)), config, comm);
    }
  }

  /**
   * {@code ncclEpTensorAlloc} with the default allocation config: a tensor whose storage NCCL EP allocates, freed
   * when it is closed.
   */
  public EpTensor allocateTensor(NcclDataType datatype, long... sizes) {
    java.util.Objects.requireNonNull(datatype, "datatype");
    return new EpTensor(this, tensorAlloc(datatype.code(), sizes, MemorySegment.NULL), datatype, sizes, null);
  }

  /**
   * An {@code ncclEpTensor_t} describing memory the caller owns ({@code data}, device memory from
   * {@link Nccl#memAlloc} on a GPU), as {@code NCCL_EP_TENSOR_INIT} and then {@code ndim}, {@code datatype},
   * {@code data} and {@code sizes} set; closing it frees the descriptor, not the data.
   */
  public EpTensor tensor(NcclDataType datatype, MemorySegment data, long... sizes) {
    java.util.Objects.requireNonNull(datatype, "datatype");
    java.util.Objects.requireNonNull(data, "data");
    if (sizes.length == 0) {
      throw new IllegalArgumentException("ncclEpTensor_t: a tensor has at least one dimension");
    }
    Arena arena = Arena.ofShared();
    return new EpTensor(this, NcclEpStructs.tensor(arena, datatype.code(), data, sizes), datatype, sizes, arena);
  }

  long handleMemSize(MemorySegment group, EpLayout layout, NcclEpHandleConfig config, int numTopk) {
    return handleMemSize(group, layout.code(), config.struct(), numTopk);
  }

  MemorySegment initHandle(MemorySegment group, EpLayout layout, NcclEpHandleConfig config, int numTopk,
      MemorySegment handleMem) {
    return initHandle(group, layout.code(), config.struct(), numTopk, handleMem);
  }

  /** {@code ncclEpGroupDestroy}. */
  public void groupDestroy(MemorySegment group) {
    NcclEpFunction f = NcclEpFunction.GROUP_DESTROY;
    MemorySegment g = handle(f, "ep_group", group);
    call(Bound.GROUP_DESTROY, g);
  }

  /**
   * {@code ncclEpHandleMemSize}: the bytes of the routing memory a handle of {@code layout} needs. The size comes
   * back through this thread's heap buffer (a critical downcall writes it; no upcall can reenter), so a call
   * allocates nothing.
   */
  public long handleMemSize(MemorySegment group, int layout, MemorySegment config, int numTopk) {
    NcclEpFunction f = NcclEpFunction.HANDLE_MEM_SIZE;
    MemorySegment g = handle(f, "ep_group", group);
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.HANDLE_CONFIG, true);
    MemorySegment out = SIZE_OUT.get();
    try {
      Bound.HANDLE_MEM_SIZE.invokeExact(g, layout, checked, out, numTopk);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
    return out.get(JAVA_LONG, 0);
  }

  /**
   * {@code ncclEpInitHandle}: a handle over caller-owned routing memory ({@code handleMem}, a 1-D uint8 tensor of
   * {@link #handleMemSize} bytes), or NULL for memory the library allocates.
   */
  public MemorySegment initHandle(MemorySegment group, int layout, MemorySegment config, int numTopk,
      MemorySegment handleMem) {
    NcclEpFunction f = NcclEpFunction.INIT_HANDLE;
    MemorySegment g = handle(f, "ep_group", group);
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.HANDLE_CONFIG, true);
    MemorySegment memory = sized(f, "handle_mem", handleMem, NcclEpStructs.TENSOR, true);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      try {
        Bound.INIT_HANDLE.invokeExact(out, g, layout, checked, numTopk, memory);
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
      return out.get(ADDRESS, 0);
    }
  }

  /** {@code ncclEpUpdateHandle}: this step's routing ({@code topk_idx}, int64 [tokens, top_k]). */
  public void updateHandle(MemorySegment handle, MemorySegment topkIdx, MemorySegment layoutInfo,
      MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.UPDATE_HANDLE;
    MemorySegment h = handle(f, "handle", handle);
    MemorySegment topk = sized(f, "topk_idx", topkIdx, NcclEpStructs.TENSOR, false);
    MemorySegment info = sized(f, "layout_info", layoutInfo, NcclEpStructs.LAYOUT_INFO, true);
    call(Bound.UPDATE_HANDLE, h, topk, info, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpCreateHandle}: {@link #initHandle} and {@link #updateHandle} in one call. */
  public MemorySegment createHandle(MemorySegment group, int layout, MemorySegment topkIdx, MemorySegment layoutInfo,
      MemorySegment config, MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.CREATE_HANDLE;
    MemorySegment g = handle(f, "ep_group", group);
    MemorySegment topk = sized(f, "topk_idx", topkIdx, NcclEpStructs.TENSOR, false);
    MemorySegment info = sized(f, "layout_info", layoutInfo, NcclEpStructs.LAYOUT_INFO, true);
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.HANDLE_CONFIG, true);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      try {
        Bound.CREATE_HANDLE.invokeExact(out, g, layout, topk, info, checked, NativeCalls.orNull(stream));
      } catch (Throwable t) {
        throw NativeCalls.rethrow(t);
      }
      return out.get(ADDRESS, 0);
    }
  }

  /** {@code ncclEpHandleDestroy}. */
  public void handleDestroy(MemorySegment handle) {
    NcclEpFunction f = NcclEpFunction.HANDLE_DESTROY;
    MemorySegment h = handle(f, "handle", handle);
    call(Bound.HANDLE_DESTROY, h);
  }

  /** {@code ncclEpDispatch}: sends each token to the ranks of its experts. */
  public void dispatch(MemorySegment handle, MemorySegment inputs, MemorySegment outputs, MemorySegment layoutInfo,
      MemorySegment config, MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.DISPATCH;
    MemorySegment h = handle(f, "handle", handle);
    MemorySegment in = sized(f, "inputs", inputs, NcclEpStructs.DISPATCH_INPUTS, false);
    MemorySegment out = sized(f, "outputs", outputs, NcclEpStructs.DISPATCH_OUTPUTS, false);
    MemorySegment info = sized(f, "layout_info", layoutInfo, NcclEpStructs.LAYOUT_INFO, true);
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.DISPATCH_CONFIG, true);
    call(Bound.DISPATCH, h, in, out, info, checked, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpCombine}: brings the experts' outputs back to each token's rank and reduces them. */
  public void combine(MemorySegment handle, MemorySegment inputs, MemorySegment outputs, MemorySegment config,
      MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.COMBINE;
    MemorySegment h = handle(f, "handle", handle);
    MemorySegment in = sized(f, "inputs", inputs, NcclEpStructs.COMBINE_INPUTS, false);
    MemorySegment out = sized(f, "outputs", outputs, NcclEpStructs.COMBINE_OUTPUTS, false);
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.COMBINE_CONFIG, true);
    call(Bound.COMBINE, h, in, out, checked, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpComplete}: finishes a dispatch or combine started with {@code send_only}. */
  public void complete(MemorySegment handle, MemorySegment config, MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.COMPLETE;
    MemorySegment h = handle(f, "handle", handle);
    MemorySegment checked = sized(f, "config", config, NcclEpStructs.COMPLETE_CONFIG, true);
    call(Bound.COMPLETE, h, checked, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpMaskQuery}: writes the group's rank mask status into {@code maskStatus} (int per rank). */
  public void maskQuery(MemorySegment group, MemorySegment maskStatus, MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.MASK_QUERY;
    MemorySegment g = handle(f, "ep_group", group);
    MemorySegment status = handle(f, "mask_status", maskStatus);
    call(Bound.MASK_QUERY, g, status, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpMaskUpdate}. */
  public void maskUpdate(MemorySegment group, MemorySegment mask, MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.MASK_UPDATE;
    MemorySegment g = handle(f, "ep_group", group);
    MemorySegment m = handle(f, "mask", mask);
    call(Bound.MASK_UPDATE, g, m, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpMaskClean}. */
  public void maskClean(MemorySegment group, MemorySegment stream) {
    NcclEpFunction f = NcclEpFunction.MASK_CLEAN;
    MemorySegment g = handle(f, "ep_group", group);
    call(Bound.MASK_CLEAN, g, NativeCalls.orNull(stream));
  }

  /** {@code ncclEpGetAsyncError}: the group's pending asynchronous error, 0 when none. */
  public int getAsyncError(MemorySegment group) {
    NcclEpFunction f = NcclEpFunction.GET_ASYNC_ERROR;
    MemorySegment g = handle(f, "ep_group", group);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      call(Bound.GET_ASYNC_ERROR, g, out);
      return out.get(JAVA_INT, 0);
    }
  }

  /** {@code ncclEpErrorClear}. */
  public void errorClear(MemorySegment group) {
    NcclEpFunction f = NcclEpFunction.ERROR_CLEAR;
    MemorySegment g = handle(f, "ep_group", group);
    call(Bound.ERROR_CLEAR, g);
  }

  /**
   * A downcall handle for any function of the library, created once per (name, descriptor, options).
   *
   * @throws UnresolvedSymbolException {@code Unresolved symbol: <name>} when the library does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return library.symbols().function(name, descriptor, options);
  }

  /** The group config fields NCCL EP assert()s on (ending the process); refused here with a Java exception. */
  @SuppressWarnings("restricted") // the config's declared size was checked by sized()
  // The one way a call that returns nothing is made: the bound handle, its failure rethrown as thrown
  // (NativeCalls.rethrow). Each handle passed is a static final of Bound, which the JIT folds once it inlines these.
  private static void call(MethodHandle function, MemorySegment a) {
    try {
      function.invokeExact(a);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  private static void call(MethodHandle function, MemorySegment a, MemorySegment b) {
    try {
      function.invokeExact(a, b);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  private static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c) {
    try {
      function.invokeExact(a, b, c);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  private static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c,
      MemorySegment d) {
    try {
      function.invokeExact(a, b, c, d);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  private static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c,
      MemorySegment d, MemorySegment e) {
    try {
      function.invokeExact(a, b, c, d, e);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  private static void call(MethodHandle function, MemorySegment a, MemorySegment b, MemorySegment c,
      MemorySegment d, MemorySegment e, MemorySegment f) {
    try {
      function.invokeExact(a, b, c, d, e, f);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

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

  private static MemorySegment handle(NcclEpFunction function, String parameter, MemorySegment handle) {
    if (handle == null || handle.equals(MemorySegment.NULL)) {
      throw new IllegalArgumentException(function.symbol + ": " + parameter + " must not be NULL");
    }
    return handle;
  }

  /** A sized NCCL EP struct: {@link NativeCalls#struct}'s checks, plus its {@code size} and {@code magic}. */
  @SuppressWarnings("restricted") // reads the two header fields of a struct the caller passes
  private static MemorySegment sized(NcclEpFunction f, String parameter, MemorySegment struct, StructLayout layout,
      boolean optional) {
    String function = f.symbol;
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

  /**
   * The downcall handles, made once per process (one NcclEp, published before first use) and held in static finals,
   * which the JIT treats as constants and inlines through. Each returns void: the {@code ncclResult_t} is checked
   * inside the handle ({@link NativeCalls#checked}), which throws {@link NcclEpException} with NCCL's text. A function
   * the library lacks (only the {@link #REQUIRED_FUNCTIONS} are checked at load) binds to a handle that throws
   * {@link UnresolvedSymbolException} when called. ncclEpGetVersion is bound apart ({@link BoundVersion}).
   */
  private static final class Bound {
    static final MethodHandle TENSOR_ALLOC = bind(NcclEpFunction.TENSOR_ALLOC);
    static final MethodHandle TENSOR_DESTROY = bind(NcclEpFunction.TENSOR_DESTROY);
    static final MethodHandle CREATE_GROUP = bind(NcclEpFunction.CREATE_GROUP);
    static final MethodHandle GROUP_DESTROY = bind(NcclEpFunction.GROUP_DESTROY);
    static final MethodHandle HANDLE_MEM_SIZE = bind(NcclEpFunction.HANDLE_MEM_SIZE);
    static final MethodHandle INIT_HANDLE = bind(NcclEpFunction.INIT_HANDLE);
    static final MethodHandle UPDATE_HANDLE = bind(NcclEpFunction.UPDATE_HANDLE);
    static final MethodHandle CREATE_HANDLE = bind(NcclEpFunction.CREATE_HANDLE);
    static final MethodHandle HANDLE_DESTROY = bind(NcclEpFunction.HANDLE_DESTROY);
    static final MethodHandle DISPATCH = bind(NcclEpFunction.DISPATCH);
    static final MethodHandle COMBINE = bind(NcclEpFunction.COMBINE);
    static final MethodHandle COMPLETE = bind(NcclEpFunction.COMPLETE);
    static final MethodHandle MASK_QUERY = bind(NcclEpFunction.MASK_QUERY);
    static final MethodHandle MASK_UPDATE = bind(NcclEpFunction.MASK_UPDATE);
    static final MethodHandle MASK_CLEAN = bind(NcclEpFunction.MASK_CLEAN);
    static final MethodHandle GET_ASYNC_ERROR = bind(NcclEpFunction.GET_ASYNC_ERROR);
    static final MethodHandle ERROR_CLEAR = bind(NcclEpFunction.ERROR_CLEAR);

    private Bound() {}

    private static MethodHandle bind(NcclEpFunction f) {
      MethodHandle downcall;
      try {
        downcall = bound.library.symbols().function(f.symbol, f.descriptor, f.options);
      } catch (UnresolvedSymbolException missing) {
        MethodType type = f.descriptor.toMethodType();
        downcall = MethodHandles.dropArguments(
            MethodHandles.throwException(type.returnType(), UnresolvedSymbolException.class).bindTo(missing), 0,
            type.parameterList());
      }
      return NativeCalls.checked(downcall, NcclEp::failure, f.symbol);
    }
  }

  /** What a nonzero status of a bound function becomes: NCCL EP's exception with NCCL's text. */
  private static RuntimeException failure(String function, int result) {
    return new NcclEpException(function, result, bound.nccl.errorString(result));
  }

  /**
   * ncclEpGetVersion's handle, a trivial getter, so a critical downcall writing to a heap array; apart from
   * {@link Bound} so that a first getVersion() does not bind the other 17 functions, whose ten distinct shapes each
   * cost generated classes in a cold JVM (docs/performance.md). Its status is checked in {@link #getVersion()}:
   * folding the check into the handle would generate lambda forms on that first call too.
   */
  private static final class BoundVersion {
    static final MethodHandle GET_VERSION =
        VersionGetter.at(bound.library.symbols().address(NcclEpFunction.GET_VERSION.symbol));

    private BoundVersion() {}
  }
}
