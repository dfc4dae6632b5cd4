package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.function.Function;

/**
 * What NCCL EP's four tensor structs share ({@link NcclEpDispatchInputs}, {@link NcclEpDispatchOutputs},
 * {@link NcclEpCombineInputs}, {@link NcclEpCombineOutputs}): {@code size} and {@code magic}, a required
 * {@code tokens} and an optional {@code topk_weights}; some add {@code scales} and {@code topk_idx}. Each struct is
 * written once per value and passed as it is on every call: build one per set of tensors and reuse it each step.
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

  /**
   * Builds one of the four structs from {@code *_INIT} (every tensor NULL); each setter sets the member of its name.
   *
   * @param <T> the struct it builds
   */
  final class Builder<T extends NcclEpTensors> {
    private final StructLayout layout;
    private final Function<Builder<T>, T> make;
    EpTensor tokens;
    EpTensor topkWeights;
    EpTensor scales;
    EpTensor topkIdx;

    /** For the four {@code builder()}s: the struct of {@code layout}, made by {@code make}. */
    Builder(StructLayout layout, Function<Builder<T>, T> make) {
      this.layout = layout;
      this.make = make;
    }

    public Builder<T> tokens(EpTensor value) {
      tokens = value;
      return this;
    }

    public Builder<T> topkWeights(EpTensor value) {
      topkWeights = value;
      return this;
    }

    /** {@code scales} (not in {@code ncclEpCombineOutputs_t}). */
    public Builder<T> scales(EpTensor value) {
      scales = value;
      return this;
    }

    /** {@code topk_idx} (only in {@code ncclEpDispatchOutputs_t}). */
    public Builder<T> topkIdx(EpTensor value) {
      topkIdx = value;
      return this;
    }

    /** @throws IllegalArgumentException without {@code tokens}, or with a tensor the struct has no member for */
    public T build() {
      new Problems(layout.name().orElseThrow()).required("tokens", tokens)
          .check(scales == null || layout != NcclEpStructs.COMBINE_OUTPUTS, "it has no scales")
          .check(topkIdx == null || layout == NcclEpStructs.DISPATCH_OUTPUTS, "it has no topk_idx").throwIfAny();
      return make.apply(this);
    }
  }
}
