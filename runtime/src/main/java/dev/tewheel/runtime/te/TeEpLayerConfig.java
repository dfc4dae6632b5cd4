package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * TE's {@code NVTEEpLayerConfig}, checked in Java: a layer's {@code top_k} and per-expert alignment. Each value is
 * made once per process, with its C struct, so the EP calls that take it allocate nothing and equal configs are the
 * same object.
 */
public sealed interface TeEpLayerConfig permits TeEpLayerConfigRecord {
  /**
   * A layer config ({@code NVTE_EP_LAYER_CONFIG_INIT}, then the two fields).
   *
   * @param topK {@code top_k}, greater than 0
   * @param dispatchOutputPerExpertAlignment in tokens: 0, 1 (no padding) or a power of two
   * @throws IllegalArgumentException naming every value TE would refuse
   */
  static TeEpLayerConfig of(int topK, long dispatchOutputPerExpertAlignment) {
    new Problems("NVTEEpLayerConfig").check(topK > 0, "top_k must be > 0, got " + topK)
        .alignment("dispatch_output_per_expert_alignment", dispatchOutputPerExpertAlignment).throwIfAny();
    return TeEpLayerConfigRecord.of(topK, dispatchOutputPerExpertAlignment);
  }

  /** {@code top_k}. */
  int topK();

  /** {@code dispatch_output_per_expert_alignment}, in tokens; 0 and 1 mean no padding. */
  long dispatchOutputPerExpertAlignment();

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  MemorySegment allocate(Arena arena);
}
