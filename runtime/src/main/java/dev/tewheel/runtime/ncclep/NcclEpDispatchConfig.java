package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.ffm.Problems;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpDispatchConfig_t}, checked in Java. {@link #DEFAULT} is
 * {@code NCCL_EP_DISPATCH_CONFIG_INIT} (forward, unquantized, not send-only). Its struct is written once per value
 * ({@link #segment()}).
 *
 * @param sendOnly {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete}
 *     finishes them
 * @param roundScales {@code round_scales}: round the scales to powers of two (not with {@link Quant#FWD})
 * @param passDirection {@code pass_direction} (high throughput only)
 * @param quantRecipe {@code quant_recipe}
 */
public record NcclEpDispatchConfig(boolean sendOnly, boolean roundScales, EpPassDirection passDirection,
    Quant quantRecipe) {
  /** {@code ncclEpDispQuant_t}: how tokens travel. */
  public enum Quant {
    /** {@code NCCL_EP_DISP_QUANT_NONE}: in their declared type; no scales. */
    NONE,
    /** {@code NCCL_EP_DISP_QUANT_FWD}: the caller's scales are forwarded with the tokens, unconverted. */
    FWD,
    /** {@code NCCL_EP_DISP_QUANT_DS_FP8E3M4}: low latency quantizes BF16 tokens to E4M3 and emits FP32 scales. */
    DS_FP8E3M4
  }

  /** The struct's on/off fields: a flag given is 1, one left out 0. */
  public enum Flag {
    /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
    SEND_ONLY,
    /** {@code round_scales}: round the scales to powers of two (not with {@link Quant#FWD}). */
    ROUND_SCALES
  }

  /** {@code NCCL_EP_DISPATCH_CONFIG_INIT}. */
  public static final NcclEpDispatchConfig DEFAULT = of(EpPassDirection.FWD, Quant.NONE);

  /** @throws IllegalArgumentException for {@code round_scales} with {@link Quant#FWD}, which NCCL EP refuses */
  public NcclEpDispatchConfig {
    Objects.requireNonNull(passDirection, "passDirection");
    Objects.requireNonNull(quantRecipe, "quantRecipe");
    new Problems("ncclEpDispatchConfig_t").check(!(roundScales && quantRecipe == Quant.FWD),
        "round_scales must be zero when QUANT_FWD forwards the scales").throwIfAny();
  }

  /**
   * A config with {@code pass_direction} (high throughput only), {@code quant_recipe} and the flags given set.
   *
   * @throws IllegalArgumentException for {@code round_scales} with {@link Quant#FWD}, which NCCL EP refuses
   */
  public static NcclEpDispatchConfig of(EpPassDirection passDirection, Quant quantRecipe, Flag... flags) {
    List<Flag> set = List.of(flags);
    return new NcclEpDispatchConfig(set.contains(Flag.SEND_ONLY), set.contains(Flag.ROUND_SCALES), passDirection,
        quantRecipe);
  }

  /** The {@code ncclEpDispatchConfig_t*}, for a call through {@link NcclEp#function}. */
  public MemorySegment segment() {
    return NcclEpStructs.written(this, NcclEpStructs.DISPATCH_CONFIG);
  }
}
