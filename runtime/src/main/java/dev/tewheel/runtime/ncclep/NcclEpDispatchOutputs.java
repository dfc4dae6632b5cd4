package dev.tewheel.runtime.ncclep;

/**
 * NCCL EP's {@code ncclEpDispatchOutputs_t}: the preallocated tensors a dispatch writes, for {@link EpHandle#dispatch}:
 * {@code tokens}, the received tokens (shaped by the layout, see {@code ncclEpLayout_t}); {@code topk_weights}, the
 * received weights (high throughput's forward pass, low latency's rank-major layout); {@code scales}; {@code topk_idx}.
 */
public sealed interface NcclEpDispatchOutputs extends NcclEpTensors permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_DISPATCH_OUTPUTS_INIT}'s values. */
  static Builder<NcclEpDispatchOutputs> builder() {
    return new Builder<>(NcclEpStructs.DISPATCH_OUTPUTS, NcclEpDispatchOutputs.class);
  }

  /** {@code scales}, optional (null): the received per-token scales, for the recipes that forward or generate them. */
  EpTensor scales();

  /**
   * {@code topk_idx}, optional (null): the received top-k expert ids (low latency rank-major, high throughput flat),
   * numbered as {@link NcclEpLayoutInfo#recvTopkIdxKind()} says.
   */
  EpTensor topkIdx();
}
