package dev.tewheel.plugin;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyDetails;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.json.Printable;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * The release gate: runs every check, each with a stable ID, on a wheel_lib folder or a built .whl (read in place),
 * prints a table and a summary, writes report.json, JUnit XML and SARIF, and fails the build on any finding at or
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
  void run() throws MojoExecutionException, MojoFailureException {
    VerifyRequest request = verification(wheel != null, platform()).apply(input());
    GateReport report;
    try {
      report = new Verifier().verify(request);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(Printable.text(goal() + " is misconfigured: " + e.getMessage()), e);
    } catch (IOException e) {
      throw new MojoFailureException(Printable.text(goal() + " could not read its input: " + e.getMessage()), e);
    }
    judge(report, reportFiles(report), "");
  }

  @Override
  List<String> summaryLines(GateReport report) {
    return suggestedTag(report);
  }

  /** "suggested platform tag: manylinux_2_28_x86_64", then what keeps it from a more compatible one. */
  static List<String> suggestedTag(GateReport report) {
    if (!(report.details() instanceof VerifyDetails details) || details.suggestion() == null) {
      return List.of();
    }
    List<String> lines = new java.util.ArrayList<>();
    lines.add(Printable.text("suggested platform tag: " + details.suggestion().tag()));
    details.suggestion().limits().forEach(limit -> lines.add(Printable.text("  limited by " + limit)));
    return lines;
  }
}
