package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.ffm.Fields;
import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * TE's {@code NVTEEpLayerConfig}, checked in Java: a layer's {@code top_k} and per-expert alignment. Its C struct
 * ({@code NVTE_EP_LAYER_CONFIG_INIT}, then the two fields) is written once per value and kept while that value is
 * reachable, so the EP calls that take it allocate nothing.
 *
 * @param topK {@code top_k}, greater than 0
 * @param dispatchOutputPerExpertAlignment {@code dispatch_output_per_expert_alignment}, in tokens: 0, 1 (no
 *     padding) or a power of two
 */
public record TeEpLayerConfig(int topK, long dispatchOutputPerExpertAlignment) {
  /** @throws IllegalArgumentException naming every value TE would refuse */
  public TeEpLayerConfig {
    new Problems("NVTEEpLayerConfig").check(topK > 0, "top_k must be > 0, got " + topK)
        .alignment("dispatch_output_per_expert_alignment", dispatchOutputPerExpertAlignment).throwIfAny();
  }

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  public MemorySegment allocate(Arena arena) {
    return arena.allocate(TeStructs.EP_LAYER_CONFIG).copyFrom(struct());
  }

  /** The struct written once for this value, kept while the value first written is reachable. */
  MemorySegment struct() {
    return Fields.written(this, TeStructs.EP_LAYER_CONFIG, TeStructs::allocate);
  }
}
