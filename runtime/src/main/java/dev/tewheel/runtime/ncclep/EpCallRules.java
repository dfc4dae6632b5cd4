package dev.tewheel.runtime.ncclep;

import static dev.tewheel.runtime.ncclep.EpAlgorithm.HIGH_THROUGHPUT;
import static dev.tewheel.runtime.ncclep.EpAlgorithm.LOW_LATENCY;

/**
 * What {@code nccl_ep.h} says a dispatch, combine or handle update needs of its tensors for the group's algorithm,
 * the handle's layout and the call's config, checked in Java before the call (NCCL EP {@code assert}s on much of
 * it, which would end the process). A call that passes allocates nothing here: a message is made only for a problem.
 */
final class EpCallRules {
  private EpCallRules() {}

  static void dispatch(EpHandle handle, NcclEpDispatchInputs in, NcclEpDispatchOutputs out, NcclEpLayoutInfo info,
      NcclEpDispatchConfig config) {
    boolean ht = handle.algorithm() == HIGH_THROUGHPUT;
    boolean forward = config.passDirection() == EpPassDirection.FWD;
    String p = null;
    p = rule(p, !(ht && info != NcclEpLayoutInfo.NONE), "high throughput takes no layout_info (its counters come"
        + " from the handle update)");
    p = rule(p, !(!ht && handle.layout() == EpLayout.EXPERT_MAJOR && info.expertCounters() == null),
        "low latency's expert-major layout needs layout_info expert_counters");
    p = rule(p, !(ht && forward && in.topkWeights() == null), "high throughput's forward pass needs inputs"
        + " topk_weights");
    p = rule(p, !(!ht && handle.layout() == EpLayout.RANK_MAJOR && in.topkWeights() == null), "low latency's"
        + " rank-major layout needs inputs topk_weights");
    p = rule(p, !(ht && !forward && (in.topkWeights() != null || out.topkWeights() != null || out.topkIdx() != null)),
        "the backward pass takes no inputs topk_weights, outputs topk_weights or outputs topk_idx");
    p = rule(p, !(ht && config.sendOnly()), "send_only is for low latency only");
    p = switch (config.quantRecipe()) {
      case NONE -> rule(p, in.scales() == null && out.scales() == null, "quant_recipe NONE takes no scales");
      case FWD -> rule(p, in.scales() != null && out.scales() != null, "quant_recipe QUANT_FWD needs inputs and"
          + " outputs scales");
      case DS_FP8E3M4 -> rule(rule(p, !ht, "quant_recipe DS_FP8E3M4 is for low latency only"),
          in.scales() == null && out.scales() != null, "quant_recipe DS_FP8E3M4 takes no inputs scales and needs"
          + " outputs scales");
    };
    refuse("ncclEpDispatch", p);
  }

  static void combine(EpHandle handle, NcclEpCombineInputs in, NcclEpCombineOutputs out, NcclEpCombineConfig config) {
    boolean ht = handle.algorithm() == HIGH_THROUGHPUT;
    boolean forward = config.passDirection() == EpPassDirection.FWD;
    String p = null;
    p = rule(p, !(ht && forward && in.topkWeights() != null), "high throughput's forward pass takes no inputs"
        + " topk_weights");
    p = rule(p, !(ht && !forward && (in.topkWeights() == null || out.topkWeights() == null)), "the backward pass needs"
        + " inputs and outputs topk_weights");
    p = rule(p, !(!ht && handle.layout() == EpLayout.EXPERT_MAJOR && out.topkWeights() == null),
        "low latency's expert-major layout needs outputs topk_weights (the weights applied on receive)");
    p = rule(p, !(ht && config.sendOnly()), "send_only is for low latency only");
    p = rule(p, !(config.quantRecipe() == NcclEpCombineConfig.Quant.NVFP4 && (ht || in.scales() == null)),
        "quant_recipe NVFP4 is for low latency only and needs inputs scales");
    refuse("ncclEpCombine", p);
  }

  static void update(String function, EpAlgorithm algorithm, NcclEpLayoutInfo info) {
    refuse(function, rule(null, !(algorithm == LOW_LATENCY && info != NcclEpLayoutInfo.NONE),
        "low latency takes no layout_info (NcclEpLayoutInfo.NONE)"));
  }

  /** {@code problems} with {@code problem} added unless {@code ok}. */
  private static String rule(String problems, boolean ok, String problem) {
    return ok ? problems : problems == null ? problem : problems + "; " + problem;
  }

  private static void refuse(String function, String problems) {
    if (problems != null) {
      throw new IllegalArgumentException(function + " refused before the native call: " + problems);
    }
  }
}
