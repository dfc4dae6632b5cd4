package dev.tewheel.runtime.internal.ffm;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The address of a native object its Java owner frees once (a group, handle, tensor or communicator): the one rule
 * that a freed pointer never reaches C again. Every use after {@link #close} throws {@link IllegalStateException}.
 */
public final class NativeObject {
  private final MemorySegment address;
  private final String freed;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** @param freed the refusal's message, e.g. {@code the NCCL communicator was destroyed} */
  public NativeObject(MemorySegment address, String freed) {
    this.address = address;
    this.freed = freed;
  }

  /** The address, while the object is not freed. */
  public MemorySegment address() {
    if (closed.get()) {
      throw new IllegalStateException(freed);
    }
    return address;
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** Runs {@code free} on the address the first time only; later calls do nothing. */
  public void close(Consumer<MemorySegment> free) {
    if (closed.compareAndSet(false, true)) {
      free.accept(address);
    }
  }
}
