package dev.tewheel.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An NCCL EP communicator ({@code ncclEpComm_t}). It owns one arena, to which {@code ncclEpCommDestroy} is bound,
 * so {@link #close()} is just closing the arena; using it afterwards throws IllegalStateException.
 */
public final class NcclEpComm implements AutoCloseable {
  private final NcclEp ep;
  private final Arena arena;
  private final MemorySegment comm;
  private final AtomicBoolean closed = new AtomicBoolean();

  @SuppressWarnings("restricted") // binds ncclEpCommDestroy to the arena; the address came from ncclEpCommInit
  NcclEpComm(NcclEp ep, MemorySegment raw) {
    this.ep = ep;
    this.arena = Arena.ofShared();
    this.comm = raw.reinterpret(arena, ep::commDestroy);
  }

  /** {@code ncclEpDispatch} of the first {@code count} bytes of {@code input} into {@code output}. */
  public void dispatch(MemorySegment input, MemorySegment output, long count) {
    checkBounds(input, output, count);
    ep.dispatch(comm, input, output, count);
  }

  /** {@code ncclEpCombine} of the first {@code count} bytes of {@code input} into {@code output}. */
  public void combine(MemorySegment input, MemorySegment output, long count) {
    checkBounds(input, output, count);
    ep.combine(comm, input, output, count);
  }

  /** The native {@code ncclEpComm_t}, valid until {@link #close()}. */
  public MemorySegment segment() {
    return comm;
  }

  /** Destroys the communicator ({@code ncclEpCommDestroy}); a second call does nothing. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      arena.close();
    }
  }

  private static void checkBounds(MemorySegment input, MemorySegment output, long count) {
    if (count < 0 || count > input.byteSize() || count > output.byteSize()) {
      throw new IndexOutOfBoundsException("count " + count + " exceeds the input (" + input.byteSize()
          + " bytes) or the output (" + output.byteSize() + " bytes)");
    }
  }
}
