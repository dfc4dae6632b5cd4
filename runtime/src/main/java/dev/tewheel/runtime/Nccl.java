package dev.tewheel.runtime;

import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.MemoryLayout.structLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.internal.Symbols;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code libnccl.so.2}, loaded by {@link TeRuntime#loadNccl()} with RTLD_GLOBAL (as TE's Python and nccl4py load
 * it), so that NCCL EP and TE, which NEED it, bind to this copy. It gives a Java program what NCCL EP's
 * {@code ncclEpCreateGroup} and TE's {@code nvte_ep_initialize} need: a communicator, and device memory.
 */
public final class Nccl {
  /** {@code ncclUniqueId}, passed by value to {@code ncclCommInitRank}. */
  static final StructLayout UNIQUE_ID =
      structLayout(sequenceLayout(NcclUniqueId.BYTES, JAVA_BYTE).withName("internal")).withName("ncclUniqueId");

  private final NcclVersion version;
  private final Symbols symbols;

  Nccl(NcclVersion version, Symbols symbols) {
    this.version = version;
    this.symbols = symbols;
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
      MemorySegment text = (MemorySegment) symbols.function("ncclGetErrorString",
          FunctionDescriptor.of(ADDRESS, JAVA_INT)).invokeExact(result);
      return text.equals(MemorySegment.NULL) ? "no text" : text.reinterpret(Long.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /** {@code ncclGetUniqueId}, on the rank that starts a communicator. */
  public NcclUniqueId uniqueId() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment id = arena.allocate(UNIQUE_ID);
      check("ncclGetUniqueId", (int) symbols.function("ncclGetUniqueId", FunctionDescriptor.of(JAVA_INT, ADDRESS))
          .invokeExact(id));
      return NcclUniqueId.of(id.toArray(JAVA_BYTE));
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
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
      MemorySegment value = arena.allocate(UNIQUE_ID);
      MemorySegment.copy(id.bytes(), 0, value, JAVA_BYTE, 0, NcclUniqueId.BYTES);
      check("ncclCommInitRank", (int) symbols.function("ncclCommInitRank",
          FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, UNIQUE_ID, JAVA_INT)).invokeExact(out, nranks, value, rank));
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
      check("ncclMemAlloc", (int) symbols.function("ncclMemAlloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG))
          .invokeExact(out, bytes));
      return out.get(ADDRESS, 0).reinterpret(bytes);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  /** {@code ncclMemFree}. */
  public void memFree(MemorySegment pointer) {
    callOn("ncclMemFree", pointer);
  }

  /**
   * A downcall handle for any function of NCCL, created once per (name, descriptor, options).
   *
   * @throws UnresolvedSymbolException when this NCCL does not define it
   */
  public MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
    return symbols.function(name, descriptor, options);
  }

  int commInt(String function, MemorySegment comm) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_INT);
      check(function, (int) symbols.function(function, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS))
          .invokeExact(comm, out));
      return out.get(JAVA_INT, 0);
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  void commDestroy(MemorySegment comm) {
    callOn("ncclCommDestroy", comm);
  }

  /** {@code ncclResult_t function(void* pointer)}: the calls that free what NCCL made. */
  private void callOn(String function, MemorySegment pointer) {
    try {
      check(function, (int) symbols.function(function, FunctionDescriptor.of(JAVA_INT, ADDRESS)).invokeExact(pointer));
    } catch (Throwable t) {
      throw NativeCalls.rethrow(t);
    }
  }

  void check(String function, int result) {
    if (result != 0) {
      throw new NcclException(function, result, errorString(result));
    }
  }
}
