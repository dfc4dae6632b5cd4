package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpDispatchOutputs_t}: the preallocated tensors a dispatch writes, for {@link EpHandle#dispatch}:
 * {@code tokens}, the received tokens (shaped by the layout, see {@code ncclEpLayout_t}); {@code topk_weights}, the
 * received weights (high throughput's forward pass, low latency's rank-major layout); {@code scales}; {@code topk_idx}.
 *
 * @param tokens {@code tokens}, required
 * @param topkWeights {@code topk_weights}, optional (null)
 * @param scales {@code scales}, optional (null): the received per-token scales, for the recipes that forward
 *     or generate them
 * @param topkIdx {@code topk_idx}, optional (null): the received top-k expert ids (low latency rank-major, high
 *     throughput flat), numbered as {@link NcclEpLayoutInfo#recvTopkIdxKind()} says
 */
public record NcclEpDispatchOutputs(EpTensor tokens, EpTensor topkWeights, EpTensor scales, EpTensor topkIdx)
    implements NcclEpTensors {
  /** @throws IllegalArgumentException without {@code tokens} */
  public NcclEpDispatchOutputs {
    NcclEpStructs.requireTokens(NcclEpStructs.DISPATCH_OUTPUTS, tokens);
  }

  @Override
  public MemorySegment segment() {
    return NcclEpStructs.written(this, NcclEpStructs.DISPATCH_OUTPUTS, tokens, topkWeights, scales, topkIdx);
  }
}
