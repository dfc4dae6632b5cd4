package dev.tewheel.core.gate;

import dev.tewheel.json.Printable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A gate's verdict, from {@link Gate#judge}: what every report form (console, JSON, JUnit, SARIF, GitHub Actions
 * annotations) is written from.
 *
 * @param kind which goal's gate: names the schema, the JUnit suite and the files
 * @param subject what was judged, for people
 * @param platformTag the tag the platform check used ("-" where none applies)
 * @param failOn the lowest severity that fails
 * @param rules every rule that ran
 * @param findings what the rules found, suppressed ones excluded, errors first; at most
 *     {@link Gate#MAX_LISTED_PER_RULE} per rule, then one finding saying how many more
 * @param suppressed accepted findings with their reasons
 * @param unmatchedSuppressions the configured suppressions that accepted no finding (each is a warning line, never a
 *     finding: a stale suppression does not change the verdict)
 * @param details more keys for report.json, written before "findings" (verify: the libraries' GPU code; diff: the
 *     files and sizes compared), as the kind's schema describes them
 * @param times how long each rule ran, by ID (none for findings judged without running the rules)
 * @param totals every finding the gate judged, counted by severity, listed or not
 */
public record GateReport(ReportKind kind, String subject, String platformTag, Severity failOn,
    List<? extends Rule> rules, List<Finding> findings, List<SuppressedFinding> suppressed,
    List<Suppression> unmatchedSuppressions, ReportDetails details, Map<String, Duration> times, Totals totals) {
  public GateReport {
    rules = List.copyOf(rules);
    findings = List.copyOf(findings);
    suppressed = List.copyOf(suppressed);
    unmatchedSuppressions = List.copyOf(unmatchedSuppressions);
    details = details == null ? ReportDetails.NONE : details;
    times = Map.copyOf(times);
    totals = totals == null ? Totals.of(findings, suppressed) : totals;
  }

  /** A report that lists every finding it counts. */
  public GateReport(ReportKind kind, String subject, String platformTag, Severity failOn, List<? extends Rule> rules,
      List<Finding> findings, List<SuppressedFinding> suppressed, List<Suppression> unmatchedSuppressions,
      ReportDetails details, Map<String, Duration> times) {
    this(kind, subject, platformTag, failOn, rules, findings, suppressed, unmatchedSuppressions, details, times,
        null);
  }

  /** A finding and the reason it was accepted. */
  public record SuppressedFinding(Finding finding, String reason) {}

  /**
   * How many findings the gate judged, listed or not: the summary line and report.json's counts.
   *
   * @param errors active findings of severity error
   * @param warnings active warnings
   * @param infos active infos
   * @param suppressed findings the suppressions accepted
   */
  public record Totals(long errors, long warnings, long infos, long suppressed) {
    /** The counts of these lists, each item one finding. */
    public static Totals of(List<Finding> active, List<SuppressedFinding> accepted) {
      long[] bySeverity = new long[Severity.values().length];
      active.forEach(f -> bySeverity[f.severity().ordinal()]++);
      return new Totals(bySeverity[Severity.ERROR.ordinal()], bySeverity[Severity.WARNING.ordinal()],
          bySeverity[Severity.INFO.ordinal()], accepted.size());
    }

    public long of(Severity severity) {
      return switch (severity) {
        case ERROR -> errors;
        case WARNING -> warnings;
        case INFO -> infos;
      };
    }
  }

  public GateReport withPlatformTag(String tag) {
    return new GateReport(kind, subject, tag, failOn, rules, findings, suppressed, unmatchedSuppressions, details, times,
        totals);
  }

  public GateReport withDetails(ReportDetails more) {
    return new GateReport(kind, subject, platformTag, failOn, rules, findings, suppressed, unmatchedSuppressions,
        more, times, totals);
  }

  public GateReport withTimes(Map<String, Duration> ruleTimes) {
    return new GateReport(kind, subject, platformTag, failOn, rules, findings, suppressed, unmatchedSuppressions,
        details, ruleTimes, totals);
  }

  /** How long the rule ran; zero when it was not timed. */
  public Duration time(String ruleId) {
    return times.getOrDefault(ruleId, Duration.ZERO);
  }

  /** How many active findings of this severity the gate judged, listed or not. */
  public long count(Severity severity) {
    return totals.of(severity);
  }

  /** True when no finding is at or above {@link #failOn()}. */
  public boolean passed() {
    return findings.stream().noneMatch(f -> f.severity().atLeast(failOn));
  }

  /**
   * e.g. "PASSED: 0 errors, 3 warnings, 1 suppressed; 25 checks on wheel_lib /x (platform manylinux_2_28_x86_64)";
   * one console line, the subject's name escaped by {@link Printable#text}.
   */
  public String summary() {
    return String.format("%s: %d error%s, %d warning%s, %d suppressed; %d checks on %s (platform %s, failOn %s)",
        passed() ? "PASSED" : "FAILED", count(Severity.ERROR), count(Severity.ERROR) == 1 ? "" : "s",
        count(Severity.WARNING), count(Severity.WARNING) == 1 ? "" : "s", totals.suppressed(), rules.size(),
        Printable.text(subject), Printable.text(platformTag),
        failOn.name().toLowerCase(Locale.ROOT));
  }
}
