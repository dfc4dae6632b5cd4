package dev.tewheel.core.assemble;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.GatePolicy;
import dev.tewheel.core.gate.Severity;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to assemble and where.
 *
 * @param transformerEngineLibrary the built libtransformer_engine.so
 * @param ncclEpHome NCCL EP's build prefix (lib/, include/), or null to ship no NCCL EP
 * @param headerIncludes patterns over include/ of the headers to ship
 * @param headerExcludes patterns over include/ of headers to leave out
 * @param outputDirectory the wheel_lib folder to write
 * @param layout where each piece goes inside it
 * @param checks check settings (ncclEpMajor, forbidden DT_NEEDED, include search path)
 * @param severityOverrides check ID to severity
 * @param timestamp the mtime of every written file, or null to keep each source's
 * @param stateFile where the last run's record of sources goes (for incremental runs); null: beside wheel_lib as
 *     {@code .wheel_lib.te-wheel-state.json}. Keep it out of a tree that will be packed.
 * @param reportDirectory where the gate's report files go (report.json, JUnit XML, SARIF), written whether the
 *     checks pass or stop the run; null: none
 * @param projectBase the project's folder, which report paths are relative to; null: as the findings name them
 */
public record AssembleRequest(Path transformerEngineLibrary, Path ncclEpHome, List<String> headerIncludes,
    List<String> headerExcludes, Path outputDirectory, Layout layout, CheckSettings checks,
    Map<String, Severity> severityOverrides, FileTime timestamp, Path stateFile, Path reportDirectory,
    Path projectBase) {
  /** The headers shipped when no pattern is configured, as the parameter value. */
  public static final String DEFAULT_HEADER_INCLUDES_TEXT = "**/*.h,**/*.hpp,**/*.cuh";

  public static final List<String> DEFAULT_HEADER_INCLUDES = List.of(DEFAULT_HEADER_INCLUDES_TEXT.split(","));

  public AssembleRequest {
    Objects.requireNonNull(transformerEngineLibrary, "transformerEngineLibrary");
    Objects.requireNonNull(outputDirectory, "outputDirectory");
    Objects.requireNonNull(layout, "layout");
    if (layout.any()) {
      throw new IllegalArgumentException("layout 'any' is for verify-wheel-lib, diff-wheel and pack-wheel, which"
          + " check any native wheel; assemble builds TE's wheel_lib: choose layout default or ep-home");
    }
    Objects.requireNonNull(checks, "checks");
    headerIncludes = headerIncludes == null || headerIncludes.isEmpty() ? DEFAULT_HEADER_INCLUDES
        : List.copyOf(headerIncludes);
    headerExcludes = headerExcludes == null ? List.of() : List.copyOf(headerExcludes);
    severityOverrides = policy(severityOverrides).severities(); // every ID known, before anything runs
  }

  /** Assemble's policy: stop on errors; the checks' IDs in the overrides known. */
  public GatePolicy policy() {
    return policy(severityOverrides);
  }

  private static GatePolicy policy(Map<String, Severity> overrides) {
    return GatePolicy.stopOnErrors(CheckCatalogue.CHECKS, overrides);
  }

  /** Where the state file goes: as given, else beside wheel_lib. */
  public Path stateFileOrDefault() {
    return stateFile != null ? stateFile : AssembleState.fileFor(outputDirectory.toAbsolutePath().normalize());
  }

  public AssembleRequest withStateFile(Path file) {
    return new AssembleRequest(transformerEngineLibrary, ncclEpHome, headerIncludes, headerExcludes, outputDirectory,
        layout, checks, severityOverrides, timestamp, file, reportDirectory, projectBase);
  }

  /** A request with the defaults: the default layout and checks, no overrides, sources' mtimes. */
  public static AssembleRequest of(Path transformerEngineLibrary, Path ncclEpHome, Path outputDirectory) {
    return new AssembleRequest(transformerEngineLibrary, ncclEpHome, null, null, outputDirectory, Layout.DEFAULT,
        CheckSettings.defaults(), null, null, null, null, null);
  }

  public AssembleRequest withLayout(Layout other) {
    return new AssembleRequest(transformerEngineLibrary, ncclEpHome, headerIncludes, headerExcludes, outputDirectory,
        other, checks, severityOverrides, timestamp, stateFile, reportDirectory, projectBase);
  }

  public AssembleRequest withTimestamp(FileTime other) {
    return new AssembleRequest(transformerEngineLibrary, ncclEpHome, headerIncludes, headerExcludes, outputDirectory,
        layout, checks, severityOverrides, other, stateFile, reportDirectory, projectBase);
  }

  public AssembleRequest withChecks(CheckSettings other) {
    return new AssembleRequest(transformerEngineLibrary, ncclEpHome, headerIncludes, headerExcludes, outputDirectory,
        layout, other, severityOverrides, timestamp, stateFile, reportDirectory, projectBase);
  }

  /** The request with its reports written into {@code folder}, paths shown relative to {@code base}. */
  public AssembleRequest withReports(Path folder, Path base) {
    return new AssembleRequest(transformerEngineLibrary, ncclEpHome, headerIncludes, headerExcludes, outputDirectory,
        layout, checks, severityOverrides, timestamp, stateFile, folder, base);
  }
}
