package dev.tewheel.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpDispatchConfig_t}, checked in Java. {@link #DEFAULT} is
 * {@code NCCL_EP_DISPATCH_CONFIG_INIT} (forward, unquantized, not send-only). Its struct is written once, when it is
 * built.
 */
public sealed interface NcclEpDispatchConfig permits NcclEpDispatchConfigRecord {
  /** {@code ncclEpDispQuant_t}: how tokens travel. */
  enum Quant {
    /** {@code NCCL_EP_DISP_QUANT_NONE}: in their declared type; no scales. */
    NONE,
    /** {@code NCCL_EP_DISP_QUANT_FWD}: the caller's scales are forwarded with the tokens, unconverted. */
    FWD,
    /** {@code NCCL_EP_DISP_QUANT_DS_FP8E3M4}: low latency quantizes BF16 tokens to E4M3 and emits FP32 scales. */
    DS_FP8E3M4
  }

  /** {@code NCCL_EP_DISPATCH_CONFIG_INIT}. */
  NcclEpDispatchConfig DEFAULT = builder().build();

  /** A builder holding {@code NCCL_EP_DISPATCH_CONFIG_INIT}'s values. */
  static Builder builder() {
    return new Builder();
  }

  /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
  boolean sendOnly();

  /** {@code round_scales}: round the scales to powers of two (not with {@link Quant#FWD}). */
  boolean roundScales();

  /** {@code pass_direction} (high throughput only). */
  EpPassDirection passDirection();

  /** {@code quant_recipe}. */
  Quant quantRecipe();

  /** The {@code ncclEpDispatchConfig_t*}, for the raw {@link NcclEp#dispatch}. */
  MemorySegment segment();

  /** Builds an {@link NcclEpDispatchConfig}; each setter names the C field it sets. */
  final class Builder {
    private boolean sendOnly;
    private boolean roundScales;
    private EpPassDirection passDirection = EpPassDirection.FWD;
    private Quant quantRecipe = Quant.NONE;

    private Builder() {}

    /** {@code send_only}. */
    public Builder sendOnly(boolean value) {
      sendOnly = value;
      return this;
    }

    /** {@code round_scales}. */
    public Builder roundScales(boolean value) {
      roundScales = value;
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

    /** @throws IllegalArgumentException for {@code round_scales} with {@link Quant#FWD}, which NCCL EP refuses */
    public NcclEpDispatchConfig build() {
      new Problems("ncclEpDispatchConfig_t").check(!(roundScales && quantRecipe == Quant.FWD),
          "round_scales must be zero when QUANT_FWD forwards the scales").throwIfAny();
      return Fields.struct(NcclEpStructs.DISPATCH_CONFIG,
          s -> new NcclEpDispatchConfigRecord(sendOnly, roundScales, passDirection, quantRecipe, s));
    }
  }
}
