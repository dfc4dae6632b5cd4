package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.Problems;
import java.lang.foreign.MemorySegment;
import java.util.List;

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

  /** The struct's on/off fields: a flag given is 1, one left out 0. */
  enum Flag {
    /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
    SEND_ONLY,
    /** {@code round_scales}: round the scales to powers of two (not with {@link Quant#FWD}). */
    ROUND_SCALES
  }

  /** {@code NCCL_EP_DISPATCH_CONFIG_INIT}. */
  NcclEpDispatchConfig DEFAULT = of(EpPassDirection.FWD, Quant.NONE);

  /**
   * A config with {@code pass_direction} (high throughput only), {@code quant_recipe} and the flags given set.
   *
   * @throws IllegalArgumentException for {@code round_scales} with {@link Quant#FWD}, which NCCL EP refuses
   */
  static NcclEpDispatchConfig of(EpPassDirection passDirection, Quant quantRecipe, Flag... flags) {
    List<Flag> set = List.of(flags);
    boolean roundScales = set.contains(Flag.ROUND_SCALES);
    new Problems("ncclEpDispatchConfig_t").check(!(roundScales && quantRecipe == Quant.FWD),
        "round_scales must be zero when QUANT_FWD forwards the scales").throwIfAny();
    return NcclEpStructs.written(NcclEpStructs.DISPATCH_CONFIG, s -> new NcclEpDispatchConfigRecord(
        set.contains(Flag.SEND_ONLY), roundScales, passDirection, quantRecipe, s));
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
}
