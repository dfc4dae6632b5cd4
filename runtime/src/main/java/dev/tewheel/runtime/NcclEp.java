package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.runtime.internal.Config;
import dev.tewheel.runtime.internal.Symbols;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * NCCL EP, loaded once per process by {@link TeRuntime#load()}: the Java counterpart of TE's
 * {@code nccl_ep_provider}. Its typed methods call the {@code ncclEp*} functions through downcall handles
 * created on first use and then held in constants (the analogue of the provider's {@code call_symbol}); every one of
 * {@link #FUNCTIONS} was checked to exist when the library was loaded. {@link #function} reaches any other symbol.
 *
 * <p>The library stays loaded for the life of the process. Only {@code ncclEpGetVersion} and
 * {@code ncclEpGetErrorString}, trivial getters, are critical downcalls; calls that may block are not.
 */
public final class NcclEp {
  /** Every function of the API this class exposes; {@code load()} refuses a library lacking any of them. */
  public static final List<String> FUNCTIONS = List.of("ncclEpGetVersion", "ncclEpCommInit", "ncclEpCommDestroy",
      "ncclEpDispatch", "ncclEpCombine", "ncclEpGetErrorString");

  /** The one instance of the process; written once by TeRuntime before any handle below is created. */
  private static volatile NcclEp instance;

  private final Config config;
  private final Path file;
  private final Path mappedFrom;
  private final NcclEpVersion version;
  private final Availability availability;
  private final Symbols symbols;

  NcclEp(Config config, Path file, Path mappedFrom, NcclEpVersion version, Availability availability,
      Symbols symbols) {
    this.config = config;
    this.file = file;
    this.mappedFrom = mappedFrom;
    this.version = version;
    this.availability = availability;
    this.symbols = symbols;
  }

  static void publish(NcclEp ep) {
    instance = Objects.requireNonNull(ep);
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
   * Calls {@code ncclEpGetVersion}: MAJOR*10000 + MINOR*100 + PATCH (100 for 0.1.0).
   *
   * @throws NcclEpException when it returns a status other than success
   */
  public int versionCode() {
    int[] out = new int[1];
    int status;
    try {
      status = (int) GetVersion.HANDLE.invokeExact(MemorySegment.ofArray(out));
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status != 0) {
      throw failure("ncclEpGetVersion", status);
    }
    return out[0];
  }

  /** {@code ncclEpGetErrorString}: the text of a status. */
  @SuppressWarnings("restricted") // reading a NUL-terminated string NCCL EP owns
  public String errorString(int status) {
    try {
      MemorySegment text = (MemorySegment) ErrorString.HANDLE.invokeExact(status);
      return text.equals(MemorySegment.NULL) ? "(no text)" : text.reinterpret(Long.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * {@code ncclEpCommInit}: a communicator for {@code rank} of {@code nranks}, destroyed by
   * {@link NcclEpComm#close()}.
   *
   * @throws NcclEpException when NCCL EP refuses (e.g. an NCCL too old, an invalid rank)
   */
  public NcclEpComm commInit(int rank, int nranks) {
    MemorySegment comm;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      int status = (int) CommInit.HANDLE.invokeExact(out, rank, nranks);
      if (status != 0) {
        throw failure("ncclEpCommInit", status);
      }
      comm = out.get(ADDRESS, 0);
    } catch (NcclEpException e) {
      throw e;
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return new NcclEpComm(this, comm);
  }

  /**
   * A downcall handle for any function of the library, created once per (name, descriptor, options) and cached.
   *
   * @throws UnresolvedSymbolException {@code Unresolved symbol: <name>} when the library does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return symbols.function(name, descriptor, options);
  }

  void commDestroy(MemorySegment comm) {
    try {
      int status = (int) CommDestroy.HANDLE.invokeExact(comm);
      if (status != 0) {
        throw failure("ncclEpCommDestroy", status);
      }
    } catch (NcclEpException e) {
      throw e;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  void dispatch(MemorySegment comm, MemorySegment input, MemorySegment output, long count) {
    call("ncclEpDispatch", Dispatch.HANDLE, comm, input, output, count);
  }

  void combine(MemorySegment comm, MemorySegment input, MemorySegment output, long count) {
    call("ncclEpCombine", Combine.HANDLE, comm, input, output, count);
  }

  private void call(String name, MethodHandle handle, MemorySegment comm, MemorySegment input, MemorySegment output,
      long count) {
    int status;
    try {
      status = (int) handle.invokeExact(comm, input, output, count);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    if (status != 0) {
      throw failure(name, status);
    }
  }

  private NcclEpException failure(String function, int status) {
    return new NcclEpException(function, status, errorString(status));
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException e) {
      return e;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException(t);
  }

  private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    NcclEp ep = instance;
    if (ep == null) {
      throw new IllegalStateException("NCCL EP is not loaded: call TeRuntime.load() first");
    }
    return ep.symbols.function(name, descriptor, options);
  }

  // One holder per function: resolved on first use, then a constant the JIT inlines through.
  private static final class GetVersion {
    static final MethodHandle HANDLE =
        bind("ncclEpGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS), Linker.Option.critical(true));
  }

  private static final class ErrorString {
    static final MethodHandle HANDLE =
        bind("ncclEpGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT), Linker.Option.critical(false));
  }

  private static final class CommInit {
    static final MethodHandle HANDLE =
        bind("ncclEpCommInit", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
  }

  private static final class CommDestroy {
    static final MethodHandle HANDLE = bind("ncclEpCommDestroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
  }

  private static final class Dispatch {
    static final MethodHandle HANDLE =
        bind("ncclEpDispatch", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
  }

  private static final class Combine {
    static final MethodHandle HANDLE =
        bind("ncclEpCombine", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
  }
}
