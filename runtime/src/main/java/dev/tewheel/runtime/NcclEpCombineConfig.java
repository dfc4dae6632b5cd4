package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpCombineConfig_t}. {@link #DEFAULT} is {@code NCCL_EP_COMBINE_CONFIG_INIT} (forward,
 * unquantized, not send-only). Its struct is written once, when it is built.
 */
public sealed interface NcclEpCombineConfig permits NcclEpCombineConfigRecord {
  /** {@code ncclEpCombQuant_t}. */
  enum Quant {
    /** {@code NCCL_EP_COMB_QUANT_NONE}. */
    NONE,
    /** {@code NCCL_EP_COMB_QUANT_NVFP4}: experimental, low latency's BF16 transport with caller-given FP32 scales. */
    NVFP4
  }

  /** {@code NCCL_EP_COMBINE_CONFIG_INIT}. */
  NcclEpCombineConfig DEFAULT = builder().build();

  /** A builder holding {@code NCCL_EP_COMBINE_CONFIG_INIT}'s values. */
  static Builder builder() {
    return new Builder();
  }

  /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
  boolean sendOnly();

  /** {@code pass_direction} (high throughput only). */
  EpPassDirection passDirection();

  /** {@code quant_recipe}. */
  Quant quantRecipe();

  /** The {@code ncclEpCombineConfig_t*}, for the raw {@link NcclEp#combine}. */
  MemorySegment segment();

  /** Builds an {@link NcclEpCombineConfig}; each setter names the C field it sets. */
  final class Builder {
    private boolean sendOnly;
    private EpPassDirection passDirection = EpPassDirection.FWD;
    private Quant quantRecipe = Quant.NONE;

    private Builder() {}

    /** {@code send_only}. */
    public Builder sendOnly(boolean value) {
      sendOnly = value;
      return this;
    }

    /** {@code pass_direction}. */
    public Builder passDirection(EpPassDirection value) {
      passDirection = Objects.requireNonNull(value, "passDirection");
      return this;
    }

    /** {@code quant_recipe}. */
    public Builder quantRecipe(Quant value) {
      quantRecipe = Objects.requireNonNull(value, "quantRecipe");
      return this;
    }

    public NcclEpCombineConfig build() {
      return Fields.struct(NcclEpStructs.COMBINE_CONFIG,
          s -> new NcclEpCombineConfigRecord(sendOnly, passDirection, quantRecipe, s));
    }
  }
}
