package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpCombineOutputs_t}: the preallocated tensors a combine writes. Its struct is written once, when
 * it is built, and passed as it is on every {@link EpHandle#combine}: build one per set of tensors and reuse it each
 * step.
 */
public sealed interface NcclEpCombineOutputs permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_COMBINE_OUTPUTS_INIT}'s values (every tensor NULL). */
  static Builder builder() {
    return new Builder();
  }

  /** {@code tokens}, required: [num_tokens, hidden], the combined tokens in their original order. */
  EpTensor tokens();

  /**
   * {@code topk_weights}, optional (null): [num_tokens, top_k] float32; low latency expert-major: the weights applied
   * on the receive side; high throughput backward: the combined weights.
   */
  EpTensor topkWeights();

  /**
   * The {@code ncclEpCombineOutputs_t*}, for the raw {@link NcclEp#combine}.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  MemorySegment segment();

  /** Builds an {@link NcclEpCombineOutputs}; each setter names the C field it sets. */
  final class Builder {
    private EpTensor tokens;
    private EpTensor topkWeights;

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

    /** @throws IllegalArgumentException without {@code tokens} */
    public NcclEpCombineOutputs build() {
      return NcclEpTensorsRecord.of(NcclEpStructs.COMBINE_OUTPUTS, tokens, topkWeights, null, null);
    }
  }
}
