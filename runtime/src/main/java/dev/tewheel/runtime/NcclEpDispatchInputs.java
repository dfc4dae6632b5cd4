package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpDispatchInputs_t}: the tensors a rank dispatches. Its struct is written once, when it is
 * built, and passed as it is on every {@link EpHandle#dispatch}: build one per set of tensors and reuse it each step.
 */
public sealed interface NcclEpDispatchInputs permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_DISPATCH_INPUTS_INIT}'s values (every tensor NULL). */
  static Builder builder() {
    return new Builder();
  }

  /** {@code tokens}, required: 2-D [num_tokens, hidden]. */
  EpTensor tokens();

  /**
   * {@code topk_weights}, optional (null): 2-D [num_tokens, top_k] float32; required by high throughput's forward pass
   * and by low latency's rank-major layout.
   */
  EpTensor topkWeights();

  /** {@code scales}, optional (null): required by the {@code QUANT_FWD} recipe, forwarded without conversion. */
  EpTensor scales();

  /**
   * The {@code ncclEpDispatchInputs_t*}, for the raw {@link NcclEp#dispatch}.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  MemorySegment segment();

  /** Builds an {@link NcclEpDispatchInputs}; each setter names the C field it sets. */
  final class Builder {
    private EpTensor tokens;
    private EpTensor topkWeights;
    private EpTensor scales;

    private Builder() {}

    /** {@code tokens}. */
    public Builder tokens(EpTensor value) {
      tokens = value;
      return this;
    }

    /** {@code topk_weights}. */
    public Builder topkWeights(EpTensor value) {
      topkWeights = value;
      return this;
    }

    /** {@code scales}. */
    public Builder scales(EpTensor value) {
      scales = value;
      return this;
    }

    /** @throws IllegalArgumentException without {@code tokens} */
    public NcclEpDispatchInputs build() {
      return NcclEpTensorsRecord.of(NcclEpStructs.DISPATCH_INPUTS, tokens, topkWeights, scales, null);
    }
  }
}
