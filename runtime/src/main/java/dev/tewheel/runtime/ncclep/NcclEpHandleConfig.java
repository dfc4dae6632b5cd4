package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.Problems;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * NCCL EP's {@code ncclEpHandleConfig_t}. {@link #DEFAULT} is {@code NCCL_EP_HANDLE_CONFIG_INIT} (no per-expert
 * padding). Each value is made once per process, with its C struct (NCCL EP only reads it), so a call allocates
 * nothing and equal configs are the same object.
 */
public sealed interface NcclEpHandleConfig permits NcclEpHandleConfigRecord {
  /** {@code NCCL_EP_HANDLE_CONFIG_INIT}. */
  NcclEpHandleConfig DEFAULT = perExpertAlignment(0);

  /**
   * A config whose {@code dispatch_output_per_expert_alignment} is {@code tokens} (expert-major high throughput
   * only).
   *
   * @throws IllegalArgumentException unless {@code tokens} is 0, 1 or a power of two
   */
  static NcclEpHandleConfig perExpertAlignment(long tokens) {
    new Problems("ncclEpHandleConfig_t").alignment("dispatch_output_per_expert_alignment", tokens).throwIfAny();
    return NcclEpHandleConfigRecord.of(tokens);
  }

  /** {@code dispatch_output_per_expert_alignment}, in tokens; 0 and 1 mean no padding. */
  long dispatchOutputPerExpertAlignment();

  /** The C struct in {@code arena}, size and magic set as the initializer sets them. */
  MemorySegment allocate(Arena arena);
}
