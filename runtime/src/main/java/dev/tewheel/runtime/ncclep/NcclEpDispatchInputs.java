package dev.tewheel.runtime.ncclep;

/**
 * NCCL EP's {@code ncclEpDispatchInputs_t}: the tensors a rank dispatches, for {@link EpHandle#dispatch}: {@code
 * tokens} 2-D [num_tokens, hidden]; {@code topk_weights} [num_tokens, top_k] float32, which high throughput's forward
 * pass and low latency's rank-major layout require; {@code scales}.
 */
public sealed interface NcclEpDispatchInputs extends NcclEpTensors permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_DISPATCH_INPUTS_INIT}'s values. */
  static Builder<NcclEpDispatchInputs> builder() {
    return new Builder<>(NcclEpStructs.DISPATCH_INPUTS, NcclEpDispatchInputs.class);
  }

  /** {@code scales}, optional (null): required by the {@code QUANT_FWD} recipe, forwarded without conversion. */
  EpTensor scales();
}
