package dev.tewheel.core.verify;

import dev.tewheel.core.check.Finding;
import dev.tewheel.core.check.Rule;
import dev.tewheel.core.check.Severity;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a verify run.
 *
 * @param subject what was verified, for people
 * @param platformTag the tag the platform check used
 * @param failOn the lowest severity that fails
 * @param checks every check that ran
 * @param findings what the checks found, suppressed ones excluded
 * @param suppressed accepted findings with their reasons
 * @param goal the goal that made it: "verify-wheel-lib" or "diff-wheel" (names the JUnit suite and file)
 * @param details more keys for report.json, written before "findings" (verify: the libraries' GPU code; diff: the
 *     files and libraries compared)
 * @param unmatchedSuppressions the configured suppressions that accepted no finding (each is a warning line, never a
 *     finding: a stale suppression does not change the verdict)
 */
public record VerifyReport(String subject, String platformTag, Severity failOn, List<? extends Rule> checks,
    List<Finding> findings, List<SuppressedFinding> suppressed, String goal, Map<String, Object> details,
    List<Suppression> unmatchedSuppressions) {
  public VerifyReport {
    unmatchedSuppressions = List.copyOf(unmatchedSuppressions);
  }

  public VerifyReport(String subject, String platformTag, Severity failOn, List<? extends Rule> checks,
      List<Finding> findings, List<SuppressedFinding> suppressed, String goal, Map<String, Object> details) {
    this(subject, platformTag, failOn, checks, findings, suppressed, goal, details, List.of());
  }

  public VerifyReport(String subject, String platformTag, Severity failOn, List<? extends Rule> checks,
      List<Finding> findings, List<SuppressedFinding> suppressed) {
    this(subject, platformTag, failOn, checks, findings, suppressed, "verify-wheel-lib", Map.of());
  }

  /** A finding and the reason it was accepted. */
  public record SuppressedFinding(Finding finding, String reason) {}

  public long count(Severity severity) {
    return findings.stream().filter(f -> f.severity() == severity).count();
  }

  /** True when no finding is at or above {@link #failOn()}. */
  public boolean passed() {
    return findings.stream().noneMatch(f -> f.severity().atLeast(failOn));
  }

  /**
   * e.g. "PASSED: 0 errors, 3 warnings, 1 suppressed; 25 checks on wheel_lib /x (platform manylinux_2_28_x86_64)";
   * one console line, the subject's name escaped by {@link ReportWriter#printable}.
   */
  public String summary() {
    return String.format("%s: %d error%s, %d warning%s, %d suppressed; %d checks on %s (platform %s, failOn %s)",
        passed() ? "PASSED" : "FAILED", count(Severity.ERROR), count(Severity.ERROR) == 1 ? "" : "s",
        count(Severity.WARNING), count(Severity.WARNING) == 1 ? "" : "s", suppressed.size(), checks.size(),
        ReportWriter.printable(subject), ReportWriter.printable(platformTag),
        failOn.name().toLowerCase(java.util.Locale.ROOT));
  }
}
