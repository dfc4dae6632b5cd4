package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;

/**
 * What NCCL EP's four tensor structs share ({@link NcclEpDispatchInputs}, {@link NcclEpDispatchOutputs},
 * {@link NcclEpCombineInputs}, {@link NcclEpCombineOutputs}): {@code size} and {@code magic}, a required
 * {@code tokens} and an optional {@code topk_weights}; some add {@code scales} and {@code topk_idx}. Each struct is
 * written once per value and passed as it is on every call: make one per set of tensors (its constructor; a null
 * tensor is NULL) and reuse it each step.
 */
public sealed interface NcclEpTensors
    permits NcclEpDispatchInputs, NcclEpDispatchOutputs, NcclEpCombineInputs, NcclEpCombineOutputs {
  /** {@code tokens}, required. */
  EpTensor tokens();

  /** {@code topk_weights}, optional (null). */
  EpTensor topkWeights();

  /**
   * The C struct, for a call through {@link NcclEp#function}.
   *
   * @throws IllegalStateException when a tensor it points at was closed
   */
  MemorySegment segment();
}
