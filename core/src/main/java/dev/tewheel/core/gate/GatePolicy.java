package dev.tewheel.core.gate;

import java.util.List;
import java.util.Map;

/**
 * How a gate judges findings: the lowest severity that fails, the configured severities per rule ID and the
 * accepted findings. Built once per rule set, which checks every ID it names.
 *
 * @param failOn error or warning
 * @param severities rule ID to the severity all of its findings get
 * @param suppressions accepted findings, each with its reason
 */
public record GatePolicy(Severity failOn, Map<String, Severity> severities, List<Suppression> suppressions) {
  public GatePolicy {
    failOn = failOn(failOn == null ? Severity.ERROR : failOn);
    severities = severities == null ? Map.of() : Map.copyOf(severities);
    suppressions = suppressions == null ? List.of() : List.copyOf(suppressions);
  }

  /**
   * The policy for {@code rules}, every ID it names known to them.
   *
   * @throws IllegalArgumentException for an unknown ID ({@link RuleSet#requireKnown}) or failOn info
   */
  public static GatePolicy of(RuleSet<?> rules, Severity failOn, Map<String, Severity> severities,
      List<Suppression> suppressions) {
    GatePolicy policy = new GatePolicy(failOn, severities, suppressions);
    policy.severities.keySet().forEach(rules::requireKnown);
    policy.suppressions.forEach(s -> rules.requireKnown(s.checkId()));
    return policy;
  }

  /** Assemble's: stop on errors, nothing suppressed (assemble writes nothing a finding stops). */
  public static GatePolicy stopOnErrors(RuleSet<?> rules, Map<String, Severity> severities) {
    return of(rules, Severity.ERROR, severities, List.of());
  }

  /**
   * @return {@code level}, when it can fail a run
   * @throws IllegalArgumentException for info, which cannot
   */
  public static Severity failOn(Severity level) {
    if (level == Severity.INFO) {
      throw new IllegalArgumentException("failOn must be error or warning");
    }
    return level;
  }
}
