package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** TE's {@code NVTEEpLayerConfig}, checked in Java: a layer's {@code top_k} and per-expert alignment. */
public final class TeEpLayerConfig {
  private final int topK;
  private final long dispatchOutputPerExpertAlignment;

  private TeEpLayerConfig(int topK, long alignment) {
    this.topK = topK;
    this.dispatchOutputPerExpertAlignment = alignment;
  }

  /**
   * A layer config ({@code NVTE_EP_LAYER_CONFIG_INIT}, then the two fields).
   *
   * @param topK {@code top_k}, greater than 0
   * @param dispatchOutputPerExpertAlignment in tokens: 0, 1 (no padding) or a power of two
   * @throws IllegalArgumentException for a value TE would refuse
   */
  public static TeEpLayerConfig of(int topK, long dispatchOutputPerExpertAlignment) {
    if (topK <= 0) {
      throw new IllegalArgumentException("NVTEEpLayerConfig: top_k must be > 0, got " + topK);
    }
    return new TeEpLayerConfig(topK,
        NcclEpHandleConfig.checkAlignment("NVTEEpLayerConfig", dispatchOutputPerExpertAlignment));
  }

  public int topK() {
    return topK;
  }

  public long dispatchOutputPerExpertAlignment() {
    return dispatchOutputPerExpertAlignment;
  }

  /** The C struct in {@code arena}, {@code struct_size} set to the current layout. */
  public MemorySegment allocate(Arena arena) {
    MemorySegment s = TeStructs.allocate(arena, TeStructs.EP_LAYER_CONFIG);
    s.set(JAVA_INT, NcclEpStructs.offset(TeStructs.EP_LAYER_CONFIG, "top_k"), topK);
    s.set(JAVA_LONG, NcclEpStructs.offset(TeStructs.EP_LAYER_CONFIG, "dispatch_output_per_expert_alignment"),
        dispatchOutputPerExpertAlignment);
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TeEpLayerConfig c && c.topK == topK
        && c.dispatchOutputPerExpertAlignment == dispatchOutputPerExpertAlignment;
  }

  @Override
  public int hashCode() {
    return 31 * topK + Long.hashCode(dispatchOutputPerExpertAlignment);
  }

  @Override
  public String toString() {
    return "TeEpLayerConfig[topK=" + topK + ", dispatchOutputPerExpertAlignment=" + dispatchOutputPerExpertAlignment
        + "]";
  }
}
