package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.ffm.Fields;
import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TE's {@code NVTEEpLayerConfig}, checked in Java: a layer's {@code top_k} and per-expert alignment. Its C struct
 * ({@code NVTE_EP_LAYER_CONFIG_INIT}, then the two fields) is written once per value and kept, so the EP calls that
 * take it allocate nothing.
 *
 * @param topK {@code top_k}, greater than 0
 * @param dispatchOutputPerExpertAlignment {@code dispatch_output_per_expert_alignment}, in tokens: 0, 1 (no
 *     padding) or a power of two
 */
public record TeEpLayerConfig(int topK, long dispatchOutputPerExpertAlignment) {
  /** Each value's struct: a model has a handful (top_k by power-of-two alignment). */
  private static final Map<TeEpLayerConfig, MemorySegment> STRUCTS = new ConcurrentHashMap<>();

  /** @throws IllegalArgumentException naming every value TE would refuse */
  public TeEpLayerConfig {
    new Problems("NVTEEpLayerConfig").check(topK > 0, "top_k must be > 0, got " + topK)
        .alignment("dispatch_output_per_expert_alignment", dispatchOutputPerExpertAlignment).throwIfAny();
  }

  /**
   * A layer config.
   *
   * @throws IllegalArgumentException naming every value TE would refuse
   */
  public static TeEpLayerConfig of(int topK, long dispatchOutputPerExpertAlignment) {
    return new TeEpLayerConfig(topK, dispatchOutputPerExpertAlignment);
  }

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  public MemorySegment allocate(Arena arena) {
    return arena.allocate(TeStructs.EP_LAYER_CONFIG).copyFrom(struct());
  }

  /** The struct written once for this value, in the global arena. */
  MemorySegment struct() {
    MemorySegment struct = STRUCTS.get(this);
    return struct != null ? struct : STRUCTS.computeIfAbsent(this, c -> Fields.write(c,
        TeStructs.allocate(Arena.global(), TeStructs.EP_LAYER_CONFIG), TeStructs.EP_LAYER_CONFIG));
  }
}
