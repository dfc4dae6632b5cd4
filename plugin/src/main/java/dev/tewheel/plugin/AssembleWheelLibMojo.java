package dev.tewheel.plugin;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleException;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.AssembleResult;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.json.Printable;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Lays out {@code transformer_engine/wheel_lib} from a Transformer Engine build: the TE library, the one real NCCL
 * EP library file and NCCL EP's JIT headers, checked before anything is written, plus the manifest
 * {@code te-wheel-lib.json}. Atomic, incremental and reproducible; the checks' report files go to
 * {@code reportDirectory} (default target/te-assemble) whether they pass or stop the run. See
 * docs/goals/assemble-wheel-lib.md.
 */
@Mojo(name = "assemble-wheel-lib", defaultPhase = LifecyclePhase.PREPARE_PACKAGE, threadSafe = true)
public class AssembleWheelLibMojo extends TeMojo {
  /** The libtransformer_engine.so that TE's CMake build produced. */
  @Parameter(property = "te.transformerEngineLibrary")
  File transformerEngineLibrary;

  /** NCCL EP's build prefix (lib/libnccl_ep.so*, include/); unset ships no NCCL EP (NVTE_WITH_NCCL_EP=OFF). */
  @Parameter(property = "te.ncclEpHome")
  File ncclEpHome;

  /** Patterns over include/ of the headers to ship. */
  @Parameter(property = "te.headerIncludes", defaultValue = AssembleRequest.DEFAULT_HEADER_INCLUDES_TEXT)
  List<String> headerIncludes;

  /** Patterns over include/ of headers to leave out. */
  @Parameter(property = "te.headerExcludes")
  List<String> headerExcludes;

  /** The wheel_lib folder to write. */
  @Parameter(property = "te.outputDirectory",
      defaultValue = "${project.build.directory}/wheel/" + VerifyRequest.DEFAULT_WHEEL_LIB_PATH)
  File outputDirectory;

  /** Another path for the NCCL EP library inside wheel_lib, e.g. libnccl_ep.so.{major}. */
  @Parameter(property = "te.ncclEpLibrary")
  String ncclEpLibrary;

  /** Another folder (named include) for NCCL EP's headers inside wheel_lib. */
  @Parameter(property = "te.includeRoot")
  String includeRoot;

  /** Where the record of the last run goes (for incremental runs); outside wheel_lib's package, so it is never packed. */
  @Parameter(property = "te.stateFile", defaultValue = "${project.build.directory}/te-wheel/assemble-state.json")
  File stateFile;

  @Override
  String goal() {
    return "te:assemble-wheel-lib";
  }

  @Override
  String defaultReportFolder() {
    return "te-assemble";
  }

  private void recordWritten() {
    new BuildState(project).assembled(outputDirectory.toPath());
  }

  /**
   * Parses one of assemble's own parameters (the shared ones are core's, {@link Configuration}); a malformed value
   * is a configuration error naming the parameter as users type it and echoing the value.
   */
  private <T> T parameter(String name, String value, Supplier<T> parse) throws MojoExecutionException {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(Printable.text(goal() + ": te." + name + " = '" + value + "': " + e.getMessage()),
          e);
    }
  }

  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    Configuration configuration = configuration();
    Layout named = configuration.layout(acceptsAnyLayout());
    Layout withLibrary = ncclEpLibrary == null || ncclEpLibrary.isBlank() ? named
        : parameter("ncclEpLibrary", ncclEpLibrary, () -> named.withNcclEpLibrary(ncclEpLibrary.trim()));
    Layout chosen = includeRoot == null || includeRoot.isBlank() ? withLibrary
        : parameter("includeRoot", includeRoot, () -> withLibrary.withIncludeRoot(includeRoot.trim()));
    if (transformerEngineLibrary == null) {
      throw new MojoExecutionException(Printable.text(goal() + ": te.transformerEngineLibrary is required"));
    }
    AssembleRequest request = new AssembleRequest(transformerEngineLibrary.toPath(),
        ncclEpHome == null ? null : ncclEpHome.toPath(), headerIncludes, headerExcludes, outputDirectory.toPath(),
        chosen, configuration.checkSettings(), configuration.severities(CheckCatalogue.CHECKS),
        configuration.timestamp(), stateFile == null ? null : stateFile.toPath(), reportPath(), projectFolder());
    if (ncclEpHome == null) {
      info("ncclEpHome is not set: wheel_lib ships no NCCL EP (a build with NVTE_WITH_NCCL_EP=OFF)");
    }
    try {
      AssembleResult result = new Assembler(this::info).assemble(request);
      result.report().forEach(this::info);
      judge(result.verdict(), reportFiles(result.verdict()), "");
      recordWritten();
    } catch (AssembleException e) {
      // the message lists the errors again, in full
      e.verdict().ifPresent(verdict -> log(verdict, reportFiles(verdict)));
      throw new MojoFailureException(Printable.text(e.getMessage()), e);
    }
  }
}
