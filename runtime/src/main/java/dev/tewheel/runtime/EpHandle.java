package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An NCCL EP handle ({@code ncclEpHandle_t}) made by {@link EpGroup#initHandle}; {@link #close()} destroys it
 * ({@code ncclEpHandleDestroy}) once, and any use after that throws {@link IllegalStateException}. Closing its group
 * closes it first.
 */
public final class EpHandle implements AutoCloseable {
  private final EpGroup group;
  private final MemorySegment handle;
  private final EpLayout layout;
  private final AtomicBoolean closed = new AtomicBoolean();

  EpHandle(EpGroup group, MemorySegment handle, EpLayout layout) {
    this.group = group;
    this.handle = handle;
    this.layout = layout;
  }

  /** The native {@code ncclEpHandle_t}, for {@link NcclEp#updateHandle}, {@link NcclEp#dispatch} and the rest. */
  public MemorySegment segment() {
    if (closed.get()) {
      throw new IllegalStateException("the NCCL EP handle was destroyed (ncclEpHandleDestroy)");
    }
    return handle;
  }

  public EpLayout layout() {
    return layout;
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** {@code ncclEpHandleDestroy}; a second call does nothing. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      group.forget(this);
      group.ep().handleDestroy(handle);
    }
  }
}
