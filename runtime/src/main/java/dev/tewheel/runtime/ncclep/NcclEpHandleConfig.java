package dev.tewheel.runtime.ncclep;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpHandleConfig_t}. {@link #DEFAULT} is {@code NCCL_EP_HANDLE_CONFIG_INIT} (no per-expert
 * padding). Its C struct is written once per value and kept (at most 64: 0 and the powers of two to 2^62; NCCL
 * EP only reads it), so a call allocates nothing; {@link #perExpertAlignment} returns one object per value.
 *
 * @param dispatchOutputPerExpertAlignment {@code dispatch_output_per_expert_alignment}, in tokens (expert-major high
 *     throughput only); 0 and 1 mean no padding
 */
public record NcclEpHandleConfig(long dispatchOutputPerExpertAlignment) {
  /** The struct of each alignment, by its exponent + 1 (0 for none): 64 structs of 16 bytes, written once. */
  private static final MemorySegment[] STRUCTS = new MemorySegment[64];
  /** The config of each alignment, indexed as {@link #STRUCTS}: {@link #perExpertAlignment} returns these. */
  private static final NcclEpHandleConfig[] MADE = new NcclEpHandleConfig[64];

  static {
    long offset = NcclEpStructs.offset(NcclEpStructs.HANDLE_CONFIG, "dispatch_output_per_expert_alignment");
    for (int i = 0; i < STRUCTS.length; i++) {
      MADE[i] = new NcclEpHandleConfig(i == 0 ? 0 : 1L << (i - 1));
      STRUCTS[i] = NcclEpStructs.allocate(Arena.global(), NcclEpStructs.HANDLE_CONFIG);
      STRUCTS[i].set(JAVA_LONG, offset, MADE[i].dispatchOutputPerExpertAlignment);
    }
  }

  /** {@code NCCL_EP_HANDLE_CONFIG_INIT}. */
  public static final NcclEpHandleConfig DEFAULT = MADE[0];

  /** @throws IllegalArgumentException unless the alignment is 0, 1 or a power of two */
  public NcclEpHandleConfig {
    new Problems("ncclEpHandleConfig_t").alignment("dispatch_output_per_expert_alignment",
        dispatchOutputPerExpertAlignment).throwIfAny();
  }

  /**
   * A config whose {@code dispatch_output_per_expert_alignment} is {@code tokens} (expert-major high throughput
   * only).
   *
   * @throws IllegalArgumentException unless {@code tokens} is 0, 1 or a power of two
   */
  public static NcclEpHandleConfig perExpertAlignment(long tokens) {
    return MADE[index(new NcclEpHandleConfig(tokens).dispatchOutputPerExpertAlignment)]; // checked, then shared
  }

  private static int index(long alignment) {
    return alignment == 0 ? 0 : 1 + Long.numberOfTrailingZeros(alignment);
  }

  /** The C struct in {@code arena}, size and magic set as the initializer sets them. */
  public MemorySegment allocate(Arena arena) {
    return arena.allocate(NcclEpStructs.HANDLE_CONFIG).copyFrom(struct());
  }

  /** The struct written once for this value, in the global arena. */
  MemorySegment struct() {
    return STRUCTS[index(dispatchOutputPerExpertAlignment)];
  }
}
