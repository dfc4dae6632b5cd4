package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.Problems;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * The tensors of one of NCCL EP's four tensor structs (dispatch and combine, inputs and outputs: the same members
 * but for {@code scales} and {@code topk_idx}, null where a struct has none), and {@code struct}, the C struct of
 * {@code layout} written from them once.
 */
record NcclEpTensorsRecord(StructLayout layout, EpTensor tokens, EpTensor topkWeights, EpTensor scales,
    EpTensor topkIdx, MemorySegment struct)
    implements NcclEpDispatchInputs, NcclEpDispatchOutputs, NcclEpCombineInputs, NcclEpCombineOutputs {

  static NcclEpTensorsRecord of(StructLayout layout, EpTensor tokens, EpTensor topkWeights, EpTensor scales,
      EpTensor topkIdx) {
    new Problems(layout.name().orElseThrow()).required("tokens", tokens)
        .check(scales == null || layout != NcclEpStructs.COMBINE_OUTPUTS, "it has no scales")
        .check(topkIdx == null || layout == NcclEpStructs.DISPATCH_OUTPUTS, "it has no topk_idx").throwIfAny();
    return NcclEpStructs.written(layout, s -> new NcclEpTensorsRecord(layout, tokens, topkWeights, scales, topkIdx, s));
  }

  @Override
  public MemorySegment segment() {
    EpTensor.checkOpen(tokens);
    EpTensor.checkOpen(topkWeights);
    EpTensor.checkOpen(scales);
    EpTensor.checkOpen(topkIdx);
    return struct;
  }

  /**
   * The struct, for a call that takes {@code expected}: a record cast to another of the four interfaces is refused
   * rather than passed as the wrong struct.
   */
  static MemorySegment segment(Object tensors, StructLayout expected, String function) {
    NcclEpTensorsRecord record = (NcclEpTensorsRecord) java.util.Objects.requireNonNull(tensors, "tensors");
    if (record.layout != expected) {
      throw new IllegalArgumentException(function + ": got an " + record.layout.name().orElseThrow() + " where an "
          + expected.name().orElseThrow() + " goes");
    }
    return record.segment();
  }
}
