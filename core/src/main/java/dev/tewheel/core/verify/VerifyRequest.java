package dev.tewheel.core.verify;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.gate.Suppression;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to verify and how.
 *
 * @param wheelLib a wheel_lib folder, or null when {@code wheel} is given
 * @param wheel a .whl, read in place, or null when {@code wheelLib} is given
 * @param wheelLibPath where wheel_lib sits inside the wheel
 * @param layout the layout to assume when wheel_lib has no manifest
 * @param platformTag e.g. manylinux_2_28_x86_64; null: from the wheel's file name, else this machine
 *     ({@code linux_<arch>})
 * @param settings check settings (the platform is filled in by the verifier)
 * @param failOn the lowest severity that fails the run
 * @param severityOverrides check ID to severity
 * @param suppressions accepted findings, each with its reason
 * @param reportDirectory where report.json, the JUnit XML and the SARIF file go, or null for none
 * @param projectBase the project's folder: the reports name files below it relative to it (SARIF against
 *     {@code PROJECTROOT}); null: every file as the findings name it
 */
public record VerifyRequest(Path wheelLib, Path wheel, String wheelLibPath, Layout layout, String platformTag,
    CheckSettings settings, Severity failOn, Map<String, Severity> severityOverrides, List<Suppression> suppressions,
    Path reportDirectory, Path projectBase) {
  public static final String DEFAULT_WHEEL_LIB_PATH = "transformer_engine/wheel_lib";

  public VerifyRequest {
    if ((wheelLib == null) == (wheel == null)) {
      throw new IllegalArgumentException("give exactly one of wheelLib (a wheel_lib folder) and wheel (a .whl)");
    }
    wheelLibPath = wheelLibPath == null || wheelLibPath.isBlank() ? DEFAULT_WHEEL_LIB_PATH
        : wheelLibPath.replaceAll("^/+|/+$", "");
    layout = layout == null ? Layout.DEFAULT : layout;
    settings = settings == null ? CheckSettings.defaults() : settings;
    // Before any check runs: the policy checks every ID, so a typo does not cost a full verification first.
    GatePolicy policy = GatePolicy.of(CheckCatalogue.CHECKS, failOn, severityOverrides, suppressions);
    failOn = policy.failOn();
    severityOverrides = policy.severities();
    suppressions = policy.suppressions();
  }

  /** How the gate judges the findings. */
  public GatePolicy policy() {
    return new GatePolicy(failOn, severityOverrides, suppressions);
  }

  public static VerifyRequest folder(Path wheelLib) {
    return new VerifyRequest(Objects.requireNonNull(wheelLib), null, null, null, null, null, null, null, null, null,
        null);
  }

  public static VerifyRequest wheel(Path wheel) {
    return new VerifyRequest(null, Objects.requireNonNull(wheel), null, null, null, null, null, null, null, null,
        null);
  }

  public VerifyRequest withPlatformTag(String tag) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, tag, settings, failOn, severityOverrides,
        suppressions, reportDirectory, projectBase);
  }

  public VerifyRequest withReportDirectory(Path folder) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, platformTag, settings, failOn, severityOverrides,
        suppressions, folder, projectBase);
  }

  public VerifyRequest withProjectBase(Path folder) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, platformTag, settings, failOn, severityOverrides,
        suppressions, reportDirectory, folder);
  }

  public VerifyRequest withFailOn(Severity severity) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, platformTag, settings, severity,
        severityOverrides, suppressions, reportDirectory, projectBase);
  }

  public VerifyRequest withSuppressions(List<Suppression> list) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, platformTag, settings, failOn, severityOverrides,
        list, reportDirectory, projectBase);
  }

  public VerifyRequest withSeverityOverrides(Map<String, Severity> overrides) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, platformTag, settings, failOn, overrides,
        suppressions, reportDirectory, projectBase);
  }

  public VerifyRequest withLayout(Layout value) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, value, platformTag, settings, failOn, severityOverrides,
        suppressions, reportDirectory, projectBase);
  }

  public VerifyRequest withSettings(CheckSettings value) {
    return new VerifyRequest(wheelLib, wheel, wheelLibPath, layout, platformTag, value, failOn, severityOverrides,
        suppressions, reportDirectory, projectBase);
  }
}
