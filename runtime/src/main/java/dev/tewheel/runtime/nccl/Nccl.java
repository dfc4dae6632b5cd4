package dev.tewheel.runtime.nccl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.error.NcclException;
import dev.tewheel.runtime.error.UnresolvedSymbolException;
import dev.tewheel.runtime.internal.ffm.FunctionTable;
import dev.tewheel.runtime.internal.ffm.NativeCalls;
import dev.tewheel.runtime.internal.ffm.NcclFunction;
import dev.tewheel.runtime.internal.ffm.Symbols;
import dev.tewheel.runtime.report.NcclVersion;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code libnccl.so.2}, loaded by {@link dev.tewheel.runtime.TeRuntime#loadNccl()} with RTLD_GLOBAL (as TE's Python
 * and nccl4py load it), so that NCCL EP and TE, which NEED it, bind to this copy. It gives a Java program what NCCL
 * EP's {@code ncclEpCreateGroup} and TE's {@code nvte_ep_initialize} need: a communicator, and device memory.
 */
public final class Nccl {
  private final NcclVersion version;
  private final Symbols symbols;
  /** Each function's {@code ncclResult_t} is checked inside its handle (throwing {@link NcclException}). */
  private final FunctionTable functions;

  /**
   * te-runtime's own: {@link dev.tewheel.runtime.TeRuntime#loadNccl()} makes the process's one (its {@link Symbols}
   * are internal).
   */
  public Nccl(NcclVersion version, Symbols symbols) {
    this.version = version;
    this.symbols = symbols;
    this.functions = new FunctionTable(symbols, NcclFunction.values().length, new ErrorText(this));
  }

  /** The file the dynamic linker mapped. */
  public Path file() {
    return symbols.file();
  }

  /** What {@code ncclGetVersion} reported at load. */
  public NcclVersion version() {
    return version;
  }

  /** {@code ncclGetErrorString}: NCCL's text for an {@code ncclResult_t}. */
  @SuppressWarnings("restricted") // a NUL-terminated string NCCL owns
  public String errorString(int result) {
    try {
      MemorySegment text = (MemorySegment) bound(NcclFunction.GET_ERROR_STRING).invokeExact(result);
      return text.equals(MemorySegment.NULL) ? "no text" : text.reinterpret(Long.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /** {@code ncclGetUniqueId}, on the rank that starts a communicator. */
  public NcclUniqueId uniqueId() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment id = arena.allocate(NcclFunction.UNIQUE_ID);
      NativeCalls.call(bound(NcclFunction.GET_UNIQUE_ID), id);
      return NcclUniqueId.of(id.toArray(JAVA_BYTE));
    }
  }

  /**
   * {@code ncclCommInitRank}: this process's rank of a communicator of {@code nranks}. It blocks until every rank has
   * called it, and uses the CUDA device current on this thread.
   */
  public NcclComm commInitRank(int nranks, NcclUniqueId id, int rank) {
    Objects.requireNonNull(id, "id");
    if (nranks < 1 || rank < 0 || rank >= nranks) {
      throw new IllegalArgumentException("rank " + rank + " of " + nranks + " ranks: need 0 <= rank < nranks");
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      MemorySegment value = arena.allocate(NcclFunction.UNIQUE_ID);
      MemorySegment.copy(id.bytes(), 0, value, JAVA_BYTE, 0, NcclUniqueId.BYTES);
      bound(NcclFunction.COMM_INIT_RANK).invokeExact(out, nranks, value, rank);
      return new NcclComm(this, out.get(ADDRESS, 0));
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /**
   * {@code ncclMemAlloc}: {@code bytes} of device memory suitable for NCCL's windows, as NCCL EP's tensors want it.
   * Free it with {@link #memFree}.
   */
  @SuppressWarnings("restricted") // the size is the one just allocated
  public MemorySegment memAlloc(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("ncclMemAlloc of " + bytes + " bytes: need > 0");
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      bound(NcclFunction.MEM_ALLOC).invokeExact(out, bytes);
      return out.get(ADDRESS, 0).reinterpret(bytes);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /** {@code ncclMemFree}. */
  public void memFree(MemorySegment pointer) {
    NativeCalls.call(bound(NcclFunction.MEM_FREE), pointer);
  }

  /**
   * A downcall handle for any function of NCCL, created once per (name, descriptor, options).
   *
   * @throws UnresolvedSymbolException when this NCCL does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return symbols.function(name, descriptor, options);
  }

  int commInt(NcclFunction function, MemorySegment comm) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      NativeCalls.call(bound(function), comm, out);
      return out.get(JAVA_INT, 0);
    }
  }

  void commDestroy(MemorySegment comm) {
    NativeCalls.call(bound(NcclFunction.COMM_DESTROY), comm);
  }

  private MethodHandle bound(NcclFunction f) {
    return functions.get(f.ordinal(), f.symbol, f.descriptor);
  }

  /** A failed call's exception, with NCCL's text for its status (a class, not a lambda: made on loadNccl's path). */
  private static final class ErrorText implements NativeCalls.Failure {
    private final Nccl nccl;

    ErrorText(Nccl nccl) {
      this.nccl = nccl;
    }

    @Override
    public RuntimeException of(String function, int status) {
      return new NcclException(function, status, nccl.errorString(status));
    }
  }
}
