package dev.tewheel.core.diff;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.gate.Suppression;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What te:diff-wheel compares and how it judges.
 *
 * @param baseline the previous release: a .whl or a wheel_lib folder
 * @param current this release: a .whl or a wheel_lib folder
 * @param wheelLibPath where wheel_lib sits inside a wheel
 * @param layout the layout to assume for a folder without a manifest
 * @param maxGrowthPercent the largest total size growth that passes, in percent of the baseline's size
 * @param failOn the lowest severity that fails
 * @param severityOverrides per rule ID
 * @param suppressions accepted findings
 * @param reportDirectory where report.json, the JUnit XML and the SARIF file go, or null for none
 * @param projectBase the project's folder: the reports name files below it relative to it (SARIF against
 *     {@code PROJECTROOT}); null: every file as the findings name it
 */
public record DiffRequest(Path baseline, Path current, String wheelLibPath, Layout layout, double maxGrowthPercent,
    Severity failOn, Map<String, Severity> severityOverrides, List<Suppression> suppressions, Path reportDirectory,
    Path projectBase) {
  public static final int DEFAULT_MAX_GROWTH_PERCENT = 10;

  /** A request whose reports name every file as the findings do (no project folder). */
  public DiffRequest(Path baseline, Path current, String wheelLibPath, Layout layout, double maxGrowthPercent,
      Severity failOn, Map<String, Severity> severityOverrides, List<Suppression> suppressions,
      Path reportDirectory) {
    this(baseline, current, wheelLibPath, layout, maxGrowthPercent, failOn, severityOverrides, suppressions,
        reportDirectory, null);
  }

  public DiffRequest {
    Objects.requireNonNull(baseline, "baseline");
    Objects.requireNonNull(current, "current");
    if (!Double.isFinite(maxGrowthPercent) || maxGrowthPercent < 0) {
      // Infinity would also reach report.json, which holds the budget as a decimal number.
      throw new IllegalArgumentException("maxGrowthPercent " + maxGrowthPercent + " is not a finite percentage of"
          + " at least 0: expected e.g. 10 (percent of the baseline's total size); to allow any growth, lower"
          + " DIFF-SIZE's severity (severities DIFF-SIZE=info) instead");
    }
    severityOverrides = Map.copyOf(severityOverrides);
    suppressions = List.copyOf(suppressions);
    policy(failOn, severityOverrides, suppressions); // every ID known to the diff rules, before anything is read
  }

  /** How the gate judges the diff's findings. */
  public GatePolicy policy() {
    return policy(failOn, severityOverrides, suppressions);
  }

  private static GatePolicy policy(Severity failOn, Map<String, Severity> severities, List<Suppression> accepted) {
    return GatePolicy.of(DiffRules.RULES, failOn, severities, accepted);
  }
}
