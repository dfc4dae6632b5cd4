package dev.tewheel.plugin;

import dev.tewheel.core.diff.DiffRequest;
import dev.tewheel.core.diff.WheelDiff;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.goal.Values;
import dev.tewheel.json.Printable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
 * Maven coordinates) and fails on ABI breaks and budgets, as japicmp does for jars; te-wheel diff is the same
 * comparison as a command. See docs/goals/diff-wheel.md.
 */
@Mojo(name = "diff-wheel", threadSafe = true, requiresProject = false)
public class DiffWheelMojo extends TeMojo {
  /** The previous release: a .whl or a wheel_lib folder. */
  @Parameter(property = "te.baseline")
  File baseline;

  /** Instead of baseline: groupId:artifactId:version[:classifier] of the previous release's whl artifact. */
  @Parameter(property = "te.baselineArtifact")
  String baselineArtifact;

  /** The largest growth of wheel_lib's total size that passes, in percent of the baseline's. */
  @Parameter(property = "te.maxGrowthPercent", defaultValue = "" + DiffRequest.DEFAULT_MAX_GROWTH_PERCENT)
  String maxGrowthPercent;

  @Parameter(defaultValue = "${repositorySystemSession}", readonly = true)
  RepositorySystemSession repositorySession;

  @Parameter(defaultValue = "${project.remoteProjectRepositories}", readonly = true)
  List<RemoteRepository> remoteRepositories;

  @Component
  RepositorySystem repositorySystem;

  @Override
  boolean acceptsAnyLayout() {
    return true;
  }

  @Override
  String goal() {
    return "te:diff-wheel";
  }

  @Override
  String defaultReportFolder() {
    return "te-diff";
  }

  @Override
  Values values() {
    return super.values().set(Parameters.MAX_GROWTH_PERCENT, maxGrowthPercent);
  }

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    Path baselinePath = baselinePath();
    Path current = input();
    DiffRequest request = configuration().diff(baselinePath, current, reportPath());
    GateReport report;
    try {
      report = new WheelDiff().diff(request);
    } catch (IOException e) {
      throw new MojoFailureException(Printable.text("te:diff-wheel could not read its input: " + e.getMessage()), e);
    }
    judge(report, reportFiles(report), "");
  }

  /** The baseline file or folder, resolving baselineArtifact through the repository system when given. */
  private Path baselinePath() throws MojoExecutionException {
    boolean coordinates = baselineArtifact != null && !baselineArtifact.isBlank();
    if ((baseline != null) == coordinates) {
      throw new MojoExecutionException(Printable.text(goal() + ": set exactly one of te.baseline (a .whl or wheel_lib"
          + " folder) and te.baselineArtifact (groupId:artifactId:version[:classifier] of the previous release's"
          + " whl); got "
          + baseline + " and " + baselineArtifact));
    }
    if (baseline != null) {
      return baseline.toPath();
    }
    String[] parts = baselineArtifact.trim().split(":");
    if (parts.length < 3 || parts.length > 4) {
      throw new MojoExecutionException(Printable.text(goal() + ": te.baselineArtifact = '" + baselineArtifact + "': not"
          + " groupId:artifactId:version[:classifier]"));
    }
    DefaultArtifact artifact = new DefaultArtifact(parts[0], parts[1], parts.length == 4 ? parts[3] : "", "whl",
        parts[2]);
    try {
      return repositorySystem.resolveArtifact(repositorySession, new ArtifactRequest(artifact, remoteRepositories,
          null)).getArtifact().getFile().toPath();
    } catch (ArtifactResolutionException e) {
      throw new MojoExecutionException(Printable.text("te:diff-wheel could not resolve the baseline " + artifact
          + " (type whl) from the local repository and "
          + remoteRepositories.stream().map(RemoteRepository::getUrl).toList() + ": "
          + e.getMessage() + ". Check the coordinates, and that the previous release attached its .whl (te:pack-wheel"
          + " attaches it with type whl)"), e);
    }
  }
}
