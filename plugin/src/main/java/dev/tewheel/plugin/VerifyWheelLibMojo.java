package dev.tewheel.plugin;

import dev.tewheel.core.verify.ReportWriter;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyReport;
import dev.tewheel.core.verify.VerifyRequest;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * The release gate: runs every check, each with a stable ID, on a wheel_lib folder or a built .whl (read in place),
 * prints a table and a summary, writes report.json and a JUnit XML report, and fails the build on any finding at or
 * above {@code failOn}. See docs/goals/verify-wheel-lib.md.
 */
@Mojo(name = "verify-wheel-lib", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true, requiresProject = false)
public class VerifyWheelLibMojo extends TeMojo {
  @Override
  boolean acceptsAnyLayout() {
    return true;
  }

  @Override
  String goal() {
    return "te:verify-wheel-lib";
  }

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    warnUnreadProperties();
    if (skipped()) {
      return;
    }
    VerifyRequest request = verification(wheel != null, platform()).apply(input());
    VerifyReport report;
    try {
      report = new Verifier().verify(request);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(printable(goal() + " is misconfigured: " + e.getMessage()), e);
    } catch (IOException e) {
      throw new MojoFailureException(printable(goal() + " could not read its input: " + e.getMessage()), e);
    }
    List<String> lines = new ReportWriter(report).console();
    lines.subList(0, lines.size() - 1).forEach(this::info);
    new ReportWriter(report).warnings().forEach(this::warn);
    suggestedTag(report).forEach(this::info);
    info("reports: " + reportPath().resolve(ReportWriter.JSON) + ", "
        + reportPath().resolve(ReportWriter.JUNIT));
    if (!report.passed()) {
      throw new MojoFailureException(printable(report.summary()));
    }
    info(report.summary());
  }

  /** "suggested platform tag: manylinux_2_28_x86_64", then what keeps it from a more compatible one. */
  static List<String> suggestedTag(VerifyReport report) {
    Object tag = report.details().get(Verifier.SUGGESTED_TAG);
    if (tag == null) {
      return List.of();
    }
    List<String> lines = new java.util.ArrayList<>();
    lines.add(printable("suggested platform tag: " + tag));
    Object limits = report.details().get("suggestedPlatformTagLimits");
    if (limits instanceof List<?> list) {
      list.forEach(limit -> lines.add(printable("  limited by " + limit)));
    }
    return lines;
  }
}
