package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An NCCL communicator ({@code ncclComm_t}) made by {@link Nccl#commInitRank}; {@link #close()} destroys it
 * ({@code ncclCommDestroy}). Destroy NCCL EP groups and shut TE's EP down before closing it.
 */
public final class NcclComm implements AutoCloseable {
  private final Nccl nccl;
  private final MemorySegment comm;
  private final AtomicBoolean closed = new AtomicBoolean();

  NcclComm(Nccl nccl, MemorySegment comm) {
    this.nccl = nccl;
    this.comm = comm;
  }

  /** {@code ncclCommCount}: the number of ranks. */
  public int count() {
    return nccl.commInt("ncclCommCount", segment());
  }

  /** {@code ncclCommUserRank}: this rank. */
  public int userRank() {
    return nccl.commInt("ncclCommUserRank", segment());
  }

  /** {@code ncclCommCuDevice}: the CUDA device of this rank. */
  public int cuDevice() {
    return nccl.commInt("ncclCommCuDevice", segment());
  }

  /** The native {@code ncclComm_t}. */
  public MemorySegment segment() {
    if (closed.get()) {
      throw new IllegalStateException("the NCCL communicator was destroyed");
    }
    return comm;
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** {@code ncclCommDestroy}; a second call does nothing. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      nccl.commDestroy(comm);
    }
  }
}
