package dev.tewheel.plugin;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.json.Printable;
import java.io.IOException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;

/**
 * The release gate: runs every check, each with a stable ID, on a wheel_lib folder or a built .whl (read in place),
 * prints a table and a summary, writes report.json, JUnit XML and SARIF, and fails the build on any finding at or
 * above {@code failOn}. te-wheel verify is the same gate as a command. See docs/goals/verify-wheel-lib.md.
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
    VerifyRequest request = verification(wheel != null, configuration().platformTag()).apply(input());
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
}
