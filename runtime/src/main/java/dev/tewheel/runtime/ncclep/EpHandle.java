package dev.tewheel.runtime.ncclep;

import static dev.tewheel.runtime.internal.ffm.NativeCalls.call;
import static dev.tewheel.runtime.internal.ffm.NativeCalls.orNull;

import dev.tewheel.runtime.internal.ffm.NativeObject;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An NCCL EP handle ({@code ncclEpHandle_t}) made by {@link EpGroup#initHandle} or {@link EpGroup#createHandle}, with
 * the typed per-step calls: {@link #update}, {@link #dispatch}, {@link #combine} and {@link #complete}. Each checks in
 * Java what {@code nccl_ep.h} says the call needs for the group's algorithm and this handle's layout, then passes
 * the structs written once per argument value. {@link #close()} destroys the
 * handle ({@code ncclEpHandleDestroy}) once, and any use after that throws {@link IllegalStateException}. Closing
 * its group closes it first. A stream is a {@code cudaStream_t}; {@link MemorySegment#NULL} is the default stream.
 */
public final class EpHandle implements AutoCloseable {
  private final EpGroup group;
  private final NativeObject handle;
  private final EpLayout layout;

  EpHandle(EpGroup group, MemorySegment handle, EpLayout layout) {
    this.group = group;
    this.handle = new NativeObject(handle, "the NCCL EP handle was destroyed (ncclEpHandleDestroy)");
    this.layout = layout;
  }

  /** The native {@code ncclEpHandle_t}, for a function reached through {@link NcclEp#function}. */
  public MemorySegment segment() {
    return handle.address();
  }

  public EpLayout layout() {
    return layout;
  }

  /**
   * {@code ncclEpUpdateHandle}, collective: this step's routing ({@code topkIdx}, int32 or int64 [tokens, top_k]);
   * high throughput fills {@code layoutInfo}'s counters, low latency takes {@link NcclEpLayoutInfo#NONE}.
   */
  public void update(EpTensor topkIdx, NcclEpLayoutInfo layoutInfo, MemorySegment stream) {
    EpCallRules.update("ncclEpUpdateHandle", algorithm(), Objects.requireNonNull(layoutInfo, "layoutInfo"));
    call(NcclEp.Bound.UPDATE_HANDLE, segment(), topkIdx.segment(), layoutInfo.segment(), orNull(stream));
  }

  /** {@code ncclEpDispatch}, collective: sends each token to the ranks of its experts. */
  public void dispatch(NcclEpDispatchInputs inputs, NcclEpDispatchOutputs outputs, NcclEpLayoutInfo layoutInfo,
      NcclEpDispatchConfig config, MemorySegment stream) {
    MemorySegment in = inputs.segment();
    MemorySegment out = outputs.segment();
    EpCallRules.dispatch(this, inputs, outputs, layoutInfo, config);
    call(NcclEp.Bound.DISPATCH, segment(), in, out, layoutInfo.segment(), config.segment(), orNull(stream));
  }

  /** {@code ncclEpCombine}, collective: brings the experts' outputs back to each token's rank and sums them. */
  public void combine(NcclEpCombineInputs inputs, NcclEpCombineOutputs outputs, NcclEpCombineConfig config,
      MemorySegment stream) {
    MemorySegment in = inputs.segment();
    MemorySegment out = outputs.segment();
    EpCallRules.combine(this, inputs, outputs, config);
    call(NcclEp.Bound.COMBINE, segment(), in, out, config.segment(), orNull(stream));
  }

  /**
   * {@code ncclEpComplete} (low latency): finishes a dispatch or combine made with {@code send_only}. Its config,
   * {@code ncclEpCompleteConfig_t}, has no fields yet, so it passes NULL (the header's "defaults").
   */
  public void complete(MemorySegment stream) {
    if (algorithm() != EpAlgorithm.LOW_LATENCY) {
      throw new IllegalArgumentException("ncclEpComplete refused before the native call: only low latency has"
          + " send_only operations to complete");
    }
    call(NcclEp.Bound.COMPLETE, segment(), MemorySegment.NULL, orNull(stream));
  }

  public boolean isClosed() {
    return handle.isClosed();
  }

  /** {@code ncclEpHandleDestroy}; a second call does nothing. */
  @Override
  public void close() {
    handle.close(h -> {
      group.forget(this);
      call(NcclEp.Bound.HANDLE_DESTROY, h);
    });
  }

  EpAlgorithm algorithm() {
    return group.config().algorithm();
  }
}
