package dev.tewheel.runtime.ncclep;

/**
 * NCCL EP's {@code ncclEpCombineOutputs_t}: the preallocated tensors a combine writes, for {@link EpHandle#combine}:
 * {@code tokens} [num_tokens, hidden], the combined tokens in their original order; {@code topk_weights} [num_tokens,
 * top_k] float32, the weights applied on receive (low latency expert-major) or the combined weights (high throughput
 * backward).
 */
public sealed interface NcclEpCombineOutputs extends NcclEpTensors permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_COMBINE_OUTPUTS_INIT}'s values. */
  static Builder<NcclEpCombineOutputs> builder() {
    return new Builder<>(NcclEpStructs.COMBINE_OUTPUTS, NcclEpCombineOutputs.class);
  }
}
