package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpDispatchInputs_t}: the tensors a rank dispatches, for {@link EpHandle#dispatch}: {@code
 * tokens} 2-D [num_tokens, hidden]; {@code topk_weights} [num_tokens, top_k] float32, which high throughput's forward
 * pass and low latency's rank-major layout require; {@code scales}.
 *
 * @param tokens {@code tokens}, required
 * @param topkWeights {@code topk_weights}, optional (null)
 * @param scales {@code scales}, optional (null): required by the {@code QUANT_FWD} recipe, forwarded without
 *     conversion
 */
public record NcclEpDispatchInputs(EpTensor tokens, EpTensor topkWeights, EpTensor scales) implements NcclEpTensors {
  /** @throws IllegalArgumentException without {@code tokens} */
  public NcclEpDispatchInputs {
    NcclEpStructs.requireTokens(NcclEpStructs.DISPATCH_INPUTS, tokens);
  }

  @Override
  public MemorySegment segment() {
    return NcclEpStructs.written(this, NcclEpStructs.DISPATCH_INPUTS, tokens, topkWeights, scales);
  }
}
