package dev.tewheel.plugin;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.goal.Values;
import dev.tewheel.core.verify.DeclareFloors;
import dev.tewheel.core.verify.PackedWheel;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.json.Printable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProjectHelper;

/**
 * Writes a deterministic .whl from the staged tree (PEP 427: METADATA, WHEEL, RECORD), with the CUDA-major rename
 * TE's release script makes, verifies it with every check (configured as for te:verify-wheel-lib), and attaches it
 * to the build; te-wheel pack is the same as a command. See docs/goals/pack-wheel.md.
 */
@Mojo(name = "pack-wheel", defaultPhase = LifecyclePhase.PACKAGE, threadSafe = true)
public class PackWheelMojo extends TeMojo {
  /** The tree to pack: the Python package files and transformer_engine/wheel_lib from assemble. */
  @Parameter(property = "te.stagingDirectory", defaultValue = "${project.build.directory}/wheel")
  File stagingDirectory;

  /** The distribution name, e.g. transformer_engine. */
  @Parameter(property = "te.distribution", defaultValue = PackRequest.DEFAULT_DISTRIBUTION)
  String distribution;

  /** The wheel's version (PEP 440), e.g. 2.9.0. */
  @Parameter(property = "te.version")
  String version;

  /** The Python tag of the file name and WHEEL's Tag line (PEP 425), e.g. py3 or cp312. */
  @Parameter(property = "te.pythonTag", defaultValue = PackRequest.DEFAULT_PYTHON_TAG)
  String pythonTag;

  /** The ABI tag of the file name and WHEEL's Tag line (PEP 425), e.g. none or cp312. */
  @Parameter(property = "te.abiTag", defaultValue = PackRequest.DEFAULT_ABI_TAG)
  String abiTag;

  /** A METADATA file to use (its Name is renamed for cudaMajor); unset: generated from the fields below. */
  @Parameter(property = "te.metadataFile")
  File metadataFile;

  /** A generated METADATA's Summary: one line. */
  @Parameter(property = "te.summary")
  String summary;

  /** A generated METADATA's Requires-Python, e.g. {@code >=3.10}. */
  @Parameter(property = "te.requiresPython")
  String requiresPython;

  /** A generated METADATA's Requires-Dist lines, one requirement each (PEP 508), e.g. {@code torch>=2.1}. */
  @Parameter(property = "te.requiresDist")
  List<String> requiresDist;

  /**
   * Adds {@code Requires-Dist: <distribution>>=<version>} after {@code requiresDist} for each floor wheel of
   * {@code floorLibraries} on which every shipped library binds (SYMBOL-FLOOR), for the wheel's CUDA variant; pack's
   * verification then holds the written lines to that proof (DEPS-DECLARED).
   */
  @Parameter(property = "te.declareFloors", defaultValue = "false")
  String declareFloors;

  /** The extra declareFloors's lines go under ({@code Provides-Extra}); unset: always required. */
  @Parameter(property = "te.floorExtra")
  String floorExtra;

  /** A generated METADATA's License: one line. */
  @Parameter(property = "te.license")
  String license;

  /** A generated METADATA's Home-page URL. */
  @Parameter(property = "te.homePage")
  String homePage;

  /** Deflate level, 0 (stored) to 9. */
  @Parameter(property = "te.compressionLevel", defaultValue = "" + PackRequest.DEFAULT_COMPRESSION_LEVEL)
  String compressionLevel;

  /** Where the .whl goes. */
  @Parameter(property = "te.wheelDirectory", defaultValue = "${project.build.directory}")
  File wheelDirectory;

  /** Verify the written wheel with every check before the goal returns. */
  @Parameter(property = "te.verify", defaultValue = "true")
  String verify;

  private final MavenProjectHelper projectHelper;

  /**
   * The goal, as Maven makes it.
   *
   * @param projectHelper attaches the wheel to the project
   */
  @Inject
  public PackWheelMojo(MavenProjectHelper projectHelper) {
    this.projectHelper = projectHelper;
  }

  @Override
  String goal() {
    return "te:pack-wheel";
  }

  /** Pack writes any wheel: with layout any, what it wrote is verified as te:verify-wheel-lib checks any native wheel. */
  @Override
  boolean acceptsAnyLayout() {
    return true;
  }

  @Override
  String verdictLabel() {
    return PackedWheel.VERDICT_LABEL;
  }

  /** Pack's own folder, so its verification never overwrites the reports of te:verify-wheel-lib. */
  @Override
  String defaultReportFolder() {
    return "te-pack";
  }

  /**
   * Says whether the staged wheel_lib is the one te:assemble-wheel-lib wrote in this build: packing another (an
   * earlier run's, after assemble wrote elsewhere) would ship stale libraries under a PASSED verdict.
   */
  private void sayWhichWheelLib() {
    Path staged = stagingDirectory.toPath().resolve(wheelLibPath).toAbsolutePath().normalize();
    List<Path> written = new BuildState(project).assembled();
    if (written.contains(staged)) {
      return;
    }
    if (!written.isEmpty()) {
      warn(goal() + " packs " + staged + ", but te:assemble-wheel-lib wrote " + written.get(written.size() - 1)
          + " in this build: the staged wheel_lib is an older one. Point te.outputDirectory at " + staged
          + " or te.stagingDirectory at the folder above the one assemble wrote");
    } else if (Files.isRegularFile(staged.resolve(Layout.MANIFEST))) {
      info(goal() + " packs " + staged + ", assembled by an earlier build (" + Layout.MANIFEST + " written "
          + modified(staged.resolve(Layout.MANIFEST)) + "); no te:assemble-wheel-lib ran in this build");
    }
  }

  private static String modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant().truncatedTo(ChronoUnit.SECONDS).toString();
    } catch (IOException e) {
      return "at an unknown time";
    }
  }

  @Override
  Values values() {
    return super.values().set(Parameters.STAGING_DIRECTORY, stagingDirectory)
        .set(Parameters.DISTRIBUTION, distribution).set(Parameters.VERSION, version)
        .set(Parameters.PYTHON_TAG, pythonTag).set(Parameters.ABI_TAG, abiTag)
        .set(Parameters.METADATA_FILE, metadataFile).set(Parameters.SUMMARY, summary)
        .set(Parameters.REQUIRES_PYTHON, requiresPython).set(Parameters.REQUIRES_DIST, requiresDist)
        .set(Parameters.DECLARE_FLOORS, declareFloors).set(Parameters.FLOOR_EXTRA, floorExtra)
        .set(Parameters.LICENSE, license).set(Parameters.HOME_PAGE, homePage)
        .set(Parameters.COMPRESSION_LEVEL, compressionLevel).set(Parameters.WHEEL_DIRECTORY, wheelDirectory)
        .set(Parameters.VERIFY, verify);
  }

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    Configuration configuration = configuration();
    PackRequest request = configuration.pack();
    DeclareFloors declare = configuration.declareFloors();
    // The platform is the one the wheel's name carries: the first of a compressed set.
    Function<Path, VerifyRequest> verification = configuration.packVerifies()
        ? configuration.verification(true, null, reportPath(), acceptsAnyLayout()) : null;
    sayWhichWheelLib();
    PackedWheel packed;
    try {
      packed = PackedWheel.packAndVerify(request, verification, this::info, declare);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(Printable.text(goal() + " is misconfigured: " + e.getMessage()), e);
    } catch (IOException e) {
      throw new MojoFailureException(Printable.text(goal() + " failed: " + e.getMessage()), e);
    }
    info(packed.result().summary());
    if (packed.verification().isPresent()) {
      GateReport report = packed.verification().get();
      judge(report, reportFiles(report), packed.failureNote());
    }
    if (attach) {
      projectHelper.attachArtifact(project, "whl", packed.result().wheel().toFile());
    }
  }
}
