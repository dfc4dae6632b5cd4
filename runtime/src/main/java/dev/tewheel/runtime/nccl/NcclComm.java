package dev.tewheel.runtime.nccl;

import dev.tewheel.runtime.internal.ffm.NativeObject;
import dev.tewheel.runtime.internal.ffm.NcclFunction;
import java.lang.foreign.MemorySegment;

/**
 * An NCCL communicator ({@code ncclComm_t}) made by {@link Nccl#commInitRank}; {@link #close()} destroys it
 * ({@code ncclCommDestroy}). Destroy NCCL EP groups and shut TE's EP down before closing it.
 */
public final class NcclComm implements AutoCloseable {
  private final Nccl nccl;
  private final NativeObject comm;

  NcclComm(Nccl nccl, MemorySegment comm) {
    this.nccl = nccl;
    this.comm = new NativeObject(comm, "the NCCL communicator was destroyed");
  }

  /** {@code ncclCommCount}: the number of ranks. */
  public int count() {
    return nccl.commInt(NcclFunction.COMM_COUNT, segment());
  }

  /** {@code ncclCommUserRank}: this rank. */
  public int userRank() {
    return nccl.commInt(NcclFunction.COMM_USER_RANK, segment());
  }

  /** {@code ncclCommCuDevice}: the CUDA device of this rank. */
  public int cuDevice() {
    return nccl.commInt(NcclFunction.COMM_CU_DEVICE, segment());
  }

  /** The native {@code ncclComm_t}. */
  public MemorySegment segment() {
    return comm.address();
  }

  public boolean isClosed() {
    return comm.isClosed();
  }

  /** {@code ncclCommDestroy}; a second call does nothing. */
  @Override
  public void close() {
    comm.close(nccl::commDestroy);
  }
}
