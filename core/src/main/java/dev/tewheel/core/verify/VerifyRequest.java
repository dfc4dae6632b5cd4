package dev.tewheel.core.verify;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.gate.Suppression;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What to verify and how.
 *
 * @param input the wheel_lib folder or the .whl
 * @param wheelLibPath where wheel_lib sits inside the wheel
 * @param layout the layout to assume when wheel_lib has no manifest
 * @param platformTag e.g. manylinux_2_28_x86_64; null: from the wheel's file name, else this machine
 *     ({@code linux_<arch>})
 * @param settings check settings (the platform is filled in by the verifier)
 * @param policy how the gate judges the findings: failOn, check ID to severity, accepted findings; every ID known
 * @param reportDirectory where report.json, the JUnit XML and the SARIF file go, or null for none
 * @param projectBase the project's folder: the reports name files below it relative to it (SARIF against
 *     {@code PROJECTROOT}); null: every file as the findings name it
 */
public record VerifyRequest(Input input, String wheelLibPath, Layout layout, String platformTag,
    CheckSettings settings, GatePolicy policy, Path reportDirectory, Path projectBase) {
  public static final String DEFAULT_WHEEL_LIB_PATH = "transformer_engine/wheel_lib";

  /** What verify reads: a wheel_lib folder or a .whl, never both, never neither. */
  public sealed interface Input {
    /** The folder or the file. */
    Path path();
  }

  /** A wheel_lib folder, read where it is. */
  public record Folder(Path path) implements Input {
    public Folder {
      Objects.requireNonNull(path, "wheelLib");
    }
  }

  /** A .whl, read in place. */
  public record Wheel(Path path) implements Input {
    public Wheel {
      Objects.requireNonNull(path, "wheel");
    }
  }

  public VerifyRequest {
    Objects.requireNonNull(input, "input: a wheel_lib folder or a .whl");
    wheelLibPath = wheelLibPath == null || wheelLibPath.isBlank() ? DEFAULT_WHEEL_LIB_PATH
        : wheelLibPath.replaceAll("^/+|/+$", "");
    layout = layout == null ? Layout.DEFAULT : layout;
    settings = settings == null ? CheckSettings.defaults() : settings;
    // Before any check runs: the policy checks every ID, so a typo does not cost a full verification first.
    policy = policy == null ? GatePolicy.of(CheckCatalogue.CHECKS, null, null, null)
        : GatePolicy.of(CheckCatalogue.CHECKS, policy.failOn(), policy.severities(), policy.suppressions());
  }

  public static VerifyRequest folder(Path wheelLib) {
    return new VerifyRequest(new Folder(wheelLib), null, null, null, null, null, null, null);
  }

  public static VerifyRequest wheel(Path wheel) {
    return new VerifyRequest(new Wheel(wheel), null, null, null, null, null, null, null);
  }

  public VerifyRequest withPlatformTag(String tag) {
    return edit(e -> e.platformTag = tag);
  }

  public VerifyRequest withReportDirectory(Path folder) {
    return edit(e -> e.reportDirectory = folder);
  }

  public VerifyRequest withProjectBase(Path folder) {
    return edit(e -> e.projectBase = folder);
  }

  public VerifyRequest withFailOn(Severity severity) {
    return edit(e -> e.policy = new GatePolicy(severity, policy.severities(), policy.suppressions()));
  }

  public VerifyRequest withSuppressions(List<Suppression> list) {
    return edit(e -> e.policy = new GatePolicy(policy.failOn(), policy.severities(), list));
  }

  public VerifyRequest withSeverityOverrides(Map<String, Severity> overrides) {
    return edit(e -> e.policy = new GatePolicy(policy.failOn(), overrides, policy.suppressions()));
  }

  public VerifyRequest withLayout(Layout value) {
    return edit(e -> e.layout = value);
  }

  public VerifyRequest withSettings(CheckSettings value) {
    return edit(e -> e.settings = value);
  }

  /** This request with what {@code change} sets: each wither names its one field, the constructor runs once. */
  private VerifyRequest edit(Consumer<Edit> change) {
    Edit edit = new Edit(this);
    change.accept(edit);
    return new VerifyRequest(input, wheelLibPath, edit.layout, edit.platformTag, edit.settings, edit.policy,
        edit.reportDirectory, edit.projectBase);
  }

  /** The fields a wither may change. */
  private static final class Edit {
    Layout layout;
    String platformTag;
    CheckSettings settings;
    GatePolicy policy;
    Path reportDirectory;
    Path projectBase;

    Edit(VerifyRequest from) {
      layout = from.layout;
      platformTag = from.platformTag;
      settings = from.settings;
      policy = from.policy;
      reportDirectory = from.reportDirectory;
      projectBase = from.projectBase;
    }
  }
}
