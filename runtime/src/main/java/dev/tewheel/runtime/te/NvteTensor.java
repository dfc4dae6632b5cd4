package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.ffm.NativeObject;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A TE tensor ({@code NVTETensor}) made by {@link TransformerEngine#createTensor}: unquantized, row-wise data the
 * caller owns. Java keeps its dtype and shape, so the EP methods can check TE's preconditions before calling.
 * {@link #close()} calls {@code nvte_destroy_tensor}; the data is not freed.
 */
public final class NvteTensor implements AutoCloseable {
  private final TransformerEngine te;
  private final NativeObject handle;
  private final MemorySegment data;
  private final TeDataType dtype;
  private final long[] shape;

  NvteTensor(TransformerEngine te, MemorySegment handle, MemorySegment data, TeDataType dtype, long[] shape) {
    this.te = te;
    this.handle = new NativeObject(handle, "the NVTETensor was destroyed");
    this.data = data;
    this.dtype = dtype;
    this.shape = shape.clone();
  }

  /** The native {@code NVTETensor}. */
  public MemorySegment handle() {
    return handle.address();
  }

  /** The data pointer given at creation. */
  public MemorySegment data() {
    return data;
  }

  /** The {@code NVTEDType} (see {@link TeStructs}). */
  public TeDataType dtype() {
    return dtype;
  }

  public long[] shape() {
    return shape.clone();
  }

  public int ndim() {
    return shape.length;
  }

  public long numel() {
    return Arrays.stream(shape).reduce(1, Math::multiplyExact);
  }

  /** {@code nvte_destroy_tensor}; a second call does nothing. */
  @Override
  public void close() {
    handle.close(te::destroyTensor);
  }

  @Override
  public String toString() {
    return "NVTETensor(dtype " + dtype + ", shape " + Arrays.toString(shape) + ")";
  }
}
