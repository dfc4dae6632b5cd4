package dev.tewheel.plugin;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.Severity;
import dev.tewheel.core.diff.DiffRequest;
import dev.tewheel.core.diff.WheelDiff;
import dev.tewheel.core.verify.ReportWriter;
import dev.tewheel.core.verify.Suppression;
import dev.tewheel.core.verify.VerifyReport;
import dev.tewheel.core.verify.VerifyRequest;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Component;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;

/**
 * Compares this release's wheel_lib with the previous release's (a .whl, a folder, or the whl artifact of its
 * Maven coordinates) and fails on ABI breaks and budgets, as japicmp does for jars. See docs/goals/diff-wheel.md.
 */
@Mojo(name = "diff-wheel", threadSafe = true)
public class DiffWheelMojo extends AbstractMojo {
  /** This release as a wheel_lib folder, unless wheel is set. */
  @Parameter(property = "te.wheelLib", defaultValue = "${project.build.directory}/wheel/transformer_engine/wheel_lib")
  File wheelLib;

  /** This release as a .whl. */
  @Parameter(property = "te.wheel")
  File wheel;

  /** The previous release: a .whl or a wheel_lib folder. */
  @Parameter(property = "te.baseline")
  File baseline;

  /** Instead of baseline: groupId:artifactId:version[:classifier] of the previous release's whl artifact. */
  @Parameter(property = "te.baselineArtifact")
  String baselineArtifact;

  /** Where wheel_lib sits inside a wheel. */
  @Parameter(property = "te.wheelLibPath", defaultValue = VerifyRequest.DEFAULT_WHEEL_LIB_PATH)
  String wheelLibPath;

  /** The layout to assume for a folder without a manifest. */
  @Parameter(property = "te.layout", defaultValue = "default")
  String layout;

  /** The largest growth of wheel_lib's total size that passes, in percent of the baseline's. */
  @Parameter(property = "te.maxGrowthPercent", defaultValue = "10")
  double maxGrowthPercent;

  /** error or warning: the lowest severity that fails the build. */
  @Parameter(property = "te.failOn", defaultValue = "error")
  String failOn;

  /** Severity overrides, each ID=error|warning|info. */
  @Parameter(property = "te.severities")
  List<String> severities;

  /** Accepted findings, each ID[@file]: reason. */
  @Parameter(property = "te.suppressions")
  List<String> suppressions;

  /** Where report.json and TEST-te-diff-wheel.xml go. */
  @Parameter(property = "te.reportDirectory", defaultValue = "${project.build.directory}/te-diff")
  File reportDirectory;

  /** Skips the goal. */
  @Parameter(property = "te.skip", defaultValue = "false")
  boolean skip;

  @Parameter(defaultValue = "${repositorySystemSession}", readonly = true)
  RepositorySystemSession repositorySession;

  @Parameter(defaultValue = "${project.remoteProjectRepositories}", readonly = true)
  List<RemoteRepository> remoteRepositories;

  @Component
  RepositorySystem repositorySystem;

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("te:diff-wheel skipped (te.skip)");
      return;
    }
    DiffRequest request;
    try {
      request = new DiffRequest(baselinePath(), wheel != null ? wheel.toPath() : wheelLib.toPath(), wheelLibPath,
          Layout.named(layout), maxGrowthPercent, Severity.parse(failOn), Severity.overrides(severities),
          (suppressions == null ? List.<String>of() : suppressions).stream().map(Suppression::parse).toList(),
          reportDirectory.toPath());
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:diff-wheel is misconfigured: " + e.getMessage(), e);
    }
    VerifyReport report;
    try {
      report = new WheelDiff().diff(request);
    } catch (IOException e) {
      throw new MojoFailureException("te:diff-wheel could not read its input: " + e.getMessage(), e);
    }
    ReportWriter writer = new ReportWriter(report);
    List<String> lines = writer.console();
    lines.subList(0, lines.size() - 1).forEach(getLog()::info);
    getLog().info("reports: " + reportDirectory.toPath().resolve(ReportWriter.JSON) + ", "
        + reportDirectory.toPath().resolve(writer.junitFileName()));
    if (!report.passed()) {
      throw new MojoFailureException(report.summary());
    }
    getLog().info(report.summary());
  }

  /** The baseline file or folder, resolving baselineArtifact through the repository system when given. */
  private Path baselinePath() throws MojoExecutionException {
    boolean coordinates = baselineArtifact != null && !baselineArtifact.isBlank();
    if ((baseline != null) == coordinates) {
      throw new IllegalArgumentException("set exactly one of <baseline> (a .whl or wheel_lib folder) and"
          + " <baselineArtifact> (groupId:artifactId:version[:classifier] of the previous release's whl)");
    }
    if (baseline != null) {
      return baseline.toPath();
    }
    String[] parts = baselineArtifact.trim().split(":");
    if (parts.length < 3 || parts.length > 4) {
      throw new IllegalArgumentException("<baselineArtifact> '" + baselineArtifact + "' is not"
          + " groupId:artifactId:version[:classifier]");
    }
    DefaultArtifact artifact = new DefaultArtifact(parts[0], parts[1], parts.length == 4 ? parts[3] : "", "whl",
        parts[2]);
    try {
      return repositorySystem.resolveArtifact(repositorySession, new ArtifactRequest(artifact, remoteRepositories,
          null)).getArtifact().getFile().toPath();
    } catch (ArtifactResolutionException e) {
      throw new MojoExecutionException("te:diff-wheel could not resolve the baseline " + artifact + " (type whl) from"
          + " the local repository and " + remoteRepositories.stream().map(RemoteRepository::getUrl).toList() + ": "
          + e.getMessage() + ". Check the coordinates, and that the previous release attached its .whl (te:pack-wheel"
          + " attaches it with type whl)", e);
    }
  }
}
