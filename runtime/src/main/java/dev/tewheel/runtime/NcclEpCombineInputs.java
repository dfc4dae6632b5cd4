package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpCombineInputs_t}: the experts' outputs a rank sends back. Its struct is written once, when it
 * is built, and passed as it is on every {@link EpHandle#combine}: build one per set of tensors and reuse it each step.
 */
public sealed interface NcclEpCombineInputs permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_COMBINE_INPUTS_INIT}'s values (every tensor NULL). */
  static Builder builder() {
    return new Builder();
  }

  /** {@code tokens}, required: the post-expert activations, shaped as the dispatch's output tokens. */
  EpTensor tokens();

  /**
   * {@code topk_weights}, optional (null): high throughput's backward combine only, [num_recv_tokens, top_k] float32.
   */
  EpTensor topkWeights();

  /** {@code scales}, optional (null): the experimental NVFP4 combine's float32 per-token global scales. */
  EpTensor scales();

  /**
   * The {@code ncclEpCombineInputs_t*}, for the raw {@link NcclEp#combine}.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  MemorySegment segment();

  /** Builds an {@link NcclEpCombineInputs}; each setter names the C field it sets. */
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
    public NcclEpCombineInputs build() {
      return NcclEpTensorsRecord.of(NcclEpStructs.COMBINE_INPUTS, tokens, topkWeights, scales, null);
    }
  }
}
