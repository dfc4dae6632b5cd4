package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpDispatchOutputs_t}: the preallocated tensors a dispatch writes. Its struct is written once,
 * when it is built, and passed as it is on every {@link EpHandle#dispatch}: build one per set of tensors and reuse it
 * each step.
 */
public sealed interface NcclEpDispatchOutputs permits NcclEpTensorsRecord {
  /** A builder holding {@code NCCL_EP_DISPATCH_OUTPUTS_INIT}'s values (every tensor NULL). */
  static Builder builder() {
    return new Builder();
  }

  /** {@code tokens}, required: the received tokens (shape by layout, see {@code ncclEpLayout_t}). */
  EpTensor tokens();

  /**
   * {@code topk_weights}, optional (null): the received top-k weights (high throughput's forward pass, low latency's
   * rank-major layout).
   */
  EpTensor topkWeights();

  /** {@code scales}, optional (null): the received per-token scales, for the recipes that forward or generate them. */
  EpTensor scales();

  /**
   * {@code topk_idx}, optional (null): the received top-k expert ids (low latency rank-major, high throughput flat),
   * numbered as {@link NcclEpLayoutInfo#recvTopkIdxKind()} says.
   */
  EpTensor topkIdx();

  /**
   * The {@code ncclEpDispatchOutputs_t*}, for the raw {@link NcclEp#dispatch}.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  MemorySegment segment();

  /** Builds an {@link NcclEpDispatchOutputs}; each setter names the C field it sets. */
  final class Builder {
    private EpTensor tokens;
    private EpTensor topkWeights;
    private EpTensor scales;
    private EpTensor topkIdx;

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

    /** {@code topk_idx}. */
    public Builder topkIdx(EpTensor value) {
      topkIdx = value;
      return this;
    }

    /** @throws IllegalArgumentException without {@code tokens} */
    public NcclEpDispatchOutputs build() {
      return NcclEpTensorsRecord.of(NcclEpStructs.DISPATCH_OUTPUTS, tokens, topkWeights, scales, topkIdx);
    }
  }
}
