package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpHandleConfig_t}. {@link #DEFAULT} is {@code NCCL_EP_HANDLE_CONFIG_INIT} (no per-expert
 * padding).
 */
public final class NcclEpHandleConfig {
  /** {@code NCCL_EP_HANDLE_CONFIG_INIT}. */
  public static final NcclEpHandleConfig DEFAULT = new NcclEpHandleConfig(0);

  private final long dispatchOutputPerExpertAlignment;
  /** The C struct, written once and freed with this config (NCCL EP only reads it): no allocation per call. */
  private final MemorySegment struct;

  private NcclEpHandleConfig(long alignment) {
    this.dispatchOutputPerExpertAlignment = alignment;
    this.struct = allocate(Arena.ofAuto());
  }

  /**
   * A config whose {@code dispatch_output_per_expert_alignment} is {@code tokens} (expert-major high throughput
   * only).
   *
   * @throws IllegalArgumentException unless {@code tokens} is 0, 1 or a power of two
   */
  public static NcclEpHandleConfig perExpertAlignment(long tokens) {
    return new NcclEpHandleConfig(checkAlignment("ncclEpHandleConfig_t", tokens));
  }

  /** {@code dispatch_output_per_expert_alignment}, in tokens; 0 and 1 mean no padding. */
  public long dispatchOutputPerExpertAlignment() {
    return dispatchOutputPerExpertAlignment;
  }

  /** The C struct in {@code arena}, size and magic set as the initializer sets them. */
  public MemorySegment allocate(Arena arena) {
    MemorySegment s = NcclEpStructs.allocate(arena, NcclEpStructs.HANDLE_CONFIG);
    s.set(JAVA_LONG, NcclEpStructs.offset(NcclEpStructs.HANDLE_CONFIG, "dispatch_output_per_expert_alignment"),
        dispatchOutputPerExpertAlignment);
    return s;
  }

  MemorySegment segment() {
    return struct;
  }

  /** The one rule for a per-expert alignment, NCCL EP's and TE's: 0, 1 or a power of two. */
  static long checkAlignment(String struct, long tokens) {
    if (tokens < 0 || Long.bitCount(tokens) > 1) {
      throw new IllegalArgumentException(struct + ": dispatch_output_per_expert_alignment must be 0, 1 or a power"
          + " of two, got " + tokens);
    }
    return tokens;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NcclEpHandleConfig c && c.dispatchOutputPerExpertAlignment == dispatchOutputPerExpertAlignment;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(dispatchOutputPerExpertAlignment);
  }

  @Override
  public String toString() {
    return "NcclEpHandleConfig[dispatchOutputPerExpertAlignment=" + dispatchOutputPerExpertAlignment + "]";
  }
}
