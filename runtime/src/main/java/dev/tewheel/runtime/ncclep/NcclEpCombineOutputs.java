package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpCombineOutputs_t}: the preallocated tensors a combine writes, for {@link EpHandle#combine}:
 * {@code tokens} [num_tokens, hidden], the combined tokens in their original order; {@code topk_weights} [num_tokens,
 * top_k] float32, the weights applied on receive (low latency expert-major) or the combined weights (high throughput
 * backward).
 *
 * @param tokens {@code tokens}, required
 * @param topkWeights {@code topk_weights}, optional (null)
 */
public record NcclEpCombineOutputs(EpTensor tokens, EpTensor topkWeights) implements NcclEpTensors {
  /** @throws IllegalArgumentException without {@code tokens} */
  public NcclEpCombineOutputs {
    NcclEpStructs.requireTokens(NcclEpStructs.COMBINE_OUTPUTS, tokens);
  }

  @Override
  public MemorySegment segment() {
    return NcclEpStructs.written(this, NcclEpStructs.COMBINE_OUTPUTS, tokens, topkWeights);
  }
}
