package dev.tewheel.plugin;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Severity;
import dev.tewheel.core.verify.ReportWriter;
import dev.tewheel.core.verify.Suppression;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyReport;
import dev.tewheel.core.verify.VerifyRequest;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * The release gate: runs every check, each with a stable ID, on a wheel_lib folder or a built .whl (read in place),
 * prints a table and a summary, writes report.json and a JUnit XML report, and fails the build on any finding at or
 * above {@code failOn}. See docs/goals/verify-wheel-lib.md.
 */
@Mojo(name = "verify-wheel-lib", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class VerifyWheelLibMojo extends CheckingMojo {
  /** A wheel_lib folder to verify (default: what te:assemble-wheel-lib writes), unless {@code wheel} is set. */
  @Parameter(property = "te.wheelLib", defaultValue = "${project.build.directory}/wheel/transformer_engine/wheel_lib")
  File wheelLib;

  /** A .whl to verify instead of a folder; read in place, never extracted. */
  @Parameter(property = "te.wheel")
  File wheel;

  /** Where wheel_lib sits inside the wheel. */
  @Parameter(property = "te.wheelLibPath", defaultValue = VerifyRequest.DEFAULT_WHEEL_LIB_PATH)
  String wheelLibPath;

  /** The layout to assume when wheel_lib carries no manifest: default or ep-home. */
  @Parameter(property = "te.layout", defaultValue = "default")
  String layout;

  /** e.g. manylinux_2_28_x86_64; default: from the wheel's file name, else this machine (linux_<arch>). */
  @Parameter(property = "te.platformTag")
  String platformTag;

  /** The lowest severity that fails the build: error or warning. */
  @Parameter(property = "te.failOn", defaultValue = "error")
  String failOn;

  /** Accepted findings, each "ID[@file]: reason"; the reason is required and printed. */
  @Parameter(property = "te.suppressions")
  List<String> suppressions;

  /** Where report.json and TEST-te-verify-wheel-lib.xml go. */
  @Parameter(property = "te.reportDirectory", defaultValue = "${project.build.directory}/te-verify")
  File reportDirectory;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skipped("te:verify-wheel-lib")) {
      return;
    }
    VerifyRequest request;
    try {
      CheckSettings settings = checkSettings();
      request = new VerifyRequest(wheel == null ? wheelLib.toPath() : null, wheel == null ? null : wheel.toPath(),
          wheelLibPath, Layout.named(layout), platformTag, settings, Severity.parse(failOn),
          severityOverrides(), orEmpty(suppressions).stream().map(Suppression::parse).toList(),
          reportDirectory.toPath());
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:verify-wheel-lib is misconfigured: " + e.getMessage(), e);
    }
    VerifyReport report;
    try {
      report = new Verifier().verify(request);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:verify-wheel-lib is misconfigured: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new MojoFailureException("te:verify-wheel-lib could not read its input: " + e.getMessage(), e);
    }
    List<String> lines = new ReportWriter(report).console();
    lines.subList(0, lines.size() - 1).forEach(getLog()::info);
    getLog().info("reports: " + reportDirectory.toPath().resolve(ReportWriter.JSON) + ", "
        + reportDirectory.toPath().resolve(ReportWriter.JUNIT));
    if (!report.passed()) {
      throw new MojoFailureException(report.summary());
    }
    getLog().info(report.summary());
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }
}
