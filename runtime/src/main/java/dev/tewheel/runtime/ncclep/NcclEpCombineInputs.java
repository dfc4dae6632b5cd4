package dev.tewheel.runtime.ncclep;

/**
 * NCCL EP's {@code ncclEpCombineInputs_t}: the experts' outputs a rank sends back, for {@link EpHandle#combine}: {@code
 * tokens}, the post-expert activations shaped as the dispatch's output tokens; {@code topk_weights}, high throughput's
 * backward combine only; {@code scales}.
 */
public sealed interface NcclEpCombineInputs extends NcclEpTensors permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_COMBINE_INPUTS_INIT}'s values. */
  static Builder<NcclEpCombineInputs> builder() {
    return new Builder<>(NcclEpStructs.COMBINE_INPUTS, NcclEpCombineInputs.class);
  }

  /** {@code scales}, optional (null): the experimental NVFP4 combine's float32 per-token global scales. */
  EpTensor scales();
}
