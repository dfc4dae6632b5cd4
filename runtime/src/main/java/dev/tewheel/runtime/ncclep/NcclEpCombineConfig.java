package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;
import java.util.List;

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

  /** The struct's on/off fields: a flag given is 1, one left out 0. */
  enum Flag {
    /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
    SEND_ONLY
  }

  /** {@code NCCL_EP_COMBINE_CONFIG_INIT}. */
  NcclEpCombineConfig DEFAULT = of(EpPassDirection.FWD, Quant.NONE);

  /** A config with {@code pass_direction} (high throughput only), {@code quant_recipe} and the flags given set. */
  static NcclEpCombineConfig of(EpPassDirection passDirection, Quant quantRecipe, Flag... flags) {
    boolean sendOnly = List.of(flags).contains(Flag.SEND_ONLY);
    return NcclEpStructs.written(NcclEpStructs.COMBINE_CONFIG,
        s -> new NcclEpCombineConfigRecord(sendOnly, passDirection, quantRecipe, s));
  }

  /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
  boolean sendOnly();

  /** {@code pass_direction} (high throughput only). */
  EpPassDirection passDirection();

  /** {@code quant_recipe}. */
  Quant quantRecipe();

  /** The {@code ncclEpCombineConfig_t*}, for the raw {@link NcclEp#combine}. */
  MemorySegment segment();
}
