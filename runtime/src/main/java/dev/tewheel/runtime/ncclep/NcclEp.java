package dev.tewheel.runtime.ncclep;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.bundle.ncclep.NcclEpFunctions;
import dev.tewheel.runtime.error.NcclEpException;
import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.internal.ffm.NativeCalls;
import dev.tewheel.runtime.internal.ffm.NcclEpFunction;
import dev.tewheel.runtime.internal.ffm.VersionGetter;
import dev.tewheel.runtime.internal.load.LoadedLibrary;
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
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * NCCL EP ({@code libnccl_ep.so.0}), loaded once per process by {@link dev.tewheel.runtime.TeRuntime#loadNcclEp()}:
 * the entry to the typed owners of the 18 functions of {@code nccl_ep.h} ({@link EpGroup}, {@link EpHandle},
 * {@link EpTensor}), which build every struct they pass, so NCCL EP never sees one it would {@code assert} on. A call
 * returns normally on {@code ncclSuccess} and otherwise throws {@link NcclEpException} with NCCL's
 * {@code ncclGetErrorString} text. {@link #function} is the one way to a function these do not wrap.
 */
public final class NcclEp {
  /**
   * The functions a usable NCCL EP must define, from bundle's one list: availability refuses a library lacking any,
   * as TE's provider would.
   */
  public static final List<String> REQUIRED_FUNCTIONS = NcclEpFunctions.REQUIRED;

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
   * check of its load (its {@link LoadedLibrary} is of te-runtime's internal package, which no application can name).
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
   * {@code ncclEpCreateGroup} with a config checked when it was built, collective over {@code comm}: the group
   * owns itself; close it before the communicator.
   */
  public EpGroup createGroup(NcclComm comm, NcclEpGroupConfig config) {
    Objects.requireNonNull(config, "config");
    MemorySegment communicator = comm.segment();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment struct = config.allocate(arena);
      MemorySegment group = created(out -> {
        Bound.CREATE_GROUP.invokeExact(out, communicator, struct);
      });
      return new EpGroup(group, config, comm);
    }
  }

  /**
   * {@code ncclEpTensorAlloc} with the default allocation config: a tensor whose storage NCCL EP allocates, freed
   * ({@code ncclEpTensorDestroy}) when it is closed.
   */
  @SuppressWarnings("restricted") // NCCL EP returns a pointer to an ncclEpTensor_t
  public EpTensor allocateTensor(NcclDataType datatype, long... sizes) {
    Objects.requireNonNull(datatype, "datatype");
    requireDimensions("ncclEpTensorAlloc", sizes);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment dims = arena.allocateFrom(JAVA_LONG, sizes);
      MemorySegment tensor = created(out -> {
        Bound.TENSOR_ALLOC.invokeExact(out, sizes.length, datatype.code(), dims, MemorySegment.NULL);
      });
      return new EpTensor(tensor.reinterpret(NcclEpStructs.TENSOR.byteSize()), datatype, sizes, null);
    }
  }

  /**
   * An {@code ncclEpTensor_t} describing memory the caller owns ({@code data}, device memory from
   * {@link Nccl#memAlloc} on a GPU), as {@code NCCL_EP_TENSOR_INIT} and then {@code ndim}, {@code datatype},
   * {@code data} and {@code sizes} set; closing it frees the descriptor, not the data.
   */
  public EpTensor tensor(NcclDataType datatype, MemorySegment data, long... sizes) {
    Objects.requireNonNull(datatype, "datatype");
    Objects.requireNonNull(data, "data");
    requireDimensions("ncclEpTensor_t", sizes);
    Arena arena = Arena.ofShared();
    return new EpTensor(NcclEpStructs.tensor(arena, datatype.code(), data, sizes), datatype, sizes, arena);
  }

  private static void requireDimensions(String what, long[] sizes) {
    if (sizes.length == 0) {
      throw new IllegalArgumentException(what + ": a tensor has at least one dimension");
    }
  }

  /**
   * The escape hatch: a downcall handle for any function of the library, created once per (name, descriptor,
   * options), for a function te-runtime does not wrap (docs/runtime.md). Nothing is checked before such a call.
   *
   * @throws UnresolvedSymbolException {@code Unresolved symbol: <name>} when the library does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return library.symbols().function(name, descriptor, options);
  }

  /** A call whose first argument is the out-pointer of the object it creates. */
  @FunctionalInterface
  interface Creation {
    void call(MemorySegment out) throws Throwable;
  }

  /** What {@code creation} wrote through its out-pointer: the group, handle or tensor NCCL EP made. */
  static MemorySegment created(Creation creation) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      creation.call(out);
      return out.get(ADDRESS, 0);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /**
   * The downcall handles, made once per process (one NcclEp, published before first use) and held in static finals,
   * which the JIT treats as constants and inlines through. Each returns void: the {@code ncclResult_t} is checked
   * inside the handle ({@link NativeCalls#checked}), which throws {@link NcclEpException} with NCCL's text. A function
   * the library lacks (only the {@link #REQUIRED_FUNCTIONS} are checked at load) binds to a handle that throws
   * {@link UnresolvedSymbolException} when called. ncclEpGetVersion is bound apart ({@link BoundVersion}).
   */
  static final class Bound {
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
