package dev.tewheel.core.policy;

import java.util.List;

/**
 * The most compatible platform tag a wheel's libraries allow, and why it is not a more compatible one.
 *
 * @param tag e.g. "manylinux_2_28_x86_64", or "linux_x86_64" when no manylinux policy fits
 * @param symbolTag the tag the symbol versions alone allow (auditwheel's sym_tag)
 * @param limits one sentence per constraint that keeps the tag from the most compatible policy
 * @param outsideEveryPolicy DT_NEEDED libraries neither shipped, nor allowed by any policy, nor wheel-provided
 */
public record PlatformSuggestion(String tag, String symbolTag, List<String> limits, List<String> outsideEveryPolicy) {
  public PlatformSuggestion {
    limits = List.copyOf(limits);
    outsideEveryPolicy = List.copyOf(outsideEveryPolicy);
  }
}
