package dev.tewheel.plugin;

import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.goal.Values;
import dev.tewheel.core.release.ReleaseVerifier;
import dev.tewheel.json.Printable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * A release verified as one set: every wheel of the release folder through the gate (as te:verify-wheel-lib), a few
 * at a time in bounded memory, then RELEASE-MATRIX (every expected CUDA variant and platform once, one version, the
 * same Python files, TE exports, NCCL EP and GPU architectures), in one report. te-wheel verify-release is the same
 * as a command. See docs/goals/verify-release.md.
 */
@Mojo(name = "verify-release", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true, requiresProject = false)
public class VerifyReleaseMojo extends TeMojo {
  /** The release's folder: every .whl in it is one wheel of the release. */
  @Parameter(property = "te.releaseDirectory")
  File releaseDirectory;

  /** The CUDA variants every platform must have a wheel of, e.g. 12,13; unset: the variants present. */
  @Parameter(property = "te.expectCudaMajors")
  List<String> expectCudaMajors;

  /** The architectures (x86_64, aarch64) or platform tags every variant must have a wheel of; unset: those present. */
  @Parameter(property = "te.expectPlatforms")
  List<String> expectPlatforms;

  @Override
  String goal() {
    return "te:verify-release";
  }

  @Override
  String defaultReportFolder() {
    return "te-release";
  }

  @Override
  Values values() {
    return super.values().set(Parameters.RELEASE_DIRECTORY, releaseDirectory)
        .set(Parameters.EXPECT_CUDA_MAJORS, expectCudaMajors).set(Parameters.EXPECT_PLATFORMS, expectPlatforms);
  }

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    Configuration configuration = configuration();
    Path folder = configuration.releaseDirectory();
    if (folder == null) {
      throw new MojoExecutionException(Printable.text(goal() + ": releaseDirectory is required: set"
          + " -Dte.releaseDirectory=<folder of the release's wheels>"));
    }
    ReleaseVerifier.Verdict verdict;
    try {
      verdict = new ReleaseVerifier().verify(configuration.release(folder, ReleaseVerifier.wheelsIn(folder),
          reportPath()));
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(Printable.text(goal() + " is misconfigured: " + e.getMessage()), e);
    } catch (IOException e) {
      throw new MojoFailureException(Printable.text(goal() + " could not read its input: " + e.getMessage()), e);
    }
    judge(verdict.report(), reportFiles(verdict.report()), "");
  }
}
