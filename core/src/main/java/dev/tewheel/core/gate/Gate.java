package dev.tewheel.core.gate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place a verdict is decided, for assemble, verify, pack and diff alike: the rules run, each finding takes
 * its configured severity, the suppressions accept what they match, and the rest is sorted, errors first and in rule
 * order within a level. A report lists at most {@link #MAX_LISTED_PER_RULE} findings of one rule, then one saying how
 * many more ({@link ListedFindings}); its counts include them all. Whether the goal fails is then
 * {@link GateReport#passed()}.
 */
public final class Gate {
  /**
   * The most findings of one rule a report lists (and as many suppressed ones): a real release has a handful per
   * rule, and 100 rows are as many as a person reads; a hostile wheel of a hundred thousand bad entries then costs
   * a console and reports of a few hundred kilobytes, not gigabytes.
   */
  public static final int MAX_LISTED_PER_RULE = 100;

  private Gate() {}

  /** Runs {@code rules} on {@code subject}, each timed for the JUnit report, and judges what they find. */
  public static <S> GateReport judge(ReportKind kind, RuleSet<S> rules, S subject, String description,
      GatePolicy policy) {
    List<Finding> found = new ArrayList<>();
    Map<String, Duration> times = new LinkedHashMap<>();
    for (Rule rule : rules.rules()) {
      long start = System.nanoTime();
      found.addAll(rules.run(rule, subject));
      times.put(rule.id(), Duration.ofNanos(System.nanoTime() - start));
    }
    return judge(kind, rules, found, description, policy).withTimes(times);
  }

  /**
   * Judges findings already made by {@code rules} (verify's unreadable zip, named before the rules could run; or
   * findings renamed to where a file will sit).
   */
  public static GateReport judge(ReportKind kind, RuleSet<?> rules, List<Finding> found, String description,
      GatePolicy policy) {
    List<Finding> judged = new ArrayList<>(found.size());
    for (Rule rule : rules.rules()) {
      Severity configured = policy.severities().get(rule.id());
      for (Finding f : found) {
        if (f.checkId().equals(rule.id())) {
          judged.add(configured == null ? f : f.withSeverity(configured));
        }
      }
    }
    if (judged.size() != found.size()) {
      throw new IllegalStateException("a finding names a rule that is not one of the " + rules.noun() + "s: "
          + found.stream().filter(f -> rules.byId(f.checkId()).isEmpty()).findFirst().orElseThrow());
    }
    Suppression.Applied applied = Suppression.apply(policy.suppressions(), judged);
    List<Finding> active = new ArrayList<>(applied.active());
    active.sort(Comparator.comparing(Finding::severity).reversed()); // stable: rule order within a level
    ListedFindings listed = ListedFindings.of(active, applied.suppressed());
    return new GateReport(kind, description, "-", policy.failOn(), rules.rules(), listed.findings(),
        listed.suppressed(), applied.unmatched(), ReportDetails.NONE, Map.of(), listed.totals());
  }
}
