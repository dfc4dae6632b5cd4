package dev.tewheel.plugin;

import dev.tewheel.core.assemble.BuildTimestamp;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.PlatformTag;
import dev.tewheel.core.check.Severity;
import dev.tewheel.core.verify.ReportWriter;
import dev.tewheel.core.verify.Suppression;
import dev.tewheel.core.verify.VerifyReport;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.wheel.PackRequest;
import dev.tewheel.core.wheel.PackedWheel;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import javax.inject.Inject;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.project.MavenProjectHelper;

/**
 * Writes a deterministic .whl from the staged tree (PEP 427: METADATA, WHEEL, RECORD), with the CUDA-major rename
 * TE's release script makes, verifies it with every check, and attaches it to the build. See
 * docs/goals/pack-wheel.md.
 */
@Mojo(name = "pack-wheel", defaultPhase = LifecyclePhase.PACKAGE, threadSafe = true)
public class PackWheelMojo extends AbstractMojo {
  /** The tree to pack: the Python package files and transformer_engine/wheel_lib from assemble. */
  @Parameter(property = "te.stagingDirectory", defaultValue = "${project.build.directory}/wheel")
  File stagingDirectory;

  /** The distribution name, e.g. transformer_engine. */
  @Parameter(property = "te.distribution", defaultValue = "transformer_engine")
  String distribution;

  /** The wheel's version (PEP 440), e.g. 2.9.0. */
  @Parameter(property = "te.version", required = true)
  String version;

  /** When set, the distribution becomes {@code <name>_cu<N>} in the file name, dist-info and METADATA Name. */
  @Parameter(property = "te.cudaMajor")
  Integer cudaMajor;

  @Parameter(property = "te.pythonTag", defaultValue = "py3")
  String pythonTag;

  @Parameter(property = "te.abiTag", defaultValue = "none")
  String abiTag;

  /** e.g. manylinux_2_28_x86_64; default: this machine as linux_<arch>. */
  @Parameter(property = "te.platformTag")
  String platformTag;

  /** A METADATA file to use (its Name is renamed for cudaMajor); unset: generated from the fields below. */
  @Parameter(property = "te.metadataFile")
  File metadataFile;

  @Parameter(property = "te.summary")
  String summary;

  @Parameter(property = "te.requiresPython")
  String requiresPython;

  @Parameter(property = "te.requiresDist")
  List<String> requiresDist;

  @Parameter(property = "te.license")
  String license;

  @Parameter(property = "te.homePage")
  String homePage;

  /** Deflate level, 0 (stored) to 9. */
  @Parameter(property = "te.compressionLevel", defaultValue = "6")
  int compressionLevel;

  /** Where the .whl goes. */
  @Parameter(property = "te.outputDirectory", defaultValue = "${project.build.directory}")
  File outputDirectory;

  /** The time of every entry (ISO-8601 or seconds since 1970); unset: SOURCE_DATE_EPOCH, else 1980-01-01. */
  @Parameter(property = "te.outputTimestamp", defaultValue = "${project.build.outputTimestamp}")
  String outputTimestamp;

  /** Attach the .whl to the project (type whl), so install and deploy publish it. */
  @Parameter(property = "te.attach", defaultValue = "true")
  boolean attach;

  /** Verify the written wheel with every check before the goal returns. */
  @Parameter(property = "te.verify", defaultValue = "true")
  boolean verify;

  /** The lowest severity that fails verification: error or warning. */
  @Parameter(property = "te.failOn", defaultValue = "error")
  String failOn;

  /** Accepted findings for the verification, each "ID[@file]: reason". */
  @Parameter(property = "te.suppressions")
  List<String> suppressions;

  /** Where the verification's report.json and JUnit XML go. */
  @Parameter(property = "te.reportDirectory", defaultValue = "${project.build.directory}/te-verify")
  File reportDirectory;

  @Parameter(property = "te.skip", defaultValue = "false")
  boolean skip;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  MavenProject project;

  private final MavenProjectHelper projectHelper;

  @Inject
  public PackWheelMojo(MavenProjectHelper projectHelper) {
    this.projectHelper = projectHelper;
  }

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("te:pack-wheel skipped (te.skip)");
      return;
    }
    PackRequest request;
    Function<java.nio.file.Path, VerifyRequest> verification;
    try {
      String tag = platformTag == null || platformTag.isBlank() ? PlatformTag.ofThisMachine().tag() : platformTag;
      request = new PackRequest(stagingDirectory.toPath(), distribution, version, cudaMajor, pythonTag, abiTag, tag,
          metadataFile == null ? null : metadataFile.toPath(),
          new Metadata.Fields(summary, requiresPython, requiresDist, license, homePage), compressionLevel,
          outputDirectory.toPath(), BuildTimestamp.resolve(outputTimestamp).orElse(null), generator());
      Severity level = Severity.parse(failOn);
      List<Suppression> accepted = (suppressions == null ? List.<String>of() : suppressions).stream()
          .map(Suppression::parse).toList();
      verification = !verify ? null : wheel -> VerifyRequest.wheel(wheel).withFailOn(level)
          .withSuppressions(accepted).withReportDirectory(reportDirectory.toPath());
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:pack-wheel is misconfigured: " + e.getMessage(), e);
    }
    PackedWheel packed;
    try {
      packed = PackedWheel.packAndVerify(request, verification);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:pack-wheel is misconfigured: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new MojoFailureException("te:pack-wheel failed: " + e.getMessage(), e);
    }
    getLog().info(packed.result().summary());
    if (packed.verification().isPresent()) {
      VerifyReport report = packed.verification().get();
      List<String> lines = new ReportWriter(report).console();
      lines.subList(0, lines.size() - 1).forEach(getLog()::info);
      if (!report.passed()) {
        throw new MojoFailureException(report.summary() + "; the wheel was renamed to "
            + packed.result().wheel().getFileName() + PackedWheel.REJECTED_SUFFIX);
      }
      getLog().info("verify: " + report.summary());
    }
    if (attach) {
      projectHelper.attachArtifact(project, "whl", packed.result().wheel().toFile());
    }
  }

  private String generator() {
    String pluginVersion = getClass().getPackage().getImplementationVersion();
    return "te-wheel" + (pluginVersion == null ? "" : " " + pluginVersion);
  }
}
