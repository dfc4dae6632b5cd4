package dev.tewheel.runtime.ncclep;

import static dev.tewheel.runtime.internal.ffm.NativeCalls.call;
import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.tewheel.runtime.internal.ffm.NativeObject;
import dev.tewheel.runtime.nccl.NcclDataType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An NCCL EP tensor ({@code ncclEpTensor_t}): one whose storage NCCL EP allocated ({@code ncclEpTensorAlloc}, made by
 * {@link NcclEp#allocateTensor(NcclDataType, long...)}), or a descriptor of memory the caller owns (made by
 * {@link NcclEp#tensor(NcclDataType, MemorySegment, long...)}). {@link #close()} frees it once (
 * {@code ncclEpTensorDestroy}, or the descriptor alone), and any use after that throws
 * {@link IllegalStateException}, also through a dispatch or combine struct that points at it.
 */
public final class EpTensor implements AutoCloseable {
  private final NativeObject tensor;
  private final NcclDataType datatype;
  private final long[] sizes;
  /** The arena of a descriptor of caller-owned memory; null for a tensor NCCL EP allocated. */
  private final Arena descriptor;

  EpTensor(MemorySegment tensor, NcclDataType datatype, long[] sizes, Arena descriptor) {
    this.tensor = new NativeObject(tensor, "the NCCL EP tensor was destroyed (ncclEpTensorDestroy)");
    this.datatype = datatype;
    this.sizes = sizes.clone();
    this.descriptor = descriptor;
  }

  /** The {@code ncclEpTensor_t*}, sized as {@link NcclEpStructs#TENSOR}. */
  public MemorySegment segment() {
    return tensor.address();
  }

  /**
   * Its {@code data}: {@code numel × bytes} bytes at the address the descriptor holds, or {@link MemorySegment#NULL}
   * while it holds none. On a GPU that is device memory (pass it to CUDA; reading it from Java faults).
   */
  @SuppressWarnings("restricted") // the size is the tensor's own
  public MemorySegment data() {
    MemorySegment data = segment().get(ADDRESS, NcclEpStructs.offset(NcclEpStructs.TENSOR, "data"));
    long bytes = datatype.bytes();
    for (long size : sizes) {
      bytes *= size;
    }
    return data.equals(MemorySegment.NULL) ? MemorySegment.NULL : data.reinterpret(bytes);
  }

  public NcclDataType datatype() {
    return datatype;
  }

  /** The sizes of its dimensions (a copy). */
  public long[] sizes() {
    return sizes.clone();
  }

  public boolean isClosed() {
    return tensor.isClosed();
  }

  /** {@code ncclEpTensorDestroy}, or for caller-owned memory the descriptor alone; a second call does nothing. */
  @Override
  public void close() {
    tensor.close(t -> {
      if (descriptor == null) {
        call(NcclEp.Bound.TENSOR_DESTROY, t);
      } else {
        descriptor.close();
      }
    });
  }
}
