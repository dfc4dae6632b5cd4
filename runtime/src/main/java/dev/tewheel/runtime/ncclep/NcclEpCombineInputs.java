package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpCombineInputs_t}: the experts' outputs a rank sends back, for {@link EpHandle#combine}: {@code
 * tokens}, the post-expert activations shaped as the dispatch's output tokens; {@code topk_weights}, high throughput's
 * backward combine only; {@code scales}.
 *
 * @param tokens {@code tokens}, required
 * @param topkWeights {@code topk_weights}, optional (null)
 * @param scales {@code scales}, optional (null): the experimental NVFP4 combine's float32 per-token global
 *     scales
 */
public record NcclEpCombineInputs(EpTensor tokens, EpTensor topkWeights, EpTensor scales) implements NcclEpTensors {
  /** @throws IllegalArgumentException without {@code tokens} */
  public NcclEpCombineInputs {
    NcclEpStructs.requireTokens(NcclEpStructs.COMBINE_INPUTS, tokens);
  }

  @Override
  public MemorySegment segment() {
    return NcclEpStructs.written(this, NcclEpStructs.COMBINE_INPUTS, tokens, topkWeights, scales);
  }
}
