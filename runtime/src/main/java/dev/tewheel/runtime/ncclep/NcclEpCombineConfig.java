package dev.tewheel.runtime.ncclep;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * NCCL EP's {@code ncclEpCombineConfig_t}. {@link #DEFAULT} is {@code NCCL_EP_COMBINE_CONFIG_INIT} (forward,
 * unquantized, not send-only). Its struct is written once per value ({@link #segment()}).
 *
 * @param sendOnly {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete}
 *     finishes them
 * @param passDirection {@code pass_direction} (high throughput only)
 * @param quantRecipe {@code quant_recipe}
 */
public record NcclEpCombineConfig(boolean sendOnly, EpPassDirection passDirection, Quant quantRecipe) {
  /** {@code ncclEpCombQuant_t}. */
  public enum Quant {
    /** {@code NCCL_EP_COMB_QUANT_NONE}. */
    NONE,
    /** {@code NCCL_EP_COMB_QUANT_NVFP4}: experimental, low latency's BF16 transport with caller-given FP32 scales. */
    NVFP4
  }

  /** The struct's on/off fields: a flag given is 1, one left out 0. */
  public enum Flag {
    /** {@code send_only} (low latency only): only start the transfers; {@link EpHandle#complete} finishes them. */
    SEND_ONLY
  }

  /** {@code NCCL_EP_COMBINE_CONFIG_INIT}. */
  public static final NcclEpCombineConfig DEFAULT = of(EpPassDirection.FWD, Quant.NONE);

  public NcclEpCombineConfig {
    Objects.requireNonNull(passDirection, "passDirection");
    Objects.requireNonNull(quantRecipe, "quantRecipe");
  }

  /** A config with {@code pass_direction} (high throughput only), {@code quant_recipe} and the flags given set. */
  public static NcclEpCombineConfig of(EpPassDirection passDirection, Quant quantRecipe, Flag... flags) {
    return new NcclEpCombineConfig(List.of(flags).contains(Flag.SEND_ONLY), passDirection, quantRecipe);
  }

  /** The {@code ncclEpCombineConfig_t*}, for a call through {@link NcclEp#function}. */
  public MemorySegment segment() {
    return NcclEpStructs.written(this, NcclEpStructs.COMBINE_CONFIG);
  }
}
