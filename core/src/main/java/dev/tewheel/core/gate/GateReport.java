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
 * @param findings what the rules found, suppressed ones excluded, errors first
 * @param suppressed accepted findings with their reasons
 * @param unmatchedSuppressions the configured suppressions that accepted no finding (each is a warning line, never a
 *     finding: a stale suppression does not change the verdict)
 * @param details more keys for report.json, written before "findings" (verify: the libraries' GPU code; diff: the
 *     files and sizes compared), as the kind's schema describes them
 * @param times how long each rule ran, by ID (none for findings judged without running the rules)
 */
public record GateReport(ReportKind kind, String subject, String platformTag, Severity failOn,
    List<? extends Rule> rules, List<Finding> findings, List<SuppressedFinding> suppressed,
    List<Suppression> unmatchedSuppressions, ReportDetails details, Map<String, Duration> times) {
  public GateReport {
    rules = List.copyOf(rules);
    findings = List.copyOf(findings);
    suppressed = List.copyOf(suppressed);
    unmatchedSuppressions = List.copyOf(unmatchedSuppressions);
    details = details == null ? ReportDetails.NONE : details;
    times = Map.copyOf(times);
  }

  /** A finding and the reason it was accepted. */
  public record SuppressedFinding(Finding finding, String reason) {}

  public GateReport withPlatformTag(String tag) {
    return new GateReport(kind, subject, tag, failOn, rules, findings, suppressed, unmatchedSuppressions, details, times);
  }

  public GateReport withDetails(ReportDetails more) {
    return new GateReport(kind, subject, platformTag, failOn, rules, findings, suppressed, unmatchedSuppressions,
        more, times);
  }

  public GateReport withTimes(Map<String, Duration> ruleTimes) {
    return new GateReport(kind, subject, platformTag, failOn, rules, findings, suppressed, unmatchedSuppressions,
        details, ruleTimes);
  }

  /** How long the rule ran; zero when it was not timed. */
  public Duration time(String ruleId) {
    return times.getOrDefault(ruleId, Duration.ZERO);
  }

  public long count(Severity severity) {
    return findings.stream().filter(f -> f.severity() == severity).count();
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
        count(Severity.WARNING), count(Severity.WARNING) == 1 ? "" : "s", suppressed.size(), rules.size(),
        Printable.text(subject), Printable.text(platformTag),
        failOn.name().toLowerCase(Locale.ROOT));
  }
}
