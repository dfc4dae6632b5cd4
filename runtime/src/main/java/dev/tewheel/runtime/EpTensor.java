package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A tensor whose storage NCCL EP allocated ({@code ncclEpTensorAlloc}), made by
 * {@link NcclEp#allocateTensor(NcclDataType, long...)}; {@link #close()} frees it ({@code ncclEpTensorDestroy})
 * once, and any use after that throws {@link IllegalStateException}.
 */
public final class EpTensor implements AutoCloseable {
  private final NcclEp ep;
  private final MemorySegment tensor;
  private final NcclDataType datatype;
  private final long[] sizes;
  private final AtomicBoolean closed = new AtomicBoolean();

  EpTensor(NcclEp ep, MemorySegment tensor, NcclDataType datatype, long[] sizes) {
    this.ep = ep;
    this.tensor = tensor;
    this.datatype = datatype;
    this.sizes = sizes.clone();
  }

  /** The {@code ncclEpTensor_t*}, sized as {@link NcclEpStructs#TENSOR}. */
  public MemorySegment segment() {
    if (closed.get()) {
      throw new IllegalStateException("the NCCL EP tensor was destroyed (ncclEpTensorDestroy)");
    }
    return tensor;
  }

  public NcclDataType datatype() {
    return datatype;
  }

  /** The sizes of its dimensions (a copy). */
  public long[] sizes() {
    return sizes.clone();
  }

  public boolean isClosed() {
    return closed.get();
  }

  /** {@code ncclEpTensorDestroy}; a second call does nothing. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      ep.tensorDestroy(tensor);
    }
  }
}
